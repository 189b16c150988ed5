"""The automa Anna's rules as compiled kernels (CD-ANNA-14..19, -22..24).

They work on Anna's own record, ``a`` (ANNA_SIZE,) int32 (layout below), the component table
``t`` (TABLES_SIZE,) int32, and the arrays of anna_data.anna_arrays. Her turn in the play loop
calls them in this order: candidates -> choose -> gain (with craftsman and fountain follow-ups)
-> convert; the final scoring calls anna_final_vp.
"""

import numpy as np
from numba import njit

from sim.games.carpe_diem.constants import (
    ADMINISTRATOR,
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
from sim.games.carpe_diem.kernels.district import villa_vp
from sim.games.carpe_diem.tables import T_FOUNTAIN_COUNTER, T_FOUNTAIN_VP, T_PART_CHIM, T_PART_TYPE, T_TILE_NPARTS

# Anna's record: track cube per feature type (index = type code; villa = chimneys), her coins,
# bread and goods, and her fountain-card pile (bottom first; the top card is her specialisation).
AN_TRACK = 0
AN_COINS = N_TYPES
AN_BREAD = AN_COINS + 1
AN_GOODS = AN_BREAD + 1
AN_PILE_N = AN_GOODS + N_GOODS
AN_PILE = AN_PILE_N + 1
PILE_MAX = 24
ANNA_SIZE = AN_PILE + PILE_MAX

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


@njit(cache=True)
def anna_choose(a, t, candidates, n, required, out):
    """CD-ANNA-15 (a)-(d) with AMB-22's reading: write the best candidates into ``out`` and return
    how many tie; more than one leaves the choice to (e), the anna_tiebreak parameter.

    Key, compared in order: two parts first; the group of the other part; that part's track cube
    furthest back; the most chimneys on a villa part.
    """
    best = np.full(4, -(1 << 30), dtype=np.int64)
    m = 0
    for i in range(n):
        tile = candidates[i]
        other = _other_part(t, tile, required)
        key = np.array((t[T_TILE_NPARTS + tile], _group_rank(other),
                        -a[AN_TRACK + other] if other > 0 else 0, _villa_chimneys(t, tile)), dtype=np.int64)
        order = _compare(key, best)
        if order > 0:
            best[:] = key
            out[0] = tile
            m = 1
        elif order == 0:
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
def anna_gain(a, tile, t, villa_by_chimneys=True):
    """CD-ANNA-16/17: advance the tracks of every part of ``tile`` and grant the bonuses.

    Returns (banner steps, craftsman rolls owed, fountain cards owed): the play loop moves her
    banner disc (CD-ANNA-20), rolls the die (CD-ANNA-18) and draws from the fountain deck.
    ``villa_by_chimneys`` False: a villa part advances 1 field (AMB-23 for the craftsman's tile).
    """
    steps = rolls = draws = 0
    for p in range(t[T_TILE_NPARTS + tile]):
        ptype = t[T_PART_TYPE + tile * 2 + p]
        if ptype == VILLA:
            a[AN_TRACK + VILLA] += t[T_PART_CHIM + tile * 2 + p] if villa_by_chimneys else 1
            continue
        a[AN_TRACK + ptype] += 1
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
def anna_convert(a):
    """CD-ANNA-19 (AMB-4 "total"): while coins + bread + goods >= 5, return 5 and gain a banner
    step; returns the steps. Which items go back does not matter: Anna spends nothing else and
    scores no leftovers (CD-ANNA-22)."""
    steps = 0
    while _material(a) >= CONVERT_AT:
        due = CONVERT_AT
        for i in range(AN_COINS, AN_GOODS + N_GOODS):
            take = min(due, a[i])
            a[i] -= take
            due -= take
        steps += 1
    return steps


@njit(cache=True)
def _material(a):
    total = 0
    for i in range(AN_COINS, AN_GOODS + N_GOODS):
        total += a[i]
    return total


@njit(cache=True)
def craftsman_slot(seal_tiles, roll):
    """CD-ANNA-18 with AMB-5 "cyclic": the seal space of the ``roll``-th tile still lying, counted
    from the left over the occupied spaces; -1 if none lies. seal_tiles (11,) int32, -1 = empty."""
    m = 0
    for s in range(seal_tiles.shape[0]):
        if seal_tiles[s] >= 0:
            m += 1
    if m == 0:
        return -1
    k = (roll - 1) % m + 1
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
def majority_vp(anna, human, zero_tie_vp=5):
    """CD-ANNA-23: 10 VP if Anna's count is higher, 5 on a tie (a 0-0 tie: AMB-24's parameter)."""
    if anna > human:
        return 10
    if anna == human:
        return zero_tie_vp if anna == 0 else 5
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
def anna_villa_vp(a, t):
    """CD-ANNA-22 / AMB-26 default: the villa table applied to Anna's chimney total."""
    return villa_vp(t, a[AN_TRACK + VILLA])
