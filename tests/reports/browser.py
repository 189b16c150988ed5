"""Render an HTML page in headless Chromium and report broken images, script or console errors, and
layout that is hard to read.

No browser driver is needed: a copy of the page gets a small script at the start of ``<head>`` that
records errors (uncaught exceptions, failed resource loads, ``console.error``) from the first moment,
and at ``load`` writes them, the state of every ``<img>`` and the measured layout as JSON into
``<pre id="bgsim-check">``. Chromium's ``--dump-dom`` prints the DOM after load, and the JSON is read
back from it. A page whose summary is missing (it never finished loading, or the browser failed)
counts as a failure.

The layout is measured in a window ``width`` CSS px wide (1280 by default), first as the page opens
(its height), then with every ``<details>`` opened, so a folded table is measured as a reader who
unfolds it sees it:

- the content box of ``<main>`` (its width without padding);
- every table's and figure image's width: none may be wider than the content box;
- every caption (``<caption>``, ``<figcaption>``): it must not overflow its own box, nor be cut by an
  ancestor that hides or scrolls its overflow;
- every figure's smallest text at its displayed size: the smallest text of the PNG in pixels (the
  ``<img>``'s ``data-min-text-px``, else the PNG's ``bgsim:min-text-px`` text chunk) times displayed
  width / natural width, at least ``MIN_TEXT_PX``.

``PageCheck.problems`` lists load failures, ``PageCheck.layout_problems`` layout failures.
"""

import html
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bgsim.reports.report_builder import MIN_TEXT_PX

__all__ = ["BROWSERS", "MIN_TEXT_PX", "PageCheck", "check_page", "find_browser"]

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_SLACK_PX = 0.5  # sub-pixel rounding of layout sizes

