"""The report builder: files written, self-contained HTML, names, intervals, escaping, determinism."""

import base64
import csv
import re
from pathlib import Path

import matplotlib
import pandas as pd
import polars as pl
import pytest
from bgsim.reports.report_builder import (
    CONTENT_WIDTH_PX,
    FOLD_ROWS,
    Report,
    _unbreakable,
    figure_font_sizes,
    fmt_mean,
    fmt_rate,
    inline_html,
    markdown_html,
)
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.figure import Figure

SEATS = pd.DataFrame({
    "seat": [1, 2, 3],
    "games": [10_000, 10_000, 10_000],
    "win_rate": [0.512, 0.3, 0.188],
    "win_rate_low": [0.502, 0.291, 0.180],
    "win_rate_high": [0.522, 0.309, 0.196],
    "mean_score": [113.14, 101.0, 97.25],
    "mean_score_low": [112.4, 100.1, 96.5],
    "mean_score_high": [113.8, 101.9, 98.0],
})


def _chart(values: list[float]) -> Figure:
    fig = Figure(figsize=(4, 3))
    ax = fig.subplots()
    ax.bar(range(len(values)), values)
    ax.set_title("win rate per seat")
    return fig


def _report() -> Report:
    rep = Report(title="Seat order", subtitle="carpe_diem, 10,000 games", meta={"Seed": "7"})
    rep.heading("3 players", level=2)
    rep.text("Seat 1 wins **more often**; see `seat`.\n\n- first\n- second")
    rep.table(SEATS, name="seats_3p", caption="Per seat.", columns={"win_rate": "win rate"},
              rates=["win_rate"], means=["mean_score"])
    rep.figure(_chart([0.512, 0.3, 0.188]), name="seat_win_rates", caption="Win rate per seat.")
    rep.heading("Pairs", level=2)
    rep.note("Too few games to claim a difference between seats 2 and 3.")
    rep.table(pl.DataFrame({"a": ["x", "y"], "share": [0.25, 0.75]}), name="pairs", formats={"share": ".2f"})
    rep.figure(_chart([1, 2]), name="pairs_chart")
    return rep


@pytest.fixture
def written(tmp_path: Path) -> Path:
    return _report().write(tmp_path / "report")


def test_formatting_helpers():
    assert fmt_rate(0.512, 0.502, 0.522) == "51.2 % [50.2, 52.2]"
    assert fmt_mean(113.14, 112.4, 113.8) == "113.1 [112.4, 113.8]"
    assert fmt_mean(2.5, 2.25, 2.75, digits=2) == "2.50 [2.25, 2.75]"
    assert fmt_rate(float("nan"), 0.1, 0.2) == "–"
    assert fmt_rate(0.5, float("nan"), float("nan")) == "50.0 % –"


def test_an_interval_at_0_or_100_percent_never_prints_as_a_point():
    assert fmt_rate(1.0, 0.99968, 1.0) == "100.0 % [99.97, 100.0]"
    assert fmt_rate(0.0, 0.0, 0.00032) == "0.0 % [0.0, 0.03]"
    assert fmt_rate(1.0, 0.99968, 1.0 - 1e-15) == "100.0 % [99.97, 100.0]"


def test_100_percent_with_its_interval_99_97_to_99_99_rounded_the_point_outside():
    assert fmt_rate(0.99985, 0.9997, 0.9999) == "99.98 % [99.97, 99.99]"
    assert fmt_rate(0.9996, 0.9990, 0.9999) == "99.96 % [99.90, 99.99]"


@given(st.floats(0, 1), st.floats(0, 1), st.floats(0, 1))
def test_a_printed_rate_lies_inside_its_printed_interval(a, b, c):
    low, p, high = sorted((a, b, c))
    rate, interval = fmt_rate(p, low, high).split(" % ")
    lower, upper = (float(x) for x in interval.strip("[]").split(", "))
    assert lower <= float(rate) <= upper


def test_files_written(written: Path):
    root = written.parent
    assert written.name == "index.html"
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == [
        "figures", "figures/pairs_chart.png", "figures/seat_win_rates.png", "index.html", "index.md",
        "tables", "tables/pairs.csv", "tables/seats_3p.csv"]
    for png in root.glob("figures/*.png"):
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert not list(root.parent.glob(".report.*")), "no temporary directory left behind"


