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
from bgsim.sim.stats.intervals import t_bounds, wilson
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import test_proportions_2indep

__all__ = ["QUANTILES", "levels_table", "outcome_table", "source_table"]

QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)


def outcome_table(rows: pl.DataFrame, by: tuple[str, ...] = ("rung",), score: str = "final_vp",
                  automa_score: str = "automa_score", margin: str = "margin",
                  confidence: float = 0.95) -> pd.DataFrame:
    """One row per group ``by``: games, wins, win_rate, tie_rate (Wilson), mean margin, the human's
    (``mean_score``) and the automa's (``mean_automa``) mean score (t), and the margin's quantiles
    ``margin_p10`` .. ``margin_p90``. ``score``, ``automa_score``, ``margin``: the columns of the
    human's score, the automa's and their difference (``profile.score_column``, ``profile.automa``)."""
    names = {"margin": margin, "score": score, "automa": automa_score}
    agg = (rows.group_by(list(by), maintain_order=True)
           .agg(pl.len().alias("games"), pl.col("won").sum().alias("wins"), pl.col("tie").sum().alias("ties"),
                *[pl.col(c).mean().alias(f"mean_{n}") for n, c in names.items()],
                *[pl.col(c).std().alias(f"sd_{n}") for n, c in names.items()],
                *[pl.col(margin).quantile(q, "linear").alias(f"margin_p{round(100 * q)}") for q in QUANTILES])
           .to_pandas())
    games = agg["games"].to_numpy()
    for name, count in (("win_rate", "wins"), ("tie_rate", "ties")):
        agg[name] = agg[count] / games
        agg[f"{name}_low"], agg[f"{name}_high"] = wilson(agg[count].to_numpy(), games, confidence)
    for n in names:
        agg[f"mean_{n}_low"], agg[f"mean_{n}_high"] = t_bounds(agg[f"mean_{n}"], agg[f"sd_{n}"], games, confidence)
    return agg.drop(columns=[f"sd_{n}" for n in names])


def source_table(rows: pl.DataFrame, sources: Mapping[str, str], automa_score: str = "automa_score",
                 by: tuple[str, ...] = ("rung",), confidence: float = 0.95) -> pd.DataFrame:
    """The automa's score by source, one row per group and source: mean with its t interval and the
    source's share of its final score. ``sources``: column -> label (its sources add up to its final
    score in every game)."""
    long = rows.select([*by, automa_score, *sources]).unpivot(
        index=[*by, automa_score], on=list(sources), variable_name="column", value_name="vp")
    agg = (long.group_by([*by, "column"], maintain_order=True)
           .agg(pl.len().alias("games"), pl.col("vp").mean().alias("mean"), pl.col("vp").std().alias("sd"),
                (pl.col("vp").sum() / pl.col(automa_score).sum()).alias("share"))
           .to_pandas())
    agg.insert(len(by), "source", agg["column"].map(sources))
    agg["mean_low"], agg["mean_high"] = t_bounds(agg["mean"], agg["sd"], agg["games"], confidence)
    return agg.drop(columns=["sd"])


def levels_table(levels: list[dict], confidence: float = 0.95, alpha: float = 0.05) -> pd.DataFrame:
    """The solved levels of a study's marker, one row per (rung, level): target, solved knob value
    and its interval (the values whose measured interval holds the target), the win rate measured
    there (Wilson) and ``slope_pp``, the win-rate change per unit of the knob around it.

    With the fresh-deal check: ``verify_rate`` (Wilson), ``off_pp`` (fresh rate - target),
    ``holds`` (the fresh interval contains the target) and ``consistent``: the fresh and the
    calibration games at the same value cannot be told apart (two-proportion score test,
    Benjamini–Hochberg over the levels, q >= alpha). A level can be consistent without holding: an
    integer knob misses a target by up to half its slope, and both measurements carry their error.
    """
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
        frame["holds"] = (frame["verify_rate_low"] <= frame["target"]) & (frame["target"] <= frame["verify_rate_high"])
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
