"""Arkadia's kernels as the game class and the shared loops reach them (``GameBase.kernels``):
the rules kernels, and every loop of ``sim.loops`` compiled for them. ``rules`` is (component
table, parameters). The kernels allocate small scratch arrays (cells around a building)."""

from bgsim.sim.games.arkadia.decisions import N_ACTION_FIELDS, OVER
from bgsim.sim.games.arkadia.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.arkadia.kernels.flow import apply_action
from bgsim.sim.games.arkadia.kernels.search import determinise, observe
from bgsim.sim.games.arkadia.kernels.setup import deal_into
from bgsim.sim.games.arkadia.state import N_PLAYERS, PHASE, RANK, SEAT, TOTAL
from bgsim.sim.kernel_binding import RulesKernels, bind_loops

__all__ = ["RULES", "apply_action", "candidates", "deal_into", "determinise", "observe"]

RULES = RulesKernels(candidates=candidates, apply_action=apply_action, deal_into=deal_into, determinise=determinise,
                     max_rows=MAX_ROWS, n_action_fields=N_ACTION_FIELDS, phase=PHASE, seat=SEAT, over=OVER,
                     n_players=N_PLAYERS, final_score=TOTAL, rank=RANK, play_allocates=True)
globals().update(bind_loops(RULES, __name__))  # play_to_end, play_into_states, ... (sim.loops.LOOPS)
