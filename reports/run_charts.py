"""Charts of the report of one run, one function each, returning a matplotlib Figure.

Sized for the report page by the rules of ``reports.charts``: at most ``MAX_FIGURE_WIDTH_IN`` wide at the
report's 120 dpi (so a 1280 px browser window shows them unshrunk), text no smaller than 8 pt, legends
outside the data, titles wrapped to fit.
"""

import numpy as np
import pandas as pd
from bgsim.reports.charts import MAX_FIGURE_WIDTH_IN, fit_titles
from matplotlib.figure import Figure

__all__ = ["category_chart", "strategy_win_chart"]

_PANELS_PER_ROW = 3


def strategy_win_chart(table: pd.DataFrame) -> Figure:
    """Win rate of every strategy with its Wilson 95 % interval, one panel per player count; the fair
    share 1/n as a dashed line. ``table``: rows of ``strategy_stats.strategy_table``."""
    counts = sorted(int(n) for n in table["n_players"].unique())
    names = sorted(table["strategy"].unique(), key=str)
    panel_height = 0.9 + 0.42 * len(names)
    fig, axes = _grid(len(counts), panel_height)
    y = np.arange(len(names))
    for k, (ax, n) in enumerate(zip(axes, counts, strict=False)):
        part = table[table["n_players"] == n].set_index("strategy").reindex(names)
        rate = 100 * part["win_rate"].to_numpy()
        err = np.vstack([rate - 100 * part["win_rate_low"].to_numpy(), 100 * part["win_rate_high"].to_numpy() - rate])
        err = np.clip(err, 0, None)  # a bound can sit a rounding error past the rate at 0 % or 100 %
        ax.barh(y, rate, xerr=err, capsize=3, color="tab:blue", alpha=0.85, height=0.6)
        ax.axvline(100 / n, color="black", linestyle="--", linewidth=1)
        ax.set_xlim(0, 100)
        ax.set_xticks([0, 25, 50, 75, 100])
        ax.set_title(f"{n} players (fair share {100 / n:.0f} %)", fontsize=10)
        ax.set_xlabel("win rate (%), 95 % interval", fontsize=9)
        ax.tick_params(labelsize=9)
        for yi, value in zip(y, rate, strict=True):
            if value == value:  # a strategy absent at this player count leaves a gap
                ax.text(min(value, 100) + 2 if value < 75 else value - 2, yi, f"{value:.1f} %", va="center",
                        ha="left" if value < 75 else "right", fontsize=9, color="black" if value < 75 else "white")
        ax.set_yticks(y, names if k % _PANELS_PER_ROW == 0 else [""] * len(names))
        ax.invert_yaxis()
    return fit_titles(fig)


def category_chart(categories: pd.DataFrame, unit: str = "points") -> Figure:
    """Mean score (in ``unit``) per score category, stacked per strategy, one panel per player count: where each
    strategy's points come from. Negative categories (penalties) stack to the left of 0.
    ``categories``: long rows with n_players, strategy, category, mean."""
    counts = sorted(int(n) for n in categories["n_players"].unique())
    names = sorted(categories["strategy"].unique(), key=str)
    kinds = list(dict.fromkeys(categories["category"]))
    fig, axes = _grid(len(counts), 0.9 + 0.42 * len(names), legend_rows=1 + len(kinds) // 6)
    colours = dict(zip(kinds, _palette(len(kinds)), strict=True))
    y = np.arange(len(names))
    for k, (ax, n) in enumerate(zip(axes, counts, strict=False)):
        part = categories[categories["n_players"] == n]
        right, left = np.zeros(len(names)), np.zeros(len(names))
        for kind in kinds:
            values = part[part["category"] == kind].set_index("strategy")["mean"].reindex(names).fillna(0).to_numpy()
            base = np.where(values >= 0, right, left)
            ax.barh(y, values, left=base, height=0.6, color=colours[kind], label=kind if k == 0 else None)
            right, left = right + np.maximum(values, 0), left + np.minimum(values, 0)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_title(f"{n} players", fontsize=10)
        ax.set_xlabel(f"mean {unit}", fontsize=9)
        ax.tick_params(labelsize=9)
        ax.set_yticks(y, names if k % _PANELS_PER_ROW == 0 else [""] * len(names))
        ax.invert_yaxis()
    fig.legend(loc="outside lower center", ncols=min(6, len(kinds)), fontsize=9, frameon=False)
    return fit_titles(fig)


def _grid(panels: int, panel_height: float, legend_rows: int = 0) -> tuple[Figure, list]:
    """A figure of ``panels`` axes, at most three per row, no wider than the report page."""
    cols = min(_PANELS_PER_ROW, panels)
    rows = -(-panels // cols)
    fig = Figure(figsize=(min(MAX_FIGURE_WIDTH_IN, 3.3 * cols + 1.2), 0.4 + panel_height * rows + 0.3 * legend_rows),
                 layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False).ravel().tolist()
    for ax in axes[panels:]:
        ax.set_visible(False)
    return fig, axes[:panels]


def _palette(count: int) -> list:
    from matplotlib import colormaps

    cmap = colormaps["tab10"]
    return [cmap(i % 10) for i in range(count)]
