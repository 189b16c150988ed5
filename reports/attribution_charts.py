"""Charts of the attribution tables (``sim.stats.attribution``), one function each; each returns a
matplotlib Figure built without pyplot (no global state).

The layout follows the report chart rules: at most ``MAX_WIDTH_IN`` wide (the report's content box
at its dpi, so a browser never shrinks it), no text below ``MIN_FONT_PT``, at most three panels in
a row or one panel per player count stacked, legends below the panels, never over the data.

Items are always drawn in catalogue order, which keeps a group together where the catalogue does.
"""

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from bgsim.reports.charts import fit_titles
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

__all__ = ["MAX_WIDTH_IN", "MIN_FONT_PT", "Words", "group_chart", "group_colours", "pair_heatmap", "payoff_forest"]

MAX_WIDTH_IN = 9.6  # 1152 px at the report's 120 dpi: the content box, shown unshrunk
MIN_FONT_PT = 8.0
FONT_PT = 9.0  # tick labels, legends
_PALETTE = ("tab:red", "tab:orange", "tab:green", "tab:blue", "tab:purple", "tab:brown", "tab:pink", "tab:olive",
            "tab:cyan", "tab:gray")


@dataclass(frozen=True)
class Words:
    """What the charts call things, from the game's attribution (``sim.profile.Attribution``)."""

    singular: str = "item"
    plural: str = "items"
    group: str = "group"
    unit: str = "points"  # of a payoff: the score unit, or "<unit>-equivalents" where other amounts are converted
    label_column: str | None = None  # a catalogue column shown beside each id (e.g. what it pays)
    event: str = "use"  # one event of a seat scoring with an item (a card's "trigger", an item's "purchase")
    verb: str = "used"  # the same as a verb: "triggered", "bought"


def group_colours(groups) -> dict[str, str]:
    """One colour per group, in sorted order of the group names."""
    return {g: _PALETTE[i % len(_PALETTE)] for i, g in enumerate(sorted(set(groups)))}
_ROW_IN = 0.17  # one item row of a forest: room for a tick label of FONT_PT
_MEASURES = {
    "win": ("win_diff", "diff_low", "diff_high", 100.0,
            "win rate minus the rest of its {group}\n(percentage points, {ci} interval)"),
    "payoff": ("net_vs_group", "net_vs_group_low", "net_vs_group_high", 1.0,
               "net payoff per {event} minus the rest of its {group}\n({unit}, {ci} interval)"),
}


def _player_counts(table: pd.DataFrame) -> list[int]:
    return sorted(int(n) for n in table["n_players"].dropna().unique()) if len(table) else []


def _items(table: pd.DataFrame, id_column: str = "id", group_column: str = "group",
           item_column: str = "item") -> pd.DataFrame:
    """Distinct items of ``table`` in index order: columns item, id, group."""
    items = table[[item_column, id_column, group_column]].drop_duplicates(item_column)
    items.columns = ["item", "id", "group"]
    return items.sort_values("item").reset_index(drop=True)


def _no_data(ax: Axes) -> None:
    ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes, color="gray", fontsize=FONT_PT)
    ax.set_yticks([])


def _legend_below(fig: Figure, handles: list, ncols: int) -> None:
    """One legend below every panel (constrained layout keeps it off the axes)."""
    if handles:
        fig.legend(handles=handles, loc="outside lower center", ncols=ncols, fontsize=FONT_PT, frameon=False)


def _group_handles(colours: dict[str, str], words: Words) -> list[Line2D]:
    return [Line2D([], [], marker="o", linestyle="", color=c, label=f"{words.group} {d}") for d, c in colours.items()]


def _flag_handles() -> list[Line2D]:
    return [Line2D([], [], marker="o", linestyle="", markerfacecolor="gray", markeredgecolor="black", color="gray",
                   label="flagged (q < 0.05)"),
            Line2D([], [], marker="o", linestyle="", markerfacecolor="white", markeredgecolor="gray",
                   label="not flagged")]


# --- forest


