"""The automa Anna's rules as compiled kernels (CD-ANNA-14..19, -22..24).

They work on Anna's own record, ``a`` (ANNA_SIZE,) int32 (layout below), the component table
``t`` (TABLES_SIZE,) int32, and the arrays of anna_data.anna_arrays. Her turn in the play loop
calls them in this order: candidates -> choose -> gain (with craftsman and fountain follow-ups)
-> convert; the final scoring calls anna_final_vp.
"""

import numpy as np
from bgsim.sim.games.carpe_diem.constants import (
    ADMINISTRATOR,
    AN_BREAD,
    AN_COINS,
    AN_GOODS,
    AN_PILE,
    AN_PILE_N,
    AN_TRACK,
    BAKER,
    BAKERY,
    CHICKEN_YARD,
    CRAFTSMAN,
    FOUNTAIN,
    GARDEN,
    LANDSCAPE_FIRST,
    LANDSCAPE_LAST,
    LODGING_FIRST,
    LODGING_LAST,
    MARKET,
    MERCHANT,
    N_GOODS,
    N_TYPES,
    POND,
    VILLA,
    VINEYARD,
)
from bgsim.sim.games.carpe_diem.kernels.district import villa_vp
from bgsim.sim.games.carpe_diem.tables import T_FOUNTAIN_COUNTER, T_FOUNTAIN_VP, T_PART_CHIM, T_PART_TYPE, T_TILE_NPARTS
from numba import njit

# Goods a landscape part gives (CD-ANNA-17): index = type code, -1 = none.
_GOOD_OF = np.full(N_TYPES, -1, dtype=np.int64)
_GOOD_OF[POND], _GOOD_OF[GARDEN], _GOOD_OF[VINEYARD], _GOOD_OF[CHICKEN_YARD] = 0, 1, 2, 3

CONVERT_AT = 5  # CD-ANNA-19: 5 coins, bread and goods in total -> 1 banner step


@njit(cache=True)
def specialisation(a, t):
    """The feature type on Anna's top fountain card (CD-ANNA-11), 0 with an empty pile."""
    n = a[AN_PILE_N]
    return 0 if n == 0 else t[T_FOUNTAIN_COUNTER + a[AN_PILE + n - 1]]


@njit(cache=True)
def shows(t, tile, ptype):
    """Does ``tile`` have a part of type ``ptype``? (CD-ANNA-14)"""
    return t[T_PART_TYPE + tile * 2] == ptype or t[T_PART_TYPE + tile * 2 + 1] == ptype


@njit(cache=True)
def anna_candidates(a, t, depot, row_symbols, out):
    """CD-ANNA-14: write the candidate tiles into ``out`` and return (count, the type they show).

    depot (k,) int32 tile ids; row_symbols (12,) int32 types in priority order, -1 after the last.
    Candidates: the tiles showing Anna's specialisation, else those showing the first row symbol
    found in the depot; else (AMB-28 safety net) every tile, with type 0.
    """
    required = specialisation(a, t)
    if required > 0:
        n = _collect(t, depot, required, out)
        if n > 0:
            return n, required
    for s in range(row_symbols.shape[0]):
        symbol = row_symbols[s]
        if symbol < 0:
            break
        n = _collect(t, depot, symbol, out)
        if n > 0:
            return n, symbol
    for i in range(depot.shape[0]):
        out[i] = depot[i]
    return depot.shape[0], 0


@njit(cache=True)
def _collect(t, depot, ptype, out):
    n = 0
    for i in range(depot.shape[0]):
        if shows(t, depot[i], ptype):
            out[n] = depot[i]
            n += 1
    return n


@njit(cache=True)
def _group_rank(ptype):
    """CD-ANNA-15 (b): villa > lodging > landscape > small building."""
    if ptype == VILLA:
        return 4
    if LODGING_FIRST <= ptype <= LODGING_LAST:
        return 3
    if LANDSCAPE_FIRST <= ptype <= LANDSCAPE_LAST:
        return 2
    return 1 if ptype > 0 else 0


@njit(cache=True)
def _other_part(t, tile, required):
    """The type of the part that is not ``required`` (0 on a one-part tile)."""
    if t[T_TILE_NPARTS + tile] < 2:
        return 0
    first = t[T_PART_TYPE + tile * 2]
    return t[T_PART_TYPE + tile * 2 + 1] if first == required else first


