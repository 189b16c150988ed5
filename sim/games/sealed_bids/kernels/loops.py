"""Sealed Bids' kernels as the game class and the shared loops reach them (``GameBase.kernels``):
the rules kernels, and every loop of ``sim.loops`` (play to the end, batches, lockstep, rollouts)
compiled for them."""

from bgsim.sim.games.sealed_bids.decisions import N_ACTION_FIELDS, OVER
from bgsim.sim.games.sealed_bids.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.sealed_bids.kernels.flow import apply_action
from bgsim.sim.games.sealed_bids.kernels.search import determinise, observe
from bgsim.sim.games.sealed_bids.kernels.setup import deal_into
from bgsim.sim.games.sealed_bids.state import N_PLAYERS, PHASE, PRIZE_PTS, RANK, ROUND, SEAT, START_PTS, TOTAL
from bgsim.sim.kernel_binding import RulesKernels, bind_loops
from numba import njit

__all__ = ["LOOPS", "RULES", "apply_action", "candidates", "deal_into", "determinise", "observe", "standing"]


@njit(cache=True)
def standing(s, scores):
    """Start points and the prizes taken so far into ``scores`` (P,) int32; the round under way."""
    for seat in range(s[N_PLAYERS]):
        scores[seat] = s[START_PTS + seat] + s[PRIZE_PTS + seat]
    return s[ROUND]


MAX_DECISIONS = 2000  # a runaway game's bound, far beyond any game of a few rounds of bids
RULES = RulesKernels(candidates=candidates, apply_action=apply_action, deal_into=deal_into, determinise=determinise,
                     max_rows=MAX_ROWS, n_action_fields=N_ACTION_FIELDS, phase=PHASE, seat=SEAT, over=OVER,
                     n_players=N_PLAYERS, final_score=TOTAL, rank=RANK, standing=standing,
                     max_decisions=MAX_DECISIONS)
LOOPS = bind_loops(RULES, __name__)  # LOOPS.play_to_end, LOOPS.play_into_states, ...
