"""The optional capabilities of ``sim.api`` built from a game's kernels, one mixin each.

A game lists the mixins of the capabilities its kernels offer before ``GameBase``::

    class MyGame(SteppingKernels, CompiledPlayKernels, LockstepKernels, DeterminisationKernels, GameBase)

and drops a mixin for a capability it cannot offer. Each mixin calls the game's ``kernels``
(its ``kernels/loops.py``): the shared loops of ``sim.loops`` bound to the game's rules kernels
(``kernels.LOOPS``, a ``sim.kernel_binding.BoundLoops``), by the convention of ``sim.games.base``
(``rules_args``, ``deal_args``, the event log):

- ``SteppingKernels``: ``apply_row_and_decide``;
- ``CompiledPlayKernels``: ``play_to_end`` and ``play_into_states``;
- ``LockstepKernels``: ``deal_states``, ``stack_tables`` and ``apply_best_rows``;
- ``DeterminisationKernels`` (search, choice values): the game's ``determinise``, ``rollout_values`` and
  ``rollout_outcomes``.
"""

import functools

import numpy as np
from bgsim.sim.api import CandidateTable, CompiledPolicy, Observation
from bgsim.sim.errors import RunawayGameError

__all__ = ["CompiledPlayKernels", "DeterminisationKernels", "LockstepKernels", "SteppingKernels"]


class SteppingKernels:
    """``sim.api.Stepping``: the per-decision loop in one compiled call per decision."""

    def step(self, state: np.ndarray, row: int, log: np.ndarray | None = None) -> CandidateTable:
        """Apply row ``row`` of the table that ``decision`` or ``step`` last returned for ``state``
        and return the next table."""
        n = self.kernels.LOOPS.apply_row_and_decide(state, self.rules_args, row, self._feats, self._acts,
                                                    self._log(log))
        return self._table(state, n)


class CompiledPlayKernels:
    """``sim.api.CompiledPlay``: whole games in the compiled loop with compiled policies."""

    def play_compiled(self, state: np.ndarray, policies: list[CompiledPolicy], streams: np.ndarray,
                      log: np.ndarray | None = None) -> None:
        """Play to the end with compiled policies, one per seat; ``streams`` (P,) uint64 in place.
        A game not over within the game's ``max_decisions`` raises a RunawayGameError."""
        kinds, weights = self.policy_arrays(policies)
        if not self.kernels.LOOPS.play_to_end(state, self.rules_args, kinds, weights, streams, self._feats,
                                              self._acts, self._log(log)):
            raise RunawayGameError(self.id, self.max_decisions)

    def play_states(self, chance: np.ndarray, streams: np.ndarray, seat_strategy: np.ndarray,
                    policies: list[CompiledPolicy], out: np.ndarray | None = None) -> np.ndarray:
        """Deal and play one game per chance seed ((G,) uint64).

        ``streams`` (G, P) uint64 seat streams, advanced in place; ``seat_strategy`` (G, P) int64
        index into ``policies``. Returns the final states, (G, state size) int32: ``out[:G]`` if
        given (reusing one buffer spares the kernel zero-filling fresh pages for every batch).
        """
        kinds, weights = self.policy_arrays(policies)
        states = np.empty((len(chance), self.state_size), dtype=np.int32) if out is None else out[: len(chance)]
        self.kernels.LOOPS.play_into_states(self.deal_args, self.rules_args, np.asarray(chance, np.uint64), streams,
                                            np.asarray(seat_strategy, np.int64), kinds, weights, self._feats,
                                            self._acts, self._no_log, states)
        self._check_ended(states, chance)
        return states

    def _check_ended(self, states: np.ndarray, chance: np.ndarray | None = None) -> None:
        """A RunawayGameError for the first of ``states`` the loops stopped before its end, named by
        its place in the batch (from 1) and its chance seed."""
        runaway = np.flatnonzero(states[:, self.phase_index] != self.over_kind)
        if runaway.size:
            g = int(runaway[0])
            seed = f"chance {int(chance[g])}" if chance is not None else "unknown"
            raise RunawayGameError(self.id, self.max_decisions).of_game(g + 1, seed)

    def play_dealt(self, states: np.ndarray, streams: np.ndarray, seat_strategy: np.ndarray,
                   policies: list[CompiledPolicy]) -> np.ndarray:
        """Play dealt games ((G, state size) int32 from ``deal_states``, maybe edited since) to the
        end in place, as ``play_states`` plays after its deal; returns each game's lead changes,
        (G,) int32 (``sim.loops.play_counting_leads``). ``streams``, ``seat_strategy``: as there."""
        kinds, weights = self.policy_arrays(policies)
        leads = np.zeros(len(states), dtype=np.int32)
        self.kernels.LOOPS.play_dealt_states(states, self.rules_args, streams, np.asarray(seat_strategy, np.int64),
                                             kinds, weights, self._feats, self._acts, self._no_log, leads)
        self._check_ended(states)
        return leads


