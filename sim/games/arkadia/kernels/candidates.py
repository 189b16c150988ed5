"""The candidate table of the pending decision (decisions.py): its rows in a documented order, with
features from what the deciding seat can see.

Orders: CASTLE_SITE the legal sites in table order; PART1 (``part1``) every legal BUILD (cards in
hand by id, the first of identical cards only, then placements in table order, mirror images only
under allow_mirror), then WORKERS (buildings by id with a free cell around, then the castle site
under castle_is_worker_target, if the seat holds a worker), else one SKIP; PUT_WORKER the free
cells around the target by cell, own worker before neutral, then DONE once enough are placed;
TENTS 0 up to the tents covered; STONE families by index, then fields by index; REFILL the display
slots, then the deck; BANNER no, then yes; CASH 0 up to the seals held of the family."""

import numpy as np
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import features as f
from bgsim.sim.games.arkadia.kernels.board import _first_touch, free_cells_around, is_enclosed, occupy, vacate
from bgsim.sim.games.arkadia.kernels.castle import seal_value
from bgsim.sim.games.arkadia.kernels.flow import deck_has_cards
from bgsim.sim.games.arkadia.kernels.part1 import blank_row, part1_rows
from bgsim.sim.games.arkadia.param_slots import PR_MIN_WORKERS
from bgsim.sim.games.arkadia.state import (
    B_FAMILY,
    B_PLACED,
    B_PLACEMENT,
    B_STATE,
    B_TARGET,
    BANNERS_LEFT,
    BUILDING,
    CASH_FAMILY,
    CELL_KIND,
    CELL_WHO,
    DISPLAY,
    DISPLAY_SIZE,
    FIELD_HEIGHT,
    FIELD_TOP,
    FREE,
    LEVEL,
    MAX_BUILDINGS,
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
    T_N_SITES,
    T_NEIGHBOURS,
    T_PLACE_CELLS,
    T_PLACE_FIRST,
    T_PLACE_SIZE,
    UNDER_CONSTRUCTION,
    WORKER,
)
from numba import njit

MAX_ROWS = 4 * 1400 + MAX_BUILDINGS + 1  # 4 cards x the placements of the largest shape, or the other kinds


@njit(cache=True)
def _worker_completions(s, t, seat, cell):
    """(buildings completed, seals the seat earns) if the worker just marked on ``cell`` stayed: the
    buildings under construction next to it now enclosed, each once."""
    done, earned = 0, 0
    for j in range(4):
        b = _open_building_beside(s, t, cell, j)
        if b >= 0 and is_enclosed(s, t, b):
            done += 1
            earned += _own_workers_around(s, t, b, -1, seat) + 1
    return done, earned


@njit(cache=True)
def _own_workers_around(s, t, b, k, seat):
    """The seat's workers next to building ``b`` (or placement ``k`` when b < 0), each counted once."""
    if b >= 0:
        k = s[B_PLACEMENT + b]
    n = 0
    for i in range(6):
        cell = t[T_PLACE_CELLS + k * 6 + i]
        if cell < 0:
            break
        for j in range(4):
            nb = t[T_NEIGHBOURS + cell * 4 + j]
            if nb < 0 or s[CELL_KIND + nb] != WORKER or s[CELL_WHO + nb] != seat:
                continue
            if _first_touch(t, k, i, nb):
                n += 1
    return n


@njit(cache=True)
def _open_building_beside(s, t, cell, j):
    """The building under construction on side ``j`` (0..3) of ``cell``, or -1; -1 too when an
    earlier side already showed it, so that a loop over the sides meets each building once."""
    nb = t[T_NEIGHBOURS + cell * 4 + j]
    if nb < 0 or s[CELL_KIND + nb] != BUILDING:
        return -1
    b = s[CELL_WHO + nb]
    if s[B_STATE + b] != UNDER_CONSTRUCTION:
        return -1
    for earlier in range(j):
        other = t[T_NEIGHBOURS + cell * 4 + earlier]
        if other >= 0 and s[CELL_KIND + other] == BUILDING and s[CELL_WHO + other] == b:
            return -1
    return b


@njit(cache=True)
def _shown(s, t, field):
    return s[FIELD_TOP + field] if s[FIELD_HEIGHT + field] > 0 else t[T_FIELD_PRINT + field]


