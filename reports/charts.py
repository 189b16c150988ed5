"""Chart layout rules shared by every report chart, and the charts of tournament tables.

Figures are built without pyplot (no global state, no display needed), so they can be drawn in
worker processes and tests alike; save them with ``figure.savefig(path, format="png")``.

The rules, so that a chart is readable where the report shows it (``reports.report_builder``):

- ``MAX_FIGURE_WIDTH_IN``: no figure is wider than the page's content box at the report's dpi
  (1152 px at 120 dpi = 9.6 in), so the browser never shrinks it on a 1280 px wide window;
- ``MIN_FONT_PT``: no text below 8 pt (13.3 px at 120 dpi; still 9 px if a small screen shrinks the
  figure to 68 %); matplotlib's defaults (10 pt) are fine, explicit small sizes must not go lower;
- ``panel_grid``: many panels wrap into rows of at most ``MAX_PANELS_PER_ROW``, never one long row;
- ``legend_below`` / ``legend_beside``: legends sit outside the axes, never over the data;
- ``first_column(axes)``: the panels that carry the y label in a wrapped grid;
- ``population_colours``: one colour per population (or strategy, or variant) for a whole report: the
  report builds the mapping once and hands it to every chart, so a population never changes colour;
- ``fit_titles(fig)``: titles and panel x labels wrapped to the width they have, never cut at the edge;
- ``readability_problems(fig)``: what breaks these rules, in words (empty when none) — for tests;
  ``cut_texts(fig)`` is its part on text outside the figure or titles running into each other.

A chart with many panels sizes each panel for its content (e.g. ``panel_width`` growing with the
number of bars) and lets ``panel_grid`` choose how many fit a row. The report builder records each
figure's smallest text in PNG pixels, and the browser check of the committed example reports fails
any figure whose text is shown below ``report_builder.MIN_TEXT_PX`` (9 px).
"""

import math
import textwrap
import warnings
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd
from bgsim.reports.report_builder import CONTENT_WIDTH_PX, FIGURE_DPI, figure_font_sizes
from matplotlib.axes import Axes
from matplotlib.figure import Figure, FigureBase
from matplotlib.legend import Legend
from matplotlib.text import Text

__all__ = ["LEGEND_FONT_PT", "MAX_FIGURE_WIDTH_IN", "MAX_PANELS_PER_ROW", "MIN_FONT_PT", "PALETTE", "PANEL_HEIGHT_IN",
           "PANEL_WIDTH_IN", "chart_colours", "cut_texts", "first_column", "fit_titles", "legend_beside",
           "legend_below", "pairwise_heatmap", "panel_grid", "population_colours", "ratings_chart",
           "readability_problems"]

MAX_FIGURE_WIDTH_IN = CONTENT_WIDTH_PX / FIGURE_DPI  # 9.6 in: the content box at the report's dpi
MIN_FONT_PT = 8.0  # 13.3 px at 120 dpi: MIN_TEXT_PX (9 px) even when a narrow window shrinks the figure to 68 %
LEGEND_FONT_PT = 9.0  # legends and annotations: small, still above the minimum
MAX_PANELS_PER_ROW = 3
PANEL_WIDTH_IN = MAX_FIGURE_WIDTH_IN / MAX_PANELS_PER_ROW  # 3.2 in: three panels fill the width
PANEL_HEIGHT_IN = 2.7
# tab10 without its grey, which marks references (rulebook values, fair shares) in every chart
PALETTE = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown", "tab:pink", "tab:olive",
           "tab:cyan")
_EDGE_PAD_IN = 0.08  # room a wrapped title keeps from the figure's edge


# --- colours


def population_colours(names: Iterable[str]) -> dict[str, str]:
    """One colour per name (population, strategy, variant), in the order given, each name once. A report
    builds this once from its study's populations and passes it to every chart it draws."""
    order = list(dict.fromkeys(str(n) for n in names))
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(order)}


