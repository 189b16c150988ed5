"""A small report builder: one document written as Markdown, as self-contained HTML, and as CSV tables.

Reports are assembled in order and written at the end::

    rep = Report(title="Seat order", subtitle="my_game, 10,000 games per player count")
    rep.heading("2 players", level=2)
    rep.text("Seat 1 wins **more often** than seat 2.")
    rep.table(frame, name="seats_2p", caption="Win rate per seat.", rates=["win_rate"])
    rep.figure(fig, name="seat_win_rates", caption="Win rate per seat with its 95 % interval.")
    rep.note("Too few games to claim a difference between seats 3 and 4.")
    rep.write("reports/seats")   # -> reports/seats/index.html

``write`` produces::

    index.html          the whole report in one file: inline CSS, charts as PNG data URIs, no scripts,
                        no external resources, so it can be mailed or archived as is
    index.md            the same content; charts as figures/<name>.png, tables as pipe tables
    figures/<name>.png  each chart
    tables/<name>.csv   each table in full: every column, unformatted
    tables/provenance.json  what the tables were computed from (``Report.provenance``: the game ids,
                        data files by hash, strategies, seeds, versions), so a CSV keeps its plain
                        columns and still travels with its origin

Layout: paragraphs keep a readable measure (``TEXT_WIDTH``); tables and figures use the wider
content box (``CONTENT_WIDTH_PX``, 1152 CSS px once the window is at least 1216 px wide). A table never
overflows the page: interval cells wrap between the value and its interval, and a table still too
wide (a small screen) scrolls inside its own box, under a caption that wraps as a normal block. A
table of more than ``FOLD_ROWS`` rows is folded into ``<details>`` (the Markdown keeps the full pipe
table). A figure should be at most ``CONTENT_WIDTH_PX`` pixels wide at ``FIGURE_DPI``, so it is shown
at its natural size; each figure records its smallest text in PNG pixels (``data-min-text-px`` on the
``<img>`` and a ``bgsim:min-text-px`` text chunk in the PNG), so a check can compute the text size as
displayed. The chart rules built on these numbers are in ``reports.charts``.

Text is a Markdown subset (paragraphs, bullet and numbered lists, **bold**, *italic*, `code`, links),
converted to HTML here so the builder needs no Markdown package. The output depends only on the
inputs: no timestamps unless passed in as metadata, and PNGs saved without software or date entries.

A rate column is always shown with its interval: ``rates=["win_rate"]`` needs ``win_rate_low`` and
``win_rate_high`` and shows all three as one cell, e.g. ``51.2 % [50.2, 52.2]``; ``means`` does the
same for means. The CSV keeps the three columns apart.
"""

import base64
import html
import io
import json
import math
import numbers
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import polars as pl
from bgsim.sim.results.store import write_atomic
from bgsim.sim.stats.intervals import fmt_p
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.figure import Figure
from matplotlib.text import Text

__all__ = ["CONTENT_WIDTH_PX", "FIGURE_DPI", "FOLD_ROWS", "MIN_TEXT_PX", "Report", "figure_font_sizes", "fmt_mean",
           "fmt_p", "fmt_rate"]

MISSING = "–"
Format = str | Callable[[Any], str]  # a format spec such as ",d" or ".2f", or a function of the value

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
_PNG_METADATA = {"Software": None}  # matplotlib writes its version here by default; PNGs carry no date
_MIN_TEXT_KEY = "bgsim:min-text-px"  # PNG text chunk: the figure's smallest text in pixels of the PNG

FIGURE_DPI = 120  # pixels per inch of the PNGs; 1 PNG pixel is shown as 1 CSS pixel when nothing is shrunk
CONTENT_WIDTH_PX = 1152  # the page's content box (CSS px) when the window is at least 76rem (1216 px) wide
TEXT_WIDTH = "60rem"  # paragraphs, lists, notes and captions: a readable line length
MIN_TEXT_PX = 9.0  # smallest readable figure text, in CSS px as displayed
# CSV floats keep 10 significant digits: far beyond any interval's width, and short of the last bits
# that a multi-threaded sum (polars) may order differently from one report to the next, so a report
# written again from the same results reads the same (but for a rare value on a rounding boundary)
_CSV_FLOAT = "%.10g"
FOLD_ROWS = 12  # tables with more shown rows are folded into <details> unless the caller says otherwise
_DEFAULT_LABELS = {"n_players": "players"}  # shown labels of the columns every study has (the CSV keeps the name)


# --- formatting helpers


def _missing(*values: Any) -> bool:
    return any(v is None or (isinstance(v, numbers.Real) and math.isnan(v)) for v in values)


