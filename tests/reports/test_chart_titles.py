"""No figure of a report has its title (or any text) cut off (issue: the score box plot's title was cut on
both sides in the PNG when its figure was narrow).

The browser test checks figure titles as a reader sees them: a report of the charts at their narrowest
is rendered in headless Chromium, and every figure image is drawn into a canvas; a text cut by the
image's edge leaves ink in its outermost pixels, a laid-out figure leaves a white margin there.
"""

import html
import json
import re
import subprocess
import tempfile
from pathlib import Path

from bgsim.reports.report_builder import Report

from tests.reports.test_chart_layout import CHARTS

NARROW = ["score_distribution_one_player_count", "categories_one_player_count", "compensation_one",
          "compensation_long_names", "robustness_two_variants", "anna_sweep_one_knob", "anna_calibration_one_rung",
          "anna_win_rates", "anna_sources", "ratings", "pairwise", "seat_win_one_player_count"]

_PROBE = """<script>
window.addEventListener("load", function () {
  // A pixel is ink when any channel is clearly darker than the white background.
  function inkAlong(ctx, x, y, w, h) {
    var data = ctx.getImageData(x, y, w, h).data;
    for (var i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 64 && Math.min(data[i], data[i + 1], data[i + 2]) < 200) { return true; }
    }
    return false;
  }
  var found = Array.prototype.map.call(document.images, function (img) {
    var canvas = document.createElement("canvas");
    var w = canvas.width = img.naturalWidth, h = canvas.height = img.naturalHeight;
    var ctx = canvas.getContext("2d");
    ctx.drawImage(img, 0, 0);
    var edges = {top: [0, 0, w, 1], bottom: [0, h - 1, w, 1], left: [0, 0, 1, h], right: [w - 1, 0, 1, h]};
    var cut = Object.keys(edges).filter(function (side) {
      var e = edges[side];
      return inkAlong(ctx, e[0], e[1], e[2], e[3]);
    });
    return {figure: img.closest("figure").id, width: w, height: h, cut: cut};
  });
  var pre = document.createElement("pre");
  pre.id = "figure-edges";
  pre.textContent = JSON.stringify(found);
  document.body.appendChild(pre);
});
</script>"""


def _edges(browser: str, page: Path) -> list[dict]:
    """Per figure image of ``page``: its id, size and the edges its ink touches, as Chromium draws it."""
    probed = page.with_name("probed.html")
    probed.write_text(page.read_text(encoding="utf-8").replace("</body>", _PROBE + "</body>"), encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="bgsim-browser-") as profile:
        dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
                              "--window-size=1280,900", f"--user-data-dir={profile}", "--dump-dom", probed.as_uri()],
                             capture_output=True, text=True, timeout=120, check=False).stdout
    found = re.search(r'<pre id="figure-edges">(.*?)</pre>', dom, re.DOTALL)
    assert found, "the page did not finish loading in the browser"
    return json.loads(html.unescape(found.group(1)))


def _report(directory: Path, names: list[str]) -> Path:
    rep = Report("Chart titles", subtitle="every chart at its narrowest")
    for name in names:
        rep.figure(CHARTS[name](), name, f"The chart {name}.")
    return rep.write(directory)


def test_figure_titles_are_not_cut_in_the_browser(browser: str, tmp_path: Path):
    edges = _edges(browser, _report(tmp_path / "report", NARROW))
    assert [e["figure"] for e in edges] == [f"figure-{name}" for name in NARROW]
    assert all(e["width"] > 0 for e in edges)
    cut = {e["figure"]: e["cut"] for e in edges if e["cut"]}
    assert not cut, f"figures with ink at their edge (a title or label cut off): {cut}"


def test_the_browser_check_finds_a_cut_title(browser: str, tmp_path: Path):
    """The check can fail: a suptitle wider than its figure, as the box plot's used to be."""
    fig = CHARTS["score_distribution_one_player_count"]()
    fig.suptitle("Final points per seat (start vector: rulebook; boxes 25-75 %, whiskers 5-95 %) " * 2)
    rep = Report("Cut", subtitle="a title wider than its figure")
    rep.figure(fig, "cut_title", "A cut title.")
    [edge] = _edges(browser, rep.write(tmp_path / "report"))
    assert {"left", "right"} <= set(edge["cut"]), edge

