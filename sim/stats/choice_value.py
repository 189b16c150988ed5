"""What a component is worth when a seat chooses it: choice values from paired rollouts.

At a sampled decision point a seat is offered alternatives (the rows of one decision), each
taking some components (a row may take two at once; ``-1`` pads). Every alternative was played to
the end on the same determinisations with the same seat streams (``Game.rollout_outcomes``), so the
rollouts pair up:
rollout d of one alternative and rollout d of another differ only by the choice.

A component's value at that point is the win share of its best row minus that of the best row
that does not take it. Picking both best rows on the same rollouts that measure them would favour
the luckier rows (the maximum of noisy means is biased up, and more so for the side with more
rows), so the rollouts are split: the even ones pick the rows, the odd ones measure the paired
difference. Across points, a component's choice value is the mean of its point values, with a
95 % interval whose variance is clustered by the source game (the points of one game share its
history), and q-values (Benjamini–Hochberg) over the components tested.

Pure numpy/pandas: no engine code. Arrays: ``shares`` (K, D) float64 win shares in [0, 1],
``margins`` (K, D) int64 score margins over the best other seat, ``components`` (K, M) int64
(or (K,) for one component per row).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

__all__ = ["POINT_COLUMNS", "ChoicePoint", "choice_values", "clustered_interval", "clustered_mean", "offered",
           "paired_difference", "point_values", "add_moments", "choice_moments", "values_from_moments"]

MIN_POINTS = 20  # points below which a component gets no interval or test
POINT_COLUMNS = ("component", "game", "win", "margin", "rollouts", "row", "rival")


@dataclass(frozen=True)
class ChoicePoint:
    """One sampled decision: its source game, the component each alternative takes, and every
    alternative's paired rollout outcomes."""

    def offered(self) -> np.ndarray:
        return offered(self.components)

    def rows(self) -> np.ndarray:
        return _as_rows(self.components)

    game: int  # the source game (the cluster of the interval)
    components: np.ndarray  # (K, M) or (K,) int64: the components each alternative takes, -1 padding
    shares: np.ndarray  # (K, D) float64: the deciding seat's win share per rollout
    margins: np.ndarray  # (K, D) int64: its score margin over the best other seat per rollout


def offered(components: np.ndarray) -> np.ndarray:
    """The components on offer at a decision whose rows take ``components`` ((K, M) or (K,) int64,
    -1 padding), ascending: taken by some rows and not by others."""
    comps = _as_rows(components)
    present = np.unique(comps[comps >= 0])
    return np.array([c for c in present if not (comps == c).any(axis=1).all()], dtype=np.int64)


def _as_rows(components: np.ndarray) -> np.ndarray:
    """``components`` as (K, M) int64."""
    comps = np.asarray(components, dtype=np.int64)
    return comps[:, None] if comps.ndim == 1 else comps


def _best_row(rows: np.ndarray, pick: np.ndarray) -> int:
    """The row of ``rows`` ((n,) int64 indices) with the highest mean over the columns ``pick`` of
    the outcome array it indexes into (first on ties)."""
    return int(rows[np.argmax(pick[rows].mean(axis=1))])


def point_values(point: ChoicePoint) -> pd.DataFrame:
    """Per component offered at ``point`` (with an alternative without it): the paired difference
    of win share and of score margin between its best row and the best row without it, measured on
    the odd rollouts after the even ones picked both rows. Columns ``component, game, win, margin,
    rollouts, row, rival`` (the two rows compared). Needs at least 2 rollouts."""
    shares, margins, comps = point.shares, point.margins, point.rows()
    if shares.shape[1] < 2:
        raise ValueError("a choice point needs at least 2 rollouts: one half picks the rows, the other measures")
    pick, measure = shares[:, 0::2], np.arange(1, shares.shape[1], 2)
    out = []
    for component in point.offered():
        takes = (comps == component).any(axis=1)
        best, rival = _best_row(np.flatnonzero(takes), pick), _best_row(np.flatnonzero(~takes), pick)
        out.append({"component": int(component), "game": point.game,
                    "win": paired_difference(shares, best, rival), "margin": paired_difference(margins, best, rival),
                    "rollouts": len(measure), "row": best, "rival": rival})
    return pd.DataFrame(out, columns=list(POINT_COLUMNS))


def paired_difference(outcomes: np.ndarray, row: int, rival: int) -> float:
    """Mean over the odd rollouts (the measuring half) of ``outcomes[row] - outcomes[rival]``
    (``outcomes`` (K, D) float64 or int64)."""
    return float((outcomes[row, 1::2] - outcomes[rival, 1::2]).astype(np.float64).mean())


