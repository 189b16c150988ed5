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

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from bgsim.experiments.runner import check_jobs
from bgsim.experiments.seat_order_spec import (
    Cell,
    SeatOrderSpec,
    check_strategies,
    load_seat_order,
    seat_order_from_dict,
)
from bgsim.experiments.studies import study_named
from bgsim.experiments.study import Session, StudyResult, open_session
from bgsim.sim.results.store import load, read_profile
from bgsim.sim.stats.clustered import seat_covariances
from bgsim.sim.stats.compensation import game_scores, solve, solve_with_bootstrap
from bgsim.sim.stats.equivalence import HELD, Tolerance, equivalence, plan_seat_games, seat_tests
from bgsim.sim.stats.imbalance import seat_imbalance
from bgsim.sim.stats.lazy import column_names
from bgsim.sim.stats.seats import seat_table
from bgsim.sim.stats.wins import win_column

__all__ = ["STUDY", "Cell", "SeatOrderSpec", "check_strategies", "fresh_verdict", "load_seat_order", "nudge",
           "planned_games", "resolve", "run_seat_order", "seat_order_from_dict", "solve_all"]

STUDY = study_named("seat_order")
ProgressCallback = Callable[[int, int], None]


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
