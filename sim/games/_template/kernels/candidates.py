"""The candidate table of the pending decision: rows, features and actions (decisions.py).

FILL IN: one loop per decision kind, rows in the documented order, features from what the
deciding seat can see only (so a determinised state offers the same table).
"""

from bgsim.sim.games._template.decisions import A_CARD, A_KIND, OVER, PLAY
from bgsim.sim.games._template.features import F_BONUS, F_POINTS
from bgsim.sim.games._template.kernels.flow import bonus_for
from bgsim.sim.games._template.state import HAND, IN_HAND, LOC, N_CARDS, PHASE, ROUND_HIGH, SEAT
from numba import njit

MAX_ROWS = HAND  # one row per card in hand, and a hand never holds more than it was dealt


@njit(cache=True)
def candidates(s, t, p, feats, acts):
    """Fill ``feats`` (>= MAX_ROWS, N_FEATURES) and ``acts`` (>= MAX_ROWS, N_ACTION_FIELDS) int32
    with the pending table; returns its rows (0 once over). Rows: the cards in hand, ascending id."""
    if s[PHASE] == OVER:
        return 0
    seat = s[SEAT]
    high = s[ROUND_HIGH]
    n = 0
    for card in range(N_CARDS):
        if s[LOC + card] != IN_HAND + seat:
            continue
        feats[n, F_POINTS] = t[card]
        feats[n, F_BONUS] = bonus_for(t[card], high)
        acts[n, A_KIND] = PLAY
        acts[n, A_CARD] = card
        n += 1
    return n
