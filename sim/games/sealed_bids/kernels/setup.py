"""The deal (SB-SETUP): every chance event of a game, from its chance seed, in a fixed order:
the bid deck, then the prize deck (8 prizes; 10 when ``prize_offer = pair``, SB-OFFER-1; 15 when
``prize_offer = triple``, SB-OFFER-2)."""

import numpy as np
from bgsim.sim.games.sealed_bids.decisions import BID
from bgsim.sim.games.sealed_bids.param_slots import PR_N_PLAYERS, PR_PRIZE_OFFER, PR_START
from bgsim.sim.games.sealed_bids.state import (
    BID_CARD,
    DECK_N,
    HAND,
    HAND_N,
    IN_HAND,
    LOC,
    MAX_P,
    MAX_PRIZES,
    N_CARDS,
    N_PLAYERS,
    OFFER,
    OFFER_DECK,
    OFFER_PRIZES,
    PHASE,
    PRIZE_DECK,
    ROUND_BIDS,
    ROUND_TAKEN,
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
    deal_prizes(s, p, rng)
    for i in range(ROUNDS * MAX_P):
        s[ROUND_BIDS + i] = -1
    for r in range(ROUNDS):
        s[ROUND_WINNER + r] = -1
        s[ROUND_TAKEN + r] = -1


@njit(cache=True)
def deal_prizes(s, p, rng):
    """SB-SETUP-1, SB-OFFER-1, SB-OFFER-2: shuffle prize ids 0..7 (single), 0..9 (pair) or 0..14
    (triple) into the prize deck of ``s`` ((STATE_SIZE,) int32), entries past it -1; ``p``
    (N_PARAMS,) int32, ``rng`` (1,) uint64 advanced. Each offer shuffles exactly the prizes it
    deals, so single's and pair's deals never depend on the larger decks; the kernels then read the
    offer from the state (observe and determinise take no parameters)."""
    code = p[PR_PRIZE_OFFER]
    n = OFFER_DECK[code]
    s[OFFER] = OFFER_PRIZES[code]
    s[DECK_N] = n
    prizes = np.arange(n)
    shuffle(prizes, rng, 0)
    for i in range(MAX_PRIZES):
        s[PRIZE_DECK + i] = prizes[i] if i < n else -1


@njit(cache=True)
def new_game(p, chance, log):
    """A dealt game, (STATE_SIZE,) int32."""
    s = np.empty(STATE_SIZE, dtype=np.int32)
    deal_into(s, p, chance, log)
    return s
