"""What a seat may see, determinisation and rollouts for search players.

FILL IN: ``observe`` replaces everything hidden from the seat by a canonical arrangement
(sorted values, or a HIDDEN mark); ``determinise`` deals the hidden things out again at random
from the rng stream, consistent with what the seat sees. The placeholder game hides nothing.
"""

import numpy as np
from bgsim.sim.games._template.kernels.flow import apply_action
from bgsim.sim.games._template.kernels.play import play_to_end
from bgsim.sim.games._template.state import N_PLAYERS, RANK, TOTAL
from bgsim.sim.rng import next_u64
from numba import njit


@njit(cache=True)
def observe(s, seat, out):
    """``out`` ((STATE_SIZE,) int32) = the view of ``s`` for ``seat``."""
    out[:] = s


@njit(cache=True)
def determinise(s, seat, rng):
    """Deal, in place, what ``seat`` cannot see in ``s`` at random; ``rng`` (1,) uint64, advanced."""
    pass


@njit(cache=True)
def seat_outcome(s, seat, margin_scale):
    """1 for a win, plus the margin over the best opponent / ``margin_scale``."""
    best_other = -(1 << 30)
    for other in range(s[N_PLAYERS]):
        if other != seat and s[TOTAL + other] > best_other:
            best_other = s[TOTAL + other]
    return (1.0 if s[RANK + seat] == 1 else 0.0) + (s[TOTAL + seat] - best_other) / margin_scale


@njit(cache=True)
def rollout_values(view, p, seat, root_acts, n_det, rng, kinds, weights, margin_scale, feats, acts, values):
    """Mean outcome for ``seat`` of each action ``root_acts`` ((K, A) int32) into ``values`` ((K,) float64)."""
    base = np.empty_like(view)
    work = np.empty_like(view)
    streams = np.empty(kinds.shape[0], dtype=np.uint64)
    values[:] = 0.0
    for _ in range(n_det):
        base[:] = view
        determinise(base, seat, rng)
        stream_seed = next_u64(rng, 0)
        for k in range(root_acts.shape[0]):
            work[:] = base
            for i in range(streams.shape[0]):
                streams[i] = stream_seed + np.uint64(i)
            apply_action(work, p, root_acts[k])
            play_to_end(work, p, kinds, weights, streams, feats, acts)
            values[k] += seat_outcome(work, seat, margin_scale)
    values /= n_det
