"""District kernels: placement legality (CD-BUILD), features and completion (CD-FEATURE).

A built part is a union-find node ``cell * 2 + part``; each root carries the feature's open
edges, tiles, chimneys and the rows / columns it touches. ``probe`` evaluates a placement
without changing the state (used for legality and candidate features); ``build`` applies it.

Arrays: ``s`` (STATE_SIZE,) int32 state; ``t`` (TABLES_SIZE,) int32 component tables;
``p`` (N_PARAMS,) int32 parameters.
"""

import numpy as np
from bgsim.sim.borrow import njit_inline_without_refcounts, njit_without_refcounts
from bgsim.sim.games.carpe_diem.constants import (
    C_CHIMNEYS,
    C_LANDSCAPES,
    C_LODGINGS,
    LANDSCAPE_FIRST,
    LANDSCAPE_LAST,
    LODGING_FIRST,
    LODGING_LAST,
    MARKET,
    N_CELLS,
    N_COUNTERS,
    SIDE,
    VILLA,
)
from bgsim.sim.games.carpe_diem.param_slots import PR_FRAME_LINE_STRADDLE, PR_LANDSCAPE_MAX, PR_ONE_TASK_PER_FEATURE
from bgsim.sim.games.carpe_diem.state import (
    BOARD,
    BUILT,
    CELL_ROT,
    CELL_TILE,
    COUNT,
    FRAME_PIECE,
    N_NODES,
    TASK_DONE,
    UF_CHIM,
    UF_COLS,
    UF_DONE,
    UF_OPEN,
    UF_PARENT,
    UF_ROWS,
    UF_SIZE,
    VILLA_VP_SUM,
)
from bgsim.sim.games.carpe_diem.tables import (
    T_BOARD_SHOVEL,
    T_FRAME_POS,
    T_FRAME_TYPE,
    T_FRAME_VP,
    T_PART_CHIM,
    T_PART_TYPE,
    T_ROT_EDGE,
    T_ROT_MASK,
    T_TILE_NPARTS,
    T_VILLA_VP,
    VILLA_TABLE_LEN,
)
from numba import njit

