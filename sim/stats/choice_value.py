"""What a component is worth when a seat chooses it: choice values from paired rollouts.

At a sampled decision point a seat is offered alternatives (the rows of one decision), each
tied to the component it takes (``-1``: none). Every alternative was played to the end on the same
determinisations with the same seat streams (``Game.rollout_outcomes``), so the rollouts pair up:
rollout d of one alternative and rollout d of another differ only by the choice.

A component's value at that point is the win share of its best row minus that of the best row
that does not take it. Picking both best rows on the same rollouts that measure them would favour
the luckier rows (the maximum of noisy means is biased up, and more so for the side with more
rows), so the rollouts are split: the even ones pick the rows, the odd ones measure the paired
difference. Across points, a component's choice value is the mean of its point values, with a
95 % interval whose variance is clustered by the source game (the points of one game share its
history), and q-values (Benjamini–Hochberg) over the components tested.

Pure numpy/pandas: no engine code. Arrays: ``shares`` (K, D) float64 win shares in [0, 1],
``margins`` (K, D) int64 score margins over the best other seat, ``components`` (K,) int64.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

__all__ = ["ChoicePoint", "choice_values", "point_values"]

MIN_POINTS = 20  # points below which a component gets no interval or test


@dataclass(frozen=True)
class ChoicePoint:
    """One sampled decision: its source game, the component each alternative takes, and every
    alternative's paired rollout outcomes."""

    game: int  # the source game (the cluster of the interval)
    components: np.ndarray  # (K,) int64: the component each alternative takes, -1 none
    shares: np.ndarray  # (K, D) float64: the deciding seat's win share per rollout
    margins: np.ndarray  # (K, D) int64: its score margin over the best other seat per rollout


def _best_row(rows: np.ndarray, pick: np.ndarray) -> int:
    """The row of ``rows`` ((n,) int64 indices) with the highest mean over the columns ``pick`` of
    the outcome array it indexes into (first on ties)."""
    return int(rows[np.argmax(pick[rows].mean(axis=1))])


def point_values(point: ChoicePoint) -> pd.DataFrame:
    """Per component offered at ``point`` (with an alternative without it): the paired difference
    of win share and of score margin between its best row and the best row without it, measured on
    the odd rollouts after the even ones picked both rows. Columns ``component, game, win, margin,
    rollouts``. Needs at least 2 rollouts."""
    shares, margins, comps = point.shares, point.margins, np.asarray(point.components)
    if shares.shape[1] < 2:
        raise ValueError("a choice point needs at least 2 rollouts: one half picks the rows, the other measures")
    pick, measure = shares[:, 0::2], np.arange(1, shares.shape[1], 2)
    out = []
    for component in np.unique(comps[comps >= 0]):
        taking, other = np.flatnonzero(comps == component), np.flatnonzero(comps != component)
        if len(other) == 0:
            continue
        best, rival = _best_row(taking, pick), _best_row(other, pick)
        out.append({"component": int(component), "game": point.game,
                    "win": float((shares[best, measure] - shares[rival, measure]).mean()),
                    "margin": float((margins[best, measure] - margins[rival, measure]).mean()),
                    "rollouts": len(measure)})
    return pd.DataFrame(out, columns=["component", "game", "win", "margin", "rollouts"])


def _clustered_mean(values: np.ndarray, clusters: np.ndarray) -> tuple[float, float, int]:
    """Mean of ``values`` (n,) and its standard error clustered by ``clusters`` (n,); the number of
    clusters."""
    mean = float(values.mean())
    frame = pd.DataFrame({"c": clusters, "r": values - mean})
    sums = frame.groupby("c")["r"].sum().to_numpy()
    g, n = len(sums), len(values)
    se = float(np.sqrt(g / max(g - 1, 1) * (sums ** 2).sum()) / n) if g > 1 else float("nan")
    return mean, se, g


def choice_values(points: pd.DataFrame) -> pd.DataFrame:
    """Per component (``point_values`` rows of many points in): points, source games, the choice
    value in win share (mean, 95 % interval clustered by game, q over components) and in score
    margin (mean and interval). A component with fewer than ``MIN_POINTS`` points gets no interval."""
    rows = []
    for component, part in points.groupby("component", sort=True):
        win, win_se, g = _clustered_mean(part["win"].to_numpy(), part["game"].to_numpy())
        margin, margin_se, _ = _clustered_mean(part["margin"].to_numpy(), part["game"].to_numpy())
        enough = len(part) >= MIN_POINTS and g > 1 and np.isfinite(win_se)
        t = stats.t.ppf(0.975, max(g - 1, 1))
        p = 2 * stats.t.sf(abs(win / win_se), max(g - 1, 1)) if enough and win_se > 0 else (
            1.0 if enough else np.nan)
        rows.append({"component": int(component), "points": len(part), "games": g, "win": win,
                     "win_low": win - t * win_se if enough else np.nan,
                     "win_high": win + t * win_se if enough else np.nan,
                     "margin": margin, "margin_low": margin - t * margin_se if enough else np.nan,
                     "margin_high": margin + t * margin_se if enough else np.nan, "p": p})
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    tested = table["p"].notna()
    table["q"] = np.nan
    if tested.any():
        table.loc[tested, "q"] = multipletests(table.loc[tested, "p"], method="fdr_bh")[1]
    return table
