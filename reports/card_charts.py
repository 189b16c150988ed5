"""Charts of the scoring-card tables (``reports.cards``), one function each; each returns a
matplotlib Figure built without pyplot (no global state).

The layout follows the report chart rules: at most ``MAX_WIDTH_IN`` wide (the report's content box
at its dpi, so a browser never shrinks it), no text below ``MIN_FONT_PT``, at most three panels in
a row or one panel per player count stacked, legends below the panels, never over the data.

Cards are always drawn in index order, which groups them by deck A–D.
"""

import math

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

__all__ = ["DECK_COLOURS", "MAX_WIDTH_IN", "MIN_FONT_PT", "card_deck_chart", "card_pair_heatmap",
           "card_payoff_forest"]

MAX_WIDTH_IN = 9.6  # 1152 px at the report's 120 dpi: the content box, shown unshrunk
MIN_FONT_PT = 8.0
FONT_PT = 9.0  # tick labels, legends
DECK_COLOURS = {"A": "tab:red", "B": "tab:orange", "C": "tab:green", "D": "tab:blue"}
_ROW_IN = 0.17  # one card row of a forest: room for a tick label of FONT_PT
_MEASURES = {
    "win": ("win_diff", "diff_low", "diff_high", 100.0,
            "win rate minus the rest of its deck\n(percentage points, {ci} interval)"),
    "payoff": ("net_vs_deck", "net_vs_deck_low", "net_vs_deck_high", 1.0,
               "net payoff per trigger minus the rest of its deck\n(VP-equivalents, {ci} interval)"),
}


def _player_counts(table: pd.DataFrame) -> list[int]:
    return sorted(int(n) for n in table["n_players"].dropna().unique()) if len(table) else []


def _cards(table: pd.DataFrame, id_column: str = "id", deck_column: str = "deck",
           card_column: str = "card") -> pd.DataFrame:
    """Distinct cards of ``table`` in index order: columns card, id, deck."""
    cards = table[[card_column, id_column, deck_column]].drop_duplicates(card_column)
    cards.columns = ["card", "id", "deck"]
    return cards.sort_values("card").reset_index(drop=True)


def _no_data(ax: Axes) -> None:
    ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes, color="gray", fontsize=FONT_PT)
    ax.set_yticks([])


def _legend_below(fig: Figure, handles: list, ncols: int) -> None:
    """One legend below every panel (constrained layout keeps it off the axes)."""
    if handles:
        fig.legend(handles=handles, loc="outside lower center", ncols=ncols, fontsize=FONT_PT, frameon=False)


def _deck_handles() -> list[Line2D]:
    return [Line2D([], [], marker="o", linestyle="", color=c, label=f"deck {d}") for d, c in DECK_COLOURS.items()]


def _flag_handles() -> list[Line2D]:
    return [Line2D([], [], marker="o", linestyle="", markerfacecolor="gray", markeredgecolor="black", color="gray",
                   label="flagged (q < 0.05)"),
            Line2D([], [], marker="o", linestyle="", markerfacecolor="white", markeredgecolor="gray",
                   label="not flagged")]


# --- forest


def card_payoff_forest(spreads: pd.DataFrame, confidence_label: str = "95 %", measure: str = "win") -> Figure:
    """Forest plot of every card against the rest of its deck: one row per card (grouped and
    coloured by deck, labelled with its payout), one panel per player count side by side (at most
    three). ``measure`` "win": the win-rate difference that flags a card; "payoff": the net payoff
    per trigger against its deck. Intervals as bars; flagged cards filled, the rest hollow; cards
    without a test are left out of their panel.

    ``spreads``: columns ``n_players, card, id, deck, payout, flagged`` and the measure's value
    and bounds: ``win_diff, diff_low, diff_high`` or ``net_vs_deck, net_vs_deck_low/high`` (as
    ``reports.cards.card_spreads``).
    """
    column, low, high, scale, label = _MEASURES[measure]
    cards = _cards(spreads) if len(spreads) else pd.DataFrame(columns=["card", "id", "deck"])
    counts = _player_counts(spreads) or [0]
    height = 1.9 + _ROW_IN * max(len(cards), 4)
    fig = Figure(figsize=(MAX_WIDTH_IN, height), layout="constrained")
    what = "win rate" if measure == "win" else "net payoff"
    fig.suptitle(f"Scoring cards against the other cards of their deck: {what}")
    axes = fig.subplots(1, len(counts), sharey=True, squeeze=False)[0]
    y_of = {int(c): len(cards) - 1 - i for i, c in enumerate(cards["card"])}
    for ax, n in zip(axes, counts, strict=True):
        ax.set_xlabel(label.format(ci=confidence_label), fontsize=FONT_PT)
        ax.tick_params(labelsize=FONT_PT)
        ax.grid(axis="x", alpha=0.3)
        if cards.empty:
            _no_data(ax)
            continue
        ax.set_title(f"{n} players")
        ax.axvline(0, color="black", linewidth=0.6)
        _forest_points(ax, spreads[spreads["n_players"] == n], y_of, column, low, high, scale)
        _deck_lines(ax, cards, y_of)
    if not cards.empty:
        payouts = spreads.drop_duplicates("card").set_index("card")["payout"] if "payout" in spreads else {}
        labels = [f"{row.id}: {payouts.get(row.card, '')}" for row in cards.itertuples()]
        axes[0].set_yticks([y_of[int(c)] for c in cards["card"]], labels, fontsize=FONT_PT)
        axes[0].set_ylim(-0.8, len(cards) - 0.2)
    _legend_below(fig, _deck_handles() + _flag_handles(), ncols=6)
    return fig


