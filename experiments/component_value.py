"""The component-value study: what a component is worth when a seat picks it, by intervention.

A spec (``experiments/configs/*component_value*.toml``) names a game, player counts and a population
of strategies. Per player count the study plays ``games`` ordinary source games; at every decision
the game declares as a component choice (its profile's ``choices``, the engine's
``choice_components``) where some component is on offer, it plays every legal alternative to the
end ``rollouts`` times, each alternative on the same determinisations of the hidden information
with the same seat streams (``Game.rollout_outcomes``), all seats by the population's compiled
policies. Each (point, component) gives a paired difference (``sim.stats.choice_value``): the
component's best row against the mean of the other components on offer (alone on offer: against the
best row without it, less the average component's value over it). Rows are streamed to
``points/n<players>/chunk-*.parquet`` chunk by chunk, so memory stays flat in the number of points.

Then the payout solver: for each component whose choice value is off (q below ``solver.q``), the
payout at which it would be even against the same reference, on the same points (the same states
and the same rollouts' determinisations, every alternative played again), by the root finder of the
difficulty calibration (``sim.stats.calibration.find_root``); and a check of that payout on fresh
source games (seed + 1): even within ``[tolerance] payout_steps`` payout steps by two one-sided
tests (held), beyond them (off), or the fresh games cannot tell. Results: ``choice_values.csv``,
``solver/*.json``, ``payouts.csv``.

With ``ablation.deals``, the ablation (``experiments.ablation``): deals played with each component
and again with it replaced, the same chance in both; what it changes in each seat's win rate, the
score spread and the lead changes: ``ablation/n<players>/chunk-*.parquet`` and ``ablation.csv``;
with ``ablation.fresh_deals``, the same on deals of seed + 1 (``ablation_fresh/``), and each
effect found says whether it held there.

Everything is a function of (spec, player count, source game, decision): results are identical for
any number of workers and chunk size, and ``--resume`` keeps every finished chunk and solution.
"""

import json
import shutil
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from bgsim.experiments import ablation
from bgsim.experiments.component_value_points import (
    ROW_COLUMNS,
    Point,
    point_outcomes,
    sample_chunk,
    source_points,
    source_seeds,
)
from bgsim.experiments.component_value_spec import (
    AUTO,
    ComponentValueSpec,
    Setup,
    _setup,
    component_value_from_dict,
    load_component_value,
)
from bgsim.experiments.runner import git_state, package_versions
from bgsim.experiments.studies import resume_command, study_named
from bgsim.experiments.study import StudyResult, csv_or_empty, open_session
from bgsim.experiments.workers import each
from bgsim.sim.profile import GameProfile
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.results.played import played
from bgsim.sim.results.store import RunStoreError, read_meta, write_chunk, write_json, write_toml
from bgsim.sim.stats.ablation import fresh_check as ablation_fresh_check
from bgsim.sim.stats.calibration import find_root
from bgsim.sim.stats.choice_value import (
    ChoicePoint,
    add_moments,
    alone_sums,
    alone_targets,
    choice_moments,
    clustered_interval,
    clustered_mean,
    offered,
    point_values,
    values_from_moments,
)
from bgsim.sim.stats.equivalence import equivalence, plan_games

__all__ = ["STUDY", "ComponentValueSpec", "association_table", "contents", "load_component_value", "load_points",
           "progress", "read", "read_study", "run_component_value", "values_table_of"]

STUDY = study_named("component_value")
# One row per solved component in payouts.csv (its trials stay in solver/*.json).
PAYOUT_COLUMNS = ("n_players", "component", "id", "group", "payout_now", "payout", "payout_low", "payout_high",
                  "reachable", "points", "games", "step", "tolerance", "fresh_games", "fresh_points", "fresh_win",
                  "fresh_win_low", "fresh_win_high", "fresh_outcome", "fresh_games_to_tell")
ProgressCallback = Callable[[int, int], None]


# --- the payout solver


