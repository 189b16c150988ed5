"""A component-value spec: the game and player counts, the population, the source games sampled and
their rollouts, the payout solver, the ablation and the comparison, and how a spec file is read and
checked (one-line SpecErrors, before any file is written); and ``Setup``, what a spec plays at one
player count: its game, population and declared choice."""

import functools
import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from bgsim.experiments.ablation import ablates
from bgsim.experiments.spec_check import choice_component, tolerance_from
from bgsim.sim.api import ComponentChoices, Determinisation, Stepping, supports
from bgsim.sim.errors import GameIdError, StrategyError
from bgsim.sim.profile import Attribution, ComponentChoice, GameProfile
from bgsim.sim.registry import make_game
from bgsim.sim.results.spec import SpecError, check_keys, read_spec_file, require, spec_header
from bgsim.sim.stats.equivalence import Tolerance
from bgsim.strategies import make_strategy

_KEYS = {
    "": {"name", "description", "game", "population", "sample", "solver", "ablation", "compare", "tolerance"},
    "game": {"id", "players", "params", "data"},
    "population": {"strategies"},
    "sample": {"games", "rollouts", "chunk_size", "seed"},
    "solver": {"q", "most", "points", "fresh_games", "fresh_most", "components"},
    "ablation": {"deals", "chunk_size", "fresh_deals"},
    "compare": {"association"},
    "tolerance": {"payout_steps", "power"},
}
VALUES_VERSION = 2  # what a point row measures: 2 = against the other components on offer or the average one
AUTO = "auto"  # solver.fresh_games: as many fresh source games as the tolerance and power need (up to fresh_most)

__all__ = ["AUTO", "VALUES_VERSION", "ComponentValueSpec", "Setup", "component_value_from_dict", "load_component_value"]


@dataclass(frozen=True)
class ComponentValueSpec:
    name: str
    game: str
    players: tuple[int, ...]
    strategies: tuple[str, ...]  # the population: seat s of source game g plays strategies[(s + g) % len]
    games: int = 200  # source games per player count
    rollouts: int = 16  # determinisations per alternative (even: half pick the rows, half measure)
    chunk_size: int = 10  # source games per chunk
    seed: int = 1
    solver_q: float = 0.05  # components whose choice value has a q below this get a payout
    solver_most: int = 0  # at most this many of them per player count, the furthest off first (0: all)
    solver_points: int = 200  # points per component the solver replays (the first by source game)
    fresh_games: int | str = 0  # source games on fresh deals (seed + 1) that check each solved payout, or "auto"
    fresh_most: int = 2000  # "auto" plays at most this many fresh source games per payout
    solver_components: tuple[str, ...] = ()  # catalogue ids to solve whatever their q ("" none)
    params: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)  # data file name -> absolute path of the replacement
    description: str = ""
    association: str = ""  # a seat-order report's table of the attribution (its CSV) to compare with
    ablation_deals: int = 0  # deals per player count played with and without each component (0: no ablation)
    ablation_chunk: int = 100  # deals per ablation chunk
    ablation_fresh: int = 0  # deals per player count of seed + 1 that check the effects found
    tolerance: Tolerance = field(default_factory=Tolerance)  # a payout is even within payout_steps of 0

    def to_dict(self) -> dict:
        doc = spec_header(self)
        doc["population"] = {"strategies": list(self.strategies)}
        doc["sample"] = {"games": self.games, "rollouts": self.rollouts, "chunk_size": self.chunk_size,
                         "seed": self.seed}
        doc["solver"] = {"q": self.solver_q, "most": self.solver_most, "points": self.solver_points,
                         "fresh_games": self.fresh_games, "fresh_most": self.fresh_most,
                         "components": list(self.solver_components)}
        doc["tolerance"] = {"payout_steps": self.tolerance.payout_steps, "power": self.tolerance.power}
        if self.ablation_deals:
            doc["ablation"] = {"deals": self.ablation_deals, "chunk_size": self.ablation_chunk,
                               "fresh_deals": self.ablation_fresh}
        if self.association:
            doc["compare"] = {"association": self.association}
        return doc

    def fingerprint(self) -> str:
        """Hash of everything that decides the sampled points (data files by content): not the chunk
        size, and not the solver's or the ablation's settings, which a resumed study may change (it
        solves again, or plays the ablation again)."""
        doc = asdict(self)
        for key in ("description", "chunk_size", "association", "ablation_deals", "ablation_chunk", "ablation_fresh",
                    "tolerance", *self.solver_settings()):
            doc.pop(key, None)
        doc["values"] = VALUES_VERSION
        doc["data"] = {name: hashlib.sha256(Path(path).read_bytes()).hexdigest() for name, path in
                       sorted(self.data.items())}
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:10]

    def solver_settings(self) -> dict:
        """The settings of the payout solver and its fresh-game check."""
        return {"solver_q": self.solver_q, "solver_most": self.solver_most, "solver_points": self.solver_points,
                "fresh_games": self.fresh_games, "fresh_most": self.fresh_most,
                "solver_components": list(self.solver_components),
                "tolerance": [self.tolerance.payout_steps, self.tolerance.power]}

    @property
    def study_id(self) -> str:
        return f"{self.name}-{self.fingerprint()}"

    def ablation_settings(self, fresh: bool = False) -> dict:
        """The deals and chunks of the ablation (``fresh``: of its check on seed + 1)."""
        return {"deals": self.ablation_fresh if fresh else self.ablation_deals, "chunk_size": self.ablation_chunk}

    def chunks(self) -> list[tuple[int, int, int]]:
        """(player count, first source game, end) per chunk, in order."""
        return [(n, start, min(start + self.chunk_size, self.games)) for n in self.players
                for start in range(0, self.games, self.chunk_size)]

    def ablation_chunks(self) -> list[tuple[int, int, int, bool]]:
        """(player count, first deal, end, fresh) per ablation chunk, in order: the ablation's, then its
        check's on fresh deals."""
        return [(n, start, min(start + self.ablation_chunk, deals), fresh)
                for fresh, deals in ((False, self.ablation_deals), (True, self.ablation_fresh)) for n in self.players
                for start in range(0, deals, self.ablation_chunk)]

    @property
    def total_games(self) -> int:
        """Source games and ablation deals, over every player count (what the progress counts)."""
        return (self.games + self.ablation_deals + self.ablation_fresh) * len(self.players)