@njit(cache=True)
def _villa_chimneys(t, tile):
    for p in range(2):
        if t[T_PART_TYPE + tile * 2 + p] == VILLA:
            return t[T_PART_CHIM + tile * 2 + p]
    return -1


DEFAULT_ORDER = np.array((0, 1, 2, 3), dtype=np.int64)  # CD-ANNA-15 (a), (b), (c), (d)


@njit(cache=True)
def anna_choose(a, t, candidates, n, required, out, order=DEFAULT_ORDER):
    """CD-ANNA-15 (a)-(d) with AMB-22's reading: write the best candidates into ``out`` and return
    how many tie; more than one leaves the choice to (e), the anna_tiebreak parameter.

    Criteria, compared in ``order`` ((4,) int64 criterion 0..3 = a..d, -1 = unused): (a) two parts
    first; (b) the group of the other part; (c) that part's track cube furthest back; (d) the most
    chimneys on a villa part.
    """
    best = np.full(4, -(1 << 30), dtype=np.int64)
    key = np.zeros(4, dtype=np.int64)
    m = 0
    for i in range(n):
        tile = candidates[i]
        other = _other_part(t, tile, required)
        for j in range(4):
            criterion = order[j]
            if criterion == 0:
                key[j] = t[T_TILE_NPARTS + tile]
            elif criterion == 1:
                key[j] = _group_rank(other)
            elif criterion == 2:
                key[j] = -a[AN_TRACK + other] if other > 0 else 0
            elif criterion == 3:
                key[j] = _villa_chimneys(t, tile)
            else:
                key[j] = 0
        verdict = _compare(key, best)
        if verdict > 0:
            best[:] = key
            out[0] = tile
            m = 1
        elif verdict == 0:
            out[m] = tile
            m += 1
    return m


@njit(cache=True)
def _compare(x, y):
    for i in range(x.shape[0]):
        if x[i] != y[i]:
            return 1 if x[i] > y[i] else -1
    return 0


@njit(cache=True)
def anna_gain(a, tile, t, villa_by_chimneys=True, track_len=0):
    """CD-ANNA-16/17: advance the tracks of every part of ``tile`` and grant the bonuses.

    Returns (banner steps, craftsman rolls owed, fountain cards owed): the play loop moves her
    banner disc (CD-ANNA-20), rolls the die (CD-ANNA-18) and draws from the fountain deck.
    ``villa_by_chimneys`` False: a villa part advances 1 field (AMB-23 for the craftsman's tile).
    ``track_len`` > 0: a cube stops on the last field (AMB-29); the bonus is granted all the same.
    """
    steps = rolls = draws = 0
    for p in range(t[T_TILE_NPARTS + tile]):
        ptype = t[T_PART_TYPE + tile * 2 + p]
        advance = 1
        if ptype == VILLA:
            advance = t[T_PART_CHIM + tile * 2 + p] if villa_by_chimneys else 1
        a[AN_TRACK + ptype] += advance
        if track_len > 0:
            a[AN_TRACK + ptype] = min(a[AN_TRACK + ptype], track_len - 1)
        if ptype == VILLA:
            continue
        if ptype == MERCHANT or ptype == MARKET:
            a[AN_COINS] += 1
        elif ptype == BAKER:
            a[AN_BREAD] += 2
        elif ptype == BAKERY:
            a[AN_BREAD] += 1
        elif ptype == ADMINISTRATOR:
            steps += 2
        elif ptype == CRAFTSMAN:
            rolls += 1
        elif ptype == FOUNTAIN:
            draws += 1
        elif _GOOD_OF[ptype] >= 0:
            a[AN_GOODS + _GOOD_OF[ptype]] += 1
    return steps, rolls, draws


