"""The seat-order experiment: seat balance per player count, strategy population and start vector,
the compensating start vector, and its confirmation on fresh deals.

A spec (``experiments/configs/seat_order.toml``) lists player counts, populations and start
vectors. The start vectors are values of the game's compensation parameter (its profile's
``compensation``); a game without one is studied as its rules set it up, without start vectors,
solver or confirmation (its spec has no ``[start]`` or ``[compensation]`` table).
Every (player count, population, start vector) is an ordinary run (a *cell*) stored under
``<dir>/cells/<run-id>/``; all cells share one seed, so game ``i`` of a player count is the same
deal in every population and start vector (paired comparisons). A population of one strategy is
self-play (``fixed`` seating); a longer list is a mixed table: its first n strategies in every
seating (``permutations``), so each strategy visits each seat equally often.

After the cells, the compensation solver (sim/stats/compensation.py) re-scores the rulebook cells
and the solved vector of every (player count, population) is played again on fresh deals (seed + 1)
under ``<dir>/confirm/<run-id>/``. It *holds* when every seat's win-rate interval there contains the
fair share. Where it does not and rounds remain (``compensation.rounds``; by default more than one
where the profile says the start value changes play), the vector is solved again from those games
(the re-scoring is then a step of a stochastic root finder on the seats' win-rate gaps) and the new
vector is played on fresh deals again (seed + 2, ...), until one holds, the finder repeats a vector, or
the rounds are spent. Each vector is judged on deals it was not fitted on. ``rounds.csv`` lists every
round; ``compensation.csv`` gains the final vector (the one that held, else the closest) and whether
it held. ``seat_order.json`` records the cells, the solutions and the
status; ``--resume`` finishes an interrupted study.
"""

import functools
import hashlib
import json
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd
import polars as pl
from bgsim.experiments.runner import check_jobs, play_study_run
from bgsim.experiments.spec_check import check_run_settings
from bgsim.sim.errors import GameIdError
from bgsim.sim.profile import Compensation, GameProfile
from bgsim.sim.registry import make_game
from bgsim.sim.results.spec import (
    RunSpec,
    SpecError,
    check_keys,
    read_spec_file,
    require,
    spec_header,
)
from bgsim.sim.results.store import (
    RunStoreError,
    load,
    open_study_dir,
    read_meta,
    read_profile,
    scan_chunks,
    verify_runs,
    write_json,
)
from bgsim.sim.stats.compensation import game_scores, solve, solve_with_bootstrap
from bgsim.sim.stats.seats import seat_table
from bgsim.strategies import make_strategy

__all__ = ["Cell", "SeatOrderSpec", "load_seat_order", "load_study_rows", "run_seat_order", "seat_order_from_dict",
           "study_run_dirs"]

MARKER = "seat_order.json"
_KEYS = {
    "": {"name", "description", "game", "populations", "start", "run", "compensation"},
    "game": {"id", "players", "params", "data"},
    "start": {"vectors"},
    "run": {"games", "chunk_size", "seed", "tier", "games_for"},
    "compensation": {"confirm_games", "bootstrap", "low", "high", "population", "rounds"},
}
# The runner's columns of a row; the game's own follow from its profile (``profile.records``).
RUNNER_COLUMNS = ("run_id", "n_players", "game_index", "deal", "seating", "seat", "strategy")
NO_START = "rulebook"  # the one start of a game without compensation: its rules as written
ROUNDS_WHEN_PLAY_CHANGES = 5  # default rounds of fresh deals where the start value changes play

ProgressCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class Cell:
    """One run of the study: ``population`` at ``n_players`` with start vector ``start``."""

    kind: str  # "cell" or "confirm"
    n_players: int
    population: str
    start: str  # a named start vector ("rulebook", "equal") or a vector such as "8/9/12"
    spec: RunSpec

    @property
    def directory(self) -> str:
        return f"{'cells' if self.kind == 'cell' else 'confirm'}/{self.spec.run_id}"


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
    confirm_games: int | None = None  # 0 = no confirmation runs; None: 9600, or 0 without compensation
    bootstrap: int = 200
    low: int = 0  # range of the start value the solver tries for seats 2..n
    high: int = 30
    compensation_populations: tuple[str, ...] | None = None  # None = every population
    rounds: int | None = None  # fresh-deal rounds per solved vector; None: 5 where the value changes play, else 1
    params: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    description: str = ""

    def __post_init__(self):
        check_run_settings(self)
        comp = self.compensation
        if self.starts is None:
            object.__setattr__(self, "starts", ("rulebook", "equal") if comp else (NO_START,))
        if self.confirm_games is None:
            object.__setattr__(self, "confirm_games", 9600 if comp else 0)
        if self.rounds is None:
            object.__setattr__(self, "rounds", ROUNDS_WHEN_PLAY_CHANGES if comp and comp.changes_play else 1)
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

    def games_of(self, population: str, confirm: bool = False) -> int:
        games = self.confirm_games if confirm else self.games
        return min(games, self.games_for.get(population, games))

    def cell(self, n: int, population: str, start: str, confirm: bool = False, round_index: int = 0) -> Cell:
        """The run of ``population`` at ``n`` players with ``start``; a confirmation run of round
        ``round_index`` (0-based) plays fresh deals: seed + 1 + round_index."""
        label = (f"solved{round_index + 1}" if round_index else "solved") if confirm else start
        name = f"{self.name}-{n}p-{_slug(population)}-{_slug(label)}"
        comp = self.compensation
        params = dict(self.params) | ({comp.parameter: start} if comp else {})
        description = f"{self.name}: {population} at {n} players" + (f", {comp.label} {start}" if comp else "")
        spec = RunSpec(name=name, game=self.game, players=(n,), strategies=self.strategies(population, n),
                       mode=self.mode(population), games=self.games_of(population, confirm),
                       chunk_size=self.chunk_size, seed=self.seed + 1 + round_index if confirm else self.seed,
                       tier=self.tier,
                       params=params, data=dict(self.data),
                       description=description + (" (confirmation on fresh deals)" if confirm else ""))
        return Cell("confirm" if confirm else "cell", n, population, start, spec)

    def cells(self) -> list[Cell]:
        return [self.cell(n, pop, start) for n in self.players for pop in self.populations for start in self.starts]

    def solved_populations(self) -> list[str]:
        """The populations whose start vector is solved (none when the game cannot be re-scored)."""
        if not solvable(self.compensation):
            return []
        return list(self.compensation_populations or self.populations)

    @property
    def total_games(self) -> int:
        """Games of every cell and, when confirming, of every confirmation run."""
        confirm = [self.games_of(p, True) for p in self.solved_populations()] if self.confirm_games else []
        return sum(c.spec.games for c in self.cells()) + len(self.players) * sum(confirm)

    def to_dict(self) -> dict:
        doc = spec_header(self)
        doc["populations"] = {k: list(v) for k, v in self.populations.items()}
        if self.compensation:
            doc["start"] = {"vectors": list(self.starts)}
        doc["run"] = {"games": self.games, "chunk_size": self.chunk_size, "seed": self.seed, "tier": self.tier,
                      "games_for": dict(self.games_for)}
        if not self.compensation:
            return doc
        doc["compensation"] = {"confirm_games": self.confirm_games, "bootstrap": self.bootstrap, "low": self.low,
                               "high": self.high, "rounds": self.rounds}
        if self.compensation_populations is not None:
            doc["compensation"]["population"] = list(self.compensation_populations)
        return doc

    def fingerprint(self) -> str:
        doc = {"cells": [c.spec.run_id for c in self.cells()], "populations": list(self.populations),
               "compensation": [self.confirm_games, self.bootstrap, self.low, self.high, self.solved_populations()]}
        if self.rounds != 1:  # one round keeps the ids of studies from before rounds existed
            doc["compensation"].append(self.rounds)
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
    for name, value, least in (("compensation.confirm_games", spec.confirm_games, 0),
                               ("compensation.bootstrap", spec.bootstrap, 1), ("compensation.rounds", spec.rounds, 1)):
        require(isinstance(value, int) and not isinstance(value, bool) and value >= least,
                f"{name} must be {'a non-negative' if least == 0 else 'a positive'} integer")
    require(isinstance(spec.low, int) and isinstance(spec.high, int) and -200 <= spec.low < spec.high <= 200,
            "compensation.low and high must be integers with -200 <= low < high <= 200")
    for n in spec.players:
        for pop in spec.populations:
            seatings = 1 if len(spec.populations[pop]) == 1 else math.factorial(n)
            for key, games in (("run.games", spec.games_of(pop)), ("compensation.confirm_games",
                                                                   spec.games_of(pop, True))):
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
        bootstrap=comp.get("bootstrap", 200), low=comp.get("low", 0), high=comp.get("high", 30),
        compensation_populations=None if comp_pops is None else tuple(comp_pops), rounds=comp.get("rounds"),
        params=dict(game.get("params", {})), data=data)
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


