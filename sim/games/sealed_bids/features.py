"""Feature columns of Sealed Bids' candidate tables: integers a heuristic can weigh.

Every column is computed from what the deciding seat can see (its hand, the prizes on offer, the
cards played face up), so a determinised state offers the same table. Prize points come from the
``prize_points`` parameter. A take row (SB-OFFER-1, SB-OFFER-2) fills ``prize`` alone: the points of the prize
it takes, so a strategy that weighs ``prize`` takes the better prize.
"""

__all__ = ["FEATURE_DOCS", "FEATURE_NAMES", "N_FEATURES"]

_FEATURES = (
    ("bid", "value of the card bid"),
    ("prize", "bid rows: points of the prize on offer (pair, triple: the best of those on offer), the same on "
              "every row; take rows: points of the prize the row takes"),
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