@njit(cache=True)
def anna_convert(a, at=CONVERT_AT, mode=0, return_all=False):
    """CD-ANNA-19: while Anna holds ``at`` items, return them and gain a banner step; returns the
    steps. AMB-4 ``mode``: 0 coins + bread + goods in total, 1 ``at`` of one category (coins,
    bread, goods of any kinds), 2 ``at`` of one kind; ``return_all``: the converting kind or
    category goes back whole. Which items of a total go back does not matter: Anna spends nothing
    else and scores no leftovers (CD-ANNA-22)."""
    steps = 0
    if mode == 0:
        end = AN_GOODS + N_GOODS
        while _material(a, AN_COINS, end) >= at:
            _give_back(a, AN_COINS, end, _material(a, AN_COINS, end) if return_all else at)
            steps += 1
        return steps
    groups = np.array((AN_COINS, AN_BREAD, AN_GOODS, AN_GOODS + N_GOODS), dtype=np.int64)
    if mode == 2:
        groups = np.arange(AN_COINS, AN_GOODS + N_GOODS + 1).astype(np.int64)
    for g in range(groups.shape[0] - 1):
        while _material(a, groups[g], groups[g + 1]) >= at:
            held = _material(a, groups[g], groups[g + 1])
            _give_back(a, groups[g], groups[g + 1], held if return_all else at)
            steps += 1
    return steps


@njit(cache=True)
def _give_back(a, first, stop, due):
    for i in range(first, stop):
        take = min(due, a[i])
        a[i] -= take
        due -= take


@njit(cache=True)
def _material(a, first=AN_COINS, stop=AN_GOODS + N_GOODS):
    total = 0
    for i in range(first, stop):
        total += a[i]
    return total


REROLL = -2  # craftsman_slot: roll again (AMB-5 "reroll")


@njit(cache=True)
def craftsman_slot(seal_tiles, roll, overflow=0):
    """CD-ANNA-18: the seal space of the ``roll``-th tile still lying, counted from the left over the
    occupied spaces; -1 if none lies. seal_tiles (11,) int32, -1 = empty. A roll above the tiles
    left (AMB-5 ``overflow``): 0 counts on cyclically, 1 takes the last, 2 returns REROLL."""
    m = 0
    for s in range(seal_tiles.shape[0]):
        if seal_tiles[s] >= 0:
            m += 1
    if m == 0:
        return -1
    if roll > m and overflow == 2:
        return REROLL
    k = min(roll, m) if overflow == 1 else (roll - 1) % m + 1
    for s in range(seal_tiles.shape[0]):
        if seal_tiles[s] >= 0:
            k -= 1
            if k == 0:
                return s
    return -1


@njit(cache=True)
def anna_count(a, grey, ptype, villa_divisor=5):
    """Anna's count of ``ptype`` for majorities and fountain cards (CD-ANNA-23): the grey number
    under the cube (the last one past the end of the track, AMB-29); villas: chimneys // divisor
    (AMB-25), 0 with divisor 0. grey (13, F) int32."""
    if ptype == VILLA:
        return a[AN_TRACK + VILLA] // villa_divisor if villa_divisor > 0 else 0
    field = min(a[AN_TRACK + ptype], grey.shape[1] - 1)
    return grey[ptype, field]


@njit(cache=True)
def majority_vp(anna, human, zero_tie_vp=5, win_vp=10):
    """CD-ANNA-23: ``win_vp`` (10) if Anna's count is higher, half of it on a tie; a 0-0 tie pays
    AMB-24's ``zero_tie_vp``, at most a normal tie's VP."""
    if anna > human:
        return win_vp
    if anna == human:
        return min(zero_tie_vp, win_vp // 2) if anna == 0 else win_vp // 2
    return 0


@njit(cache=True)
def anna_fountain_vp(a, t, grey, villa_divisor=5):
    """CD-ANNA-24: every card of Anna's pile scores its VP per item of Anna's count of its type."""
    total = 0
    for i in range(a[AN_PILE_N]):
        card = a[AN_PILE + i]
        total += t[T_FOUNTAIN_VP + card] * anna_count(a, grey, t[T_FOUNTAIN_COUNTER + card], villa_divisor)
    return total


@njit(cache=True)
def anna_villa_vp(a, t, mode=0):
    """CD-ANNA-22, her villa-track VP by AMB-26 ``mode``: 0 the villa table on her chimney total,
    1 one VP per chimney, 2 virtual villas of 5 chimneys and one of the rest."""
    chimneys = a[AN_TRACK + VILLA]
    if mode == 1:
        return chimneys
    if mode == 2:
        return (chimneys // 5) * villa_vp(t, 5) + (villa_vp(t, chimneys % 5) if chimneys % 5 else 0)
    return villa_vp(t, chimneys)
