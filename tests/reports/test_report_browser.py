"""A built report renders in headless Chromium: every image loads, no script or console errors; and
it reads well at a 1280 px window: no table or figure wider than the content box, no caption cut off,
figure text at least 9 px as displayed. Every committed example report is checked the same way.

A missing browser fails these tests (`make test` installs Chromium).
"""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from bgsim.reports.charts import legend_below, panel_grid
from bgsim.reports.report_builder import CONTENT_WIDTH_PX, Report
from matplotlib.figure import Figure

from tests.reports.browser import MIN_TEXT_PX, check_page

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "reports" / "examples").glob("*/index.html"))

_BROKEN_IMAGE = '<img src="data:image/png;base64,bm90IGEgcG5n" alt="broken">'


def _chart(kind: str) -> Figure:
    fig = Figure(figsize=(5, 3))
    ax = fig.subplots()
    if kind == "bar":
        ax.bar(["seat 1", "seat 2", "seat 3"], [0.41, 0.33, 0.26])
    else:
        ax.plot([0, 1, 2, 3], [0.5, 0.52, 0.49, 0.51], marker="o")
    ax.set_title(kind)
    return fig


def _build(directory: Path) -> Path:
    rep = Report(title="Browser check", subtitle="two charts, two tables")
    rep.heading("Seats")
    rep.text("Win rate per seat, with **intervals**.")
    rep.table(pd.DataFrame({"seat": [1, 2, 3], "win_rate": [0.41, 0.33, 0.26], "win_rate_low": [0.40, 0.32, 0.25],
                            "win_rate_high": [0.42, 0.34, 0.27]}), name="seats", rates=["win_rate"])
    rep.figure(_chart("bar"), name="seats_bar", caption="Win rate per seat.")
    rep.heading("Trend")
    rep.note("Illustration only.")
    rep.table(pd.DataFrame({"step": [0, 1, 2, 3], "value": [0.5, 0.52, 0.49, 0.51]}), name="trend")
    rep.figure(_chart("line"), name="trend_line", caption="A line.")
    return rep.write(directory)


def test_report_renders_cleanly(browser: str, tmp_path: Path):
    page = _build(tmp_path / "report")
    result = check_page(page, browser)
    assert result.ok, "\n".join(result.problems)
    assert len(result.images) == 2
    assert all(img["naturalWidth"] > 0 for img in result.images)


def test_check_detects_broken_image_and_errors(browser: str, tmp_path: Path):
    """The check can fail: a bad data URI, an exception and a console error are all reported."""
    good = _build(tmp_path / "report").read_text()
    broken = tmp_path / "broken.html"
    broken.write_text(good.replace("</main>", f"{_BROKEN_IMAGE}\n</main>"))
    result = check_page(broken, browser)
    assert not result.ok
    assert len(result.broken_images) == 1 and len(result.images) == 3
    assert any(e["kind"] == "resource" for e in result.errors)

    scripted = tmp_path / "scripted.html"
    scripted.write_text(good.replace("</main>", "<script>console.error('bad state'); undefinedFunction();</script>"
                                                "\n</main>"))
    result = check_page(scripted, browser)
    assert not result.ok and not result.broken_images
    messages = [e["message"] for e in result.errors]
    assert any(e["kind"] == "console" and "bad state" in e["message"] for e in result.errors), messages
    assert any(e["kind"] == "js" and "undefinedFunction" in e["message"] for e in result.errors), messages


def test_no_summary_is_a_failure(tmp_path: Path):
    """A browser that prints no page (crashed, or the page never loaded) fails the check; the Python
    interpreter stands in for one that exits at once with an error."""
    page = tmp_path / "page.html"
    page.write_text("<!DOCTYPE html><html><head><meta charset='utf-8'></head><body></body></html>")
    result = check_page(page, sys.executable)
    assert not result.ok and not result.loaded
    assert "did not finish loading" in result.problems[0]


# --- layout


@pytest.mark.parametrize("page", EXAMPLES, ids=[p.parent.name for p in EXAMPLES])
def test_committed_example_reads_well_at_1280_px(browser: str, page: Path):
    result = check_page(page, browser, width=1280)
    assert result.ok, "\n".join(result.problems)
    assert result.readable, "\n".join(result.layout_problems)


