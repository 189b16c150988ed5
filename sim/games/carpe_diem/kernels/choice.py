"""Placement decisions (TURN, CRAFTSMAN) chosen without writing their candidate tables.

The shared play loop (``sim.loops``) calls ``direct_action`` before ``candidates`` + ``choose_row``;
the functions here pick exactly the row those would pick:

* weights: the first row of highest ``features @ weights``. A TURN row's features are those of
  its placement plus two movement columns (``bread_spent``, ``depot_tiles``), so each depot's
  placements are valued once and the movement term is added per movement; the first movement
  with the best total wins, and within it the first best placement of the depot. A tile whose
  design (``tables.T_TILE_DESIGN``) the turn has valued already is not valued again.
* random: ``below(stream, seat, n)`` over the row count n, then that row is located.

The scoring decisions DISC, CARD_ORDER and FULFIL and the FOUNTAIN decision are chosen the same
way from the rows of ``candidates._disc_rows``, ``_card_order_rows``, ``_fulfil_rows`` and
``_fountain_rows`` (same order, same feature values), with card plans computed in the scratch
of a ``DiscWork`` instead of fresh arrays.

Each function returns False when it cannot decide (no rows), and the caller falls back to the
table. Arrays: ``s`` (STATE_SIZE,) int32; ``t`` (TABLES_SIZE,) int32; ``p`` (N_PARAMS,) int32;
``weights`` (N_FEATURES,) int64; ``streams`` (P,) uint64; ``scratch`` (``new_scratch``) a
``PlacementWork`` (``work``) and a ``DiscWork`` (``disc_work``); ``action`` (N_ACTION_FIELDS,)
int32, filled with the chosen row's action.
"""

from typing import NamedTuple

import numpy as np
from bgsim.sim.api import POLICY_WEIGHTS
from bgsim.sim.borrow import njit_inline_without_refcounts, njit_without_refcounts
from bgsim.sim.games.carpe_diem.constants import DEPOT_SIZE, N_COUNTERS, N_DISC_SPACES, N_SEALS
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
    BREAD_TO,
    CARD_ORDER,
    DISC,
    FULFIL,
    N_ACTION_FIELDS,
    TURN,
)
from bgsim.sim.games.carpe_diem.decisions import CRAFTSMAN as D_CRAFTSMAN
from bgsim.sim.games.carpe_diem.decisions import FOUNTAIN as D_FOUNTAIN
from bgsim.sim.games.carpe_diem.features import (
    F_BREAD,
    F_BREAD_PAID,
    F_BREAD_SPENT,
    F_COINS,
    F_COINS_PAID,
    F_DEPOT_TILES,
    F_FOUNTAIN_OPEN,
    F_FOUNTAIN_VP,
    F_FULFILMENTS,
    F_GOODS_LOST,
    F_PENALTIES,
    F_STEPS,
    F_VP,
)
from bgsim.sim.games.carpe_diem.kernels.candidates import depot_count, turn_movements, turn_store_allowed
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
    RES_SIZE,
    bread_max,
    fill_counters,
    fill_resources,
    green_k,
    is_red,
    outcome,
    plan_two_cards_into,
    red_kmax,
    row_allowed,
)
from bgsim.sim.games.carpe_diem.kernels.district import open_features
from bgsim.sim.games.carpe_diem.kernels.placements import (
    best_placement_value,
    fill_cell_values,
    fill_context,
    fill_frontier,
    list_legal,
)
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B
from bgsim.sim.games.carpe_diem.kernels.work import (
    BK_CELL,
    BK_DONE,
    BK_ROT,
    BK_ROWS,
    BK_SLOT,
    BK_VALUE,
    DS_CELL,
    DS_DESIGN,
    DS_ROT,
    DS_VALUE,
    MV_CODE,
    MV_DEST,
    MV_TARGET,
    NO_ROW,
    new_placement_work,
)
from bgsim.sim.games.carpe_diem.param_slots import PR_CRAFTSMAN_OPTIONAL, PR_CRAFTSMAN_STORE
from bgsim.sim.games.carpe_diem.state import (
    COUNT,
    DEPOT,
    DISC_LIVE,
    FD_DRAWN,
    FD_NDRAWN,
    FOUNTAIN_HELD,
    FOUNTAIN_N,
    PHASE,
    SC_CARDS,
    SC_STAGE,
    SEAL,
    SEAT,
    SLOT_CARD,
)
from bgsim.sim.games.carpe_diem.state import DISC as S_DISC
from bgsim.sim.games.carpe_diem.tables import T_FOUNTAIN_COUNTER, T_FOUNTAIN_VP, T_TILE_DESIGN
from bgsim.sim.rng import below
from numba import njit


