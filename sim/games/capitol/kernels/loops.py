"""Capitol's kernels as the game class and the shared loops reach them (``GameBase.kernels``): the
rules kernels, and every loop of ``sim.loops`` (play to the end, batches, lockstep, rollouts)
compiled for them. ``rules`` is (board table, parameters)."""

from bgsim.sim.games.capitol.decisions import N_ACTION_FIELDS, OVER
from bgsim.sim.games.capitol.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.capitol.kernels.flow import apply_action
from bgsim.sim.games.capitol.kernels.search import determinise, observe
from bgsim.sim.games.capitol.kernels.setup import deal_into
from bgsim.sim.games.capitol.state import N_PLAYERS, PHASE, RANK, ROUND, SCORE, SEAT
from bgsim.sim.kernel_binding import RulesKernels, bind_loops
from numba import njit

__all__ = ["LOOPS", "RULES", "apply_action", "candidates", "deal_into", "determinise", "observe", "standing"]


@njit(cache=True)
def standing(s, scores):
    """The score track now (start points included) into ``scores`` (P,) int32; the round under way."""
    for seat in range(s[N_PLAYERS]):
        scores[seat] = s[SCORE + seat]
    return s[ROUND]


MAX_DECISIONS = 6500  # runaway bound: ~20x the longest of 180 random/greedy games, 311 decisions (4 players)
RULES = RulesKernels(candidates=candidates, apply_action=apply_action, deal_into=deal_into, determinise=determinise,
                     max_rows=MAX_ROWS, n_action_fields=N_ACTION_FIELDS, phase=PHASE, seat=SEAT, over=OVER,
                     n_players=N_PLAYERS, final_score=SCORE, rank=RANK, standing=standing,
                     max_decisions=MAX_DECISIONS)
LOOPS = bind_loops(RULES, __name__)  # LOOPS.play_to_end, LOOPS.play_into_states, ...
