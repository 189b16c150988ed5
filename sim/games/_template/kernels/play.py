"""The compiled play loop: whole games with weight or random policies, no Python per decision."""

from bgsim.sim.api import POLICY_WEIGHTS
from bgsim.sim.games._template.decisions import OVER
from bgsim.sim.games._template.kernels.candidates import candidates
from bgsim.sim.games._template.kernels.flow import apply_action
from bgsim.sim.games._template.state import PHASE, SEAT
from bgsim.sim.policy import first_best_row
from bgsim.sim.rng import below
from numba import njit


@njit(cache=True)
def choose_row(feats, n, policy, weights, streams, seat):
    """Row index for one seat: argmax of ``feats @ weights`` (first on ties) or a uniform draw
    from the seat's stream (the same draws ``strategies.base.RandomStrategy`` makes)."""
    if policy != POLICY_WEIGHTS:
        return below(streams, seat, n)
    return first_best_row(feats[:n], weights)


@njit(cache=True)
def play_to_end(s, t, p, policies, weights, streams, feats, acts, log):
    """Play ``s`` to the end. ``t`` component table, ``p`` parameters; ``policies`` (P,) int64
    policy kind per seat; ``weights`` (P, F) int64; ``streams`` (P,) uint64 seat streams,
    advanced; ``feats``/``acts`` table buffers; ``log`` the event log (one row: off)."""
    while s[PHASE] != OVER:
        seat = s[SEAT]
        n = candidates(s, t, p, feats, acts)
        i = choose_row(feats, n, policies[seat], weights[seat], streams, seat)
        apply_action(s, t, p, acts[i], log)
