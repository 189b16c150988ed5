"""Feature columns: integers a heuristic weighs, computed only from what the deciding seat sees.

FILL IN: one (name, meaning) per column.
"""

__all__ = ["FEATURE_DOCS", "FEATURE_NAMES", "N_FEATURES"]

_FEATURES = (
    ("points", "points the row gains now"),
)

FEATURE_NAMES = tuple(name for name, _ in _FEATURES)
FEATURE_DOCS = dict(_FEATURES)
N_FEATURES = len(FEATURE_NAMES)
F_POINTS = 0
