"""Fixtures shared by the report tests."""

import pytest

from tests.reports.browser import BROWSERS, find_browser


@pytest.fixture(scope="session")
def browser() -> str:
    """The Chromium-family browser the report checks render in; a missing one is a failure
    (`make test` installs Chromium), never a silent pass."""
    path = find_browser()
    if path is None:
        pytest.fail(f"no Chromium-family browser on PATH (looked for {', '.join(BROWSERS)}); `make test` installs "
                    f"chromium, or install it yourself")
    return path
