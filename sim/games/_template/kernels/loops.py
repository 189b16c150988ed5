"""The game's kernels as the game class and the shared loops reach them (``GameBase.kernels``):
the rules kernels, and every loop of ``sim.loops`` (play to the end, batches, lockstep, rollouts)
compiled for them. ``rules`` is (component table, parameters).

FILL IN: where the state keeps what the loops read. A game that can choose some decisions faster
than through its candidate table adds ``direct_action`` and ``new_scratch`` (see Carpe Diem's);
one whose rules kernels allocate arrays sets ``play_allocates=True``."""

from bgsim.sim.games._template.decisions import N_ACTION_FIELDS, OVER
from bgsim.sim.games._template.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games._template.kernels.flow import apply_action
from bgsim.sim.games._template.kernels.search import determinise, observe
from bgsim.sim.games._template.kernels.setup import deal_into
from bgsim.sim.games._template.state import BONUS_PTS, CARD_PTS, N_PLAYERS, PHASE, RANK, ROUND, SEAT, START_PTS, TOTAL
from bgsim.sim.kernel_binding import RulesKernels, bind_loops
from numba import njit

__all__ = ["LOOPS", "RULES", "apply_action", "candidates", "deal_into", "determinise", "observe", "standing"]


@njit(cache=True)
def standing(s, scores):
    """Start, card and bonus points so far into ``scores`` (P,) int32; the round under way (for lead
    changes: ``sim.loops.play_counting_leads``)."""
    for seat in range(s[N_PLAYERS]):
        scores[seat] = s[START_PTS + seat] + s[CARD_PTS + seat] + s[BONUS_PTS + seat]
    return s[ROUND]


MAX_DECISIONS = 10000  # runaway bound: ~20x the longest random or greedy game; set per game
RULES = RulesKernels(candidates=candidates, apply_action=apply_action, deal_into=deal_into, determinise=determinise,
                     max_rows=MAX_ROWS, n_action_fields=N_ACTION_FIELDS, phase=PHASE, seat=SEAT, over=OVER,
                     n_players=N_PLAYERS, final_score=TOTAL, rank=RANK, standing=standing,
                     max_decisions=MAX_DECISIONS)
LOOPS = bind_loops(RULES, __name__)  # LOOPS.play_to_end, LOOPS.play_into_states, ...
