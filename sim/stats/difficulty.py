"""How hard an automa opponent is: outcome tables over stored solo games and the solved levels.

Pure functions over the rows of a difficulty study (experiments/difficulty.py: one row per game,
the human's, with the automa's score, the margin (human minus automa) and the automa's score by
source; the columns are named by the game's ``profile.automa``) and over its marker. Win rates carry
Wilson 95 % intervals (statsmodels), means Student t intervals (scipy); quantiles of the margin are
descriptive. A game counts as a win when the human ranks first after the game's tie-break.
"""

from collections.abc import Mapping

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.stats.equivalence import CANNOT_TELL, Tolerance, equivalence
from bgsim.sim.stats.intervals import t_bounds, wilson
from bgsim.sim.stats.lazy import collect, lazy
from bgsim.sim.stats.moments import mean_sd, moment_aggs
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import test_proportions_2indep

__all__ = ["QUANTILES", "count_quantiles", "levels_table", "outcome_table", "source_table"]

QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
_FIRST = "_first_row"  # a group's first row: groups come out in their order of appearance, as maintain_order gives


def outcome_table(rows, by: tuple[str, ...] = ("rung",), score: str = "final_score",
                  automa_score: str = "automa_score", margin: str = "margin",
                  confidence: float = 0.95) -> pd.DataFrame:
    """One row per group ``by`` (in their order of appearance): games, wins, win_rate, tie_rate
    (Wilson), mean margin, the human's (``mean_score``) and the automa's (``mean_automa``) mean score
    (t), and the margin's quantiles ``margin_p10`` .. ``margin_p90`` (polars' linear quantile).
    ``rows``: a LazyFrame over the chunks or a polars or pandas frame, aggregated lazily in one pass
    per group and margin (a few hundred margins, however many games). ``score``, ``automa_score``,
    ``margin``: the columns of the human's score, the automa's and their difference
    (``profile.score_column``, ``profile.automa``)."""
    frame = lazy(rows)
    schema = frame.collect_schema()
    names = {"margin": margin, "score": score, "automa": automa_score}
    fine = _per_margin(frame, schema, by, names)
    agg = _per_group(fine, schema, by, names)
    for n, c in names.items():
        if f"{n}|n" not in agg.columns:  # a float column: its mean and sd in one more pass
            extra = collect(frame.with_row_index(_FIRST).group_by(list(by))
                            .agg(pl.col(_FIRST).min(), *moment_aggs(c, schema[c], n)))
            agg = agg.join(extra.drop(by), on=_FIRST).sort(_FIRST)
    out = agg.select(*by, "games", "wins", "ties").to_pandas()
    means = {n: mean_sd(agg, n) for n in names}
    for n in names:
        out[f"mean_{n}"] = means[n][0]
    for q, values in zip(QUANTILES, _margin_quantiles(fine, agg, by, margin).T, strict=True):
        out[f"margin_p{round(100 * q)}"] = values
    games = out["games"].to_numpy()
    for name, count in (("win_rate", "wins"), ("tie_rate", "ties")):
        out[name] = out[count] / games
        out[f"{name}_low"], out[f"{name}_high"] = wilson(out[count].to_numpy(), games, confidence)
    for n in names:
        out[f"mean_{n}_low"], out[f"mean_{n}_high"] = t_bounds(out[f"mean_{n}"], means[n][1], games, confidence)
    return out


def _exact(dtype: pl.DataType) -> bool:
    """Whether sums of a column of ``dtype`` are exact integers (so that they add up over sub-groups)."""
    return dtype.is_integer() or dtype == pl.Boolean


def _per_margin(frame: pl.LazyFrame, schema: pl.Schema, by: tuple[str, ...], names: dict) -> pl.DataFrame:
    """The one pass over the rows: per group and margin, games, wins, ties, the exact sums of the
    integer score columns and the group's first row."""
    scores = [e for n, c in names.items() if n != "margin" and _exact(schema[c]) for e in moment_aggs(c, schema[c], n)]
    return collect(frame.with_row_index(_FIRST).group_by([*by, names["margin"]])
                   .agg(pl.len().alias("games"), pl.col("won").sum().alias("wins"), pl.col("tie").sum().alias("ties"),
                        *scores, pl.col(_FIRST).min()))


