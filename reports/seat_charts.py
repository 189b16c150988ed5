"""Charts of the seat-order report: one function per chart, each returning a matplotlib Figure laid out
by the rules of ``reports.charts`` (at most the content width, panels wrapped into rows, legends
outside the axes, no text below ``MIN_FONT_PT``).

Every rate is drawn with its 95 % interval; the fair share 1/n is a dashed line. Each chart takes the
report's ``colours`` (``charts.population_colours``), so a population has one colour in all of them;
references (rulebook values, the fair share) are black or grey, never a population's colour.
"""

from collections.abc import Mapping

import numpy as np
import pandas as pd
from bgsim.reports.charts import (
    LEGEND_FONT_PT,
    MAX_FIGURE_WIDTH_IN,
    MAX_PANELS_PER_ROW,
    PANEL_HEIGHT_IN,
    PANEL_WIDTH_IN,
    chart_colours,
    first_column,
    fit_titles,
    legend_below,
    panel_grid,
)
from bgsim.sim.stats.distribution import box_stats
from matplotlib.axes import Axes
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

__all__ = ["category_chart", "compensation_chart", "imbalance_chart", "score_distribution_chart", "seat_win_chart"]

_BAR_IN = 0.085  # the narrowest bar that stays readable
_HATCHES = ("", "////", "....", "xxxx")
_GAP_PANEL_HEIGHT_IN = 1.8  # the gap panels share one narrow scale around 0
_FAIR_STYLE = {"color": "black", "linestyle": "--", "linewidth": 1}


def _panel_width(bars: int) -> float:
    """A panel wide enough for ``bars`` bars of at least ``_BAR_IN`` (plus room for the y axis)."""
    return min(MAX_FIGURE_WIDTH_IN, max(PANEL_WIDTH_IN, 0.9 + _BAR_IN * bars))


def _start_style(colour: str, start: int) -> dict:
    """Bars of one population share its colour; its start vectors are told apart by shade and hatching."""
    return {"color": colour, "alpha": 0.9 if start == 0 else 0.5, "hatch": _HATCHES[start % len(_HATCHES)],
            "edgecolor": "white" if start == 0 else colour, "linewidth": 0.5}


def _shade(colour: str, step: int, steps: int) -> tuple[float, float, float]:
    """``colour`` from a little darker (step 0) to much lighter (the last of ``steps``): seats within a
    population's colour."""
    rgb = np.array(to_rgb(colour))
    mix = -0.2 + 0.8 * step / max(1, steps - 1)  # below 0 towards black, above 0 towards white
    target = np.ones(3) if mix > 0 else np.zeros(3)
    return tuple(rgb + abs(mix) * (target - rgb))


def _rulebook_or_first(starts: pd.Series) -> str:
    return "rulebook" if "rulebook" in set(starts) else starts.iloc[0]


def seat_win_chart(seats: pd.DataFrame, title: str = "Seat win rates",
                   colours: Mapping[str, str] | None = None) -> Figure:
    """Win rate per seat with Wilson intervals: one panel per player count, one bar group per
    population in its colour (``colours``: the report's), the start vectors told apart by shade and
    hatching; the fair share as a dashed line; the legend below.

    ``seats``: columns ``n_players, population, start, seat`` (0-based), ``win_rate, win_rate_low,
    win_rate_high`` (as ``reports.seats.seat_table``).
    """
    counts = sorted(seats["n_players"].unique())
    starts = list(dict.fromkeys(seats["start"]))
    colours = chart_colours(seats["population"], colours)
    pops = list(colours)
    groups = [(p, s) for p in pops for s in starts]
    fig, axes = panel_grid(len(counts), panel_width=_panel_width(len(groups) * max(counts)), sharey=True,
                           extra_height=0.5 + 0.2 * np.ceil(len(groups) / 3))
    for ax, n in zip(axes, counts, strict=True):
        part = seats[seats["n_players"] == n]
        width = 0.8 / max(1, len(groups))
        for i, (pop, start) in enumerate(groups):
            rows = part[(part["population"] == pop) & (part["start"] == start)].sort_values("seat")
            if rows.empty:
                continue
            x = rows["seat"].to_numpy() + 1 + (i - (len(groups) - 1) / 2) * width
            rate = 100 * rows["win_rate"].to_numpy()
            err = np.vstack([rate - 100 * rows["win_rate_low"].to_numpy(),
                             100 * rows["win_rate_high"].to_numpy() - rate]).clip(min=0)
            ax.bar(x, rate, width, yerr=err, capsize=1.5, label=f"{pop}, {start}", error_kw={"linewidth": 0.8},
                   **_start_style(colours[pop], starts.index(start)))
        ax.axhline(100 / n, label="fair share 1/n", **_FAIR_STYLE)
        ax.set_title(f"{n} players")
        ax.set_xlabel("seat (1 = start player)")
        ax.set_xticks(range(1, n + 1))
        ax.tick_params(axis="y", labelleft=True)
    axes[0].set_ylabel("win rate (%), 95 % interval")
    legend_below(fig, axes)
    fig.suptitle(title)
    return fit_titles(fig)


