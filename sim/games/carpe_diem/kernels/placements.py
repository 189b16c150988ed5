"""Placement scans of the compiled play loop: the frontier, legality, and weighted row values.

A placement row's value ``features @ weights`` is summed here directly from the probe of the
placement, without writing a feature row; the terms are those of
``candidates.placement_features`` (and ``candidates.store_features``), so every value equals
the table's. The frontier is found with bit operations, and a cell's context is read only for
frontier cells.

Arrays: ``s`` (STATE_SIZE,) int32; ``t`` (TABLES_SIZE,) int32; ``p`` (N_PARAMS,) int32;
``weights`` (N_FEATURES,) int64; ``work`` a ``work.PlacementWork`` (``ctx`` (CTX_SIZE,),
``need``/``nroot`` (36, 4), ``adj``/``forbid``/``frontier``/``link`` (36,), ``merged`` (36, 16,
M_SIZE), ``cell_value`` (2, 36), ``cells``/``rots`` (MAX_PLACEMENTS,), all int64).
"""

import numpy as np
from bgsim.sim.borrow import njit_inline_without_refcounts, njit_without_refcounts
from bgsim.sim.games.carpe_diem.constants import (
    ADMINISTRATOR,
    BAKER,
    BAKERY,
    C_CHIMNEYS,
    C_LANDSCAPES,
    C_LODGINGS,
    CRAFTSMAN,
    FOUNTAIN,
    LANDSCAPE_FIRST,
    LANDSCAPE_LAST,
    LODGING_FIRST,
    LODGING_LAST,
    MARKET,
    MERCHANT,
    N_CELLS,
    N_COUNTERS,
    N_DISC_SPACES,
    N_GOODS,
    N_SEALS,
    N_SLOTS,
    N_TASKS,
    PAY_BREAD,
    PAY_COINS,
    PAY_STEPS,
    PAY_VP,
    POND,
    SIDE,
    VILLA,
)
from bgsim.sim.games.carpe_diem.features import (
    F_ADJACENT,
    F_BANNER,
    F_BREAD,
    F_CARD_GOODS,
    F_CARD_VALUE,
    F_CHIMNEYS,
    F_COINS,
    F_CRAFTSMAN,
    F_DARK,
    F_FOUNTAIN_DRAWS,
    F_FOUNTAIN_VP,
    F_FRAME_OPEN,
    F_FRAME_VP,
    F_GOODS,
    F_GOODS_LOST,
    F_LANDSCAPES,
    F_LODGINGS,
    F_MATCHED,
    F_NEXT_SCORING,
    F_OPEN_ADDED,
    F_SMALL,
    F_STEPS,
    F_STORE,
    F_TILE_PARTS,
    F_VILLA_OPEN,
    F_VILLA_VP,
    F_VILLAS,
    F_VP,
)
from bgsim.sim.games.carpe_diem.kernels.cards import green_counter_mask, green_k_from, is_red
from bgsim.sim.games.carpe_diem.kernels.context import (
    X_AFTER,
    X_BREAD_GAIN,
    X_COIN_GAIN,
    X_COUNTS,
    X_DELTA,
    X_FIRST,
    X_FOUNTAIN_VP,
    X_GOODS,
    X_GOODS_GAIN,
    X_GREEN,
    X_GREEN_ANY,
    X_GREEN_K,
    X_GREEN_MASK,
    X_GREEN_N,
    X_GREEN_UNITS,
    X_LAST,
    X_N_FRONTIER,
    X_OPEN_TASK_TYPES,
    X_POS,
    X_RED_WANTS,
    X_SEALS,
    X_TILE_CODE,
)
from bgsim.sim.games.carpe_diem.kernels.district import (
    R_CHIMNEYS,
    R_LEGAL,
    R_MATCHED,
    R_OPEN_ADDED,
    cell_context,
    edge_code,
    forbidden_edges,
    merge_part,
    new_task_vp,
    popcount4,
    probe_part,
    record_part,
    shovel_cell,
    task_type,
    villa_vp,
)
from bgsim.sim.games.carpe_diem.kernels.outlook import next_scoring, reset_outlook
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B
from bgsim.sim.games.carpe_diem.kernels.work import (
    CV_BASE,
    CV_STEPS,
    M_CHIM,
    M_COLS,
    M_OPEN,
    M_ROWS,
    M_SIZE_SUM,
    NO_ROW,
)
from bgsim.sim.games.carpe_diem.param_slots import PR_LANDSCAPE_MAX, PR_LANDSCAPE_REWARD_CAP, PR_OVERFLOW_ADMIN_ONLY
from bgsim.sim.games.carpe_diem.state import (
    BANNER_LEFT,
    BANNER_POS,
    BUILT,
    CELL_TILE,
    COUNT,
    DISC,
    DISC_LIVE,
    FOUNTAIN_HELD,
    FOUNTAIN_N,
    GOODS,
    SEAL,
    SLOT_CARD,
    TASK_DONE,
)
from bgsim.sim.games.carpe_diem.tables import (
    T_CARD_GIVE,
    T_CARD_PAY,
    T_FOUNTAIN_COUNTER,
    T_FOUNTAIN_VP,
    T_PART_CHIM,
    T_PART_TYPE,
    T_ROT_MASK,
    T_ROT_UNIQUE,
    T_TILE_DARK,
    T_TILE_NPARTS,
    T_TRACK_LAST,
)