class LockstepKernels:
    """``sim.api.LockstepBatches``: many games stepped together, one ``score`` call per step."""

    def deal_states(self, chance: np.ndarray) -> np.ndarray:
        """One dealt game per chance seed ((G,) uint64): (G, state size) int32."""
        states = np.empty((len(chance), self.state_size), dtype=np.int32)
        self.kernels.LOOPS.deal_states(self.deal_args, np.asarray(chance, np.uint64), self._no_log, states)
        return states

    def pending_seats(self, states: np.ndarray) -> np.ndarray:
        """Seat to decide in each state ((G, state size) int32), (G,) int32; -1 once over."""
        return np.where(states[:, self.phase_index] == self.over_kind, -1, states[:, self.seat_index])

    def stack_tables(self, states, games, feats, acts, offsets) -> int:
        """Stack the tables of ``states[games]`` into ``feats`` / ``acts``; ``offsets`` gets each
        table's first row. Returns how many games fitted."""
        return self.kernels.LOOPS.stack_tables(states, games, self.rules_args, feats, acts, offsets)

    def apply_best_rows(self, states, games, acts, offsets, values) -> None:
        """Apply each stacked table's first row of highest ``values``."""
        self.kernels.LOOPS.apply_best_rows(states, games, self.rules_args, acts, offsets, values, self._no_log)


class DeterminisationKernels:
    """``sim.api.Determinisation``: what search players need to sample and play out hidden information."""

    @functools.cached_property
    def _search_buffers(self) -> tuple[np.ndarray, np.ndarray]:
        # rollouts get their own table buffers: the pending table's arrays view the base's
        return np.empty_like(self._feats), np.empty_like(self._acts)

    def determinise(self, observation: Observation, rng: np.ndarray) -> np.ndarray:
        """A full state consistent with ``observation``: what its seat cannot see arranged at
        random; ``rng`` (1,) uint64 stream, advanced."""
        state = observation.view.copy()
        self.kernels.determinise(state, observation.seat, rng)
        return state

    def rollout_values(self, observation: Observation, actions: np.ndarray, determinisations: int,
                       rng: np.ndarray, policies: list[CompiledPolicy], margin_scale: float = 100.0) -> np.ndarray:
        """Mean outcome for the observing seat of each action ((K, A) int32, legal now), (K,) float64:
        every action played to the end on the same ``determinisations`` of the hidden information,
        all seats by ``policies`` (one per seat). Outcome: 1 for a win (a shared one too), plus the
        score margin over the best opponent / ``margin_scale``. ``rng`` (1,) uint64 stream, advanced."""
        shares, margins = self.rollout_outcomes(observation, actions, determinisations, rng, policies)
        values = np.zeros(len(actions), dtype=np.float64)
        for d in range(determinisations):  # summed rollout by rollout, as the search always has
            values += (shares[:, d] > 0) + margins[:, d] / float(margin_scale)
        return values / determinisations

    def _rollout_policy_arrays(self, policies) -> tuple[np.ndarray, np.ndarray]:
        """``policy_arrays(policies)``, kept for the last tuple of policies seen: a search passes the
        same tuple at every decision, and building the arrays anew costs a tenth of a short rollout."""
        cached = self.__dict__.get("_rollout_policies")
        if cached is not None and cached[0] is policies:
            return cached[1]
        arrays = self.policy_arrays(policies)
        if isinstance(policies, tuple):  # a tuple of frozen policies cannot change under the cache
            self.__dict__["_rollout_policies"] = (policies, arrays)
        return arrays

    def rollout_outcomes(self, observation: Observation, actions: np.ndarray, determinisations: int,
                         rng: np.ndarray, policies: list[CompiledPolicy]) -> tuple[np.ndarray, np.ndarray]:
        """Each action ((K, A) int32, legal now) played to the end on the same ``determinisations``
        of the hidden information with the same seat streams (common random numbers), all seats by
        ``policies``: the observing seat's win shares (K, D) float64 and score margins over the best
        other seat (K, D) int64. ``rng`` (1,) uint64 stream, advanced."""
        kinds, weights = self._rollout_policy_arrays(policies)
        feats, acts = self._search_buffers
        shares = np.empty((len(actions), determinisations), dtype=np.float64)
        margins = np.empty((len(actions), determinisations), dtype=np.int64)
        self.kernels.LOOPS.rollout_outcomes(observation.view, self.rules_args, observation.seat,
                                            np.ascontiguousarray(actions, np.int32), determinisations, rng, kinds,
                                            weights, feats, acts, self._no_log, shares, margins)
        if np.isnan(shares).any():
            raise RunawayGameError(self.id, self.max_decisions, "rollout")
        return shares, margins