# NEIGHBOUR[cell, d]: the cell beside ``cell`` in direction d, or -1 beyond the frame.
NEIGHBOUR = np.full((N_CELLS, 4), -1, dtype=np.int64)
for _cell in range(N_CELLS):
    _r, _c = divmod(_cell, SIDE)
    for _d, (_dr, _dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
        if 0 <= _r + _dr < SIDE and 0 <= _c + _dc < SIDE:
            NEIGHBOUR[_cell, _d] = (_r + _dr) * SIDE + _c + _dc

# Context of an empty cell: what each side requires of a new tile.
NEED_FREE = -1  # the side faces an empty cell: anything goes
# NEED >= 0: the edge must carry this code (0 = meadow: frame or a neighbour's meadow edge)

# Edge legality as bits: a side's code c is bit EDGE_BITS * d + c (codes are part types < 16).
EDGE_BITS = 16
EDGE_CODE_MASK = (1 << EDGE_BITS) - 1

# ``probe`` result layout (one small int64 array).
R_LEGAL = 0
R_MATCHED = 1
R_OPEN_ADDED = 2
R_CHIMNEYS = 3
R_PART = 4  # per part j: R_PART + 7 * j + (type, completes, size, chimneys, open, rows, cols)
R_STRIDE = 7
R_SIZE = R_PART + 2 * R_STRIDE


@njit_without_refcounts
def villa_vp(t, chimneys):
    """End VP of one completed villa with ``chimneys`` chimneys (CD-END-2, §6.4)."""
    if chimneys < VILLA_TABLE_LEN:
        return t[T_VILLA_VP + chimneys]
    last = t[T_VILLA_VP + VILLA_TABLE_LEN - 1]
    step = last - t[T_VILLA_VP + VILLA_TABLE_LEN - 2]
    return last + step * (chimneys - VILLA_TABLE_LEN + 1)


@njit_without_refcounts
def find(s, seat, node):
    """Root of ``node`` in ``seat``'s union-find, with path halving."""
    base = UF_PARENT + seat * N_NODES
    while s[base + node] != node:
        s[base + node] = s[base + s[base + node]]
        node = s[base + node]
    return node


@njit_without_refcounts
def part_with_edge(t, tile, rot, d):
    """Index of the part of ``tile`` (rotated ``rot``) whose open edge is at direction d, else -1."""
    base = T_ROT_MASK + (tile * 4 + rot) * 2
    if (t[base] >> d) & 1:
        return 0
    if (t[base + 1] >> d) & 1:
        return 1
    return -1


@njit_inline_without_refcounts
def cell_context(s, t, seat, cell, need, nroot):
    """Fill row ``cell`` of ``need`` and ``nroot`` ((36, 4) int64) for an empty cell; return its
    built neighbours, -1 if the cell is occupied.

    ``need[cell, d]`` is the edge code a new tile must show towards d (NEED_FREE: anything);
    ``nroot[cell, d]`` the root of the neighbour's feature whose open edge faces the cell, -1 if none.
    """
    if s[CELL_TILE + seat * N_CELLS + cell] >= 0:
        return -1
    adjacent = 0
    for d in range(4):
        nroot[cell, d] = -1
        n = NEIGHBOUR[cell, d]
        if n < 0:
            need[cell, d] = 0  # the frame counts as meadow (CD-BUILD-5)
            continue
        ntile = s[CELL_TILE + seat * N_CELLS + n]
        if ntile < 0:
            need[cell, d] = NEED_FREE
            continue
        adjacent += 1
        nrot = s[CELL_ROT + seat * N_CELLS + n]
        back = (d + 2) % 4
        need[cell, d] = t[T_ROT_EDGE + (ntile * 4 + nrot) * 4 + back]
        j = part_with_edge(t, ntile, nrot, back)
        if j >= 0:
            nroot[cell, d] = find(s, seat, n * 2 + j)
    return adjacent


@njit_without_refcounts
def forbidden_edges(need, cell):
    """Edge bits (see :func:`edge_code`) a tile may not show at ``cell``: every code but the
    required one on each side that requires one. ``need`` (36, 4) int64 from :func:`cell_context`."""
    mask = np.int64(0)
    for d in range(4):
        if need[cell, d] != NEED_FREE:
            mask |= np.int64(EDGE_CODE_MASK ^ (1 << need[cell, d])) << (EDGE_BITS * d)
    return mask


@njit_without_refcounts
def edge_code(t, tile, rot):
    """The four edge codes of ``tile`` turned ``rot`` as one-hot bits, EDGE_BITS per side, so that
    CD-BUILD-5 (every side matches) is ``edge_code & forbidden_edges == 0``: one AND per cell."""
    base = T_ROT_EDGE + (tile * 4 + rot) * 4
    code = np.int64(0)
    for d in range(4):
        code |= np.int64(1) << (EDGE_BITS * d + t[base + d])
    return code


@njit_without_refcounts
def probe(s, t, p, seat, tile, rot, cell, need, nroot, res, k):
    """Evaluate placing ``tile`` at ``cell`` with rotation ``rot`` (CD-BUILD-3..6, CD-FEATURE-2).

    ``need``/``nroot`` (36, 4) int64 come from :func:`cell_context`. Fills row ``k`` of ``res``
    (m, R_SIZE) int64 and returns 1 if the placement is legal (edges match, landscape size within the limit), else 0.
    """
    edge_base = T_ROT_EDGE + (tile * 4 + rot) * 4
    for d in range(4):
        if need[cell, d] != NEED_FREE and need[cell, d] != t[edge_base + d]:
            res[k, R_LEGAL] = 0
            return 0
    return probe_fitting(s, t, p, seat, tile, rot, cell, need, nroot, res, k)


@njit_inline_without_refcounts  # called per side subset of every frontier cell (fill_merges)
def merge_part(s, seat, cell, mask, chim, need, nroot):
    """What one tile part placed at ``cell`` would join (CD-FEATURE-2): its open edges (``mask``
    bits), how many face a built neighbour, and the merged feature's open-edge sum of the
    distinct neighbour features, size, chimneys and row / column bitmasks (the part counted in).
    ``need``/``nroot`` (36, 4) int64 from :func:`cell_context`. Returns
    (n_open, links, open_sum, size, chim_sum, rows, cols)."""
    n_open = 0
    links = 0
    open_sum = 0
    size = 1
    chim_sum = chim
    rows = 1 << (cell // SIDE)
    cols = 1 << (cell % SIDE)
    r0 = -1
    r1 = -1
    r2 = -1
    for d in range(4):
        if not (mask >> d) & 1:
            continue
        n_open += 1
        r = nroot[cell, d]
        if need[cell, d] <= 0 or r < 0:
            continue  # faces an empty cell (a built neighbour would have matched the code)
        links += 1
        if r == r0 or r == r1 or r == r2:
            continue  # a feature reached by two edges counts once
        if r0 < 0:
            r0 = r
        elif r1 < 0:
            r1 = r
        else:
            r2 = r
        base = seat * N_NODES + r
        open_sum += s[UF_OPEN + base]
        size += s[UF_SIZE + base]
        chim_sum += s[UF_CHIM + base]
        rows |= s[UF_ROWS + base]
        cols |= s[UF_COLS + base]
    return n_open, links, open_sum, size, chim_sum, rows, cols


@njit_inline_without_refcounts
def probe_part(t, res, k, tile, rot, j):
    """Part ``j`` of ``tile`` turned ``rot`` for probe row ``k`` of ``res``: (type, chimneys, open
    mask), its villa chimneys added to the row; type -1, entry cleared, if the tile has no part j."""
    if j >= t[T_TILE_NPARTS + tile]:
        res[k, R_PART + R_STRIDE * j] = 0
        return -1, 0, 0
    ptype = t[T_PART_TYPE + tile * 2 + j]
    chim = t[T_PART_CHIM + tile * 2 + j]
    if ptype == VILLA:
        res[k, R_CHIMNEYS] += chim
    return ptype, chim, t[T_ROT_MASK + (tile * 4 + rot) * 2 + j]


@njit_inline_without_refcounts
def record_part(p, res, k, j, ptype, n_open, links, open_sum, size, chim_sum, rows, cols):
    """Write what part ``j`` of type ``ptype`` joins (``merge_part``'s sums) into probe row ``k``
    of ``res``; False, with the row marked illegal, if CD-BUILD-6 forbids the placement."""
    if p[PR_LANDSCAPE_MAX] > 0 and LANDSCAPE_FIRST <= ptype <= LANDSCAPE_LAST and size > p[PR_LANDSCAPE_MAX]:
        res[k, R_LEGAL] = 0  # CD-BUILD-6 / AMB-2
        return False
    merged_open = open_sum - links + (n_open - links)
    res[k, R_MATCHED] += links
    res[k, R_OPEN_ADDED] += n_open - links
    o = R_PART + R_STRIDE * j
    res[k, o] = ptype
    res[k, o + 1] = 1 if merged_open == 0 else 0  # small buildings: 0 open edges, done at once
    res[k, o + 2] = size
    res[k, o + 3] = chim_sum
    res[k, o + 4] = merged_open
    res[k, o + 5] = rows
    res[k, o + 6] = cols
    return True


@njit_without_refcounts
def probe_fitting(s, t, p, seat, tile, rot, cell, need, nroot, res, k):
    """:func:`probe` for a placement whose edges are known to match: features and CD-BUILD-6."""
    res[k, R_MATCHED] = 0
    res[k, R_OPEN_ADDED] = 0
    res[k, R_CHIMNEYS] = 0
    for j in range(2):
        ptype, chim, mask = probe_part(t, res, k, tile, rot, j)
        if ptype < 0:  # no part j
            continue
        n_open, links, open_sum, size, chim_sum, rows, cols = merge_part(s, seat, cell, mask, chim, need, nroot)
        if not record_part(p, res, k, j, ptype, n_open, links, open_sum, size, chim_sum, rows, cols):
            return 0
    res[k, R_LEGAL] = 1
    return 1


@njit_without_refcounts
def task_line(t, s, seat, task):
    """(is_row, index) of the line of frame task ``task`` = side * 2 + j (CD-END-6, RN §3)."""
    side = task // 2
    piece = s[FRAME_PIECE + seat * 4 + side]
    pos = t[T_FRAME_POS + piece * 2 + task % 2]
    if side == 0:
        return 0, pos  # top: column i
    if side == 1:
        return 1, pos  # right: row i
    if side == 2:
        return 0, SIDE - 1 - pos  # bottom: column 5 - i
    return 1, SIDE - 1 - pos  # left: row 5 - i


@njit_without_refcounts
def on_task_line(t, s, p, seat, task, rows, cols):
    """Whether a completed feature touching ``rows``/``cols`` (bitmasks) lies on the task's line.

    AMB-1: ``cell_line`` = the feature has a tile in the marked row/column; ``straddle`` = it has
    tiles in the marked line and in a line next to it, i.e. it crosses a grid line bordering it.
    """
    is_row, k = task_line(t, s, seat, task)
    mask = rows if is_row else cols
    if not (mask >> k) & 1:
        return False
    if p[PR_FRAME_LINE_STRADDLE] == 0:
        return True
    return ((mask >> (k + 1)) & 1) == 1 or (k > 0 and ((mask >> (k - 1)) & 1) == 1)


@njit_without_refcounts
def task_type(t, s, seat, task):
    piece = s[FRAME_PIECE + seat * 4 + task // 2]
    return t[T_FRAME_TYPE + piece * 2 + task % 2]


@njit_without_refcounts
def new_task_vp(t, s, p, seat, ptype, rows, cols):
    """VP of frame tasks not yet met that a completed feature of ``ptype`` would meet; with
    AMB-19's alternative one feature serves one task, so only the most valuable counts."""
    total = 0
    best = 0
    for task in range(8):
        if s[TASK_DONE + seat * 8 + task]:
            continue
        if task_type(t, s, seat, task) != ptype:
            continue
        if on_task_line(t, s, p, seat, task, rows, cols):
            piece = s[FRAME_PIECE + seat * 4 + task // 2]
            vp = t[T_FRAME_VP + piece * 2 + task % 2]
            total += vp
            best = max(best, vp)
    return best if p[PR_ONE_TASK_PER_FEATURE] else total


@njit_without_refcounts
def open_features(s, t, seat, ptype):
    """Incomplete features of ``ptype`` in ``seat``'s district (0 for small buildings, which are
    complete once built: CD-FEATURE-6). Reads roots only, so the union-find is left as it is."""
    if ptype >= MARKET:
        return 0
    base = seat * N_NODES
    n = 0
    for node in range(N_NODES):
        if s[UF_PARENT + base + node] != node or s[UF_DONE + base + node]:
            continue
        tile = s[CELL_TILE + seat * N_CELLS + node // 2]
        if t[T_PART_TYPE + tile * 2 + node % 2] == ptype:
            n += 1
    return n


@njit(cache=True)
def any_legal_placement(s, t, p, seat, tile):
    """Whether ``tile`` can be built anywhere in ``seat``'s (non-empty) district."""
    need = np.empty((N_CELLS, 4), dtype=np.int64)
    nroot = np.empty((N_CELLS, 4), dtype=np.int64)
    res = np.empty((1, R_SIZE), dtype=np.int64)
    for cell in range(N_CELLS):
        if cell_context(s, t, seat, cell, need, nroot) <= 0:
            continue
        for rot in range(4):
            if probe(s, t, p, seat, tile, rot, cell, need, nroot, res, 0):
                return True
    return False


@njit_without_refcounts
def shovel_cell(s, t, seat):
    return t[T_BOARD_SHOVEL + s[BOARD + seat]]


@njit_without_refcounts
def build(s, t, p, seat, tile, cell, rot, done_type, done_size, done_chim):
    """:func:`build_tile` with the completed features written to ``done_type``/``done_size``/
    ``done_chim`` ((2,) int64 each); returns their count."""
    n_done, type0, size0, chim0, type1, size1, chim1 = build_tile(s, t, p, seat, tile, cell, rot)
    if n_done > 0:
        done_type[0], done_size[0], done_chim[0] = type0, size0, chim0
    if n_done > 1:
        done_type[1], done_size[1], done_chim[1] = type1, size1, chim1
    return n_done


@njit_without_refcounts
def build_tile(s, t, p, seat, tile, cell, rot):
    """Put ``tile`` on ``cell`` (CD-BUILD), update features and counters; return the completed
    features (at most one per part) as (count, type, size, chimneys of the first, the same of the
    second), so that no array is made per build. The banner on the cell and the rewards are the
    caller's (CD-REWARD-11).
    """
    cbase = seat * N_CELLS
    s[CELL_TILE + cbase + cell] = tile
    s[CELL_ROT + cbase + cell] = rot
    s[BUILT + seat] += 1
    row_bit = 1 << (cell // SIDE)
    col_bit = 1 << (cell % SIDE)
    ubase = seat * N_NODES
    cnt = COUNT + seat * N_COUNTERS
    nparts = t[T_TILE_NPARTS + tile]
    # create the tile's nodes first, so a feature closing on itself finds both ends
    for j in range(nparts):
        node = cell * 2 + j
        mask = t[T_ROT_MASK + (tile * 4 + rot) * 2 + j]
        ptype = t[T_PART_TYPE + tile * 2 + j]
        chim = t[T_PART_CHIM + tile * 2 + j]
        s[UF_PARENT + ubase + node] = node
        s[UF_OPEN + ubase + node] = popcount4(mask)
        s[UF_SIZE + ubase + node] = 1
        s[UF_CHIM + ubase + node] = chim
        s[UF_ROWS + ubase + node] = row_bit
        s[UF_COLS + ubase + node] = col_bit
        s[UF_DONE + ubase + node] = 0
        if ptype == VILLA:
            s[cnt + C_CHIMNEYS] += chim
    n_done = 0
    type0 = size0 = chim0 = type1 = size1 = chim1 = 0
    for j in range(nparts):
        node = cell * 2 + j
        mask = t[T_ROT_MASK + (tile * 4 + rot) * 2 + j]
        ptype = t[T_PART_TYPE + tile * 2 + j]
        for d in range(4):
            if not (mask >> d) & 1:
                continue
            n = NEIGHBOUR[cell, d]
            if n < 0:
                continue
            ntile = s[CELL_TILE + cbase + n]
            if ntile < 0:
                continue
            k = part_with_edge(t, ntile, s[CELL_ROT + cbase + n], (d + 2) % 4)
            a = find(s, seat, node)
            b = find(s, seat, n * 2 + k)
            if a != b:
                s[UF_PARENT + ubase + b] = a
                s[UF_OPEN + ubase + a] += s[UF_OPEN + ubase + b]
                s[UF_SIZE + ubase + a] += s[UF_SIZE + ubase + b]
                s[UF_CHIM + ubase + a] += s[UF_CHIM + ubase + b]
                s[UF_ROWS + ubase + a] |= s[UF_ROWS + ubase + b]
                s[UF_COLS + ubase + a] |= s[UF_COLS + ubase + b]
            s[UF_OPEN + ubase + a] -= 2  # the shared edge is closed on both sides
        root = find(s, seat, node)
        if s[UF_OPEN + ubase + root] == 0 and s[UF_DONE + ubase + root] == 0:
            s[UF_DONE + ubase + root] = 1
            size = s[UF_SIZE + ubase + root]
            chim = s[UF_CHIM + ubase + root]
            s[cnt + ptype] += 1  # CD-FEATURE-7 counters
            if LANDSCAPE_FIRST <= ptype <= LANDSCAPE_LAST:
                s[cnt + C_LANDSCAPES] += 1
            elif LODGING_FIRST <= ptype <= LODGING_LAST:
                s[cnt + C_LODGINGS] += 1
            elif ptype == VILLA:
                s[VILLA_VP_SUM + seat] += villa_vp(t, chim)
            if ptype < MARKET:
                _mark_tasks(s, t, p, seat, ptype, s[UF_ROWS + ubase + root], s[UF_COLS + ubase + root])
            if n_done == 0:
                type0, size0, chim0 = ptype, size, chim
            else:
                type1, size1, chim1 = ptype, size, chim
            n_done += 1
    return n_done, type0, size0, chim0, type1, size1, chim1


# Helpers


@njit_without_refcounts
def popcount4(mask):
    """Set bits of a 4-bit side mask."""
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1) + ((mask >> 3) & 1)


@njit_without_refcounts
def _mark_tasks(s, t, p, seat, ptype, rows, cols):
    for task in range(8):
        if s[TASK_DONE + seat * 8 + task]:
            continue
        if task_type(t, s, seat, task) == ptype and on_task_line(t, s, p, seat, task, rows, cols):
            s[TASK_DONE + seat * 8 + task] = 1
