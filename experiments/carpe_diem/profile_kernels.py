"""Where Carpe Diem's compiled games spend their time, kernel by kernel.

Plays games as the compiled loop plays them (``sim.loops.play_loop``: the same choices, the same
games) and times each decision's choice (``direct_action``, or the table and ``choose_row``) and
its ``apply_action`` by the processor's cycle counter, its own cost taken off, per decision kind.
Then a weighted TURN is split over the recorded states of those games' TURNs (checked to end as
``play_states`` ends them), each copied into one buffer: its stages one by one, the frontier's
cells and merge tables, the placement valuation per tile design, its placements by what they
complete, and the frame-task values of their completions.

    python -m bgsim.experiments.carpe_diem.profile_kernels [--players 4] [--strategy greedy]
                                                         [--games 100] [--passes 3]

Prints per kernel µs per call, calls per game, µs per game and its share of the game's timed
kernels; indented rows split the row above them. Timed one by one, the kernels take some 10-20 %
longer than the compiled loop's whole game (``play_states``, printed too): the counter's reads and
the timing code stand between them, and a recorded state copied into the buffer is not quite as hot
as the loop's. The timing kernels are compiled on each run: Numba's cache would key them on this
file only, and could run stale kernels after an edit of the game's.
"""

import argparse
import statistics
import time

import numpy as np
from bgsim.experiments.bench import engine_rate
from bgsim.sim import make_game
from bgsim.sim.api import POLICY_WEIGHTS
from bgsim.sim.borrow import borrow
from bgsim.sim.games.carpe_diem.constants import DEPOT_SIZE, MARKET, N_SPACES
from bgsim.sim.games.carpe_diem.decisions import DECISION_NAMES, OVER, TURN
from bgsim.sim.games.carpe_diem.kernels.candidates import candidates, turn_movements
from bgsim.sim.games.carpe_diem.kernels.choice import direct_action, new_scratch
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
from bgsim.sim.games.carpe_diem.kernels.work import MAX_PLACEMENTS, MV_DEST
from bgsim.sim.games.carpe_diem.state import DEPOT, PHASE, SEAT
from bgsim.sim.games.carpe_diem.tables import T_TILE_DESIGN, T_TILE_NPARTS
from bgsim.sim.policy import choose_row
from bgsim.sim.seeding import block_key, deal_seeds, seat_streams
from bgsim.strategies import make_strategy
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

_compiled = njit(_nrt=False, error_model="numpy")  # as the kernels: no reference counts; not cached
OUTLIER = 250_000  # cycles (about 0.1 ms): a call that took longer was interrupted
N_KINDS = len(DECISION_NAMES)

# Rows of a TURN's split (``_time_turns``).
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
def _now():
    return _cycles()


@_compiled
def _counter_cost(n):
    """Cycles of one read of the counter, as taken off every timed call."""
    total = 0
    for _ in range(n):
        a = _cycles()
        total += _cycles() - a
    return total // n


def record(game, policies, n_games: int, seed: int) -> np.ndarray:
    """The states before every decision of ``n_games`` games ((D, STATE_SIZE) int32, in play order),
    played as ``play_states`` plays them."""
    n = game.n_players
    chance, strat = deal_seeds(block_key(seed, n), np.arange(n_games))
    streams = seat_streams(strat, n)
    kinds, weights = game.policy_arrays(policies)
    t, p = game.rules_args
    scratch = new_scratch()
    action = np.empty(game._acts.shape[1], dtype=np.int32)
    states, finals = [], []
    s = np.empty(game.state_size, dtype=np.int32)
    for g in range(n_games):
        deal_into(s, *game.deal_args, chance[g], game._no_log)
        while s[PHASE] != 0:
            states.append(s.copy())
            row = action
            if not direct_action(s, t, p, kinds[0], weights[0], streams[g], scratch, action):
                rows = candidates(s, t, p, game._feats, game._acts)
                row = game._acts[choose_row(game._feats, rows, kinds[0], weights[0], streams[g], s[SEAT])]
            apply_action(s, t, p, row, game._no_log)
        finals.append(s.copy())
    played = game.play_states(chance, seat_streams(strat, n), np.zeros((n_games, n), np.int64), policies)
    assert np.array_equal(np.array(finals), played), "recorded games differ from the compiled loop's"
    return np.array(states)


# Timing kernels: each adds the cycles and calls of what it times into ``out`` (3, rows) int64
# (``_add``).


@njit
def _time_games(deal, chance, t, p, policy, weights, streams, scratch, action, feats, acts, log, s, tare, out):
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
def _time_turns(states, idx, t, p, weights, work, lists, counts, valued, hot, tare, out):
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


