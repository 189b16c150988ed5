"""A difficulty spec: the strategy ladder, the knob sweep and the calibration of a difficulty study,
the automa and its knobs as the game's profile declares them, the settings each run plays, and how a
spec file is read and checked (one-line SpecErrors, before any file is written)."""


import functools
import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from bgsim.experiments.spec_check import check_run_settings, tolerance_from
from bgsim.sim.errors import BgsimError
from bgsim.sim.profile import AutomaProfile, Knob
from bgsim.sim.registry import available_games, make_game, parse_id
from bgsim.sim.results.spec import (
    RunSpec,
    SpecError,
    check_keys,
    read_spec_file,
    require,
    spec_header,
)
from bgsim.sim.stats.equivalence import Tolerance
from bgsim.strategies import make_strategy

DEFAULT_LEVELS = {"easy": 0.70, "normal": 0.50, "hard": 0.30, "expert": 0.15}
_KEYS = {
    "": {"name", "description", "game", "ladder", "run", "sweep", "calibration", "tolerance"},
    "game": {"id", "params", "data"},
    "run": {"games", "chunk_size", "seed", "tier", "games_for"},
    "sweep": {"rungs", "games", "values"},
    "calibration": {"knob", "low", "high", "step", "step_for", "games", "verify_games", "levels"},
    "tolerance": {"rate_pp", "power"},
}

# --- the automa, from the game's profile


@functools.cache
def game_automa(game_id: str) -> AutomaProfile:
    """The automa a game's profile declares; a one-line SpecError for a game without one."""
    automa = make_game(game_id).profile.automa
    if automa is None:
        raise SpecError(f"{parse_id(game_id)[0]} has no automa: a difficulty study needs one")
    return automa


def automa_of_knob(knob: str) -> tuple[str, AutomaProfile]:
    """(game name, automa) of the listed game whose automa has ``knob``; KeyError if none has."""
    for name in available_games():
        try:
            automa = game_automa(name)
        except SpecError:
            continue
        if any(k.parameter == knob for k in automa.knobs):
            return name, automa
    raise KeyError(knob)


def at_the_table(knob: str, value: int, automa: AutomaProfile | None = None) -> str:
    """A knob setting as a player applies it (``Knob.at_the_table``), e.g. 'the automa starts with
    -6 points'; ``automa`` defaults to the listed game's whose automa has the knob."""
    automa = automa or automa_of_knob(knob)[1]
    return automa.knob(knob).at_the_table(value)


def rulebook_value(knob: str, automa: AutomaProfile | None = None) -> int:
    """The knob's value in the unmodified game."""
    automa = automa or automa_of_knob(knob)[1]
    return automa.knob(knob).rulebook


SEARCH_SPAN = 150  # a knob's default search half-width around its rulebook value


def search_range(knob: Knob) -> tuple[int, int]:
    """The values a calibration searches ``knob`` over by default: the range its game declares
    (``Knob.search``), else SEARCH_SPAN either side of its rulebook value."""
    return knob.search or (knob.rulebook - SEARCH_SPAN, knob.rulebook + SEARCH_SPAN)


def __getattr__(name: str):
    if name == "KNOBS":  # every listed game's automa knobs, read on first use (it builds the games)
        return tuple(k.parameter for game in available_games() for k in _knobs_or_none(game))
    raise AttributeError(name)


def _knobs_or_none(game: str) -> tuple:
    try:
        return game_automa(game).knobs
    except SpecError:
        return ()


@dataclass(frozen=True)
class Setting:
    """One run of the study: ``rung`` with ``knob`` at ``value`` (None: the base setting)."""

    kind: str  # base, sweep, calibrate or verify
    rung: str
    knob: str | None
    value: int | None
    spec: RunSpec
    level: str | None = None

    @property
    def directory(self) -> str:
        return f"{self.kind}/{self.spec.run_id}"

    def entry(self) -> dict:
        return {"kind": self.kind, "rung": self.rung, "strategy": self.spec.strategies[0], "knob": self.knob,
                "value": self.value, "level": self.level, "games": self.spec.games, "dir": self.directory}


