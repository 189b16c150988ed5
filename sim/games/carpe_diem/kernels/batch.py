"""Batches of games for the runner: whole games in the compiled loop, or many games in lockstep.

``play_into_states`` plays every game of a chunk inside compiled code (weight and random
policies). The lockstep kernels serve strategies that score candidate tables in Python: all
pending tables of a batch of games are stacked into one buffer, scored by one Python call per
strategy, and the chosen rows applied, so the Python overhead is paid per step, not per game.

The game class reaches every kernel through this module (``batch_kernels``), the rules kernels
``candidates``, ``apply_action`` and ``play_to_end`` included (``sim.games.capabilities``).
"""

import numpy as np
from bgsim.sim.games.carpe_diem.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.carpe_diem.kernels.flow import apply_action
from bgsim.sim.games.carpe_diem.kernels.play import play_to_end
from bgsim.sim.games.carpe_diem.kernels.setup import new_game
from numba import njit

__all__ = ["apply_action", "apply_best_rows", "apply_row_and_decide", "candidates", "deal_states", "play_into_states",
           "play_to_end", "stack_tables"]


@njit(cache=True)
def play_into_states(t, p, empty_slots, chance, streams, seat_strategy, kinds, weights, feats, acts, log,
                     states_out):
    """Deal and play game ``g`` for every chance seed ``chance`` ((G,) uint64).

    ``streams`` (G, P) uint64: each game's seat streams, advanced in place.
    ``seat_strategy`` (G, P) int64: index into ``kinds`` ((K,) int64 policy kinds) and ``weights``
    ((K, F) int64) of the strategy in each seat. ``states_out`` (G, STATE_SIZE) int32: final states.
    """
    n_seats = streams.shape[1]
    seat_kinds = np.empty(n_seats, dtype=np.int64)
    seat_weights = np.empty((n_seats, weights.shape[1]), dtype=np.int64)
    for g in range(chance.shape[0]):
        for seat in range(n_seats):
            k = seat_strategy[g, seat]
            seat_kinds[seat] = kinds[k]
            seat_weights[seat, :] = weights[k]
        s = new_game(t, p, chance[g], empty_slots)
        play_to_end(s, t, p, seat_kinds, seat_weights, streams[g], feats, acts, log)
        states_out[g, :] = s


@njit(cache=True)
def deal_states(t, p, empty_slots, chance, states_out):
    """Deal one game per chance seed ((G,) uint64) into ``states_out`` (G, STATE_SIZE) int32."""
    for g in range(chance.shape[0]):
        states_out[g, :] = new_game(t, p, chance[g], empty_slots)


@njit(cache=True)
def stack_tables(states, games, t, p, feats, acts, offsets):
    """Stack the candidate tables of ``states[games[j]]`` into ``feats`` (R, F) / ``acts`` (R, A) int32.

    ``states`` (G, STATE_SIZE) int32; ``games`` (m,) int64; ``offsets`` (m + 1,) int64 receives
    the first row of each table. Stops while at least MAX_ROWS rows are still free, so a table
    never overflows; returns how many games were stacked (call again for the rest).
    """
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
    """For each stacked table j: apply its first row of highest ``values`` ((R,) int64 or float64)
    to ``states[games[j]]``. Returns nothing; ``states`` change in place."""
    for j in range(games.shape[0]):
        best = offsets[j]
        for r in range(offsets[j] + 1, offsets[j + 1]):
            if values[r] > values[best]:
                best = r
        apply_action(states[games[j]], t, p, acts[best], log)


@njit(cache=True)
def apply_row_and_decide(s, t, p, row, feats, acts, log):
    """Apply row ``row`` of the pending table (``acts``, (R, A) int32) to ``s``, then build the
    next table into ``feats``/``acts``; returns its number of rows. One compiled call per
    decision for Python strategies."""
    apply_action(s, t, p, acts[row], log)
    return candidates(s, t, p, feats, acts)
