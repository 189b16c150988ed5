"""Compiled kernels for what a seat may see (CD-INFO) and determinisation for search players.

Hidden from a seat (CD-INFO-2/4): the order of the undealt light and dark tiles, the pass-1 depot
before it is revealed (AMB-14), which fountain cards lie in the deck and in the opponents' hands
(and the cards an opponent has just drawn, D07), Anna's automa cards still face down and the
draws for her dice and random ties to come. Everything else is public (CD-INFO-1); stored tiles
count as public (CD-INFO-2), and so does Anna's fountain pile.

``observe`` writes a seat's view: the state with every hidden part in a canonical arrangement
(sorted values; Anna's draws 0), so two states that differ only in what the seat cannot see give
the same view. ``determinise`` turns a view (or a state) back into a full state by rearranging
the hidden parts at random. Hidden values are sorted before they are shuffled, so the result
depends only on the visible state and the random stream, never on the true hidden arrangement.
(A seat also knows which fountain cards it put under the deck; a view forgets that, which only
costs it a little information.)
"""

import numpy as np
from bgsim.sim.games.carpe_diem.constants import DEPOT_SIZE, N_DARK, N_FOUNTAIN_CARDS, N_LIGHT, N_SEALS, N_SPACES
from bgsim.sim.games.carpe_diem.state import (
    ANNA_DECK,
    ANNA_RAND,
    ANNA_RAND_N,
    ANNA_RAND_NEXT,
    DARK_STOCK,
    DEPOT,
    FD_DRAWN,
    FD_NDRAWN,
    FDECK,
    FDECK_COUNT,
    FDECK_HEAD,
    FOUNTAIN_HELD,
    FOUNTAIN_N,
    LIGHT_STOCK,
    N_PLAYERS,
    PASS_NO,
    PATRICIANS_REVEALED,
    RAND_RANGE,
    SEAT,
    SOLO,
)
from bgsim.sim.rng import below, shuffle
from numba import njit

__all__ = ["determinise", "observe"]

_PASS_TILES = N_SPACES * DEPOT_SIZE  # light tiles dealt per pass (28)


_SIDE = np.uint64(0x5851F42D4C957F2D)  # offsets the side stream for Anna's past draws


@njit(cache=True)
def _reshuffle(s, start, stop, rng):
    """Sort, then shuffle ``s[start:stop]`` in place: a uniform order that ignores the old one."""
    if stop - start < 2:
        return
    values = np.sort(s[start:stop].copy())
    shuffle(values, rng, 0)
    for i in range(stop - start):
        s[start + i] = values[i]


@njit(cache=True)
def _sort(s, start, stop):
    """Sort ``s[start:stop]`` in place: the canonical order of a hidden sequence."""
    if stop - start < 2:
        return
    values = np.sort(s[start:stop].copy())
    for i in range(stop - start):
        s[start + i] = values[i]


@njit(cache=True)
def _tile_stocks(s, rng, canonical):
    """Rearrange the undealt tiles: sorted when ``canonical``, else shuffled from ``rng``."""
    pass_no = s[PASS_NO]
    if pass_no == 0 and s[PATRICIANS_REVEALED] == 0:
        # AMB-14: the pass-1 depots lie face down while the patricians are placed.
        if canonical:
            _sort(s, LIGHT_STOCK, LIGHT_STOCK + N_LIGHT)
        else:
            _reshuffle(s, LIGHT_STOCK, LIGHT_STOCK + N_LIGHT, rng)
        for k in range(_PASS_TILES):
            s[DEPOT + k] = s[LIGHT_STOCK + k]
    else:
        first_hidden = _PASS_TILES * max(pass_no, 1)  # passes 1-3 deal light entries 28(p-1)..28p-1
        if canonical:
            _sort(s, LIGHT_STOCK + min(first_hidden, N_LIGHT), LIGHT_STOCK + N_LIGHT)
        else:
            _reshuffle(s, LIGHT_STOCK + min(first_hidden, N_LIGHT), LIGHT_STOCK + N_LIGHT, rng)
    if pass_no < 4:  # the dark tiles for pass 4 (the first N_SEALS went face up to the seals)
        if canonical:
            _sort(s, DARK_STOCK + N_SEALS, DARK_STOCK + N_DARK)
        else:
            _reshuffle(s, DARK_STOCK + N_SEALS, DARK_STOCK + N_DARK, rng)


