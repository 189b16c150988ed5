"""Candidate tables: one row per legal action of the pending decision, with feature columns.

``candidates(s, t, p, feats, acts)`` fills ``feats`` (MAX_ROWS, N_FEATURES) int32 and ``acts``
(MAX_ROWS, N_ACTION_FIELDS) int32 and returns the number of rows. Row order is the documented
candidate order of ``decisions.py``. Features are described in ``features.py``.
"""

import numpy as np
from bgsim.sim.games.carpe_diem.constants import (
    ADMINISTRATOR,
    BAKER,
    BAKERY,
    C_CHIMNEYS,
    C_LANDSCAPES,
    C_LODGINGS,
    CRAFTSMAN,
    DEPOT_SIZE,
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
    N_SPACES,
    N_TASKS,
    PAY_BREAD,
    PAY_COINS,
    PAY_STEPS,
    PAY_VP,
    POND,
    VILLA,
)
from bgsim.sim.games.carpe_diem.decisions import (
    A_BREAD,
    A_CELL,
    A_COUNT,
    A_KIND,
    A_MOVE,
    A_ROT,
    A_SLOT,
    A_SPACE,
    A_TARGET,
    A_TILE,
    ANNA_PATRICIAN,
    ANNA_TIE,
    BREAD_THEN_CCW,
    BREAD_THEN_CW,
    BREAD_TO,
    CARD_ORDER,
    DISC,
    FULFIL,
    N_ACTION_FIELDS,
    PATRICIAN,
    PAYMENT,
    REWARD_ORDER,
    STEP_CCW,
    STEP_CW,
    TURN,
)
from bgsim.sim.games.carpe_diem.decisions import CRAFTSMAN as D_CRAFTSMAN
from bgsim.sim.games.carpe_diem.decisions import FOUNTAIN as D_FOUNTAIN
from bgsim.sim.games.carpe_diem.features import (
    F_ADJACENT,
    F_BANNER,
    F_BREAD,
    F_BREAD_PAID,
    F_BREAD_SPENT,
    F_CARD_GOODS,
    F_CARD_VALUE,
    F_CHIMNEYS,
    F_COINS,
    F_COINS_PAID,
    F_CRAFTSMAN,
    F_DARK,
    F_DEPOT_TILES,
    F_FOUNTAIN_DRAWS,
    F_FOUNTAIN_OPEN,
    F_FOUNTAIN_VP,
    F_FRAME_OPEN,
    F_FRAME_VP,
    F_FULFILMENTS,
    F_GOODS,
    F_GOODS_LOST,
    F_LANDSCAPES,
    F_LODGINGS,
    F_MATCHED,
    F_NEXT_SCORING,
    F_OPEN_ADDED,
    F_PENALTIES,
    F_PLANNED_REWARD,
    F_RIVAL_DISTANCE,
    F_SMALL,
    F_STEPS,
    F_STORE,
    F_TILE_PARTS,
    F_VILLA_OPEN,
    F_VILLA_VP,
    F_VILLAS,
    F_VP,
    N_FEATURES,
)
from bgsim.sim.games.carpe_diem.kernels.cards import (
    O_BREAD,
    O_BREAD_PAID,
    O_COINS,
    O_COINS_PAID,
    O_FULFIL,
    O_GOODS_PAID,
    O_PENALTY,
    O_SIZE,
    O_STEPS,
    O_VP,
    bread_max,
    counters,
    green_counter_mask,
    green_k,
    green_k_from,
    is_red,
    outcome,
    plan_two_cards,
    red_kmax,
    resources,
    row_allowed,
)
from bgsim.sim.games.carpe_diem.kernels.context import (
    X_AFTER,
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
    R_MATCHED,
    R_OPEN_ADDED,
    R_PART,
    R_STRIDE,
    edge_code,
    new_task_vp,
    open_features,
    task_type,
    villa_vp,
)
from bgsim.sim.games.carpe_diem.kernels.flow import payment_range, reward_rank
from bgsim.sim.games.carpe_diem.kernels.outlook import next_scoring, reset_outlook
from bgsim.sim.games.carpe_diem.kernels.placements import fill_frontier, probe_from_tables
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B
from bgsim.sim.games.carpe_diem.kernels.work import (
    MV_CODE,
    MV_DEST,
    MV_TARGET,
    new_placement_work,
)
from bgsim.sim.games.carpe_diem.param_slots import (
    PR_BREAD_TARGET_TILES,
    PR_CRAFTSMAN_OPTIONAL,
    PR_CRAFTSMAN_STORE,
    PR_FIRST_TILE_STORE,
    PR_FULL_LOOP_BREAD,
    PR_LANDSCAPE_REWARD_CAP,
    PR_N_PLAYERS,
    PR_OVERFLOW_ADMIN_ONLY,
)
from bgsim.sim.games.carpe_diem.state import (
    ANNA_SPACE,
    ANNA_TIED,
    ANNA_TIED_N,
    BANNER_LEFT,
    BANNER_POS,
    BREAD,
    BUILT,
    COUNT,
    DEPOT,
    DISC_LIVE,
    FD_DRAWN,
    FD_NDRAWN,
    FOUNTAIN_HELD,
    FOUNTAIN_N,
    GOODS,
    PATRICIANS_REVEALED,
    PHASE,
    RW_FRAME,
    RW_KIND,
    RW_N,
    RW_NFRAMES,
    RW_SIZE,
    SC_CARDS,
    SC_K,
    SC_PAY_COINS,
    SC_PAY_KIND,
    SC_STAGE,
    SEAL,
    SEAT,
    SLOT_CARD,
    TAKEN,
    TASK_DONE,
)
from bgsim.sim.games.carpe_diem.state import (
    DISC as S_DISC,
)
from bgsim.sim.games.carpe_diem.state import (
    PATRICIAN as S_PATRICIAN,
)
from bgsim.sim.games.carpe_diem.tables import (
    T_CARD_GIVE,
    T_CARD_PAY,
    T_FOUNTAIN_COUNTER,
    T_FOUNTAIN_VP,
    T_PART_CHIM,
    T_PART_TYPE,
    T_ROT_UNIQUE,
    T_TILE_DARK,
    T_TILE_NPARTS,
    T_TRACK_LAST,
)
from numba import njit

