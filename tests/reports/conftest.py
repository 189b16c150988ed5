"""Fixtures shared by the report tests."""

import os

import pytest

from tests.reports.browser import BROWSERS, find_browser


@pytest.fixture(scope="session")
def browser() -> str:
    path = find_browser()
    if path is None:
        reason = f"no Chromium-family browser on PATH (looked for {', '.join(BROWSERS)})"
        if os.environ.get("BGSIM_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{reason}, and BGSIM_REQUIRE_BROWSER=1")
        pytest.skip(f"{reason}; install chromium to run the browser check")
    return path