class DiscWork(NamedTuple):
    """Scratch of the DISC plans (``cards.plan_two_cards_into``), all int64."""

    res: np.ndarray  # (RES_SIZE,): the deciding seat's resources
    counts: np.ndarray  # (N_COUNTERS,): its counters
    total: np.ndarray  # (O_SIZE,): plan of one card order
    other: np.ndarray  # (O_SIZE,): plan of the other order
    work: np.ndarray  # (RES_SIZE,): resources during a plan
    out: np.ndarray  # (O_SIZE,): one card's outcome


@njit(cache=True)
def new_disc_work():
    return DiscWork(np.empty(RES_SIZE, dtype=np.int64), np.empty(N_COUNTERS, dtype=np.int64),
                    np.empty(O_SIZE, dtype=np.int64), np.empty(O_SIZE, dtype=np.int64),
                    np.empty(RES_SIZE, dtype=np.int64), np.empty(O_SIZE, dtype=np.int64))


@njit(cache=True)
def new_scratch():
    """The working memory of ``direct_action``, made once per batch of games: (PlacementWork, DiscWork)."""
    return new_placement_work(), new_disc_work()


@njit_without_refcounts
def direct_action(s, t, p, policy, weights, streams, scratch, action):
    """Choose the pending TURN, CRAFTSMAN, DISC, CARD_ORDER, FULFIL or FOUNTAIN row for ``policy``
    into ``action``; False if the decision is of another kind or has no rows (then use the
    candidate table)."""
    work, disc_work = scratch
    kind = s[PHASE]
    if kind == TURN:
        if policy == POLICY_WEIGHTS:
            return weighted_turn(s, t, p, weights, work, action)
        return random_turn(s, t, p, streams, work, action)
    if kind == D_CRAFTSMAN:
        if policy == POLICY_WEIGHTS:
            return weighted_craftsman(s, t, p, weights, work, action)
        return random_craftsman(s, t, p, streams, work, action)
    if kind == DISC:
        if policy == POLICY_WEIGHTS:
            return weighted_disc(s, t, p, weights, disc_work, action)
        return random_disc(s, streams, action)
    if kind == CARD_ORDER:
        return card_order(s, t, p, policy, weights, streams, disc_work, action)
    if kind == FULFIL:
        return fulfil(s, t, p, policy, weights, streams, disc_work, action)
    if kind == D_FOUNTAIN:
        return fountain(s, t, policy, weights, streams, action)
    return False


# Weights


@njit_without_refcounts
def weighted_turn(s, t, p, weights, work, action):
    """TURN under a weight policy: see the module doc."""
    seat = s[SEAT]
    moves = work.moves
    blocks = work.blocks
    n_mv = turn_movements(s, p, seat, moves)
    fill_context(s, t, seat, work.ctx)
    fill_frontier(s, t, seat, work)
    fill_cell_values(s, p, seat, weights, work)
    allow_store = turn_store_allowed(s, p, seat)
    blocks[BK_DONE] = 0
    n_designs = 0
    best = NO_ROW
    best_m = -1
    for m in range(n_mv):
        dest = moves[MV_DEST, m]
        if dest < 0:
            return False  # no depot has tiles: leave it to the table
        if not blocks[BK_DONE, dest]:
            n_designs = _best_of_depot(s, t, p, seat, dest, allow_store, weights, work, n_designs)
        if blocks[BK_VALUE, dest] == NO_ROW:
            continue
        value = blocks[BK_VALUE, dest] + weights[F_DEPOT_TILES] * depot_count(s, dest)
        if moves[MV_CODE, m] >= BREAD_TO:
            value += weights[F_BREAD_SPENT]
        if value > best:
            best = value
            best_m = m
    if best_m < 0:
        return False
    dest = moves[MV_DEST, best_m]
    slot = blocks[BK_SLOT, dest]
    _placement_action(action, TURN, s[DEPOT + dest * DEPOT_SIZE + slot], blocks[BK_CELL, dest],
                      blocks[BK_ROT, dest])
    _turn_fields(action, moves, best_m, slot)
    return True