# Worst case: 16 movement options x 4 tiles x (36 cells x 4 rotations + store).
MAX_ROWS = 16 * DEPOT_SIZE * (N_CELLS * 4 + 1)
@njit(cache=True)
def candidates(s, t, p, feats, acts):
    """Rows of the pending decision; returns their number (0 once the game is over)."""
    kind = s[PHASE]
    if kind == TURN:
        return _turn_rows(s, t, p, feats, acts)
    if kind == D_CRAFTSMAN:
        return _craftsman_rows(s, t, p, feats, acts)
    if kind == PATRICIAN:
        return _patrician_rows(s, t, p, feats, acts)
    if kind == REWARD_ORDER:
        return _reward_order_rows(s, p, feats, acts)
    if kind == D_FOUNTAIN:
        return _fountain_rows(s, t, feats, acts)
    if kind == DISC:
        return _disc_rows(s, t, p, feats, acts)
    if kind == CARD_ORDER:
        return _card_order_rows(s, t, p, feats, acts)
    if kind == FULFIL:
        return _fulfil_rows(s, t, p, feats, acts)
    if kind == PAYMENT:
        return _payment_rows(s, t, feats, acts)
    if kind == ANNA_PATRICIAN:
        return _patrician_rows(s, t, p, feats, acts, ANNA_PATRICIAN)
    if kind == ANNA_TIE:
        return _anna_tie_rows(s, feats, acts)
    return 0


@njit(cache=True)
def depot_count(s, space):
    n = 0
    for j in range(DEPOT_SIZE):
        if s[DEPOT + space * DEPOT_SIZE + j] >= 0:
            n += 1
    return n


@njit(cache=True)
def step_destination(s, start, direction):
    """CD-TURN-4: one space in ``direction`` (+1 clockwise, -1 counter-clockwise), then on past
    empty depots; returns ``start`` itself after a full loop (AMB-3), -1 if every depot is empty."""
    q = start
    for _ in range(N_SPACES):
        q = (q + direction + N_SPACES) % N_SPACES
        if depot_count(s, q) > 0:
            return q
    return -1


