"""The rules: apply one action, move on to the next decision, score the end.

FILL IN: the game's rules, one function per rule group, rule ids in the docstrings.
"""

from bgsim.sim.games._template.decisions import A_CARD, OVER
from bgsim.sim.games._template.state import (
    BONUS,
    BONUS_PTS,
    CARD_PTS,
    DECISIONS,
    EV_DRAW,
    EV_PLAY,
    HAND_N,
    IN_HAND,
    LOC,
    N_CARDS,
    N_PLAYERS,
    PHASE,
    PILE,
    PILE_TOP,
    PLAYED,
    RANK,
    ROUND,
    ROUND_HIGH,
    ROUNDS,
    SEAT,
    START_PTS,
    TIEBREAK,
    TOTAL,
    log_event,
)
from numba import njit


@njit(cache=True)
def bonus_for(points, round_high):
    """XX-TURN-2: BONUS for a card above every card played before it this round (not the first)."""
    return BONUS if points > round_high > 0 else 0


@njit(cache=True)
def draw(s, seat, log):
    """Move the top card of the pile into ``seat``'s hand (nothing once the pile is empty)."""
    top = s[PILE_TOP]
    if top == N_CARDS:
        return
    card = s[PILE + top]
    s[PILE + top] = -1
    s[PILE_TOP] = top + 1
    s[LOC + card] = IN_HAND + seat
    s[HAND_N + seat] += 1
    log_event(log, EV_DRAW, seat, card)


@njit(cache=True)
def apply_action(s, t, p, action, log):
    """Apply one legal action row ((N_ACTION_FIELDS,) int32) to ``s`` in place.

    XX-TURN-1: the seat plays the card face up and scores its points (``t``), then draws;
    XX-TURN-2: a card above every card played before it this round scores BONUS more.
    The next seat plays; after the last seat the round ends (XX-END-1 after the last round).
    """
    seat = s[SEAT]
    card = action[A_CARD]
    points = t[card]
    bonus = bonus_for(points, s[ROUND_HIGH])
    s[LOC + card] = PLAYED + seat
    s[HAND_N + seat] -= 1
    s[CARD_PTS + seat] += points
    s[BONUS_PTS + seat] += bonus
    s[ROUND_HIGH] = max(s[ROUND_HIGH], points)
    s[DECISIONS] += 1
    log_event(log, EV_PLAY, seat, card, points, bonus)
    draw(s, seat, log)
    if seat + 1 < s[N_PLAYERS]:
        s[SEAT] = seat + 1
        return
    s[ROUND] += 1
    s[ROUND_HIGH] = 0
    s[SEAT] = 0
    if s[ROUND] == ROUNDS:
        final_scoring(s)


@njit(cache=True)
def final_scoring(s):
    """XX-END-1 total = start + card points + bonus; XX-END-2 ranks by total, equal totals to the
    later seat (FILL IN: the rulebook's tie-break)."""
    n = s[N_PLAYERS]
    for seat in range(n):
        s[TOTAL + seat] = s[START_PTS + seat] + s[CARD_PTS + seat] + s[BONUS_PTS + seat]
    for seat in range(n):
        rank = 1
        for other in range(n):
            if s[TOTAL + other] > s[TOTAL + seat] or (s[TOTAL + other] == s[TOTAL + seat] and other > seat):
                rank += 1
        s[RANK + seat] = rank
        s[TIEBREAK + seat] = n - seat
    s[PHASE] = OVER
    s[SEAT] = -1