# --- running


@dataclass(frozen=True)
class SeatOrderReport:
    spec: SeatOrderSpec
    directory: Path
    games_played: int
    seconds: float


def run_seat_order(spec: SeatOrderSpec, out: str | Path = "runs", jobs: int = 1, resume: bool = False,
                   on_progress: ProgressCallback | None = None, on_stage: Callable[[str], None] | None = None,
                   directory: Path | None = None) -> SeatOrderReport:
    """Play every cell, solve the compensation and play the confirmation runs, into ``out/<id>/``."""
    started = time.perf_counter()
    check_jobs(jobs)
    check_strategies(spec)
    directory = Path(directory) if directory else Path(out) / spec.study_id
    meta = _prepare_dir(spec, directory, resume)
    cells = spec.cells()
    total = spec.total_games
    played, done = 0, 0
    stage = on_stage or (lambda _text: None)
    try:
        stage(f"{len(cells)} runs: {', '.join(map(str, spec.players))} players x {len(spec.populations)} "
              f"populations" + (f" x {len(spec.starts)} start vectors" if spec.compensation else ""))
        for cell in cells:
            played += _play(cell, directory, jobs, resume, on_progress, done, total)
            done += cell.spec.games
        solutions = []
        if spec.solved_populations():
            stage("compensation: solving the start vectors on the stored games")
            solutions = solve_all(spec, directory)
        meta["solutions"] = solutions
        write_json(directory / MARKER, meta)
        if spec.confirm_games and solutions:
            stage("confirmation: the solved start vectors on fresh deals"
                  + (f", solved again where they do not hold (up to {spec.rounds} rounds)" if spec.rounds > 1 else ""))
            progress = {"played": played, "done": done, "total": total}

            def play(cell: Cell, extra: bool) -> None:
                progress["total"] += cell.spec.games if extra else 0  # a later round: more games than planned
                progress["played"] += _play(cell, directory, jobs, resume, on_progress, progress["done"],
                                            progress["total"])
                progress["done"] += cell.spec.games

            for entry in solutions:
                _confirm(spec, directory, entry, play, lambda: write_json(directory / MARKER, meta))
            played = progress["played"]
            _write_rounds(directory, solutions)
    except BaseException:
        meta["status"] = "interrupted"
        write_json(directory / MARKER, meta)
        raise
    meta["status"] = "complete"
    meta["solutions"] = solutions
    seconds = time.perf_counter() - started
    meta.setdefault("sessions", []).append({"ended": _now(), "jobs": jobs, "games_played": played,
                                            "wall_seconds": round(seconds, 1)})
    write_json(directory / MARKER, meta)
    return SeatOrderReport(spec, directory, played, seconds)


def planned_games(spec: SeatOrderSpec, meta: dict) -> int:
    """Games the study plans: its cells, one confirmation run per solved vector, and the later rounds
    it has begun (their number is known only once the earlier rounds have been judged)."""
    later = sum(r["games"] for s in meta.get("solutions", []) for r in s.get("rounds", [])[1:])
    return spec.total_games + later


def _play(cell: Cell, directory: Path, jobs: int, resume: bool, on_progress, offset: int, total: int) -> int:
    return play_study_run(cell.spec, directory / cell.directory, jobs, resume, on_progress, offset, total)


def _confirm(spec: SeatOrderSpec, directory: Path, entry: dict, play: Callable[[Cell, bool], None],
             save: Callable[[], None]) -> None:
    """Play one (player count, population)'s solved vector on fresh deals; while it does not hold and
    rounds remain, solve it again from the games just played and play the new vector on fresh deals.
    Sets ``entry``'s ``rounds`` (one dict per vector played), ``final`` and ``held``."""
    n, pop, vector = entry["n_players"], entry["population"], entry["vector"]
    entry["rounds"] = []
    for k in range(spec.rounds):
        cell = spec.cell(n, pop, vector, confirm=True, round_index=k)
        play(cell, k > 0)
        entry["rounds"].append({"round": k + 1, "vector": vector, "dir": cell.directory, "games": cell.spec.games,
                                "seed": cell.spec.seed, **fresh_verdict(directory / cell.directory)})
        save()
        if entry["rounds"][-1]["held"] or k + 1 == spec.rounds:
            break
        tried = {r["vector"] for r in entry["rounds"]}
        vector = resolve(directory / cell.directory, spec.low, spec.high)
        if vector in tried:  # re-scoring sees no better vector, yet play says it is off: one step by hand
            vector = nudge(entry["rounds"][-1], spec.low, spec.high)
        if vector is None or vector in tried:
            break  # every step left was played already: integer steps cannot get closer
    best = next((r for r in entry["rounds"] if r["held"]), None) or min(entry["rounds"], key=lambda r: r["imbalance"])
    entry["final"], entry["held"] = best["vector"], best["held"]
    save()