# Cell bit masks of the 6 x 6 district (bit = cell index) for the frontier's neighbour shifts.
ALL_CELLS = (1 << N_CELLS) - 1
NOT_FIRST_COLUMN = ALL_CELLS ^ sum(1 << (r * SIDE) for r in range(SIDE))
NOT_LAST_COLUMN = ALL_CELLS ^ sum(1 << (r * SIDE + SIDE - 1) for r in range(SIDE))


# The decision's inputs


@njit_inline_without_refcounts
def fill_frontier(s, t, seat, work):
    """The frontier of ``seat``'s district into ``work.frontier`` (ascending, ``ctx[X_N_FRONTIER]``
    cells) with each frontier cell's needs, neighbour roots, built neighbours and forbidden edges:
    the shovel cell for the first tile (CD-BUILD-2), else every empty cell beside a built one
    (CD-BUILD-3). Other cells' rows of ``work`` are left as they were: nothing reads them."""
    occupied = np.int64(0)
    base = CELL_TILE + seat * N_CELLS
    for cell in range(N_CELLS):
        if s[base + cell] >= 0:
            occupied |= np.int64(1) << cell
    if occupied == 0:
        cells = np.int64(1) << shovel_cell(s, t, seat)
    else:
        beside = ((occupied << SIDE) | (occupied >> SIDE) | ((occupied << 1) & NOT_FIRST_COLUMN)
                  | ((occupied >> 1) & NOT_LAST_COLUMN))
        cells = beside & ALL_CELLS & ~occupied
    n = 0
    while cells:
        low = cells & -cells
        cells ^= low
        cell = _bit_index(low)
        work.adj[cell] = cell_context(s, t, seat, cell, work.need, work.nroot)
        work.forbid[cell] = forbidden_edges(work.need, cell)
        fill_merges(s, seat, cell, work)
        work.frontier[n] = cell
        n += 1
    work.ctx[X_N_FRONTIER] = n


