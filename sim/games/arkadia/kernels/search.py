"""What a seat may see (digest §5.2) and determinisation for search players.

Hidden from a seat: the other hands and the order of the deck. Its ``observe`` view marks every card
it cannot locate HIDDEN, and the deck's order with it. The screens (workers, seals) and the gold are
shown: every change to them is a public event (3 workers at the start, 2 per banner, 1 per covered
tent, the workers placed, the payouts, the seals cashed and the gold paid), so a player with perfect
recall knows them exactly; the view is that player's (the digest's perfect-recall view). A card
taken from the display is public knowledge too, but the view keeps it hidden like any card in
another hand: it shows no more than the public events, a little less.

``determinise`` deals the cards the seat cannot locate out again at random: each other seat as many
as it holds (hand sizes are public), the rest into the deck in a random order."""

import numpy as np
from bgsim.sim.games.arkadia.state import (
    CARD_LOC,
    DECK,
    DECK_TOP,
    HAND_N,
    HIDDEN,
    IN_DECK,
    IN_HAND,
    MAX_CARDS,
    MAX_P,
    N_PLAYERS,
)
from bgsim.sim.rng import shuffle
from numba import njit


@njit(cache=True)
def _unseen(loc, seat):
    """A card ``seat`` cannot locate: in the deck or another hand (or already HIDDEN in a view)."""
    return loc == HIDDEN or loc == IN_DECK or (IN_HAND <= loc < MAX_P and loc != IN_HAND + seat)


@njit(cache=True)
def observe(s, seat, out):
    """``out`` ((STATE_SIZE,) int32) = the view of ``s`` for ``seat``."""
    out[:] = s
    for card in range(MAX_CARDS):
        if _unseen(s[CARD_LOC + card], seat):
            out[CARD_LOC + card] = HIDDEN
    for i in range(s[DECK_TOP], MAX_CARDS):
        if s[DECK + i] >= 0:
            out[DECK + i] = HIDDEN


@njit(cache=True)
def determinise(s, seat, rng):
    """Deal, in place, the cards ``seat`` cannot locate in ``s`` (a view or a full state) at random;
    ``rng`` (1,) uint64 stream, advanced. What the seat sees is left as it is."""
    unseen = np.empty(MAX_CARDS, dtype=np.int64)
    m = 0
    for card in range(MAX_CARDS):  # ascending ids: independent of where the cards really are
        if _unseen(s[CARD_LOC + card], seat):
            unseen[m] = card
            m += 1
    cards = unseen[:m]
    shuffle(cards, rng, 0)
    k = 0
    for other in range(s[N_PLAYERS]):
        if other == seat:
            continue
        for _ in range(s[HAND_N + other]):
            s[CARD_LOC + cards[k]] = IN_HAND + other
            k += 1
    for i in range(s[DECK_TOP], MAX_CARDS):  # the deck's places still to draw, in the shuffled order
        if s[DECK + i] == -1:
            break
        s[DECK + i] = cards[k]
        s[CARD_LOC + cards[k]] = IN_DECK
        k += 1
