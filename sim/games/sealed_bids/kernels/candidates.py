"""The candidate table of the pending decision: rows, features and actions (decisions.py). Every
kernel takes ``s``, the state ((STATE_SIZE,) int32), and ``p``, the parameter array ((N_PARAMS,)
int32)."""

from bgsim.sim.games.sealed_bids.decisions import A_KIND, A_VALUE, BID, OVER, TAKE
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
from bgsim.sim.games.sealed_bids.kernels.flow import card_value, prize_points
from bgsim.sim.games.sealed_bids.state import (
    FACE_DOWN,
    HAND,
    IN_HAND,
    LOC,
    N_CARDS,
    N_VALUES,
    OFFER,
    PHASE,
    PLAYED,
    PRIZE_DECK,
    ROUND,
    SEAT,
)
from numba import njit

MAX_ROWS = HAND  # one row per distinct value in hand (a take table has 2 rows in pair, 3 in triple: fewer)


@njit(cache=True)
def _has(s, seat, value):
    return s[LOC + 2 * (value - 1)] == IN_HAND + seat or s[LOC + 2 * (value - 1) + 1] == IN_HAND + seat


@njit(cache=True)
def candidates(s, p, feats, acts):
    """Fill ``feats`` (>= MAX_ROWS, N_FEATURES) and ``acts`` (>= MAX_ROWS, N_ACTION_FIELDS) int32
    with the pending table; ``p`` (N_PARAMS,) int32. Returns its rows (0 once over)."""
    if s[PHASE] == OVER:
        return 0
    if s[PHASE] == TAKE:
        return take_rows(s, p, feats, acts)
    return bid_rows(s, p, feats, acts)


@njit(cache=True)
def first_offered(s):
    """Index in the prize deck of this round's first prize on offer: every earlier round revealed
    ``s[OFFER]`` entries (SB-ROUND-1, SB-OFFER-1, SB-OFFER-2)."""
    return s[OFFER] * s[ROUND]


@njit(cache=True)
def offered_points(s, p):
    """Points of the prize on offer this round (SB-ROUND-1); in pair and triple (SB-OFFER-1,
    SB-OFFER-2) the best of those on offer, the one a winner would take."""
    first = first_offered(s)
    best = prize_points(p, s[PRIZE_DECK + first])
    for i in range(1, s[OFFER]):
        best = max(best, prize_points(p, s[PRIZE_DECK + first + i]))
    return best


@njit(cache=True)
def take_rows(s, p, feats, acts):
    """SB-OFFER-1, SB-OFFER-2: one row per prize on offer (2 or 3), in deck order; ``prize`` holds
    the points it scores, every other feature 0 (``feats``, ``acts`` as in ``candidates``)."""
    first = first_offered(s)
    for i in range(s[OFFER]):
        prize = s[PRIZE_DECK + first + i]
        for f in range(N_FEATURES):
            feats[i, f] = 0
        feats[i, F_PRIZE] = prize_points(p, prize)
        acts[i, A_KIND] = TAKE
        acts[i, A_VALUE] = prize
    return s[OFFER]


@njit(cache=True)
def bid_rows(s, p, feats, acts):
    """SB-BID-1: one row per distinct value in the bidder's hand, ascending (``feats``, ``acts``
    as in ``candidates``)."""
    seat = s[SEAT]
    low = N_VALUES + 1
    high = 0
    for v in range(1, N_VALUES + 1):
        if _has(s, seat, v):
            low = min(low, v)
            high = max(high, v)
    prize = offered_points(s, p)
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
