"""What a component is worth when a seat chooses it: choice values from paired rollouts.

At a sampled decision point a seat is offered alternatives (the rows of one decision), each
taking some components (a row may take two at once; ``-1`` pads). Every alternative was played to
the end on the same determinisations with the same seat streams (``Game.rollout_outcomes``), so the
rollouts pair up: rollout d of one alternative and rollout d of another differ only by the choice.

Each component on offer is played by its best row. Picking a best row on the same rollouts that
measure it would favour the luckier rows (the maximum of noisy means is biased up, and more so for
a component with more rows), so the rollouts are split: the even ones pick each component's best
row, the odd ones measure it.

A component's value is measured against a stated reference that reads 0 for components that are
alike (identical in distribution), whatever the number of alternatives:

- **against the other components on offer** (two or more on offer at the point): its best row's
  outcome minus the mean of the other offered components' best rows. The best row *without* it (the
  reference before) is the best of several noisy alternatives, chosen where it happened to fit the
  position: it read -2.3 to -2.9 pp for alike components with three alternatives on offer;
- **against the average component** (one component on offer, e.g. an auction item against letting
  it go): its best row minus the best row without it, less the average over the components of
  that difference (``alone`` points), so that going for an item at all is not credited to the item.

Across points, a component's choice value is the mean of its point values, with a 95 % interval
whose variance is clustered by the source game (the points of one game share its history, and the
average component is estimated from the same games), and q-values (Benjamini–Hochberg) over the
components tested.

Pure numpy/pandas: no engine code. Arrays: ``shares`` (K, D) float64 win shares in [0, 1],
``margins`` (K, D) int64 score margins over the best other seat, ``components`` (K, M) int64
(or (K,) for one component per row).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats
from statsmodels.stats.multitest import multipletests

__all__ = ["POINT_COLUMNS", "ChoicePoint", "add_moments", "alone_sums", "alone_targets", "choice_moments",
           "choice_values", "clustered_interval", "clustered_mean", "offered", "paired_difference", "point_values",
           "values_from_moments"]

OTHERS, AVERAGE = "the other components on offer", "the average component"  # the references, in words
MIN_POINTS = 20  # points below which a component gets no interval or test
POINT_COLUMNS = ("component", "game", "win", "margin", "rollouts", "row", "rival", "alone")


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
    """Per component offered at ``point``: its paired difference of win share and of score margin
    against the reference (module docstring), measured on the odd rollouts after the even ones
    picked each component's best row. Columns ``component, game, win, margin, rollouts, row, rival,
    alone``: ``row`` the component's best row, ``rival`` the best row without it (what a seat would
    have played instead; the reference only for a component ``alone`` on offer). Needs at least 2
    rollouts."""
    shares, margins, comps = point.shares, point.margins, point.rows()
    if shares.shape[1] < 2:
        raise ValueError("a choice point needs at least 2 rollouts: one half picks the rows, the other measures")
    pick, measure = shares[:, 0::2], np.arange(1, shares.shape[1], 2)
    components = point.offered()
    out = []
    if len(components) == 1:
        component = int(components[0])
        takes = (comps == component).any(axis=1)
        best, rival = _best_row(np.flatnonzero(takes), pick), _best_row(np.flatnonzero(~takes), pick)
        out.append({"component": component, "game": point.game, "win": paired_difference(shares, best, rival),
                    "margin": paired_difference(margins, best, rival), "rollouts": len(measure), "row": best,
                    "rival": rival, "alone": True})
        return pd.DataFrame(out, columns=list(POINT_COLUMNS))
    best = np.array([_best_row(np.flatnonzero((comps == c).any(axis=1)), pick) for c in components])
    win = shares[best, 1::2].astype(np.float64).mean(axis=1)  # (C,) each component's best row, measured
    margin = margins[best, 1::2].astype(np.float64).mean(axis=1)
    k = len(components)
    for i, component in enumerate(components):
        others = np.arange(k) != i
        rival = _best_row(np.flatnonzero(~(comps == component).any(axis=1)), pick)  # named, not measured against
        out.append({"component": int(component), "game": point.game,
                    "win": float(win[i] - win[others].mean()), "margin": float(margin[i] - margin[others].mean()),
                    "rollouts": len(measure), "row": int(best[i]), "rival": int(rival), "alone": False})
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
    margin (mean and interval), against the reference of the module docstring. A component with
    fewer than ``MIN_POINTS`` points gets no interval."""
    return values_from_moments(choice_moments(points), alone_sums(points))


GAME_SUM_COLUMNS = ("game", "component", "n", "win", "margin", "n_alone", "win_alone", "margin_alone")


def alone_sums(points: pd.DataFrame) -> pd.DataFrame:
    """Per (source game, component) with some point ``alone`` on offer (the average component is
    their reference): the points and the sums of win and margin, of every point and of the alone ones.
    What the centring needs; empty where no component was ever alone on offer. Tables of disjoint
    games are concatenated."""
    if points.empty or "alone" not in points or not points["alone"].any():
        return pd.DataFrame(columns=list(GAME_SUM_COLUMNS))
    alone = points["alone"].astype(bool)
    frame = pd.DataFrame({"game": points["game"], "component": points["component"], "n": 1.0,
                          "win": points["win"], "margin": points["margin"], "n_alone": alone.astype(float),
                          "win_alone": points["win"].where(alone, 0.0),
                          "margin_alone": points["margin"].where(alone, 0.0)})
    return frame.groupby(["game", "component"], sort=True).sum().reset_index()[list(GAME_SUM_COLUMNS)]