def _wide_report(directory: Path) -> Path:
    """A report with what used to overflow: a table of many interval columns, a long table, a long
    caption, and a nine-panel figure laid out by the chart rules."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"players": np.repeat([2, 3, 4], 10), "population": "a mixed population of four"})
    rates = [f"rate_{i}" for i in range(8)]  # as many interval columns as the seat-order report's card table
    for col in rates:
        frame[col] = rng.uniform(0.1, 0.9, len(frame))
        frame[f"{col}_low"], frame[f"{col}_high"] = frame[col] - 0.05, frame[col] + 0.05
    frame["note"] = "a long explanation in words that must wrap inside its cell rather than widen the table"
    rep = Report("Wide", subtitle="tables and figures at the content width")
    rep.heading("Tables")
    rep.table(frame, "wide", "A caption long enough to need two lines at any width: " + "many words " * 30,
              rates=rates, columns={c: f"win rate under the variant {c}" for c in rates})
    rep.table(frame.head(3), "short", "Three rows, not folded.", rates=rates)
    fig, axes = panel_grid(9)
    for i, ax in enumerate(axes):
        ax.bar(range(4), rng.uniform(0, 1, 4), label=f"series {i % 3}")
        ax.set_title(f"panel {i}")
    legend_below(fig, axes)
    rep.figure(fig, "nine_panels", "Nine panels, three to a row.")
    return rep.write(directory)


def test_wide_tables_and_many_panels_fit_the_content_box(browser: str, tmp_path: Path):
    result = check_page(_wide_report(tmp_path / "report"), browser, width=1280)
    assert result.ok, result.problems
    assert result.readable, result.layout_problems
    layout = result.layout
    assert layout["contentWidth"] == CONTENT_WIDTH_PX
    assert [t["rows"] for t in layout["tables"]] == [31, 4]
    assert 'table class="dense"' in (tmp_path / "report" / "index.html").read_text()
    assert not any(t["scrolls"] for t in layout["tables"])
    figure = layout["figures"][0]
    assert figure["width"] == figure["naturalWidth"] <= CONTENT_WIDTH_PX  # shown at its natural size
    assert figure["displayedMinTextPx"] >= MIN_TEXT_PX
    assert layout["shownHeight"] < layout["openHeight"] - 500, "the long table is folded until opened"


def test_on_a_small_screen_a_wide_table_scrolls_in_its_own_box(browser: str, tmp_path: Path):
    result = check_page(_wide_report(tmp_path / "report"), browser, width=560)
    layout = result.layout
    assert layout["pageWidth"] <= layout["viewportWidth"], "the page itself never scrolls sideways"
    wide = layout["tables"][0]
    assert wide["scrolls"] and wide["width"] > layout["contentWidth"]
    assert not [c for c in layout["captions"] if c["clippedBy"] or c["scrollWidth"] > c["clientWidth"]]


_BAD_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>bad</title>
<style>main {{ max-width: 600px; margin: 0 auto; }} div.box {{ overflow: hidden; }}</style></head>
<body><main>
<table><caption>too wide</caption><tr><td style="white-space: nowrap">{cell}</td></tr></table>
<div class="box"><table><caption style="white-space: nowrap">{cell}</caption><tr><td>x</td></tr></table></div>
<figure><img src="{png}" data-min-text-px="10" style="width: 200px"><figcaption>shrunk</figcaption></figure>
<figure><img src="{png}" style="width: 300px"><figcaption>text size from the PNG</figcaption></figure>
<figure><img src="{plain_png}"><figcaption>no text size</figcaption></figure>
</main></body></html>"""


def _plain_png() -> str:
    """A chart saved by matplotlib itself: no text size recorded."""
    import base64
    import io

    buffer = io.BytesIO()
    _chart("bar").savefig(buffer, format="png", dpi=50)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def test_layout_check_fails_on_a_bad_page(browser: str, tmp_path: Path):
    """The check can fail: a table wider than the content box, a caption cut off by its container, a
    figure shrunk until its text is below 9 px (by the img attribute, or by the PNG's own text chunk),
    and a figure that records no text size."""
    report = _build(tmp_path / "report")
    png = report.read_text().split('<img src="', 1)[1].split('"', 1)[0]  # 600 px wide, smallest text 16.67 px
    bad = tmp_path / "bad.html"
    bad.write_text(_BAD_PAGE.format(cell="a cell far too long to fit " * 8, png=png, plain_png=_plain_png()))
    result = check_page(bad, browser)
    assert result.ok, result.problems  # it loads cleanly: only the layout is wrong
    problems = result.layout_problems
    assert any(p.startswith("table 'too wide' is") and "content box is 600 px" in p for p in problems), problems
    assert any(p.startswith("caption 'a cell far too long") and "cut off by its container div.box" in p
               for p in problems), problems
    assert any(p.startswith("figure 'shrunk': its smallest text is 3.3 px as shown") for p in problems), problems
    assert any(p.startswith("figure 'text size from the PNG': its smallest text is 8.3 px as shown")
               for p in problems), problems
    assert any(p.startswith("figure 'no text size' records no text size") for p in problems), problems
    assert any(p.startswith("the page is") and "wider than the window" in p for p in problems), problems
    assert not result.readable
