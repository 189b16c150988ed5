"""A balance search on disk, read back: its marker, its trials (``bgsim.load``), its finalists with
their measures in the reports' units, and what its report reads."""

import json
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
from bgsim.experiments.balance import STUDY, UNITS
from bgsim.experiments.studies import resume_command
from bgsim.experiments.study import csv_or_empty
from bgsim.sim.profile import GameProfile
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.results.store import RunStoreError, read_meta


def read_study(directory: str | Path) -> dict:
    return read_meta(Path(directory), STUDY.marker, STUDY.noun)


def read(directory: str | Path) -> pl.LazyFrame:
    """The trials of a finished search (``bgsim.load``): trials.csv, one row per trial with its design
    and measures (the search keeps the games of a trial only as chunks of outcomes)."""
    directory = Path(directory)
    meta = read_study(directory)
    if meta.get("status") != "complete":
        raise RunStoreError(f"{directory.name}: the balance study is {meta.get('status')}; finish it with --resume")
    return pl.from_pandas(csv_or_empty(directory / "trials.csv")).lazy()


def contents(directory: str | Path) -> StudyContents:
    """What the balance report reads (``reports.balance_report.report``): the finalists, the best
    design and the levers' importances."""
    directory = Path(directory)
    meta = read_study(directory)
    spec = tomllib.loads((directory / STUDY.spec_file).read_text(encoding="utf-8"))
    profile = GameProfile.from_json(next(iter(meta["profile"].values())))
    best = directory / "best.json"
    parts = {"spec": spec, "finalists": read_finalists(directory),
             "best": json.loads(best.read_text()) if best.exists() else {},
             "importances": csv_or_empty(directory / "importances.csv")}
    games = meta.get("games", 0)
    return StudyContents(STUDY.kind, meta, profile, games, max(games, spec.get("search", {}).get("budget", games)),
                         resume_command(directory), meta.get("played") or {}, parts)


def read_finalists(directory: str | Path) -> pd.DataFrame:
    """``finalists.csv`` of a study (empty before the confirmation). One written before its columns had
    units (win rates as fractions, a matchup matrix as JSON text in one cell) is converted on reading,
    so that a stored study still renders; a cell that cannot be read is a one-line RunStoreError."""
    path = Path(directory) / "finalists.csv"
    try:
        rows = pd.read_csv(path)
    except (FileNotFoundError, pd.errors.EmptyDataError):
        return pd.DataFrame()
    return _with_units(rows, _matchup_strategies(Path(directory)), path)


def _matchup_strategies(directory: Path) -> dict[str, list[str]]:
    """Each matchup measure's key (``measure_keys``) -> its strategies, from the stored spec."""
    try:
        measures = tomllib.loads((directory / STUDY.spec_file).read_text(encoding="utf-8")).get("measure", [])
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    names = [m.get("name", "") for m in measures]
    keys = [f"{name}:{names[:i].count(name) + 1}" if names.count(name) > 1 else name for i, name in enumerate(names)]
    return {key: list(m.get("strategies", [])) for key, m in zip(keys, measures, strict=True)}


def _with_units(rows: pd.DataFrame, strategies: dict[str, list[str]], path: Path) -> pd.DataFrame:
    """``rows`` with every win-rate column of the old form (``first_seat@4p``: a fraction) in the
    current one (``first_seat_pct@4p``: percent); current columns as they are."""
    out = {}
    for column in rows.columns:
        key, _, at = column.partition("@")
        name = key.split(":")[0]
        if column.startswith("lever:") or not at or name not in UNITS:
            out[column] = rows[column]
            continue
        unit, scale = UNITS[name]
        players, _, suffix = at.partition("_")  # "4p", "low" | "high" | "noise" | "at_target" | "outcome" | ""
        stem = f"{name}_{unit}{key[len(name):]}@{players}"
        if suffix in ("at_target", "outcome"):
            out[f"{stem}_{suffix}"] = rows[column]
        elif name == "matchup":
            out |= _matrix_cells(rows[column], stem, suffix, strategies.get(key, []), scale, f"{path}: {column}")
        else:
            out[f"{stem}{'_' + suffix if suffix else ''}"] = pd.to_numeric(rows[column], errors="coerce") * scale
    return pd.DataFrame(out, index=rows.index)


def _matrix_cells(cells: pd.Series, stem: str, suffix: str, strategies: list[str], scale: float,
                  where: str) -> dict[str, list[float]]:
    """A column of matrices written as JSON text, one numeric column per cell off the diagonal
    (``stem[row vs column]``, then ``_low``/``_high``)."""
    k = len(strategies)
    out = {f"{stem}[{a} vs {b}]{'_' + suffix if suffix else ''}": [] for a in strategies for b in strategies if a != b}
    for text in cells:
        try:
            matrix = np.full((k, k), np.nan) if pd.isna(text) else np.asarray(json.loads(text), dtype=np.float64)
        except (TypeError, ValueError):
            raise RunStoreError(f"{where}: {text!r} is not a matrix of win rates") from None
        if matrix.shape != (k, k):
            raise RunStoreError(f"{where}: a {'x'.join(map(str, matrix.shape))} matrix for the {k} strategies the "
                                f"spec's matchup names")
        for column, (i, j) in zip(out, [(i, j) for i in range(k) for j in range(k) if i != j], strict=True):
            out[column].append(float(matrix[i, j]) * scale)
    return out


