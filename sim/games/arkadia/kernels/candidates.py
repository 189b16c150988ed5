"""The candidate table of the pending decision (decisions.py): its rows in a documented order, with
features from what the deciding seat can see.

Orders: CASTLE_SITE the legal sites in table order; PART1 every legal BUILD (cards in hand by id,
then placements in table order, mirror images only under allow_mirror), then WORKERS (buildings by
id with a free cell around, if the seat holds a worker), else one SKIP; PUT_WORKER the free cells
around the target by cell, own worker before neutral, then DONE once enough are placed; TENTS 0 up
to the tents covered; STONE families by index, then fields by index; REFILL the display slots,
then the deck; BANNER no, then yes; CASH 0 up to the seals held of the family."""

import numpy as np
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import features as f
from bgsim.sim.games.arkadia.kernels.board import free_cells_around, is_enclosed, placement_is_legal
from bgsim.sim.games.arkadia.kernels.castle import seal_value
from bgsim.sim.games.arkadia.kernels.flow import deck_has_cards
from bgsim.sim.games.arkadia.params import PR_MIN_WORKERS, PR_MIRROR
from bgsim.sim.games.arkadia.state import (
    B_FAMILY,
    B_PLACED,
    B_PLACEMENT,
    B_STATE,
    B_TARGET,
    BUILDING,
    CARD_LOC,
    CASH_FAMILY,
    CELL_KIND,
    CELL_WHO,
    DISPLAY,
    DISPLAY_SIZE,
    FIELD_HEIGHT,
    FIELD_TOP,
    FREE,
    IN_HAND,
    LEVEL,
    MAX_BUILDINGS,
    N_BUILDINGS,
    N_FAMILIES,
    N_FIELDS,
    NEUTRAL,
    NEUTRAL_SCREEN,
    NEUTRAL_SUPPLY,
    OWN_SCREEN,
    PENDING_TENTS,
    PHASE,
    SEALS,
    SEAT,
    STONE_SUPPLY,
    T_CARD,
    T_FIELD_PRINT,
    T_N_CARDS,
    T_N_SITES,
    T_NEIGHBOURS,
    T_PLACE_CELLS,
    T_PLACE_FIRST,
    T_PLACE_TURNED_END,
    T_TENT,
    UNDER_CONSTRUCTION,
    WORKER,
)
from numba import njit

MAX_ROWS = 4 * 1400 + MAX_BUILDINGS + 1  # 4 cards x the placements of the largest shape, or the other kinds


@njit(cache=True)
def _row(feats, acts, n, kind):
    for j in range(feats.shape[1]):
        feats[n, j] = 0
    for j in range(acts.shape[1]):
        acts[n, j] = 0
    acts[n, d.A_KIND] = kind


@njit(cache=True)
def _completions(s, t, seat, new_k):
    """(buildings completed, seals the seat earns) if the cells just marked occupied were final:
    the buildings under construction now enclosed, and a new building (placement ``new_k``, -1 none)."""
    done, earned = 0, 0
    for b in range(s[N_BUILDINGS]):
        if s[B_STATE + b] == UNDER_CONSTRUCTION and is_enclosed(s, t, b):
            done += 1
            earned += _own_workers_around(s, t, b, -1, seat) + 1
    if new_k >= 0 and _placement_enclosed(s, t, new_k):
        done += 1
        earned += _own_workers_around(s, t, -1, new_k, seat) + 1
    return done, earned


@njit(cache=True)
def _placement_enclosed(s, t, k):
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
def _own_workers_around(s, t, b, k, seat):
    """The seat's workers next to building ``b`` (or placement ``k`` when b < 0), each counted once."""
    if b >= 0:
        k = s[B_PLACEMENT + b]
    seen = np.full(24, -1, dtype=np.int64)
    n = 0
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
        if cell < 0:
            break
        for j in range(4):
            nb = t[T_NEIGHBOURS + cell * 4 + j]
            if nb < 0 or s[CELL_KIND + nb] != WORKER or s[CELL_WHO + nb] != seat:
                continue
            new = True
            for m in range(n):
                if seen[m] == nb:
                    new = False
            if new:
                seen[n] = nb
                n += 1
    return n


