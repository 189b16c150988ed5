"""The timing kernels of ``profile_kernels``: compiled loops that run Carpe Diem's kernels and add
the cycles each takes (the processor's cycle counter, its own cost taken off) into an ``out``
array of (3, rows) int64: cycles, calls made, calls timed (``_add``).

Compiled on each run, not cached: Numba's cache would key them on this file only, and could run
stale kernels after an edit of the game's.
"""

from bgsim.sim.borrow import borrow
from bgsim.sim.games.carpe_diem.constants import DEPOT_SIZE, MARKET
from bgsim.sim.games.carpe_diem.decisions import DECISION_NAMES, OVER
from bgsim.sim.games.carpe_diem.kernels.candidates import candidates, turn_movements
from bgsim.sim.games.carpe_diem.kernels.choice import direct_action
from bgsim.sim.games.carpe_diem.kernels.context import X_N_FRONTIER, X_OPEN_TASK_TYPES, X_TILE_CODE
from bgsim.sim.games.carpe_diem.kernels.district import (
    R_PART,
    R_STRIDE,
    cell_context,
    forbidden_edges,
    new_task_vp,
)
from bgsim.sim.games.carpe_diem.kernels.flow import apply_action
from bgsim.sim.games.carpe_diem.kernels.placements import (
    best_placement_value,
    fill_cell_values,
    fill_context,
    fill_frontier,
    fill_merges,
    fill_tile_codes,
    placement_value,
    probe_from_tables,
)
from bgsim.sim.games.carpe_diem.kernels.setup import deal_into
from bgsim.sim.games.carpe_diem.kernels.work import MV_DEST
from bgsim.sim.games.carpe_diem.state import DEPOT, PHASE, SEAT
from bgsim.sim.games.carpe_diem.tables import T_TILE_DESIGN, T_TILE_NPARTS
from bgsim.sim.policy import choose_row
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

_compiled = njit(_nrt=False, error_model="numpy")  # as the kernels: no reference counts; not cached
OUTLIER = 250_000  # cycles (about 0.1 ms): a call that took longer was interrupted
N_KINDS = len(DECISION_NAMES)

# Rows of a TURN's split (``time_turns``).
(T_MOVES, T_CONTEXT, T_FRONTIER, T_CELLS, T_MERGES, T_CELL_VALUES, T_VALUATION, T_PLAIN, T_DONE, T_TASKS,
 N_ROWS) = range(11)
TURN_ROWS = (
    (T_MOVES, 1, "turn_movements"),
    (T_CONTEXT, 1, "fill_context (cards, fountain cards, tasks, outlook reset)"),
    (T_FRONTIER, 1, "fill_frontier"),
    (T_CELLS, 2, "frontier cells (cell_context, forbidden_edges)"),
    (T_MERGES, 2, "merge tables (fill_merges)"),
    (T_CELL_VALUES, 1, "fill_cell_values"),
    (T_VALUATION, 1, "placement valuation (best_placement_value per tile design)"),
    (T_PLAIN, 2, "placement_value, completing nothing"),
    (T_DONE, 2, "placement_value, completing a feature"),
    (T_TASKS, 3, "frame tasks met (new_task_vp)"),
)


@intrinsic
def _cycles(typingctx):
    """The processor's cycle counter (rdtsc on x86)."""

    def codegen(context, builder, signature, args):
        counter = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                                 "llvm.readcyclecounter")
        return builder.call(counter, [])

    return types.int64(), codegen


@_compiled
def now():
    return _cycles()


@_compiled
def counter_cost(n):
    """Cycles of one read of the counter, as taken off every timed call."""
    total = 0
    for _ in range(n):
        a = _cycles()
        total += _cycles() - a
    return total // n



# (``_add``).


@njit
def time_games(deal, chance, t, p, policy, weights, streams, scratch, action, feats, acts, log, s, tare, out):
    """Play the games of ``chance`` ((G,) uint64; ``streams`` (G, P) uint64) in ``s`` as the compiled
    loop plays them (``sim.loops.play_loop``, its arrays borrowed as there), timing each decision's
    choice into row ``kind`` of ``out`` (3, 3 * N_KINDS + 1) and its ``apply_action`` into row
    N_KINDS + kind, the deals into row 2 * N_KINDS; row 2 * N_KINDS + 1 + kind counts the choices
    made by the table."""
    t, p, weights, scratch, action = borrow(t), borrow(p), borrow(weights), borrow(scratch), borrow(action)
    feats, acts, log, s, out = borrow(feats), borrow(acts), borrow(log), borrow(s), borrow(out)
    for g in range(chance.shape[0]):
        seat_streams = borrow(streams[g])
        start = _cycles()
        deal_into(s, *deal, chance[g], log)
        _add(out, 2 * N_KINDS, start, tare, 1)
        while s[PHASE] != OVER:
            kind = s[PHASE]
            start = _cycles()
            if direct_action(s, t, p, policy, weights, seat_streams, scratch, action):
                _add(out, kind, start, tare, 1)
                start = _cycles()
                apply_action(s, t, p, action, log)
            else:
                n = candidates(s, t, p, feats, acts)
                row = choose_row(feats, n, policy, weights, seat_streams, s[SEAT])
                _add(out, kind, start, tare, 1)
                out[1, 2 * N_KINDS + 1 + kind] += 1
                start = _cycles()
                apply_action(s, t, p, acts[row], log)
            _add(out, N_KINDS + kind, start, tare, 1)