def solve_payout(spec: ComponentValueSpec, n: int, component: int, points: pd.DataFrame, target: float = 0.0,
                 offered_share: float = 1.0) -> dict:
    """The payout of ``component`` at which its choice value is 0 on ``points`` (its rows of the
    study), each payout measured on the same states and determinisations, every alternative played
    again (a payout moves the component's best row and, where rows share components, the others').
    ``target``: what its alone points are measured against (the other components' average,
    ``alone_targets``; 0 where it is offered beside others). Then, with ``fresh_games``, the solved
    payout checked on fresh source games (``offered_share``: the share of source games offering it,
    for "auto")."""
    setup = _setup(spec, n)
    points = points.sort_values(["game", "point"]).head(spec.solver_points)
    states = _replay(setup, spec, points)
    low, high = setup.choice.payout_range
    measured = []

    def measure(payout: int) -> tuple[float, bool]:
        game = setup.game.with_payout(component, payout)
        rows = [_point_value(setup, game, point, component, spec.rollouts, spec.seed, g) for g, point in states]
        frame = pd.DataFrame(rows, columns=["game", "win", "margin", "alone"])
        wins = frame["win"].to_numpy() - np.where(frame["alone"], target, 0.0)
        mean, lo, hi = clustered_interval(wins, frame["game"].to_numpy())
        measured.append({"payout": payout, "win": mean, "win_low": lo, "win_high": hi,
                         "margin": float(frame["margin"].mean())})
        return mean, bool(lo <= 0 <= hi) if np.isfinite(lo) else True

    reachable = find_root(measure, range(low, high + 1), 0.0)
    trials = pd.DataFrame(measured).sort_values("payout").reset_index(drop=True)
    even = trials[(trials["win_low"] <= 0) & (0 <= trials["win_high"])]
    # the payout whose win value is closest to 0; on a tie (a flat response), the one closest to an even margin
    best = trials.loc[trials.assign(w=trials["win"].abs(), m=trials["margin"].abs()).sort_values(["w", "m"]).index[0]]
    result = {"n_players": n, "component": component, "payout_now": setup.game.payout(component),
              "payout": int(best["payout"]), "payout_low": int(even["payout"].min()) if len(even) else None,
              "payout_high": int(even["payout"].max()) if len(even) else None, "reachable": reachable,
              "points": len(points), "games": int(points["game"].nunique()), "target": target,
              "trials": trials.to_dict(orient="records")}
    step = payout_step(result["trials"], result["payout"])
    result["step"] = step
    result["tolerance"] = spec.tolerance.payout_steps * step if np.isfinite(step) else float("nan")
    if spec.fresh_games and reachable and np.isfinite(result["tolerance"]):  # no suggestion, nothing to check
        games = fresh_games_for(spec, best, result["tolerance"], result["games"], offered_share)
        result["fresh"] = fresh_check(spec, n, component, result["payout"], games, target, result["tolerance"])
    return result


def _point_value(setup: Setup, game, point: Point, component: int, rollouts: int, seed: int, g: int) -> tuple:
    """(source game, win, margin, alone) of ``component`` at ``point`` under ``game``: every row rolled
    out again, the value against the study's reference (``sim.stats.choice_value``)."""
    shares, margins = point_outcomes(setup, game, point, rollouts, seed, g)
    values = point_values(ChoicePoint(g, point.components, shares, margins))
    row = values[values["component"] == component].iloc[0]
    return g, float(row["win"]), float(row["margin"]), bool(row["alone"])


def fresh_games_for(spec: ComponentValueSpec, trial, tolerance: float, games: int, offered_share: float) -> int:
    """Fresh source games for a payout's check: the spec's number, or for "auto" as many as the
    tolerance and power need (``sim.stats.equivalence.plan_games``), from the spread the solver
    measured over its source games and the share of games that offer the component; at most
    ``fresh_most``."""
    if spec.fresh_games != AUTO:
        return int(spec.fresh_games)
    half = (trial["win_high"] - trial["win_low"]) / 2 if np.isfinite(trial["win_high"]) else np.nan
    if not np.isfinite(half) or games < 2:
        return spec.fresh_most
    sd = half / 1.96 * np.sqrt(games)  # per source game that offers the component
    needed = plan_games(sd, tolerance, spec.tolerance.alpha, spec.tolerance.power, k=1)
    return int(min(spec.fresh_most, max(20, np.ceil(needed / max(offered_share, 1e-9)))))