@dataclass(frozen=True)
class DifficultySpec:
    name: str
    game: str
    ladder: dict  # rung name -> strategy id, weakest first
    games: int = 20000
    chunk_size: int = 1000
    seed: int = 1
    tier: str = "auto"
    games_for: dict = field(default_factory=dict)  # rung -> most games of any of its runs
    sweep_rungs: tuple[str, ...] = ()
    sweep_games: int = 5000
    sweep_values: dict = field(default_factory=dict)  # knob -> tuple of values
    knob: str = ""  # "": the automa's calibration knob
    low: int = -150
    high: int = 150
    step: int = 1
    step_for: dict = field(default_factory=dict)  # rung -> knob step for that rung
    calibration_games: int = 10000
    verify_games: int = 10000
    levels: dict = field(default_factory=lambda: dict(DEFAULT_LEVELS))  # level -> target win rate
    params: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    description: str = ""
    players: tuple[int, ...] = ()  # (): the automa's player count
    tolerance: Tolerance = field(default_factory=Tolerance)  # a level holds within rate_pp of its target

    def __post_init__(self):
        automa = self.automa
        if not self.players:
            object.__setattr__(self, "players", automa.player_counts[:1])
        if not self.knob:
            object.__setattr__(self, "knob", automa.calibration_knob or automa.knobs[0].parameter)
        _check(self)

    @property
    def automa(self) -> AutomaProfile:
        return game_automa(self.game)

    # --- the runs

    def setting(self, kind: str, rung: str, knob: str | None = None, value: int | None = None,
                level: str | None = None) -> Setting:
        games = {"base": self.games, "sweep": self.sweep_games, "calibrate": self.calibration_games,
                 "verify": self.verify_games}[kind]
        games = min(games, self.games_for.get(rung, games))
        label = "base" if knob is None else f"{knob}_{_value_label(value)}"
        params = dict(self.params) | ({} if knob is None else {knob: value})
        spec = RunSpec(name=f"{self.name}-{_slug(rung)}-{label}", game=self.game, players=self.players,
                       strategies=(self.ladder[rung],), games=games, chunk_size=min(self.chunk_size, games),
                       seed=self.seed + 1 if kind == "verify" else self.seed, tier=self.tier, params=params,
                       data=dict(self.data),
                       description=f"{self.name}: {rung} against {self.automa.name}, "
                                   + ("base setting" if knob is None else f"{knob} = {value}")
                                   + (f" ({level}, fresh deals)" if level else ""))
        return Setting(kind, rung, knob, value, spec, level)

    def base_settings(self) -> list[Setting]:
        return [self.setting("base", rung) for rung in self.ladder]

    def sweep_settings(self) -> list[Setting]:
        return [self.setting("sweep", rung, knob, v) for rung in self.sweep_rungs
                for knob, values in self.sweep_values.items() for v in values]

    def knob_values(self, rung: str) -> list[int]:
        """The calibration knob's values the solver may try for ``rung``."""
        return list(range(self.low, self.high + 1, self.step_for.get(rung, self.step)))

    def calibration_estimate(self, rung: str) -> int:
        """Games the calibration of ``rung`` will likely take (for the progress bar): bisection plus
        about two values outwards per level."""
        tries = math.ceil(math.log2(max(2, len(self.knob_values(rung))))) + 2 + 2 * len(self.levels)
        return tries * self.setting("calibrate", rung, self.knob, self.low).spec.games

    @property
    def known_games(self) -> int:
        """Games of the base, sweep and verification runs (the calibration's depend on the answers)."""
        verify = 0
        if self.verify_games:  # with none, no verify run exists to ask (its spec would have 0 games)
            verify = sum(self.setting("verify", r, self.knob, self.low).spec.games for r in self.ladder) * len(
                self.levels)
        return sum(s.spec.games for s in self.base_settings()) + sum(s.spec.games for s in self.sweep_settings()) \
            + verify

    @property
    def total_games(self) -> int:
        """An estimate: the known games plus the calibration's likely games."""
        return self.known_games + sum(self.calibration_estimate(r) for r in self.ladder)

    # --- identity

    def to_dict(self) -> dict:
        doc = spec_header(self)
        doc["game"].pop("players")
        doc["ladder"] = dict(self.ladder)
        doc["run"] = {"games": self.games, "chunk_size": self.chunk_size, "seed": self.seed, "tier": self.tier,
                      "games_for": dict(self.games_for)}
        doc["sweep"] = {"rungs": list(self.sweep_rungs), "games": self.sweep_games,
                        "values": {k: list(v) for k, v in self.sweep_values.items()}}
        doc["calibration"] = {"knob": self.knob, "low": self.low, "high": self.high, "step": self.step,
                              "step_for": dict(self.step_for), "games": self.calibration_games,
                              "verify_games": self.verify_games, "levels": dict(self.levels)}
        doc["tolerance"] = {"rate_pp": self.tolerance.rate_pp, "power": self.tolerance.power}
        return doc

    def fingerprint(self) -> str:
        doc = self.to_dict()
        doc.pop("description", None)
        doc.pop("tolerance", None)  # how the levels are judged, not what is played
        doc["runs"] = [s.spec.run_id for s in self.base_settings() + self.sweep_settings()]
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:10]

    @property
    def study_id(self) -> str:
        return f"{self.name}-{self.fingerprint()}"


