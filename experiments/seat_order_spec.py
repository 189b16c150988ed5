"""A seat-order spec: the player counts, populations and start vectors of a seat-order study, its
cells (each an ordinary run), the refinement rounds and confirmation runs of a solved vector, and
how a spec file is read and checked (one-line SpecErrors, before any file is written)."""


import functools
import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from bgsim.experiments.spec_check import check_run_settings, tolerance_from
from bgsim.sim.errors import GameIdError
from bgsim.sim.profile import Compensation
from bgsim.sim.registry import make_game
from bgsim.sim.results.spec import (
    RunSpec,
    SpecError,
    check_keys,
    read_spec_file,
    require,
    spec_header,
)
from bgsim.sim.stats.equivalence import Tolerance, plan_seat_games
from bgsim.strategies import make_strategy

__all__ = ["AUTO", "NO_START", "Cell", "SeatOrderSpec", "check_strategies", "game_compensation",
           "load_seat_order", "seat_order_from_dict", "solvable"]

_KEYS = {
    "": {"name", "description", "game", "populations", "start", "run", "compensation", "tolerance"},
    "game": {"id", "players", "params", "data"},
    "start": {"vectors"},
    "run": {"games", "chunk_size", "seed", "tier", "games_for"},
    "compensation": {"confirm_games", "confirm_most", "bootstrap", "low", "high", "population", "rounds"},
    "tolerance": {"seat_pp", "power"},
}
NO_START = "rulebook"  # the one start of a game without compensation: its rules as written
ROUNDS_WHEN_PLAY_CHANGES = 4  # default refinement rounds on deals of their own where the start value changes play
AUTO = "auto"  # compensation.confirm_games: sized by the tolerance and the power

@dataclass(frozen=True)
class Cell:
    """One run of the study: ``population`` at ``n_players`` with start vector ``start``."""

    kind: str  # "cell", "round" (a refinement round) or "confirm" (the final vector on unseen deals)
    n_players: int
    population: str
    start: str  # a named start vector ("rulebook", "equal") or a vector such as "8/9/12"
    spec: RunSpec

    @property
    def directory(self) -> str:
        return f"{ {'cell': 'cells', 'round': 'rounds', 'confirm': 'confirm'}[self.kind]}/{self.spec.run_id}"