@njit(cache=True)
def placement_context(s, t, p, seat, ctx):
    """Fill the shared context ``ctx`` (CTX_SIZE,) int64 for placement rows of ``seat``."""
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
    counts = counters(s, seat)
    for i in range(N_COUNTERS):
        ctx[X_COUNTS + i] = counts[i]
        ctx[X_FOUNTAIN_VP + i] = 0
    for i in range(s[FOUNTAIN_N + seat]):
        card = s[FOUNTAIN_HELD + seat * 24 + i]
        ctx[X_FOUNTAIN_VP + t[T_FOUNTAIN_COUNTER + card]] += t[T_FOUNTAIN_VP + card]
    for g in range(N_GOODS):
        ctx[X_RED_WANTS + g] = 0
    n_green = 0
    for slot in range(N_SLOTS):
        card = s[SLOT_CARD + slot]
        if card < 0 or not _beside_free_space(s, slot):
            continue
        if is_red(t, card):
            for g in range(N_GOODS):
                if t[T_CARD_GIVE + card * N_GOODS + g] > 0:
                    ctx[X_RED_WANTS + g] = 1
        else:
            ctx[X_GREEN + n_green] = card
            ctx[X_GREEN_K + n_green] = green_k(t, card, counts)
            pay = T_CARD_PAY + card * 4
            units = t[pay + PAY_VP] + t[pay + PAY_COINS] + t[pay + PAY_BREAD] + t[pay + PAY_STEPS]
            ctx[X_GREEN_UNITS + n_green] = units
            ctx[X_GREEN_MASK + n_green] = green_counter_mask(t, card)
            n_green += 1
    ctx[X_GREEN_N] = n_green
    ctx[X_GREEN_ANY] = 0
    for i in range(n_green):
        ctx[X_GREEN_ANY] |= ctx[X_GREEN_MASK + i]
    ctx[X_OPEN_TASK_TYPES] = 0
    for task in range(N_TASKS):
        if s[TASK_DONE + seat * N_TASKS + task] == 0:
            ctx[X_OPEN_TASK_TYPES] |= 1 << task_type(t, s, seat, task)
    reset_outlook(s, seat, ctx)