def score_distribution_chart(counts: pd.DataFrame, score: str, title: str | None = None, unit: str = "points",
                             start_label: str = "start vector", colours: Mapping[str, str] | None = None) -> Figure:
    """Box plots of the final score (column ``score``, in ``unit``) per seat (whiskers 5-95 %, the mean
    as a dot), for the rulebook start vector (or the first one present): one panel per player count,
    the populations side by side within each seat, each in its colour (``colours``: the report's).

    ``counts``: how many games ended with each score (``sim.stats.distribution.value_counts``), columns
    ``n_players, population, start, seat`` (0-based), ``score`` and ``count``.
    """
    title = title or f"Final {unit} per seat"
    start = _rulebook_or_first(counts["start"])
    counts = counts[counts["start"] == start]
    n_counts = sorted(int(n) for n in counts["n_players"].unique())
    colours = chart_colours(counts["population"], colours)
    pops = list(colours)
    fig, axes = panel_grid(len(n_counts), panel_width=_panel_width(2 * len(pops) * max(n_counts)),
                           extra_height=0.6 + 0.2 * np.ceil(len(pops) / 4))
    width = 0.8 / max(1, len(pops))
    for ax, n in zip(axes, n_counts, strict=True):
        part = counts[counts["n_players"] == n]
        for i, pop in enumerate(pops):
            mine = part[part["population"] == pop].sort_values(score)
            boxes = {s: box_stats(g[score].to_numpy(), g["count"].to_numpy()) for s, g in mine.groupby("seat")}
            keep = [s for s in range(n) if s in boxes]
            if not keep:
                continue
            x = np.array(keep) + 1 + (i - (len(pops) - 1) / 2) * width
            colour = colours[pop]
            ax.bxp([boxes[s] for s in keep], positions=x, widths=0.85 * width, showfliers=False,
                   patch_artist=True, manage_ticks=False,
                   boxprops={"facecolor": colour, "alpha": 0.45, "edgecolor": colour},
                   medianprops={"color": "black"}, whiskerprops={"color": colour}, capprops={"color": colour})
            ax.plot(x, [boxes[s]["mean"] for s in keep], "o", color=colour, markeredgecolor="black", markersize=4,
                    label=pop)
        ax.set_xticks(range(1, n + 1))
        ax.set_title(f"{n} players")
        ax.set_xlabel("seat")
    axes[0].set_ylabel(f"final {unit}")
    legend_below(fig, axes, title="population (dot: mean)")
    fig.suptitle(f"{title} ({start_label}: {start}; boxes 25-75 %, whiskers 5-95 %)")
    return fit_titles(fig)