def _replay(setup: Setup, spec: ComponentValueSpec, points: pd.DataFrame) -> list:
    """(source game, Point) for each row of ``points``, the states replayed from their source games."""
    out = []
    for g, part in points.groupby("game", sort=True):
        wanted = {int(p) for p in part["point"]}
        seeds = source_seeds(spec.seed, setup.game.n_players, int(g))
        for point in source_points(setup, setup.game, seeds, int(g), wanted):
            out.append((int(g), point))
    return out


def fresh_check(spec: ComponentValueSpec, n: int, component: int, payout: int, games: int, target: float = 0.0,
                tolerance: float = float("nan")) -> dict:
    """The choice value of ``component`` at ``payout`` on ``games`` source games dealt from seed + 1,
    every alternative rolled out where it is on offer, and whether it is even within ``tolerance``
    (two one-sided tests, ``sim.stats.equivalence``): held, off, or cannot tell with these games."""
    setup = _setup(spec, n)
    game = setup.game.with_payout(component, payout)
    seed = spec.seed + 1
    rows = []
    for g in range(games):
        for point in source_points(setup, game, source_seeds(seed, n, g), g):
            if component in offered(point.components):
                rows.append(_point_value(setup, game, point, component, spec.rollouts, seed, g))
    if not rows:
        return {"payout": payout, "games": games, "points": 0, "outcome": "cannot tell"}
    frame = pd.DataFrame(rows, columns=["game", "win", "margin", "alone"])
    values = frame["win"].to_numpy() - np.where(frame["alone"], target, 0.0)
    mean, se, clusters = clustered_mean(values, frame["game"].to_numpy())
    lo, hi = clustered_interval(values, frame["game"].to_numpy())[1:]
    verdict = equivalence(mean, se, tolerance, clusters, spec.tolerance.alpha, k=1)
    return {"payout": payout, "games": games, "points": len(frame), "source_games": clusters, "win": mean,
            "win_low": lo, "win_high": hi, "outcome": verdict.outcome,
            "games_to_tell": (float(np.ceil(verdict.games_to_tell * games / max(clusters, 1)))
                              if np.isfinite(verdict.games_to_tell) else None)}


# --- running a study


def run_component_value(spec: ComponentValueSpec, out: str | Path = "runs", jobs: int = 1, resume: bool = False,
                        on_progress: ProgressCallback | None = None,
                        on_stage: Callable[[str], None] | None = None) -> StudyResult:
    """Sample every chunk (keeping finished ones with ``resume``), then the values and the payout solver.
    Its games are source games sampled and ablation deals played."""
    directory = Path(out) / spec.study_id
    with open_session(STUDY, spec.study_id, spec.to_dict(), directory, resume, jobs, spec.total_games,
                      lambda: {"chunks": {}}, on_progress, on_stage) as session:
        meta = session.meta
        # the profile of the engine that samples and solves now (its payout range is the solver's)
        meta["profile"] = {str(n): _setup(spec, n).profile.to_json() for n in spec.players}
        meta["played"] = played_facts(spec)
        _drop_other_settings(spec, directory, meta)
        write_toml(directory / STUDY.spec_file, spec.to_dict())  # the settings the report describes
        session.save()
        todo = [c for c in spec.chunks() if not _chunk_done(directory, meta, *c)]
        ablation_todo = [c for c in spec.ablation_chunks() if not _ablation_chunk_done(directory, meta, *c)]
        session.count(0, spec.total_games - sum(c[2] - c[1] for c in todo + ablation_todo))
        for (n, first, stop), table, seconds in _execute(spec, todo, jobs):
            digest = write_chunk(_points_dir(directory, n), first, table)
            meta["chunks"][_chunk_key(n, first)] = {"stop": stop, "rows": table.num_rows,
                                                    "seconds": round(seconds, 2), **digest}
            session.save()
            session.count(stop - first)
        table = values_table(directory, spec)
        table.to_csv(directory / "choice_values.csv", index=False)
        if ablation_todo:
            session.stage(f"ablation: {spec.ablation_deals:,} deals per player count, each also played without each "
                          f"component it holds")
        for (n, first, stop, fresh), rows, seconds in each(ablation.timed_chunk,
                                                            [(_setup, spec, c) for c in ablation_todo], jobs):
            digest = ablation.write_ablation_chunk(directory, n, first, rows, fresh)
            meta["ablation_chunks"][_ablation_key(n, first, fresh)] = {"stop": stop, "rows": rows.num_rows,
                                                                       "seconds": round(seconds, 2), **digest}
            session.save()
            session.count(stop - first)
        if spec.ablation_deals:
            ablation_table(directory, spec).to_csv(directory / "ablation.csv", index=False)
        _solve_all(spec, directory, table, jobs, session.stage)
    return session.result()


