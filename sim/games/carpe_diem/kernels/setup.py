"""Game setup (CD-SETUP-1..15): every chance event of the game happens here.

Draw order from the chance stream (fixed, so a seed always gives the same deal): district
boards, frame pieces (4 per seat, in side order N, E, S, W), scoring cards per deck A..D, the
layout of the drawn cards, the fountain deck, the light stock, the dark stock.
Seat 0 is the start player of pass 1 (CD-SETUP-1); the runner decides who sits where.

Solo (CD-ANNA-3..11): seat 1 is Anna, with no district, frame or discs. The draws above stay
as they are; Anna's draws follow them: the automa deck, her random numbers (dice, random ties),
and, under AMB-20's alternative, her patrician's space.
"""

import numpy as np
from bgsim.sim.games.carpe_diem import constants
from bgsim.sim.games.carpe_diem.constants import (
    AN_BREAD,
    AN_COINS,
    AN_PILE,
    AN_PILE_N,
    ANNA_SEAT,
    DEPOT_SIZE,
    MAX_P,
    N_BOARDS,
    N_CELLS,
    N_DARK,
    N_DISC_SPACES,
    N_DISCS,
    N_FOUNTAIN_CARDS,
    N_FRAME_PIECES,
    N_LIGHT,
    N_SEALS,
    N_SLOTS,
    N_SPACES,
)
from bgsim.sim.games.carpe_diem.decisions import PATRICIAN as PATRICIAN_DECISION
from bgsim.sim.games.carpe_diem.param_slots import (
    PR_ANNA_BOTTOM,
    PR_N_PLAYERS,
    PR_PATRICIANS_AFTER_REVEAL,
    PR_SOLO,
    PR_SOLO_CARDS,
    PR_START_VP,
)
from bgsim.sim.games.carpe_diem.state import (
    ANNA,
    ANNA_DECK,
    ANNA_RAND,
    ANNA_RAND_N,
    ANNA_RAND_NEXT,
    BANNER_LEFT,
    BANNER_STAMP,
    BOARD,
    CELL_TILE,
    DARK_STOCK,
    DEPOT,
    DISC,
    DISC_LIVE,
    DISCS,
    FDECK,
    FDECK_COUNT,
    FDECK_HEAD,
    FRAME_PIECE,
    LIGHT_STOCK,
    N_NODES,
    N_PLAYERS,
    PATRICIAN,
    PATRICIANS_REVEALED,
    PHASE,
    RAND_RANGE,
    SEAL,
    SEAT,
    SETUP_NEXT,
    SLOT_CARD,
    SOLO,
    STAMP,
    STATE_SIZE,
    UF_PARENT,
    VP,
    VP_START,
)
from bgsim.sim.games.carpe_diem.tables import (
    T_BOARD_BANNER,
    T_DARK,
    T_DECK_FIRST,
    T_DECK_SIZE,
    T_LIGHT,
)
from bgsim.sim.rng import below, shuffle
from numba import njit

AUTOMA_CARDS = 8

# The rule tables of constants.py as the arrays the kernels index: scoring cards per deck by player
# count (none below 2: a solo game draws p[PR_SOLO_CARDS]), and the two card slots beside each disc space.
CARDS_PER_DECK = np.array([constants.CARDS_PER_DECK.get(n, (0, 0, 0, 0)) for n in range(MAX_P + 1)], dtype=np.int64)
DISC_SLOT_A = np.array(constants.DISC_SLOT_A, dtype=np.int64)
DISC_SLOT_B = np.array(constants.DISC_SLOT_B, dtype=np.int64)