_CHECK_ID = "bgsim-check"
_PROBE = r"""<script>
(function () {
  var errors = [];
  // Capture phase: image and other resource load errors do not bubble, but window sees them here.
  window.addEventListener("error", function (e) {
    var t = e.target;
    if (t && t !== window && t.tagName) {
      errors.push({kind: "resource", tag: t.tagName, src: String(t.currentSrc || t.src || t.href || "").slice(0, 80)});
    } else {
      errors.push({kind: "js", message: String(e.message), source: String(e.filename || ""), line: e.lineno || 0});
    }
  }, true);
  window.addEventListener("unhandledrejection", function (e) {
    errors.push({kind: "js", message: "unhandled rejection: " + String(e.reason)});
  });
  var consoleError = console.error;
  console.error = function () {
    errors.push({kind: "console", message: Array.prototype.map.call(arguments, String).join(" ")});
    return consoleError.apply(console, arguments);
  };

  function words(text) { return String(text || "").replace(/\s+/g, " ").trim().slice(0, 80); }

  // A table or image named by its caption (or alt text), for the problem list.
  function label(el) {
    var box = el.closest("figure") || el;
    var cap = box.querySelector("figcaption, caption");
    return words(cap ? cap.textContent : (el.getAttribute("alt") || el.tagName));
  }

  // The smallest text of a figure in PNG pixels: the builder's data-min-text-px, else the PNG's tEXt chunk.
  function minTextPx(img) {
    var attr = img.getAttribute("data-min-text-px");
    if (attr !== null) { return parseFloat(attr); }
    var src = img.getAttribute("src") || "";
    var prefix = "data:image/png;base64,";
    if (src.indexOf(prefix) !== 0) { return null; }
    var bytes = atob(src.slice(prefix.length));
    var pos = 8;  // after the signature: chunks of length (4 bytes), type (4), data, CRC (4)
    while (pos + 8 <= bytes.length) {
      var len = ((bytes.charCodeAt(pos) << 24) | (bytes.charCodeAt(pos + 1) << 16) |
                 (bytes.charCodeAt(pos + 2) << 8) | bytes.charCodeAt(pos + 3)) >>> 0;
      var type = bytes.slice(pos + 4, pos + 8);
      if (type === "tEXt") {
        var kv = bytes.slice(pos + 8, pos + 8 + len).split("\u0000");
        if (kv[0] === "bgsim:min-text-px") { return parseFloat(kv[1]); }
      }
      if (type === "IEND") { break; }
      pos += 12 + len;
    }
    return null;
  }

  // The first ancestor that hides or scrolls its overflow and cuts off part of el, or null.
  function clippedBy(el) {
    var r = el.getBoundingClientRect();
    for (var a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      var cs = getComputedStyle(a);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") { continue; }
      var ar = a.getBoundingClientRect();
      var left = ar.left + a.clientLeft, top = ar.top + a.clientTop;
      if (r.left < left - 0.5 || r.right > left + a.clientWidth + 0.5 ||
          r.top < top - 0.5 || r.bottom > top + a.clientHeight + 0.5) {
        return a.tagName.toLowerCase() + (a.className ? "." + a.className : "");
      }
    }
    return null;
  }

  function layout() {
    var root = document.documentElement;
    var shownHeight = root.scrollHeight;
    Array.prototype.forEach.call(document.querySelectorAll("details"), function (d) { d.open = true; });
    var main = document.querySelector("main") || document.body;
    var cs = getComputedStyle(main);
    var content = main.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    var tables = Array.prototype.map.call(document.querySelectorAll("table"), function (t) {
      var box = t.parentElement;
      return {label: label(t), width: t.getBoundingClientRect().width, rows: t.rows.length,
              scrolls: box.scrollWidth > box.clientWidth + 0.5};
    });
    var figures = Array.prototype.map.call(document.images, function (img) {
      var width = img.getBoundingClientRect().width;
      var px = minTextPx(img);
      return {label: label(img), width: width, naturalWidth: img.naturalWidth, minTextPx: px,
              displayedMinTextPx: (px === null || !img.naturalWidth) ? null : px * width / img.naturalWidth};
    });
    var captions = Array.prototype.map.call(document.querySelectorAll("caption, figcaption"), function (c) {
      return {label: words(c.textContent), scrollWidth: c.scrollWidth, clientWidth: c.clientWidth,
              clippedBy: clippedBy(c)};
    });
    return {windowWidth: window.innerWidth, viewportWidth: root.clientWidth, pageWidth: root.scrollWidth,
            contentWidth: content, shownHeight: shownHeight, openHeight: root.scrollHeight,
            tables: tables, figures: figures, captions: captions};
  }

  window.addEventListener("load", function () {
    var images = Array.prototype.map.call(document.images, function (img) {
      return {src: String(img.currentSrc || img.src).slice(0, 80), complete: img.complete,
              naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight};
    });
    var measured = null;
    try { measured = layout(); } catch (e) { errors.push({kind: "js", message: "layout probe: " + e}); }
    var pre = document.createElement("pre");
    pre.id = "__CHECK_ID__";
    pre.textContent = JSON.stringify({errors: errors, images: images, layout: measured});
    document.body.appendChild(pre);
  });
})();
</script>
""".replace("__CHECK_ID__", _CHECK_ID)
_SUMMARY = re.compile(rf'<pre id="{_CHECK_ID}">(.*?)</pre>', re.DOTALL)
_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--disable-extensions", "--virtual-time-budget=5000")


