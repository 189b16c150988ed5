"""A training spec: which game the expert is for, the search that teaches it, and how it is fitted
and chosen (``bgsim train``). Read and checked before any file is written; every problem is a
one-line SpecError.

    name = "capitol_expert"
    [game]
    id = "capitol"           # rule parameters in the id or in [game.params]
    players = 2
    [teacher]                # the search whose decisions are fitted (strategies.search)
    start = "planner"        # round 1's rollout policy (a weight strategy); later rounds use the expert
    width = 6
    rollouts = 8
    race = 0.0
    [train]
    rounds = 3               # expert iteration: each round's search has the best expert so far inside
    games = 200              # search games recorded per round (every seat searches)
    temperatures = [0, 2, 5] # soft targets: softmax over rollout means in score points; 0 = the search's choice
    held_out = 0.2           # share of the recorded deals kept out of the fit (its held-out likelihood)
    select_games = 4000      # games per candidate, on shared deals, against the best so far
    chunk_size = 10          # games per stored chunk of records (does not change results)
    seed = 1
"""

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from bgsim.experiments.spec_check import check_game
from bgsim.sim.registry import make_game, parse_id
from bgsim.sim.results.spec import SpecError, check_keys, read_spec_file, require
from bgsim.strategies import make_strategy
from bgsim.strategies.base import WeightStrategy
from bgsim.strategies.search import DEFAULTS as SEARCH_DEFAULTS

__all__ = ["TrainSpec", "load_train", "train_from_dict"]

_KEYS = {
    "": {"name", "description", "game", "teacher", "train"},
    "game": {"id", "players", "params", "data"},
    "teacher": {"start", "width", "rollouts", "race", "margin"},
    "train": {"rounds", "games", "temperatures", "steps", "held_out", "select_games", "keep", "chunk_size", "seed"},
}
KEEP_RULES = ("ahead", "shown")  # how a candidate replaces the best: more than half its games won, or shown
TRAIN_DEFAULTS = {"rounds": 3, "games": 200, "temperatures": [0.0, 2.0, 5.0], "steps": [], "held_out": 0.2,
                  "select_games": 4000, "keep": "ahead", "chunk_size": 10, "seed": 1}


@dataclass(frozen=True)
class TrainSpec:
    name: str
    game: str  # game id, parameters included
    players: int
    params: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)  # component file name -> path (absolute)
    start: str = "planner"  # round 1's rollout policy: a weight strategy id
    width: int = SEARCH_DEFAULTS["width"]
    rollouts: int = SEARCH_DEFAULTS["rollouts"]
    race: float = SEARCH_DEFAULTS["race"]
    margin: int = SEARCH_DEFAULTS["margin"]
    rounds: int = TRAIN_DEFAULTS["rounds"]
    games: int = TRAIN_DEFAULTS["games"]
    temperatures: tuple[float, ...] = tuple(TRAIN_DEFAULTS["temperatures"])
    steps: tuple[float, ...] = ()  # candidates best + step x fit besides each fit (weights scaled to 1 at most)
    held_out: float = TRAIN_DEFAULTS["held_out"]
    select_games: int = TRAIN_DEFAULTS["select_games"]
    keep: str = TRAIN_DEFAULTS["keep"]  # "ahead": more than half the games; "shown": its interval above half
    chunk_size: int = TRAIN_DEFAULTS["chunk_size"]
    seed: int = TRAIN_DEFAULTS["seed"]
    description: str = ""

    def make_game(self):
        files = {f"{name}_file": path for name, path in self.data.items()}
        return make_game(self.game, **self.params, **files, n_players=self.players)

    def as_doc(self) -> dict:
        """The spec as a TOML-ready document (what the run folder keeps as train.toml)."""
        doc = {"name": self.name}
        if self.description:
            doc["description"] = self.description
        doc["game"] = {"id": self.game, "players": self.players, "params": dict(self.params), "data": dict(self.data)}
        doc["teacher"] = {"start": self.start, "width": self.width, "rollouts": self.rollouts, "race": self.race,
                          "margin": self.margin}
        doc["train"] = {"rounds": self.rounds, "games": self.games, "temperatures": list(self.temperatures),
                        "held_out": self.held_out, "select_games": self.select_games,
                        "chunk_size": self.chunk_size, "seed": self.seed}
        if self.steps:  # absent at the defaults, so that the trainings before them keep their ids
            doc["train"]["steps"] = list(self.steps)
        if self.keep != TRAIN_DEFAULTS["keep"]:
            doc["train"]["keep"] = self.keep
        return doc

    def fingerprint(self) -> str:
        """What the records and fits depend on (not the name, the description or the chunk size;
        not the number of rounds, so a finished training can be given more rounds)."""
        doc = self.as_doc()
        doc.pop("name")
        doc.pop("description", None)
        doc["train"] = {k: v for k, v in doc["train"].items() if k not in ("chunk_size", "rounds")}
        doc["game"]["data"] = {name: _sha256(path) for name, path in sorted(self.data.items())}
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:10]

    @property
    def train_id(self) -> str:
        return f"{self.name}-{self.fingerprint()}"


