"""Feature columns: integers a heuristic weighs, computed only from what the deciding seat sees
(so a determinised state offers the same table).

FILL IN: one (name, meaning) per column.
"""

__all__ = ["FEATURE_DOCS", "FEATURE_NAMES", "N_FEATURES"]

_FEATURES = (
    ("points", "points of the card played (XX-TURN-1)"),
    ("bonus", "bonus points: the card is above every card played before it this round (XX-TURN-2)"),
)

FEATURE_NAMES = tuple(name for name, _ in _FEATURES)
FEATURE_DOCS = dict(_FEATURES)
N_FEATURES = len(FEATURE_NAMES)
F_POINTS, F_BONUS = range(N_FEATURES)