def payoff_forest(spreads: pd.DataFrame, confidence_label: str = "95 %", measure: str = "win",
                  words: Words = Words()) -> Figure:
    """Forest plot of every item against the rest of its group: one row per item (grouped and
    coloured by group, labelled with its payout), one panel per player count side by side (at most
    three). ``measure`` "win": the win-rate difference that flags a item; "payoff": the net payoff
    per trigger against its group. Intervals as bars; flagged items filled, the rest hollow; items
    without a test are left out of their panel.

    ``spreads``: columns ``n_players, item, id, group, payout, flagged`` and the measure's value
    and bounds: ``win_diff, diff_low, diff_high`` or ``net_vs_group, net_vs_group_low/high`` (as
    ``sim.stats.attribution.spreads``).
    """
    column, low, high, scale, label = _MEASURES[measure]
    items = _items(spreads) if len(spreads) else pd.DataFrame(columns=["item", "id", "group"])
    counts = _player_counts(spreads) or [0]
    height = 1.9 + _ROW_IN * max(len(items), 4)
    fig = Figure(figsize=(MAX_WIDTH_IN, height), layout="constrained")
    what = "win rate" if measure == "win" else "net payoff"
    fig.suptitle(f"{words.plural.capitalize()} against the others of their {words.group}: {what}")
    colours = group_colours(items["group"])
    axes = fig.subplots(1, len(counts), sharey=True, squeeze=False)[0]
    y_of = {int(c): len(items) - 1 - i for i, c in enumerate(items["item"])}
    for ax, n in zip(axes, counts, strict=True):
        ax.set_xlabel(label.format(ci=confidence_label, group=words.group, unit=words.unit, event=words.event),
                      fontsize=FONT_PT)
        ax.tick_params(labelsize=FONT_PT)
        ax.grid(axis="x", alpha=0.3)
        if items.empty:
            _no_data(ax)
            continue
        ax.set_title(f"{n} players")
        ax.axvline(0, color="black", linewidth=0.6)
        _forest_points(ax, spreads[spreads["n_players"] == n], y_of, column, low, high, scale, colours)
        _group_lines(ax, items, y_of)
    if not items.empty:
        shown = words.label_column
        texts = spreads.drop_duplicates("item").set_index("item")[shown] if shown in spreads else None
        labels = [f"{row.id}: {texts.get(row.item, '')}" if texts is not None else str(row.id)
                  for row in items.itertuples()]
        axes[0].set_yticks([y_of[int(c)] for c in items["item"]], labels, fontsize=FONT_PT)
        axes[0].set_ylim(-0.8, len(items) - 0.2)
    _legend_below(fig, _group_handles(colours, words) + _flag_handles(), ncols=6)
    return fit_titles(fig)


def _forest_points(ax: Axes, rows: pd.DataFrame, y_of: dict[int, int], column: str, low: str, high: str,
                   scale: float, colours: dict[str, str]) -> None:
    """Points with horizontal interval bars of one player count, coloured by group."""
    rows = rows[rows[column].notna()]
    for group, members in rows.groupby("group"):
        colour = colours.get(group, "tab:gray")
        y = np.array([y_of[int(c)] for c in members["item"]], dtype=np.float64)
        x = members[column].to_numpy(dtype=np.float64) * scale
        lo = members[low].to_numpy(dtype=np.float64) * scale
        hi = members[high].to_numpy(dtype=np.float64) * scale
        err = np.nan_to_num(np.vstack([x - lo, hi - x]).clip(min=0))
        ax.errorbar(x, y, xerr=err, fmt="none", ecolor=colour, elinewidth=1, alpha=0.7)
        flagged = members["flagged"].fillna(False).to_numpy(dtype=bool)
        ax.scatter(x[~flagged], y[~flagged], marker="o", s=18, facecolors="white", edgecolors=colour, zorder=3)
        ax.scatter(x[flagged], y[flagged], marker="o", s=26, color=colour, edgecolors="black", zorder=4)


