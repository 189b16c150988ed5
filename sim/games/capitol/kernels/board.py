"""The board's rules that several kernels share: where a house may go (CAP-BUILD-13..16), where an
item may go (CAP-AUCTION-9), and the ranking of a prefecture (CAP-SCORE-7)."""

from bgsim.sim.borrow import njit_without_refcounts
from bgsim.sim.games.capitol.components import BT_COLOUR
from bgsim.sim.games.capitol.param_slots import (
    PR_FIRST_TIEBREAK,
    PR_HEIGHT_TIE_LOSERS,
    PR_SHARED_FIRST_SECOND,
    PR_TEMPLE_FROM,
)
from bgsim.sim.games.capitol.state import (
    FOUNTAIN,
    FOUNTAINS,
    FREE,
    HOUSES,
    LARGE,
    MAX_P,
    MAX_PREF,
    N_PLAYERS,
    ROUND,
    SHAPE,
    STONES,
    TALLEST,
    TEMPLE,
    TEMPLE_ROUND,
    TOP,
)

__all__ = ["amphitheatre_draws", "house_fits", "item_fits", "item_gain", "n_prefectures", "place_points", "rank_masks",
           "temple_factor"]


@njit_without_refcounts
def n_prefectures(t):
    return t[MAX_PREF, 0]


@njit_without_refcounts
def house_fits(s, t, pref, height, shape):
    """1 if a finished house (``height``, ``shape``) may go into ``pref`` now (CAP-BUILD-13..16);
    the permit's colour is the caller's check."""
    if s[FREE + pref] <= 0:  # CAP-BUILD-13
        return 0
    if s[HOUSES + pref] > 0:
        if s[SHAPE + pref] != shape:  # CAP-BUILD-14
            return 0
        tallest = s[TALLEST + pref]
        return 1 if height == tallest or height == tallest + 1 else 0  # CAP-BUILD-16
    if height != 1:  # CAP-BUILD-16: the first house has height 1
        return 0
    # CAP-BUILD-15: the group's prefectures must not all hold houses of one shape
    colour = t[pref, BT_COLOUR]
    others = 0
    same = 0
    for q in range(n_prefectures(t)):
        if q != pref and t[q, BT_COLOUR] == colour:
            others += 1
            if s[HOUSES + q] > 0 and s[SHAPE + q] == shape:
                same += 1
    return 0 if others > 0 and same == others else 1


@njit_without_refcounts
def item_fits(s, t, pref, item):
    """1 if ``item`` may go into ``pref`` (CAP-AUCTION-9, -10): a fountain on a free small space,
    an amphitheatre or temple on a free large site."""
    if pref >= n_prefectures(t):
        return 0
    if item == FOUNTAIN:
        return 1 if s[FREE + pref] > 0 else 0
    return 1 if s[LARGE + pref] == 0 else 0


@njit_without_refcounts
def temple_factor(s, p, pref):
    """2 if a temple doubles ``pref``'s points in this round's scoring (CAP-SCORE-8, AMB-3), else 1."""
    if s[LARGE + pref] != TEMPLE:
        return 1
    if p[PR_TEMPLE_FROM] == 1 and s[TEMPLE_ROUND + pref] >= s[ROUND]:
        return 1
    return 2


@njit_without_refcounts
def rank_masks(s, p, pref, extra_seat, extra_height):
    """(first, second) seat bitmasks of ``pref`` by CAP-SCORE-7, as if ``extra_seat`` (-1: nobody)
    had one more house of ``extra_height`` there (the features ask "what if")."""
    n = s[N_PLAYERS]
    best = 0
    for seat in range(n):
        st = s[STONES + pref * MAX_P + seat] + (extra_height if seat == extra_seat else 0)
        if st > best:
            best = st
    if best == 0:
        return 0, 0
    tied = 0
    n_tied = 0
    present = 0
    top_h = 0
    for seat in range(n):
        st = s[STONES + pref * MAX_P + seat] + (extra_height if seat == extra_seat else 0)
        if st > 0:
            present += 1
        if st == best:
            tied |= 1 << seat
            n_tied += 1
            h = _top(s, pref, seat, extra_seat, extra_height)
            if h > top_h:
                top_h = h
    first = tied
    if n_tied > 1 and p[PR_FIRST_TIEBREAK] == 0:  # AMB-2 tallest_house
        first = 0
        for seat in range(n):
            if (tied >> seat) & 1 and _top(s, pref, seat, extra_seat, extra_height) == top_h:
                first |= 1 << seat
    if present == 1:  # CAP-SCORE-4
        return first, 0
    lost_on_height = tied & ~first
    if lost_on_height != 0 and p[PR_HEIGHT_TIE_LOSERS] == 0:  # CAP-SCORE-6: lost the tie on height only
        return first, lost_on_height
    shared_first = (first & (first - 1)) != 0  # two seats or more (the height losers are not among them)
    if shared_first and p[PR_SHARED_FIRST_SECOND] == 1:  # AMB-1 none
        return first, 0
    second_best = 0
    for seat in range(n):
        st = s[STONES + pref * MAX_P + seat] + (extra_height if seat == extra_seat else 0)
        if st < best and st > second_best:
            second_best = st
    if second_best == 0:
        return first, 0
    second = 0
    for seat in range(n):
        st = s[STONES + pref * MAX_P + seat] + (extra_height if seat == extra_seat else 0)
        if st == second_best:
            second |= 1 << seat
    return first, second


@njit_without_refcounts
def _top(s, pref, seat, extra_seat, extra_height):
    h = s[TOP + pref * MAX_P + seat]
    if seat == extra_seat and extra_height > h:
        return extra_height
    return h


@njit_without_refcounts
def place_points(first, second, seat, fountains, factor):
    """Points ``seat`` gets from a prefecture with these rank masks (CAP-SCORE-3, -8)."""
    if (first >> seat) & 1:
        return (2 + fountains) * factor
    if (second >> seat) & 1:
        return fountains * factor
    return 0


@njit_without_refcounts
def amphitheatre_draws(first, second, seat):
    """Bonus draws ``seat`` gets from an amphitheatre prefecture with these masks (CAP-DRAW-6)."""
    if (first >> seat) & 1:
        return 2
    if (second >> seat) & 1:
        return 1
    return 0



@njit_without_refcounts
def item_gain(s, p, pref, item, seat):
    """What ``item`` placed in ``pref`` now gives ``seat`` per scoring: points (a fountain, a
    temple) or draws (an amphitheatre), by the current ranking."""
    first, second = rank_masks(s, p, pref, -1, 0)
    if item == FOUNTAIN:
        return temple_factor(s, p, pref) if ((first | second) >> seat) & 1 else 0
    if item == TEMPLE:
        return place_points(first, second, seat, s[FOUNTAINS + pref], 1)
    return amphitheatre_draws(first, second, seat)
