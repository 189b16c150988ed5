"""The shared loops (``sim.loops``) compiled for one game: ``RulesKernels`` and ``bind_loops``.

A game's ``kernels/loops.py`` declares what its kernels offer the loops and binds them::

    RULES = RulesKernels(candidates=candidates, apply_action=apply_action, deal_into=deal_into, ...)
    LOOPS = bind_loops(RULES, __name__)  # LOOPS.play_to_end, LOOPS.play_into_states, ... (BoundLoops)

Each loop is then compiled with the game's kernels in place of the names ``sim.loops`` leaves
open, and cached with the game's code (``sim.numba_cache`` keys it by the binding module, so an
edit of one game recompiles that game's loops only). ``BoundLoops`` names every loop once, as a
field, so a caller (``sim.games.capabilities``) writes ``kernels.LOOPS.play_to_end`` and a reader
finds it; no game module repeats the list.

Why a copy per game, not one loop taking a game's kernels as arguments: numba types a compiled
function passed as an argument by its identity, which differs in every process, so such a loop
is compiled again in each one; a first-class function type would cache, but it calls through a
pointer that numba cannot inline, and every game's kernels would need one argument layout.
"""

import sys
from collections.abc import Callable
from dataclasses import dataclass
from types import FunctionType

from bgsim.sim import loops
from bgsim.sim.borrow import njit_without_refcounts
from numba import njit

__all__ = ["BoundLoops", "RulesKernels", "bind_loops", "never_direct", "no_scratch"]


@njit(cache=True)
def never_direct(*args):
    """The ``direct_action`` of a game that always goes through its candidate table."""
    return False


@njit(cache=True)
def no_scratch():
    """The ``new_scratch`` of a game without a ``direct_action``: no working memory."""
    return ()


@njit(cache=True)
def unchanged(value):
    """``value`` itself: ``borrow`` in a loop compiled without reference counts."""
    return value


@dataclass(frozen=True)
class RulesKernels:
    """What a game's compiled kernels offer the shared loops: its rules kernels by one signature
    for every game (``rules`` and ``deal`` are the game's ``rules_args`` / ``deal_args``, unpacked;
    every kernel is ``@njit``), and where its state keeps what the loops read."""

    candidates: Callable  # (s, *rules, feats, acts) -> rows: the pending table into the buffers (0 once over)
    apply_action: Callable  # (s, *rules, action, log): apply one legal action row, in place
    deal_into: Callable  # (s, *deal, chance_seed, log): a new game dealt into s from the uint64 seed
    max_rows: int  # rows of the largest candidate table
    n_action_fields: int  # columns of an action row
    phase: int  # state entry holding the pending decision kind
    seat: int  # state entry holding the seat to decide
    over: int  # decision kind of a finished game
    n_players: int  # state entry holding the number of seats
    final_score: int  # first state entry of the seats' final scores, one per seat
    rank: int  # first state entry of the seats' ranks (1 = a win, shared wins included)
    # (s, scores) -> round: each seat's running score, as the table shows it, into scores (P,) int32,
    # and the round under way (any number that changes when a round ends): for lead changes
    standing: Callable
    # decisions after which a game that has not ended is a runaway, which the loops stop there: a
    # generous multiple of the game's longest observed game (an error then, never a hang)
    max_decisions: int
    determinise: Callable | None = None  # (s, seat, rng): what seat cannot see, dealt at random
    # A shortcut for decisions the game can choose faster than by its table:
    # (s, *rules, policy, weights, streams, scratch, action) -> bool writes into ``action``
    # (N_ACTION_FIELDS,) int32 exactly the row that ``candidates`` + the policy would pick, or
    # returns False to use the table; ``new_scratch()`` makes its working memory (a tuple).
    direct_action: Callable = never_direct
    new_scratch: Callable = no_scratch
    # False: the play loop is compiled without reference counts (faster, ``sim.borrow``), which
    # holds only if nothing the loop calls allocates an array.
    play_allocates: bool = False

    def bound_names(self) -> dict:
        """The values of the names ``sim.loops`` leaves open (``sim.loops.BOUND_NAMES``)."""
        names = {"candidates": self.candidates, "apply_action": self.apply_action, "deal_into": self.deal_into,
                 "determinise": self.determinise, "direct_action": self.direct_action,
                 "new_scratch": self.new_scratch, "MAX_ROWS": self.max_rows, "N_ACTION_FIELDS": self.n_action_fields,
                 "PHASE": self.phase, "SEAT": self.seat, "OVER": self.over, "N_PLAYERS": self.n_players,
                 "FINAL_SCORE": self.final_score, "RANK": self.rank,
                 "standing": self.standing, "MAX_DECISIONS": self.max_decisions}
        assert set(names) == set(loops.BOUND_NAMES)
        return names


@dataclass(frozen=True)
class BoundLoops:
    """Every loop of ``sim.loops`` compiled for one game (``bind_loops``), one field each, in the
    order of ``sim.loops.LOOPS``; ``sim.loops`` documents each one's arguments."""

    play_to_end: Callable
    play_loop: Callable
    play_into_states: Callable
    seat_policies: Callable
    play_dealt_states: Callable
    play_counting_leads: Callable
    deal_states: Callable
    stack_tables: Callable
    apply_best_rows: Callable
    apply_row_and_decide: Callable
    rollout_outcomes: Callable


def bind_loops(rules: RulesKernels, module: str) -> BoundLoops:
    """Every loop of ``sim.loops`` compiled for the game whose kernels module is ``module`` (its
    ``__name__``, a module in the game's package). The loops call each other's bound versions;
    compilation happens on first call (or loads from the cache). A loop added to ``sim.loops``
    without its field here fails at once, in ``BoundLoops(**bound)``."""
    namespace = dict(vars(loops))  # what the loops import (np, borrow, choose_row ...)
    namespace.update(rules.bound_names())
    namespace.update(__name__=module, __file__=sys.modules[module].__file__)  # the cache key's scope
    # Compiled without reference counts, a loop has none to spare, and numba lets such code return
    # no array it did not receive: there ``borrow`` hands its argument back unchanged.
    counted_nowhere = dict(namespace, borrow=unchanged)
    bound = {}
    for function in loops.LOOPS:
        without_refcounts = function.__name__ in loops.REFCOUNT_FREE and not rules.play_allocates
        copy = FunctionType(function.__code__, counted_nowhere if without_refcounts else namespace,
                            function.__name__, function.__defaults__, function.__closure__)
        copy.__qualname__ = function.__qualname__
        copy.__doc__ = function.__doc__
        bound[function.__name__] = (njit_without_refcounts if without_refcounts else njit(cache=True))(copy)
    namespace.update(bound)
    counted_nowhere.update(bound)
    return BoundLoops(**bound)