@njit_inline_without_refcounts
def fill_merges(s, seat, cell, work):
    """What a tile part at frontier ``cell`` joins, for every set of sides it may be open on, so
    that valuing a placement reads a table instead of walking the union-find (CD-FEATURE-2).

    ``work.link[cell]``: bit d if side d faces an open edge of a neighbour's feature (a link);
    ``work.merged[cell, sides]`` for each subset ``sides`` of those: the distinct features they
    reach, summed (``M_*``: open edges, size, chimneys; row and column bits, the cell's own
    included). A part open on ``mask`` joins ``merged[cell, mask & link[cell]]``: the same sums
    as ``district.merge_part``."""
    link = 0
    for d in range(4):
        if work.need[cell, d] > 0 and work.nroot[cell, d] >= 0:  # NEED_FREE and meadow never link
            link |= 1 << d
    work.link[cell] = link
    merged = work.merged
    sides = link
    while True:  # every subset of ``link``, from ``link`` itself down to 0
        # a part open on exactly these sides: each links, so merge_part sums what they reach
        _, _, open_sum, size, chim, rows, cols = merge_part(s, seat, cell, sides, 0, work.need, work.nroot)
        merged[cell, sides, M_OPEN] = open_sum
        merged[cell, sides, M_SIZE_SUM] = size - 1
        merged[cell, sides, M_CHIM] = chim
        merged[cell, sides, M_ROWS] = rows
        merged[cell, sides, M_COLS] = cols
        if sides == 0:
            break
        sides = (sides - 1) & link


@njit_inline_without_refcounts
def fill_cell_values(s, p, seat, weights, work):
    """Per frontier cell, the weighted terms a placement there gets whatever the tile: adjacency
    and banner steps (``CV_BASE``), and those steps' value when nothing else moves the banner
    (``CV_STEPS``). Needs ``fill_context`` and ``fill_frontier`` first."""
    for i in range(work.ctx[X_N_FRONTIER]):
        cell = work.frontier[i]
        banner = s[BANNER_LEFT + seat * N_CELLS + cell]
        work.cell_value[CV_BASE, cell] = weights[F_ADJACENT] * max(work.adj[cell], 0) + weights[F_BANNER] * banner
        work.cell_value[CV_STEPS, cell] = _steps_value(p, work.ctx, banner, 0, weights)


@njit_without_refcounts
def fill_context(s, t, seat, ctx):
    """The shared context of ``seat``'s placement rows into ``ctx`` (CTX_SIZE,) int64: the same
    entries as ``candidates.placement_context``."""
    ctx[X_POS] = s[BANNER_POS + seat]
    ctx[X_LAST] = t[T_TRACK_LAST]
    goods = 0
    for k in range(N_GOODS):
        goods += s[GOODS + seat * N_GOODS + k]
    ctx[X_GOODS] = goods
    seals = 0
    for i in range(N_SEALS):
        if s[SEAL + i] >= 0:
            seals += 1
    ctx[X_SEALS] = seals
    ctx[X_FIRST] = 1 if s[BUILT + seat] == 0 else 0
    for i in range(N_COUNTERS):
        ctx[X_COUNTS + i] = s[COUNT + seat * N_COUNTERS + i]
        ctx[X_FOUNTAIN_VP + i] = 0
    for i in range(s[FOUNTAIN_N + seat]):
        card = s[FOUNTAIN_HELD + seat * 24 + i]
        ctx[X_FOUNTAIN_VP + t[T_FOUNTAIN_COUNTER + card]] += t[T_FOUNTAIN_VP + card]
    _fill_card_context(s, t, ctx)
    ctx[X_OPEN_TASK_TYPES] = 0
    for task in range(N_TASKS):
        if s[TASK_DONE + seat * N_TASKS + task] == 0:
            ctx[X_OPEN_TASK_TYPES] |= 1 << task_type(t, s, seat, task)
    reset_outlook(s, seat, ctx)


@njit_inline_without_refcounts  # per tile valued
def fill_tile_codes(t, tile, ctx):
    """Edge codes of ``tile`` per rotation into ``ctx[X_TILE_CODE:]``, -1 for a rotation that
    looks like a lower one (listed once, see the candidate order)."""
    for rot in range(4):
        ctx[X_TILE_CODE + rot] = edge_code(t, tile, rot) if t[T_ROT_UNIQUE + tile * 4 + rot] else -1


# Weights