@njit(cache=True)
def _mark(s, t, k, kind):
    """Set the cells of placement ``k`` to ``kind`` (to look ahead; set FREE again after)."""
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
        if cell < 0:
            break
        s[CELL_KIND + cell] = kind


@njit(cache=True)
def _build_rows(s, t, p, seat, feats, acts, n):
    for card in range(t[T_N_CARDS]):
        if s[CARD_LOC + card] != IN_HAND + seat:
            continue
        shape, family = t[T_CARD + 2 * card], t[T_CARD + 2 * card + 1]
        last = t[T_PLACE_FIRST + shape + 1] if p[PR_MIRROR] else t[T_PLACE_TURNED_END + shape]
        value = seal_value(s, t, family)
        for k in range(t[T_PLACE_FIRST + shape], last):
            if not placement_is_legal(s, t, k):
                continue
            _row(feats, acts, n, d.DO_BUILD)
            acts[n, d.A_CARD] = card
            acts[n, d.A_PLACEMENT] = k
            feats[n, f.F_BUILD] = 1
            cells, tents = 0, 0
            for i in range(6):
                cell = t[T_PLACE_CELLS + k * 6 + i]
                if cell >= 0:
                    cells += 1
                    tents += t[T_TENT + cell]
            feats[n, f.F_CELLS] = cells
            feats[n, f.F_TENTS] = tents
            _mark(s, t, k, BUILDING)
            done, earned = _completions(s, t, seat, k)
            _mark(s, t, k, FREE)
            feats[n, f.F_COMPLETES] = done
            feats[n, f.F_MY_PAYOUT] = earned
            feats[n, f.F_FAMILY_VALUE] = value
            n += 1
    return n


@njit(cache=True)
def _worker_rows(s, t, seat, feats, acts, n):
    if s[OWN_SCREEN + seat] + s[NEUTRAL_SCREEN + seat] == 0:
        return n
    around = np.empty(24, dtype=np.int64)
    for b in range(s[N_BUILDINGS]):
        if s[B_STATE + b] != UNDER_CONSTRUCTION:
            continue
        free = free_cells_around(s, t, b, around)
        if free == 0:
            continue
        _row(feats, acts, n, d.DO_WORKERS)
        acts[n, d.A_BUILDING] = b
        feats[n, f.F_WORKERS] = 1
        feats[n, f.F_FREE_AROUND] = free
        feats[n, f.F_FAMILY_VALUE] = seal_value(s, t, s[B_FAMILY + b])
        n += 1
    return n


@njit(cache=True)
def _put_rows(s, t, p, seat, feats, acts):
    around = np.empty(24, dtype=np.int64)
    free = free_cells_around(s, t, s[B_TARGET], around)
    n = 0
    for i in range(free):
        cell = around[i]
        for neutral in range(2):
            if (s[NEUTRAL_SCREEN + seat] if neutral else s[OWN_SCREEN + seat]) == 0:
                continue
            _row(feats, acts, n, d.DO_PUT)
            acts[n, d.A_CELL] = cell
            acts[n, d.A_NEUTRAL] = neutral
            feats[n, f.F_PUT_NEUTRAL if neutral else f.F_PUT_OWN] = 1
            feats[n, f.F_FREE_AROUND] = free
            s[CELL_KIND + cell] = WORKER
            s[CELL_WHO + cell] = NEUTRAL if neutral else seat
            done, earned = _completions(s, t, seat, -1)
            s[CELL_KIND + cell] = FREE
            s[CELL_WHO + cell] = -1
            feats[n, f.F_COMPLETES] = done
            feats[n, f.F_MY_PAYOUT] = earned
            n += 1
    if s[B_PLACED] >= p[PR_MIN_WORKERS] or n == 0:  # no cell or worker left: DONE is the way out
        _row(feats, acts, n, d.DO_DONE)
        feats[n, f.F_DONE] = 1
        n += 1
    return n


