"""What a seat may see (XX-INFO) and determinisation for search players.

``observe`` hides what the seat cannot see in a canonical arrangement: every card it cannot
locate (the other hands, the pile) becomes HIDDEN, and so does the pile order. ``determinise``
deals those cards out again at random: each other seat as many as it holds (hand sizes are
visible), the rest into the pile in a random order. Both depend only on what the seat sees, so
observing a determinised state gives the same observation.

FILL IN: the game's hidden parts, each with its canonical form and its random deal.
"""

import numpy as np
from bgsim.sim.games._template.state import (
    HAND_N,
    HIDDEN,
    IN_HAND,
    IN_PILE,
    LOC,
    N_CARDS,
    N_PLAYERS,
    PILE,
    PILE_TOP,
    PLAYED,
)
from bgsim.sim.rng import shuffle
from numba import njit


@njit(cache=True)
def _seen(loc, seat):
    """Whether ``seat`` knows where a card at ``loc`` lies: in its own hand, or played."""
    return loc == IN_HAND + seat or loc >= PLAYED


@njit(cache=True)
def observe(s, seat, out):
    """``out`` ((STATE_SIZE,) int32) = the view of ``s`` for ``seat``."""
    out[:] = s
    for card in range(N_CARDS):
        if not _seen(s[LOC + card], seat):
            out[LOC + card] = HIDDEN
    for i in range(s[PILE_TOP], N_CARDS):
        out[PILE + i] = HIDDEN


@njit(cache=True)
def determinise(s, seat, rng):
    """Deal, in place, what ``seat`` cannot see in ``s`` (a view or a full state) at random;
    ``rng`` (1,) uint64 stream, advanced. What the seat sees is left as it is."""
    unseen = np.empty(N_CARDS, dtype=np.int64)
    m = 0
    for card in range(N_CARDS):
        if not _seen(s[LOC + card], seat):
            unseen[m] = card
            m += 1
    cards = unseen[:m]  # ascending ids: independent of where the cards really are
    shuffle(cards, rng, 0)
    k = 0
    for other in range(s[N_PLAYERS]):
        if other == seat:
            continue
        for _ in range(s[HAND_N + other]):
            s[LOC + cards[k]] = IN_HAND + other
            k += 1
    for i in range(s[PILE_TOP], N_CARDS):  # the rest is the pile, in the shuffled order
        s[LOC + cards[k]] = IN_PILE
        s[PILE + i] = cards[k]
        k += 1