def load_train(path: str | Path) -> TrainSpec:
    """Read and check a training spec file; data paths are relative to the file."""
    path = Path(path)
    return train_from_dict(read_spec_file(path), path.parent, path.stem, path.name)


def train_from_dict(doc: dict, base_dir: str | Path = ".", default_name: str = "expert",
                    source: str = "spec") -> TrainSpec:
    check_keys(doc, _KEYS, source)
    game, teacher, train = doc.get("game", {}), doc.get("teacher", {}), doc.get("train", {})
    require("id" in game, f"{source}: [game] id is missing")
    require(isinstance(game["id"], str), f"{source}: game.id must be a string")
    players = game.get("players", 2)
    require(isinstance(players, int) and not isinstance(players, bool),
            f"{source}: game.players must be one player count (an integer), got {players!r}")
    check_game(game["id"], (players,))
    params, data = game.get("params", {}), game.get("data", {})
    require(isinstance(params, dict) and isinstance(data, dict), f"{source}: [game.params] and [game.data] are tables")
    data = {str(k): str(Path(base_dir) / v) for k, v in data.items()}
    for name, file in data.items():
        require(Path(file).is_file(), f"{source}: game.data.{name}: no file {file}")
    values = {**SEARCH_DEFAULTS, "start": "planner", **teacher}
    for key in ("width", "rollouts", "margin"):
        _whole(values[key], f"{source}: teacher.{key}", 1)
    require(_number(values["race"]) and values["race"] >= 0,
            f"{source}: teacher.race must be a number of standard errors >= 0, got {values['race']!r}")
    require(isinstance(values["start"], str), f"{source}: teacher.start must be a strategy id")
    settings = TRAIN_DEFAULTS | train
    for key in ("rounds", "games", "select_games", "chunk_size"):
        _whole(settings[key], f"{source}: train.{key}", 1)
    _whole(settings["seed"], f"{source}: train.seed", 0)
    temps = settings["temperatures"]
    require(isinstance(temps, list) and temps and all(_number(t) and t >= 0 for t in temps),
            f"{source}: train.temperatures must be a list of numbers >= 0 (score points; 0 = the search's choice)")
    steps = settings["steps"]
    require(isinstance(steps, list) and all(_number(s) and s > 0 for s in steps),
            f"{source}: train.steps must be a list of numbers > 0 (how far each candidate moves from the best "
            "towards a fit)")
    require(settings["keep"] in KEEP_RULES,
            f"{source}: train.keep must be one of {', '.join(map(repr, KEEP_RULES))}, got {settings['keep']!r}")
    held = settings["held_out"]
    require(_number(held) and 0 <= held < 1, f"{source}: train.held_out must be a share in [0, 1), got {held!r}")
    name = doc.get("name", default_name)
    require(isinstance(name, str) and name.replace("-", "_").isidentifier(),
            f"{source}: name must be a plain identifier, got {name!r}")
    spec = TrainSpec(name=name, game=game["id"], players=players, params=dict(params), data=data,
                     start=values["start"], width=values["width"], rollouts=values["rollouts"],
                     race=float(values["race"]), margin=values["margin"], rounds=settings["rounds"],
                     games=settings["games"], temperatures=tuple(float(t) for t in temps),
                     steps=tuple(float(s) for s in steps), held_out=float(held),
                     select_games=settings["select_games"], keep=settings["keep"],
                     chunk_size=settings["chunk_size"], seed=settings["seed"],
                     description=str(doc.get("description", "")))
    _check_playable(spec, source)
    return spec


def _check_playable(spec: TrainSpec, source: str) -> None:
    """The game builds with these parameters and files, supports search, and the start is a weight strategy."""
    from bgsim.sim.api import Determinisation, supports
    from bgsim.sim.errors import BgsimError

    try:
        game = spec.make_game()
        start = make_strategy(spec.start, game)
    except SpecError:
        raise
    except BgsimError as exc:
        raise SpecError(f"{source}: {exc}") from None
    name = parse_id(spec.game)[0]
    require(supports(game, Determinisation), f"{source}: {name} offers no determinisations, so no search to learn from")
    require(isinstance(start, WeightStrategy),
            f"{source}: teacher.start {spec.start!r} is not a weight strategy (the expert is fitted as weights)")


def _whole(value, where: str, least: int) -> None:
    require(isinstance(value, int) and not isinstance(value, bool) and value >= least,
            f"{where} must be an integer >= {least}, got {value!r}")


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _sha256(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]
