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
and proposes a start vector per (player count, population). Where the start value changes play
(``compensation.rounds`` > 0; by default 4 rounds where the profile says so, else none), the vector
is refined on deals of its own: round k plays it on fresh deals (seed + 1 + k) under
``<dir>/rounds/<run-id>/``, re-solves it from those games (a step of a stochastic root finder on the
seats' win-rate gaps), and stops when a round's games show it even within the tolerance, the finder
repeats a vector, or the rounds are spent; the round with the smallest seat imbalance
(``sim.stats.imbalance``, unbiased) gives the final vector. The final vector is then played once on
deals none of them saw (seed + 1 + rounds) under ``<dir>/confirm/<run-id>/``, sized by the tolerance
and the wanted power (``[tolerance]`` seat_pp and power; ``compensation.confirm_games = "auto"``,
``sim.stats.equivalence.plan_games``, from the design effect the rulebook cell showed), and judged
by two one-sided tests over all seats at once: *held within the tolerance*, *off by more than the
tolerance*, or *cannot tell with these games* (with the games that would tell). ``rounds.csv`` lists
every round; ``compensation.csv`` gains the final vector and its verdict. ``seat_order.json``
records the cells, the solutions and the status; ``--resume`` finishes an interrupted study.
"""

import functools
import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from bgsim.experiments.runner import check_jobs
from bgsim.experiments.spec_check import check_run_settings, tolerance_from
from bgsim.experiments.studies import study_named
from bgsim.experiments.study import Session, StudyResult, open_session
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
from bgsim.sim.results.store import load, read_profile
from bgsim.sim.stats.clustered import seat_covariances
from bgsim.sim.stats.compensation import game_scores, solve, solve_with_bootstrap
from bgsim.sim.stats.equivalence import HELD, Tolerance, equivalence, plan_seat_games, seat_tests
from bgsim.sim.stats.imbalance import seat_imbalance
from bgsim.sim.stats.lazy import column_names
from bgsim.sim.stats.seats import seat_table
from bgsim.sim.stats.wins import win_column
from bgsim.strategies import make_strategy

__all__ = ["STUDY", "Cell", "SeatOrderSpec", "load_seat_order", "planned_games", "run_seat_order",
           "seat_order_from_dict"]

STUDY = study_named("seat_order")
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

ProgressCallback = Callable[[int, int], None]


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


# --- running


def run_seat_order(spec: SeatOrderSpec, out: str | Path = "runs", jobs: int = 1, resume: bool = False,
                   on_progress: ProgressCallback | None = None, on_stage: Callable[[str], None] | None = None,
                   directory: Path | None = None) -> StudyResult:
    """Play every cell, solve the compensation, refine and confirm it, into ``out/<id>/``."""
    check_jobs(jobs)
    check_strategies(spec)
    directory = Path(directory) if directory else Path(out) / spec.study_id
    cells = spec.cells()
    with open_session(STUDY, spec.study_id, spec.to_dict(), directory, resume, jobs, spec.total_games,
                      lambda: _fresh_meta(spec), on_progress, on_stage) as session:
        session.stage(f"{len(cells)} runs: {', '.join(map(str, spec.players))} players x {len(spec.populations)} "
                      f"populations" + (f" x {len(spec.starts)} start vectors" if spec.compensation else ""))
        for cell in cells:
            session.play(cell.spec, cell.directory)
        solutions = []
        if spec.solved_populations():
            session.stage("compensation: solving the start vectors on the stored games")
            solutions = solve_all(spec, directory)
        session.meta["solutions"] = solutions
        session.save()
        if spec.confirm_games and solutions:
            session.total = planned_games(spec, session.meta)  # the plan sized from the cells replaces the guess
            session.stage("confirmation: " + (f"up to {spec.rounds} rounds on fresh deals choose the vector, then "
                                              if spec.rounds else "") + "the final vector on deals no run has played")
            for entry in solutions:
                _choose_and_confirm(spec, session, entry)
            _write_rounds(directory, solutions)
    return session.result()


def _fresh_meta(spec: SeatOrderSpec) -> dict:
    return {"name": spec.name, "seed": spec.seed,
            "cells": [{"n_players": c.n_players, "population": c.population, "start": c.start,
                       "strategies": list(c.spec.strategies), "games": c.spec.games, "dir": c.directory}
                      for c in spec.cells()]}


def planned_games(spec: SeatOrderSpec, meta: dict) -> int:
    """Games the study plans: its cells, a confirmation run per solved vector (its planned size once
    solved) and the refinement rounds begun (each round its own; how many is known only as they are
    judged, so one round is counted ahead)."""
    cells = sum(c.spec.games for c in spec.cells())
    solutions = meta.get("solutions", [])
    if not spec.confirm_games or not solutions:
        return spec.total_games
    fresh = 0
    for s in solutions:
        games = spec.fresh_games(s["population"], s["n_players"], s.get("planned"))
        rounds = s.get("rounds", [])
        ahead = 1 if spec.rounds and not s.get("confirm") and len(rounds) < spec.rounds else 0
        fresh += games * (len(rounds) + ahead + 1)
    return cells + fresh


def _choose_and_confirm(spec: SeatOrderSpec, session: Session, entry: dict) -> None:
    """One (player count, population): refine the solved vector in rounds on deals of their own (where
    the spec asks for rounds), choose the final vector on those deals, and confirm it once on deals
    no round saw. Sets ``entry``'s ``rounds`` (one dict per vector played), ``final`` and ``confirm``
    (the confirmation's verdict); the marker is saved after every run."""
    n, pop, vector = entry["n_players"], entry["population"], entry["vector"]
    directory = session.directory
    games = spec.fresh_games(pop, n, entry.get("planned"))
    entry["rounds"] = []
    tried: set[str] = set()
    for k in range(spec.rounds):
        cell = spec.cell(n, pop, vector, kind="round", round_index=k, games=entry.get("planned"))
        session.play(cell.spec, cell.directory)
        entry["rounds"].append({"round": k + 1, "vector": vector, "dir": cell.directory, "games": cell.spec.games,
                                "seed": cell.spec.seed, **fresh_verdict(directory / cell.directory, spec.tolerance)})
        session.save()
        tried.add(vector)
        if entry["rounds"][-1]["outcome"] == HELD or k + 1 == spec.rounds:
            break  # even within the tolerance on its own deals: the confirmation decides
        session.total += games  # one more round than was counted ahead
        vector = resolve(directory / cell.directory, spec.low, spec.high)
        if vector in tried:  # re-scoring sees no better vector, yet play says it is off: one step by hand
            vector = nudge(entry["rounds"][-1], spec.low, spec.high)
        if vector is None or vector in tried:
            session.total -= games
            break  # every step left was played already: integer steps cannot get closer
    final = min(entry["rounds"], key=lambda r: r["imbalance"])["vector"] if entry["rounds"] else entry["vector"]
    cell = spec.cell(n, pop, final, kind="confirm", games=entry.get("planned"))
    session.play(cell.spec, cell.directory)
    entry["final"] = final
    entry["confirm"] = {"vector": final, "dir": cell.directory, "games": cell.spec.games, "seed": cell.spec.seed,
                        **fresh_verdict(directory / cell.directory, spec.tolerance)}
    session.save()


def fresh_verdict(run_dir: Path, tolerance: Tolerance) -> dict:
    """A vector's verdict on the games of ``run_dir``: two one-sided tests over all seats at once
    (``sim.stats.equivalence``) on the seats' gaps to their fair share, clustered by deal; the seat
    imbalance (unbiased mean squared gap, ``sim.stats.imbalance``) with its interval; and the seat
    furthest off with its simultaneous interval."""
    profile = read_profile(run_dir)
    rows = load(run_dir)
    seats = seat_table(rows, profile.score_column).sort_values("seat")
    n = int(seats["n_players"].iloc[0])
    verdict = equivalence(seats["win_rate"] - seats["fair"], seats["win_se"], tolerance.seat_pp / 100,
                          float(seats["games"].iloc[0]), tolerance.alpha, k=seat_tests(n))
    covariance = next(iter(seat_covariances(rows, ["n_players"], win_column(column_names(rows)), n).values()))
    imbalance = seat_imbalance(covariance.rates, covariance.covariance)
    worst = verdict.worst
    low, high = verdict.bounds
    fair = 1.0 / n
    return {"outcome": verdict.outcome, "tolerance_pp": tolerance.seat_pp,
            "games_to_tell": verdict.games_to_tell if np.isfinite(verdict.games_to_tell) else None,
            "imbalance": imbalance.value, "imbalance_low": imbalance.low, "imbalance_high": imbalance.high,
            "worst_seat": int(seats["seat"].iloc[worst]), "worst_rate": float(seats["win_rate"].iloc[worst]),
            "worst_low": float(fair + low[worst]), "worst_high": float(fair + high[worst])}


def nudge(played: dict, low: int, high: int) -> str | None:
    """One integer step from the vector of a round that was not even, toward its furthest seat's
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
    """``rounds.csv`` (every vector a refinement round played, and the confirmation as the last row)
    and the final vector with its verdict in ``compensation.csv``."""
    rows = []
    for s in solutions:
        played = [{"kind": "round", **r} for r in s.get("rounds", [])]
        if s.get("confirm"):
            played.append({"kind": "confirmation", "round": len(played) + 1, **s["confirm"]})
        rows += [{"n_players": s["n_players"], "population": s["population"],
                  **{k: v for k, v in r.items() if k != "dir"}} for r in played]
    pd.DataFrame(rows).to_csv(directory / "rounds.csv", index=False)
    table = pd.read_csv(directory / "compensation.csv")
    final = pd.DataFrame([{"n_players": s["n_players"], "population": s["population"], "seat": seat,
                           "final": int(value), "outcome": s["confirm"]["outcome"],
                           "games_to_tell": s["confirm"].get("games_to_tell"), "confirm_games": s["confirm"]["games"],
                           "rounds": len(s.get("rounds", []))}
                          for s in solutions if s.get("confirm") for seat, value in enumerate(s["final"].split("/"))])
    table = table.drop(columns=[c for c in ("final", "held", "outcome", "games_to_tell", "confirm_games", "rounds")
                                if c in table])
    if not final.empty:
        table = table.merge(final, on=["n_players", "population", "seat"], how="left")
    table.to_csv(directory / "compensation.csv", index=False)


def solve_all(spec: SeatOrderSpec, directory: Path) -> list[dict]:
    """The compensation of every (player count, population) from its rulebook cell (or its first
    start vector), with the bootstrap table stored as ``compensation.csv``, and the games its
    confirmation plans (``plan_seat_games``: the cell's design effect, and the solution's predicted
    worst gap on the stored games as the offset, at most half the tolerance)."""
    tables, solutions = [], []
    base_start = "rulebook" if "rulebook" in spec.starts else spec.starts[0]
    for n in spec.players:
        for pop in spec.solved_populations():
            cell = spec.cell(n, pop, base_start)
            profile = read_profile(directory / cell.directory)
            comp = profile.compensation
            columns = (comp.column, profile.score_column, comp.tiebreak_column)
            rows = load(directory / cell.directory)
            scores = game_scores(rows, *columns, shared=bool(profile.shared_wins))  # reads only its columns
            point, table = solve_with_bootstrap(scores, spec.bootstrap, seed=spec.seed, low=spec.low, high=spec.high,
                                                first=comp.fixed_first)
            seats = seat_table(rows, profile.score_column)
            effect = float((seats["games"] / seats["effective_games"]).max())
            offset = float(np.abs(point.rates - 1.0 / n).max())
            table.insert(0, "population", pop)
            table.insert(0, "n_players", n)
            tables.append(table)
            solutions.append({"n_players": n, "population": pop, "vector": "/".join(map(str, point.vector)),
                              "from": cell.directory, "design_effect": effect,
                              "planned": plan_seat_games(n, spec.tolerance, effect, offset)})
    if tables:
        pd.concat(tables, ignore_index=True).to_csv(directory / "compensation.csv", index=False)
    return solutions