def _per_group(fine: pl.DataFrame, schema: pl.Schema, by: tuple[str, ...], names: dict) -> pl.DataFrame:
    """``_per_margin`` added up per group, in order of appearance; the margin's exact sums from its
    values and their counts (the moments of a float margin are left to ``outcome_table``)."""
    margin, games = names["margin"], pl.col("games")
    sums = [pl.col(f"{n}|{part}").sum() for n, c in names.items() if n != "margin" and _exact(schema[c])
            for part in ("n", "sum", "squares")]
    if _exact(schema[margin]):
        value, weight = pl.col(margin).cast(pl.Int128), games.cast(pl.Int128)
        sums += [games.filter(pl.col(margin).is_not_null()).sum().alias("margin|n"),
                 (value * weight).sum().alias("margin|sum"), (value * value * weight).sum().alias("margin|squares")]
    return (fine.group_by(list(by)).agg(pl.col("games", "wins", "ties").sum().cast(pl.UInt32), *sums,
                                        pl.col(_FIRST).min())
            .sort(_FIRST))


def _margin_quantiles(fine: pl.DataFrame, groups: pl.DataFrame, by: tuple[str, ...], margin: str) -> np.ndarray:
    """(G, len(QUANTILES)) float64: the margin's quantiles per row of ``groups``, from the games per
    group and margin (``fine``)."""
    counts = fine.filter(pl.col(margin).is_not_null()).sort([*by, margin])
    parts = counts.partition_by(list(by), as_dict=True, maintain_order=True) if counts.height else {}
    out = np.full((groups.height, len(QUANTILES)), np.nan)
    for i, key in enumerate(groups.select(*by).rows()):
        part = parts.get(key)
        if part is not None:
            out[i] = count_quantiles(part[margin].to_numpy(), part["games"].to_numpy(), QUANTILES)
    return out


def count_quantiles(values: np.ndarray, counts: np.ndarray, quantiles) -> np.ndarray:
    """polars' ``quantile(q, "linear")`` of the data that holds each of the sorted, distinct ``values``
    (K,) ``counts`` (K,) int64 times (K >= 1), for each q in ``quantiles`` (Q,); (Q,) float64, equal
    to polars' on the raw data to the last bit (its interpolation, step for step)."""
    values = np.asarray(values, dtype=np.float64)
    ends = np.cumsum(counts)  # (K,) the sorted data's index just past each value
    position = (ends[-1] - 1.0) * np.asarray(quantiles, dtype=np.float64)
    below, above = np.floor(position), np.ceil(position)
    lower = values[np.searchsorted(ends, below, side="right")]
    upper = values[np.searchsorted(ends, above, side="right")]
    return np.where(lower == upper, lower, (position - below) * (upper - lower) + lower)