def _value_label(value: int) -> str:
    return f"m{-value}" if value < 0 else str(value)


def _slug(text: str) -> str:
    return re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_")[:24] or "x"


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(spec: DifficultySpec) -> None:
    check_run_settings(spec)
    knobs = tuple(k.parameter for k in spec.automa.knobs)
    count = "a solo game (1 player)" if spec.players[0] == 1 else f"{spec.players[0]} players"
    require("n_players" not in spec.params, f"game.params.n_players: the difficulty study plays the automa's "
                                            f"player count: {count}")
    require(spec.knob not in spec.params, f"game.params.{spec.knob}: the calibration sets this knob; "
                                          f"leave it out of [game.params]")
    require(isinstance(spec.ladder, dict) and spec.ladder, "[ladder] must name at least one rung: name = strategy id")
    for rung, sid in spec.ladder.items():
        require(isinstance(sid, str) and sid.strip() != "", f"ladder.{rung} must be a strategy id string")
    for key, table in (("run.games_for", spec.games_for), ("calibration.step_for", spec.step_for)):
        for rung, value in table.items():
            require(rung in spec.ladder, f"{key} names {rung!r}, which is not a rung of the ladder")
            require(_is_int(value) and value >= 1, f"{key}.{rung} must be a positive integer")
    require(spec.knob in knobs, f"calibration.knob must be one of {', '.join(knobs)}, got {spec.knob!r}")
    require(_is_int(spec.low) and _is_int(spec.high) and spec.low < spec.high,
            "calibration.low and high must be integers with low < high")
    require(_is_int(spec.step) and spec.step >= 1, "calibration.step must be a positive integer")
    for rung in spec.ladder:
        require(len(spec.knob_values(rung)) >= 2, f"calibration: low..high with the step of {rung!r} gives fewer "
                                                  f"than two knob values")
    for name, value, least in (("calibration.games", spec.calibration_games, 1),
                               ("calibration.verify_games", spec.verify_games, 0),
                               ("sweep.games", spec.sweep_games, 1)):
        require(_is_int(value) and value >= least, f"{name} must be an integer of at least {least}")
    require(isinstance(spec.levels, dict) and spec.levels, "calibration.levels must name at least one level")
    for level, target in spec.levels.items():
        require(isinstance(target, int | float) and not isinstance(target, bool) and 0 < target < 1,
                f"calibration.levels.{level} must be a target win rate between 0 and 1 (e.g. 0.5), got {target!r}")
    require(isinstance(spec.sweep_rungs, tuple) and all(r in spec.ladder for r in spec.sweep_rungs),
            "sweep.rungs must list rungs of the ladder")
    for knob, values in spec.sweep_values.items():
        require(knob in knobs, f"sweep.values.{knob}: not a difficulty knob (knobs: {', '.join(knobs)})")
        require(isinstance(values, tuple) and values and all(_is_int(v) for v in values)
                and len(set(values)) == len(values), f"sweep.values.{knob} must be a list of distinct integers")