@njit_without_refcounts
def weighted_craftsman(s, t, p, weights, work, action):
    """CRAFTSMAN under a weight policy: seal tiles in order, then DECLINE (all features 0)."""
    seat = s[SEAT]
    fill_context(s, t, seat, work.ctx)
    fill_frontier(s, t, seat, work)
    fill_cell_values(s, p, seat, weights, work)
    best = NO_ROW
    best_seal = -1
    best_cell = -1
    best_rot = -1
    for seal in range(N_SEALS):
        tile = s[SEAL + seal]
        if tile < 0:
            continue
        value, cell, rot = best_placement_value(s, t, p, seat, tile, 1, p[PR_CRAFTSMAN_STORE] == 1, weights, work)
        if value > best:
            best = value
            best_seal = seal
            best_cell = cell
            best_rot = rot
    if p[PR_CRAFTSMAN_OPTIONAL] and 0 > best:
        _placement_action(action, D_CRAFTSMAN, -1, -1, -1)
        return True
    if best_seal < 0:
        return False
    _placement_action(action, D_CRAFTSMAN, s[SEAL + best_seal], best_cell, best_rot)
    action[A_SPACE] = best_seal
    return True


@njit_without_refcounts
def weighted_disc(s, t, p, weights, disc_work, action):
    """DISC under a weight policy: each free live space's row holds the better of its two card
    orders' plans (``candidates._disc_rows``); the first best row wins."""
    seat = s[SEAT]
    res = disc_work.res
    counts = disc_work.counts
    fill_resources(s, seat, res)
    fill_counters(s, seat, counts)
    best = NO_ROW
    best_space = -1
    for space in range(N_DISC_SPACES):
        if not s[DISC_LIVE + space] or s[S_DISC + space] >= 0:
            continue
        a = s[SLOT_CARD + DISC_SLOT_A[space]]
        b = s[SLOT_CARD + DISC_SLOT_B[space]]
        v1 = 0
        v2 = 0
        for order in range(2):  # one call site: the plan is compiled into this kernel once
            first, second = (a, b) if order == 0 else (b, a)
            total = disc_work.total if order == 0 else disc_work.other
            value = plan_two_cards_into(t, p, first, second, counts, res, total, disc_work.work, disc_work.out)
            if order == 0:
                v1 = value
            else:
                v2 = value
        value = _plan_value(disc_work.other if v2 > v1 else disc_work.total, weights)
        if value > best:
            best = value
            best_space = space
    if best_space < 0:
        return False
    _disc_action(action, best_space)
    return True


@njit_without_refcounts
def card_order(s, t, p, policy, weights, streams, disc_work, action):
    """CARD_ORDER (D09): row j resolves triggered card j first; its features are that plan's."""
    seat = s[SEAT]
    if policy == POLICY_WEIGHTS:
        fill_resources(s, seat, disc_work.res)
        fill_counters(s, seat, disc_work.counts)
        best = NO_ROW
        j = 0
        for first in range(2):
            plan_two_cards_into(t, p, s[SC_CARDS + first], s[SC_CARDS + 1 - first], disc_work.counts,
                                disc_work.res, disc_work.total, disc_work.work, disc_work.out)
            value = _plan_value(disc_work.total, weights)
            if value > best:
                best = value
                j = first
    else:
        j = below(streams, seat, 2)
    _clear_action(action, CARD_ORDER)
    action[A_SLOT] = j
    action[A_TILE] = s[SC_CARDS + j]
    return True