def fmt_rate(p: float, low: float, high: float, digits: int = 1) -> str:
    """A proportion and its interval in percent: ``fmt_rate(0.512, 0.502, 0.522)`` -> ``51.2 % [50.2, 52.2]``.

    A bound that differs from the rate but would print the same gets up to two more digits, so an
    interval never reads as a point: ``fmt_rate(1.0, 0.99968, 1.0)`` -> ``100.0 % [99.97, 100.0]``;
    and the rate gets as many as it needs to print inside its interval:
    ``fmt_rate(0.99985, 0.9997, 0.9999)`` -> ``99.98 % [99.97, 99.99]``, not ``100.0 % [99.97, 99.99]``."""
    if _missing(p):
        return MISSING
    if _missing(low, high):
        return f"{100 * p:.{digits}f} % {MISSING}"
    for shown in range(digits, digits + 3):
        rate = f"{100 * p:.{shown}f}"
        lower, upper = _bound(low, p, shown), _bound(high, p, shown)
        if float(lower) <= float(rate) <= float(upper):
            break
    return f"{rate} % [{lower}, {upper}]"


def _bound(bound: float, p: float, digits: int) -> str:
    shown = digits
    apart = abs(bound - p) > 1e-9  # a bound one rounding error off the rate (Wilson at 0 or n) is the rate
    while shown < digits + 2 and apart and f"{100 * bound:.{shown}f}" == f"{100 * p:.{digits}f}":
        shown += 1
    return f"{100 * bound:.{shown}f}"


def fmt_mean(m: float, low: float, high: float, digits: int = 1) -> str:
    """A mean and its interval: ``fmt_mean(113.14, 112.4, 113.8)`` -> ``113.1 [112.4, 113.8]``."""
    if _missing(m):
        return MISSING
    interval = MISSING if _missing(low, high) else f"[{low:.{digits}f}, {high:.{digits}f}]"
    return f"{m:.{digits}f} {interval}"


def _fmt_value(value: Any, fmt: Format | None = None) -> str:
    """One table cell. Defaults: thousands separators for integers, four significant digits for floats."""
    if _missing(value) or value is pd.NA or value is pd.NaT:
        return MISSING
    if callable(fmt):
        return str(fmt(value))
    if fmt is not None:
        return format(value, fmt)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, numbers.Integral):
        return f"{value:,}"
    if isinstance(value, numbers.Real):
        return f"{value:,.0f}" if abs(value) >= 1e4 else f"{value:.4g}"
    return str(value)


# --- Markdown subset -> HTML


_INLINE = re.compile(
    r"\\(?P<esc>[\\`*_\[\]()#+\-.!|<>])"  # backslash escape
    r"|`(?P<code>[^`]+)`"
    r"|\[(?P<label>[^\]]+)\]\((?P<url>[^)\s]+)\)"
    r"|\*\*(?P<bold>.+?)\*\*"
    r"|\*(?P<em>[^*\s](?:[^*]*[^*\s])?)\*"
)
_LIST_ITEM = re.compile(r" {0,3}(?P<marker>[-*+]|\d{1,9}[.)])\s+(?P<text>.*)")
_SAFE_URL = re.compile(r"(https?:|mailto:|#|\.{0,2}/|[A-Za-z0-9_][A-Za-z0-9_./-]*([#?]|$))", re.IGNORECASE)


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _url(url: str) -> str:
    """Links may go to the web, to an anchor or to a relative path; anything else (``javascript:``,
    ``data:``) becomes a dead link rather than a script."""
    return _esc(url) if _SAFE_URL.match(url) else "#"