@_compiled
def time_turns(states, idx, t, p, weights, work, lists, counts, valued, hot, tare, out):
    """The stages of a weighted TURN (``choice.weighted_turn``) one by one into the rows T_* of
    ``out``, the valuation valuing each tile design of the reachable depots once. Then the parts of
    two stages, each part over all its calls at once: the frontier's cells and merge tables, and per
    design the placements the valuation valued, by what they complete, and the frame tasks of their
    completions (scratch, int64: ``lists`` (3, 2 * MAX_PLACEMENTS, 3), ``counts`` (3,), ``valued``).
    The stages' sum falls short of ``direct_action``'s time by what joins them there."""
    for i in idx:
        _load(states, i, hot)
        s = hot
        seat = s[SEAT]
        start = _cycles()
        n_mv = turn_movements(s, p, seat, work.moves)
        _add(out, T_MOVES, start, tare, 1)
        start = _cycles()
        fill_context(s, t, seat, work.ctx)
        _add(out, T_CONTEXT, start, tare, 1)
        start = _cycles()
        fill_frontier(s, t, seat, work)
        _add(out, T_FRONTIER, start, tare, 1)
        start = _cycles()
        fill_cell_values(s, p, seat, weights, work)
        _add(out, T_CELL_VALUES, start, tare, 1)
        done = 0
        valued[0] = 0
        for m in range(n_mv):
            dest = work.moves[MV_DEST, m]
            if dest < 0 or (done >> dest) & 1:
                continue
            done |= 1 << dest
            for slot in range(DEPOT_SIZE):
                tile = s[DEPOT + dest * DEPOT_SIZE + slot]
                if tile < 0 or _valued(valued, t[T_TILE_DESIGN + tile]):
                    continue
                start = _cycles()
                best_placement_value(s, t, p, seat, tile, 0, True, weights, work)
                _add(out, T_VALUATION, start, tare, 1)
                _time_placements(s, t, p, seat, tile, weights, work, lists, counts, tare, out)
        _time_frontier_parts(s, t, seat, work, tare, out)


@_compiled
def _time_frontier_parts(s, t, seat, work, tare, out):
    """``fill_frontier``'s two parts over the frontier's cells: each cell's needs, neighbour roots and
    forbidden edges, then its merge tables."""
    n = work.ctx[X_N_FRONTIER]
    start = _cycles()
    for f in range(n):
        cell = work.frontier[f]
        work.adj[cell] = cell_context(s, t, seat, cell, work.need, work.nroot)
        work.forbid[cell] = forbidden_edges(work.need, cell)
    _add(out, T_CELLS, start, tare, n)
    start = _cycles()
    for f in range(n):
        fill_merges(s, seat, work.frontier[f], work)
    _add(out, T_MERGES, start, tare, n)


@_compiled
def _time_placements(s, t, p, seat, tile, weights, work, lists, counts, tare, out):
    """The placements of ``tile`` the valuation values, listed by what they complete (untimed),
    then valued alone list by list; and the frame tasks of the completions."""
    fill_tile_codes(t, tile, work.ctx)
    counts[:] = 0
    for f in range(work.ctx[X_N_FRONTIER]):
        cell = work.frontier[f]
        for rot in range(4):
            code = work.ctx[X_TILE_CODE + rot]
            if code < 0 or code & work.forbid[cell]:
                continue
            completes = 0
            if probe_from_tables(t, p, tile, rot, cell, work, 0):
                for j in range(t[T_TILE_NPARTS + tile]):
                    o = R_PART + R_STRIDE * j
                    ptype = work.res[0, o]
                    if work.res[0, o + 1] == 0:
                        continue
                    completes = 1
                    if ptype < MARKET and (work.ctx[X_OPEN_TASK_TYPES] >> ptype) & 1:
                        _put(lists, 2, counts, ptype, work.res[0, o + 5], work.res[0, o + 6])
            _put(lists, completes, counts, rot, cell, 0)
    for which, row in ((0, T_PLAIN), (1, T_DONE)):
        start = _cycles()
        for k in range(counts[which]):
            placement_value(s, t, p, seat, tile, lists[which, k, 0], lists[which, k, 1], 0, weights, work)
        _add(out, row, start, tare, counts[which])
    start = _cycles()
    for k in range(counts[2]):
        new_task_vp(t, s, p, seat, lists[2, k, 0], lists[2, k, 1], lists[2, k, 2])
    _add(out, T_TASKS, start, tare, counts[2])


@_compiled
def _valued(valued, design):
    """Whether the TURN valued ``design`` already (``choice._best_of_depot`` does not value it
    again), noting it: ``valued`` (1 + N_SPACES * DEPOT_SIZE,) int64 holds the count, then the
    designs."""
    for k in range(valued[0]):
        if valued[1 + k] == design:
            return True
    valued[0] += 1
    valued[valued[0]] = design
    return False


@_compiled
def _put(lists, which, counts, a, b, c):
    """Append (a, b, c) to list ``which`` of ``lists``."""
    k = counts[which]
    lists[which, k, 0] = a
    lists[which, k, 1] = b
    lists[which, k, 2] = c
    counts[which] = k + 1


@_compiled
def _load(states, i, hot):
    """``states[i]`` into ``hot`` ((STATE_SIZE,) int32), element by element (a slice assignment
    would need the reference-counted runtime)."""
    for j in range(hot.shape[0]):
        hot[j] = states[i, j]


@_compiled
def _add(out, row, start, tare, calls):
    """Add to row ``row`` of ``out`` the cycles since ``start`` less ``tare`` (the counter's own),
    and ``calls``: the calls made (``out[1]``) and those timed (``out[2]``). Cycles beyond
    OUTLIER, which no kernel here takes, mean that another process ran meanwhile: not timed."""
    cycles = _cycles() - start - tare
    out[1, row] += calls
    if cycles < OUTLIER:
        out[0, row] += cycles
        out[2, row] += calls