def _drop_other_settings(spec: ComponentValueSpec, directory: Path, meta: dict) -> None:
    """Resuming under other solver or ablation settings: what was solved or played under the old ones is
    not this study's, and goes (the sampled source games stay: the settings do not change them)."""
    if meta.get("solver") != spec.solver_settings():
        shutil.rmtree(directory / "solver", ignore_errors=True)
        (directory / "payouts.csv").unlink(missing_ok=True)
        meta["solver"] = spec.solver_settings()
    for fresh, key in ((False, "ablation"), (True, "ablation_fresh")):
        if meta.get(key) != spec.ablation_settings(fresh):  # nor deals chunked or counted otherwise
            shutil.rmtree(directory / ablation.folder(fresh), ignore_errors=True)
            (directory / "ablation.csv").unlink(missing_ok=True)
            meta[key] = spec.ablation_settings(fresh)
            meta.setdefault("ablation_chunks", {})
            meta["ablation_chunks"] = {k: v for k, v in meta["ablation_chunks"].items()
                                       if k.startswith("fresh-") != fresh}


def _chunk_key(n: int, first: int) -> str:
    return f"n{n}-{first}"


def _ablation_key(n: int, first: int, fresh: bool) -> str:
    return ("fresh-" if fresh else "") + _chunk_key(n, first)


def _ablation_chunk_done(directory: Path, meta: dict, n: int, first: int, stop: int, fresh: bool) -> bool:
    """``_chunk_done`` for an ablation chunk (listed in ``meta['ablation_chunks']``)."""
    return _whole(ablation.chunk_path(directory, n, first, fresh), meta["ablation_chunks"],
                  _ablation_key(n, first, fresh), stop)


def ablation_table(directory: Path, spec: ComponentValueSpec) -> pd.DataFrame:
    """The ablation effects per player count and component (``sim.stats.ablation``), with ids."""
    def catalogue(n: int) -> tuple[str, tuple]:
        attribution = _setup(spec, n).attribution
        return attribution.id_field, attribution.catalogue

    table = ablation.ablation_table(directory, spec.players, catalogue)
    if spec.ablation_fresh and not table.empty:
        table = ablation_fresh_check(table, ablation.ablation_table(directory, spec.players, catalogue, fresh=True))
    return table


def _points_dir(directory: Path, n: int) -> Path:
    path = directory / "points" / f"n{n}"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _chunk_done(directory: Path, meta: dict, n: int, first: int, stop: int) -> bool:
    """A chunk counts as done when its file is whole: the rows meta.json lists, or (killed between
    the file and meta.json) a file that reads in full."""
    return _whole(directory / "points" / f"n{n}" / f"chunk-{first:06d}.parquet", meta["chunks"],
                  _chunk_key(n, first), stop)


def _whole(path: Path, listed: dict, key: str, stop: int) -> bool:
    """Whether the chunk file ``path`` is whole: readable, with the rows and end ``listed[key]`` gives,
    or, when it is not listed (a kill between the file and meta.json), readable at all (then listed)."""
    try:
        rows = pq.read_metadata(path).num_rows
    except (OSError, pa.ArrowInvalid):
        return False
    info = listed.get(key)
    if info is None:
        listed[key] = {"stop": stop, "rows": rows}
        return True
    return info.get("stop") == stop and info.get("rows") == rows


