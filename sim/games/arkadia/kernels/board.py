"""The board (ARK-PLACE, ARK-WORKER, ARK-COMPLETE): the castle site, where a building may go, what
it covers, workers, enclosure and the payout of completed buildings. ``s`` is the state, ``t`` the
component table (``state.py``); a placement ``k`` is a row of the table's placements."""

from bgsim.sim.games.arkadia.state import (
    B_FAMILY,
    B_PLACEMENT,
    B_STATE,
    BUILDING,
    CELL_KIND,
    CELL_WHO,
    COMPLETED,
    FREE,
    N_BUILDINGS,
    N_FAMILIES,
    NEUTRAL,
    SEALS,
    SITE,
    SITE_CELLS,
    SITE_INDEX,
    STONES_OWED,
    T_NEIGHBOURS,
    T_PLACE_CELLS,
    T_SITE_CELLS,
    T_TENT,
    UNDER_CONSTRUCTION,
    WORKER,
)
from numba import njit


@njit(cache=True)
def lay_castle_site(s, t, site):
    """ARK-SETUP-2: the site's 12 cells are occupied for good."""
    s[SITE_INDEX] = site
    for i in range(SITE_CELLS):
        cell = t[T_SITE_CELLS + site * SITE_CELLS + i]
        s[CELL_KIND + cell] = SITE
        s[CELL_WHO + cell] = -1


@njit(cache=True)
def _touches_anything(s, t, cell, own_k):
    """1 if ``cell`` shares an edge with a site cell, a building cell or a worker (ARK-PLACE-4),
    ``own_k`` the placement whose own cells do not count."""
    for j in range(4):
        nb = t[T_NEIGHBOURS + cell * 4 + j]
        if nb < 0 or _in_placement(t, own_k, nb):
            continue
        if s[CELL_KIND + nb] != FREE:
            return 1
    return 0


@njit(cache=True)
def _in_placement(t, k, cell):
    for i in range(6):
        c = t[T_PLACE_CELLS + k * 6 + i]
        if c < 0:
            return False
        if c == cell:
            return True
    return False


@njit(cache=True)
def placement_is_legal(s, t, k):
    """ARK-PLACE-3, -4: every covered cell is free (a tent may be covered), and one of them shares an
    edge with the castle site, a building or a worker; diagonal contact does not count."""
    touches = 0
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
        if cell < 0:
            break
        if s[CELL_KIND + cell] != FREE:
            return False
        if not touches:
            touches = _touches_anything(s, t, cell, k)
    return touches == 1


@njit(cache=True)
def place_building(s, t, k, family):
    """ARK-PLACE-2, -6: the building goes on placement ``k`` with a seal of ``family``; returns its id
    and the tents it covers (ARK-PLACE-5: a neutral worker may come for each)."""
    b = s[N_BUILDINGS]
    s[N_BUILDINGS] = b + 1
    s[B_PLACEMENT + b] = k
    s[B_FAMILY + b] = family
    s[B_STATE + b] = UNDER_CONSTRUCTION
    tents = 0
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
        if cell < 0:
            break
        tents += t[T_TENT + cell]
        s[CELL_KIND + cell] = BUILDING
        s[CELL_WHO + cell] = b
    return b, tents


@njit(cache=True)
def put_worker(s, cell, colour):
    """ARK-WORKER-2: a worker of ``colour`` (a seat, or NEUTRAL) on a free cell; it never moves."""
    s[CELL_KIND + cell] = WORKER
    s[CELL_WHO + cell] = colour


@njit(cache=True)
def is_enclosed(s, t, b):
    """ARK-COMPLETE-2: every cell sharing an edge with building ``b`` is off the board (no cell),
    a worker, another building or the castle site."""
    k = s[B_PLACEMENT + b]
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
        if cell < 0:
            break
        for j in range(4):
            nb = t[T_NEIGHBOURS + cell * 4 + j]
            if nb >= 0 and s[CELL_KIND + nb] == FREE:
                return False
    return True


@njit(cache=True)
def free_cells_around(s, t, b, out):
    """The free cells sharing an edge with building ``b`` into ``out`` (a (24,) int array); returns
    how many (ARK-WORKER-1: action B needs one)."""
    k = s[B_PLACEMENT + b]
    n = 0
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
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
    paid = [-1] * 24
    n = 0
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
        if cell < 0:
            break
        for j in range(4):
            nb = t[T_NEIGHBOURS + cell * 4 + j]
            if nb < 0 or s[CELL_KIND + nb] != WORKER or s[CELL_WHO + nb] == NEUTRAL:
                continue
            seen = False
            for m in range(n):
                if paid[m] == nb:
                    seen = True
            if not seen:
                paid[n] = nb
                n += 1
                s[SEALS + s[CELL_WHO + nb] * N_FAMILIES + family] += 1


@njit(cache=True)
def complete_buildings(s, t, active):
    """ARK-COMPLETE-1, -4, -5, ARK-CASTLE-1: every enclosed building still under construction is
    completed now: its workers' seals, then its own seal to the active player, and one castle stone
    owed for it. Returns how many completed."""
    done = 0
    for b in range(s[N_BUILDINGS]):
        if s[B_STATE + b] != UNDER_CONSTRUCTION or not is_enclosed(s, t, b):
            continue
        family = s[B_FAMILY + b]
        _pay(s, t, b, family)
        s[SEALS + active * N_FAMILIES + family] += 1
        s[B_STATE + b] = COMPLETED
        s[STONES_OWED] += 1
        done += 1
    return done
