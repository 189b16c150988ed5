"""Decision kinds and action columns of Sealed Bids' candidate tables.

One decision: BID (SB-BID-1), one row per distinct card value in the bidder's hand, in
ascending value (ties between rows go to the lower bid).
"""

__all__ = ["ACTION_FIELDS", "BID", "DECISION_NAMES", "N_ACTION_FIELDS", "OVER"]

OVER = 0
BID = 1
DECISION_NAMES = ("over", "bid")

A_KIND = 0
A_VALUE = 1  # the value bid; the bidder plays one card of that value from its hand
ACTION_FIELDS = ("kind", "value")
N_ACTION_FIELDS = len(ACTION_FIELDS)
