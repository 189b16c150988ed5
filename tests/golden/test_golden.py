"""Seeded playthroughs must not change unless the rules (or the trace format) are meant to."""

import difflib

import pytest

from tests.golden.playthroughs import cases, path_for, render


@pytest.mark.parametrize(("name", "n_players"), cases())  # carpe_diem 1: solo against Anna
def test_golden_playthrough_is_unchanged(name, n_players):
    path = path_for(name, n_players)
    assert path.exists(), f"{path.name} is missing: python -m tests.golden.regenerate {name}"
    expected = path.read_text(encoding="utf-8")
    actual = render(name, n_players)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), "golden", "now", n=2))[:60])
        pytest.fail(f"{path.name} changed (python -m tests.golden.regenerate {name}, if intended):\n{diff}")