def alone_targets(sums: pd.DataFrame) -> dict[int, float]:
    """Per component with alone points in ``alone_sums``: the average alone win value of the *other*
    components (those the average counts): what its own alone value must reach to be even with the
    average component, the payout solver's target."""
    if sums.empty:
        return {}
    per = sums.groupby("component")[["n_alone", "win_alone"]].sum()
    per = per[per["n_alone"] > 0]
    means = per["win_alone"] / per["n_alone"]
    counted = per["n_alone"] >= MIN_POINTS
    if not counted.any():
        counted = per["n_alone"] > 0
    out = {}
    for c in per.index:
        others = means[counted & (per.index != c)]
        out[int(c)] = float(others.mean()) if len(others) else 0.0
    return out


def _centred(sums: pd.DataFrame, outcome: str) -> dict[int, tuple[float, float, float]]:
    """Per component: (value, standard error, weight of the centring) of ``outcome`` against the average
    component, from ``alone_sums`` (its games' sums). value = mean of its points - (its alone points'
    share) x the average over components of their alone mean; the standard error is clustered by
    game, from each game's influence on both terms."""
    wide = {name: sums.pivot_table(index="game", columns="component", values=name, aggfunc="sum", fill_value=0.0)
            for name in ("n", outcome, "n_alone", f"{outcome}_alone")}
    n, total, na, ta = (wide[k].to_numpy(np.float64) for k in ("n", outcome, "n_alone", f"{outcome}_alone"))
    components = wide["n"].columns.to_numpy()
    points, alone_points = n.sum(axis=0), na.sum(axis=0)
    mean = total.sum(axis=0) / points
    averaged = alone_points >= MIN_POINTS  # components whose alone mean enters the average
    if not averaged.any():
        averaged = alone_points > 0
    alone_mean = np.where(alone_points > 0, ta.sum(axis=0) / np.maximum(alone_points, 1), 0.0)
    average = float(alone_mean[averaged].mean())
    weight = alone_points / points  # (C,) the share of each component's points that is centred
    # influence of each game (G, C): on the component's mean, less its share of the average's
    on_mean = (total - n * mean) / points
    on_alone = np.where(averaged, (ta - na * alone_mean) / np.maximum(alone_points, 1), 0.0)
    on_average = on_alone.sum(axis=1, keepdims=True) / averaged.sum()
    influence = on_mean - weight * on_average
    g = len(n)
    se = np.sqrt(g / max(g - 1, 1) * (influence ** 2).sum(axis=0)) if g > 1 else np.full(len(components), np.nan)
    return {int(c): (float(mean[i] - weight[i] * average), float(se[i]), float(weight[i]))
            for i, c in enumerate(components)}


def _moment_mean(m, outcome: str) -> tuple[float, float]:
    """Mean and clustered standard error of one outcome from a component's moments: the game sums of
    the residuals, R_g = S_g - n_g * mean, squared and summed without the points themselves."""
    n, g = m["points"], m["games"]
    mean = m[f"{outcome}_s"] / n
    residual = max(m[f"{outcome}_s2"] - 2 * mean * m[f"{outcome}_sn"] + mean ** 2 * m["n2"], 0.0)
    se = float(np.sqrt(g / (g - 1) * residual) / n) if g > 1 else float("nan")
    return float(mean), se


def values_from_moments(moments: pd.DataFrame, alone: pd.DataFrame | None = None) -> pd.DataFrame:
    """``choice_values`` from ``choice_moments`` (of one or many chunks, ``add_moments``) and, where
    some component was alone on offer, the ``alone_sums`` of the same games (concatenated): those
    values are centred on the average component."""
    centred = {} if alone is None or alone.empty else {o: _centred(alone, o) for o in ("win", "margin")}
    rows = []
    for m in moments.sort_values("component").to_dict(orient="records"):
        component = int(m["component"])
        win, win_se = _moment_mean(m, "win")
        margin, margin_se = _moment_mean(m, "margin")
        if centred and component in centred["win"]:
            win, win_se, _ = centred["win"][component]
            margin, margin_se, _ = centred["margin"][component]
        g = int(m["games"])
        enough = m["points"] >= MIN_POINTS and g > 1 and np.isfinite(win_se)
        t = stats.t.ppf(0.975, max(g - 1, 1))
        p = 2 * stats.t.sf(abs(win / win_se), max(g - 1, 1)) if enough and win_se > 0 else (
            1.0 if enough else np.nan)
        rows.append({"component": component, "points": int(m["points"]), "games": g, "win": win,
                     "win_se": win_se, "win_low": win - t * win_se if enough else np.nan,
                     "win_high": win + t * win_se if enough else np.nan,
                     "margin": margin, "margin_low": margin - t * margin_se if enough else np.nan,
                     "margin_high": margin + t * margin_se if enough else np.nan, "p": p,
                     "reference": AVERAGE if centred and component in centred["win"] else OTHERS})
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    tested = table["p"].notna()
    table["q"] = np.nan
    if tested.any():
        table.loc[tested, "q"] = multipletests(table.loc[tested, "p"], method="fdr_bh")[1]
    return table
    tested = table["p"].notna()
    table["q"] = np.nan
    if tested.any():
        table.loc[tested, "q"] = multipletests(table.loc[tested, "p"], method="fdr_bh")[1]
    return table