@njit_without_refcounts
def fulfil(s, t, p, policy, weights, streams, disc_work, action):
    """FULFIL (D10 + D11's k): rows (b, k) of the current card in ``_fulfil_rows``' order."""
    seat = s[SEAT]
    card = s[SC_CARDS + s[SC_STAGE]]
    res = disc_work.res
    fill_resources(s, seat, res)
    fill_counters(s, seat, disc_work.counts)
    bmax = bread_max(p, res)
    red = is_red(t, card)
    kmax = red_kmax(t, card, res) if red else green_k(t, card, disc_work.counts)
    k_lo = 0 if red else kmax
    n = 0
    best = NO_ROW
    best_b = -1
    best_k = -1
    for b in range(bmax + 1):
        for k in range(k_lo, kmax + 1):
            if not row_allowed(t, p, card, res, b, k, kmax, bmax):
                continue
            n += 1
            if policy == POLICY_WEIGHTS:
                outcome(t, p, card, res, b, k, disc_work.out)
                value = _plan_value(disc_work.out, weights)
                if value > best:
                    best = value
                    best_b = b
                    best_k = k
    if n == 0:
        return False
    if policy != POLICY_WEIGHTS:
        i = below(streams, seat, n)
        for b in range(bmax + 1):
            for k in range(k_lo, kmax + 1):
                if row_allowed(t, p, card, res, b, k, kmax, bmax):
                    if i == 0:
                        best_b = b
                        best_k = k
                    i -= 1
    _clear_action(action, FULFIL)
    action[A_TILE] = card
    action[A_BREAD] = best_b
    action[A_COUNT] = best_k
    return True


@njit_without_refcounts
def fountain(s, t, policy, weights, streams, action):
    """FOUNTAIN (D07): row ``index`` returns that card of drawn + held (-1: none, only after a
    short deck); its feature is the end VP of the cards kept (``_fountain_rows``)."""
    seat = s[SEAT]
    nd = s[FD_NDRAWN]
    h = s[FOUNTAIN_N + seat]
    first = -1 if nd == 1 else 0
    last = nd + h if h > 0 else nd
    if last <= first:
        return False
    if policy == POLICY_WEIGHTS:
        hand_vp = 0
        hand_open = 0
        for i in range(nd + h):
            card = _hand_card(s, seat, nd, i)
            hand_vp += _fountain_card_vp(s, t, seat, card)
            hand_open += _fountain_card_open(s, t, seat, card)
        best = NO_ROW
        chosen = first
        for index in range(first, last):
            kept = hand_vp
            kept_open = hand_open
            if index >= 0:
                card = _hand_card(s, seat, nd, index)
                kept -= _fountain_card_vp(s, t, seat, card)
                kept_open -= _fountain_card_open(s, t, seat, card)
            value = weights[F_FOUNTAIN_VP] * kept + weights[F_FOUNTAIN_OPEN] * kept_open
            if value > best:
                best = value
                chosen = index
    else:
        chosen = first + below(streams, seat, last - first)
    _clear_action(action, D_FOUNTAIN)
    action[A_SLOT] = chosen
    action[A_TILE] = _hand_card(s, seat, nd, chosen) if chosen >= 0 else -1
    return True


# Random


