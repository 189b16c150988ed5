"""``bgsim.load``: the rows of a run, or of a finished study, as one polars LazyFrame.

A study directory is told by its marker file (``experiments.studies``); its rows come through the
study's own ``read``, labelled with what names each run in it:

- seat-order study: ``population``, ``start`` (the start vector) and ``kind`` ("cell", or "confirm"
  for the solved vector played again on fresh deals); ``n_players`` is a column of every row;
- robustness study: the rows of each of its seat-order studies as above, and ``variant``
  ("baseline" or the variant's name);
- difficulty study: ``kind`` (base, sweep, calibrate, verify), ``rung``, ``knob``, ``value`` and
  ``level``; one row per game, the human's;
- component-value study: one row per (decision point, component on offer), with its outcomes;
- balance search: one row per trial (its design, the rung it reached and its objective);
- tournament: ``pairing`` (its strategies joined by " vs "), ``strategy`` as listed in the spec.

What it returns is a ``Loaded`` frame: a LazyFrame that prints as a short summary (kind, runs, rows,
columns) instead of its query plan; every query on it is an ordinary LazyFrame. An unfinished study,
like a damaged chunk of any of its runs, is a one-line RunStoreError.
"""

from pathlib import Path

import polars as pl
from bgsim.sim.results.store import RunStoreError
from bgsim.sim.results.store import load as load_run

__all__ = ["Loaded", "load"]


class Loaded(pl.LazyFrame):
    """The rows ``bgsim.load`` returns: a polars LazyFrame over the chunks, labelled with what the
    directory holds (``kind``: "run" or the study's kind) and how many runs (``runs``) it reads.
    Printed, it is a short summary; a query on it (``filter``, ``select``, ...) is a plain LazyFrame."""

    kind: str = "run"
    directory: Path | None = None

    @classmethod
    def of(cls, frame: pl.LazyFrame, kind: str, directory: Path) -> "Loaded":
        loaded = pl.LazyFrame.__new__(cls)
        loaded._ldf = frame._ldf  # the same query, not a copy of the rows
        loaded.kind, loaded.directory = kind, directory
        return loaded

    @classmethod
    def _from_pyldf(cls, ldf) -> pl.LazyFrame:
        # a query on a Loaded frame is an ordinary LazyFrame: the summary describes only the rows as loaded
        return pl.LazyFrame._from_pyldf(ldf)

    def summary(self) -> str:
        """Kind, runs, rows and columns, in a few lines (counting the rows reads only the chunks' footers)."""
        names = self.collect_schema().names()
        rows = self.select(pl.len()).collect().item() if names else 0
        labels = [c for c in ("kind", "population", "start", "variant", "rung", "level", "pairing") if c in names]
        runs = self.select(pl.col("run_id").n_unique()).collect().item() if "run_id" in names and rows else None
        head = f"bgsim.load: {self.kind} {self.directory.name if self.directory else ''}".rstrip()
        lines = [head, f"  rows     {rows:,}" + (f" from {runs:,} runs" if runs is not None else "")]
        if labels:
            lines.append(f"  labels   {', '.join(labels)}")
        shown = ", ".join(names[:12]) + (f", ... ({len(names)} in all)" if len(names) > 12 else "")
        lines.append(f"  columns  {shown}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()

    __str__ = __repr__

    def _repr_html_(self) -> str:
        return f"<pre>{self.summary()}</pre>"


def load(directory: str | Path) -> Loaded:
    """Every stored row of the run or finished study in ``directory`` as one LazyFrame over its
    Parquet chunks, each chunk checked against its hash first; a study's rows labelled per run."""
    directory = Path(directory)
    if (directory / "meta.json").is_file():  # a run: read without importing the studies
        return Loaded.of(load_run(directory, _study_of(directory)), "run", directory)
    from bgsim.experiments.studies import STUDIES, study_at

    study = study_at(directory)
    if study is not None:
        return Loaded.of(study.part("read")(directory), study.kind, directory)
    if not directory.is_dir():
        raise RunStoreError(f"{directory} does not exist")
    *others, last = ["meta.json", *(s.marker for s in STUDIES)]
    raise RunStoreError(f"{directory} is not a run or study directory (no {', '.join(others)} or {last})")


def _study_of(run_dir: Path):
    """The study a run belongs to (its directory and resume command), for the command a damaged chunk
    names; None for a run of its own (its parent's parent holds no study, so the studies stay unread)."""
    if not any(p.suffix == ".json" for p in (run_dir.parent.parent.glob("*.json"))):
        return None
    from bgsim.experiments.studies import study_resume

    return study_resume(run_dir)