@njit_inline_without_refcounts
def best_placement_value(s, t, p, seat, tile, from_seal, allow_store, weights, work):
    """The first best row of ``tile`` (its placements in row order, then STORE):
    (value, cell, rotation), cell -1 for STORE; value NO_ROW if the tile has no row."""
    ctx = work.ctx
    fill_tile_codes(t, tile, ctx)
    tile_value = weights[F_TILE_PARTS] * t[T_TILE_NPARTS + tile] + weights[F_DARK] * t[T_TILE_DARK + tile]
    best = NO_ROW
    best_cell = -1
    best_rot = -1
    for i in range(ctx[X_N_FRONTIER]):
        cell = work.frontier[i]
        forbid = work.forbid[cell]
        for rot in range(4):
            code = ctx[X_TILE_CODE + rot]
            if code < 0 or code & forbid:
                continue  # a repeated rotation, or an edge does not match (CD-BUILD-5)
            value = placement_value(s, t, p, seat, tile, rot, cell, from_seal, weights, work)
            if value == NO_ROW:
                continue
            value += tile_value
            if value > best:
                best = value
                best_cell = cell
                best_rot = rot
    if allow_store:
        value = weights[F_STORE] + tile_value  # store_features: store, tile parts, dark
        if value > best:
            best = value
            best_cell = -1
            best_rot = -1
    return best, best_cell, best_rot


@njit_inline_without_refcounts
def placement_value(s, t, p, seat, tile, rot, cell, from_seal, weights, work):
    """``features @ weights`` of placing ``tile`` at ``cell`` turned ``rot`` (edges known to
    match) without the tile's own columns (tile_parts, dark); NO_ROW if CD-BUILD-6 forbids it.

    The probe is ``district.probe_fitting``'s, per part ``district.merge_part``, read from the
    tables of ``fill_merges``; the cell's own terms come from ``fill_cell_values``."""
    ctx = work.ctx
    max_landscape = p[PR_LANDSCAPE_MAX]
    nparts = t[T_TILE_NPARTS + tile]
    matched = 0
    open_added = 0
    chimneys = 0
    villa_open = 0
    frame_open = 0
    n_done = 0
    # completed parts: type, size, chimneys, rows, cols (at most 2)
    type0 = size0 = chim0 = rows0 = cols0 = 0
    type1 = size1 = chim1 = rows1 = cols1 = 0
    link = work.link[cell]
    for j in range(nparts):
        ptype = t[T_PART_TYPE + tile * 2 + j]
        chim = t[T_PART_CHIM + tile * 2 + j]
        mask = t[T_ROT_MASK + (tile * 4 + rot) * 2 + j]
        if ptype == VILLA:
            chimneys += chim
        sides = mask & link
        n_open = popcount4(mask)
        links = popcount4(sides)
        open_sum = work.merged[cell, sides, M_OPEN]
        size = 1 + work.merged[cell, sides, M_SIZE_SUM]
        merged_open = open_sum - links + (n_open - links)
        if max_landscape > 0 and LANDSCAPE_FIRST <= ptype <= LANDSCAPE_LAST and size > max_landscape:
            return NO_ROW  # CD-BUILD-6 / AMB-2
        matched += links
        open_added += n_open - links
        if merged_open == 0:  # small buildings: 0 open edges, done at once
            chim_sum = chim + work.merged[cell, sides, M_CHIM]
            rows = work.merged[cell, sides, M_ROWS]
            cols = work.merged[cell, sides, M_COLS]
            if n_done == 0:
                type0, size0, chim0, rows0, cols0 = ptype, size, chim_sum, rows, cols
            else:
                type1, size1, chim1, rows1, cols1 = ptype, size, chim_sum, rows, cols
            n_done += 1
        else:
            if ptype == VILLA:
                villa_open = max(villa_open, merged_open)
            if weights[F_FRAME_OPEN] != 0 and (ctx[X_OPEN_TASK_TYPES] >> ptype) & 1:  # CD-END-6
                frame_open += new_task_vp(t, s, p, seat, ptype, work.merged[cell, sides, M_ROWS],
                                          work.merged[cell, sides, M_COLS])
    value = (work.cell_value[CV_BASE, cell] + weights[F_MATCHED] * matched + weights[F_OPEN_ADDED] * open_added
             + weights[F_CHIMNEYS] * chimneys + weights[F_VILLA_OPEN] * villa_open + weights[F_FRAME_OPEN] * frame_open)
    if n_done == 0 and chimneys == 0:
        return value + work.cell_value[CV_STEPS, cell]
    banner = s[BANNER_LEFT + seat * N_CELLS + cell]
    for c in range(N_COUNTERS):
        ctx[X_DELTA + c] = 0  # counter changes
    for g in range(N_GOODS):
        ctx[X_GOODS_GAIN + g] = 0  # goods gained by kind
    ctx[X_DELTA + C_CHIMNEYS] = chimneys
    ctx[X_COIN_GAIN] = 0
    ctx[X_BREAD_GAIN] = 0
    changed = (1 << C_CHIMNEYS) if chimneys != 0 else 0  # bit c: counter c changes
    admin = 0
    merchant_ = False
    if n_done > 0:
        done_value, admin, merchant_, changed = _completion_value(s, t, p, seat, type0, size0, chim0, rows0, cols0,
                                                                  from_seal, weights, ctx, changed)
        value += done_value
    if n_done > 1:
        done_value, admin1, merchant1, changed = _completion_value(s, t, p, seat, type1, size1, chim1, rows1,
                                                                   cols1, from_seal, weights, ctx, changed)
        value += done_value
        admin += admin1
        merchant_ = merchant_ or merchant1
    if weights[F_NEXT_SCORING] != 0:
        value += weights[F_NEXT_SCORING] * next_scoring(s, t, p, ctx, changed, ctx[X_COIN_GAIN], ctx[X_BREAD_GAIN],
                                                        merchant_)
    return (value + _goods_and_cards_value(t, ctx, changed, merchant_, weights)
            + _steps_value(p, ctx, banner, admin, weights))


