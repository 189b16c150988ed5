"""Charts of the scoring-card tables (``reports.cards``), one function each; each returns a
matplotlib Figure built without pyplot (no global state), like ``reports.charts``.

Cards are always drawn in index order, which groups them by deck A–D, so a deck that pays too
much shows as a block.
"""

import math

import numpy as np
import pandas as pd
from matplotlib import colormaps
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

__all__ = ["card_pair_heatmap", "card_payoff_forest"]

DECK_COLOURS = {"A": "tab:red", "B": "tab:orange", "C": "tab:green", "D": "tab:blue"}
_MARKERS = ("o", "s", "^", "D")
_PANELS = (
    ("net_payoff", "net_low", "net_high", "net payoff per trigger (VP-equivalents, 95 % t interval)", None),
    ("win_diff", "diff_low", "diff_high",
     "win rate of the triggering seats minus their seat baseline (percentage points, 95 % interval)", 100.0),
)


def _player_counts(table: pd.DataFrame) -> list[int]:
    return sorted(int(n) for n in table["n_players"].dropna().unique()) if len(table) else []


def _cards(table: pd.DataFrame, id_column: str = "id", deck_column: str = "deck",
           card_column: str = "card") -> pd.DataFrame:
    """Distinct cards of ``table`` in index order: columns card, id, deck."""
    cards = table[[card_column, id_column, deck_column]].drop_duplicates(card_column)
    cards.columns = ["card", "id", "deck"]
    return cards.sort_values("card").reset_index(drop=True)


def _no_data(ax: Axes) -> None:
    ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes, color="gray")
    ax.set_yticks([])


def card_payoff_forest(spreads: pd.DataFrame, confidence_label: str = "95 %") -> Figure:
    """Forest plot, one row per card grouped and coloured by deck: left, the mean net payoff per
    trigger; right, how much more often the triggering seats win than their seat baseline. Both
    with their intervals; flagged cards (q < alpha) are filled, the rest hollow; several player
    counts are offset within a card's row with their own markers.

    ``spreads``: columns ``n_players, card, id, deck, payout, net_payoff, net_low, net_high,
    win_diff, diff_low, diff_high, flagged`` (as ``reports.cards.card_spreads``).
    """
    fig = Figure(figsize=(10, 14), layout="constrained")
    fig.suptitle("Scoring cards: what they pay and how often the seats that trigger them win")
    axes = fig.subplots(1, 2, sharey=True)
    cards = _cards(spreads) if len(spreads) else pd.DataFrame(columns=["card", "id", "deck"])
    y_of = {int(c): len(cards) - 1 - i for i, c in enumerate(cards["card"])}
    counts = _player_counts(spreads)
    for ax, (column, low, high, label, scale) in zip(axes, _PANELS, strict=True):
        ax.set_xlabel(label.replace("95 %", confidence_label), wrap=True)
        ax.axvline(0, color="black", linewidth=0.6)
        ax.grid(axis="x", alpha=0.3)
        if cards.empty:
            _no_data(ax)
            continue
        for j, n in enumerate(counts):
            rows = spreads[spreads["n_players"] == n]
            offset = 0.25 * (j - (len(counts) - 1) / 2) if len(counts) > 1 else 0.0
            _forest_points(ax, rows, y_of, offset, _MARKERS[j % len(_MARKERS)], column, low, high, scale or 1.0)
        _deck_bands(ax, cards, y_of)
    axes[0].set_ylabel("scoring card (id: payout per fulfilment)")
    if not cards.empty:
        payouts = spreads.drop_duplicates("card").set_index("card")["payout"] if "payout" in spreads else {}
        labels = [f"{row.id}: {payouts.get(row.card, '')}" for row in cards.itertuples()]
        axes[0].set_yticks([y_of[int(c)] for c in cards["card"]], labels, fontsize=7)
        axes[0].set_ylim(-0.8, len(cards) - 0.2)
    fig.legend(handles=_legend(counts), loc="outside lower center", ncol=4, fontsize=8, frameon=False)
    return fig


def _forest_points(ax: Axes, rows: pd.DataFrame, y_of: dict[int, int], offset: float, marker: str, column: str,
                   low: str, high: str, scale: float) -> None:
    """Points with horizontal interval bars of one player count, coloured by deck."""
    rows = rows[rows[column].notna()]
    for deck, group in rows.groupby("deck"):
        colour = DECK_COLOURS.get(deck, "tab:gray")
        y = np.array([y_of[int(c)] for c in group["card"]], dtype=np.float64) + offset
        x = group[column].to_numpy(dtype=np.float64) * scale
        lo = group[low].to_numpy(dtype=np.float64) * scale
        hi = group[high].to_numpy(dtype=np.float64) * scale
        err = np.nan_to_num(np.vstack([x - lo, hi - x]).clip(min=0))
        ax.errorbar(x, y, xerr=err, fmt="none", ecolor=colour, elinewidth=1, alpha=0.7)
        flagged = group["flagged"].fillna(False).to_numpy(dtype=bool)
        ax.scatter(x[~flagged], y[~flagged], marker=marker, s=22, facecolors="white", edgecolors=colour, zorder=3)
        ax.scatter(x[flagged], y[flagged], marker=marker, s=34, color=colour, edgecolors="black", zorder=4)


