"""Decision kinds and action columns of the candidate tables.

FILL IN: one kind per decision of the rules, what one row is, and the documented candidate
order (ties go to the first row).
"""

__all__ = ["ACTION_FIELDS", "DECISION_NAMES", "N_ACTION_FIELDS", "OVER", "TAKE"]

OVER = 0
TAKE = 1  # placeholder: take 1..MAX_TAKE points, rows in ascending amount
DECISION_NAMES = ("over", "take")

A_KIND = 0
A_AMOUNT = 1
ACTION_FIELDS = ("kind", "amount")
N_ACTION_FIELDS = len(ACTION_FIELDS)
