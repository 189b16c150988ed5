"""The board (ARK-PLACE, ARK-WORKER, ARK-COMPLETE): the castle site, where a building may go, what
it covers, workers, enclosure and the payout of completed buildings. ``s`` is the state, ``t`` the
component table (``state.py``); a placement ``k`` is a row of the table's placements."""

from bgsim.sim.games.arkadia.events import EV_COMPLETE, EV_PAYOUT, log_event, logging_on
from bgsim.sim.games.arkadia.kernels.bits import word_bit
from bgsim.sim.games.arkadia.state import (
    B_FAMILY,
    B_PAID,
    B_PLACEMENT,
    B_PLACER,
    B_SEAL,
    B_STATE,
    B_TENTS,
    BUILDING,
    CASTLE_TARGET,
    CELL_KIND,
    CELL_WHO,
    COMPLETED,
    COMPLETIONS,
    FREE,
    MASK_WORDS,
    MAX_P,
    N_BUILDINGS,
    N_FAMILIES,
    NEUTRAL,
    OCCUPIED,
    SEAL_LIMIT,
    SEALS,
    SEALS_OUT,
    SEAT,
    SITE,
    SITE_CELLS,
    SITE_INDEX,
    STONES_OWED,
    T_NEIGHBOURS,
    T_PLACE_BITS,
    T_PLACE_CELLS,
    T_PLACE_SPAN,
    T_SITE_CELLS,
    T_TENT,
    UNDER_CONSTRUCTION,
    WORKER,
)
from numba import njit


@njit(cache=True)
def occupy(s, cell):
    """Mark ``cell`` taken in the OCCUPIED bits (with its CELL_KIND set by the caller)."""
    s[OCCUPIED + (cell >> 5)] = s[OCCUPIED + (cell >> 5)] | word_bit(cell)


@njit(cache=True)
def vacate(s, cell):
    """Clear ``cell`` in the OCCUPIED bits again (a look-ahead undone)."""
    s[OCCUPIED + (cell >> 5)] = s[OCCUPIED + (cell >> 5)] & ~word_bit(cell)


@njit(cache=True)
def lay_castle_site(s, t, site):
    """ARK-SETUP-2: the site's 12 cells are occupied for good."""
    s[SITE_INDEX] = site
    for i in range(SITE_CELLS):
        cell = t[T_SITE_CELLS + site * SITE_CELLS + i]
        s[CELL_KIND + cell] = SITE
        occupy(s, cell)
        s[CELL_WHO + cell] = -1


@njit(cache=True)
def placement_is_legal(s, t, k):
    """ARK-PLACE-3, -4: every covered cell is free (a tent may be covered), and one of them shares an
    edge with the castle site, a building or a worker; diagonal contact does not count. Word by word
    against the placement's masks: its cells must miss OCCUPIED, the cells around it meet it."""
    base = T_PLACE_BITS + k * 2 * MASK_WORDS
    touches = 0
    for w in range(t[T_PLACE_SPAN + 2 * k], t[T_PLACE_SPAN + 2 * k + 1]):
        taken = s[OCCUPIED + w]
        if t[base + w] & taken:
            return False
        touches |= t[base + MASK_WORDS + w] & taken
    return touches != 0


@njit(cache=True)
def place_building(s, t, k, family):
    """ARK-PLACE-2, -6: the building goes on placement ``k`` with a seal of ``family``; returns its id
    and the tents it covers (ARK-PLACE-5: a neutral worker may come for each)."""
    b = s[N_BUILDINGS]
    s[N_BUILDINGS] = b + 1
    s[B_PLACEMENT + b] = k
    s[B_FAMILY + b] = family
    s[B_STATE + b] = UNDER_CONSTRUCTION
    s[B_PLACER + b] = s[SEAT]
    s[B_SEAL + b] = 1 if take_seal(s, family) else 0
    tents = 0
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
        if cell < 0:
            break
        tents += t[T_TENT + cell]
        s[CELL_KIND + cell] = BUILDING
        s[CELL_WHO + cell] = b
        occupy(s, cell)
    s[B_TENTS + b] = tents
    return b, tents


@njit(cache=True)
def put_worker(s, cell, colour):
    """ARK-WORKER-2: a worker of ``colour`` (a seat, or NEUTRAL) on a free cell; it never moves."""
    s[CELL_KIND + cell] = WORKER
    s[CELL_WHO + cell] = colour
    occupy(s, cell)


