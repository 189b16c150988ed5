"""Charts of the difficulty report on an automa opponent (e.g. a solo game's), one function per chart, each returning
a matplotlib Figure laid out by the rules of ``reports.charts`` (at most the content width, panels
wrapped into rows, legends outside the axes, no text below ``MIN_FONT_PT``). Every win rate is drawn
with its 95 % interval."""

import numpy as np
import pandas as pd
from bgsim.reports.charts import (
    LEGEND_FONT_PT,
    MAX_FIGURE_WIDTH_IN,
    first_column,
    fit_titles,
    legend_below,
    panel_grid,
    population_colours,
)
from bgsim.sim.stats.distribution import percentiles
from matplotlib.figure import Figure

__all__ = ["calibration_chart", "margin_chart", "source_chart", "sweep_chart", "win_rate_chart"]

_LEVEL_STYLE = {"linestyle": ":", "linewidth": 0.9, "color": "grey"}


def _pct_errors(frame: pd.DataFrame, column: str) -> tuple[np.ndarray, np.ndarray]:
    """(rate in %, (2, N) error-bar lengths) of ``column`` and its _low/_high bounds; rounding can put a
    bound a hair past the rate at 0 or 1, so lengths are clipped at 0."""
    rate = 100 * frame[column].to_numpy(dtype=np.float64)
    low = 100 * frame[f"{column}_low"].to_numpy(dtype=np.float64)
    high = 100 * frame[f"{column}_high"].to_numpy(dtype=np.float64)
    return rate, np.vstack([rate - low, high - rate]).clip(min=0)


def win_rate_chart(outcomes: pd.DataFrame, order: list[str], automa: str = "the automa") -> Figure:
    """The human's win rate against the automa (named ``automa``) per rung (Wilson intervals); 50 % as a dashed line."""
    part = outcomes.set_index("rung").loc[order]
    fig = Figure(figsize=(6.4, 1.2 + 0.55 * len(order)), layout="constrained")
    ax = fig.subplots()
    y = np.arange(len(order))[::-1]
    rate, err = _pct_errors(part, "win_rate")
    ax.barh(y, rate, xerr=err, capsize=3, color="tab:blue", alpha=0.85)
    for yy, r, below, above in zip(y, rate, err[0], err[1], strict=True):
        inside = r > 85  # no room right of the bar: the label goes inside it
        ax.text(r - below - 1.5 if inside else r + above + 1.5, yy, f"{r:.1f} %", va="center",
                ha="right" if inside else "left", fontsize=LEGEND_FONT_PT, color="white" if inside else "black")
    ax.axvline(50, color="black", linestyle="--", linewidth=1)
    ax.set_yticks(y, order)
    ax.set_xlim(0, 100)
    ax.set_xlabel(f"human win rate against {automa} (%), 95 % interval")
    ax.set_title(f"How often each rung beats {automa}")
    return fit_titles(fig)


def margin_chart(rows: pd.DataFrame, order: list[str], automa: str = "the automa", unit: str = "points") -> Figure:
    """The score margin (human - automa, in ``unit``) per rung: a histogram each, one panel per rung (wrapped three to a
    row), 0 and the median marked.

    ``rows``: columns ``rung, margin`` and ``count``, how many games ended with that margin
    (``sim.stats.distribution.value_counts``); without ``count``, one row per game.
    """
    fig, axes = panel_grid(len(order), panel_height=2.4)
    for ax, rung in zip(axes, order, strict=True):
        part = rows[rows["rung"] == rung].sort_values("margin", kind="stable")
        margin = part["margin"].to_numpy()
        counts = part["count"].to_numpy() if "count" in part else None
        ax.hist(margin, bins=40, weights=counts, color="tab:blue", alpha=0.8)  # the bins span min..max either way
        ax.axvline(0, color="black", linewidth=1, label=f"0: a draw on {unit}")
        if len(margin):
            median = float(np.median(margin) if counts is None else percentiles(margin, counts, 50))
            ax.axvline(median, color="tab:red", linestyle="--", linewidth=1, label="median")
        ax.set_title(rung)
        ax.set_xlabel(f"human {unit} - {automa}'s {unit}")
    for ax in first_column(axes):
        ax.set_ylabel("games")
    legend_below(fig, axes)
    fig.suptitle(f"{unit} margin per game (right of 0: the human wins)")
    return fit_titles(fig)