def clustered_mean(values: np.ndarray, clusters: np.ndarray) -> tuple[float, float, int]:
    """Mean of ``values`` (n,) and its standard error clustered by ``clusters`` (n,); the number of
    clusters."""
    mean = float(values.mean())
    frame = pd.DataFrame({"c": clusters, "r": values - mean})
    sums = frame.groupby("c")["r"].sum().to_numpy()
    g, n = len(sums), len(values)
    se = float(np.sqrt(g / max(g - 1, 1) * (sums ** 2).sum()) / n) if g > 1 else float("nan")
    return mean, se, g


def clustered_interval(values: np.ndarray, clusters: np.ndarray) -> tuple[float, float, float]:
    """Mean of ``values`` (n,) float64 and its 95 % interval, standard error clustered by ``clusters``
    (n,) (t with clusters - 1 degrees of freedom); NaN bounds with fewer than 2 clusters."""
    mean, se, g = clustered_mean(np.asarray(values, dtype=np.float64), np.asarray(clusters))
    if g < 2 or not np.isfinite(se):
        return mean, float("nan"), float("nan")
    t = stats.t.ppf(0.975, g - 1)
    return mean, mean - t * se, mean + t * se


MOMENT_COLUMNS = ("points", "games", "n2", "win_s", "win_s2", "win_sn", "margin_s", "margin_s2", "margin_sn")


def choice_moments(points: pd.DataFrame) -> pd.DataFrame:
    """What ``choice_values`` needs of ``point_values`` rows, per component, as sums that add up over
    disjoint sets of source games (a study's chunks), so values are computed in bounded memory:
    points, games, the sum of squared points per game (``n2``), and per outcome (win, margin) the sum
    ``_s``, the sum over games of the squared game sum ``_s2`` and of game sum times points ``_sn``."""
    if points.empty:
        return pd.DataFrame(columns=["component", *MOMENT_COLUMNS])
    per_game = points.groupby(["component", "game"]).agg(n=("win", "size"), win=("win", "sum"),
                                                         margin=("margin", "sum")).reset_index()
    for outcome in ("win", "margin"):
        per_game[f"{outcome}_s2"] = per_game[outcome] ** 2
        per_game[f"{outcome}_sn"] = per_game[outcome] * per_game["n"]
    per_game["n2"] = per_game["n"] ** 2
    return per_game.groupby("component").agg(
        points=("n", "sum"), games=("game", "size"), n2=("n2", "sum"), win_s=("win", "sum"),
        win_s2=("win_s2", "sum"), win_sn=("win_sn", "sum"), margin_s=("margin", "sum"),
        margin_s2=("margin_s2", "sum"), margin_sn=("margin_sn", "sum")).reset_index()


def add_moments(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    """The moments of two disjoint sets of source games together."""
    both = pd.concat([a, b], ignore_index=True)
    return both.groupby("component")[list(MOMENT_COLUMNS)].sum().reset_index() if len(both) else both


def choice_values(points: pd.DataFrame) -> pd.DataFrame:
    """Per component (``point_values`` rows of many points in): points, source games, the choice
    value in win share (mean, 95 % interval clustered by game, q over components) and in score
    margin (mean and interval). A component with fewer than ``MIN_POINTS`` points gets no interval."""
    return values_from_moments(choice_moments(points))


def _moment_mean(m, outcome: str) -> tuple[float, float]:
    """Mean and clustered standard error of one outcome from a component's moments: the game sums of
    the residuals, R_g = S_g - n_g * mean, squared and summed without the points themselves."""
    n, g = m["points"], m["games"]
    mean = m[f"{outcome}_s"] / n
    residual = max(m[f"{outcome}_s2"] - 2 * mean * m[f"{outcome}_sn"] + mean ** 2 * m["n2"], 0.0)
    se = float(np.sqrt(g / (g - 1) * residual) / n) if g > 1 else float("nan")
    return float(mean), se


def values_from_moments(moments: pd.DataFrame) -> pd.DataFrame:
    """``choice_values`` from ``choice_moments`` (of one or many chunks, ``add_moments``)."""
    rows = []
    for m in moments.sort_values("component").to_dict(orient="records"):
        win, win_se = _moment_mean(m, "win")
        margin, margin_se = _moment_mean(m, "margin")
        g = int(m["games"])
        enough = m["points"] >= MIN_POINTS and g > 1 and np.isfinite(win_se)
        t = stats.t.ppf(0.975, max(g - 1, 1))
        p = 2 * stats.t.sf(abs(win / win_se), max(g - 1, 1)) if enough and win_se > 0 else (
            1.0 if enough else np.nan)
        rows.append({"component": int(m["component"]), "points": int(m["points"]), "games": g, "win": win,
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
