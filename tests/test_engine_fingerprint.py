"""Every game played by the engine is bit-identical to the recorded fingerprints
(``tests/engine_fingerprint.py``): performance work must not change any game."""

import json

from tests.engine_fingerprint import STORED, fingerprints


def test_games_match_the_recorded_fingerprints():
    stored = json.loads(STORED.read_text())
    current = fingerprints()
    changed = sorted(k for k in stored if current.get(k) != stored[k])
    assert not changed, f"games changed in: {', '.join(changed)}"
    assert set(current) == set(stored)


def test_arkadia_and_capitol_games_match_their_recorded_fingerprints_under_every_parameter():
    from tests.game_fingerprints import STORED as GAME_STORED
    from tests.game_fingerprints import fingerprints as game_fingerprints

    stored = json.loads(GAME_STORED.read_text())
    current = game_fingerprints()
    changed = sorted(k for k in stored if current.get(k) != stored[k])
    assert not changed, f"games changed in: {', '.join(changed)} (python -m tests.game_fingerprints)"
    assert set(current) == set(stored)