def test_csv_has_every_column_unformatted(written: Path):
    with open(written.parent / "tables" / "seats_3p.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == list(SEATS.columns)
    assert rows[0]["win_rate"] == "0.512" and rows[0]["win_rate_low"] == "0.502" and rows[0]["games"] == "10000"
    assert (written.parent / "tables" / "pairs.csv").read_text() == "a,share\nx,0.25\ny,0.75\n"


def test_markdown(written: Path):
    md = (written.parent / "index.md").read_text()
    assert md.startswith("# Seat order\n")
    assert "- [3 players](#3-players)\n- [Pairs](#pairs)" in md
    assert "| seat | games | win rate | mean_score |\n|---:|---:|---:|---:|" in md
    assert "| 1 | 10,000 | 51.2 % [50.2, 52.2] | 113.1 [112.4, 113.8] |" in md
    assert "| x | 0.25 |" in md
    assert "![Win rate per seat.](figures/seat_win_rates.png)" in md
    assert "> **Note:** Too few games" in md
    assert "(tables/seats_3p.csv)" in md


def test_html_is_self_contained(written: Path):
    page = written.read_text()
    resources = re.findall(r"""<(?:img|script|link|iframe|source|embed|object|video|audio)\b[^>]*>""", page)
    for tag in resources:
        assert not re.search(r"""(src|href|data)\s*=\s*["']?(https?:)?//""", tag), tag
    assert "<script" not in page
    assert not re.search(r"url\(\s*['\"]?(https?:)?//", page), "no external CSS resources"
    assert "@import" not in page


def test_every_figure_embedded(written: Path):
    page = written.read_text()
    embedded = re.findall(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    files = sorted((written.parent / "figures").glob("*.png"))
    assert len(embedded) == len(files) == 2
    assert {base64.b64decode(data) for data in embedded} == {f.read_bytes() for f in files}


def test_html_content(written: Path):
    page = written.read_text()
    assert '<nav class="toc"' in page and '<a href="#3-players">3 players</a>' in page
    assert '<h2 id="pairs">Pairs</h2>' in page
    assert '<td class="num iv"><span>51.2 %</span> <span>[50.2, 52.2]</span></td>' in page
    assert '<a href="tables/seats_3p.csv">' in page
    assert '<aside class="note" role="note">' in page
    assert "<strong>more often</strong>" in page and "<code>seat</code>" in page
    assert "<ul>\n<li>first</li>\n<li>second</li>\n</ul>" in page


def test_duplicate_names_rejected():
    rep = Report("r")
    rep.table(SEATS, name="seats", rates=["win_rate"])
    with pytest.raises(ValueError, match="already used"):
        rep.table(SEATS, name="seats", rates=["win_rate"])
    with pytest.raises(ValueError, match="already used"):
        rep.table(SEATS, name="SEATS", rates=["win_rate"])
    rep.figure(_chart([1]), name="chart")
    with pytest.raises(ValueError, match="already used"):
        rep.figure(_chart([1]), name="chart")


@pytest.mark.parametrize("name", ["", "../x", "a/b", "a b", ".hidden", "x.", "é", "a" * 101])
def test_unsafe_names_rejected(name: str):
    with pytest.raises(ValueError, match="name"):
        Report("r").table(SEATS, name=name, rates=["win_rate"])


def test_rate_without_interval_rejected():
    rep = Report("r")
    with pytest.raises(ValueError, match="win_rate_low and win_rate_high"):
        rep.table(SEATS[["seat", "win_rate"]], name="t", rates=["win_rate"])
    with pytest.raises(ValueError, match="mean_score_high"):
        rep.table(SEATS.drop(columns="mean_score_high"), name="t", means=["mean_score"], rates=["win_rate"])
    with pytest.raises(ValueError, match="not in the table"):
        rep.table(SEATS, name="t", rates=["loss_rate"])


def test_rate_shown_with_its_interval_only():
    md = Report("r").table(SEATS, name="t", rates=["win_rate"], show=["seat", "win_rate"]).markdown()
    assert "| seat | win_rate |" in md and "| 2 | 30.0 % [29.1, 30.9] |" in md


def test_unknown_column_rejected():
    with pytest.raises(ValueError, match="no column 'nope'"):
        Report("r").table(SEATS, name="t", rates=["win_rate"], columns={"nope": "x"})


def test_escaping():
    rep = Report("A <b>bold</b> & title", subtitle="x < y")
    rep.heading("<script>alert(1)</script>")
    rep.text("Tags <img src=x onerror=alert(1)> & [click](javascript:alert(1)) and [ok](https://example.org/?a=1&b=2)")
    rep.table(pd.DataFrame({"<col>": ["<td>&amp;", "a|b"]}), name="t", caption="<i>c</i>")
    rep.note("<script>x</script>")
    page = rep.html()
    body = page.split("</style>", 1)[1]
    assert "<script" not in body and "<img src=x" not in body and "<b>" not in body and "<i>" not in body
    assert "<title>A &lt;b&gt;bold&lt;/b&gt; &amp; title</title>" in page
    assert "&lt;img src=x onerror=alert(1)&gt; &amp;" in body
    assert '<a href="#">click</a>' in body, "javascript: links are neutralised"
    assert '<a href="https://example.org/?a=1&amp;b=2">ok</a>' in body
    assert "<th>&lt;col&gt;</th>" in body and "<td>&lt;td&gt;&amp;amp;</td>" in body
    assert "| a\\|b |" in rep.markdown()


def test_markdown_subset():
    assert inline_html("**a** *b* `c<d>` \\*e\\*") == "<strong>a</strong> <em>b</em> <code>c&lt;d&gt;</code> *e*"
    assert inline_html("[x](tables/a.csv)") == '<a href="tables/a.csv">x</a>'
    assert inline_html("snake_case_name 2 * 3") == "snake_case_name 2 * 3"
    assert markdown_html("Intro:\n- a\n  continued\n- b\n\n1. one\n2. two\n\nEnd") == (
        "<p>Intro:</p>\n<ul>\n<li>a continued</li>\n<li>b</li>\n</ul>\n<ol>\n<li>one</li>\n<li>two</li>\n</ol>\n"
        "<p>End</p>")


def test_repeated_headings_get_distinct_anchors():
    rep = Report("r").heading("Results").heading("Results").heading("Results", level=3)
    assert all(f'id="{a}"' in rep.html() for a in ("results", "results-1", "results-2"))


def test_deterministic(tmp_path: Path):
    first = _report().write(tmp_path / "a").parent
    second = _report().write(tmp_path / "b").parent
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    for rel in files:
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel
    png = (first / "figures" / "pairs_chart.png").read_bytes()
    assert b"Software" not in png and b"matplotlib" not in png.lower()


def test_rewrite_replaces_report(tmp_path: Path):
    target = tmp_path / "report"
    _report().write(target)
    Report("second").write(target)
    assert sorted(p.name for p in target.iterdir()) == ["index.html", "index.md"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report"], "no temporary or old directories left"


def test_refuses_to_replace_other_directories(tmp_path: Path):
    (tmp_path / "notes.txt").write_text("keep me")
    with pytest.raises(FileExistsError, match="no report"):
        Report("r").write(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_figures_closed():
    import matplotlib.pyplot as plt

    with matplotlib.rc_context({"backend": "Agg"}):
        before = len(plt.get_fignums())
        rep = Report("r")
        for i in range(5):
            fig, ax = plt.subplots()
            ax.plot([0, i])
            rep.figure(fig, name=f"f{i}")
        assert len(plt.get_fignums()) == before


def test_head_limits_the_shown_rows_but_not_the_csv(tmp_path):
    frame = pd.DataFrame({"x": range(50)})
    path = Report("Long").table(frame, "long", "Many rows.", head=10).write(tmp_path / "rep")
    html = path.read_text()
    assert "First 10 of 50 rows" in html and ">9<" in html and ">10<" not in html
    assert len(pd.read_csv(tmp_path / "rep" / "tables" / "long.csv")) == 50


# --- layout: folded tables, captions outside the scrolling box, wrapping intervals, figure text sizes


def _rows(n: int) -> pd.DataFrame:
    return pd.DataFrame({"x": range(n), "rate": [0.5] * n, "rate_low": [0.4] * n, "rate_high": [0.6] * n})


def test_long_tables_are_folded_with_their_rows_count():
    rep = Report("r")
    rep.table(_rows(FOLD_ROWS), "short", "Short.", rates=["rate"])
    rep.table(_rows(FOLD_ROWS + 1), "long", "Long.", rates=["rate"])
    rep.table(_rows(50), "cut", "Cut.", rates=["rate"], head=20)
    page = rep.html()
    assert page.count("<details>") == 2
    short = page.split('id="table-short"')[1].split("</figure>")[0]
    long = page.split('id="table-long"')[1].split("</figure>")[0]
    assert "<details>" not in short
    assert f"<summary>Show the table ({FOLD_ROWS + 1} rows)</summary>" in long
    assert "<summary>Show the table (20 of 50 rows)</summary>" in page
    # the caption and the CSV link stay outside the fold
    order = [long.index(part) for part in ("<figcaption", "<details>", "</details>", "tables/long.csv")]
    assert order == sorted(order)
    md = rep.markdown()  # the Markdown keeps every row and the CSV link
    assert f"| {FOLD_ROWS} | 50.0 % [40.0, 60.0] |" in md and "(tables/long.csv)" in md


def test_callers_choose_when_to_fold():
    rep = Report("r", fold_rows=3)
    rep.table(_rows(4), "by_report", rates=["rate"])
    rep.table(_rows(30), "never", rates=["rate"], fold=False)
    rep.table(_rows(2), "always", rates=["rate"], fold=True)
    rep.table(_rows(6), "own_threshold", rates=["rate"], fold=5)
    rep.table(_rows(5), "under_own_threshold", rates=["rate"], fold=5)
    page = rep.html()
    folded = {name for name in ("by_report", "never", "always", "own_threshold", "under_own_threshold")
              if "<details>" in page.split(f'id="table-{name}"')[1].split("</figure>")[0]}
    assert folded == {"by_report", "always", "own_threshold"}
    with pytest.raises(TypeError, match="fold"):
        rep.table(_rows(2), "bad", rates=["rate"], fold="yes")


def test_caption_is_a_block_outside_the_scrolling_box():
    page = Report("r").table(SEATS, "seats", "A long caption that must wrap, never scroll.", rates=["win_rate"]).html()
    block = page.split('id="table-seats"')[1].split("</figure>")[0]
    assert "<caption" not in page
    caption = block.index('<figcaption id="table-seats-caption">A long caption')
    scroll = block.index('<div class="scroll" role="region" tabindex="0" aria-labelledby="table-seats-caption">')
    assert caption < scroll < block.index("<table>")
    assert re.search(r"div\.scroll \{ overflow-x: auto;", page)
    assert not re.search(r"figcaption[^}]*overflow", page), "the caption itself never scrolls or clips"


def test_interval_cells_may_wrap_only_between_value_and_interval():
    page = _report().html()
    assert '<td class="num iv"><span>113.1</span> <span>[112.4, 113.8]</span></td>' in page
    assert '<td class="num">10,000</td>' in page
    assert "td.num { white-space: nowrap; }" in page and "td.num.iv span { white-space: nowrap; }" in page
    assert "td.num.iv { white-space: normal; }" in page


def test_a_note_after_an_interval_wraps_between_its_words_and_does_not_widen_the_table():
    """The balance finalists' seat imbalance, "2.5 pp² [0.82, 5.4] (seats' RMS gap at most 2.3 pp)", was one
    unbreakable piece, and its table ran 1,419 px wide in a 1,152 px page."""
    frame = pd.DataFrame({"imbalance": [2.5], "imbalance_low": [0.82], "imbalance_high": [5.4]})
    note = lambda v, lo, hi: f"{v} pp² [{lo}, {hi}] (seats' RMS gap at most 2.3 pp)"  # noqa: E731
    page = Report("r").table(frame, "t", means=["imbalance"], formats={"imbalance": note}).html()
    assert ('<td class="num iv"><span>2.5 pp²</span> <span>[0.82, 5.4]</span> (seats&#x27;'
            in page.replace("&#39;", "&#x27;"))
    assert _unbreakable("2.5 pp² [0.82, 5.4] (seats' RMS gap at most 2.3 pp)", True) == len("[0.82, 5.4]")


def test_a_table_too_wide_for_the_content_box_at_its_narrowest_is_set_dense():
    wide = SEATS[["seat", "games"]].copy()
    for i in range(4):  # 8 interval columns
        for col in ("win_rate", "mean_score"):
            for part in ("", "_low", "_high"):
                wide[f"{col}{i}{part}"] = SEATS[f"{col}{part}"]
    rep = Report("r").table(wide, "wide", rates=[f"win_rate{i}" for i in range(4)],
                            means=[f"mean_score{i}" for i in range(4)])
    rep.table(SEATS, "narrow", rates=["win_rate"], means=["mean_score"])
    page = rep.html()
    assert page.split('id="table-wide"')[1].count('<table class="dense">') == 1
    assert '<table class="dense">' not in page.split('id="table-narrow"')[1]
    assert "table.dense { font-size: .8rem; }" in page


def test_long_column_labels_wrap_but_keep_their_interval_label_together():
    page = Report("r").table(SEATS, "t", rates=["win_rate"], columns={"win_rate": "win rate [95 % CI]",
                                                                     "games": "games"}).html()
    assert '<th class="num"><span class="h">win rate [95&nbsp;%&nbsp;CI]</span></th>' in page
    assert '<th class="num">games</th>' in page  # short labels stay as they are
    assert "th span.h { display: inline-block; max-width: 8em; }" in page


def test_tables_and_figures_get_the_wide_content_box_and_text_a_readable_measure():
    page = Report("r").html()
    assert f"main {{ max-width: calc({CONTENT_WIDTH_PX}px + 4rem);" in page
    assert ("main > p, main > ul, main > ol, main > aside, header > *, nav.toc, figcaption, p.source "
            "{ max-width: 60rem; }") in page


def _texts_chart() -> Figure:
    fig = Figure(figsize=(4, 3))
    ax = fig.subplots()
    ax.bar([1, 2], [3, 4], label="bars")
    ax.set_title("title", fontsize=8)
    ax.legend(fontsize=9, loc="upper left")
    hidden = fig.text(0.5, 0.5, "hidden", fontsize=2)
    hidden.set_visible(False)
    off = fig.add_axes((0.8, 0.8, 0.1, 0.1))
    off.axis("off")  # its tick labels (default 10 pt) are not drawn
    off.set_title("", fontsize=1)  # empty text is not drawn either
    return fig


def test_figure_font_sizes_count_only_drawn_text():
    sizes = figure_font_sizes(_texts_chart())
    assert min(sizes) == 8 and 9 in sizes and 10 in sizes  # title, legend, tick labels
    assert 2 not in sizes and 1 not in sizes


def test_figure_records_its_smallest_text_in_png_pixels(tmp_path: Path):
    rep = Report("r")
    rep.figure(_texts_chart(), "default_dpi")
    rep.figure(_texts_chart(), "low_dpi", dpi=60)
    written = rep.write(tmp_path / "rep")
    page = written.read_text()
    assert 'width="480" height="360" data-min-text-px="13.33"' in page  # 8 pt at 120 dpi
    assert 'width="240" height="180" data-min-text-px="6.67"' in page
    for name, px in (("default_dpi", "13.33"), ("low_dpi", "6.67")):
        png = (tmp_path / "rep" / "figures" / f"{name}.png").read_bytes()
        assert b"tEXtbgsim:min-text-px\x00" + px.encode() in png


def test_a_figure_without_text_records_none():
    fig = Figure(figsize=(2, 2))
    fig.subplots().axis("off")
    page = Report("r").figure(fig, "blank").html()
    assert "data-min-text-px" not in page and 'width="240" height="240"' in page


def test_csv_floats_keep_10_significant_digits_so_reports_do_not_churn(tmp_path):
    rep = Report("t")
    rep.table(pd.DataFrame({"x": [0.6814369470202819, 1 / 3, 2.0]}), "t")
    rep.write(tmp_path / "r")
    a = (tmp_path / "r" / "tables" / "t.csv").read_text()
    rep = Report("t")
    rep.table(pd.DataFrame({"x": [0.6814369470202815, 1 / 3, 2.0]}), "t")  # the same sum, other order
    rep.write(tmp_path / "r")
    assert (tmp_path / "r" / "tables" / "t.csv").read_text() == a == "x\n0.681436947\n0.3333333333\n2\n"


def test_tables_printed_n_players_as_a_column_heading(tmp_path):
    rep = Report("t")
    rep.table(pd.DataFrame({"n_players": [2, 3], "games": [10, 20]}), "counts")
    assert "| players | games |" in rep.markdown()
    rep.write(tmp_path / "report")
    assert (tmp_path / "report" / "tables" / "counts.csv").read_text().startswith("n_players,games")