@njit(cache=True)
def placement_features(s, t, p, seat, tile, cell, res, k, ctx, from_seal, row):
    """Features of a legal placement whose ``probe`` result is row ``k`` of ``res`` (m, R_SIZE)
    int64, into ``row`` (N_FEATURES,); ``ctx`` (CTX_SIZE,) int64 from placement_context."""
    nparts = t[T_TILE_NPARTS + tile]
    row[F_TILE_PARTS] = nparts
    row[F_DARK] = t[T_TILE_DARK + tile]
    row[F_MATCHED] = res[k, R_MATCHED]
    row[F_OPEN_ADDED] = res[k, R_OPEN_ADDED]
    row[F_CHIMNEYS] = res[k, R_CHIMNEYS]
    banner = s[BANNER_LEFT + seat * N_CELLS + cell]
    row[F_BANNER] = banner
    villa_open = 0
    any_done = False
    for j in range(nparts):
        o = R_PART + R_STRIDE * j
        if res[k, o] == VILLA and res[k, o + 1] == 0:
            villa_open = max(villa_open, res[k, o + 4])
        any_done = any_done or res[k, o + 1] == 1
        if res[k, o + 1] == 0 and (ctx[X_OPEN_TASK_TYPES] >> res[k, o]) & 1:  # CD-END-6, not yet met
            row[F_FRAME_OPEN] += new_task_vp(t, s, p, seat, res[k, o], res[k, o + 5], res[k, o + 6])
    row[F_VILLA_OPEN] = villa_open
    steps = banner
    if not any_done and res[k, R_CHIMNEYS] == 0:
        _steps_and_overflow(p, ctx, banner, 0, row)
        return
    for c in range(N_COUNTERS):
        ctx[X_DELTA + c] = 0  # counter changes
    ctx[X_DELTA + C_CHIMNEYS] = res[k, R_CHIMNEYS]
    changed = (1 << C_CHIMNEYS) if res[k, R_CHIMNEYS] != 0 else 0  # bit c: counter c changes
    for g in range(N_GOODS):
        ctx[X_GOODS_GAIN + g] = 0  # goods gained by kind
    coins = 0
    bread = 0
    admin = 0
    merchant_ = False
    cap = p[PR_LANDSCAPE_REWARD_CAP]
    for j in range(nparts):
        o = R_PART + R_STRIDE * j
        if res[k, o + 1] == 0:
            continue
        ptype = res[k, o]
        ctx[X_DELTA + ptype] += 1
        changed |= 1 << ptype
        row[F_FOUNTAIN_VP] += ctx[X_FOUNTAIN_VP + ptype]
        if ptype == VILLA:
            row[F_VILLAS] += 1
            row[F_VILLA_VP] += villa_vp(t, res[k, o + 3])
        elif LANDSCAPE_FIRST <= ptype <= LANDSCAPE_LAST:
            row[F_LANDSCAPES] += 1
            ctx[X_DELTA + C_LANDSCAPES] += 1
            changed |= 1 << C_LANDSCAPES
            goods = res[k, o + 2] - 1
            if cap > 0:
                goods = min(goods, cap)
            ctx[X_GOODS_GAIN + ptype - POND] += goods
        elif LODGING_FIRST <= ptype <= LODGING_LAST:
            row[F_LODGINGS] += 1
            ctx[X_DELTA + C_LODGINGS] += 1
            changed |= 1 << C_LODGINGS
            if ptype == MERCHANT:
                merchant_ = True
            elif ptype == BAKER:
                bread += 2
            elif ptype == ADMINISTRATOR:
                admin += 2
            elif ptype == CRAFTSMAN and ctx[X_SEALS] - from_seal > 0:
                row[F_CRAFTSMAN] += 1
        else:
            row[F_SMALL] += 1
            if ptype == MARKET:
                coins += 1
            elif ptype == BAKERY:
                bread += 1
            elif ptype == FOUNTAIN:
                row[F_FOUNTAIN_DRAWS] += 1
        if ptype < MARKET and (ctx[X_OPEN_TASK_TYPES] >> ptype) & 1:  # else no task to meet
            row[F_FRAME_VP] += new_task_vp(t, s, p, seat, ptype, res[k, o + 5], res[k, o + 6])
    goods = 0
    card_goods = 0
    for g in range(N_GOODS):
        goods += ctx[X_GOODS_GAIN + g]
        card_goods += ctx[X_GOODS_GAIN + g] * ctx[X_RED_WANTS + g]
    row[F_GOODS] = goods
    row[F_CARD_GOODS] = card_goods
    row[F_NEXT_SCORING] = next_scoring(s, t, p, ctx, changed, coins, bread, merchant_)
    if merchant_:  # valued last, as in the fixed order of AMB-11
        coins += ctx[X_GOODS] + goods + 1
        row[F_GOODS_LOST] = ctx[X_GOODS] + goods
    row[F_COINS] = coins
    row[F_BREAD] = bread
    value = 0
    if changed & ctx[X_GREEN_ANY]:
        for c in range(N_COUNTERS):
            ctx[X_AFTER + c] = ctx[X_COUNTS + c] + ctx[X_DELTA + c]
        for i in range(ctx[X_GREEN_N]):
            if changed & ctx[X_GREEN_MASK + i]:  # else none of its counters changes: same k
                value += (green_k_from(t, ctx[X_GREEN + i], ctx, X_AFTER) - ctx[X_GREEN_K + i]) * ctx[X_GREEN_UNITS + i]
    row[F_CARD_VALUE] = value
    _steps_and_overflow(p, ctx, steps, admin, row)


@njit(cache=True)
def legal_placements(s, t, p, seat, tile, work):
    """List the legal placements of ``tile`` in row order (cells ascending, then rotations, a
    rotation that looks like a lower one skipped) into ``work.cells``/``rots``/``res``; return
    their number. ``work`` holds the decision's inputs (fill_placement_inputs)."""
    codes = work.ctx[X_TILE_CODE: X_TILE_CODE + 4]
    for rot in range(4):
        codes[rot] = edge_code(t, tile, rot) if t[T_ROT_UNIQUE + tile * 4 + rot] else -1
    n = 0
    for i in range(work.ctx[X_N_FRONTIER]):
        cell = work.frontier[i]
        forbid = work.forbid[cell]
        for rot in range(4):
            if codes[rot] < 0 or codes[rot] & forbid:
                continue  # a repeated rotation, or an edge does not match (CD-BUILD-5)
            if probe_from_tables(t, p, tile, rot, cell, work, n):
                work.cells[n] = cell
                work.rots[n] = rot
                n += 1
    return n