def inline_html(text: str) -> str:
    """Inline Markdown (escapes, `code`, links, **bold**, *italic*) as escaped HTML."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(_esc(text[pos:m.start()]))
        if m["esc"] is not None:
            out.append(_esc(m["esc"]))
        elif m["code"] is not None:
            out.append(f"<code>{_esc(m['code'])}</code>")
        elif m["label"] is not None:
            out.append(f'<a href="{_url(m["url"])}">{inline_html(m["label"])}</a>')
        elif m["bold"] is not None:
            out.append(f"<strong>{inline_html(m['bold'])}</strong>")
        else:
            out.append(f"<em>{inline_html(m['em'])}</em>")
        pos = m.end()
    out.append(_esc(text[pos:]))
    return "".join(out)


def _plain(text: str) -> str:
    """Inline Markdown reduced to its text (for anchors, alt texts and the Markdown contents list)."""
    return html.unescape(re.sub(r"<[^>]+>", "", inline_html(text)))  # the only tags are the converter's own


def _blocks(text: str) -> list[tuple[str, list[str]]]:
    """Paragraphs and lists of a Markdown text: ``("p", lines)``, ``("ul", items)`` or ``("ol", items)``.
    A list item continues on indented lines and on plain lines that follow it directly."""
    blocks: list[tuple[str, list[str]]] = []
    current: tuple[str, list[str]] | None = None
    for line in text.strip("\n").splitlines():
        if not line.strip():
            current = None
            continue
        item = _LIST_ITEM.fullmatch(line)
        if item:
            kind = "ul" if item["marker"] in "-*+" else "ol"
            if current is None or current[0] != kind:
                current = (kind, [])
                blocks.append(current)
            current[1].append(item["text"].strip())
        elif current is None:
            current = ("p", [line.strip()])
            blocks.append(current)
        elif current[0] == "p":
            current[1].append(line.strip())
        else:
            current[1][-1] += " " + line.strip()
    return blocks


def markdown_html(text: str) -> str:
    """Block Markdown (paragraphs, bullet and numbered lists) as HTML."""
    parts = []
    for kind, lines in _blocks(text):
        if kind == "p":
            parts.append("<p>" + "\n".join(inline_html(line) for line in lines) + "</p>")
        else:
            items = "\n".join(f"<li>{inline_html(item)}</li>" for item in lines)
            parts.append(f"<{kind}>\n{items}\n</{kind}>")
    return "\n".join(parts)


def _md_cell(text: str) -> str:
    """A plain-text value made safe inside a Markdown pipe table (one line, no markup)."""
    text = " ".join(str(text).split())
    return re.sub(r"([\\|*`<])", r"\\\1", text)


# --- the parts of a report


@dataclass(frozen=True)
class _Heading:
    text: str
    level: int
    anchor: str


@dataclass(frozen=True)
class _Text:
    markdown: str


@dataclass(frozen=True)
class _Note:
    markdown: str


@dataclass(frozen=True)
class _Table:
    name: str
    data: pd.DataFrame  # every column, unformatted (the CSV)
    shown: pd.DataFrame  # formatted cells (strings) under their display labels
    numeric: tuple[bool, ...]  # per shown column: right-aligned
    caption: str
    folded: bool  # shown inside <details>, closed until the reader opens it
    dense: bool  # smaller type and padding: at the normal size it could not narrow to the content box


@dataclass(frozen=True)
class _Figure:
    name: str
    png: bytes
    caption: str
    alt: str
    width: int  # PNG pixels
    height: int
    min_text_px: float | None  # the smallest text in PNG pixels; None if the figure draws no text


def _slug(text: str) -> str:
    """A heading's anchor, GitHub style: lower case, punctuation dropped, spaces to hyphens."""
    slug = re.sub(r"[^\w\- ]", "", _plain(text).lower(), flags=re.UNICODE).strip().replace(" ", "-")
    return slug or "section"


def _pandas(frame: pd.DataFrame | pl.DataFrame) -> pd.DataFrame:
    """A pandas copy of the table; a meaningful pandas index becomes ordinary columns."""
    if isinstance(frame, pl.DataFrame):
        return frame.to_pandas()
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"a table must be a pandas or polars DataFrame, not {type(frame).__name__}")
    plain_index = isinstance(frame.index, pd.RangeIndex) and frame.index.name is None
    return frame.copy() if plain_index else frame.reset_index()


def figure_font_sizes(fig: Figure) -> list[float]:
    """The font size in points of every text the figure draws: titles, axis labels, tick labels, legend
    texts, annotations. The figure is laid out first (tick labels only exist after a draw); texts that are
    hidden (their own or a parent's visibility, the axis lines and labels of an axes turned off) or empty
    do not count."""
    fig.draw_without_rendering()
    sizes: list[float] = []

    def walk(artist: Any) -> None:
        if not artist.get_visible():
            return
        if isinstance(artist, Text) and artist.get_text().strip():
            sizes.append(float(artist.get_fontsize()))
        hide_axes = isinstance(artist, Axes) and not artist.axison
        for child in artist.get_children():
            if not (hide_axes and isinstance(child, Axis)):
                walk(child)

    walk(fig)
    return sizes


def _figure_png(fig: Figure, dpi: int) -> tuple[bytes, float | None]:
    """The figure as PNG bytes and its smallest text in PNG pixels (also written into the PNG as a text
    chunk); the figure is then closed: a report with many charts holds only their bytes."""
    buffer = io.BytesIO()
    try:
        sizes = figure_font_sizes(fig)
        min_px = round(min(sizes) * dpi / 72, 2) if sizes else None
        metadata = _PNG_METADATA | ({_MIN_TEXT_KEY: f"{min_px:.2f}"} if min_px is not None else {})
        fig.savefig(buffer, format="png", dpi=dpi, metadata=metadata)
    finally:
        if getattr(fig.canvas, "manager", None) is not None:  # a pyplot figure: pyplot keeps it alive
            import matplotlib.pyplot as plt

            plt.close(fig)
        fig.clear()
    return buffer.getvalue(), min_px


