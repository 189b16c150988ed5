"""The deal: every chance event of a game, from its chance seed, in a fixed documented order.

FILL IN: shuffle decks and deal with ``sim.rng.shuffle`` / ``below`` on the chance stream only.
"""

import numpy as np
from bgsim.sim.games._template.decisions import TAKE
from bgsim.sim.games._template.params import PR_N_PLAYERS, PR_START
from bgsim.sim.games._template.state import N_PLAYERS, PHASE, SEAT, START_PTS, STATE_SIZE
from numba import njit


@njit(cache=True)
def deal_into(s, p, chance):
    """Deal a new game into ``s`` ((STATE_SIZE,) int32) from ``p`` ((N_PARAMS,) int32) and the chance seed."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = chance  # FILL IN: draw the deal from this stream
    s[:] = 0
    s[N_PLAYERS] = p[PR_N_PLAYERS]
    s[PHASE] = TAKE
    s[SEAT] = 0
    for seat in range(p[PR_N_PLAYERS]):
        s[START_PTS + seat] = p[PR_START + seat]


@njit(cache=True)
def new_game(p, chance):
    """A dealt game, (STATE_SIZE,) int32."""
    s = np.empty(STATE_SIZE, dtype=np.int32)
    deal_into(s, p, chance)
    return s
