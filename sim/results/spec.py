"""Experiment specs: what to play, read from TOML, checked, and resolved into a fixed plan.

A spec names a game (with rule parameters and component-data overrides), one or more player
counts, how strategies are seated, the number of games, the chunk size, the master seed and
the strategy tier. See ``experiments/configs/*.toml`` for commented examples.

Seating modes (per player count n):

- ``fixed``: ``strategies`` (n ids, or one for every seat) sit as listed; one seating.
- ``permutations``: every distinct ordering of ``strategies`` over the seats; each deal is
  played once in every seating (paired deals, common random numbers).
- ``rotate``: ``focus`` visits every seat in turn, ``others`` (n - 1 ids, or one) fill the
  remaining seats in order; n seatings per deal.

``games`` counts games per player count and must be a multiple of the seatings, so every deal
is complete. Game ``i`` of a player count is deal ``i // seatings`` in seating ``i % seatings``.

This module checks a spec's form only and loads no game, so reports and statistics can read specs.
What only the engine knows (the game id, the player counts the game is for, the tier names) the
layer that plays specs checks: ``bgsim.experiments.spec_check``.
"""

import hashlib
import itertools
import json
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bgsim.sim.errors import BgsimError

__all__ = ["Block", "Chunk", "RunSpec", "SpecError", "check_keys", "load_spec", "read_spec_file", "require",
           "spec_from_dict", "spec_header"]

SEATING_MODES = ("fixed", "permutations", "rotate")
_KEYS = {
    "": {"name", "description", "game", "seats", "run"},
    "game": {"id", "players", "params", "data"},
    "seats": {"mode", "strategies", "focus", "others"},
    "run": {"games", "chunk_size", "seed", "tier"},
}


class SpecError(BgsimError):
    """A spec that cannot be read, has unknown keys, wrong types or contradicts itself."""


@dataclass(frozen=True)
class Block:
    """The games of one player count: global game indices ``offset .. offset + games - 1``."""

    n_players: int
    offset: int
    games: int
    seatings: tuple[tuple[str, ...], ...]  # strategy id per seat, one tuple per seating


@dataclass(frozen=True)
class Chunk:
    """A unit of work and of storage: local games ``start .. stop - 1`` of block ``block``."""

    index: int  # run-wide chunk number
    block: int
    start: int
    stop: int


@dataclass(frozen=True)
class RunSpec:
    name: str
    game: str
    players: tuple[int, ...]
    strategies: tuple[str, ...] = ()
    mode: str = "fixed"
    focus: str | None = None
    games: int = 1000
    chunk_size: int = 1000
    seed: int = 0
    tier: str = "auto"
    params: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)  # data file name -> absolute path of the replacement
    description: str = ""

    def __post_init__(self):
        _check_spec(self)

    # --- the plan

    def seatings(self, n_players: int) -> tuple[tuple[str, ...], ...]:
        """Strategy id per seat for every seating of an ``n_players`` game (see the module doc)."""
        if self.mode == "rotate":
            others = _per_seat(self.strategies, n_players - 1, "seats.others")
            return tuple(tuple(others[:seat]) + (self.focus,) + tuple(others[seat:]) for seat in range(n_players))
        ids = _per_seat(self.strategies, n_players, "seats.strategies")
        if self.mode == "fixed":
            return (tuple(ids),)
        return tuple(dict.fromkeys(itertools.permutations(ids)))

    def blocks(self) -> list[Block]:
        blocks, offset = [], 0
        for n in self.players:
            blocks.append(Block(n, offset, self.games, self.seatings(n)))
            offset += self.games
        return blocks

    def chunks(self) -> list[Chunk]:
        out = []
        for b, block in enumerate(self.blocks()):
            for start in range(0, block.games, self.chunk_size):
                out.append(Chunk(len(out), b, start, min(start + self.chunk_size, block.games)))
        return out

    @property
    def total_games(self) -> int:
        return self.games * len(self.players)

    def strategy_ids(self) -> list[str]:
        """Every distinct strategy id of the spec."""
        ids = list(self.strategies) + ([self.focus] if self.focus else [])
        return list(dict.fromkeys(ids))

    # --- identity and storage

    def to_dict(self) -> dict:
        """The resolved spec as TOML-ready nested tables (data paths as given)."""
        seats = {"mode": self.mode}
        if self.mode == "rotate":
            seats.update(focus=self.focus, others=list(self.strategies))
        else:
            seats["strategies"] = list(self.strategies)
        doc = spec_header(self)
        doc["seats"] = seats
        doc["run"] = {"games": self.games, "chunk_size": self.chunk_size, "seed": self.seed, "tier": self.tier}
        return doc

    def fingerprint(self) -> str:
        """Hash of everything that decides the games (data files by content, not path)."""
        doc = asdict(self)
        doc.pop("description")
        doc["data"] = {name: _file_sha256(path) for name, path in sorted(self.data.items())}
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:10]

    @property
    def run_id(self) -> str:
        return f"{self.name}-{self.fingerprint()}"