@njit(cache=True)
def _at_risk(s, t, family):
    """Fields showing ``family`` that the current level still covers: every open field gets a stone
    before the level fills (ARK-CASTLE-2)."""
    level = s[LEVEL]
    n = 0
    for field in range(N_FIELDS):
        if s[FIELD_HEIGHT + field] == level - 1 and _shown(s, t, field) == family:
            n += 1
    return n


@njit(cache=True)
def _can_rise(s, t, family):
    """Fields ``family`` can still gain on the current level: its stones on the level's supply, at
    most the open fields showing another family."""
    level = s[LEVEL]
    others = 0
    for field in range(N_FIELDS):
        if s[FIELD_HEIGHT + field] == level - 1 and _shown(s, t, field) != family:
            others += 1
    return min(s[STONE_SUPPLY + (level - 1) * N_FAMILIES + family], others)


@njit(cache=True)
def _stones_to_end(s):
    """Castle stones still to place until level 2 is full (ARK-END-1); 0 once it is."""
    n = 0
    for field in range(N_FIELDS):
        n += max(0, 2 - s[FIELD_HEIGHT + field])
    return n


@njit(cache=True)
def _put_rows(s, t, p, seat, feats, acts):
    around = np.empty(24, dtype=np.int64)
    free = free_cells_around(s, t, s[B_TARGET], around)
    held = s[OWN_SCREEN + seat] + s[NEUTRAL_SCREEN + seat]
    n = 0
    for i in range(free):
        cell = around[i]
        for neutral in range(2):
            if (s[NEUTRAL_SCREEN + seat] if neutral else s[OWN_SCREEN + seat]) == 0:
                continue
            blank_row(feats, acts, n, d.DO_PUT)
            acts[n, d.A_CELL] = cell
            acts[n, d.A_NEUTRAL] = neutral
            feats[n, f.F_PUT_NEUTRAL if neutral else f.F_PUT_OWN] = 1
            feats[n, f.F_FREE_AROUND] = free
            s[CELL_KIND + cell] = WORKER
            s[CELL_WHO + cell] = NEUTRAL if neutral else seat
            occupy(s, cell)
            done, earned = _worker_completions(s, t, seat, cell)
            s[CELL_KIND + cell] = FREE
            s[CELL_WHO + cell] = -1
            vacate(s, cell)
            feats[n, f.F_COMPLETES] = done
            feats[n, f.F_MY_PAYOUT] = earned
            feats[n, f.F_PUT_COMPLETES] = done
            feats[n, f.F_PUT_MY_PAYOUT] = earned
            feats[n, f.F_CLOSABLE] = 1 if held >= free else 0  # this worker and the rest fill every cell
            feats[n, f.F_PUT_CLOSABLE] = feats[n, f.F_CLOSABLE]
            feats[n, f.F_PUT_FREE_LEFT] = free - 1
            if not neutral:
                feats[n, f.F_OWN_PAYS] = _pays_around(s, t, cell)
            n += 1
    if s[B_PLACED] >= p[PR_MIN_WORKERS] or n == 0:  # no cell or worker left: DONE is the way out
        blank_row(feats, acts, n, d.DO_DONE)
        feats[n, f.F_DONE] = 1
        feats[n, f.F_DONE_PLACED] = s[B_PLACED]
        feats[n, f.F_DONE_FREE_LEFT] = free
        n += 1
    return n


@njit(cache=True)
def _pays_around(s, t, cell):
    """The seal values of the buildings under construction next to ``cell``, each once: what an own
    worker there stands to earn (ARK-WORKER-6)."""
    total = 0
    for j in range(4):
        b = _open_building_beside(s, t, cell, j)
        if b >= 0:
            total += seal_value(s, t, s[B_FAMILY + b])
    return total


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
            shown = _shown(s, t, field)
            blank_row(feats, acts, n, d.DO_STONE)
            acts[n, d.A_FAMILY] = family
            acts[n, d.A_FIELD] = field
            feats[n, f.F_FAMILY_VALUE] = seal_value(s, t, family)
            feats[n, f.F_STONE_FAMILY_VALUE] = feats[n, f.F_FAMILY_VALUE]
            feats[n, f.F_MY_SEALS] = s[SEALS + seat * N_FAMILIES + family]
            feats[n, f.F_VALUE_CHANGE] = 0 if shown == family else 1
            if shown != family:
                mine = s[SEALS + seat * N_FAMILIES + family]
                covered = s[SEALS + seat * N_FAMILIES + shown] if shown >= 0 else 0
                feats[n, f.F_MY_GOLD_CHANGE] = mine - covered
                feats[n, f.F_LOWERS_OTHER] = 1 if shown >= 0 and covered == 0 else 0
            n += 1
    return n


