"""Batches of games for the runner: whole games in the compiled loop, or many games in lockstep
(tables stacked for one Python ``score`` call per strategy and step).

The game class reaches every kernel through this module (``batch_kernels``), the rules kernels
``candidates``, ``apply_action`` and ``play_to_end`` included, by the calling convention of
``sim.games.capabilities``: ``t`` (the component table) and ``p`` (the parameters) after the
state, the event log last."""

import numpy as np
from bgsim.sim.games._template.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games._template.kernels.flow import apply_action
from bgsim.sim.games._template.kernels.play import play_to_end
from bgsim.sim.games._template.kernels.setup import deal_into
from bgsim.sim.games._template.state import EVENT_WIDTH
from numba import njit

__all__ = ["apply_action", "apply_best_rows", "apply_row_and_decide", "candidates", "deal_states", "play_into_states",
           "play_to_end", "stack_tables"]


@njit(cache=True)
def play_into_states(t, p, chance, streams, seat_strategy, kinds, weights, feats, acts, log, states_out):
    """Deal and play one game per chance seed ``chance`` ((G,) uint64) into ``states_out``
    ((G, STATE_SIZE) int32). ``streams`` (G, P) uint64 seat streams, advanced; ``seat_strategy``
    (G, P) int64 index into ``kinds`` ((K,) int64) and ``weights`` ((K, F) int64)."""
    n_seats = streams.shape[1]
    seat_kinds = np.empty(n_seats, dtype=np.int64)
    seat_weights = np.empty((n_seats, weights.shape[1]), dtype=np.int64)
    for g in range(chance.shape[0]):
        for seat in range(n_seats):
            k = seat_strategy[g, seat]
            seat_kinds[seat] = kinds[k]
            seat_weights[seat, :] = weights[k]
        deal_into(states_out[g], t, p, chance[g], log)
        play_to_end(states_out[g], t, p, seat_kinds, seat_weights, streams[g], feats, acts, log)


@njit(cache=True)
def deal_states(t, p, chance, states_out):
    """Deal one game per chance seed ((G,) uint64) into ``states_out`` (G, STATE_SIZE) int32."""
    log = np.zeros((1, EVENT_WIDTH), dtype=np.int32)  # off: no events
    for g in range(chance.shape[0]):
        deal_into(states_out[g], t, p, chance[g], log)


@njit(cache=True)
def stack_tables(states, games, t, p, feats, acts, offsets):
    """Stack the tables of ``states[games[j]]`` ((G, STATE_SIZE) int32, (m,) int64) into ``feats``
    (R, F) / ``acts`` (R, A) int32; ``offsets`` (m + 1,) int64 gets each table's first row.
    Stops while MAX_ROWS rows are still free; returns how many games were stacked."""
    row = 0
    offsets[0] = 0
    for j in range(games.shape[0]):
        if feats.shape[0] - row < MAX_ROWS:
            return j
        row += candidates(states[games[j]], t, p, feats[row:], acts[row:])
        offsets[j + 1] = row
    return games.shape[0]


@njit(cache=True)
def apply_best_rows(states, games, t, p, acts, offsets, values, log):
    """For each stacked table j apply its first row of highest ``values`` ((R,) int64 or float64)."""
    for j in range(games.shape[0]):
        best = offsets[j]
        for r in range(offsets[j] + 1, offsets[j + 1]):
            if values[r] > values[best]:
                best = r
        apply_action(states[games[j]], t, p, acts[best], log)


@njit(cache=True)
def apply_row_and_decide(s, t, p, row, feats, acts, log):
    """Apply row ``row`` of the pending table (``acts``) and build the next; returns its rows."""
    apply_action(s, t, p, acts[row], log)
    return candidates(s, t, p, feats, acts)