@njit_without_refcounts
def random_turn(s, t, p, streams, work, action):
    """TURN under the random policy: count the rows, draw one, locate it."""
    seat = s[SEAT]
    moves = work.moves
    blocks = work.blocks
    n_mv = turn_movements(s, p, seat, moves)
    fill_frontier(s, t, seat, work)
    allow_store = turn_store_allowed(s, p, seat)
    blocks[BK_DONE] = 0
    n = 0
    for m in range(n_mv):
        dest = moves[MV_DEST, m]
        if dest < 0:
            return False
        if not blocks[BK_DONE, dest]:
            blocks[BK_ROWS, dest] = _depot_rows(s, t, p, seat, dest, allow_store, work)
            blocks[BK_DONE, dest] = 1
        n += blocks[BK_ROWS, dest]
    if n == 0:
        return False
    i = below(streams, seat, n)
    for m in range(n_mv):
        dest = moves[MV_DEST, m]
        if i < blocks[BK_ROWS, dest]:
            for slot in range(DEPOT_SIZE):
                tile = s[DEPOT + dest * DEPOT_SIZE + slot]
                if tile < 0:
                    continue
                rows = _tile_row_count(s, t, p, seat, tile, allow_store, work)
                if i < rows:
                    _nth_placement_action(action, TURN, tile, i, rows, allow_store, work)
                    _turn_fields(action, moves, m, slot)
                    return True
                i -= rows
        i -= blocks[BK_ROWS, dest]
    return False


@njit_without_refcounts
def random_craftsman(s, t, p, streams, work, action):
    """CRAFTSMAN under the random policy: count the rows, draw one, locate it."""
    seat = s[SEAT]
    fill_frontier(s, t, seat, work)
    allow_store = p[PR_CRAFTSMAN_STORE] == 1
    n = 0
    for seal in range(N_SEALS):
        tile = s[SEAL + seal]
        if tile >= 0:
            n += _tile_row_count(s, t, p, seat, tile, allow_store, work)
    if p[PR_CRAFTSMAN_OPTIONAL]:
        n += 1
    if n == 0:
        return False
    i = below(streams, seat, n)
    for seal in range(N_SEALS):
        tile = s[SEAL + seal]
        if tile < 0:
            continue
        rows = _tile_row_count(s, t, p, seat, tile, allow_store, work)
        if i < rows:
            _nth_placement_action(action, D_CRAFTSMAN, tile, i, rows, allow_store, work)
            action[A_SPACE] = seal
            return True
        i -= rows
    _placement_action(action, D_CRAFTSMAN, -1, -1, -1)  # DECLINE, the last row
    return True


@njit_without_refcounts
def random_disc(s, streams, action):
    """DISC under the random policy: a uniform draw over the free live spaces in order."""
    n = 0
    for space in range(N_DISC_SPACES):
        if s[DISC_LIVE + space] and s[S_DISC + space] < 0:
            n += 1
    if n == 0:
        return False
    i = below(streams, s[SEAT], n)
    for space in range(N_DISC_SPACES):
        if s[DISC_LIVE + space] and s[S_DISC + space] < 0:
            if i == 0:
                _disc_action(action, space)
                return True
            i -= 1
    return False


# Helpers


@njit_without_refcounts
def _plan_value(total, weights):
    """``features @ weights`` of a DISC row whose plan is ``total`` (O_SIZE,) int64 (the columns
    of ``candidates._plan_features``; every other column is 0)."""
    return (weights[F_VP] * total[O_VP] + weights[F_STEPS] * total[O_STEPS] + weights[F_COINS] * total[O_COINS]
            + weights[F_BREAD] * total[O_BREAD] + weights[F_GOODS_LOST] * total[O_GOODS_PAID]
            + weights[F_COINS_PAID] * total[O_COINS_PAID] + weights[F_BREAD_PAID] * total[O_BREAD_PAID]
            + weights[F_PENALTIES] * total[O_PENALTY] + weights[F_FULFILMENTS] * total[O_FULFIL])


@njit_without_refcounts
def _disc_action(action, space):
    _clear_action(action, DISC)
    action[A_SPACE] = space


@njit_without_refcounts
def _clear_action(action, kind):
    """An action row of ``kind`` with every other column -1, as in the tables."""
    for a in range(N_ACTION_FIELDS):
        action[a] = -1
    action[A_KIND] = kind


@njit_without_refcounts
def _hand_card(s, seat, n_drawn, i):
    """Card ``i`` of the drawn cards followed by the held ones (the FOUNTAIN rows' hand)."""
    if i < n_drawn:
        return s[FD_DRAWN + i]
    return s[FOUNTAIN_HELD + seat * 24 + i - n_drawn]