def _forest_points(ax: Axes, rows: pd.DataFrame, y_of: dict[int, int], column: str, low: str, high: str,
                   scale: float) -> None:
    """Points with horizontal interval bars of one player count, coloured by deck."""
    rows = rows[rows[column].notna()]
    for deck, group in rows.groupby("deck"):
        colour = DECK_COLOURS.get(deck, "tab:gray")
        y = np.array([y_of[int(c)] for c in group["card"]], dtype=np.float64)
        x = group[column].to_numpy(dtype=np.float64) * scale
        lo = group[low].to_numpy(dtype=np.float64) * scale
        hi = group[high].to_numpy(dtype=np.float64) * scale
        err = np.nan_to_num(np.vstack([x - lo, hi - x]).clip(min=0))
        ax.errorbar(x, y, xerr=err, fmt="none", ecolor=colour, elinewidth=1, alpha=0.7)
        flagged = group["flagged"].fillna(False).to_numpy(dtype=bool)
        ax.scatter(x[~flagged], y[~flagged], marker="o", s=18, facecolors="white", edgecolors=colour, zorder=3)
        ax.scatter(x[flagged], y[flagged], marker="o", s=26, color=colour, edgecolors="black", zorder=4)


def _deck_lines(ax: Axes, cards: pd.DataFrame, y_of: dict[int, int]) -> None:
    """Light lines between decks."""
    decks = cards["deck"].to_numpy()
    for i in np.flatnonzero(decks[1:] != decks[:-1]):
        ax.axhline(y_of[int(cards["card"].iloc[i])] - 0.5, color="gray", linewidth=0.6, linestyle=":")


# --- decks


def card_deck_chart(spreads: pd.DataFrame) -> Figure:
    """What the decks do as a whole: each card's raw win effect (the triggering seats against the same
    seats in games without the card) as a dot in its deck's row, the deck's mean (weighted by
    triggering seat-games) as a bar; one panel per player count (at most three in a row). When whole
    decks sit on one side of 0, the raw effect is the deck's, not the single cards'.

    ``spreads``: columns ``n_players, deck, raw_diff, raw_q, trigger_seats`` (as
    ``reports.cards.card_spreads``).
    """
    counts = _player_counts(spreads) or [0]
    cols = min(3, len(counts))
    rows = math.ceil(len(counts) / cols)
    fig = Figure(figsize=(MAX_WIDTH_IN, 1.0 + 2.3 * rows), layout="constrained")
    fig.suptitle("Raw win effect of each card, by deck (against games without the card)")
    axes = fig.subplots(rows, cols, sharey=True, squeeze=False).ravel()
    for ax in axes[len(counts):]:
        ax.remove()
    decks = sorted(DECK_COLOURS)
    rng = np.random.default_rng(0)  # a fixed jitter: the same table draws the same chart
    for ax, n in zip(axes, counts, strict=False):
        ax.tick_params(labelsize=FONT_PT)
        ax.set_xlabel("win rate minus the same seats\nwithout the card (pp)", fontsize=FONT_PT)
        part = spreads[(spreads["n_players"] == n) & spreads["raw_diff"].notna()] if len(spreads) else spreads
        if part.empty:
            _no_data(ax)
            continue
        ax.set_title(f"{n} players")
        ax.axvline(0, color="black", linewidth=0.6)
        for i, deck in enumerate(decks):
            cards = part[part["deck"] == deck]
            if cards.empty:
                continue
            y = len(decks) - 1 - i
            x = 100 * cards["raw_diff"].to_numpy(dtype=np.float64)
            weight = cards["trigger_seats"].to_numpy(dtype=np.float64)
            ax.barh(y, float(weight @ x / weight.sum()), height=0.6, color=DECK_COLOURS[deck], alpha=0.25)
            ax.scatter(x, y + rng.uniform(-0.22, 0.22, len(x)), s=12, color=DECK_COLOURS[deck], zorder=3)
        ax.set_yticks(range(len(decks)), [f"deck {d}" for d in reversed(decks)], fontsize=FONT_PT)
        ax.grid(axis="x", alpha=0.3)
    handles = [Line2D([], [], marker="o", linestyle="", color="gray", label="one card"),
               Line2D([], [], marker="s", linestyle="", color="gray", alpha=0.3, markersize=10,
                      label="deck mean (weighted by triggering seats)")]
    _legend_below(fig, handles, ncols=2)
    return fig


