"""Charts of tournament tables, one function each; each returns a matplotlib Figure.

Figures are built without pyplot (no global state, no display needed), so they can be drawn in
worker processes and tests alike; save them with ``figure.savefig(path, format="png")``.
"""

import warnings
from collections.abc import Sequence

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.figure import Figure

__all__ = ["pairwise_heatmap", "ratings_chart"]


def _player_counts(table: pd.DataFrame) -> list[int]:
    return sorted(int(n) for n in table["n_players"].unique())


def ratings_chart(ratings: pd.DataFrame, order: Sequence[str] | None = None) -> Figure:
    """Bradley–Terry ratings with their interval as error bars, one panel per player count.

    ``ratings``: columns ``n_players, strategy, rating, low, high`` (as ``Ratings.table()``).
    """
    counts = _player_counts(ratings)
    height = 1.4 + 0.5 * ratings["strategy"].nunique()
    fig = Figure(figsize=(6.4 * len(counts), height), layout="constrained")
    axes = fig.subplots(1, len(counts), squeeze=False)[0]
    for ax, n in zip(axes, counts, strict=True):
        rows = ratings[ratings["n_players"] == n]
        if order is not None:
            rows = rows.set_index("strategy").loc[[s for s in order if s in set(rows["strategy"])]].reset_index()
        y = np.arange(len(rows))[::-1]
        errors = np.vstack([rows["rating"] - rows["low"], rows["high"] - rows["rating"]]).clip(min=0)
        ax.errorbar(rows["rating"], y, xerr=errors, fmt="o", color="tab:blue", ecolor="tab:gray", capsize=4)
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_yticks(y, rows["strategy"])
        ax.set_xlabel("rating (Elo points, 95 % bootstrap interval)")
        ax.set_title(f"{n} players")
        ax.grid(axis="x", alpha=0.3)
    return fig


def pairwise_heatmap(pairwise: pd.DataFrame, order: Sequence[str] | None = None) -> Figure:
    """Share of games in which the row strategy finished ahead of the column strategy, one
    heatmap per player count; blank cells never met.

    ``pairwise``: columns ``n_players, a, b, share`` (as ``ratings.pairwise``).
    """
    counts = _player_counts(pairwise)
    names = list(order) if order is not None else sorted(set(pairwise["a"]) | set(pairwise["b"]))
    longest = max((len(s) for s in names), default=1)
    size = 1.6 + 0.9 * len(names) + 0.07 * longest
    fig = Figure(figsize=(size * len(counts) + 1.5, size + 0.5), layout="constrained")
    fig.suptitle("share of games in which the row strategy finished ahead of the column strategy")
    axes = fig.subplots(1, len(counts), squeeze=False)[0]
    for ax, n in zip(axes, counts, strict=True):
        rows = pairwise[pairwise["n_players"] == n]
        present = [s for s in names if s in set(rows["a"])]
        matrix = rows.pivot(index="a", columns="b", values="share").reindex(index=present, columns=present)
        with warnings.catch_warnings():  # seaborn 0.13 calls a colormap method matplotlib 3.11 deprecates
            warnings.simplefilter("ignore", PendingDeprecationWarning)
            sns.heatmap(matrix.astype(float), ax=ax, vmin=0, vmax=1, center=0.5, cmap="vlag", annot=True,
                        fmt=".0%", square=True, linewidths=0.5, cbar_kws={"label": "share ahead"})
        ax.set_xlabel("against")
        ax.set_ylabel("strategy")
        ax.tick_params(axis="y", labelrotation=0)
        ax.tick_params(axis="x", labelrotation=30)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
        ax.set_title(f"{n} players")
    return fig
