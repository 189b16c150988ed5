"""Distributions of integer scores from their value counts: quantiles and box-plot statistics that
equal numpy's and matplotlib's on the raw values, without holding the raw values.

Scores are small integers, so a group of any number of games is summed up by at most a few hundred
(value, count) pairs; ``value_counts`` computes those lazily over the chunks.
"""

import numpy as np
import polars as pl
from bgsim.sim.stats.lazy import collect, lazy

__all__ = ["box_stats", "percentiles", "value_counts"]


def value_counts(rows, by: list[str], column: str) -> pl.DataFrame:
    """One row per group ``by`` and distinct value of ``column``: the value and ``count`` (how many
    rows hold it), sorted by group and value."""
    return collect(lazy(rows).group_by(*by, column).agg(pl.len().alias("count")).sort(*by, column))


def percentiles(values: np.ndarray, counts: np.ndarray, q) -> np.ndarray:
    """numpy's ``percentile(x, q)`` (linear method) of the data ``x`` that holds each of the sorted,
    distinct ``values`` (K,) ``counts`` (K,) int64 times; ``q`` in 0..100, scalar or (Q,)."""
    values = np.asarray(values, dtype=np.float64)
    ends = np.cumsum(counts)  # (K,) the sorted data's index just past each value
    position = np.asarray(q, dtype=np.float64) / 100 * (ends[-1] - 1)
    below = np.floor(position)
    gamma = position - below
    a = values[np.searchsorted(ends, below, side="right")]
    b = values[np.searchsorted(ends, np.minimum(below + 1, ends[-1] - 1), side="right")]
    # numpy's interpolation, step for step, so that the result is the same to the last bit
    diff = b - a
    return np.where(gamma >= 0.5, b - diff * (1 - gamma), a + diff * gamma)


def box_stats(values: np.ndarray, counts: np.ndarray, whis: tuple[float, float] = (5, 95)) -> dict:
    """matplotlib's ``boxplot_stats`` (whiskers at the ``whis`` percentiles, no fliers) of the data
    given as sorted distinct ``values`` (K,) with ``counts`` (K,) int64, for ``Axes.bxp``."""
    values = np.asarray(values)
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    q1, med, q3, low, high = percentiles(values, counts, [25, 50, 75, *whis])
    iqr = q3 - q1
    inside_high = values[values <= high]
    inside_low = values[values >= low]
    whishi = q3 if not len(inside_high) or inside_high.max() < q3 else inside_high.max()
    whislo = q1 if not len(inside_low) or inside_low.min() > q1 else inside_low.min()
    return {"mean": float((values.astype(np.float64) * counts).sum() / n), "med": med, "q1": q1, "q3": q3,
            "iqr": iqr, "cilo": med - 1.57 * iqr / np.sqrt(n), "cihi": med + 1.57 * iqr / np.sqrt(n),
            "whislo": whislo, "whishi": whishi, "fliers": np.array([])}