def category_chart(categories: pd.DataFrame, title: str | None = None, unit: str = "points",
                   start_label: str = "start vector", colours: Mapping[str, str] | None = None) -> Figure:
    """Mean score (in ``unit``) per category and seat with t intervals, under the rulebook start vector (or
    the first present): one panel per population and player count (a row per population when the player
    counts fit a row), the bars in the population's colour (``colours``: the report's), seats from dark
    (seat 1) to light. Panels of one player count share their scale, so populations compare at a glance.

    ``categories``: columns ``n_players, population, start, seat`` (0-based), ``category, mean,
    mean_low, mean_high`` (as ``sim.stats.seats.category_table``, categories as their labels).
    """
    title = title or f"{unit[:1].upper()}{unit[1:]} by category and seat"
    start = _rulebook_or_first(categories["start"])
    part_all = categories[categories["start"] == start]
    counts = sorted(int(n) for n in part_all["n_players"].unique())
    colours = chart_colours(part_all["population"], colours)
    cells = {key: rows for key, rows in part_all.groupby(["population", "n_players"], sort=False)}
    keys = [(pop, n) for pop in colours for n in counts if (pop, n) in cells]
    cats = list(dict.fromkeys(part_all["category"]))
    seats = max(counts)
    per_row = len(counts) if 1 < len(counts) <= MAX_PANELS_PER_ROW else MAX_PANELS_PER_ROW
    fig, axes = panel_grid(len(keys), panel_width=_panel_width(len(cats) * seats), per_row=per_row,
                           panel_height=PANEL_HEIGHT_IN, extra_height=1.3 + 0.2 * np.ceil((len(colours) + seats) / 5))
    scale: dict[int, Axes] = {}
    for ax, (pop, n) in zip(axes, keys, strict=True):
        if n in scale:
            ax.sharey(scale[n])
        scale.setdefault(n, ax)
        _category_bars(ax, cells[(pop, n)], cats, n, seats, colours[pop])
        ax.set_title(f"{pop}: {n} players")
    _category_ticks(axes, cats)
    for ax in first_column(axes):
        ax.set_ylabel(f"mean {unit}, 95 % interval")
    handles = [Patch(color=colours[pop], label=pop) for pop in colours]
    handles += [Patch(facecolor=_shade("tab:gray", s, seats), edgecolor="white", label=f"seat {s + 1}")
                for s in range(seats)]
    legend_below(fig, axes, handles=handles, title="colour: population; shade: seat (dark = seat 1)")
    fig.suptitle(f"{title} ({start_label} {start})")
    return fit_titles(fig)


def _category_bars(ax: Axes, rows: pd.DataFrame, cats: list, n: int, seats: int, colour: str) -> None:
    """One population's mean per category (x) and seat (bars side by side, shaded by seat)."""
    width = 0.8 / n
    for seat in range(n):
        mine = rows[rows["seat"] == seat].set_index("category").reindex(cats)
        x = np.arange(len(cats)) + (seat - (n - 1) / 2) * width
        mean = mine["mean"].to_numpy()
        err = np.vstack([mean - mine["mean_low"].to_numpy(), mine["mean_high"].to_numpy() - mean]).clip(min=0)
        ax.bar(x, mean, width, yerr=err, capsize=1.5, color=_shade(colour, seat, seats), edgecolor="white",
               linewidth=0.4, error_kw={"linewidth": 0.8})
    ax.axhline(0, color="black", linewidth=0.6)


def _category_ticks(axes: list[Axes], cats: list) -> None:
    """Category names under the lowest panel of each column only: the panels above share them."""
    names = [str(c).replace("_", " ") for c in cats]
    below: set[tuple[int, int]] = set()
    for ax in axes:
        spec = ax.get_subplotspec()
        below |= {(spec.rowspan.start - 1, col) for col in spec.colspan}
    for ax in axes:
        spec = ax.get_subplotspec()
        ax.set_xticks(range(len(cats)), names, rotation=35, ha="right", rotation_mode="anchor")
        if any((spec.rowspan.start, col) in below for col in spec.colspan):
            ax.tick_params(axis="x", labelbottom=False)