@njit(cache=True)
def _stone_rows(s, t, seat, feats, acts):
    level = s[LEVEL]
    n = 0
    for family in range(N_FAMILIES):
        if s[STONE_SUPPLY + (level - 1) * N_FAMILIES + family] == 0:
            continue
        for field in range(N_FIELDS):
            if s[FIELD_HEIGHT + field] != level - 1:
                continue
            shown = s[FIELD_TOP + field] if s[FIELD_HEIGHT + field] > 0 else t[T_FIELD_PRINT + field]
            _row(feats, acts, n, d.DO_STONE)
            acts[n, d.A_FAMILY] = family
            acts[n, d.A_FIELD] = field
            feats[n, f.F_FAMILY_VALUE] = seal_value(s, t, family)
            feats[n, f.F_MY_SEALS] = s[SEALS + seat * N_FAMILIES + family]
            feats[n, f.F_VALUE_CHANGE] = 0 if shown == family else 1
            n += 1
    return n


@njit(cache=True)
def candidates(s, t, p, feats, acts):
    """Fill ``feats`` (>= MAX_ROWS, N_FEATURES) and ``acts`` (>= MAX_ROWS, N_ACTION_FIELDS) int32 with
    the pending table; returns its rows (0 once over)."""
    phase = s[PHASE]
    seat = s[SEAT]
    n = 0
    if phase == d.OVER:
        return 0
    if phase == d.CASTLE_SITE:
        for site in range(t[T_N_SITES]):
            _row(feats, acts, n, d.DO_SITE)
            acts[n, d.A_SITE] = site
            n += 1
    elif phase == d.PART1:
        n = _worker_rows(s, t, seat, feats, acts, _build_rows(s, t, p, seat, feats, acts, 0))
        if n == 0:
            _row(feats, acts, 0, d.DO_SKIP)
            feats[0, f.F_SKIP] = 1
            n = 1
    elif phase == d.PUT_WORKER:
        n = _put_rows(s, t, p, seat, feats, acts)
    elif phase == d.TENTS:
        most = s[PENDING_TENTS] if s[NEUTRAL_SUPPLY] < 0 else min(s[PENDING_TENTS], s[NEUTRAL_SUPPLY])
        for count in range(most + 1):
            _row(feats, acts, n, d.DO_TENTS)
            acts[n, d.A_COUNT] = count
            feats[n, f.F_TENTS_TAKEN] = count
            n += 1
    elif phase == d.STONE:
        n = _stone_rows(s, t, seat, feats, acts)
    elif phase == d.REFILL:
        for slot in range(DISPLAY_SIZE):
            if s[DISPLAY + slot] >= 0:
                _row(feats, acts, n, d.DO_TAKE)
                acts[n, d.A_SLOT] = slot
                n += 1
        if deck_has_cards(s):
            _row(feats, acts, n, d.DO_TAKE)
            acts[n, d.A_SLOT] = -1
            feats[n, f.F_TAKE_DECK] = 1
            n += 1
    elif phase == d.BANNER:
        for use in range(2):
            _row(feats, acts, n, d.DO_BANNER)
            acts[n, d.A_COUNT] = use
            feats[n, f.F_USE_BANNER] = use
            n += 1
    elif phase == d.CASH:
        family = s[CASH_FAMILY]
        value = seal_value(s, t, family)
        for count in range(s[SEALS + seat * N_FAMILIES + family] + 1):
            _row(feats, acts, n, d.DO_CASH)
            acts[n, d.A_FAMILY] = family
            acts[n, d.A_COUNT] = count
            feats[n, f.F_FAMILY_VALUE] = value
            feats[n, f.F_MY_SEALS] = s[SEALS + seat * N_FAMILIES + family]
            feats[n, f.F_CASH_COUNT] = count
            feats[n, f.F_CASH_GOLD] = count * value
            n += 1
    return n