def _png_size(png: bytes) -> tuple[int, int]:
    """Width and height of a PNG, from its IHDR chunk."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


class Report:
    """A report built part by part (headings, text, tables, figures, notes) and written by ``write``."""

    def __init__(self, title: str, subtitle: str | None = None, meta: Mapping[str, str] | None = None,
                 lang: str = "en", fold_rows: int = FOLD_ROWS) -> None:
        """``meta``: label -> value lines under the title (e.g. run id, git sha, a date the caller chose).
        ``fold_rows``: tables with more shown rows are folded (see ``table``)."""
        self.title = title
        self.subtitle = subtitle
        self.meta = dict(meta or {})
        self.lang = lang
        self.fold_rows = fold_rows
        self.provenance: dict | None = None  # JSON-ready facts of what was played, for tables/provenance.json
        self._warnings: list[str] = []
        self._parts: list[_Heading | _Text | _Note | _Table | _Figure] = []
        self._anchors: set[str] = set()
        self._names: dict[str, set[str]] = {"table": set(), "figure": set()}

    # --- adding parts

    def heading(self, text: str, level: int = 2) -> "Report":
        """A section heading (level 2 to 6; the title is level 1). Level-2 headings make the contents list."""
        if not 2 <= level <= 6:
            raise ValueError(f"heading level must be 2 to 6 (the title is level 1), not {level}")
        anchor, n = _slug(text), 1
        while anchor in self._anchors or anchor == "contents":  # GitHub numbers repeats -1, -2, ...
            anchor, n = f"{_slug(text)}-{n}", n + 1
        self._anchors.add(anchor)
        self._parts.append(_Heading(text, level, anchor))
        return self

    def warning(self, markdown: str) -> "Report":
        """A warning shown at the top of the report, above the contents, wherever it is added (e.g. the
        results are incomplete: games done out of planned, and how to finish them)."""
        self._warnings.append(markdown)
        return self

    def text(self, markdown: str) -> "Report":
        """Markdown text: paragraphs, lists, **bold**, *italic*, `code`, links."""
        self._parts.append(_Text(markdown))
        return self

    def note(self, markdown: str) -> "Report":
        """A highlighted callout, for caveats the reader must not miss (e.g. too few games to claim a difference)."""
        self._parts.append(_Note(markdown))
        return self

    def table(self, frame: pd.DataFrame | pl.DataFrame, name: str, caption: str = "",
              columns: Mapping[str, str] | None = None, formats: Mapping[str, Format] | None = None,
              rates: Sequence[str] = (), means: Sequence[str] = (), show: Sequence[str] | None = None,
              head: int | None = None, fold: bool | int | None = None) -> "Report":
        """A table: shown formatted, written in full to ``tables/<name>.csv``.

        ``columns`` renames shown columns (column -> label); ``formats`` gives a column's format spec
        (``",d"``, ``".2f"``) or function. ``rates`` and ``means`` name columns shown with their interval
        from ``<col>_low`` and ``<col>_high`` (a ValueError if those are missing, so no rate appears
        without its interval), as ``fmt_rate`` and ``fmt_mean`` do; their format may be a function of
        (value, low, high), and for a mean a format spec applies to all three numbers (default ``".1f"``).
        ``show`` picks and orders the shown columns; by default all but the interval bounds. ``head``
        shows only the first rows (the caption says so); the CSV still holds every row.

        ``fold``: in the HTML, a long table is folded into ``<details>`` whose summary gives its rows
        count; the caption and the CSV link stay visible. ``None`` folds tables of more than the report's
        ``fold_rows`` shown rows, an int folds tables of more than that many rows, ``True`` and ``False``
        always and never fold. The Markdown always has the whole table.
        """
        self._check_name("table", name)
        data = _pandas(frame)
        formats = dict(formats or {})
        bounds = _interval_bounds(data, rates, "rate") | _interval_bounds(data, means, "mean")
        order = list(show) if show is not None else [c for c in data.columns if c not in bounds]
        unknown = [c for c in [*order, *(columns or {}), *formats] if c not in data.columns]
        if unknown:
            raise ValueError(f"table {name}: no column {unknown[0]!r} (columns: {', '.join(map(str, data.columns))})")
        cells, numeric = {}, []
        for col in order:
            label = (columns or {}).get(col, _DEFAULT_LABELS.get(str(col), str(col)))
            if label in cells:
                raise ValueError(f"table {name}: two shown columns are labelled {label!r}")
            cells[label] = _column_cells(data, col, rates, means, formats.get(col))
            dtype = data[col].dtype
            numeric.append(col in rates or col in means or (pd.api.types.is_numeric_dtype(dtype)
                                                            and not pd.api.types.is_bool_dtype(dtype)))
        shown = pd.DataFrame(cells, index=data.index, columns=list(cells))
        if head is not None and len(shown) > head:
            shown = shown.iloc[:head]
            caption = f"{caption} First {head:,} of {len(data):,} rows; the CSV has them all.".strip()
        if isinstance(fold, bool):
            folded = fold
        elif fold is None or isinstance(fold, int):
            folded = len(shown) > (self.fold_rows if fold is None else fold)
        else:
            raise TypeError(f"table {name}: fold must be True, False, None or a number of rows, not {fold!r}")
        dense = _narrowest_px(shown, numeric) > _DENSE_ABOVE * CONTENT_WIDTH_PX
        self._add("table", _Table(name, data, shown, tuple(numeric), caption, folded, dense))
        return self

    def figure(self, fig: Figure, name: str, caption: str = "", alt: str | None = None,
               dpi: int = FIGURE_DPI) -> "Report":
        """A matplotlib figure, saved as ``figures/<name>.png`` and embedded in the HTML; the figure is closed.

        A figure at most ``CONTENT_WIDTH_PX`` pixels wide (``reports.charts.MAX_FIGURE_WIDTH_IN`` at the
        default dpi) is shown at its natural size; a wider one is shrunk to the page, its text with it.
        Its smallest text is recorded in PNG pixels (``data-min-text-px``, PNG chunk ``bgsim:min-text-px``).
        """
        self._check_name("figure", name)
        png, min_px = _figure_png(fig, dpi)
        width, height = _png_size(png)
        self._add("figure", _Figure(name, png, caption, alt if alt is not None else _plain(caption) or name,
                                    width, height, min_px))
        return self

    def _check_name(self, kind: str, name: str) -> None:
        """Names become file names: safe characters only, unique per kind (case-insensitively, for macOS)."""
        if not isinstance(name, str) or not _NAME.fullmatch(name) or name.endswith("."):
            raise ValueError(f"{kind} name {name!r}: use letters, digits, '_', '-' and '.', starting with a "
                             f"letter or digit (at most 100 characters)")
        if name.lower() in self._names[kind]:
            raise ValueError(f"{kind} name {name!r} is already used in this report")

    def _add(self, kind: str, part: "_Table | _Figure") -> None:
        """Record a table or figure once it is complete, so a rejected one does not use up its name."""
        self._names[kind].add(part.name.lower())
        self._parts.append(part)

    # --- output

    def markdown(self) -> str:
        """The report as Markdown (``index.md``)."""
        lines = [f"# {self.title}", ""]
        if self.subtitle:
            lines += [self.subtitle, ""]
        if self.meta:
            lines += [f"- {label}: {value}" for label, value in self.meta.items()] + [""]
        for warning in self._warnings:
            lines += [f"> **Warning:** {line}" if i == 0 else f"> {line}"
                      for i, line in enumerate(warning.strip().splitlines())] + [""]
        toc = [p for p in self._parts if isinstance(p, _Heading) and p.level == 2]
        if toc:
            lines += ["**Contents**", ""] + [f"- [{_plain(h.text)}](#{h.anchor})" for h in toc] + [""]
        for part in self._parts:
            lines += _part_md(part) + [""]
        return "\n".join(lines).rstrip("\n") + "\n"

    def html(self) -> str:
        """The report as one self-contained HTML page (``index.html``)."""
        head = [f"<h1>{inline_html(self.title)}</h1>"]
        if self.subtitle:
            head.append(f'<p class="subtitle">{inline_html(self.subtitle)}</p>')
        if self.meta:
            rows = "".join(f"<dt>{_esc(k)}</dt><dd>{inline_html(str(v))}</dd>" for k, v in self.meta.items())
            head.append(f'<dl class="meta">{rows}</dl>')
        head += [f'<aside class="warning" role="alert">\n{markdown_html("**Warning:** " + b.strip())}\n</aside>'
                 for b in self._warnings]
        body = ["<header>", *head, "</header>"]
        toc = [p for p in self._parts if isinstance(p, _Heading) and p.level == 2]
        if toc:
            items = "\n".join(f'<li><a href="#{h.anchor}">{inline_html(h.text)}</a></li>' for h in toc)
            body.append(f'<nav class="toc" aria-labelledby="contents">\n<p id="contents">Contents</p>\n'
                        f"<ol>\n{items}\n</ol>\n</nav>")
        body += [_part_html(part) for part in self._parts]
        return _PAGE.format(lang=_esc(self.lang), title=_esc(_plain(self.title)), css=_CSS, body="\n".join(body))

    def write(self, directory: str | Path) -> Path:
        """Write index.html, index.md, figures/ and tables/ into ``directory``; returns the path of index.html.

        Everything is built in a temporary directory next to it that then takes its place, so a reader
        never sees a half-written report. An existing directory is replaced only if it holds a report
        (an index.html) or nothing, so a wrong path cannot wipe unrelated files.
        """
        directory = Path(directory)
        _check_replaceable(directory)
        directory.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{directory.name}.tmp-", dir=directory.parent))
        try:
            os.chmod(tmp, 0o777 & ~_umask())  # mkdtemp creates 0700; reports are meant to be shared
            self._write_files(tmp)
            _replace_dir(tmp, directory)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return directory / "index.html"

    def _write_files(self, root: Path) -> None:
        tables = [p for p in self._parts if isinstance(p, _Table)]
        figures = [p for p in self._parts if isinstance(p, _Figure)]
        for sub, present in (("tables", tables or self.provenance is not None), ("figures", figures)):
            if present:
                (root / sub).mkdir()
        for t in tables:
            text = t.data.to_csv(index=False, lineterminator="\n", float_format=_CSV_FLOAT)
            write_atomic(root / "tables" / f"{t.name}.csv", lambda tmp, text=text: _write_text(tmp, text))
        if self.provenance is not None:
            text = json.dumps(self.provenance, indent=2) + "\n"
            write_atomic(root / "tables" / "provenance.json", lambda tmp: _write_text(tmp, text))
        for f in figures:
            write_atomic(root / "figures" / f"{f.name}.png", lambda tmp, png=f.png: Path(tmp).write_bytes(png))
        for name, text in (("index.md", self.markdown()), ("index.html", self.html())):
            write_atomic(root / name, lambda tmp, text=text: _write_text(tmp, text))


# --- tables


def _interval_bounds(data: pd.DataFrame, cols: Sequence[str], kind: str) -> set[str]:
    """The ``_low``/``_high`` columns of the interval columns; a ValueError names any that are missing."""
    bounds = set()
    for col in cols:
        if col not in data.columns:
            raise ValueError(f"{kind} column {col!r} is not in the table")
        missing = [f"{col}_{side}" for side in ("low", "high") if f"{col}_{side}" not in data.columns]
        if missing:
            raise ValueError(f"{kind} column {col!r} has no interval: add {' and '.join(missing)} "
                             f"(a {kind} is never shown without its interval)")
        bounds |= {f"{col}_low", f"{col}_high"}
    return bounds


def _column_cells(data: pd.DataFrame, col: str, rates: Sequence[str], means: Sequence[str],
                  fmt: Format | None) -> list[str]:
    values = data[col].tolist()
    if col not in rates and col not in means:
        return [_fmt_value(v, fmt) for v in values]
    triples = list(zip(values, data[f"{col}_low"].tolist(), data[f"{col}_high"].tolist(), strict=True))
    if callable(fmt):
        return [str(fmt(v, lo, hi)) for v, lo, hi in triples]
    if col in rates:
        if fmt is not None:
            raise ValueError(f"rate column {col!r}: the format must be a function of (rate, low, high)")
        return [fmt_rate(v, lo, hi) for v, lo, hi in triples]
    return [_fmt_mean_spec(v, lo, hi, fmt) for v, lo, hi in triples]


def _fmt_mean_spec(m: Any, low: Any, high: Any, fmt: str | None) -> str:
    if fmt is None:
        return fmt_mean(m, low, high)
    if _missing(m):
        return MISSING
    interval = MISSING if _missing(low, high) else f"[{format(low, fmt)}, {format(high, fmt)}]"
    return f"{format(m, fmt)} {interval}"


def _table_md(t: _Table) -> list[str]:
    header = "| " + " | ".join(_md_cell(c) for c in t.shown.columns) + " |"
    rule = "|" + "".join("---:|" if num else "---|" for num in t.numeric)
    rows = ["| " + " | ".join(_md_cell(v) for v in row) + " |" for row in t.shown.itertuples(index=False)]
    lines = [header, rule, *rows, "", f"All columns: [tables/{t.name}.csv](tables/{t.name}.csv)"]
    return ([t.caption, ""] if t.caption else []) + lines


_CHAR_PX = 8.0  # a generous average character width of table text at its normal size (14 px)
_CELL_PX = 14.0  # padding and border of a cell at the normal size
_DENSE_ABOVE = 0.9  # of the content box: a table estimated to need more at its narrowest is set dense
_LONG_HEADER = 12  # characters; a longer column label wraps at the width of th span.h
_KEEP_TOGETHER = re.compile(r"\[[^\]]{0,12}\]|\d %")  # in a label, "[95 % CI]" and "5 %" never break
# a value, its interval and perhaps a note in brackets after them: "2.5 pp² [0.82, 5.4] (at most 2.3 pp)"
_INTERVAL_CELL = re.compile(r"(?P<value>.*\S) (?P<interval>\[[^\[\]]*\])(?: (?P<note>\(.*\)))?")


def _unbreakable(text: str, numeric: bool, header: bool = False) -> int:
    """Characters of the longest piece of a cell that cannot wrap (see ``_cell_html``)."""
    if header:
        return max((len(w) for w in _KEEP_TOGETHER.sub(lambda m: "x" * len(m[0]), text).split()), default=0)
    if not numeric:
        return max((len(w) for w in text.split()), default=0)
    split = _INTERVAL_CELL.fullmatch(text)
    if split is None:
        return len(text)
    note = max((len(w) for w in (split["note"] or "").split()), default=0)  # a note wraps between its words
    return max(len(split["value"]), len(split["interval"]), note)


def _narrowest_px(shown: pd.DataFrame, numeric: Sequence[bool]) -> float:
    """An estimate of the narrowest width (CSS px) a table can take at the normal size: per column its
    longest piece that cannot wrap."""
    widths = [max([_unbreakable(str(label), num, header=True)]
                  + [_unbreakable(v, num) for v in shown[label].tolist()])
              for label, num in zip(shown.columns, numeric, strict=True)]
    return sum(_CHAR_PX * w + _CELL_PX for w in widths)


def _cell_html(tag: str, text: str, numeric: bool) -> str:
    """One cell. A number with its interval (``51.2 % [50.2, 52.2]``) may wrap between the two, never
    inside either, so a wide table can narrow its interval columns instead of overflowing."""
    content = _esc(text)
    if tag == "th" and len(text) > _LONG_HEADER:  # wraps within a few words, so it does not widen its column
        content = _KEEP_TOGETHER.sub(lambda m: m.group(0).replace(" ", "&nbsp;"), content)
        content = f'<span class="h">{content}</span>'
    if not numeric:
        return f"<{tag}>{content}</{tag}>"
    split = _INTERVAL_CELL.fullmatch(text) if tag == "td" else None
    if split is None:
        return f'<{tag} class="num">{content}</{tag}>'
    note = f' {_esc(split["note"])}' if split["note"] else ""
    return (f'<{tag} class="num iv"><span>{_esc(split["value"])}</span> '
            f'<span>{_esc(split["interval"])}</span>{note}</{tag}>')


def _row_html(tag: str, cells: Sequence[str], numeric: Sequence[bool]) -> str:
    return "<tr>" + "".join(_cell_html(tag, c, num) for c, num in zip(cells, numeric, strict=True)) + "</tr>"


def _table_html(t: _Table) -> str:
    """A table as a figure: the caption first, in a block that wraps (never inside the scrolling box),
    then the table in a box that scrolls sideways only if the table cannot fit the page (a small
    screen), folded into <details> if it is long, then the CSV link."""
    head = _row_html("th", [str(c) for c in t.shown.columns], t.numeric)
    rows = "\n".join(_row_html("td", row, t.numeric) for row in t.shown.itertuples(index=False))
    caption_id = f"table-{t.name}-caption"
    caption = f'<figcaption id="{_esc(caption_id)}">{inline_html(t.caption)}</figcaption>\n' if t.caption else ""
    label = f' aria-labelledby="{_esc(caption_id)}"' if t.caption else f' aria-label="{_esc(t.name)}"'
    dense = ' class="dense"' if t.dense else ""
    table = (f'<div class="scroll" role="region" tabindex="0"{label}>\n<table{dense}>\n<thead>{head}</thead>\n'
             f"<tbody>\n{rows}\n</tbody>\n</table>\n</div>")
    if t.folded:
        count = f"{len(t.shown):,} rows" if len(t.shown) == len(t.data) else f"{len(t.shown):,} of {len(t.data):,} rows"
        table = f"<details>\n<summary>Show the table ({count})</summary>\n{table}\n</details>"
    return (f'<figure class="table" id="table-{_esc(t.name)}">\n{caption}{table}\n<p class="source">All columns: '
            f'<a href="tables/{t.name}.csv">tables/{t.name}.csv</a></p>\n</figure>')


# --- parts as Markdown and HTML


def _part_md(part: Any) -> list[str]:
    if isinstance(part, _Heading):
        return ["#" * part.level + " " + part.text]
    if isinstance(part, _Text):
        return [part.markdown.strip("\n")]
    if isinstance(part, _Note):
        return ["> " + line if line.strip() else ">" for line in f"**Note:** {part.markdown.strip()}".splitlines()]
    if isinstance(part, _Table):
        return _table_md(part)
    alt = part.alt.replace("[", "(").replace("]", ")")
    return [f"![{alt}](figures/{part.name}.png)"] + (["", part.caption] if part.caption else [])


def _part_html(part: Any) -> str:
    if isinstance(part, _Heading):
        return f'<h{part.level} id="{part.anchor}">{inline_html(part.text)}</h{part.level}>'
    if isinstance(part, _Text):
        return markdown_html(part.markdown)
    if isinstance(part, _Note):
        return f'<aside class="note" role="note">\n{markdown_html(part.markdown)}\n</aside>'
    if isinstance(part, _Table):
        return _table_html(part)
    data = base64.b64encode(part.png).decode("ascii")
    caption = f"\n<figcaption>{inline_html(part.caption)}</figcaption>" if part.caption else ""
    text_px = f' data-min-text-px="{part.min_text_px:.2f}"' if part.min_text_px is not None else ""
    return (f'<figure class="chart" id="figure-{_esc(part.name)}">\n<img src="data:image/png;base64,{data}" '
            f'width="{part.width}" height="{part.height}"{text_px} alt="{_esc(part.alt)}">{caption}\n</figure>')


# --- files


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _write_text(path: str, text: str) -> None:
    Path(path).write_text(text, encoding="utf-8", newline="\n")


def _check_replaceable(directory: Path) -> None:
    if directory.is_symlink() or (directory.exists() and not directory.is_dir()):
        raise FileExistsError(f"{directory} exists and is not a directory")
    if directory.is_dir() and any(directory.iterdir()) and not (directory / "index.html").is_file():
        raise FileExistsError(f"{directory} holds files but no report (no index.html); not replacing it")


def _replace_dir(new: Path, directory: Path) -> None:
    """Move ``new`` onto ``directory``: rename the old one aside, rename the new one in, delete the old one."""
    if not directory.exists():
        os.replace(new, directory)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{directory.name}.old-", dir=directory.parent))
    os.replace(directory, old / "report")
    try:
        os.replace(new, directory)
    except BaseException:
        os.replace(old / "report", directory)  # put the previous report back
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)


# --- page


_PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
{css}
</style>
</head>
<body>
<main>
{body}
</main>
</body>
</html>
"""