def compensation_chart(solutions: pd.DataFrame, title: str | None = None, label: str = "start value",
                       colours: Mapping[str, str] | None = None, tolerance_pp: float | None = None) -> Figure:
    """Top row: rulebook and solved values of the compensation parameter (``label``) per seat, one panel
    per player count, the populations side
    by side, each solution with its bootstrap interval. Below: each seat's win rate minus the fair share
    1/n, per player count and population, under the rulebook vector, under the solved vector on the
    stored games, and confirmed on fresh deals (when present), all with Wilson intervals; panels wrapped
    three to a row on one shared scale, with the tolerance (``tolerance_pp``) shaded around 0. Solutions are
    drawn in their population's colour (``colours``: the report's); the rulebook in black and grey.

    ``solutions``: one row per player count, population and seat (0-based): ``rulebook, solved, low,
    high``, and ``rate_rulebook``, ``rate_solved``, optionally ``rate_confirmed`` with their ``_low`` and
    ``_high`` bounds (as the seat-order study's compensation table).
    """
    title = title or f"Compensating {label}"
    counts = sorted(int(n) for n in solutions["n_players"].unique())
    colours = chart_colours(solutions["population"], colours)
    pops = list(colours)
    keys = [(n, p) for n in counts for p in pops
            if ((solutions["n_players"] == n) & (solutions["population"] == p)).any()]
    per_row = min(3, len(keys))
    top_height = PANEL_HEIGHT_IN + 0.4 + 0.2 * np.ceil((len(pops) + 1) / 3)
    bottom_height = int(np.ceil(len(keys) / per_row)) * _GAP_PANEL_HEIGHT_IN + 0.5
    fig = Figure(figsize=(MAX_FIGURE_WIDTH_IN if max(len(keys), len(counts)) > 1 else 6.4,
                          top_height + bottom_height + 0.4), layout="constrained")
    fig.suptitle(title)
    top, bottom = fig.subfigures(2, 1, height_ratios=[top_height, bottom_height])
    _, value_axes = panel_grid(len(counts), parent=top)
    width = 0.6 / max(1, len(pops))
    for ax, n in zip(value_axes, counts, strict=True):
        rulebook = solutions[solutions["n_players"] == n].drop_duplicates("seat").sort_values("seat")
        ax.plot(rulebook["seat"] + 1, rulebook["rulebook"], "_", color="black", markersize=16, markeredgewidth=2,
                label="rulebook")
        for i, pop in enumerate(pops):
            part = solutions[(solutions["n_players"] == n) & (solutions["population"] == pop)].sort_values("seat")
            if part.empty:
                continue
            shift = (i - (len(pops) - 1) / 2) * width
            solved = part["solved"].to_numpy()
            err = np.vstack([solved - part["low"].to_numpy(), part["high"].to_numpy() - solved]).clip(min=0)
            ax.errorbar(part["seat"].to_numpy() + 1 + shift, solved, yerr=err, fmt="o", color=colours[pop],
                        capsize=3, label=f"solved, {pop} (bootstrap 95 %)")
            _final_marks(ax, part, shift, colours[pop])
        ax.set_xticks(range(1, n + 1))
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("seat")
        ax.set_title(f"{n} players: {label}")
    value_axes[0].set_ylabel(label)
    finals = "final" in solutions and (solutions["final"] != solutions["solved"]).any()
    drawn = {label: handle for ax in value_axes
             for handle, label in zip(*ax.get_legend_handles_labels(), strict=True)}
    legend_below(top, value_axes, handles=None if not finals else [
        *drawn.values(),
        Line2D([], [], marker="D", linestyle="", color="black", label="final vector, held on fresh deals"),
        Line2D([], [], marker="D", linestyle="", color="black", markerfacecolor="white",
               label="final vector, not held")])
    _, gap_axes = panel_grid(len(keys), parent=bottom, sharey=True)
    for ax, (n, pop) in zip(gap_axes, keys, strict=True):
        part = solutions[(solutions["n_players"] == n) & (solutions["population"] == pop)].sort_values("seat")
        if tolerance_pp:
            ax.axhspan(-tolerance_pp, tolerance_pp, color="0.92", zorder=0)
        _gap_points(ax, part, n, colours[pop])
        ax.set_title(f"{n} players, {pop}: win rate", fontsize=LEGEND_FONT_PT + 1)
    for ax in gap_axes:
        ax.set_xlabel("seat" if ax.get_subplotspec().is_last_row() else "")
    for ax in first_column(gap_axes):
        ax.set_ylabel("pp off the fair share")
    shown = [s for s in _GAP_SERIES if s[0] in solutions and solutions[s[0]].notna().any()]
    handles = [Line2D([], [], marker=marker, linestyle="", color="grey" if column == "rate_rulebook" else "black",
                      markerfacecolor="white" if hollow else None, label=name)
               for column, name, _, marker, hollow in shown]
    handles.append(Line2D([], [], label="fair share 1/n", **_FAIR_STYLE))
    if tolerance_pp:
        handles.append(Patch(color="0.92", label=f"tolerance ±{tolerance_pp:g} pp"))
    legend_below(bottom, gap_axes, handles=handles, title="solved: in the population's colour")
    return fit_titles(fig)