@njit(cache=True)
def tile_rows(s, t, p, seat, tile, work, from_seal, allow_store, feats, acts, n):
    """Append a row per legal placement of ``tile`` (cells, then rotations), then STORE."""
    for k in range(legal_placements(s, t, p, seat, tile, work)):
        cell = work.cells[k]
        _clear(feats, acts, n, TURN)
        acts[n, A_TILE] = tile
        acts[n, A_CELL] = cell
        acts[n, A_ROT] = work.rots[k]
        feats[n, F_ADJACENT] = max(work.adj[cell], 0)
        placement_features(s, t, p, seat, tile, cell, work.res, k, work.ctx, from_seal, feats[n])
        n += 1
    if allow_store:
        _clear(feats, acts, n, TURN)
        acts[n, A_TILE] = tile
        store_features(t, tile, feats[n])
        n += 1
    return n


@njit(cache=True)
def store_features(t, tile, row):
    """The features of storing ``tile`` face down (CD-TURN-11) into a zeroed ``row`` (N_FEATURES,)."""
    row[F_STORE] = 1
    row[F_TILE_PARTS] = t[T_TILE_NPARTS + tile]
    row[F_DARK] = t[T_TILE_DARK + tile]


@njit(cache=True)
def fill_placement_inputs(s, t, p, seat, work):
    """What every placement row of one decision shares, into ``work``: the context, and the
    frontier with each frontier cell's needs, neighbour roots, built neighbours, forbidden edges
    and merge tables (``placements.fill_frontier``)."""
    placement_context(s, t, p, seat, work.ctx)
    fill_frontier(s, t, seat, work)


@njit(cache=True)
def turn_movements(s, p, seat, moves):
    """Fill ``moves`` (3, N_MOVES_MAX) int64 with the TURN movements in row order (D02): code,
    bread target, destination depot; return how many."""
    pos = s[S_PATRICIAN + seat]
    bread = s[BREAD + seat]
    n_mv = 0
    cw = step_destination(s, pos, 1)
    ccw = step_destination(s, pos, -1)
    if not (cw == pos and p[PR_FULL_LOOP_BREAD] and bread >= 1):  # AMB-3 alternative: must pay bread
        _set_move(moves, 0, STEP_CW, -1, cw)
        _set_move(moves, 1, STEP_CCW, -1, ccw)
        n_mv = 2
    if bread >= 1:  # CD-TURN-7
        for space in range(N_SPACES):
            if depot_count(s, space) > 0:
                _set_move(moves, n_mv, BREAD_TO, space, space)
                n_mv += 1
            elif p[PR_BREAD_TARGET_TILES] == 0:  # AMB-15 alternative
                _set_move(moves, n_mv, BREAD_THEN_CW, space, step_destination(s, space, 1))
                _set_move(moves, n_mv + 1, BREAD_THEN_CCW, space, step_destination(s, space, -1))
                n_mv += 2
    return n_mv


@njit(cache=True)
def turn_store_allowed(s, p, seat):
    return not (s[TAKEN + seat] == 0 and p[PR_FIRST_TILE_STORE] == 0)  # CD-BUILD-1, AMB-10


# Helpers


@njit(cache=True)
def _clear(feats, acts, n, kind):
    for f in range(N_FEATURES):
        feats[n, f] = 0
    for a in range(N_ACTION_FIELDS):
        acts[n, a] = -1
    acts[n, A_KIND] = kind


@njit(cache=True)
def _set_move(moves, m, code, target, dest):
    moves[MV_CODE, m] = code
    moves[MV_TARGET, m] = target
    moves[MV_DEST, m] = dest


@njit(cache=True)
def _steps_and_overflow(p, ctx, banner_steps, admin_steps, row):
    """Steps of the build and the VP of those beyond the last track space (CD-REWARD-10, AMB-16)."""
    pos = ctx[X_POS]
    last = ctx[X_LAST]
    vp = 0
    for i in range(banner_steps + admin_steps):
        if pos < last:
            pos += 1
        elif p[PR_OVERFLOW_ADMIN_ONLY] == 0 or i >= banner_steps:
            vp += 1
    row[F_STEPS] = banner_steps + admin_steps
    row[F_VP] = vp


@njit(cache=True)
def _beside_free_space(s, slot):
    for space in range(N_DISC_SPACES):
        if s[DISC_LIVE + space] and s[S_DISC + space] < 0:
            if DISC_SLOT_A[space] == slot or DISC_SLOT_B[space] == slot:
                return True
    return False


