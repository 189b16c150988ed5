"""Decision kinds and action columns of Sealed Bids' candidate tables.

BID (SB-BID-1): one row per distinct card value in the bidder's hand, in ascending value (ties
between rows go to the lower bid). TAKE (SB-OFFER-1, SB-OFFER-2; ``prize_offer = pair`` or
``triple`` only): the round's winner takes one of the prizes on offer (two, or three), one row per
prize in deck order.
"""

__all__ = ["ACTION_FIELDS", "BID", "DECISION_NAMES", "N_ACTION_FIELDS", "OVER", "TAKE"]

OVER = 0
BID = 1
TAKE = 2
DECISION_NAMES = ("over", "bid", "take")

A_KIND = 0
A_VALUE = 1  # bid: the value bid (the bidder plays one card of that value); take: the prize id taken
ACTION_FIELDS = ("kind", "value")
N_ACTION_FIELDS = len(ACTION_FIELDS)