_GAP_SERIES = (("rate_rulebook", "rulebook", -0.2, "s", False),
               ("rate_solved", "solved, stored games", 0.0, "o", True),
               ("rate_confirmed", "final vector, fresh deals", 0.2, "D", False))


def _final_marks(ax, part: pd.DataFrame, shift: float, colour: str) -> None:
    """The vector a study settled on after its fresh-deal rounds, where it differs from the solved one:
    a diamond, filled if it held within the tolerance on fresh deals, hollow if not."""
    if "final" not in part or part["final"].isna().any() or (part["final"] == part["solved"]).all():
        return
    held = str(part["outcome"].iloc[0]) == "held" if "outcome" in part else False
    ax.plot(part["seat"].to_numpy() + 1 + shift + 0.12, part["final"].to_numpy(), "D", color=colour,
            markerfacecolor=colour if held else "white", markersize=6, linestyle="")


def _gap_points(ax: Axes, part: pd.DataFrame, n: int, colour: str) -> None:
    """One population's seat win rates minus 1/n: the rulebook in grey, the solved vector in ``colour``
    (hollow on the stored games, filled on fresh deals)."""
    seats = part["seat"].to_numpy() + 1
    for column, name, shift, marker, hollow in _GAP_SERIES:
        if column not in part or part[column].isna().all():
            continue
        gap = 100 * (part[column].to_numpy() - 1 / n)
        err = 100 * np.vstack([part[column].to_numpy() - part[f"{column}_low"].to_numpy(),
                               part[f"{column}_high"].to_numpy() - part[column].to_numpy()]).clip(min=0)
        shade = "grey" if column == "rate_rulebook" else colour
        ax.errorbar(seats + shift, gap, yerr=err, fmt=marker, color=shade, markersize=4, capsize=2, label=name,
                    markerfacecolor="white" if hollow else shade)
    ax.axhline(0, **_FAIR_STYLE)
    ax.set_xticks(seats)
    ax.tick_params(axis="y", labelleft=True)


def imbalance_chart(table: pd.DataFrame, title: str = "Seat imbalance", start_label: str = "start vector",
                    colours: Mapping[str, str] | None = None) -> Figure:
    """Seat imbalance per table (``sim.stats.seats.imbalance_table``: pp², unbiased) with its 95 %
    interval, one panel per player count, a row per (population, start vector) in its population's
    colour (filled: detectably off perfect balance; hollow: cannot be told from it), the noise floor a
    grey tick: what the plain mean squared gap would read at perfect balance."""
    counts = sorted(int(n) for n in table["n_players"].unique())
    colours = chart_colours(table["population"], colours)
    rows = table.groupby("n_players").size().max()
    fig, axes = panel_grid(len(counts), panel_height=0.5 + 0.28 * rows, extra_height=1.0)
    fig.suptitle(title)
    for ax, n in zip(axes, counts, strict=True):
        part = table[table["n_players"] == n].sort_values(["population", "start"]).reset_index(drop=True)
        y = np.arange(len(part))[::-1]
        for yi, r in zip(y, part.itertuples(), strict=True):
            colour = colours[r.population]
            ax.plot([r.imbalance_low_pp2, r.imbalance_high_pp2], [yi, yi], color=colour, lw=1.4)
            ax.plot(r.imbalance_pp2, yi, "o", color=colour, markerfacecolor="white" if r.at_target else colour,
                    markersize=5)
            ax.plot(r.noise_pp2, yi, "|", color="0.5", markersize=8)
        ax.axvline(0, **_FAIR_STYLE)
        ax.set_yticks(y, [f"{r.population}, {r.start}" for r in part.itertuples()], fontsize=LEGEND_FONT_PT)
        ax.set_xlabel("mean squared seat gap, pp²")
        ax.set_title(f"{n} players")
    legend_below(fig, axes, handles=[
        Line2D([], [], marker="o", linestyle="-", color="black", label="off perfect balance (95 % interval)"),
        Line2D([], [], marker="o", linestyle="-", color="black", markerfacecolor="white",
               label="cannot be told from perfect balance"),
        Line2D([], [], marker="|", linestyle="", color="0.5", markersize=8, label="noise floor"),
        Line2D([], [], label="perfect balance", **_FAIR_STYLE)], title=f"rows: population, {start_label}")
    return fit_titles(fig)
