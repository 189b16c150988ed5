"""Seeded playthroughs must not change unless the rules (or the trace format) are meant to."""

import difflib

import pytest

from tests.golden.playthroughs import path_for, render


@pytest.mark.parametrize("n_players", [1, 2, 3, 4])  # 1: solo against Anna
def test_golden_playthrough_is_unchanged(n_players):
    expected = path_for(n_players).read_text(encoding="utf-8")
    actual = render(n_players)
    if actual != expected:
        diff = "".join(list(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), "golden", "now", n=2))[:60])
        pytest.fail(f"{path_for(n_players).name} changed (run `make golden` if intended):\n{diff}")
