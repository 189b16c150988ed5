"""Feature columns of Sealed Bids' candidate tables: integers a heuristic can weigh.

Every column is computed from what the bidder can see (its hand, the prize, the cards played
face up), so a determinised state offers the same table.
"""

__all__ = ["FEATURE_DOCS", "FEATURE_NAMES", "N_FEATURES"]

_FEATURES = (
    ("bid", "value of the card bid"),
    ("prize", "points of the prize on offer (same on every row)"),
    ("highest", "1 if the bid is the highest value in hand"),
    ("lowest", "1 if the bid is the lowest value in hand"),
    ("prize_if_highest", "the prize's points if the bid is the highest value in hand, else 0"),
    ("keep_points", "leftover points the card would score if it stayed in hand to the end (value // 3)"),
    ("unseen_above", "cards this seat has not seen (other hands, face-down bids, the box) of higher value"),
)

FEATURE_NAMES = tuple(name for name, _ in _FEATURES)
FEATURE_DOCS = dict(_FEATURES)
N_FEATURES = len(FEATURE_NAMES)
F_BID, F_PRIZE, F_HIGHEST, F_LOWEST, F_PRIZE_IF_HIGHEST, F_KEEP, F_UNSEEN_ABOVE = range(N_FEATURES)