@njit(cache=True)
def _fountain_cards(s, seat, rng, canonical):
    """The deck, the opponents' hands and an opponent's pending draw form one hidden pool
    (CD-INFO-2): dealt back sorted when ``canonical``, else shuffled, in the same places."""
    n = s[N_PLAYERS]
    drawn = s[FD_NDRAWN] if s[SEAT] != seat else 0  # an opponent's pending fountain draw (D07)
    pool = np.empty(N_FOUNTAIN_CARDS, dtype=np.int64)
    m = 0
    for other in range(n):
        if other != seat:
            for i in range(s[FOUNTAIN_N + other]):
                pool[m] = s[FOUNTAIN_HELD + other * N_FOUNTAIN_CARDS + i]
                m += 1
    head = s[FDECK_HEAD]
    for i in range(s[FDECK_COUNT]):
        pool[m] = s[FDECK + (head + i) % N_FOUNTAIN_CARDS]
        m += 1
    for i in range(drawn):
        pool[m] = s[FD_DRAWN + i]
        m += 1
    cards = np.sort(pool[:m])
    if not canonical:
        shuffle(cards, rng, 0)
    m = 0
    for other in range(n):
        if other != seat:
            for i in range(s[FOUNTAIN_N + other]):
                s[FOUNTAIN_HELD + other * N_FOUNTAIN_CARDS + i] = cards[m]
                m += 1
    for i in range(s[FDECK_COUNT]):
        s[FDECK + (head + i) % N_FOUNTAIN_CARDS] = cards[m]
        m += 1
    for i in range(drawn):
        s[FD_DRAWN + i] = cards[m]
        m += 1


@njit(cache=True)
def observe(s, seat, out):
    """Write ``seat``'s view of state ``s`` ((STATE_SIZE,) int32) into ``out`` (same shape): a
    copy with every hidden part in its canonical arrangement. ``s`` is not changed."""
    out[:] = s
    no_rng = np.empty(0, dtype=np.uint64)  # canonical: nothing is drawn
    _tile_stocks(out, no_rng, True)
    _fountain_cards(out, seat, no_rng, True)
    for i in range(out[FD_NDRAWN], 2):  # left over from an earlier draw; would tell whose hand holds them
        out[FD_DRAWN + i] = -1
    if out[SOLO]:  # Anna's automa cards still face down, and every raw draw of her dice (CD-INFO-4)
        _sort(out, ANNA_DECK + out[PASS_NO], ANNA_DECK + 8)
        out[ANNA_RAND: ANNA_RAND + ANNA_RAND_N] = 0


@njit(cache=True)
def determinise(s, seat, rng):
    """Rearrange, in place, what ``seat`` cannot see in state or view ``s`` ((STATE_SIZE,) int32).

    ``rng`` (1,) uint64 SplitMix64 stream, advanced. Visible parts (districts, depots once
    revealed, seals, scoring cards, supplies, own fountain cards) are left untouched, so every
    action legal before is legal after.
    """
    _tile_stocks(s, rng, False)
    _fountain_cards(s, seat, rng, False)
    if s[SOLO]:  # Anna's automa cards still face down, and her dice to come (CD-INFO-4)
        _reshuffle(s, ANNA_DECK + s[PASS_NO], ANNA_DECK + 8, rng)
        for i in range(s[ANNA_RAND_NEXT], ANNA_RAND_N):
            s[ANNA_RAND + i] = below(rng, 0, RAND_RANGE)
        # the entries already used come round again only in a game of more than ANNA_RAND_N draws;
        # a side stream refills them, so ``rng`` advances exactly as it does without them
        side = np.empty(1, dtype=np.uint64)
        side[0] = rng[0] ^ _SIDE
        for i in range(s[ANNA_RAND_NEXT]):
            s[ANNA_RAND + i] = below(side, 0, RAND_RANGE)