@njit(cache=True)
def _turn_rows(s, t, p, feats, acts):
    """TURN: movement (D02) x tile (D03) x placement or STORE (D04)."""
    seat = s[SEAT]
    work = new_placement_work()
    moves = work.moves
    n_mv = turn_movements(s, p, seat, moves)
    fill_placement_inputs(s, t, p, seat, work)
    allow_store = turn_store_allowed(s, p, seat)
    block_start = np.full(N_SPACES, -1, dtype=np.int64)
    block_len = np.zeros(N_SPACES, dtype=np.int64)
    n = 0
    for m in range(n_mv):
        dest = moves[MV_DEST, m]
        start = n
        if block_start[dest] < 0:
            for slot in range(DEPOT_SIZE):
                tile = s[DEPOT + dest * DEPOT_SIZE + slot]
                if tile < 0:
                    continue
                before = n
                n = tile_rows(s, t, p, seat, tile, work, 0, allow_store, feats, acts, n)
                for r in range(before, n):
                    acts[r, A_SLOT] = slot
            block_start[dest] = start
            block_len[dest] = n - start
        else:
            src = block_start[dest]
            for r in range(block_len[dest]):
                feats[n + r] = feats[src + r]
                acts[n + r] = acts[src + r]
            n += block_len[dest]
        tiles_here = depot_count(s, dest)
        for r in range(start, n):
            acts[r, A_MOVE] = moves[MV_CODE, m]
            acts[r, A_TARGET] = moves[MV_TARGET, m]
            acts[r, A_SPACE] = dest
            feats[r, F_BREAD_SPENT] = 1 if moves[MV_CODE, m] >= BREAD_TO else 0
            feats[r, F_DEPOT_TILES] = tiles_here
    return n


@njit(cache=True)
def _craftsman_rows(s, t, p, feats, acts):
    """CRAFTSMAN: seal tile (D06) x placement or STORE (D04); DECLINE last if optional (AMB-12)."""
    seat = s[SEAT]
    work = new_placement_work()
    fill_placement_inputs(s, t, p, seat, work)
    n = 0
    for seal in range(N_SEALS):
        tile = s[SEAL + seal]
        if tile < 0:
            continue
        start = n
        n = tile_rows(s, t, p, seat, tile, work, 1, p[PR_CRAFTSMAN_STORE] == 1, feats, acts, n)
        for r in range(start, n):
            acts[r, A_KIND] = D_CRAFTSMAN
            acts[r, A_SPACE] = seal
    if p[PR_CRAFTSMAN_OPTIONAL]:
        _clear(feats, acts, n, D_CRAFTSMAN)
        n += 1
    return n


@njit(cache=True)
def _patrician_rows(s, t, p, feats, acts, kind=PATRICIAN):
    """PATRICIAN (D01): any space no patrician stands on (CD-SETUP-11). Once the tiles are face up
    (AMB-14 alternative) the rows describe the tiles in the two depots the first step can reach.
    ANNA_PATRICIAN (D12, solo): the same rows for Anna's patrician (CD-ANNA-5)."""
    n = 0
    for space in range(N_SPACES):
        taken = False
        for q in range(p[PR_N_PLAYERS]):
            taken = taken or s[S_PATRICIAN + q] == space
        if taken:
            continue
        _clear(feats, acts, n, kind)
        acts[n, A_SPACE] = space
        feats[n, F_RIVAL_DISTANCE] = _rival_distance(s, p, space)
        if s[PATRICIANS_REVEALED]:
            for side in (1, N_SPACES - 1):
                depot = (space + side) % N_SPACES
                for j in range(DEPOT_SIZE):
                    tile = s[DEPOT + depot * DEPOT_SIZE + j]
                    if tile < 0:
                        continue
                    feats[n, F_DEPOT_TILES] += 1
                    feats[n, F_TILE_PARTS] += t[T_TILE_NPARTS + tile]
                    for k in range(t[T_TILE_NPARTS + tile]):
                        ptype = t[T_PART_TYPE + tile * 2 + k]
                        feats[n, F_CHIMNEYS] += t[T_PART_CHIM + tile * 2 + k]
                        if ptype >= MARKET:
                            feats[n, F_SMALL] += 1
        n += 1
    return n