# Tables (the vectorised and per-game tiers)


@njit_inline_without_refcounts
def probe_from_tables(t, p, tile, rot, cell, work, k):
    """``district.probe_fitting`` of placing ``tile`` at frontier ``cell`` turned ``rot`` (edges
    known to match) into row ``k`` of ``work.res``, read from the tables of ``fill_merges``
    instead of walking the union-find; returns 1 if legal, 0 if CD-BUILD-6 forbids it."""
    res = work.res
    res[k, R_MATCHED] = 0
    res[k, R_OPEN_ADDED] = 0
    res[k, R_CHIMNEYS] = 0
    link = work.link[cell]
    for j in range(2):
        ptype, chim, mask = probe_part(t, res, k, tile, rot, j)
        if ptype < 0:  # no part j
            continue
        sides = mask & link
        merged = work.merged
        if not record_part(p, res, k, j, ptype, popcount4(mask), popcount4(sides), merged[cell, sides, M_OPEN],
                           1 + merged[cell, sides, M_SIZE_SUM], chim + merged[cell, sides, M_CHIM],
                           merged[cell, sides, M_ROWS], merged[cell, sides, M_COLS]):
            return 0
    res[k, R_LEGAL] = 1
    return 1


# Random


@njit_without_refcounts
def list_legal(s, t, p, seat, tile, work):
    """List the legal placements of ``tile`` in row order into ``work.cells``/``work.rots``;
    return their number (the rows of ``candidates.legal_placements``)."""
    ctx = work.ctx
    fill_tile_codes(t, tile, ctx)
    limited = p[PR_LANDSCAPE_MAX] > 0 and _has_landscape(t, tile)
    n = 0
    for i in range(ctx[X_N_FRONTIER]):
        cell = work.frontier[i]
        forbid = work.forbid[cell]
        for rot in range(4):
            code = ctx[X_TILE_CODE + rot]
            if code < 0 or code & forbid:
                continue  # a repeated rotation, or an edge does not match (CD-BUILD-5)
            if limited and not _landscapes_within_limit(s, t, p, seat, tile, rot, cell, work):
                continue
            work.cells[n] = cell
            work.rots[n] = rot
            n += 1
    return n


# Helpers


