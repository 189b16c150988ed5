"""``bgsim.load``: the rows of a run, or of every run of a finished study, as one polars LazyFrame.

A study directory is told by its marker file; its rows come through the study's own loader, labelled
with what names each run in it:

- seat-order study: ``population``, ``start`` (the start vector) and ``kind`` ("cell", or "confirm"
  for the solved vector played again on fresh deals); ``n_players`` is a column of every row;
- robustness study: the rows of each of its seat-order studies as above, and ``variant``
  ("baseline" or the variant's name);
- difficulty study: ``kind`` (base, sweep, calibrate, verify), ``rung``, ``knob``, ``value`` and
  ``level``; one row per game, the human's;
- tournament: ``pairing`` (its strategies joined by " vs "), ``strategy`` as listed in the spec.

An unfinished study, like a damaged chunk of any of its runs, is a one-line RunStoreError.
"""

from pathlib import Path

import polars as pl
from bgsim.sim.results.store import RunStoreError, read_meta
from bgsim.sim.results.store import load as load_run

__all__ = ["load", "robustness_rows", "seat_order_rows"]


def load(directory: str | Path) -> pl.LazyFrame:
    """Every stored row of the run or finished study in ``directory`` as one LazyFrame over its
    Parquet chunks, each chunk checked against its hash first; a study's rows labelled per run."""
    directory = Path(directory)
    if (directory / "meta.json").is_file():  # a run: read without importing the studies
        return load_run(directory)
    loaders = _study_loaders()
    for marker, rows in loaders.items():
        if (directory / marker).is_file():
            return rows(directory)
    if not directory.is_dir():
        raise RunStoreError(f"{directory} does not exist")
    *others, last = ["meta.json", *loaders]
    raise RunStoreError(f"{directory} is not a run or study directory (no {', '.join(others)} or {last})")


def _study_loaders() -> dict:
    """Study marker file -> the rows of such a study. Imported on use: the study modules play games,
    which a plain run's reader does without."""
    from bgsim.experiments import difficulty, robustness, seat_order, tournament

    return {seat_order.MARKER: seat_order_rows, robustness.MARKER: robustness_rows,
            difficulty.MARKER: _difficulty_rows, tournament.MARKER: tournament.load_rows}


def seat_order_rows(directory: Path) -> pl.LazyFrame:
    """A finished seat-order study's cells and confirmation runs, told apart by ``kind``."""
    from bgsim.experiments.seat_order import load_study_rows

    parts = []
    for kind in ("cell", "confirm"):
        rows = load_study_rows(directory, kind)
        if rows.collect_schema().names():  # no columns: the study played no confirmation runs
            parts.append(rows.with_columns(pl.lit(kind).alias("kind")))
    return pl.concat(parts, how="diagonal_relaxed")


def robustness_rows(directory: Path) -> pl.LazyFrame:
    """Every seat-order study of a finished robustness study, each row labelled with its ``variant``."""
    from bgsim.experiments.robustness import MARKER

    meta = read_meta(directory, MARKER, "robustness")
    if meta.get("status") != "complete":
        raise RunStoreError(f"{directory.name}: the robustness study is {meta.get('status')}; finish it with "
                            f"--resume")
    return pl.concat([seat_order_rows(directory / study["dir"]).with_columns(pl.lit(study["variant"]).alias("variant"))
                      for study in meta["studies"]], how="diagonal_relaxed")


def _difficulty_rows(directory: Path) -> pl.LazyFrame:
    from bgsim.experiments.difficulty import load_rows, read_study

    read_study(directory)  # a one-line error unless the study is finished
    return load_rows(directory, None)
