"""Carpe Diem's kernels as the game class and the shared loops reach them (``GameBase.kernels``):
the rules kernels, and every loop of ``sim.loops`` (play to the end, batches, lockstep, rollouts)
compiled for them. ``rules`` is (tables, parameters); ``deal`` adds the empty card slots.

The play loop chooses placements and scoring decisions without their tables
(``choice.direct_action``, the same rows); its call tree allocates, so it keeps reference counts
and borrows its arrays instead."""

from bgsim.sim.games.carpe_diem.decisions import N_ACTION_FIELDS, OVER
from bgsim.sim.games.carpe_diem.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.carpe_diem.kernels.choice import direct_action, new_scratch
from bgsim.sim.games.carpe_diem.kernels.flow import apply_action
from bgsim.sim.games.carpe_diem.kernels.search import determinise, observe
from bgsim.sim.games.carpe_diem.kernels.setup import deal_into
from bgsim.sim.games.carpe_diem.state import FIN_TOTAL, N_PLAYERS, PASS_NO, PHASE, RANK, SEAT, VP
from bgsim.sim.kernel_binding import RulesKernels, bind_loops
from numba import njit

__all__ = ["LOOPS", "RULES", "apply_action", "candidates", "deal_into", "determinise", "observe", "standing"]


@njit(cache=True)
def standing(s, scores):
    """The VP track now (start VP included) into ``scores`` (P,) int32; the pass under way (CD-PASS)."""
    for seat in range(s[N_PLAYERS]):
        scores[seat] = s[VP + seat]
    return s[PASS_NO]


MAX_DECISIONS = 3500  # runaway bound: ~20x the longest of 180 random/greedy games, 171 decisions (4 players)
RULES = RulesKernels(candidates=candidates, apply_action=apply_action, deal_into=deal_into, determinise=determinise,
                     max_rows=MAX_ROWS, n_action_fields=N_ACTION_FIELDS, phase=PHASE, seat=SEAT, over=OVER,
                     n_players=N_PLAYERS, final_score=FIN_TOTAL, rank=RANK, standing=standing,
                     max_decisions=MAX_DECISIONS,
                     direct_action=direct_action, new_scratch=new_scratch, play_allocates=True)
LOOPS = bind_loops(RULES, __name__)  # LOOPS.play_to_end, LOOPS.play_into_states, ...