@dataclass
class PageCheck:
    """What the browser saw. ``problems`` lists every load failure in words, ``layout_problems`` every
    layout failure; the page loads cleanly if ``ok`` and is laid out readably if ``readable``.

    ``layout`` is the probe's measurement (CSS px): windowWidth, viewportWidth (without the scroll
    bar), pageWidth, contentWidth (of ``<main>``), shownHeight (details closed), openHeight (details
    open), and lists of tables (label, width, rows, scrolls), figures (label, width, naturalWidth,
    minTextPx, displayedMinTextPx) and captions (label, scrollWidth, clientWidth, clippedBy).
    """

    loaded: bool
    images: list[dict] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    layout: dict | None = None
    browser_output: str = field(default="", repr=False)

    @property
    def broken_images(self) -> list[dict]:
        return [img for img in self.images if not img["complete"] or img["naturalWidth"] <= 0]

    @property
    def problems(self) -> list[str]:
        if not self.loaded:
            return [f"the page did not finish loading; browser output:\n{self.browser_output[-2000:]}"]
        return ([f"image did not load: {img['src']}" for img in self.broken_images]
                + [f"{e['kind']} error: {e.get('message') or e.get('src')}" for e in self.errors])

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def layout_problems(self) -> list[str]:
        if not self.loaded or self.layout is None:
            return ["no layout was measured: the page did not load or the probe failed"]
        lay = self.layout
        content = lay["contentWidth"]
        out = []
        if lay["pageWidth"] > lay["viewportWidth"] + _SLACK_PX:
            out.append(f"the page is {lay['pageWidth']} px wide, wider than the window ({lay['viewportWidth']} px)")
        for t in lay["tables"]:
            if t["width"] > content + _SLACK_PX:
                out.append(f"table {t['label']!r} is {t['width']:.0f} px wide; the content box is {content:.0f} px")
        for f in lay["figures"]:
            if f["width"] > content + _SLACK_PX:
                out.append(f"figure {f['label']!r} is {f['width']:.0f} px wide; the content box is {content:.0f} px")
            if f["displayedMinTextPx"] is None:
                out.append(f"figure {f['label']!r} records no text size (no data-min-text-px, no PNG chunk)")
            elif f["displayedMinTextPx"] < MIN_TEXT_PX:
                out.append(f"figure {f['label']!r}: its smallest text is {f['displayedMinTextPx']:.1f} px as shown "
                           f"({f['minTextPx']:.1f} px in the {f['naturalWidth']} px wide PNG, shown "
                           f"{f['width']:.0f} px wide); at least {MIN_TEXT_PX:g} px are needed")
        for c in lay["captions"]:
            if c["scrollWidth"] > c["clientWidth"] + _SLACK_PX:
                out.append(f"caption {c['label']!r} overflows its box ({c['scrollWidth']} > {c['clientWidth']} px)")
            if c["clippedBy"]:
                out.append(f"caption {c['label']!r} is cut off by its container {c['clippedBy']}")
        return out

    @property
    def readable(self) -> bool:
        return not self.layout_problems


def find_browser() -> str | None:
    """The first Chromium-family browser on PATH, or None."""
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def _with_probe(page: str) -> str:
    """The page with the probe at the start of ``<head>``, after the charset declaration if there is one
    (which must stay within the first 1024 bytes), so it runs before anything else on the page."""
    anchor = (re.search(r"<meta\s+charset=[^>]*>", page, re.IGNORECASE)
              or re.search(r"<head\b[^>]*>", page, re.IGNORECASE))
    if anchor:
        return page[:anchor.end()] + "\n" + _PROBE + page[anchor.end():]
    return _PROBE + page


def check_page(path: str | Path, browser: str | None = None, timeout: float = 120, width: int = 1280) -> PageCheck:
    """Load ``path`` in headless Chromium in a window ``width`` CSS px wide, and return what loaded,
    what failed and the measured layout.

    The probed copy is written next to the original, so relative links resolve as they would for it.
    """
    path = Path(path).resolve()
    browser = browser or find_browser()
    if browser is None:
        raise FileNotFoundError(f"no browser found (looked for {', '.join(BROWSERS)})")
    fd, probed = tempfile.mkstemp(prefix=".probe-", suffix=".html", dir=path.parent)
    os.close(fd)
    try:
        Path(probed).write_text(_with_probe(path.read_text(encoding="utf-8")), encoding="utf-8")
        with tempfile.TemporaryDirectory(prefix="bgsim-browser-") as profile:
            result = subprocess.run([browser, *_FLAGS, f"--window-size={width},900", f"--user-data-dir={profile}",
                                     "--dump-dom", Path(probed).as_uri()],
                                    capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return PageCheck(loaded=False, browser_output=f"no answer from {browser} within {timeout:g} s")
    finally:
        Path(probed).unlink(missing_ok=True)
    found = _SUMMARY.search(result.stdout)
    if not found:
        return PageCheck(loaded=False, browser_output=f"exit status {result.returncode}\n{result.stderr}")
    summary = json.loads(html.unescape(found.group(1)))
    return PageCheck(loaded=True, images=summary["images"], errors=summary["errors"], layout=summary.get("layout"),
                     browser_output=result.stderr)
