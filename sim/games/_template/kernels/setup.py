"""The deal: every chance event of a game, from its chance seed, in a fixed documented order.

FILL IN: shuffle decks and deal with ``sim.rng.shuffle`` / ``below`` on the chance stream only.
Here XX-SETUP-1 shuffles the deck into the draw pile, XX-SETUP-2 deals each seat its hand from
the top of the pile (seat 0 first), XX-SETUP-3 gives the start points; seat 0 plays first.
"""

import numpy as np
from bgsim.sim.games._template.decisions import PLAY
from bgsim.sim.games._template.kernels.flow import draw
from bgsim.sim.games._template.param_slots import PR_N_PLAYERS, PR_START
from bgsim.sim.games._template.state import (
    HAND,
    IN_PILE,
    LOC,
    N_CARDS,
    N_PLAYERS,
    PHASE,
    PILE,
    SEAT,
    START_PTS,
    STATE_SIZE,
)
from bgsim.sim.rng import shuffle
from numba import njit


@njit(cache=True)
def deal_into(s, t, p, chance, log):
    """Deal a new game into ``s`` ((STATE_SIZE,) int32) from the component table ``t``
    ((N_CARDS,) int32), the parameters ``p`` ((N_PARAMS,) int32) and the 64-bit chance seed."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = chance
    n = p[PR_N_PLAYERS]
    s[:] = 0
    s[N_PLAYERS] = n
    s[PHASE] = PLAY
    s[SEAT] = 0
    deck = np.arange(N_CARDS)
    shuffle(deck, rng, 0)
    for i in range(N_CARDS):
        s[PILE + i] = deck[i]
        s[LOC + i] = IN_PILE
    for seat in range(n):
        s[START_PTS + seat] = p[PR_START + seat]
        for _ in range(HAND):
            draw(s, seat, log)


@njit(cache=True)
def new_game(t, p, chance, log):
    """A dealt game, (STATE_SIZE,) int32, waiting for seat 0."""
    s = np.empty(STATE_SIZE, dtype=np.int32)
    deal_into(s, t, p, chance, log)
    return s