def _execute(spec: ComponentValueSpec, chunks: list, jobs: int) -> Iterator[tuple[tuple, pa.Table, float]]:
    """((n, first, stop), rows, seconds) of each chunk as it finishes, here or on ``jobs`` local workers."""
    return each(_timed_chunk, [(spec, chunk) for chunk in chunks], jobs)


def _timed_chunk(spec: ComponentValueSpec, chunk: tuple) -> tuple[tuple, pa.Table, float]:
    began = time.perf_counter()
    table = sample_chunk(spec, *chunk)
    return chunk, table, time.perf_counter() - began


def load_points(directory: str | Path, n: int | None = None) -> pd.DataFrame:
    """Every (point, component) row of a study (one player count if ``n``), in chunk order."""
    root = Path(directory) / "points"
    paths = sorted(root.glob(f"n{n}/chunk-*.parquet" if n is not None else "n*/chunk-*.parquet"))
    if not paths:
        return pd.DataFrame(columns=list(ROW_COLUMNS))
    try:
        return pd.concat([pq.read_table(p).to_pandas() for p in paths], ignore_index=True)
    except (OSError, pa.ArrowInvalid) as exc:
        raise RunStoreError(f"{directory}: a points chunk is damaged ({exc}); run the study again with "
                            f"--resume to replace it") from None


def values_table(directory: Path, spec: ComponentValueSpec) -> pd.DataFrame:
    """Per player count and component: ``choice_values`` with the catalogue's id and group, from the
    chunks one at a time (their moments add up), so memory does not grow with the points."""
    frames = []
    for n in spec.players:
        moments, alone = _moments(directory, n)
        table = values_from_moments(moments, alone) if moments is not None else pd.DataFrame()
        if table.empty:
            continue
        attribution = _setup(spec, n).attribution
        catalogue = {row[attribution.id_field]: row for row in attribution.catalogue}
        table.insert(0, "n_players", n)
        table.insert(2, "id", [catalogue[c]["id"] for c in table["component"]])
        table.insert(3, "group", [catalogue[c].get("group", "") for c in table["component"]])
        frames.append(table)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def _moments(directory: Path, n: int) -> tuple[pd.DataFrame | None, pd.DataFrame]:
    """The choice moments of every chunk at ``n`` players, added up, and the per-game sums of the
    components that were alone on offer (``alone_sums``, small: one row per game and component)."""
    moments, alone = None, []
    for path in sorted((Path(directory) / "points" / f"n{n}").glob("chunk-*.parquet")):
        rows = _read_chunk(path, ["component", "game", "win", "margin", "alone"])
        chunk = choice_moments(rows)
        moments = chunk if moments is None else add_moments(moments, chunk)
        alone.append(alone_sums(rows))
    alone = [a for a in alone if not a.empty]
    return moments, (pd.concat(alone, ignore_index=True) if alone else pd.DataFrame())


def component_points(directory: Path, n: int, component: int, limit: int) -> pd.DataFrame:
    """The first ``limit`` points (by source game and decision) where ``component`` was on offer at
    ``n`` players, read chunk by chunk (chunks hold consecutive source games)."""
    frames, found = [], 0
    for path in sorted((Path(directory) / "points" / f"n{n}").glob("chunk-*.parquet")):
        part = _read_chunk(path, None, [("component", "=", component)])
        frames.append(part)
        found += len(part)
        if found >= limit:
            break
    if not frames:
        return pd.DataFrame(columns=list(ROW_COLUMNS))
    return pd.concat(frames, ignore_index=True).sort_values(["game", "point"]).head(limit).reset_index(drop=True)