@njit(cache=True)
def _anna_tie_rows(s, feats, acts):
    """ANNA_TIE (D13, solo): the tiles Anna's rules leave tied, in depot order (CD-ANNA-15 (e)).
    The rows carry no features: what Anna takes leaves the game, so a weight policy takes the
    first."""
    space = s[ANNA_SPACE]
    for i in range(s[ANNA_TIED_N]):
        _clear(feats, acts, i, ANNA_TIE)
        acts[i, A_SPACE] = space
        acts[i, A_SLOT] = s[ANNA_TIED + i]
        acts[i, A_TILE] = s[DEPOT + space * DEPOT_SIZE + s[ANNA_TIED + i]]
    return s[ANNA_TIED_N]


@njit(cache=True)
def _reward_order_rows(s, p, feats, acts):
    """REWARD_ORDER (D05): which pending reward of the current build to resolve next."""
    seat = s[SEAT]
    start = s[RW_FRAME + s[RW_NFRAMES] - 1]
    goods_held = 0
    for k in range(N_GOODS):
        goods_held += s[GOODS + seat * N_GOODS + k]
    planned = start  # what the fixed order of AMB-11 resolves next (flow._resolve_rewards)
    for i in range(start + 1, s[RW_N]):
        if reward_rank(s[RW_KIND + i]) < reward_rank(s[RW_KIND + planned]):
            planned = i
    n = 0
    for i in range(start, s[RW_N]):
        kind = s[RW_KIND + i]
        _clear(feats, acts, n, REWARD_ORDER)
        acts[n, A_SLOT] = i - start
        acts[n, A_COUNT] = kind
        feats[n, F_PLANNED_REWARD] = 1 if i == planned else 0
        if LANDSCAPE_FIRST <= kind <= LANDSCAPE_LAST:
            goods = s[RW_SIZE + i] - 1
            if p[PR_LANDSCAPE_REWARD_CAP] > 0:
                goods = min(goods, p[PR_LANDSCAPE_REWARD_CAP])
            feats[n, F_GOODS] = goods
        elif kind == MERCHANT:
            feats[n, F_COINS] = goods_held + 1
            feats[n, F_GOODS_LOST] = goods_held
        elif kind == BAKER:
            feats[n, F_BREAD] = 2
        elif kind == ADMINISTRATOR:
            feats[n, F_STEPS] = 2
        elif kind == CRAFTSMAN:
            feats[n, F_CRAFTSMAN] = 1
        elif kind == MARKET:
            feats[n, F_COINS] = 1
        elif kind == BAKERY:
            feats[n, F_BREAD] = 1
        elif kind == FOUNTAIN:
            feats[n, F_FOUNTAIN_DRAWS] = 1
        n += 1
    return n


@njit(cache=True)
def _fountain_rows(s, t, feats, acts):
    """FOUNTAIN (D07): the card to put under the deck: a drawn card, or (holding cards) a held one;
    "none" only when a short deck gave a single card to a player holding cards (AMB-18)."""
    seat = s[SEAT]
    nd = s[FD_NDRAWN]
    h = s[FOUNTAIN_N + seat]
    total = nd + h
    hand = np.empty(total, dtype=np.int64)
    for i in range(nd):
        hand[i] = s[FD_DRAWN + i]
    for i in range(h):
        hand[nd + i] = s[FOUNTAIN_HELD + seat * 24 + i]
    n = 0
    first = -1 if nd == 1 else 0
    last = total if h > 0 else nd
    for index in range(first, last):
        _clear(feats, acts, n, D_FOUNTAIN)
        acts[n, A_SLOT] = index
        acts[n, A_TILE] = hand[index] if index >= 0 else -1
        value = 0
        potential = 0
        for i in range(total):
            if i != index:
                card = hand[i]
                value += t[T_FOUNTAIN_VP + card] * _count(s, seat, t[T_FOUNTAIN_COUNTER + card])
                potential += t[T_FOUNTAIN_VP + card] * open_features(s, t, seat, t[T_FOUNTAIN_COUNTER + card])
        feats[n, F_FOUNTAIN_VP] = value
        feats[n, F_FOUNTAIN_OPEN] = potential
        n += 1
    return n


@njit(cache=True)
def _plan_features(total, row):
    row[F_VP] = total[O_VP]
    row[F_STEPS] = total[O_STEPS]
    row[F_COINS] = total[O_COINS]
    row[F_BREAD] = total[O_BREAD]
    row[F_GOODS_LOST] = total[O_GOODS_PAID]
    row[F_COINS_PAID] = total[O_COINS_PAID]
    row[F_BREAD_PAID] = total[O_BREAD_PAID]
    row[F_PENALTIES] = total[O_PENALTY]
    row[F_FULFILMENTS] = total[O_FULFIL]