def source_chart(sources: pd.DataFrame, order: list[str], automa: str = "the automa",
                 unit: str = "points") -> Figure:
    """The automa's mean score by source per rung, stacked; the legend below the axes.

    ``sources``: columns ``rung, source, mean`` (as ``reports.difficulty.source_table``).
    """
    names = list(dict.fromkeys(sources["source"]))
    fig = Figure(figsize=(7.2, 1.7 + 0.45 * len(order) + 0.2 * np.ceil(len(names) / 4)), layout="constrained")
    ax = fig.subplots()
    y = np.arange(len(order))[::-1]
    left = np.zeros(len(order))
    for name in names:
        part = sources[sources["source"] == name].set_index("rung").reindex(order)
        mean = part["mean"].to_numpy()
        ax.barh(y, mean, left=left, label=name)
        left = left + np.where(mean > 0, mean, 0)
    ax.set_yticks(y, order)
    ax.set_xlabel(f"{automa}'s mean {unit}")
    legend_below(fig, [ax], ncols=min(4, len(names)))
    ax.set_title(f"Where {automa}'s {unit} come from, per rung of the human")
    return fit_titles(fig)


def sweep_chart(sweep: pd.DataFrame, rulebook: dict[str, int], targets: dict[str, float]) -> Figure:
    """Win rate against each knob's value, one panel per knob (wrapped into rows), a line per rung with
    its Wilson band; the rulebook value as a vertical line, the level targets as dotted lines.

    ``sweep``: columns ``knob, rung, value, win_rate, win_rate_low, win_rate_high``; each rung keeps one
    colour in every panel, in the order the rungs first appear.
    """
    knobs = list(dict.fromkeys(sweep["knob"]))
    colours = population_colours(sweep["rung"])
    fig, axes = panel_grid(len(knobs), panel_width=MAX_FIGURE_WIDTH_IN / 2, sharey=True)
    for ax, knob in zip(axes, knobs, strict=True):
        part = sweep[sweep["knob"] == knob]
        for rung, rows in part.groupby("rung", sort=False):
            rows = rows.sort_values("value")
            x = rows["value"].to_numpy()
            ax.plot(x, 100 * rows["win_rate"], "o-", markersize=3, color=colours[str(rung)], label=f"rung: {rung}")
            ax.fill_between(x, 100 * rows["win_rate_low"], 100 * rows["win_rate_high"], color=colours[str(rung)],
                            alpha=0.2)
        ax.axvline(rulebook[knob], color="black", linewidth=0.8, label="rulebook value")
        for target in targets.values():
            ax.axhline(100 * target, **_LEVEL_STYLE)
        ax.set_ylim(0, 100)
        ax.set_title(knob)
        ax.set_xlabel("value")
        ax.tick_params(axis="y", labelleft=True)
    for ax in first_column(axes):
        ax.set_ylabel("human win rate (%), 95 % band")
    legend_below(fig, axes)
    fig.suptitle("How far each difficulty knob moves the win rate (dotted: level targets)")
    return fit_titles(fig)


def calibration_chart(points: pd.DataFrame, levels: pd.DataFrame, order: list[str], knob: str) -> Figure:
    """Per rung (wrapped into rows), zoomed to its levels: the win rate at the knob values the solver
    tried (Wilson intervals), the level targets, and each solved value confirmed on fresh deals.

    ``points``: columns ``rung, value, win_rate, win_rate_low, win_rate_high``; ``levels``: columns
    ``rung, target, value, value_low, value_high`` and optionally ``verify_rate`` with its bounds.
    """
    fig, axes = panel_grid(len(order), panel_width=MAX_FIGURE_WIDTH_IN / 2, sharey=True)
    for ax, rung in zip(axes, order, strict=True):
        rows = points[points["rung"] == rung].sort_values("value")
        rate, err = _pct_errors(rows, "win_rate")
        ax.errorbar(rows["value"], rate, yerr=err, fmt="o", markersize=2.5, capsize=1.5, color="tab:blue",
                    label="tried (same deals)")
        solved = levels[levels["rung"] == rung]
        for target in solved["target"]:
            ax.axhline(100 * target, **_LEVEL_STYLE)
        if "verify_rate" in solved:
            v, verr = _pct_errors(solved, "verify_rate")
            ax.errorbar(solved["value"], v, yerr=verr, fmt="D", markersize=4, capsize=3, color="tab:red",
                        label="solved, fresh deals")
        if not solved.empty:  # the bisection's far ends are off the chart: zoom to the levels
            lo, hi = solved["value_low"].min(), solved["value_high"].max()
            pad = max(8.0, 0.3 * (hi - lo))
            ax.set_xlim(lo - pad, hi + pad)
        ax.set_ylim(0, 100)
        ax.set_title(rung)
        ax.set_xlabel(knob)
        ax.tick_params(axis="y", labelleft=True)
    for ax in first_column(axes):
        ax.set_ylabel("human win rate (%), 95 % interval")
    legend_below(fig, axes)
    fig.suptitle("Calibration: the knob values tried and each level's solution (dotted: targets)")
    return fit_titles(fig)
