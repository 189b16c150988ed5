"""Render an HTML page in headless Chromium and report broken images and script or console errors.

No browser driver is needed: a copy of the page gets a small script at the start of ``<head>`` that
records errors (uncaught exceptions, failed resource loads, ``console.error``) from the first moment,
and at ``load`` writes them with the state of every ``<img>`` as JSON into ``<pre id="bgsim-check">``.
Chromium's ``--dump-dom`` prints the DOM after load, and the JSON is read back from it. A page whose
summary is missing (it never finished loading, or the browser failed) counts as a failure.
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

__all__ = ["BROWSERS", "PageCheck", "check_page", "find_browser"]

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

_CHECK_ID = "bgsim-check"
_PROBE = """<script>
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
  window.addEventListener("load", function () {
    var images = Array.prototype.map.call(document.images, function (img) {
      return {src: String(img.currentSrc || img.src).slice(0, 80), complete: img.complete,
              naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight};
    });
    var pre = document.createElement("pre");
    pre.id = "__CHECK_ID__";
    pre.textContent = JSON.stringify({errors: errors, images: images});
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
    """What the browser saw. ``problems`` lists every failure in words; the page is fine if it is empty."""

    loaded: bool
    images: list[dict] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
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


def check_page(path: str | Path, browser: str | None = None, timeout: float = 120) -> PageCheck:
    """Load ``path`` in headless Chromium and return what loaded and what failed.

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
            result = subprocess.run([browser, *_FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                                     Path(probed).as_uri()],
                                    capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return PageCheck(loaded=False, browser_output=f"no answer from {browser} within {timeout:g} s")
    finally:
        Path(probed).unlink(missing_ok=True)
    found = _SUMMARY.search(result.stdout)
    if not found:
        return PageCheck(loaded=False, browser_output=f"exit status {result.returncode}\n{result.stderr}")
    summary = json.loads(html.unescape(found.group(1)))
    return PageCheck(loaded=True, images=summary["images"], errors=summary["errors"], browser_output=result.stderr)