@njit_without_refcounts
def _fountain_card_vp(s, t, seat, card):
    """End VP of a fountain card now: VP per item x the seat's count of its counter (CD-END-5)."""
    return t[T_FOUNTAIN_VP + card] * s[COUNT + seat * N_COUNTERS + t[T_FOUNTAIN_COUNTER + card]]


@njit_without_refcounts
def _fountain_card_open(s, t, seat, card):
    """VP per item of a fountain card x the seat's incomplete features of its type (``fountain_open``)."""
    return t[T_FOUNTAIN_VP + card] * open_features(s, t, seat, t[T_FOUNTAIN_COUNTER + card])


@njit_inline_without_refcounts
def _best_of_depot(s, t, p, seat, dest, allow_store, weights, work, n_designs):
    """Fill column ``dest`` of ``work.blocks`` with the first best row of the depot's tiles. A tile
    whose design this TURN has valued already (``work.designs``, ``n_designs`` of them) has that
    design's best row: its rows are the same. Returns the designs valued now."""
    blocks = work.blocks
    designs = work.designs
    blocks[BK_DONE, dest] = 1
    blocks[BK_VALUE, dest] = NO_ROW
    for slot in range(DEPOT_SIZE):
        tile = s[DEPOT + dest * DEPOT_SIZE + slot]
        if tile < 0:
            continue
        design = t[T_TILE_DESIGN + tile]
        k = 0
        while k < n_designs and designs[DS_DESIGN, k] != design:
            k += 1
        if k == n_designs:
            value, cell, rot = best_placement_value(s, t, p, seat, tile, 0, allow_store, weights, work)
            designs[DS_DESIGN, k] = design
            designs[DS_VALUE, k] = value
            designs[DS_CELL, k] = cell
            designs[DS_ROT, k] = rot
            n_designs += 1
        if designs[DS_VALUE, k] > blocks[BK_VALUE, dest]:
            blocks[BK_VALUE, dest] = designs[DS_VALUE, k]
            blocks[BK_SLOT, dest] = slot
            blocks[BK_CELL, dest] = designs[DS_CELL, k]
            blocks[BK_ROT, dest] = designs[DS_ROT, k]
    return n_designs


@njit_without_refcounts
def _tile_row_count(s, t, p, seat, tile, allow_store, work):
    """Rows of ``tile``: its legal placements (left listed in ``work``), plus STORE if allowed."""
    return list_legal(s, t, p, seat, tile, work) + (1 if allow_store else 0)


@njit_without_refcounts
def _depot_rows(s, t, p, seat, dest, allow_store, work):
    n = 0
    for slot in range(DEPOT_SIZE):
        tile = s[DEPOT + dest * DEPOT_SIZE + slot]
        if tile >= 0:
            n += _tile_row_count(s, t, p, seat, tile, allow_store, work)
    return n


@njit_without_refcounts
def _nth_placement_action(action, kind, tile, i, rows, allow_store, work):
    """Row ``i`` of a tile whose ``rows`` rows were just listed in ``work``: a placement, or
    STORE (the last row when storing is allowed)."""
    if allow_store and i == rows - 1:
        _placement_action(action, kind, tile, -1, -1)
    else:
        _placement_action(action, kind, tile, work.cells[i], work.rots[i])


@njit_without_refcounts
def _placement_action(action, kind, tile, cell, rot):
    """The action row of a placement (cell -1: STORE), other columns -1 as in the table."""
    for a in range(N_ACTION_FIELDS):
        action[a] = -1
    action[A_KIND] = kind
    action[A_TILE] = tile
    action[A_CELL] = cell
    action[A_ROT] = rot


@njit_without_refcounts
def _turn_fields(action, moves, m, slot):
    action[A_MOVE] = moves[MV_CODE, m]
    action[A_TARGET] = moves[MV_TARGET, m]
    action[A_SPACE] = moves[MV_DEST, m]
    action[A_SLOT] = slot
