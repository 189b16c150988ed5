"""The rules: apply one action, move on to the next decision, score the end.

FILL IN: the game's rules, one function per rule group, rule ids in the docstrings.
"""

from bgsim.sim.games._template.decisions import A_AMOUNT, OVER
from bgsim.sim.games._template.state import (
    N_PLAYERS,
    PHASE,
    POINTS,
    RANK,
    ROUND,
    ROUNDS,
    SEAT,
    START_PTS,
    TIEBREAK,
    TOTAL,
)
from numba import njit


@njit(cache=True)
def apply_action(s, p, action):
    """Apply one legal action row ((N_ACTION_FIELDS,) int32) to ``s`` in place."""
    seat = s[SEAT]
    s[POINTS + seat] += action[A_AMOUNT]  # placeholder rule
    n = s[N_PLAYERS]
    if seat + 1 < n:
        s[SEAT] = seat + 1
        return
    s[ROUND] += 1
    s[SEAT] = 0
    if s[ROUND] == ROUNDS:
        final_scoring(s)


@njit(cache=True)
def final_scoring(s):
    """Totals and ranks; ties go to the later seat (placeholder tie-break)."""
    n = s[N_PLAYERS]
    for seat in range(n):
        s[TOTAL + seat] = s[START_PTS + seat] + s[POINTS + seat]
    for seat in range(n):
        rank = 1
        for other in range(n):
            if s[TOTAL + other] > s[TOTAL + seat] or (s[TOTAL + other] == s[TOTAL + seat] and other > seat):
                rank += 1
        s[RANK + seat] = rank
        s[TIEBREAK + seat] = n - seat
    s[PHASE] = OVER
    s[SEAT] = -1
