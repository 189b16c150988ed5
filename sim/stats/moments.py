"""Means and standard deviations from exact sums, for lazy aggregations over many games.

A lazy (streaming) ``std()`` merges partial results in whatever order the batches finish, so its
last bits change from one call to the next. For integer and boolean columns (scores, ranks,
margins) the count, the sum and the sum of squares are exact integers in any order; the mean and the
sample standard deviation computed from them are the correctly rounded values, the same on every
call, whatever the engine or the chunking. Float columns keep polars' own mean and std.

``moment_aggs`` gives the aggregations, ``mean_sd`` reads them back from the aggregated table.
"""

import math
from fractions import Fraction

import numpy as np
import polars as pl

__all__ = ["mean_sd", "moment_aggs"]


def moment_aggs(column: str, dtype: pl.DataType, name: str | None = None) -> list[pl.Expr]:
    """Aggregations of ``column`` (of type ``dtype``) for ``mean_sd(table, name)``: for integer and
    boolean columns the non-null count, the sum and the sum of squares as exact Int128, otherwise
    polars' mean and std. ``name``: prefix of the aggregated columns (default ``column``)."""
    name = name or column
    x = pl.col(column)
    if dtype.is_integer() or dtype == pl.Boolean:
        wide = x.cast(pl.Int128)
        return [x.count().alias(f"{name}|n"), wide.sum().alias(f"{name}|sum"),
                (wide * wide).sum().alias(f"{name}|squares")]
    return [x.mean().cast(pl.Float64).alias(f"{name}|mean"), x.std().cast(pl.Float64).alias(f"{name}|sd")]


def mean_sd(table: pl.DataFrame, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(mean, sample sd), each (G,) float64, of the aggregations ``moment_aggs`` put into ``table``
    (one row per group) under ``name``; NaN where a group has no value (mean) or fewer than two (sd)."""
    if f"{name}|mean" in table.columns:
        return (table[f"{name}|mean"].fill_null(np.nan).to_numpy().astype(np.float64),
                table[f"{name}|sd"].fill_null(np.nan).to_numpy().astype(np.float64))
    rows = zip(table[f"{name}|n"].to_list(), table[f"{name}|sum"].to_list(), table[f"{name}|squares"].to_list(),
               strict=True)
    means, sds = [], []
    for n, total, squares in rows:
        means.append(total / n if n else math.nan)  # int / int: correctly rounded
        # n * squares - total ** 2 is n ** 2 times the biased variance, exact as an integer
        sds.append(math.sqrt(float(Fraction(n * squares - total * total, n * (n - 1)))) if n > 1 else math.nan)
    return np.array(means, dtype=np.float64), np.array(sds, dtype=np.float64)