# --- reading specs


def load_difficulty(path: str | Path) -> DifficultySpec:
    path = Path(path)
    return difficulty_from_dict(read_spec_file(path), path.parent, path.stem, path.name)


def difficulty_from_dict(doc: dict, base_dir: str | Path = ".", default_name: str = "difficulty",
                         source: str = "spec") -> DifficultySpec:
    check_keys(doc, _KEYS, source)
    game, run_table = doc.get("game", {}), doc.get("run", {})
    sweep, calib = doc.get("sweep", {}), doc.get("calibration", {})
    if "id" not in game:
        raise SpecError(f"{source}: [game] id is missing")
    for name, table in (("ladder", doc.get("ladder", {})), ("game.params", game.get("params", {})),
                        ("game.data", game.get("data", {})), ("run.games_for", run_table.get("games_for", {})),
                        ("sweep.values", sweep.get("values", {})), ("calibration.levels", calib.get("levels", {})),
                        ("calibration.step_for", calib.get("step_for", {}))):
        if not isinstance(table, dict):
            raise SpecError(f"{source}: [{name}] must be a table")
    rungs = sweep.get("rungs", [])
    data = {name: str((Path(base_dir) / value).resolve()) if isinstance(value, str) else value
            for name, value in game.get("data", {}).items()}
    values = dict(
        name=doc.get("name", default_name), description=doc.get("description", ""), game=game["id"],
        ladder=dict(doc.get("ladder", {})), games=run_table.get("games", 20000),
        chunk_size=run_table.get("chunk_size", 1000), seed=run_table.get("seed", 1), tier=run_table.get("tier", "auto"),
        games_for=dict(run_table.get("games_for", {})),
        sweep_rungs=tuple(rungs) if isinstance(rungs, list) else rungs, sweep_games=sweep.get("games", 5000),
        sweep_values={k: tuple(v) if isinstance(v, list) else v for k, v in sweep.get("values", {}).items()},
        knob=calib.get("knob", ""), low=calib.get("low", -150), high=calib.get("high", 150),
        step=calib.get("step", 1), step_for=dict(calib.get("step_for", {})),
        calibration_games=calib.get("games", 10000), verify_games=calib.get("verify_games", 10000),
        levels=dict(calib.get("levels", DEFAULT_LEVELS)), params=dict(game.get("params", {})), data=data,
        tolerance=tolerance_from(doc.get("tolerance", {}), source))
    try:
        return DifficultySpec(**values)
    except SpecError as exc:
        raise SpecError(f"{source}: {exc}") from None


def check_settings(spec: DifficultySpec) -> None:
    """Build each rung's game at the base setting and at both ends of every knob range, so a bad
    strategy id, parameter or knob value fails before any file is written."""
    trials = [(None, None)] + [(spec.knob, spec.low), (spec.knob, spec.high)]
    trials += [(k, v) for k, values in spec.sweep_values.items() for v in (min(values), max(values))]
    for rung, sid in spec.ladder.items():
        for knob, value in trials:
            params = spec.setting("base" if knob is None else "calibrate", rung, knob, value).spec.params
            try:
                game = make_game(spec.game, **params, **{f"{k}_file": v for k, v in spec.data.items()},
                                 n_players=spec.players[0])
            except BgsimError as exc:
                raise SpecError(f"{exc}" + (f" (calibration or sweep value of {knob})" if knob else "")) from None
            make_strategy(sid, game)