@dataclass(frozen=True)
class SeatOrderSpec:
    name: str
    game: str
    players: tuple[int, ...]
    populations: dict  # name -> tuple of strategy ids (1 = self-play, more = mixed table)
    starts: tuple[str, ...] | None = None  # None: ("rulebook", "equal"), or ("rulebook",) without compensation
    games: int = 9600
    chunk_size: int = 480
    seed: int = 1
    tier: str = "auto"
    games_for: dict = field(default_factory=dict)  # population -> most games of its cells
    confirm_games: int | str | None = None  # games of the confirmation; "auto" (None: auto, or 0 without compensation)
    confirm_most: int = 48_000  # "auto" plays at most this many games per confirmation (and per round)
    bootstrap: int = 200
    low: int = 0  # range of the start value the solver tries for seats 2..n
    high: int = 30
    compensation_populations: tuple[str, ...] | None = None  # None = every population
    rounds: int | None = None  # refinement rounds per solved vector; None: 4 where the value changes play, else 0
    params: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    description: str = ""
    tolerance: Tolerance = field(default_factory=Tolerance)  # a seat holds within seat_pp of its fair share

    def __post_init__(self):
        check_run_settings(self)
        comp = self.compensation
        if self.starts is None:
            object.__setattr__(self, "starts", ("rulebook", "equal") if comp else (NO_START,))
        if self.confirm_games is None:
            object.__setattr__(self, "confirm_games", AUTO if comp else 0)
        if not self.confirm_games:  # rounds play fresh deals: none where the study skips them
            object.__setattr__(self, "rounds", 0)
        elif self.rounds is None:
            object.__setattr__(self, "rounds", ROUNDS_WHEN_PLAY_CHANGES if comp and comp.changes_play else 0)
        _check(self)

    @property
    def compensation(self) -> Compensation | None:
        """The game's compensation parameter (its profile's under the spec's parameters), None for a
        game without one."""
        return game_compensation(self.game, json.dumps(self.params, sort_keys=True, default=str))

    def mode(self, population: str) -> str:
        return "fixed" if len(self.populations[population]) == 1 else "permutations"

    def strategies(self, population: str, n: int) -> tuple[str, ...]:
        ids = self.populations[population]
        return ids if len(ids) == 1 else ids[:n]

    def games_of(self, population: str) -> int:
        return min(self.games, self.games_for.get(population, self.games))

    def seatings(self, population: str, n: int) -> int:
        return 1 if len(self.populations[population]) == 1 else math.factorial(n)

    def fresh_games(self, population: str, n: int, planned: int | None = None) -> int:
        """Games of a round or confirmation run: the spec's number, or for "auto" the ``planned``
        games (``plan_seat_games``; without a plan, the plan for independent games), rounded up to
        whole deals of every seating and capped by ``confirm_most``; and at most the population's
        ``run.games_for`` (a slow strategy's cap holds on fresh deals too)."""
        cap = self.games_for.get(population)
        if self.confirm_games != AUTO:
            return int(self.confirm_games) if cap is None else min(int(self.confirm_games), cap)
        games = planned if planned is not None else plan_seat_games(n, self.tolerance)
        seatings = self.seatings(population, n)
        most = max(self.confirm_most - self.confirm_most % seatings, seatings)
        fresh = min(most, -(-max(games, seatings) // seatings) * seatings)
        return fresh if cap is None else min(fresh, cap)

    def cell(self, n: int, population: str, start: str, kind: str = "cell", round_index: int = 0,
             games: int | None = None) -> Cell:
        """The run of ``population`` at ``n`` players with ``start``: a ``cell`` of the study (its
        seed), a refinement ``round`` (0-based ``round_index``; fresh deals of seed + 1 + round_index)
        or the ``confirm`` run of the final vector (deals of seed + 1 + rounds, which no round played);
        ``games``: those of a round or confirmation (``fresh_games``)."""
        label = {"cell": start, "round": f"round{round_index + 1}", "confirm": "confirm"}[kind]
        name = f"{self.name}-{n}p-{_slug(population)}-{_slug(label)}"
        comp = self.compensation
        params = dict(self.params) | ({comp.parameter: start} if comp else {})
        description = f"{self.name}: {population} at {n} players" + (f", {comp.label} {start}" if comp else "")
        seed = {"cell": self.seed, "round": self.seed + 1 + round_index, "confirm": self.seed + 1 + self.rounds}[kind]
        suffix = {"cell": "", "round": f" (refinement round {round_index + 1} on fresh deals)",
                  "confirm": " (confirmation on deals no round played)"}[kind]
        spec = RunSpec(name=name, game=self.game, players=(n,), strategies=self.strategies(population, n),
                       mode=self.mode(population),
                       games=self.games_of(population) if kind == "cell" else self.fresh_games(population, n, games),
                       chunk_size=self.chunk_size, seed=seed, tier=self.tier, params=params, data=dict(self.data),
                       description=description + suffix)
        return Cell(kind, n, population, start, spec)

    def cells(self) -> list[Cell]:
        return [self.cell(n, pop, start) for n in self.players for pop in self.populations for start in self.starts]

    def solved_populations(self) -> list[str]:
        """The populations whose start vector is solved (none when the game cannot be re-scored)."""
        if not solvable(self.compensation):
            return []
        return list(self.compensation_populations or self.populations)

    @property
    def total_games(self) -> int:
        """Games of every cell and, when confirming, of every confirmation run (as planned before the
        cells: a plan sized from their design effect may add more)."""
        confirm = ([self.fresh_games(p, n) for n in self.players for p in self.solved_populations()]
                   if self.confirm_games else [])
        return sum(c.spec.games for c in self.cells()) + sum(confirm)

    def to_dict(self) -> dict:
        doc = spec_header(self)
        doc["populations"] = {k: list(v) for k, v in self.populations.items()}
        if self.compensation:
            doc["start"] = {"vectors": list(self.starts)}
        doc["run"] = {"games": self.games, "chunk_size": self.chunk_size, "seed": self.seed, "tier": self.tier,
                      "games_for": dict(self.games_for)}
        if not self.compensation:
            return doc
        doc["compensation"] = {"confirm_games": self.confirm_games, "confirm_most": self.confirm_most,
                               "bootstrap": self.bootstrap, "low": self.low, "high": self.high, "rounds": self.rounds}
        doc["tolerance"] = {"seat_pp": self.tolerance.seat_pp, "power": self.tolerance.power}
        if self.compensation_populations is not None:
            doc["compensation"]["population"] = list(self.compensation_populations)
        return doc

    def fingerprint(self) -> str:
        doc = {"cells": [c.spec.run_id for c in self.cells()], "populations": list(self.populations),
               "compensation": [self.confirm_games, self.bootstrap, self.low, self.high, self.solved_populations(),
                                self.rounds, self.confirm_most],
               "tolerance": [self.tolerance.seat_pp, self.tolerance.power]}
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:10]

    @property
    def study_id(self) -> str:
        return f"{self.name}-{self.fingerprint()}"


@functools.cache
def game_compensation(game_id: str, params: str = "{}") -> Compensation | None:
    """The compensation parameter a game's profile declares under ``params`` (JSON; None: the game
    has none). A parameter can change what the start value does (``Compensation.changes_play``)."""
    try:
        return make_game(game_id, **json.loads(params)).profile.compensation
    except (GameIdError, TypeError, ValueError):
        return make_game(game_id).profile.compensation  # a bad parameter is reported by the spec checks


def solvable(comp: Compensation | None) -> bool:
    """Whether stored games can be re-scored under another start vector: the start value only adds
    to the score and a tie-break place is stored."""
    return comp is not None and comp.adds_to_score and comp.tiebreak_column is not None


def _slug(text: str) -> str:
    return re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_")[:24] or "x"


def _check(spec: SeatOrderSpec) -> None:
    comp = spec.compensation
    if comp is None:
        require(spec.starts == (NO_START,) and spec.confirm_games == 0 and spec.compensation_populations is None,
                f"{spec.game} has no compensation parameter: leave out [start] and [compensation]")
    else:
        require(comp.parameter not in spec.params,
                f"game.params.{comp.parameter}: list start vectors under [start] vectors instead")
    require(isinstance(spec.populations, dict) and spec.populations, "[populations] must name at least one population")
    for name, ids in spec.populations.items():
        require(isinstance(ids, tuple) and ids and all(isinstance(s, str) and s.strip() for s in ids),
                f"populations.{name} must be a non-empty list of strategy ids")
        for n in spec.players:
            require(len(ids) == 1 or len(ids) >= n, f"populations.{name} lists {len(ids)} strategies: a mixed table "
                                                    f"needs at least {n}, one per seat (or list one for self-play)")
    require(spec.starts and all(isinstance(s, str) for s in spec.starts), "start.vectors must list start vectors")
    for key in spec.games_for:
        require(key in spec.populations, f"run.games_for names {key!r}, which is not a population")
    for key in spec.compensation_populations or ():
        require(key in spec.populations, f"compensation.population names {key!r}, which is not a population")
    # confirm_games = 0 skips the confirmation runs; the solution's interval needs at least one replicate
    require(spec.confirm_games == AUTO or (isinstance(spec.confirm_games, int)
                                           and not isinstance(spec.confirm_games, bool) and spec.confirm_games >= 0),
            f"compensation.confirm_games must be a non-negative integer or \"auto\", not {spec.confirm_games!r}")
    for name, value, least in (("compensation.bootstrap", spec.bootstrap, 1), ("compensation.rounds", spec.rounds, 0),
                               ("compensation.confirm_most", spec.confirm_most, 1)):
        require(isinstance(value, int) and not isinstance(value, bool) and value >= least,
                f"{name} must be {'a non-negative' if least == 0 else 'a positive'} integer")
    require(spec.rounds <= 50, "compensation.rounds must be at most 50")
    require(isinstance(spec.low, int) and isinstance(spec.high, int) and -200 <= spec.low < spec.high <= 200,
            "compensation.low and high must be integers with -200 <= low < high <= 200")
    for n in spec.players:
        for pop in spec.populations:
            seatings = spec.seatings(pop, n)
            fixed = [("run.games", spec.games_of(pop))]
            if spec.confirm_games != AUTO:
                fixed.append(("compensation.confirm_games", spec.confirm_games))
            for key, games in fixed:
                require(games % seatings == 0, f"{key} = {games} for population {pop!r} is not a multiple of the "
                                               f"{seatings} seatings of {n} players")


# --- reading specs


def load_seat_order(path: str | Path) -> SeatOrderSpec:
    path = Path(path)
    return seat_order_from_dict(read_spec_file(path), path.parent, path.stem, path.name)


def seat_order_from_dict(doc: dict, base_dir: str | Path = ".", default_name: str = "seat_order",
                         source: str = "spec") -> SeatOrderSpec:
    check_keys(doc, _KEYS, source)
    game, run_table = doc.get("game", {}), doc.get("run", {})
    comp = doc.get("compensation", {})
    if "id" not in game:
        raise SpecError(f"{source}: [game] id is missing")
    if ("start" in doc or "compensation" in doc) and game_compensation(game["id"]) is None:
        raise SpecError(f"{source}: {game['id']} has no compensation parameter: leave out [start] and [compensation]")
    if not isinstance(doc.get("populations", {}), dict):
        raise SpecError(f"{source}: [populations] must be a table of name = [strategy ids]")
    populations = {}
    for name, ids in doc.get("populations", {}).items():
        ids = [ids] if isinstance(ids, str) else ids
        if not isinstance(ids, list):
            raise SpecError(f"{source}: populations.{name} must be a list of strategy ids")
        populations[name] = tuple(ids)
    players = game.get("players", [2, 3, 4])
    data = {name: str((Path(base_dir) / value).resolve()) if isinstance(value, str) else value
            for name, value in game.get("data", {}).items()}
    comp_pops = comp.get("population")
    values = dict(
        name=doc.get("name", default_name), description=doc.get("description", ""), game=game["id"],
        players=tuple(players) if isinstance(players, list) else (players,), populations=populations,
        starts=tuple(doc["start"]["vectors"]) if "vectors" in doc.get("start", {}) else None,
        games=run_table.get("games", 9600), chunk_size=run_table.get("chunk_size", 480),
        seed=run_table.get("seed", 1), tier=run_table.get("tier", "auto"),
        games_for=dict(run_table.get("games_for", {})), confirm_games=comp.get("confirm_games"),
        confirm_most=comp.get("confirm_most", 48_000),
        bootstrap=comp.get("bootstrap", 200), low=comp.get("low", 0), high=comp.get("high", 30),
        compensation_populations=None if comp_pops is None else tuple(comp_pops), rounds=comp.get("rounds"),
        params=dict(game.get("params", {})), data=data,
        tolerance=tolerance_from(doc.get("tolerance", {}), source))
    try:
        return SeatOrderSpec(**values)
    except SpecError as exc:
        raise SpecError(f"{source}: {exc}") from None


def check_strategies(spec: SeatOrderSpec) -> None:
    """Build every cell's game and strategies, so bad ids or start vectors fail before any file."""
    for cell in spec.cells():
        game = make_game(spec.game, **cell.spec.params, **{f"{k}_file": v for k, v in spec.data.items()},
                         n_players=cell.n_players)
        for sid in cell.spec.strategies:
            make_strategy(sid, game)