@njit_without_refcounts
def _fill_card_context(s, t, ctx):
    """Cards beside free live disc spaces: the goods kinds red ones take, and per green one its
    id, current fulfilments, payout units and counters (see ``candidates.placement_context``)."""
    beside_free = 0  # bit slot: the card slot lies beside a free live disc space
    for space in range(N_DISC_SPACES):
        if s[DISC_LIVE + space] and s[DISC + space] < 0:
            beside_free |= (1 << DISC_SLOT_A[space]) | (1 << DISC_SLOT_B[space])
    for g in range(N_GOODS):
        ctx[X_RED_WANTS + g] = 0
    n_green = 0
    green_any = 0
    for slot in range(N_SLOTS):
        card = s[SLOT_CARD + slot]
        if card < 0 or not (beside_free >> slot) & 1:
            continue
        if is_red(t, card):
            for g in range(N_GOODS):
                if t[T_CARD_GIVE + card * N_GOODS + g] > 0:
                    ctx[X_RED_WANTS + g] = 1
        else:
            ctx[X_GREEN + n_green] = card
            ctx[X_GREEN_K + n_green] = green_k_from(t, card, ctx, X_COUNTS)
            pay = T_CARD_PAY + card * 4
            units = t[pay + PAY_VP] + t[pay + PAY_COINS] + t[pay + PAY_BREAD] + t[pay + PAY_STEPS]
            ctx[X_GREEN_UNITS + n_green] = units
            mask = green_counter_mask(t, card)
            ctx[X_GREEN_MASK + n_green] = mask
            green_any |= mask
            n_green += 1
    ctx[X_GREEN_N] = n_green
    ctx[X_GREEN_ANY] = green_any


@njit_inline_without_refcounts
def _completion_value(s, t, p, seat, ptype, size, chim, rows, cols, from_seal, weights, ctx, changed):
    """Weighted value of one feature the placement completes, its rewards in AMB-11's fixed
    order (CD-REWARD-1..8): (value, administrator steps, is a merchant, ``changed`` with its
    counters). Goods and counter changes go to ``ctx[X_GOODS_GAIN:]``/``ctx[X_DELTA:]`` for the
    merchant and the cards, valued once all completions are known."""
    value = weights[F_FOUNTAIN_VP] * ctx[X_FOUNTAIN_VP + ptype]
    admin = 0
    merchant_ = False
    ctx[X_DELTA + ptype] += 1
    changed |= 1 << ptype
    if ptype == VILLA:
        value += weights[F_VILLAS] + weights[F_VILLA_VP] * villa_vp(t, chim)
    elif LANDSCAPE_FIRST <= ptype <= LANDSCAPE_LAST:
        value += weights[F_LANDSCAPES]
        ctx[X_DELTA + C_LANDSCAPES] += 1
        changed |= 1 << C_LANDSCAPES
        goods = size - 1
        cap = p[PR_LANDSCAPE_REWARD_CAP]
        if cap > 0:
            goods = min(goods, cap)
        ctx[X_GOODS_GAIN + ptype - POND] += goods
    elif LODGING_FIRST <= ptype <= LODGING_LAST:
        value += weights[F_LODGINGS]
        ctx[X_DELTA + C_LODGINGS] += 1
        changed |= 1 << C_LODGINGS
        if ptype == MERCHANT:
            merchant_ = True
        elif ptype == BAKER:
            value += weights[F_BREAD] * 2
            ctx[X_BREAD_GAIN] += 2
        elif ptype == ADMINISTRATOR:
            admin = 2
        elif ptype == CRAFTSMAN and ctx[X_SEALS] - from_seal > 0:
            value += weights[F_CRAFTSMAN]
    else:
        value += weights[F_SMALL]
        if ptype == MARKET:
            value += weights[F_COINS]
            ctx[X_COIN_GAIN] += 1
        elif ptype == BAKERY:
            value += weights[F_BREAD]
            ctx[X_BREAD_GAIN] += 1
        elif ptype == FOUNTAIN:
            value += weights[F_FOUNTAIN_DRAWS]
    if ptype < MARKET and (ctx[X_OPEN_TASK_TYPES] >> ptype) & 1:  # else no task to meet
        value += weights[F_FRAME_VP] * new_task_vp(t, s, p, seat, ptype, rows, cols)
    return value, admin, merchant_, changed