def _group_lines(ax: Axes, items: pd.DataFrame, y_of: dict[int, int]) -> None:
    """Light lines between groups."""
    groups = items["group"].to_numpy()
    for i in np.flatnonzero(groups[1:] != groups[:-1]):
        ax.axhline(y_of[int(items["item"].iloc[i])] - 0.5, color="gray", linewidth=0.6, linestyle=":")


# --- groups


def group_chart(spreads: pd.DataFrame, words: Words = Words()) -> Figure:
    """What the groups do as a whole: each item's raw win effect (the triggering seats against the same
    seats in games without the item) as a dot in its group's row, the group's mean (weighted by
    triggering seat-games) as a bar; one panel per player count (at most three in a row). When whole
    groups sit on one side of 0, the raw effect is the group's, not the single items'.

    ``spreads``: columns ``n_players, group, raw_diff, raw_q, trigger_seats`` (as
    ``sim.stats.attribution.spreads``).
    """
    counts = _player_counts(spreads) or [0]
    cols = min(3, len(counts))
    rows = math.ceil(len(counts) / cols)
    fig = Figure(figsize=(MAX_WIDTH_IN, 1.0 + 2.3 * rows), layout="constrained")
    fig.suptitle(f"Raw win effect of each {words.singular}, by {words.group} (against games without the "
                 f"{words.singular})")
    axes = fig.subplots(rows, cols, sharey=True, squeeze=False).ravel()
    for ax in axes[len(counts):]:
        ax.remove()
    colours = group_colours(spreads["group"]) if len(spreads) else {}
    groups = sorted(colours)
    rng = np.random.default_rng(0)  # a fixed jitter: the same table draws the same chart
    for ax, n in zip(axes, counts, strict=False):
        ax.tick_params(labelsize=FONT_PT)
        ax.set_xlabel(f"win rate minus the same seats\nwithout the {words.singular} (pp)", fontsize=FONT_PT)
        part = spreads[(spreads["n_players"] == n) & spreads["raw_diff"].notna()] if len(spreads) else spreads
        if part.empty:
            _no_data(ax)
            continue
        ax.set_title(f"{n} players")
        ax.axvline(0, color="black", linewidth=0.6)
        for i, group in enumerate(groups):
            items = part[part["group"] == group]
            if items.empty:
                continue
            y = len(groups) - 1 - i
            x = 100 * items["raw_diff"].to_numpy(dtype=np.float64)
            weight = items["trigger_seats"].to_numpy(dtype=np.float64)
            ax.barh(y, float(weight @ x / weight.sum()), height=0.6, color=colours[group], alpha=0.25)
            ax.scatter(x, y + rng.uniform(-0.22, 0.22, len(x)), s=12, color=colours[group], zorder=3)
        ax.set_yticks(range(len(groups)), [f"{words.group} {d}" for d in reversed(groups)], fontsize=FONT_PT)
        ax.grid(axis="x", alpha=0.3)
    handles = [Line2D([], [], marker="o", linestyle="", color="gray", label=f"one {words.singular}"),
               Line2D([], [], marker="s", linestyle="", color="gray", alpha=0.3, markersize=10,
                      label=f"{words.group} mean (weighted by the seats that {words.verb} them)")]
    _legend_below(fig, handles, ncols=2)
    return fit_titles(fig)


# --- pairs