# --- pairs


def card_pair_heatmap(pairs: pd.DataFrame, value: str = "win_diff") -> Figure:
    """Heat map of the adjacent pairs, cards on both axes in index order (by deck), one panel per
    player count stacked vertically (a 60 x 60 grid needs the full width to keep its labels
    readable). The default value is the pair's win excess over what its two cards predict, in
    percentage points; the colour scale is symmetric and capped at the 95th percentile of the
    tested cells (beyond it the colour saturates, the colour bar says so); cells never seen or
    with too few games (a ``note``) are grey; flagged pairs carry a black dot.

    ``pairs``: columns ``n_players, card_a, card_b, id_a, id_b, deck_a, deck_b, <value>, flagged,
    note`` (as ``reports.cards.pair_effects``).
    """
    counts = _player_counts(pairs)
    panels = max(len(counts), 1)
    panel_in = MAX_WIDTH_IN - 1.4  # the grid, plus its labels and the colour bar beside it
    fig = Figure(figsize=(MAX_WIDTH_IN, 1.2 + (panel_in + 0.4) * panels), layout="constrained")
    percent = value == "win_diff"
    what = "win excess over what its two cards predict" if percent else value
    fig.suptitle(f"Adjacent scoring-card pairs triggered together: {what}")
    axes = fig.subplots(panels, 1, squeeze=False)[:, 0]
    if not counts:
        axes[0].set_xlabel("card")
        axes[0].set_ylabel("card")
        _no_data(axes[0])
        return fig
    sides = [pairs[[f"card_{s}", f"id_{s}", f"deck_{s}"]].set_axis(["card", "id", "deck"], axis=1) for s in "ab"]
    cards = _cards(pd.concat(sides))
    index = {int(c): i for i, c in enumerate(cards["card"])}
    scale = 100.0 if percent else 1.0
    tested = pairs.loc[pairs["note"].fillna("") == "", value].to_numpy(dtype=np.float64) * scale
    tested = np.abs(tested[np.isfinite(tested)])
    limit = float(np.percentile(tested, 95)) if tested.size else 1.0
    limit = limit if limit > 0 else 1.0
    cmap = colormaps["RdBu_r"].with_extremes(bad="lightgray")
    label = "win rate minus what its two cards predict (pp)" if percent else value
    flagged_any = False
    for ax, n in zip(axes, counts, strict=True):
        matrix, marks = _pair_matrix(pairs[pairs["n_players"] == n], index, value, scale)
        image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=-limit, vmax=limit, interpolation="nearest")
        if marks:
            flagged_any = True
            ax.scatter(*zip(*marks, strict=True), s=10, color="black", edgecolors="white", linewidths=0.5)
        _pair_axes(ax, cards)
        ax.set_title(f"{n} players")
        bar = fig.colorbar(image, ax=ax, shrink=0.7, extend="both")
        bar.set_label(label, fontsize=FONT_PT)
        bar.ax.tick_params(labelsize=FONT_PT)
    if flagged_any:
        _legend_below(fig, [Line2D([], [], marker="o", linestyle="", color="black", markeredgecolor="white",
                                   markersize=4, label="flagged pair (q < 0.05)"),
                            Line2D([], [], marker="s", linestyle="", color="lightgray", markersize=8,
                                   label="never seen or too few games")], ncols=2)
    return fig


def _pair_matrix(rows: pd.DataFrame, index: dict[int, int], value: str,
                 scale: float) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Symmetric (cards, cards) float64 matrix of ``value`` (NaN: unseen or too few games) and
    the (x, y) cells of flagged pairs."""
    size = len(index)
    matrix = np.full((size, size), math.nan)
    marks = []
    ok = rows["note"].fillna("") == ""
    for row in rows[ok].itertuples():
        a, b = index[int(row.card_a)], index[int(row.card_b)]
        matrix[a, b] = matrix[b, a] = float(getattr(row, value)) * scale
        if bool(row.flagged):
            marks += [(b, a), (a, b)]
    return matrix, marks


def _pair_axes(ax: Axes, cards: pd.DataFrame) -> None:
    """Card ids on both axes and lines between decks."""
    ticks = np.arange(len(cards))
    ax.set_xticks(ticks, cards["id"], fontsize=MIN_FONT_PT, rotation=90)
    ax.set_yticks(ticks, cards["id"], fontsize=MIN_FONT_PT)
    decks = cards["deck"].to_numpy()
    for i in np.flatnonzero(decks[1:] != decks[:-1]):
        ax.axhline(i + 0.5, color="black", linewidth=0.6)
        ax.axvline(i + 0.5, color="black", linewidth=0.6)
    ax.set_xlabel("card", fontsize=FONT_PT)
    ax.set_ylabel("card", fontsize=FONT_PT)
