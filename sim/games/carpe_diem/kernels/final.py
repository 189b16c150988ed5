"""Final scoring (CD-END) and the ranking with its tie-break (CD-TIE)."""

import numpy as np
from bgsim.sim.games.carpe_diem.constants import CRAFTSMAN, N_CELLS, N_COUNTERS, N_GOODS, N_TASKS, VILLA
from bgsim.sim.games.carpe_diem.events import EV_FINAL, EV_GAME_END, log_event
from bgsim.sim.games.carpe_diem.kernels.district import on_task_line, task_type
from bgsim.sim.games.carpe_diem.kernels.solo import anna_final, human_ranks_first, log_anna_final
from bgsim.sim.games.carpe_diem.param_slots import PR_ONE_TASK_PER_FEATURE, PR_TIE_UPPER_IS_BACK
from bgsim.sim.games.carpe_diem.state import (
    BANNER_POS,
    BANNER_STAMP,
    BREAD,
    CELL_TILE,
    COINS,
    COUNT,
    FIN_BANNER,
    FIN_FOUNTAIN,
    FIN_FRAMES,
    FIN_LEFTOVER,
    FIN_TOTAL,
    FIN_VILLAS,
    FOUNTAIN_HELD,
    FOUNTAIN_N,
    FRAME_PIECE,
    GOODS,
    N_NODES,
    N_PLAYERS,
    RANK,
    SOLO,
    STORED,
    TASK_DONE,
    UF_COLS,
    UF_DONE,
    UF_PARENT,
    UF_ROWS,
    VILLA_VP_SUM,
    VP,
)
from bgsim.sim.games.carpe_diem.tables import T_FOUNTAIN_COUNTER, T_FOUNTAIN_VP, T_FRAME_VP, T_PART_TYPE
from numba import njit


@njit(cache=True)
def leftover_vp(s, seat):
    """CD-END-3: (goods + coins + bread + stored tiles) // 2; fountain cards and discs are no material."""
    material = s[COINS + seat] + s[BREAD + seat] + s[STORED + seat]
    for k in range(N_GOODS):
        material += s[GOODS + seat * N_GOODS + k]
    return material // 2


@njit(cache=True)
def fountain_vp(s, t, seat):
    """CD-END-5: each held card scores its VP per counted item; identical cards both score."""
    total = 0
    for i in range(s[FOUNTAIN_N + seat]):
        card = s[FOUNTAIN_HELD + seat * 24 + i]
        total += t[T_FOUNTAIN_VP + card] * s[COUNT + seat * N_COUNTERS + t[T_FOUNTAIN_COUNTER + card]]
    return total


@njit(cache=True)
def task_vp(s, t, seat, task):
    piece = s[FRAME_PIECE + seat * 4 + task // 2]
    return t[T_FRAME_VP + piece * 2 + task % 2]


@njit(cache=True)
def frame_vp(s, t, p, seat):
    """CD-END-6: VP of the frame tasks met; with AMB-19's alternative, one feature serves one task."""
    if p[PR_ONE_TASK_PER_FEATURE] == 0:
        total = 0
        for task in range(N_TASKS):
            if s[TASK_DONE + seat * N_TASKS + task]:
                total += task_vp(s, t, seat, task)
        return total
    # best assignment of completed features to tasks: DP over the set of tasks already used
    best = np.full(1 << N_TASKS, -1, dtype=np.int64)
    best[0] = 0
    base = seat * N_NODES
    for node in range(N_NODES):
        if s[UF_PARENT + base + node] != node or s[UF_DONE + base + node] == 0:
            continue
        ptype = _node_type(s, t, seat, node)
        if ptype < VILLA or ptype > CRAFTSMAN:
            continue
        rows = s[UF_ROWS + base + node]
        cols = s[UF_COLS + base + node]
        nxt = best.copy()
        for mask in range(1 << N_TASKS):
            if best[mask] < 0:
                continue
            for task in range(N_TASKS):
                if (mask >> task) & 1 or task_type(t, s, seat, task) != ptype:
                    continue
                if on_task_line(t, s, p, seat, task, rows, cols):
                    value = best[mask] + task_vp(s, t, seat, task)
                    if value > nxt[mask | (1 << task)]:
                        nxt[mask | (1 << task)] = value
        best = nxt
    return best.max()


@njit(cache=True)
def final_scoring(s, t, p, log):
    """CD-END-1..7, then ranks (CD-TIE-1..3); writes the final_* fields and the rank."""
    n = s[N_PLAYERS]
    solo = s[SOLO] == 1
    for seat in range(1 if solo else n):
        s[FIN_VILLAS + seat] = s[VILLA_VP_SUM + seat]
        s[FIN_LEFTOVER + seat] = leftover_vp(s, seat)
        s[FIN_BANNER + seat] = s[BANNER_POS + seat]
        s[FIN_FOUNTAIN + seat] = fountain_vp(s, t, seat)
        s[FIN_FRAMES + seat] = frame_vp(s, t, p, seat)
        s[FIN_TOTAL + seat] = (s[VP + seat] + s[FIN_VILLAS + seat] + s[FIN_LEFTOVER + seat]
                               + s[FIN_BANNER + seat] + s[FIN_FOUNTAIN + seat] + s[FIN_FRAMES + seat])
    if solo:
        anna_final(s, t, p, log)  # CD-ANNA-22..25
        human_first = human_ranks_first(s, p, ranks_before(s, p, 0, 1))
        s[RANK] = 1 if human_first else 2
        s[RANK + 1] = 2 if human_first else 1
        log_event(log, EV_FINAL, 0, s[FIN_VILLAS], s[FIN_LEFTOVER], s[FIN_BANNER], s[FIN_FOUNTAIN], s[FIN_FRAMES],
                  s[FIN_TOTAL], s[RANK])
        log_anna_final(s, log)
        log_event(log, EV_GAME_END, 0 if human_first else 1)
        return
    winner = 0
    for seat in range(n):
        ahead = 0
        for other in range(n):
            if other != seat and ranks_before(s, p, other, seat):
                ahead += 1
        s[RANK + seat] = ahead + 1
        if ahead == 0:
            winner = seat
    for seat in range(n):
        log_event(log, EV_FINAL, seat, s[FIN_VILLAS + seat], s[FIN_LEFTOVER + seat], s[FIN_BANNER + seat],
                  s[FIN_FOUNTAIN + seat], s[FIN_FRAMES + seat], s[FIN_TOTAL + seat], s[RANK + seat])
    log_event(log, EV_GAME_END, winner)


@njit(cache=True)
def ranks_before(s, p, a, b):
    """Does seat ``a`` rank before seat ``b``? More VP first; on a tie the disc further back on the
    banner track (lower position; same space: lower in the stack, AMB-13) ranks first."""
    va = s[FIN_TOTAL + a]
    vb = s[FIN_TOTAL + b]
    if va != vb:
        return va > vb
    pa = s[BANNER_POS + a]
    pb = s[BANNER_POS + b]
    if pa != pb:
        return pa < pb
    if p[PR_TIE_UPPER_IS_BACK]:
        return s[BANNER_STAMP + a] > s[BANNER_STAMP + b]
    return s[BANNER_STAMP + a] < s[BANNER_STAMP + b]


# Helpers


@njit(cache=True)
def _node_type(s, t, seat, node):
    tile = s[CELL_TILE + seat * N_CELLS + node // 2]
    return t[T_PART_TYPE + tile * 2 + node % 2]