def _read_chunk(path: Path, columns: list[str] | None, filters: list | None = None) -> pd.DataFrame:
    try:
        return pq.read_table(path, columns=columns, filters=filters).to_pandas()
    except (OSError, pa.ArrowInvalid) as exc:
        raise RunStoreError(f"{path}: damaged ({exc}); run the study again with --resume to replace it") from None


def _solve_all(spec: ComponentValueSpec, directory: Path, table: pd.DataFrame, jobs: int,
               on_stage: Callable[[str], None] | None) -> None:
    """Solve every component that is off (or named in the spec), each once: ``solver/n<n>-c<component>.json``
    (a killed study keeps the solutions it wrote)."""
    solver_dir = directory / "solver"
    solver_dir.mkdir(exist_ok=True)
    wanted = _to_solve(spec, table)
    tasks = [(int(r.n_players), int(r.component), int(r.games)) for r in wanted.itertuples()
             if not (solver_dir / f"n{r.n_players}-c{r.component}.json").exists()]
    if on_stage and tasks:
        on_stage(f"payout solver: {len(tasks)} component{'s' if len(tasks) != 1 else ''}")
    targets = {n: alone_targets(_moments(directory, n)[1]) for n in spec.players}
    calls = [(spec, n, c, component_points(directory, n, c, spec.solver_points), targets[n].get(c, 0.0),
              games / spec.games) for n, c, games in tasks]
    for result in each(solve_payout, calls, jobs):
        write_json(solver_dir / f"n{result['n_players']}-c{result['component']}.json", result)
    _write_payouts(directory, spec)


def _to_solve(spec: ComponentValueSpec, table: pd.DataFrame) -> pd.DataFrame:
    """The rows of ``table`` to solve: q below ``solver_q`` (the ``solver_most`` furthest from 0 per
    player count, if set) and every component the spec names."""
    if table.empty:
        return table
    off = table[table["q"] < spec.solver_q]
    if spec.solver_most:
        off = (off.assign(size=off["win"].abs()).sort_values(["n_players", "size"], ascending=[True, False])
               .groupby("n_players").head(spec.solver_most).drop(columns="size"))
    named = table[table["id"].isin(spec.solver_components)]
    return pd.concat([off, named]).drop_duplicates(["n_players", "component"]).sort_values(["n_players", "component"])


def _write_payouts(directory: Path, spec: ComponentValueSpec) -> None:
    """``payouts.csv``: one row per solved component, named by its id and group as in
    ``choice_values.csv`` (the trials stay in the JSON files)."""
    rows = []
    for path in sorted((directory / "solver").glob("n*-c*.json")):
        doc = json.loads(path.read_text())
        fresh = doc.get("fresh", {})
        step = doc.get("step", payout_step(doc["trials"], doc["payout"]))
        attribution = _setup(spec, doc["n_players"]).attribution
        row = next(r for r in attribution.catalogue if r[attribution.id_field] == doc["component"])
        rows.append({k: doc[k] for k in ("n_players", "component", "payout_now", "payout", "payout_low",
                                         "payout_high", "reachable", "points", "games")}
                    | {"id": row["id"], "group": row.get("group", "")}
                    | {"step": step, "tolerance": doc.get("tolerance")}
                    | {f"fresh_{k}": fresh.get(k) for k in ("games", "points", "win", "win_low", "win_high",
                                                            "outcome", "games_to_tell")})
    pd.DataFrame(rows, columns=list(PAYOUT_COLUMNS)).to_csv(directory / "payouts.csv", index=False)


def payout_step(trials: list[dict], payout: int) -> float:
    """How much one unit of payout moves the win value near ``payout``: the measured values at the
    nearest payouts tried on either side, their difference over their distance (NaN if a side was
    not tried). A payout in whole units can miss 0 by up to half of it."""
    below = [t for t in trials if t["payout"] < payout]
    above = [t for t in trials if t["payout"] > payout]
    if not below or not above:
        return float("nan")
    lo, hi = max(below, key=lambda t: t["payout"]), min(above, key=lambda t: t["payout"])
    return abs(hi["win"] - lo["win"]) / (hi["payout"] - lo["payout"])