@njit(cache=True)
def is_enclosed(s, t, b):
    """ARK-COMPLETE-2: every cell sharing an edge with building ``b`` is off the board (no cell),
    a worker, another building or the castle site: the cells around it are all in OCCUPIED."""
    k = s[B_PLACEMENT + b]
    base = T_PLACE_BITS + k * 2 * MASK_WORDS + MASK_WORDS
    for w in range(t[T_PLACE_SPAN + 2 * k], t[T_PLACE_SPAN + 2 * k + 1]):
        if t[base + w] & ~s[OCCUPIED + w]:
            return False
    return True


@njit(cache=True)
def free_cells_around(s, t, b, out):
    """The free cells sharing an edge with building ``b`` (or the castle site, ``CASTLE_TARGET``,
    AMB-3) into ``out`` (a (24,) int array); returns how many (ARK-WORKER-1: action B needs one)."""
    n = 0
    count = SITE_CELLS if b == CASTLE_TARGET else 6
    for i in range(count):
        if b == CASTLE_TARGET:
            cell = t[T_SITE_CELLS + s[SITE_INDEX] * SITE_CELLS + i]
        else:
            cell = t[T_PLACE_CELLS + s[B_PLACEMENT + b] * 6 + i]
        if cell < 0:
            break
        for j in range(4):
            nb = t[T_NEIGHBOURS + cell * 4 + j]
            if nb < 0 or s[CELL_KIND + nb] != FREE:
                continue
            seen = False
            for m in range(n):
                if out[m] == nb:
                    seen = True
            if not seen:
                out[n] = nb
                n += 1
    return n


@njit(cache=True)
def _pay(s, t, b, family):
    """ARK-COMPLETE-4, -6: 1 seal of ``family`` per own worker next to building ``b``, once per worker
    (a worker beside two of its cells pays once); neutral workers pay nothing."""
    k = s[B_PLACEMENT + b]
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
        if cell < 0:
            break
        for j in range(4):
            nb = t[T_NEIGHBOURS + cell * 4 + j]
            if nb < 0 or s[CELL_KIND + nb] != WORKER or s[CELL_WHO + nb] == NEUTRAL:
                continue
            if not _first_touch(t, k, i, nb):
                continue
            if not take_seal(s, family):
                return  # AMB-8: the supply is empty; the payout stops
            seat = s[CELL_WHO + nb]
            s[SEALS + seat * N_FAMILIES + family] += 1
            s[B_PAID + b * MAX_P + seat] += 1


@njit(cache=True)
def _first_touch(t, k, i, nb):
    """Whether cell ``nb`` is not next to any of placement ``k``'s cells before its ``i``-th: a worker
    beside two cells of a building is counted at the first (no scratch list in the hot path)."""
    for earlier in range(i):
        cell = t[T_PLACE_CELLS + k * 6 + earlier]
        for j in range(4):
            if t[T_NEIGHBOURS + cell * 4 + j] == nb:
                return False
    return True


@njit(cache=True)
def take_seal(s, family):
    """One seal of ``family`` from the supply: always when it is unlimited (limit 0), else only while
    one is left (AMB-8). Returns whether one was taken."""
    if s[SEAL_LIMIT] > 0 and s[SEALS_OUT + family] >= s[SEAL_LIMIT]:
        return False
    s[SEALS_OUT + family] += 1
    return True


@njit(cache=True)
def complete_buildings(s, t, active, log=None):
    """ARK-COMPLETE-1, -4, -5, ARK-CASTLE-1: every enclosed building still under construction is
    completed now: its workers' seals, then its own seal to the active player, and one castle stone
    owed for it. Returns how many completed. ``log``: the event log, None in rules tests."""
    done = 0
    for b in range(s[N_BUILDINGS]):
        if s[B_STATE + b] != UNDER_CONSTRUCTION or not is_enclosed(s, t, b):
            continue
        family = s[B_FAMILY + b]
        _pay(s, t, b, family)
        if s[B_SEAL + b] == 1:  # the building's own seal (ARK-COMPLETE-5)
            s[SEALS + active * N_FAMILIES + family] += 1
            s[B_PAID + b * MAX_P + active] += 1
            s[B_SEAL + b] = 0
        s[COMPLETIONS + active] += 1
        s[B_STATE + b] = COMPLETED
        s[STONES_OWED] += 1
        done += 1
        if logging_on(log):
            _log_completion(s, b, family, active, log)
    return done


@njit(cache=True)
def _log_completion(s, b, family, active, log):
    """The completion of building ``b``, then one payout event per seat it paid."""
    log_event(log, EV_COMPLETE, active, b, family)
    for seat in range(MAX_P):
        if s[B_PAID + b * MAX_P + seat] > 0:
            log_event(log, EV_PAYOUT, seat, b, family, s[B_PAID + b * MAX_P + seat])
