"""Every game played by the engine is bit-identical to the recorded fingerprints
(``tests/engine_fingerprint.py``, ``tests/game_fingerprints.py``): performance work must not change
any game."""

import json

from tests import game_fingerprints
from tests.engine_fingerprint import STORED, fingerprints


def _assert_unchanged(stored_path, current: dict, how_to_write: str) -> None:
    stored = json.loads(stored_path.read_text())
    changed = sorted(k for k in stored if current.get(k) != stored[k])
    assert not changed, f"games changed in: {', '.join(changed)} ({how_to_write})"
    assert set(current) == set(stored)


def test_games_match_the_recorded_fingerprints():
    _assert_unchanged(STORED, fingerprints(), "python -m tests.engine_fingerprint")


def test_arkadia_and_capitol_games_match_their_recorded_fingerprints_under_every_parameter():
    _assert_unchanged(game_fingerprints.STORED, game_fingerprints.fingerprints(), "python -m tests.game_fingerprints")
