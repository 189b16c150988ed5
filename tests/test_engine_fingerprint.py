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
