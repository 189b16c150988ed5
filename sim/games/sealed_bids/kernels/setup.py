"""The deal (SB-SETUP): every chance event of a game, from its chance seed, in a fixed order:
the bid deck, then the prize deck."""

import numpy as np
from bgsim.sim.games.sealed_bids.decisions import BID
from bgsim.sim.games.sealed_bids.params import PR_N_PLAYERS, PR_START
from bgsim.sim.games.sealed_bids.state import (
    BID_CARD,
    HAND,
    HAND_N,
    IN_HAND,
    LOC,
    MAX_P,
    N_CARDS,
    N_PLAYERS,
    N_PRIZES,
    PHASE,
    PRIZE_DECK,
    ROUND_BIDS,
    ROUND_WINNER,
    ROUNDS,
    SEAT,
    START_PTS,
    STATE_SIZE,
    UNDEALT,
)
from bgsim.sim.rng import shuffle
from numba import njit


@njit(cache=True)
def deal_into(s, p, chance, log):
    """Deal a new game into ``s`` ((STATE_SIZE,) int32) from ``p`` ((N_PARAMS,) int32) and the
    64-bit chance seed: SB-SETUP-1 shuffle both decks, SB-SETUP-2 six cards to each seat,
    SB-SETUP-3 start points; seat 0 bids first (SB-BID-1). ``log``: the event log, unused."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = chance
    n = p[PR_N_PLAYERS]
    s[:] = 0
    s[N_PLAYERS] = n
    s[PHASE] = BID
    s[SEAT] = 0
    deck = np.arange(N_CARDS)
    shuffle(deck, rng, 0)
    for c in range(N_CARDS):
        s[LOC + c] = UNDEALT
    for seat in range(n):
        for i in range(HAND):
            s[LOC + deck[seat * HAND + i]] = IN_HAND + seat
        s[HAND_N + seat] = HAND
        s[START_PTS + seat] = p[PR_START + seat]
    for seat in range(MAX_P):
        s[BID_CARD + seat] = -1
    prizes = np.arange(N_PRIZES)
    shuffle(prizes, rng, 0)
    for i in range(N_PRIZES):
        s[PRIZE_DECK + i] = prizes[i]
    for i in range(ROUNDS * MAX_P):
        s[ROUND_BIDS + i] = -1
    for r in range(ROUNDS):
        s[ROUND_WINNER + r] = -1


@njit(cache=True)
def new_game(p, chance, log):
    """A dealt game, (STATE_SIZE,) int32."""
    s = np.empty(STATE_SIZE, dtype=np.int32)
    deal_into(s, p, chance, log)
    return s