@njit(cache=True)
def _banner_features(s, t, seat, feats, n):
    """The row that uses a banner: the seat's seals the castle may still lower or raise, how near the
    end is, and its workers and banners."""
    risk, rise = 0, 0
    for family in range(N_FAMILIES):
        held = s[SEALS + seat * N_FAMILIES + family]
        if held > 0:
            risk += held * _at_risk(s, t, family)
            rise += held * _can_rise(s, t, family)
    feats[n, f.F_SEALS_AT_RISK] = risk
    feats[n, f.F_SEALS_CAN_RISE] = rise
    feats[n, f.F_STONES_TO_END] = _stones_to_end(s)
    feats[n, f.F_WORKERS_HELD] = s[OWN_SCREEN + seat] + s[NEUTRAL_SCREEN + seat]
    feats[n, f.F_BANNERS_LEFT] = s[BANNERS_LEFT + seat]


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
            blank_row(feats, acts, n, d.DO_SITE)
            acts[n, d.A_SITE] = site
            n += 1
    elif phase == d.PART1:
        n = part1_rows(s, t, p, seat, feats, acts)
        if n == 0:
            blank_row(feats, acts, 0, d.DO_SKIP)
            feats[0, f.F_SKIP] = 1
            n = 1
    elif phase == d.PUT_WORKER:
        n = _put_rows(s, t, p, seat, feats, acts)
    elif phase == d.TENTS:
        most = s[PENDING_TENTS] if s[NEUTRAL_SUPPLY] < 0 else min(s[PENDING_TENTS], s[NEUTRAL_SUPPLY])
        for count in range(most + 1):
            blank_row(feats, acts, n, d.DO_TENTS)
            acts[n, d.A_COUNT] = count
            feats[n, f.F_TENTS_TAKEN] = count
            n += 1
    elif phase == d.STONE:
        n = _stone_rows(s, t, seat, feats, acts)
    elif phase == d.REFILL:
        for slot in range(DISPLAY_SIZE):
            card = s[DISPLAY + slot]
            if card >= 0:
                blank_row(feats, acts, n, d.DO_TAKE)
                acts[n, d.A_SLOT] = slot
                family = t[T_CARD + 2 * card + 1]
                feats[n, f.F_TAKE_CELLS] = t[T_PLACE_SIZE + 2 * t[T_PLACE_FIRST + t[T_CARD + 2 * card]]]
                feats[n, f.F_TAKE_VALUE] = seal_value(s, t, family)
                feats[n, f.F_TAKE_MY_SEALS] = s[SEALS + seat * N_FAMILIES + family]
                n += 1
        if deck_has_cards(s):
            blank_row(feats, acts, n, d.DO_TAKE)
            acts[n, d.A_SLOT] = -1
            feats[n, f.F_TAKE_DECK] = 1
            n += 1
    elif phase == d.BANNER:
        for use in range(2):
            blank_row(feats, acts, n, d.DO_BANNER)
            acts[n, d.A_COUNT] = use
            feats[n, f.F_USE_BANNER] = use
            if use:
                _banner_features(s, t, seat, feats, n)
            n += 1
    elif phase == d.CASH:
        family = s[CASH_FAMILY]
        value = seal_value(s, t, family)
        risk, rise, to_end = _at_risk(s, t, family), _can_rise(s, t, family), _stones_to_end(s)
        for count in range(s[SEALS + seat * N_FAMILIES + family] + 1):
            blank_row(feats, acts, n, d.DO_CASH)
            acts[n, d.A_FAMILY] = family
            acts[n, d.A_COUNT] = count
            feats[n, f.F_FAMILY_VALUE] = value
            feats[n, f.F_MY_SEALS] = s[SEALS + seat * N_FAMILIES + family]
            feats[n, f.F_CASH_COUNT] = count
            feats[n, f.F_CASH_GOLD] = count * value
            feats[n, f.F_SEALS_AT_RISK] = count * risk
            feats[n, f.F_SEALS_CAN_RISE] = count * rise
            feats[n, f.F_STONES_TO_END] = count * to_end
            feats[n, f.F_CASH_AT_RISK] = count * risk
            feats[n, f.F_CASH_CAN_RISE] = count * rise
            feats[n, f.F_CASH_TO_END] = count * to_end
            n += 1
    return n