@njit_inline_without_refcounts
def _goods_and_cards_value(t, ctx, changed, merchant_, weights):
    """Weighted goods, merchant coins and green-card fulfilments of the completions gathered in
    ``ctx`` (valued last, as in the fixed order of AMB-11)."""
    goods = 0
    card_goods = 0
    for g in range(N_GOODS):
        goods += ctx[X_GOODS_GAIN + g]
        card_goods += ctx[X_GOODS_GAIN + g] * ctx[X_RED_WANTS + g]
    value = weights[F_GOODS] * goods + weights[F_CARD_GOODS] * card_goods
    if merchant_:  # CD-REWARD-2: all goods held, those gained included, to coins + 1
        value += weights[F_COINS] * (ctx[X_GOODS] + goods + 1) + weights[F_GOODS_LOST] * (ctx[X_GOODS] + goods)
    if changed & ctx[X_GREEN_ANY]:
        for c in range(N_COUNTERS):
            ctx[X_AFTER + c] = ctx[X_COUNTS + c] + ctx[X_DELTA + c]
        card_value = 0
        for i in range(ctx[X_GREEN_N]):
            if changed & ctx[X_GREEN_MASK + i]:  # else none of its counters changes: same k
                gained = green_k_from(t, ctx[X_GREEN + i], ctx, X_AFTER) - ctx[X_GREEN_K + i]
                card_value += gained * ctx[X_GREEN_UNITS + i]
        value += weights[F_CARD_VALUE] * card_value
    return value


@njit_inline_without_refcounts  # per frontier cell and per completing placement
def _steps_value(p, ctx, banner_steps, admin_steps, weights):
    """Weighted steps of the build and VP of those beyond the last track space (CD-REWARD-10, AMB-16)."""
    pos = ctx[X_POS]
    last = ctx[X_LAST]
    vp = 0
    for i in range(banner_steps + admin_steps):
        if pos < last:
            pos += 1
        elif p[PR_OVERFLOW_ADMIN_ONLY] == 0 or i >= banner_steps:
            vp += 1
    return weights[F_STEPS] * (banner_steps + admin_steps) + weights[F_VP] * vp


@njit_without_refcounts
def _has_landscape(t, tile):
    for j in range(t[T_TILE_NPARTS + tile]):
        if LANDSCAPE_FIRST <= t[T_PART_TYPE + tile * 2 + j] <= LANDSCAPE_LAST:
            return True
    return False


@njit_without_refcounts
def _landscapes_within_limit(s, t, p, seat, tile, rot, cell, work):
    """CD-BUILD-6 / AMB-2: every landscape the placement joins stays within the tile limit (the
    merged sizes of ``fill_merges``)."""
    for j in range(t[T_TILE_NPARTS + tile]):
        ptype = t[T_PART_TYPE + tile * 2 + j]
        if not LANDSCAPE_FIRST <= ptype <= LANDSCAPE_LAST:
            continue
        mask = t[T_ROT_MASK + (tile * 4 + rot) * 2 + j]
        size = 1 + work.merged[cell, mask & work.link[cell], M_SIZE_SUM]
        if size > p[PR_LANDSCAPE_MAX]:
            return False
    return True


@njit_without_refcounts
def _bit_index(bit):
    """Index of the single set bit of ``bit`` (int64, below 2**36)."""
    index = 0
    if bit >> 32:
        index += 32
        bit >>= 32
    if bit >> 16:
        index += 16
        bit >>= 16
    if bit >> 8:
        index += 8
        bit >>= 8
    if bit >> 4:
        index += 4
        bit >>= 4
    if bit >> 2:
        index += 2
        bit >>= 2
    return index + (bit >> 1)
