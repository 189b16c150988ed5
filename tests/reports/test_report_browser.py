"""A built report renders in headless Chromium: every image loads, no script or console errors.

Skipped when no Chromium-family browser is installed, unless BGSIM_REQUIRE_BROWSER=1 (as in CI),
where a missing browser fails instead of passing silently.
"""

import sys
from pathlib import Path

import pandas as pd
from bgsim.reports.report_builder import Report
from matplotlib.figure import Figure

from tests.reports.browser import check_page

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
