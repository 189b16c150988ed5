"""The deal (CAP-SETUP): every chance event of a game, from its chance seed, in a fixed order:
the roof deck, the stone deck and the permit deck are shuffled (CAP-SETUP-4), then, with
``start_seat = random``, the first consul is drawn."""

import numpy as np
from bgsim.sim.games.capitol.components import BT_FOUNTAINS, BT_LARGE, BT_SMALL
from bgsim.sim.games.capitol.kernels.board import n_prefectures
from bgsim.sim.games.capitol.kernels.flow import start_game
from bgsim.sim.games.capitol.param_slots import PR_N_PLAYERS, PR_PILE_VISIBLE, PR_START, PR_START_SEAT
from bgsim.sim.games.capitol.state import (
    AUCTIONS,
    CLASS_COPIES,
    CONSUL,
    DEAL,
    FIN,
    FIRST_CONSUL,
    FOUNTAINS,
    FREE,
    HAND,
    HAND_TYPE,
    HMAX,
    LARGE,
    MAX_PREF,
    N_CLASSES,
    N_PLAYERS,
    N_TYPES,
    PILE,
    PILE_DRAW,
    PILE_OPEN,
    PLACED,
    QCAP,
    ROOFS,
    ROUND_SHAPE,
    SCORE,
    SHAPE,
    SQUARE_SHAPE,
    START_PTS,
    START_ROOFS_LEFT,
    START_STONES,
    STATE_SIZE,
    SUPPLY,
    TEMPLE_ROUND,
    TOTAL_STONES,
    TYPE_CARDS,
    TYPE_FIRST_CLASS,
    WINNER,
)
from bgsim.sim.rng import below, shuffle
from numba import njit


@njit(cache=True)
def _deck(kind):
    """The cards of one type as classes, in class order (before shuffling)."""
    deck = np.empty(TYPE_CARDS[kind], dtype=np.int64)
    i = 0
    for k in range(N_CLASSES):
        if k >= TYPE_FIRST_CLASS[kind] and (kind == N_TYPES - 1 or k < TYPE_FIRST_CLASS[kind + 1]):
            for _ in range(CLASS_COPIES[k]):
                deck[i] = k
                i += 1
    return deck


@njit(cache=True)
def deal_into(s, t, p, chance, log):
    """Deal a new game into ``s`` ((STATE_SIZE,) int32) from the board table ``t``, the parameters
    ``p`` and the 64-bit chance seed, and run it to the consul's first build turn."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = chance
    n = p[PR_N_PLAYERS]
    s[:] = 0
    s[N_PLAYERS] = n
    s[PILE_OPEN] = p[PR_PILE_VISIBLE]
    for kind in range(N_TYPES):  # CAP-SETUP-4, -5
        deck = _deck(kind)
        shuffle(deck, rng, 0)
        dealt = DEAL[kind]
        for seat in range(n):
            for i in range(dealt):
                s[HAND + seat * N_CLASSES + deck[seat * dealt + i]] += 1
            s[HAND_TYPE + seat * N_TYPES + kind] = dealt
        rest = TYPE_CARDS[kind] - n * dealt
        for i in range(rest):
            s[PILE + kind * QCAP + i] = deck[n * dealt + i]
        s[PILE_DRAW + kind] = rest
    first = p[PR_START_SEAT]
    if first < 0:  # CAP-SETUP-11 with a seeded random seat
        first = below(rng, 0, n)
    s[CONSUL] = first
    s[FIRST_CONSUL] = first
    for seat in range(n):  # CAP-SETUP-7, -10
        for shape in (ROUND_SHAPE, SQUARE_SHAPE):
            s[FIN + (seat * 2 + shape) * (HMAX + 1) + 1] = 1
            s[FIN + (seat * 2 + shape) * (HMAX + 1) + 2] = 1
            s[ROOFS + seat * 2 + shape] = START_ROOFS_LEFT
        s[START_PTS + seat] = p[PR_START + seat]
        s[SCORE + seat] = p[PR_START + seat]
    s[SUPPLY] = TOTAL_STONES - START_STONES * n  # CAP-SETUP-8
    for pref in range(MAX_PREF):  # CAP-SETUP-2, -3
        s[SHAPE + pref] = -1
        s[TEMPLE_ROUND + pref] = -1
        if pref < n_prefectures(t):
            s[FREE + pref] = t[pref, BT_SMALL]
            s[FOUNTAINS + pref] = t[pref, BT_FOUNTAINS]
            s[LARGE + pref] = 0 if t[pref, BT_LARGE] > 0 else -1
        else:
            s[LARGE + pref] = -1
    for a in range(AUCTIONS):  # CAP-SETUP-9
        s[WINNER + a] = -2
        s[PLACED + a] = -1
    start_game(s, t, p, log)


@njit(cache=True)
def new_game(t, p, chance, log):
    """A dealt game, (STATE_SIZE,) int32, waiting for the first consul's build turn."""
    s = np.empty(STATE_SIZE, dtype=np.int32)
    deal_into(s, t, p, chance, log)
    return s