def fresh_verdict(run_dir: Path) -> dict:
    """Whether a vector held in the games of ``run_dir``: every seat's win-rate interval contains the
    fair share. With the sum of squared gaps (``imbalance``) and the seat furthest off, with its interval."""
    profile = read_profile(run_dir)
    seats = seat_table(load(run_dir), profile.score_column)
    gap = seats["win_rate"] - seats["fair"]
    worst = seats.loc[gap.abs().idxmax()]
    inside = (seats["win_rate_low"] <= seats["fair"]) & (seats["fair"] <= seats["win_rate_high"])
    return {"held": bool(inside.all()), "imbalance": float((gap ** 2).sum()), "worst_seat": int(worst["seat"]),
            "worst_rate": float(worst["win_rate"]), "worst_low": float(worst["win_rate_low"]),
            "worst_high": float(worst["win_rate_high"])}


def nudge(played: dict, low: int, high: int) -> str | None:
    """One integer step from the vector of a round that did not hold, toward its furthest seat's
    fair share: that seat one value up (it won too little) or down (too much); seat 1's value is fixed,
    so for seat 1 every other seat moves the other way. None when the step leaves ``low .. high``."""
    vector = [int(v) for v in played["vector"].split("/")]
    seat, fair = played["worst_seat"], 1 / len(vector)
    step = 1 if played["worst_rate"] < fair else -1
    moved = [v - step if i else v for i, v in enumerate(vector)] if seat == 0 else [
        v + step if i == seat else v for i, v in enumerate(vector)]
    return "/".join(map(str, moved)) if all(low <= v <= high for v in moved[1:]) else None


def resolve(run_dir: Path, low: int, high: int) -> str:
    """The most balanced vector by re-scoring the games of ``run_dir`` (played under another vector):
    one step of the root finder, which corrects the vector they were played with by what re-scoring
    says is still off."""
    profile = read_profile(run_dir)
    comp = profile.compensation
    scores = game_scores(load(run_dir), comp.column, profile.score_column, comp.tiebreak_column,
                         shared=bool(profile.shared_wins))
    return "/".join(map(str, solve(scores, low, high, first=comp.fixed_first).vector))


def _write_rounds(directory: Path, solutions: list[dict]) -> None:
    """``rounds.csv`` (every vector played on fresh deals) and the final vector in ``compensation.csv``."""
    rounds = pd.DataFrame([{"n_players": s["n_players"], "population": s["population"],
                            **{k: v for k, v in r.items() if k != "dir"}} for s in solutions for r in s["rounds"]])
    rounds.to_csv(directory / "rounds.csv", index=False)
    table = pd.read_csv(directory / "compensation.csv")
    final = pd.DataFrame([{"n_players": s["n_players"], "population": s["population"], "seat": seat,
                           "final": int(value), "held": s["held"], "rounds": len(s["rounds"])}
                          for s in solutions for seat, value in enumerate(s["final"].split("/"))])
    table = table.drop(columns=[c for c in ("final", "held", "rounds") if c in table])
    table.merge(final, on=["n_players", "population", "seat"], how="left").to_csv(directory / "compensation.csv",
                                                                                  index=False)