@njit(cache=True)
def _disc_rows(s, t, p, feats, acts):
    """DISC (D08): an empty live disc space; features = best plan for its two cards."""
    seat = s[SEAT]
    res = resources(s, seat)
    counts = counters(s, seat)
    total = np.zeros(O_SIZE, dtype=np.int64)
    other = np.zeros(O_SIZE, dtype=np.int64)
    n = 0
    for space in range(N_DISC_SPACES):
        if not s[DISC_LIVE + space] or s[S_DISC + space] >= 0:
            continue
        a = s[SLOT_CARD + DISC_SLOT_A[space]]
        b = s[SLOT_CARD + DISC_SLOT_B[space]]
        _clear(feats, acts, n, DISC)
        acts[n, A_SPACE] = space
        v1 = plan_two_cards(t, p, a, b, counts, res, total)
        v2 = plan_two_cards(t, p, b, a, counts, res, other)
        _plan_features(other if v2 > v1 else total, feats[n])
        n += 1
    return n


@njit(cache=True)
def _card_order_rows(s, t, p, feats, acts):
    """CARD_ORDER (D09): which triggered card is resolved first."""
    seat = s[SEAT]
    res = resources(s, seat)
    counts = counters(s, seat)
    total = np.zeros(O_SIZE, dtype=np.int64)
    for j in range(2):
        _clear(feats, acts, j, CARD_ORDER)
        first = s[SC_CARDS + j]
        acts[j, A_SLOT] = j
        acts[j, A_TILE] = first
        plan_two_cards(t, p, first, s[SC_CARDS + 1 - j], counts, res, total)
        _plan_features(total, feats[j])
    return 2


@njit(cache=True)
def _fulfil_rows(s, t, p, feats, acts):
    """FULFIL (D10 + D11's k): bread fulfilments b and normal fulfilments k of the current card."""
    seat = s[SEAT]
    card = s[SC_CARDS + s[SC_STAGE]]
    res = resources(s, seat)
    bmax = bread_max(p, res)
    red = is_red(t, card)
    kmax = red_kmax(t, card, res) if red else green_k(t, card, counters(s, seat))
    out = np.zeros(O_SIZE, dtype=np.int64)
    n = 0
    for b in range(bmax + 1):
        for k in range(0 if red else kmax, kmax + 1):
            if not row_allowed(t, p, card, res, b, k, kmax, bmax):
                continue
            _clear(feats, acts, n, FULFIL)
            acts[n, A_TILE] = card
            acts[n, A_BREAD] = b
            acts[n, A_COUNT] = k
            outcome(t, p, card, res, b, k, out)
            _plan_features(out, feats[n])
            n += 1
    return n


@njit(cache=True)
def _payment_rows(s, t, feats, acts):
    """PAYMENT (D11): how many units of one goods kind are paid with coins instead of goods."""
    seat = s[SEAT]
    card = s[SC_CARDS + s[SC_STAGE]]
    kind = s[SC_PAY_KIND]
    k = s[SC_K]
    chosen = 0
    for j in range(kind):
        chosen += s[SC_PAY_COINS + j]
    lo, hi = payment_range(s, t, seat, card, k, kind, chosen)
    need = k * t[T_CARD_GIVE + card * N_GOODS + kind]
    n = 0
    for c in range(lo, hi + 1):
        _clear(feats, acts, n, PAYMENT)
        acts[n, A_SLOT] = kind
        acts[n, A_TILE] = card
        acts[n, A_COUNT] = c
        feats[n, F_COINS_PAID] = c
        feats[n, F_GOODS_LOST] = need - c
        n += 1
    return n


@njit(cache=True)
def _rival_distance(s, p, space):
    """Steps around the circle of spaces (CD-TURN-2) from ``space`` to the nearest patrician of
    another seat; 0 while none stands (seat 0's first choice)."""
    best = 0
    for q in range(p[PR_N_PLAYERS]):
        other = s[S_PATRICIAN + q]
        if other < 0:
            continue
        d = abs(other - space)
        d = min(d, N_SPACES - d)
        best = d if best == 0 else min(best, d)
    return best


@njit(cache=True)
def _count(s, seat, counter):
    return s[COUNT + seat * N_COUNTERS + counter]