def _deck_bands(ax: Axes, cards: pd.DataFrame, y_of: dict[int, int]) -> None:
    """Light lines between decks."""
    decks = cards["deck"].to_numpy()
    for i in np.flatnonzero(decks[1:] != decks[:-1]):
        ax.axhline(y_of[int(cards["card"].iloc[i])] - 0.5, color="gray", linewidth=0.5, linestyle=":")


def _legend(counts: list[int]) -> list[Line2D]:
    handles = [Line2D([], [], marker="o", linestyle="", color=c, label=f"deck {d}") for d, c in DECK_COLOURS.items()]
    handles.append(Line2D([], [], marker="o", linestyle="", markerfacecolor="gray", markeredgecolor="black",
                          color="gray", label="flagged (q < alpha)"))
    handles.append(Line2D([], [], marker="o", linestyle="", markerfacecolor="white", markeredgecolor="gray",
                          label="not flagged"))
    if len(counts) > 1:
        handles += [Line2D([], [], marker=_MARKERS[j % len(_MARKERS)], linestyle="", color="black",
                           markerfacecolor="white", label=f"{n} players") for j, n in enumerate(counts)]
    return handles


def card_pair_heatmap(pairs: pd.DataFrame, value: str = "win_diff") -> Figure:
    """Heat map of the adjacent-pair effect, cards on both axes in index order (by deck), one panel
    per player count. The default value is the pair's win-rate difference against the seat
    baseline in percentage points; cells with too few games (a ``note``) or never seen are grey;
    flagged pairs carry a black dot.

    ``pairs``: columns ``n_players, card_a, card_b, id_a, id_b, deck_a, deck_b, <value>, flagged,
    note`` (as ``reports.cards.pair_effects``).
    """
    counts = _player_counts(pairs)
    panels = max(len(counts), 1)
    fig = Figure(figsize=(9.5 * panels + 1.0, 9.5), layout="constrained")
    what = "win-rate difference vs seat baseline" if value == "win_diff" else value
    fig.suptitle(f"Adjacent scoring-card pairs triggered together: {what}")
    axes = fig.subplots(1, panels, squeeze=False)[0]
    if not counts:
        axes[0].set_xlabel("card")
        axes[0].set_ylabel("card")
        _no_data(axes[0])
        return fig
    sides = [pairs[[f"card_{s}", f"id_{s}", f"deck_{s}"]].set_axis(["card", "id", "deck"], axis=1) for s in "ab"]
    cards = _cards(pd.concat(sides))
    index = {int(c): i for i, c in enumerate(cards["card"])}
    scale = 100.0 if value == "win_diff" else 1.0
    finite = pairs.loc[pairs["note"].fillna("") == "", value].to_numpy(dtype=np.float64) * scale
    finite = finite[np.isfinite(finite)]
    limit = float(np.abs(finite).max()) if finite.size else 1.0
    cmap = colormaps["RdBu_r"].with_extremes(bad="lightgray")
    image = None
    for ax, n in zip(axes, counts, strict=True):
        rows = pairs[pairs["n_players"] == n]
        matrix, marks = _pair_matrix(rows, index, value, scale)
        image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=-limit, vmax=limit, interpolation="nearest")
        if marks:
            ax.scatter(*zip(*marks, strict=True), s=6, color="black", label="flagged")
        _pair_axes(ax, cards)
        ax.set_title(f"{n} players")
    label = "win rate minus seat baseline (percentage points)" if value == "win_diff" else value
    fig.colorbar(image, ax=list(axes), shrink=0.6, label=label)
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
    """Card ids on both axes, small type, and lines between decks."""
    ticks = np.arange(len(cards))
    ax.set_xticks(ticks, cards["id"], fontsize=5, rotation=90)
    ax.set_yticks(ticks, cards["id"], fontsize=5)
    decks = cards["deck"].to_numpy()
    for i in np.flatnonzero(decks[1:] != decks[:-1]):
        ax.axhline(i + 0.5, color="black", linewidth=0.5)
        ax.axvline(i + 0.5, color="black", linewidth=0.5)
    ax.set_xlabel("card")
    ax.set_ylabel("card")