def pair_heatmap(pairs: pd.DataFrame, value: str = "win_diff", words: Words = Words()) -> Figure:
    """Heat map of the adjacent pairs, items on both axes in index order (by group), one panel per
    player count stacked vertically (a 60 x 60 grid needs the full width to keep its labels
    readable). The default value is the pair's win excess over what its two items predict, in
    percentage points; the colour scale is symmetric and capped at the 95th percentile of the
    tested cells (beyond it the colour saturates, the colour bar says so); cells never seen or
    with too few games (a ``note``) are grey; flagged pairs carry a black dot.

    ``pairs``: columns ``n_players, item_a, item_b, id_a, id_b, group_a, group_b, <value>, flagged,
    note`` (as ``sim.stats.attribution.component_pair_effects``).
    """
    counts = _player_counts(pairs)
    panels = max(len(counts), 1)
    panel_in = MAX_WIDTH_IN - 1.8  # the grid, plus its labels and the colour bar with its label beside it
    fig = Figure(figsize=(MAX_WIDTH_IN, 1.2 + (panel_in + 0.4) * panels), layout="constrained")
    percent = value == "win_diff"
    what = f"win excess over what its two {words.plural} predict" if percent else value
    fig.suptitle(f"Pairs of {words.plural} {words.verb} together: {what}")
    axes = fig.subplots(panels, 1, squeeze=False)[:, 0]
    if not counts:
        axes[0].set_xlabel(words.singular)
        axes[0].set_ylabel(words.singular)
        _no_data(axes[0])
        return fit_titles(fig)
    sides = [pairs[[f"item_{s}", f"id_{s}", f"group_{s}"]].set_axis(["item", "id", "group"], axis=1) for s in "ab"]
    items = _items(pd.concat(sides))
    index = {int(c): i for i, c in enumerate(items["item"])}
    scale = 100.0 if percent else 1.0
    tested = pairs.loc[pairs["note"].fillna("") == "", value].to_numpy(dtype=np.float64) * scale
    tested = np.abs(tested[np.isfinite(tested)])
    limit = float(np.percentile(tested, 95)) if tested.size else 1.0
    limit = limit if limit > 0 else 1.0
    cmap = colormaps["RdBu_r"].with_extremes(bad="lightgray")
    label = f"win rate minus what its two {words.plural} predict (pp)" if percent else value
    flagged_any = False
    for ax, n in zip(axes, counts, strict=True):
        matrix, marks = _pair_matrix(pairs[pairs["n_players"] == n], index, value, scale)
        image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=-limit, vmax=limit, interpolation="nearest")
        if marks:
            flagged_any = True
            ax.scatter(*zip(*marks, strict=True), s=10, color="black", edgecolors="white", linewidths=0.5)
        _pair_axes(ax, items, words)
        ax.set_title(f"{n} players")
        bar = fig.colorbar(image, ax=ax, shrink=0.7, extend="both")
        bar.set_label(label, fontsize=FONT_PT)
        bar.ax.tick_params(labelsize=FONT_PT)
    if flagged_any:
        _legend_below(fig, [Line2D([], [], marker="o", linestyle="", color="black", markeredgecolor="white",
                                   markersize=4, label="flagged pair (q < 0.05)"),
                            Line2D([], [], marker="s", linestyle="", color="lightgray", markersize=8,
                                   label="never seen or too few games")], ncols=2)
    return fit_titles(fig)


def _pair_matrix(rows: pd.DataFrame, index: dict[int, int], value: str,
                 scale: float) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Symmetric (items, items) float64 matrix of ``value`` (NaN: unseen or too few games) and
    the (x, y) cells of flagged pairs."""
    size = len(index)
    matrix = np.full((size, size), math.nan)
    marks = []
    ok = rows["note"].fillna("") == ""
    for row in rows[ok].itertuples():
        a, b = index[int(row.item_a)], index[int(row.item_b)]
        matrix[a, b] = matrix[b, a] = float(getattr(row, value)) * scale
        if bool(row.flagged):
            marks += [(b, a), (a, b)]
    return matrix, marks


def _pair_axes(ax: Axes, items: pd.DataFrame, words: Words) -> None:
    """Card ids on both axes and lines between groups."""
    ticks = np.arange(len(items))
    ax.set_xticks(ticks, items["id"], fontsize=MIN_FONT_PT, rotation=90)
    ax.set_yticks(ticks, items["id"], fontsize=MIN_FONT_PT)
    groups = items["group"].to_numpy()
    for i in np.flatnonzero(groups[1:] != groups[:-1]):
        ax.axhline(i + 0.5, color="black", linewidth=0.6)
        ax.axvline(i + 0.5, color="black", linewidth=0.6)
    ax.set_xlabel(words.singular, fontsize=FONT_PT)
    ax.set_ylabel(words.singular, fontsize=FONT_PT)