def chart_colours(names: Iterable[str], colours: Mapping[str, str] | None = None) -> dict[str, str]:
    """The colours of the ``names`` a chart draws, in the order of ``colours`` (the report's mapping; names it
    lacks follow, in sorted order, with colours it leaves free). Without a mapping the sorted names are
    coloured in turn, so a chart drawn on its own still colours alike whatever order its rows come in."""
    present = set(map(str, names))
    given = dict(colours or {})
    chosen = {name: given[name] for name in given if name in present}
    missing = sorted(present - set(chosen))
    free = [c for c in PALETTE if c not in given.values()] or list(PALETTE)
    chosen.update({name: free[i % len(free)] for i, name in enumerate(missing)})
    return chosen


# --- layout helpers


def panel_grid(count: int, panel_width: float = PANEL_WIDTH_IN, panel_height: float = PANEL_HEIGHT_IN,
               per_row: int = MAX_PANELS_PER_ROW, extra_height: float = 0.7, min_width: float = 5.0,
               parent: FigureBase | None = None, **subplots) -> tuple[FigureBase, list[Axes]]:
    """A figure (or ``parent`` subfigure) with ``count`` panels wrapped into balanced rows of at most
    ``per_row`` (4 panels: 2 x 2; 5: 3 + 2), each about ``panel_width`` x ``panel_height`` in, the whole
    at most ``MAX_FIGURE_WIDTH_IN`` wide and at least ``min_width``; ``extra_height`` in for titles and
    legends. Cells of the last row that hold no panel are removed. Returns the figure and the panels in
    reading order. ``subplots`` go to ``Figure.subplots`` (e.g. ``sharey=True``)."""
    count = max(1, count)
    per_row = max(1, min(per_row, int(MAX_FIGURE_WIDTH_IN // min(panel_width, MAX_FIGURE_WIDTH_IN))))
    rows = math.ceil(count / per_row)
    cols = math.ceil(count / rows)
    width = min(MAX_FIGURE_WIDTH_IN, max(min_width, cols * panel_width))
    if parent is None:
        fig: FigureBase = Figure(figsize=(width, rows * panel_height + extra_height), layout="constrained")
    else:
        fig = parent
    axes = fig.subplots(rows, cols, squeeze=False, **subplots).ravel().tolist()
    for ax in axes[count:]:
        ax.remove()
    return fig, axes[:count]


def first_column(axes: Iterable[Axes]) -> list[Axes]:
    """The panels in the first column of their grid (those that carry the y label)."""
    return [ax for ax in axes if ax.get_subplotspec().is_first_col()]


def _handles(axes: Iterable[Axes]) -> tuple[list, list[str]]:
    """The legend entries of ``axes``, each label once, in the order first seen."""
    seen: dict[str, object] = {}
    for ax in axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            if not label.startswith("_"):
                seen.setdefault(label, handle)
    return list(seen.values()), list(seen)


def legend_below(fig: FigureBase, axes: Iterable[Axes] | None = None, ncols: int | None = None,
                 title: str | None = None, handles: Sequence | None = None, **kwargs) -> Legend | None:
    """One legend for the panels ``axes`` (default: all of ``fig``), centred below them outside the
    axes; constrained layout makes room for it. Each label appears once. None if nothing is labelled.
    ``handles``: labelled artists to show instead of the panels' own (e.g. neutral keys for a style that
    every population draws in its own colour)."""
    if handles is None:
        handles, labels = _handles(fig.axes if axes is None else axes)
    else:
        handles, labels = list(handles), [h.get_label() for h in handles]
    if not handles:
        return None
    width_in = fig.get_figwidth() if isinstance(fig, Figure) else fig.get_figure(root=True).get_figwidth()
    longest = max(len(label) for label in labels)
    fits = max(1, int(width_in * 72 / (LEGEND_FONT_PT * 0.6 * longest + 30)))  # entries per line that fit
    ncols = ncols or min(len(labels), fits)
    return fig.legend(handles, labels, loc="outside lower center", ncols=ncols, fontsize=LEGEND_FONT_PT,
                      title=title, title_fontsize=LEGEND_FONT_PT, frameon=False, **kwargs)


def legend_beside(ax: Axes, **kwargs) -> Legend | None:
    """The legend of ``ax`` to the right of its axes, outside the data; constrained layout makes room."""
    handles, labels = _handles([ax])
    if not handles:
        return None
    return ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                     fontsize=LEGEND_FONT_PT, frameon=False, **kwargs)


def _wrap_to(text: Text, width_px: float) -> None:
    """Wrap ``text`` until it is at most ``width_px`` wide (or its lines are down to a dozen characters):
    each of its own lines that is too long is broken into lines of about equal length."""
    lines = text.get_text().split("\n")
    fits = max(len(line) for line in lines)  # characters a line may hold
    while text.get_window_extent().width > width_px and fits > 12:
        fits = max(12, min(fits - 1, int(fits * width_px / text.get_window_extent().width)))
        text.set_text("\n".join(_balanced(line, fits) for line in lines))


def _balanced(line: str, fits: int) -> str:
    """``line`` in as few lines of at most ``fits`` characters as it needs, of about equal length (no
    short last line left alone)."""
    if len(line) <= fits:
        return line
    pieces = math.ceil(len(line) / fits)
    for width in range(math.ceil(len(line) / pieces), fits + 1):
        wrapped = textwrap.wrap(line, width, break_long_words=False)
        if len(wrapped) <= pieces:
            return "\n".join(wrapped)
    return textwrap.fill(line, fits, break_long_words=False)


def _column_px(ax: Axes) -> float:
    """The width of the grid column an axes sits in, before the layout."""
    spec = ax.get_subplotspec()
    parent = ax.get_figure(root=False).bbox
    if spec is None:
        return parent.width
    return parent.width * len(spec.colspan) / spec.get_geometry()[1]


def _room_px(ax: Axes) -> float:
    """How wide a text centred on ``ax`` (its title, its x label) may be, once laid out: to the figure's edge,
    or halfway to the next panel of its row on either side, whichever is nearer; the same on both sides."""
    box = ax.get_window_extent()
    parent = ax.get_figure(root=False)
    left, right = parent.bbox.x0, parent.bbox.x1
    for other in ax.get_figure(root=True).axes:
        near = other.get_window_extent()
        if other is ax or not other.get_visible() or near.y0 >= box.y1 or near.y1 <= box.y0:
            continue  # not beside ax
        if near.x1 <= box.x0:
            left = max(left, (near.x1 + box.x0) / 2)
        elif near.x0 >= box.x1:
            right = min(right, (box.x1 + near.x0) / 2)
    centre = (box.x0 + box.x1) / 2
    return 2 * min(centre - left, right - centre) - parent.dpi * 2 * _EDGE_PAD_IN


def fit_titles(fig: FigureBase) -> FigureBase:
    """Wrap the figure's (and its subfigures') titles to the figure's width, and each panel's title and x
    label to the room it has beside its neighbours, so no title is cut at the figure's edge or runs into
    another; constrained layout then makes room for the extra lines. Call it when every text is set;
    returns ``fig``. Only a figure with a long panel text is laid out to measure that room."""
    for part in (fig, *fig.subfigs):
        title = part._suptitle  # matplotlib offers its string only
        if title is not None and title.get_text():
            _wrap_to(title, part.bbox.width - part.dpi * 2 * _EDGE_PAD_IN)
    texts = [(ax, text) for ax in fig.axes for text in (ax.title, ax.xaxis.label)  # fig.axes: subfigures' too
             if text.get_visible() and text.get_text()]
    long = [(ax, text) for ax, text in texts if text.get_window_extent().width > 0.5 * _column_px(ax)]
    if long:
        fig.get_figure(root=True).draw_without_rendering()  # the panels' places
        for ax, text in long:
            _wrap_to(text, _room_px(ax))
    return fig


def _drawn_texts(fig: Figure) -> list[Text]:
    """Every non-empty text the figure draws (tick labels only of the ticks shown), after a layout pass."""
    drawn: list[Text] = []
    draw = Text.draw

    def record(text: Text, renderer) -> None:
        draw(text, renderer)
        if text.get_visible() and text.get_text().strip():
            drawn.append(text)

    Text.draw = record  # the draw itself says which texts show; walking the artists would list hidden ticks
    try:
        fig.draw_without_rendering()
    finally:
        Text.draw = draw
    return drawn


def cut_texts(fig: Figure) -> list[str]:
    """Texts that a PNG of the figure would cut (any part outside the figure), and titles (figure and panel
    titles) that run into each other, in words; empty if none."""
    drawn = _drawn_texts(fig)
    box = fig.bbox.padded(0.5)  # sub-pixel rounding
    problems = []
    for text in drawn:
        extent = text.get_window_extent()
        if not (box.x0 <= extent.x0 and extent.x1 <= box.x1 and box.y0 <= extent.y0 and extent.y1 <= box.y1):
            problems.append(f"the text {_quote(text)} reaches past the figure's edge ({extent.x0:.0f} to "
                            f"{extent.x1:.0f} px of {box.width:.0f} px across, {extent.y0:.0f} to {extent.y1:.0f} "
                            f"px of {box.height:.0f} px up)")
    titles = [t for t in drawn if _is_title(t)]
    for i, first in enumerate(titles):
        for second in titles[i + 1:]:
            if first.get_window_extent().overlaps(second.get_window_extent()):
                problems.append(f"the titles {_quote(first)} and {_quote(second)} run into each other")
    return problems


def _is_title(text: Text) -> bool:
    if text.axes is not None:
        return text is text.axes.title
    root = text.get_figure(root=True)
    return any(text is part._suptitle for part in (root, *root.subfigs))


def _quote(text: Text) -> str:
    words = " ".join(text.get_text().split())
    return repr(words if len(words) <= 60 else words[:57] + "...")


def readability_problems(fig: Figure, dpi: float = FIGURE_DPI) -> list[str]:
    """What breaks the chart rules, in words; empty if none: wider than ``MAX_FIGURE_WIDTH_IN``, text
    below ``MIN_FONT_PT``, a legend over any axes, text cut at the figure's edge or titles that run into
    each other (``cut_texts``). The figure is laid out (drawn without rendering)."""
    problems = []
    width = fig.get_figwidth()
    if width > MAX_FIGURE_WIDTH_IN + 1e-6:
        problems.append(f"the figure is {width:.2f} in wide ({width * dpi:.0f} px at {dpi:g} dpi); at most "
                        f"{MAX_FIGURE_WIDTH_IN:.2f} in fit the report's content box unshrunk")
    sizes = figure_font_sizes(fig)  # lays the figure out
    if sizes and min(sizes) < MIN_FONT_PT:
        problems.append(f"its smallest text is {min(sizes):g} pt ({min(sizes) * dpi / 72:.1f} px at {dpi:g} dpi); "
                        f"at least {MIN_FONT_PT:g} pt are needed")
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
    for legend in legends:
        if not legend.get_visible():
            continue
        box = legend.get_window_extent()
        for ax in fig.axes:
            if ax.get_visible() and box.overlaps(ax.get_window_extent()):
                title = ax.get_title() or "a panel"
                problems.append(f"a legend ({', '.join(t.get_text() for t in legend.get_texts()[:3])}) lies over "
                                f"the axes of {title!r}")
                break
    return problems + cut_texts(fig)


# --- tournament charts


def _player_counts(table: pd.DataFrame) -> list[int]:
    return sorted(int(n) for n in table["n_players"].unique())


def ratings_chart(ratings: pd.DataFrame, order: Sequence[str] | None = None) -> Figure:
    """Bradley–Terry ratings with their interval as error bars, one panel per player count.

    ``ratings``: columns ``n_players, strategy, rating, low, high`` (as ``Ratings.table()``).
    """
    counts = _player_counts(ratings)
    height = 1.2 + 0.3 * ratings["strategy"].nunique()
    longest = max((len(str(s)) for s in ratings["strategy"]), default=1)
    fig, axes = panel_grid(len(counts), panel_width=max(PANEL_WIDTH_IN, 2.2 + 0.07 * longest), panel_height=height,
                           extra_height=0.2)
    for ax, n in zip(axes, counts, strict=True):
        rows = ratings[ratings["n_players"] == n]
        if order is not None:
            rows = rows.set_index("strategy").loc[[s for s in order if s in set(rows["strategy"])]].reset_index()
        y = np.arange(len(rows))[::-1]
        errors = np.vstack([rows["rating"] - rows["low"], rows["high"] - rows["rating"]]).clip(min=0)
        ax.errorbar(rows["rating"], y, xerr=errors, fmt="o", color="tab:blue", ecolor="tab:gray", capsize=4)
        ax.axvline(0, color="black", linewidth=0.6)
        ax.set_yticks(y, rows["strategy"])
        ax.set_xlabel("rating (Elo points, 95 % bootstrap interval)", fontsize=MIN_FONT_PT + 1)
        ax.set_title(f"{n} players")
        ax.grid(axis="x", alpha=0.3)
    return fit_titles(fig)


def pairwise_heatmap(pairwise: pd.DataFrame, order: Sequence[str] | None = None) -> Figure:
    """Share of games in which the row strategy finished ahead of the column strategy, one
    heatmap per player count; blank cells never met. Cells are labelled while they are large
    enough for a label at ``LEGEND_FONT_PT``.

    ``pairwise``: columns ``n_players, a, b, share`` (as ``ratings.pairwise``).
    """
    import seaborn as sns  # only this chart needs it; importing it costs a second

    counts = _player_counts(pairwise)
    names = list(order) if order is not None else sorted(set(pairwise["a"]) | set(pairwise["b"]))
    longest = max((len(s) for s in names), default=1)
    cell = 0.42  # in: room for "100%" at 9 pt
    size = min(MAX_FIGURE_WIDTH_IN, 1.4 + cell * len(names) + 0.07 * longest)
    fig, axes = panel_grid(len(counts), panel_width=size, panel_height=size, extra_height=0.5)
    title = "share of games in which the row strategy finished ahead of the column strategy"
    fig.suptitle(title)
    annotate = (size - 1.4 - 0.07 * longest) / max(1, len(names)) >= cell * 0.95
    for ax, n in zip(axes, counts, strict=True):
        rows = pairwise[pairwise["n_players"] == n]
        present = [s for s in names if s in set(rows["a"])]
        matrix = rows.pivot(index="a", columns="b", values="share").reindex(index=present, columns=present)
        with warnings.catch_warnings():  # seaborn 0.13 calls a colormap method matplotlib 3.11 deprecates
            warnings.simplefilter("ignore", PendingDeprecationWarning)
            sns.heatmap(matrix.astype(float), ax=ax, vmin=0, vmax=1, center=0.5, cmap="vlag", annot=annotate,
                        fmt=".0%", annot_kws={"fontsize": LEGEND_FONT_PT}, square=True, linewidths=0.5,
                        cbar_kws={"label": "share ahead", "shrink": 0.8})
        ax.set_xlabel("against")
        ax.set_ylabel("strategy")
        ax.tick_params(axis="y", labelrotation=0)
        ax.tick_params(axis="x", labelrotation=30)
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
        ax.set_title(f"{n} players")
    return fit_titles(fig)