def source_table(rows, sources: Mapping[str, str], automa_score: str = "automa_score",
                 by: tuple[str, ...] = ("rung",), confidence: float = 0.95) -> pd.DataFrame:
    """The automa's score by source, one row per source and group (sources in the order of
    ``sources``, groups in their order of appearance): mean with its t interval and the source's
    share of its final score. ``sources``: column -> label (its sources add up to its final score in
    every game). ``rows``: as ``outcome_table``'s; aggregated wide (one pass, a column of sums per
    source), then reshaped."""
    frame = lazy(rows)
    schema = frame.collect_schema()
    total = pl.col(automa_score).sum()
    wide = collect(frame.with_row_index(_FIRST).group_by(list(by))
                   .agg(pl.len().alias("games"), pl.col(_FIRST).min(),
                        *[e for i, c in enumerate(sources) for e in moment_aggs(c, schema[c], f"s{i}")],
                        *[(pl.col(c).sum() / total).alias(f"s{i}|share") for i, c in enumerate(sources)])
                   .sort(_FIRST))
    parts = []
    for i, (column, label) in enumerate(sources.items()):
        mean, sd = mean_sd(wide, f"s{i}")
        part = wide.select(*by).to_pandas()
        part["source"], part["column"] = label, column
        part["games"] = wide["games"].to_pandas()
        part["mean"], part["sd"] = mean, sd
        part["share"] = wide[f"s{i}|share"].cast(pl.Float64).to_pandas()
        parts.append(part)
    agg = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(
        columns=[*by, "source", "column", "games", "mean", "sd", "share"])
    agg["mean_low"], agg["mean_high"] = t_bounds(agg["mean"], agg["sd"], agg["games"], confidence)
    return agg.drop(columns=["sd"])


def levels_table(levels: list[dict], confidence: float = 0.95, alpha: float = 0.05,
                 tolerance: Tolerance | None = None) -> pd.DataFrame:
    """The solved levels of a study's marker, one row per (rung, level): target, solved knob value
    and its interval (the values whose measured interval holds the target), the win rate measured
    there (Wilson) and ``slope_pp``, the win-rate change per unit of the knob around it.

    With the fresh-deal check: ``verify_rate`` (Wilson), ``off_pp`` (fresh rate - target),
    ``outcome``: the fresh rate is within ``tolerance.rate_pp`` of the target by two one-sided tests
    (held), beyond it for sure (off), or the fresh games cannot tell (``games_to_tell`` then says how
    many would); and ``consistent``: the fresh and the calibration games at the same value cannot be
    told apart (two-proportion score test, Benjamini–Hochberg over the levels, q >= alpha). An
    integer knob misses a target by up to half its slope, so a tolerance below that can be off at
    every setting.
    """
    tolerance = tolerance or Tolerance()
    frame = pd.DataFrame(levels)
    if frame.empty:
        return frame
    frame["rate_low"], frame["rate_high"] = wilson(frame["wins"].to_numpy(), frame["games"].to_numpy(), confidence)
    frame["slope_pp"] = 100 * frame["slope"] if "slope" in frame else np.nan
    if "verify_games" in frame:
        wins = frame["verify_wins"].to_numpy(dtype=np.float64)
        games = frame["verify_games"].to_numpy(dtype=np.float64)
        frame["verify_rate"] = wins / games
        frame["verify_rate_low"], frame["verify_rate_high"] = wilson(wins, games, confidence)
        frame["off_pp"] = 100 * (frame["verify_rate"] - frame["target"])
        rate = frame["verify_rate"].to_numpy()
        verdicts = [equivalence(r - t, np.sqrt(r * (1 - r) / n) if n else np.nan, tolerance.rate_pp / 100, n,
                                tolerance.alpha, k=1) for r, t, n in zip(rate, frame["target"], games, strict=True)]
        frame["outcome"] = [v.outcome for v in verdicts]
        frame["games_to_tell"] = [v.games_to_tell if v.outcome == CANNOT_TELL else np.nan for v in verdicts]
        frame["tolerance_pp"] = tolerance.rate_pp
        p = [_same_rate(int(a), int(n), int(b), int(m)) for a, n, b, m in
             zip(frame["wins"], frame["games"], frame["verify_wins"], frame["verify_games"], strict=True)]
        frame["q"] = multipletests(p, method="fdr_bh")[1]
        frame["consistent"] = frame["q"] >= alpha
    return frame


def _same_rate(wins_a: int, games_a: int, wins_b: int, games_b: int) -> float:
    """p-value of the score test that two win rates are equal (1.0 when both are 0 % or 100 %)."""
    if wins_a + wins_b in (0, games_a + games_b):
        return 1.0
    return float(test_proportions_2indep(wins_a, games_a, wins_b, games_b, method="score").pvalue)
