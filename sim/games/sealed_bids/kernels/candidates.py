"""The candidate table of the pending decision: rows, features and actions (decisions.py)."""

from bgsim.sim.games.sealed_bids.decisions import A_KIND, A_VALUE, BID, OVER
from bgsim.sim.games.sealed_bids.features import (
    F_BID,
    F_HIGHEST,
    F_KEEP,
    F_LOWEST,
    F_PRIZE,
    F_PRIZE_IF_HIGHEST,
    F_UNSEEN_ABOVE,
    N_FEATURES,
)
from bgsim.sim.games.sealed_bids.kernels.flow import card_value
from bgsim.sim.games.sealed_bids.state import (
    FACE_DOWN,
    HAND,
    IN_HAND,
    LOC,
    N_CARDS,
    N_VALUES,
    PHASE,
    PLAYED,
    PRIZE_DECK,
    ROUND,
    SEAT,
)
from numba import njit

MAX_ROWS = HAND  # one row per distinct value in hand


@njit(cache=True)
def _has(s, seat, value):
    return s[LOC + 2 * (value - 1)] == IN_HAND + seat or s[LOC + 2 * (value - 1) + 1] == IN_HAND + seat


@njit(cache=True)
def candidates(s, p, feats, acts):
    """Fill ``feats`` (>= MAX_ROWS, N_FEATURES) and ``acts`` (>= MAX_ROWS, N_ACTION_FIELDS) int32
    with the pending table; returns its rows (0 once over). Rows: ascending bid value."""
    if s[PHASE] == OVER:
        return 0
    seat = s[SEAT]
    low = N_VALUES + 1
    high = 0
    for v in range(1, N_VALUES + 1):
        if _has(s, seat, v):
            low = min(low, v)
            high = max(high, v)
    prize = s[PRIZE_DECK + s[ROUND]] + 1
    n = 0
    for v in range(1, N_VALUES + 1):
        if not _has(s, seat, v):
            continue
        unseen = 0
        for c in range(N_CARDS):
            loc = s[LOC + c]
            seen = loc == IN_HAND + seat or loc == FACE_DOWN + seat or loc >= PLAYED
            if not seen and card_value(c) > v:
                unseen += 1
        for f in range(N_FEATURES):
            feats[n, f] = 0
        feats[n, F_BID] = v
        feats[n, F_PRIZE] = prize
        feats[n, F_HIGHEST] = 1 if v == high else 0
        feats[n, F_LOWEST] = 1 if v == low else 0
        feats[n, F_PRIZE_IF_HIGHEST] = prize if v == high else 0
        feats[n, F_KEEP] = v // 3
        feats[n, F_UNSEEN_ABOVE] = unseen
        acts[n, A_KIND] = BID
        acts[n, A_VALUE] = v
        n += 1
    return n