def profile(n_players: int, strategy_id: str, n_games: int, passes: int, seed: int = 1000) -> list[tuple]:
    """Rows (label, µs per call, calls per game, indent) of the kernels' split over ``n_games``
    games: the median of ``passes`` passes."""
    game = make_game("carpe_diem", n_players=n_players)
    policy = make_strategy(strategy_id, game).compiled_policy(game)
    t, p = game.rules_args
    pol_kinds, pol_weights = game.policy_arrays([policy])
    kind, weights = int(pol_kinds[0]), pol_weights[0]
    scratch = new_scratch()
    action = np.empty(game._acts.shape[1], dtype=np.int32)
    chance, strat = deal_seeds(block_key(seed, n_players), np.arange(n_games))
    tare = int(_counter_cost(100_000))
    per_us = _cycles_per_us()

    def timed(run, size: int) -> tuple[np.ndarray, np.ndarray]:
        """µs per timed call of each row of ``out`` (3, size) that ``run(out)`` fills, the median
        over the passes, and each row's calls per game."""
        per_call = []
        for r in range(passes + 1):
            out = np.zeros((3, size), dtype=np.int64)
            run(out)
            if r > 0:  # the first pass compiles and warms up
                per_call.append(out[0] / np.maximum(out[2], 1))
        # a call shorter than the counter's own read can come out below 0
        return np.maximum(np.median(np.array(per_call), axis=0), 0) / per_us, out[1] / n_games

    s = np.empty(game.state_size, dtype=np.int32)
    us, calls = timed(lambda o: _time_games(game.deal_args, chance, t, p, kind, weights, seat_streams(strat, n_players),
                                            scratch, action, game._feats, game._acts, game._no_log, s, tare, o),
                      3 * N_KINDS + 1)
    rows = []
    for k in range(N_KINDS):
        if not calls[k]:
            continue
        how = "candidates + choose_row" if calls[2 * N_KINDS + 1 + k] == calls[k] else "direct_action"
        rows.append((f"{DECISION_NAMES[k]}: choice ({how})", us[k], calls[k], 0))
        if k == TURN and kind == POLICY_WEIGHTS:
            rows += _turn_split(game, policy, n_games, seed, weights, scratch[0], tare, timed)
        rows.append((f"{DECISION_NAMES[k]}: apply_action", us[N_KINDS + k], calls[N_KINDS + k], 0))
    rows.append(("deal_into", us[2 * N_KINDS], calls[2 * N_KINDS], 0))
    return rows


def _turn_split(game, policy, n_games: int, seed: int, weights: np.ndarray, work, tare: int, timed) -> list[tuple]:
    """The rows of ``TURN_ROWS``: the stages of the TURNs of recorded games, each state copied into
    one buffer first (the first stage, ``turn_movements``, pays about 0.1 µs for that copy)."""
    states = record(game, [policy], n_games, seed)
    idx = np.flatnonzero(states[:, PHASE] == TURN)
    t, p = game.rules_args
    hot = np.empty_like(states[0])
    lists = np.empty((3, 2 * MAX_PLACEMENTS, 3), dtype=np.int64)
    counts = np.empty(3, dtype=np.int64)
    valued = np.empty(1 + N_SPACES * DEPOT_SIZE, dtype=np.int64)
    us, calls = timed(lambda o: _time_turns(states, idx, t, p, weights, work, lists, counts, valued, hot, tare, o),
                      N_ROWS)
    return [(label, us[row], calls[row], indent) for row, indent, label in TURN_ROWS]


def _cycles_per_us() -> float:
    _now()  # compiled first, not while timed
    start, cycles = time.perf_counter(), _now()
    time.sleep(0.2)
    return (_now() - cycles) / (time.perf_counter() - start) / 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--strategy", default="greedy")
    parser.add_argument("--games", type=int, default=100, help="games played per pass")
    parser.add_argument("--passes", type=int, default=3, help="timed passes over the games (median)")
    args = parser.parse_args(argv)
    rows = profile(args.players, args.strategy, args.games, args.passes)
    rate = statistics.median(engine_rate("carpe_diem", args.players, args.strategy, 500, 5))
    total = sum(us * calls for _, us, calls, indent in rows if indent == 0)
    print(f"Carpe Diem, {args.players} players, {args.strategy}: {1e6 / rate:,.0f} µs per game in the compiled loop "
          f"({rate:,.0f} games/s); {total:,.0f} µs per game timed kernel by kernel (share: of these)\n")
    print(f"{'kernel':<62} {'µs/call':>8} {'calls/game':>10} {'µs/game':>8} {'share':>6}")
    for label, us, calls, indent in rows:
        print(f"{'  ' * indent + label:<62} {us:>8.3f} {calls:>10.1f} {us * calls:>8.1f} {us * calls / total:>6.1%}")

if __name__ == "__main__":
    main()
