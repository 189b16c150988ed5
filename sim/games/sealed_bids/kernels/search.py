"""What a seat may see (SB-INFO) and determinisation for search players.

``observe`` writes the seat's view: every card the seat cannot locate (the other hands,
their face-down bids, the cards left in the box) becomes HIDDEN, and the prize cards still to
come are listed in ascending order (the deck is 8 prizes, 10 in pair, 15 in triple; the prizes
on offer this round, one, two or three, are face up: SB-OFFER-1, SB-OFFER-2). ``determinise``
deals those hidden cards out again at random (hand sizes and face-down bids are visible, so each
seat gets as many as it holds) and shuffles the prizes to come; the result depends only on the
view and the random stream. Prize points never enter here: they are parameters, read where a
prize is scored.
"""

import numpy as np
from bgsim.sim.games.sealed_bids.state import (
    BID_CARD,
    BID_DOWN,
    DECK_N,
    FACE_DOWN,
    HAND_N,
    HIDDEN,
    IN_HAND,
    LOC,
    N_CARDS,
    N_PLAYERS,
    OFFER,
    PLAYED,
    PRIZE_DECK,
    ROUND,
    ROUNDS,
    UNDEALT,
)
from bgsim.sim.rng import shuffle
from numba import njit


@njit(cache=True)
def _known(loc, seat):
    return loc == IN_HAND + seat or loc == FACE_DOWN + seat or loc >= PLAYED


@njit(cache=True)
def _first_hidden_prize(s):
    """Prize entries from this index on are still face down: every round so far, the current one
    included, has revealed ``s[OFFER]`` entries (SB-ROUND-1, SB-OFFER-1, SB-OFFER-2)."""
    return s[OFFER] * min(s[ROUND] + 1, ROUNDS)


@njit(cache=True)
def observe(s, seat, out):
    """``out`` ((STATE_SIZE,) int32) = the view of ``s`` for ``seat`` (SB-INFO-1..3)."""
    out[:] = s
    for c in range(N_CARDS):
        if not _known(s[LOC + c], seat):
            out[LOC + c] = HIDDEN
    for other in range(s[N_PLAYERS]):
        if other != seat and s[BID_DOWN + other]:
            out[BID_CARD + other] = HIDDEN
    first = _first_hidden_prize(s)
    end = s[DECK_N]
    out[PRIZE_DECK + first: PRIZE_DECK + end] = np.sort(s[PRIZE_DECK + first: PRIZE_DECK + end])


@njit(cache=True)
def determinise(s, seat, rng):
    """Deal, in place, what ``seat`` cannot see in ``s`` (a view or a full state) at random.
    ``rng`` (1,) uint64 stream, advanced. What the seat sees is left as it is."""
    n = s[N_PLAYERS]
    pool = np.empty(N_CARDS, dtype=np.int64)
    m = 0
    for c in range(N_CARDS):
        if not _known(s[LOC + c], seat):
            pool[m] = c
            m += 1
    cards = pool[:m]  # ascending card ids: independent of where they really were
    shuffle(cards, rng, 0)
    k = 0
    for other in range(n):
        if other == seat:
            continue
        for _ in range(s[HAND_N + other]):
            s[LOC + cards[k]] = IN_HAND + other
            k += 1
        if s[BID_DOWN + other]:
            s[LOC + cards[k]] = FACE_DOWN + other
            s[BID_CARD + other] = cards[k]
            k += 1
    for i in range(k, m):
        s[LOC + cards[i]] = UNDEALT
    first = _first_hidden_prize(s)
    end = s[DECK_N]
    prizes = np.sort(s[PRIZE_DECK + first: PRIZE_DECK + end])
    shuffle(prizes, rng, 0)
    s[PRIZE_DECK + first: PRIZE_DECK + end] = prizes