# --- the spec


def load_component_value(path: str | Path) -> ComponentValueSpec:
    """Read and check a component-value spec; relative data paths are relative to the file."""
    path = Path(path)
    return component_value_from_dict(read_spec_file(path), path.parent, path.stem, path.name)


def component_value_from_dict(doc: dict, base_dir: str | Path = ".", default_name: str = "component_value",
                              source: str = "spec") -> ComponentValueSpec:
    check_keys(doc, _KEYS, source)
    game, sample, solver = doc.get("game", {}), doc.get("sample", {}), doc.get("solver", {})
    ablation_doc = doc.get("ablation", {})
    require("id" in game, f"{source}: [game] id is missing")
    players = game.get("players", [4])
    players = [players] if isinstance(players, int) else players
    data = {name: str((Path(base_dir) / value).resolve()) for name, value in game.get("data", {}).items()}
    strategies = doc.get("population", {}).get("strategies", [])
    require(isinstance(strategies, list) and strategies and all(isinstance(s, str) for s in strategies),
            f"{source}: [population] strategies must be a non-empty list of strategy ids")
    values = dict(games=sample.get("games", 200), rollouts=sample.get("rollouts", 16),
                  chunk_size=sample.get("chunk_size", 10), seed=sample.get("seed", 1),
                  solver_points=solver.get("points", 200), fresh_most=solver.get("fresh_most", 2000),
                  solver_most=solver.get("most", 0), ablation_deals=ablation_doc.get("deals", 0),
                  ablation_chunk=ablation_doc.get("chunk_size", 100),
                  ablation_fresh=ablation_doc.get("fresh_deals", 0))
    for key, value in values.items():
        require(isinstance(value, int) and not isinstance(value, bool) and value >= 0,
                f"{source}: {_key_name(key)} must be a non-negative integer, not {value!r}")
    require(values["games"] > 0 and values["chunk_size"] > 0, f"{source}: sample.games and sample.chunk_size "
                                                              "must be positive")
    require(values["ablation_chunk"] > 0, f"{source}: ablation.chunk_size must be positive")
    require(not values["ablation_fresh"] or values["ablation_deals"], f"{source}: ablation.fresh_deals checks the "
                                                                      "ablation's effects: set ablation.deals too")
    require(values["rollouts"] >= 2 and values["rollouts"] % 2 == 0,
            f"{source}: sample.rollouts must be even and at least 2 (half pick the rows, half measure), "
            f"not {values['rollouts']}")
    fresh_games = solver.get("fresh_games", 0)
    require(fresh_games == AUTO or (isinstance(fresh_games, int) and not isinstance(fresh_games, bool)
                                    and fresh_games >= 0),
            f"{source}: solver.fresh_games must be a non-negative integer or \"auto\", not {fresh_games!r}")
    tolerance = tolerance_from(doc.get("tolerance", {}), source)
    q = solver.get("q", 0.05)
    require(isinstance(q, int | float) and 0 <= q <= 1, f"{source}: solver.q must be between 0 and 1, not {q!r}")
    components = solver.get("components", [])
    require(isinstance(components, list) and all(isinstance(c, str) for c in components),
            f"{source}: solver.components must be a list of component ids")
    association = doc.get("compare", {}).get("association", "")
    require(isinstance(association, str), f"{source}: compare.association must be a path to a CSV table")
    if association:
        association = str((Path(base_dir) / association).resolve())
        require(Path(association).is_file(), f"{source}: compare.association: no file {association}")
    spec = ComponentValueSpec(
        association=association, name=doc.get("name", default_name), description=doc.get("description", ""),
        game=game["id"],
        players=tuple(players), strategies=tuple(strategies), solver_q=float(q),
        solver_components=tuple(components), params=dict(game.get("params", {})), data=data,
        fresh_games=fresh_games, tolerance=tolerance, **values)
    return _check_game(spec, source)