def read_spec_file(path: str | Path) -> dict:
    """The TOML document of a spec file; a one-line SpecError if it cannot be read or parsed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(f"cannot read spec {str(path)!r}: {exc.strerror or exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path.name}: not valid TOML ({exc})") from None


def load_spec(path: str | Path) -> RunSpec:
    """Read a spec file and check its form; relative data paths are relative to the file."""
    path = Path(path)
    doc = read_spec_file(path)
    return spec_from_dict(doc, base_dir=path.parent, default_name=path.stem, source=path.name)


def spec_header(spec) -> dict:
    """The name, description and [game] table every kind of spec starts with, TOML-ready."""
    doc = {"name": spec.name}
    if spec.description:
        doc["description"] = spec.description
    doc["game"] = {"id": spec.game, "players": list(spec.players), "params": dict(spec.params), "data": dict(spec.data)}
    return doc


def require(ok: bool, message: str) -> None:
    """A SpecError with ``message`` unless ``ok``: spec checks read as a list of conditions."""
    if not ok:
        raise SpecError(message)


def check_keys(doc: dict, known: dict[str, set[str]], source: str) -> None:
    """One-line SpecError for a section that is not a table or a key not in ``known`` (section
    name -> its keys; "" is the top level)."""
    for section, keys in known.items():
        table = doc if section == "" else doc.get(section, {})
        if not isinstance(table, dict):
            raise SpecError(f"{source}: [{section}] must be a table")
        unknown = sorted(set(table) - keys)
        if unknown:
            where = f"[{section}] " if section else ""
            raise SpecError(f"{source}: unknown key {where}{unknown[0]!r} (known: {', '.join(sorted(keys))})")


def spec_from_dict(doc: dict, base_dir: str | Path = ".", default_name: str = "run", source: str = "spec") -> RunSpec:
    check_keys(doc, _KEYS, source)
    game, seats, run = doc.get("game", {}), doc.get("seats", {}), doc.get("run", {})
    if "id" not in game:
        raise SpecError(f"{source}: [game] id is missing")
    players = game.get("players", [4])
    players = [players] if isinstance(players, int) else players
    data = {}
    for name, value in _table(game, "data", source).items():
        if not isinstance(value, str):
            raise SpecError(f"{source}: game.data.{name} must be a path string")
        data[name] = str((Path(base_dir) / value).resolve())
    mode = seats.get("mode", "fixed")
    strategies = seats.get("others") if mode == "rotate" else seats.get("strategies")
    if mode == "rotate" and "strategies" in seats:
        raise SpecError(f"{source}: seats.mode = 'rotate' takes focus and others, not strategies")
    if mode != "rotate" and ("focus" in seats or "others" in seats):
        raise SpecError(f"{source}: seats.focus and seats.others belong to seats.mode = 'rotate'")
    values = dict(
        name=doc.get("name", default_name), description=doc.get("description", ""), game=game["id"],
        players=players, strategies=strategies if strategies is not None else [], mode=mode,
        focus=seats.get("focus"), games=run.get("games", 1000), chunk_size=run.get("chunk_size", 1000),
        seed=run.get("seed", 0), tier=run.get("tier", "auto"), params=_table(game, "params", source), data=data,
    )
    try:
        return RunSpec(**{k: tuple(v) if k in ("players", "strategies") and isinstance(v, list) else v
                          for k, v in values.items()})
    except SpecError as exc:
        raise SpecError(f"{source}: {exc}") from None


# --- checks


def _table(section: dict, key: str, source: str) -> dict:
    value = section.get(key, {})
    if not isinstance(value, dict):
        raise SpecError(f"{source}: game.{key} must be a table")
    return value


def _check_spec(spec: RunSpec) -> None:
    def need(ok: bool, message: str) -> None:
        if not ok:
            raise SpecError(message)

    need(isinstance(spec.name, str) and spec.name.replace("-", "_").replace(".", "_").isidentifier(),
         f"name {spec.name!r} must be letters, digits, '_', '-' or '.'")
    need(isinstance(spec.game, str) and spec.game.strip() != "", "game.id must be a non-empty string")
    need(isinstance(spec.players, tuple) and len(spec.players) > 0
         and all(isinstance(n, int) and not isinstance(n, bool) for n in spec.players),
         "game.players must be an integer or a list of integers")
    need(len(set(spec.players)) == len(spec.players), "game.players lists a player count twice")
    for key in ("games", "chunk_size", "seed"):
        value = getattr(spec, key)
        need(isinstance(value, int) and not isinstance(value, bool), f"run.{key} must be an integer")
    need(spec.games >= 1, "run.games must be at least 1")
    need(spec.chunk_size >= 1, "run.chunk_size must be at least 1")
    need(spec.seed >= 0, "run.seed must be a non-negative integer")
    need(isinstance(spec.tier, str), f"run.tier must be a tier name, got {spec.tier!r}")
    need(spec.mode in SEATING_MODES, f"seats.mode must be one of {', '.join(SEATING_MODES)}, got {spec.mode!r}")
    need(isinstance(spec.strategies, tuple) and all(isinstance(s, str) for s in spec.strategies),
         "seats.strategies must be a list of strategy ids")
    if spec.mode == "rotate":
        need(isinstance(spec.focus, str), "seats.focus (the rotated strategy) is missing")
        need(len(spec.strategies) > 0, "seats.others (the strategies beside the focus) is missing")
    else:
        need(len(spec.strategies) > 0, "seats.strategies is missing")
    for n in spec.players:
        seatings = spec.seatings(n)
        need(spec.games % len(seatings) == 0,
             f"run.games = {spec.games} is not a multiple of the {len(seatings)} seatings of {n} players "
             f"(every deal is played in every seating)")


def _per_seat(ids: tuple[str, ...], n: int, key: str) -> list[str]:
    if len(ids) == 1:
        return list(ids) * n
    if len(ids) != n:
        raise SpecError(f"{key} lists {len(ids)} strategies for {n} seats (give {n}, or one for all)")
    return list(ids)


def _file_sha256(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as exc:
        raise SpecError(f"cannot read data override {path!r}: {exc.strerror or exc}") from None