@njit(cache=True)
def new_game(t, p, chance_seed, empty_slots):
    """A fresh (STATE_SIZE,) int32 state, dealt from ``chance_seed`` (uint64).

    ``empty_slots`` (k,) int64: card slots left empty for this player count (CD-SETUP-7).
    """
    s = np.zeros(STATE_SIZE, dtype=np.int32)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = chance_seed
    n = p[PR_N_PLAYERS]
    s[N_PLAYERS] = n
    solo = p[PR_SOLO] == 1
    s[SOLO] = p[PR_SOLO]

    boards = np.arange(N_BOARDS)
    shuffle(boards, rng, 0)
    frames = np.arange(N_FRAME_PIECES)
    shuffle(frames, rng, 0)
    for seat in range(MAX_P):
        s[PATRICIAN + seat] = -1
        for cell in range(N_CELLS):
            s[CELL_TILE + seat * N_CELLS + cell] = -1
        for node in range(N_NODES):
            s[UF_PARENT + seat * N_NODES + node] = -1
        if seat >= n:
            continue
        s[VP + seat] = p[PR_START_VP + seat]  # CD-SETUP-14 (parameter start_vp; rulebook by default)
        s[VP_START + seat] = p[PR_START_VP + seat]
        s[BANNER_STAMP + seat] = seat + 1  # CD-SETUP-13: seat 0 at the bottom of the stack
        if solo and seat == ANNA_SEAT:
            s[BOARD + seat] = -1  # CD-ANNA-3: no district, frame or discs
            s[BANNER_STAMP + seat] = 0 if p[PR_ANNA_BOTTOM] else 2  # AMB-21
            continue
        s[BOARD + seat] = boards[seat]  # CD-SETUP-3
        for side in range(4):
            s[FRAME_PIECE + seat * 4 + side] = frames[seat * 4 + side]  # CD-SETUP-2
        for cell in range(N_CELLS):
            s[BANNER_LEFT + seat * N_CELLS + cell] = t[T_BOARD_BANNER + boards[seat] * N_CELLS + cell]
        s[DISCS + seat] = N_DISCS
    s[STAMP] = n

    # CD-SETUP-6/7: draw per deck, shuffle the drawn cards together, lay them on the live slots.
    drawn = np.empty(12, dtype=np.int64)
    n_drawn = 0
    for deck in range(4):
        size = t[T_DECK_SIZE + deck]
        pile = np.arange(size) + t[T_DECK_FIRST + deck]
        shuffle(pile, rng, 0)
        drawn_here = p[PR_SOLO_CARDS + deck] if solo else CARDS_PER_DECK[n, deck]  # CD-ANNA-4
        for i in range(drawn_here):
            drawn[n_drawn] = pile[i]
            n_drawn += 1
    layout = drawn[:n_drawn].copy()
    shuffle(layout, rng, 0)
    i = 0
    for slot in range(N_SLOTS):
        s[SLOT_CARD + slot] = -1
        empty = False
        for e in range(empty_slots.shape[0]):
            if empty_slots[e] == slot:
                empty = True
        if not empty:
            s[SLOT_CARD + slot] = layout[i]
            i += 1
    for space in range(N_DISC_SPACES):  # CD-SETUP-8
        s[DISC + space] = -1
        live = s[SLOT_CARD + DISC_SLOT_A[space]] >= 0 and s[SLOT_CARD + DISC_SLOT_B[space]] >= 0
        s[DISC_LIVE + space] = 1 if live else 0

    fountain = np.arange(N_FOUNTAIN_CARDS)  # CD-SETUP-9
    shuffle(fountain, rng, 0)
    for c in range(N_FOUNTAIN_CARDS):
        s[FDECK + c] = fountain[c]
    s[FDECK_HEAD] = 0
    s[FDECK_COUNT] = N_FOUNTAIN_CARDS

    light = np.empty(N_LIGHT, dtype=np.int64)  # CD-SETUP-10
    for i in range(N_LIGHT):
        light[i] = t[T_LIGHT + i]
    shuffle(light, rng, 0)
    dark = np.empty(N_DARK, dtype=np.int64)
    for i in range(N_DARK):
        dark[i] = t[T_DARK + i]
    shuffle(dark, rng, 0)
    for i in range(N_LIGHT):
        s[LIGHT_STOCK + i] = light[i]
    for i in range(N_DARK):
        s[DARK_STOCK + i] = dark[i]
    for i in range(N_SEALS):
        s[SEAL + i] = dark[i]
    deal_pass(s, 1)  # CD-SETUP-12: revealed after the patricians are placed (AMB-14)
    if solo:
        _anna_setup(s, rng)
    s[SETUP_NEXT] = 0
    s[PATRICIANS_REVEALED] = p[PR_PATRICIANS_AFTER_REVEAL]  # AMB-14
    s[PHASE] = PATRICIAN_DECISION  # D01, seat 0 first
    s[SEAT] = 0
    return s


@njit(cache=True)
def deal_pass(s, pass_no):
    """Deal 4 tiles per depot: light tiles for passes 1-3, the 28 remaining dark tiles for pass 4."""
    for space in range(N_SPACES):
        for j in range(DEPOT_SIZE):
            k = space * DEPOT_SIZE + j
            if pass_no <= 3:
                tile = s[LIGHT_STOCK + (pass_no - 1) * 28 + k]
            else:
                tile = s[DARK_STOCK + N_SEALS + k]
            s[DEPOT + k] = tile


@njit(cache=True)
def _anna_setup(s, rng):
    """CD-ANNA-11/12: Anna's coin, bread and first fountain card; the automa deck; her draws."""
    a = ANNA
    s[a + AN_COINS] = 1
    s[a + AN_BREAD] = 1
    if s[FDECK_COUNT] > 0:
        s[a + AN_PILE] = s[FDECK + s[FDECK_HEAD]]
        s[a + AN_PILE_N] = 1
        s[FDECK_HEAD] = (s[FDECK_HEAD] + 1) % N_FOUNTAIN_CARDS
        s[FDECK_COUNT] -= 1
    deck = np.arange(AUTOMA_CARDS)
    shuffle(deck, rng, 0)
    for i in range(AUTOMA_CARDS):
        s[ANNA_DECK + i] = deck[i]
    for i in range(ANNA_RAND_N):
        s[ANNA_RAND + i] = below(rng, 0, RAND_RANGE)
    s[ANNA_RAND_NEXT] = 0


@njit(cache=True)
def deal_into(s, t, p, empty_slots, chance_seed, log):
    """``new_game`` into ``s`` ((STATE_SIZE,) int32): the dealing kernel of every game's signature
    (``sim.games.base``); the deal writes no events."""
    s[:] = new_game(t, p, chance_seed, empty_slots)
