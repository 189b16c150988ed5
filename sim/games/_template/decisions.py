"""Decision kinds and action columns of the candidate tables.

FILL IN: one kind per decision of the rules, what one row is, and the documented candidate
order (ties go to the first row). Here one decision: PLAY (XX-TURN-1), one row per card in the
seat's hand, in ascending card id.
"""

__all__ = ["ACTION_FIELDS", "DECISION_NAMES", "N_ACTION_FIELDS", "OVER", "PLAY"]

OVER = 0
PLAY = 1
DECISION_NAMES = ("over", "play")

A_KIND = 0
A_CARD = 1  # the card id played from the hand
ACTION_FIELDS = ("kind", "card")
N_ACTION_FIELDS = len(ACTION_FIELDS)