def read_study(directory: str | Path) -> dict:
    """The marker of a component-value study; one-line error if it is none."""
    return read_meta(Path(directory), STUDY.marker, STUDY.noun)


def read(directory: str | Path) -> pl.LazyFrame:
    """The decision points of a finished study (``bgsim.load``): one row per (point, component on offer)
    sampled, with its player count, seat, strategy and outcomes, over every chunk."""
    directory = Path(directory)
    meta = read_study(directory)
    if meta.get("status") != "complete":
        raise RunStoreError(f"{directory.name}: the component-value study is {meta.get('status')}; finish it with "
                            f"--resume")
    return pl.from_pandas(load_points(directory)).lazy()


def contents(directory: str | Path) -> StudyContents:
    """What the component-value report reads (``reports.component_value_report.report``): the choice
    values (from the chunks, while the study has not written them), the payouts, the ablation and the
    association table the spec compares with."""
    directory = Path(directory)
    meta = read_study(directory)
    command = resume_command(directory)
    spec = tomllib.loads((directory / STUDY.spec_file).read_text(encoding="utf-8"))
    values = csv_or_empty(directory / "choice_values.csv")
    if values.empty:
        values = values_table_of(directory, spec)
    if values.empty:
        raise RunStoreError(f"{directory}: no decision points sampled yet; run `{command}` to sample them")
    profile = GameProfile.from_json(next(iter(meta["profile"].values())))
    parts = {"spec": spec, "values": values, "payouts": csv_or_empty(directory / "payouts.csv"),
             "association": association_table(spec, directory), "ablation": csv_or_empty(directory / "ablation.csv")}
    done, planned = progress(directory, spec, meta)
    return StudyContents(STUDY.kind, meta, profile, done, planned, command, meta.get("played") or {}, parts)


def played_facts(spec: ComponentValueSpec) -> dict:
    """What the study plays, as the facts every report heads with (``sim.results.played``): game ids,
    rules version, data files, strategies, seed, and the bgsim version and commit of this run."""
    blocks = []
    for n in spec.players:
        setup = _setup(spec, n)
        blocks.append({"game_id": setup.game.id, "rules_version": setup.game.version,
                       "data_files": setup.game.data_files, "strategies": [s.id for s in setup.strategies]})
    meta = {"blocks": blocks, "seeds": {"seed": spec.seed}, "git": git_state(), "versions": package_versions()}
    return played([meta], spec.to_dict())


def values_table_of(directory: Path, spec_doc: dict) -> pd.DataFrame:
    """The choice values of an unfinished study (no choice_values.csv yet), from the chunks on disk."""
    return values_table(directory, component_value_from_dict(spec_doc, directory, source=STUDY.spec_file))


def association_table(spec_doc: dict, directory: Path) -> pd.DataFrame | None:
    """The association table the spec names, or None: ``n_players, id, win_diff`` (the seats that scored
    with a component against the other components of its group) and, where the table has it,
    ``raw_diff`` (against seats in games without it)."""
    path = spec_doc.get("compare", {}).get("association")
    if not path:
        return None
    try:
        table = pd.read_csv(Path(directory) / path)
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise RunStoreError(f"compare.association {path}: cannot read ({exc})") from None
    missing = [c for c in ("n_players", "id", "win_diff") if c not in table.columns]
    if missing:
        raise RunStoreError(f"compare.association {path}: no column {missing[0]!r} (a seat-order report's table "
                            f"of the components, tables/<attribution name>.csv)")
    return table[["n_players", "id", "win_diff", *(["raw_diff"] if "raw_diff" in table.columns else [])]]


def progress(directory: Path, spec_doc: dict, meta: dict) -> tuple[int, int]:
    """(source games and ablation deals played, planned) of a study."""
    sample, players = spec_doc["sample"], spec_doc["game"]["players"]
    planned = (sample["games"] + spec_doc.get("ablation", {}).get("deals", 0)) * len(players)
    done = sum(info["stop"] - int(key.rsplit("-", 1)[1]) for chunks in ("chunks", "ablation_chunks")
               for key, info in meta.get(chunks, {}).items())
    return done, planned
