"""Arkadia's kernels as the game class and the shared loops reach them (``GameBase.kernels``):
the rules kernels, and every loop of ``sim.loops`` compiled for them. ``rules`` is (component
table, parameters). The kernels allocate small scratch arrays (cells around a building). Part 1 of
a turn, most of a game's time, is chosen directly for compiled policies (``part1.direct_part1``)."""

from bgsim.sim.games.arkadia.decisions import N_ACTION_FIELDS, OVER
from bgsim.sim.games.arkadia.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.arkadia.kernels.flow import apply_action
from bgsim.sim.games.arkadia.kernels.part1 import direct_part1, new_part1_scratch
from bgsim.sim.games.arkadia.kernels.search import determinise, observe
from bgsim.sim.games.arkadia.kernels.setup import deal_into
from bgsim.sim.games.arkadia.state import GOLD, GOLD_BUILDINGS, N_PLAYERS, PHASE, RANK, SEAT, START_GOLD, TOTAL, TURN
from bgsim.sim.kernel_binding import RulesKernels, bind_loops
from numba import njit

__all__ = ["LOOPS", "RULES", "apply_action", "candidates", "deal_into", "determinise", "observe", "standing"]


@njit(cache=True)
def standing(s, scores):
    """Each seat's gold so far (start gold, cashings, buildings' gold; the seals behind a screen are
    hidden and not yet gold) into ``scores`` (P,) int32; the round under way: one turn of every seat."""
    n = s[N_PLAYERS]
    for seat in range(n):
        scores[seat] = s[START_GOLD + seat] + s[GOLD + seat] + s[GOLD_BUILDINGS + seat]
    return max(s[TURN] - 1, 0) // n


MAX_DECISIONS = 5000  # runaway bound: ~20x the longest of 180 random/greedy games, 248 decisions (4 players)
RULES = RulesKernels(candidates=candidates, apply_action=apply_action, deal_into=deal_into, determinise=determinise,
                     max_rows=MAX_ROWS, n_action_fields=N_ACTION_FIELDS, phase=PHASE, seat=SEAT, over=OVER,
                     n_players=N_PLAYERS, final_score=TOTAL, rank=RANK, standing=standing,
                     max_decisions=MAX_DECISIONS, direct_action=direct_part1, new_scratch=new_part1_scratch,
                     play_allocates=True)
LOOPS = bind_loops(RULES, __name__)  # LOOPS.play_to_end, LOOPS.play_into_states, ...