def solve_all(spec: SeatOrderSpec, directory: Path) -> list[dict]:
    """The compensation of every (player count, population) from its rulebook cell (or its first
    start vector), with the bootstrap table stored as ``compensation.csv``."""
    tables, solutions = [], []
    base_start = "rulebook" if "rulebook" in spec.starts else spec.starts[0]
    for n in spec.players:
        for pop in spec.solved_populations():
            cell = spec.cell(n, pop, base_start)
            profile = read_profile(directory / cell.directory)
            comp = profile.compensation
            columns = (comp.column, profile.score_column, comp.tiebreak_column)
            scores = game_scores(load(directory / cell.directory), *columns,  # reads only its columns, streamed
                                 shared=bool(profile.shared_wins))
            point, table = solve_with_bootstrap(scores, spec.bootstrap, seed=spec.seed, low=spec.low, high=spec.high,
                                                first=comp.fixed_first)
            table.insert(0, "population", pop)
            table.insert(0, "n_players", n)
            tables.append(table)
            solutions.append({"n_players": n, "population": pop, "vector": "/".join(map(str, point.vector)),
                              "from": cell.directory})
    if tables:
        pd.concat(tables, ignore_index=True).to_csv(directory / "compensation.csv", index=False)
    return solutions


def _prepare_dir(spec: SeatOrderSpec, directory: Path, resume: bool) -> dict:
    meta = open_study_dir(directory, MARKER, "seat-order study", "study_id", spec.study_id, resume,
                          "seat_order.toml", spec.to_dict())
    if meta is not None:
        return meta
    meta = {"kind": "seat_order", "study_id": spec.study_id, "name": spec.name, "seed": spec.seed, "created": _now(),
            "status": "running",
            "cells": [{"n_players": c.n_players, "population": c.population, "start": c.start,
                       "strategies": list(c.spec.strategies), "games": c.spec.games, "dir": c.directory}
                      for c in spec.cells()]}
    write_json(directory / MARKER, meta)
    return meta


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# --- reading results


def load_study_rows(directory: str | Path, kind: str = "cell", partial: bool = False) -> pl.LazyFrame:
    """Rows of every cell (``kind="cell"``) or confirmation run (``"confirm"``) of a finished study,
    labelled with ``population`` and ``start``, as one LazyFrame over the chunks (nothing is read
    until a query over it is collected; an empty frame if no run has chunks yet). Every chunk of the
    study, cells and confirmation runs alike, is checked against its hash first, so one error names
    every damaged chunk.

    ``partial``: also read an unfinished study, from the chunks its runs have so far (runs not yet
    begun are left out); a report of it says how far the study has got."""
    directory = Path(directory)
    meta = read_meta(directory, MARKER, "seat-order")
    if meta.get("status") != "complete" and not partial:
        raise RunStoreError(f"{directory.name}: the study is {meta.get('status')}; finish it with --resume")
    confirm = _confirm_entries(meta)
    every = [entry["dir"] for entry in meta["cells"] + confirm if (directory / entry["dir"] / "meta.json").is_file()]
    files = dict(zip(every, verify_runs(directory / d for d in every), strict=True))
    frames = []
    for entry in meta["cells"] if kind == "cell" else confirm:
        if not files.get(entry["dir"]):
            continue  # only in an unfinished study: this run has not begun
        columns = row_columns(read_profile(directory / entry["dir"]))
        frame = scan_chunks(directory / entry["dir"], files[entry["dir"]]).select(columns)
        frames.append(frame.with_columns(pl.lit(entry["population"]).alias("population"),
                                         pl.lit(entry["start"]).alias("start")))
    if not frames:
        return pl.LazyFrame()
    return pl.concat(frames, how="diagonal_relaxed")  # a solo cell adds the automa's columns


def row_columns(profile: GameProfile) -> tuple[str, ...]:
    """The columns of a study row: the runner's, then every per-seat column the game records."""
    return RUNNER_COLUMNS + tuple(c for c in profile.records if c not in RUNNER_COLUMNS)


def study_run_dirs(directory: str | Path) -> list[Path]:
    """The run directories of a study's cells and of its confirmation runs known so far."""
    directory = Path(directory)
    meta = read_meta(directory, MARKER, "seat-order")
    return [directory / entry["dir"] for entry in meta["cells"] + _confirm_entries(meta)]


def _confirm_entries(meta: dict) -> list[dict]:
    """The confirmation runs begun so far, as cell entries (each round's vector as their start);
    studies from before rounds existed name one run, ``confirm_dir``."""
    entries = []
    for s in meta.get("solutions", []):
        rounds = s.get("rounds") or ([{"vector": s["vector"], "dir": s["confirm_dir"]}] if "confirm_dir" in s else [])
        entries += [{"n_players": s["n_players"], "population": s["population"], "start": r["vector"],
                     "dir": r["dir"]} for r in rounds]
    return entries