def _key_name(key: str) -> str:
    """A spec value's name as the file writes it: ``solver.points``, ``ablation.deals``, ``games``."""
    if key == "fresh_most":
        return "solver.fresh_most"
    for prefix in ("solver", "ablation"):
        if key.startswith(prefix + "_"):
            name = f"{prefix}.{key[len(prefix) + 1:]}"
            return {"ablation.chunk": "ablation.chunk_size", "ablation.fresh": "ablation.fresh_deals"}.get(name, name)
    return key


def _check_game(spec: ComponentValueSpec, source: str) -> ComponentValueSpec:
    """Every player count builds, declares a component choice and offers what the study needs. The
    spec comes back with each component it names called by its id (an id it had before is replaced),
    so that tables and files name it as the game does."""
    named = spec.solver_components
    for n in spec.players:
        require(isinstance(n, int) and not isinstance(n, bool), f"{source}: players must be integers, not {n!r}")
        try:
            setup = _setup(spec, n)
        except (GameIdError, StrategyError) as exc:
            raise SpecError(f"{source}: {exc}") from None
        named = tuple(choice_component(setup.profile, c, f"{source}: solver.components")
                      for c in spec.solver_components)
        require(not spec.ablation_deals or ablates(setup), f"{source}: ablation: {setup.game.id} declares no "
                                                           f"ablation of its {setup.attribution.label} (its profile's "
                                                           f"choice names none), so set no [ablation]")
    return replace(spec, solver_components=named)


# --- one player count: the game, the population and the declared choice


@dataclass
class Setup:
    game: object
    strategies: list
    policies: list  # compiled policy per strategy (same order)
    choice: ComponentChoice
    attribution: Attribution
    profile: GameProfile


def _setup(spec: ComponentValueSpec, n: int) -> Setup:
    return _cached_setup(json.dumps(spec.to_dict(), sort_keys=True, default=str), n)


@functools.lru_cache(maxsize=8)
def _cached_setup(spec_json: str, n: int) -> Setup:
    doc = json.loads(spec_json)
    files = {f"{name}_file": path for name, path in doc["game"]["data"].items()}
    game = make_game(doc["game"]["id"], **doc["game"]["params"], **files, n_players=n)
    profile = game.profile
    choice = profile.choice()
    if choice is None or not supports(game, ComponentChoices):
        raise GameIdError(f"{game.id} declares no component choice (its profile's choices), so it has no "
                          f"component values to study")
    if not (supports(game, Determinisation) and supports(game, Stepping)):
        raise GameIdError(f"{game.id} cannot replay positions (rollouts need determinisations and stepping)")
    strategies = [make_strategy(sid, game) for sid in doc["population"]["strategies"]]
    policies = [s.compiled_policy(game) for s in strategies]
    slow = [s.id for s, p in zip(strategies, policies, strict=True) if p is None]
    if slow:
        raise StrategyError(f"strategy {slow[0]!r} has no compiled policy: rollouts play every seat compiled, so a "
                            f"component-value population takes weight strategies only")
    return Setup(game, strategies, policies, choice, profile.attribution(choice.attribution), profile)
