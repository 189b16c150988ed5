"""A seat-order study on disk, read back: its rows, its runs and its report.

The layout (written by ``experiments.seat_order``)::

    seat_order.json     the marker: cells, solutions with their rounds and confirmation, status, sessions
    seat_order.toml     the resolved spec
    cells/<run-id>/     one run per (player count, population, start vector)
    rounds/<run-id>/    a refinement round of a solved vector on deals of its own
    confirm/<run-id>/   the final vector on deals no round played
    compensation.csv    the solved vectors with their bootstrap ranges (and the final vector's verdict)
    rounds.csv          every vector a round played, the confirmation last
"""

from pathlib import Path

import pandas as pd
import polars as pl
from bgsim.experiments.seat_order import STUDY, load_seat_order, planned_games
from bgsim.experiments.studies import resume_command, study_resume
from bgsim.experiments.study import csv_or_empty
from bgsim.sim.profile import GameProfile
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.results.played import played_by
from bgsim.sim.results.progress import runs_done
from bgsim.sim.results.store import RunStoreError, read_meta, read_profile, scan_chunks, verify_runs
from bgsim.sim.stats.lazy import is_empty

__all__ = ["RUNNER_COLUMNS", "cells_played", "contents", "load_study_rows", "read", "row_columns",
           "study_run_dirs"]

# The runner's columns of a row; the game's own follow from its profile (``profile.records``).
RUNNER_COLUMNS = ("run_id", "n_players", "game_index", "deal", "seating", "seat", "strategy")


def read(directory: str | Path) -> pl.LazyFrame:
    """A finished study's cells and confirmation runs (``bgsim.load``), labelled ``population``,
    ``start`` and ``kind`` ("cell", or "confirm" for the final vector played again on fresh deals)."""
    parts = []
    for kind in ("cell", "confirm"):
        rows = load_study_rows(directory, kind)
        if rows.collect_schema().names():  # no columns: the study played no confirmation runs
            parts.append(rows.with_columns(pl.lit(kind).alias("kind")))
    return pl.concat(parts, how="diagonal_relaxed")


def load_study_rows(directory: str | Path, kind: str = "cell", partial: bool = False) -> pl.LazyFrame:
    """Rows of every cell (``kind="cell"``), refinement round (``"round"``) or confirmation run
    (``"confirm"``) of a finished study, labelled with ``population`` and ``start``, as one LazyFrame
    over the chunks (nothing is read until a query over it is collected; an empty frame if no run has
    chunks yet). Every chunk of the study is checked against its hash first, so one error names every
    damaged chunk.

    ``partial``: also read an unfinished study, from the chunks its runs have so far (runs not yet
    begun are left out); a report of it says how far the study has got."""
    directory = Path(directory)
    meta = read_meta(directory, STUDY.marker, STUDY.noun)
    if meta.get("status") != "complete" and not partial:
        raise RunStoreError(f"{directory.name}: the study is {meta.get('status')}; finish it with --resume")
    fresh = _fresh_entries(meta)
    every = [entry["dir"] for entry in meta["cells"] + fresh if (directory / entry["dir"] / "meta.json").is_file()]
    files = dict(zip(every, verify_runs((directory / d for d in every), study_resume(directory)), strict=True))
    frames = []
    for entry in meta["cells"] if kind == "cell" else [e for e in fresh if e["kind"] == kind]:
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
    """The run directories of a study's cells, refinement rounds and confirmation runs known so far."""
    directory = Path(directory)
    meta = read_meta(directory, STUDY.marker, STUDY.noun)
    return [directory / entry["dir"] for entry in meta["cells"] + _fresh_entries(meta)]


def _fresh_entries(meta: dict) -> list[dict]:
    """The refinement rounds (``kind`` "round") and confirmation runs (``"confirm"``) begun so far, as
    cell entries (each run's vector as its start)."""
    entries = []
    for s in meta.get("solutions", []):
        runs = [("round", r) for r in s.get("rounds", [])] + ([("confirm", s["confirm"])] if s.get("confirm") else [])
        entries += [{"kind": kind, "n_players": s["n_players"], "population": s["population"], "start": r["vector"],
                     "dir": r["dir"]} for kind, r in runs]
    return entries


# --- what the report reads


def contents(directory: str | Path) -> StudyContents:
    """What the seat-order report reads (``reports.seat_report.report``): the cells' rows, and where
    the study solved vectors, the compensation table, the rounds and the confirmation rows."""
    directory = Path(directory)
    meta = read_meta(directory, STUDY.marker, STUDY.noun)
    partial = meta.get("status") != "complete"
    command = resume_command(directory)
    profile = _profile(directory, command)
    rows = load_study_rows(directory, partial=partial)
    if is_empty(rows):
        raise RunStoreError(f"{directory}: no games played yet; run `{command}` to play them")
    spec = load_seat_order(directory / STUDY.spec_file)
    compensation = csv_or_empty(directory / "compensation.csv")
    rounds_path = directory / "rounds.csv"
    parts = {"rows": rows, "compensation": compensation,
             "confirm": load_study_rows(directory, "confirm", partial=partial) if not compensation.empty else None,
             "rounds": pd.read_csv(rounds_path, dtype={"vector": str}) if rounds_path.exists() else pd.DataFrame(),
             "tolerance": spec.tolerance}
    return StudyContents(STUDY.kind, meta, profile, runs_done(study_run_dirs(directory)), planned_games(spec, meta),
                         command, cells_played(directory), parts)


def cells_played(directory: Path) -> dict:
    """What a seat-order study's cells played (``sim.results.played``); its confirmation runs of
    compensating vectors are left out: the report has their section."""
    cells = [d for d in study_run_dirs(directory) if d.parent.name == "cells"]
    return played_by(cells, directory / STUDY.spec_file)


def _profile(directory: Path, command: str) -> GameProfile:
    for run_dir in study_run_dirs(directory):
        if (run_dir / "meta.json").is_file():
            return read_profile(run_dir)
    raise RunStoreError(f"{directory}: no run of the study has begun; run `{command}` to play them")