_CSS = """\
:root { --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --stripe: #f6f8fa; --accent: #0969da;
        --note-bg: #fff8c5; --note-line: #d4a72c; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: #fff; font: 16px/1.55 system-ui, -apple-system, "Segoe UI",
       Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: calc(__CONTENT__px + 4rem); margin: 0 auto; padding: 2rem 2rem 4rem; }
main > p, main > ul, main > ol, main > aside, header > *, nav.toc, figcaption, p.source { max-width: __TEXT__; }
h1 { font-size: 2rem; line-height: 1.2; margin: 0 0 .5rem; }
h2 { font-size: 1.5rem; margin: 2.5rem 0 .75rem; padding-bottom: .3rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1.2rem; margin: 2rem 0 .5rem; }
h4, h5, h6 { font-size: 1rem; margin: 1.5rem 0 .5rem; }
a { color: var(--accent); }
code { font: .875em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--stripe);
       padding: .1em .3em; border-radius: 4px; }
.subtitle { color: var(--muted); font-size: 1.1rem; margin: 0 0 .75rem; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0 0 1rem;
          color: var(--muted); font-size: .9rem; }
dl.meta dt { font-weight: 600; }
dl.meta dd { margin: 0; }
nav.toc { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1.25rem; margin: 1.5rem 0;
          background: var(--stripe); }
nav.toc p { margin: 0 0 .25rem; font-weight: 600; }
nav.toc ol { margin: 0; padding-left: 1.25rem; columns: 2 16rem; column-gap: 2.5rem; }
aside.note { border-left: 4px solid var(--note-line); background: var(--note-bg); padding: .5rem 1rem;
             margin: 1rem 0; border-radius: 0 6px 6px 0; }
aside.note p { margin: .4rem 0; }
aside.warning { border: 2px solid #cf222e; border-left-width: 6px; background: #ffebe9; padding: .5rem 1rem;
               margin: 1rem 0 1.5rem; border-radius: 6px; }
aside.warning p { margin: .4rem 0; }
figure { margin: 1.25rem 0 1.75rem; }
figure.chart img { display: block; max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: .9rem; }
figure.chart figcaption { margin-top: .4rem; }
figure.table figcaption { margin-bottom: .4rem; }
div.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; font-size: .875rem; line-height: 1.4; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid var(--line); padding: .25rem .4rem; text-align: left; vertical-align: top; }
th { background: #eef1f4; font-weight: 600; }
th span.h { display: inline-block; max-width: 8em; }
tbody tr:nth-child(even) { background: var(--stripe); }
.num { text-align: right; }
td.num { white-space: nowrap; }
td.num.iv { white-space: normal; }
td.num.iv span { white-space: nowrap; }
table.dense { font-size: .8rem; }
table.dense th, table.dense td { padding: .2rem .25rem; }
details > summary { cursor: pointer; color: var(--accent); margin: 0 0 .4rem; }
details[open] > summary { margin-bottom: .6rem; }
p.source { font-size: .8rem; color: var(--muted); margin: .3rem 0 0; }
@media (max-width: 40rem) { main { padding: 1rem .75rem 3rem; } }
@media print { main { max-width: none; } a { color: inherit; } }"""
_CSS = _CSS.replace("__CONTENT__", str(CONTENT_WIDTH_PX)).replace("__TEXT__", TEXT_WIDTH)
