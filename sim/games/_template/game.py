"""The game behind the common game interface (``sim.api``), on GameBase, with every capability.

FILL IN: the docstrings; drop a capability the game cannot offer (and its kernels).
"""

import numpy as np
from bgsim.sim.api import CompiledPolicy, Observation
from bgsim.sim.games._template import render
from bgsim.sim.games._template.decisions import ACTION_FIELDS, DECISION_NAMES, OVER
from bgsim.sim.games._template.features import FEATURE_DOCS, FEATURE_NAMES
from bgsim.sim.games._template.kernels import batch, search
from bgsim.sim.games._template.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games._template.kernels.flow import apply_action
from bgsim.sim.games._template.kernels.play import play_to_end
from bgsim.sim.games._template.kernels.setup import new_game
from bgsim.sim.games._template.params import Params
from bgsim.sim.games._template.profile import template_profile
from bgsim.sim.games._template.records import seat_records
from bgsim.sim.games._template.state import PHASE, SEAT, STATE
from bgsim.sim.games.base import GameBase
from bgsim.sim.seeding import GameSeeds

__all__ = ["RULES_VERSION", "TemplateGame"]

RULES_VERSION = "1"


class TemplateGame(GameBase):
    """FILL IN: title, player counts, who starts."""

    name = "template"
    version = RULES_VERSION
    feature_names = FEATURE_NAMES
    feature_docs = FEATURE_DOCS
    action_fields = ACTION_FIELDS
    decision_names = DECISION_NAMES
    max_rows = MAX_ROWS
    state_size = STATE.size
    over_kind = OVER

    def __init__(self, params: Params | None = None):
        super().__init__(params or Params())
        self.param_array = self.params.to_array()
        self._search_feats = np.empty_like(self._feats)  # rollouts must not overwrite the pending table
        self._search_acts = np.empty_like(self._acts)

    @property
    def profile(self):
        return template_profile(self)

    # --- hooks of GameBase

    def new_state(self, seeds: GameSeeds) -> np.ndarray:
        """A dealt game, (STATE_SIZE,) int32, waiting for seat 0."""
        return new_game(self.param_array, np.uint64(seeds.chance))

    def is_over(self, state: np.ndarray) -> bool:
        return int(state[PHASE]) == OVER

    def _kind(self, state):
        return int(state[PHASE])

    def _seat(self, state):
        return int(state[SEAT])

    def _candidates(self, state, feats, acts) -> int:
        return candidates(state, self.param_array, feats, acts)

    def _apply(self, state, action, log) -> None:
        apply_action(state, self.param_array, action)

    def observe(self, state: np.ndarray, seat: int) -> Observation:
        view = np.empty_like(state)
        search.observe_into(state, seat, view)
        return Observation(seat, view)

    # --- stepping and compiled play

    def step(self, state: np.ndarray, row: int, log: np.ndarray | None = None):
        """Apply row ``row`` of the last table for ``state`` and return the next table."""
        return self._table(state, batch.apply_row_and_decide(state, self.param_array, row, self._feats, self._acts))

    def play_compiled(self, state: np.ndarray, policies: list[CompiledPolicy], streams: np.ndarray,
                      log: np.ndarray | None = None) -> None:
        kinds, weights = self.policy_arrays(policies)
        play_to_end(state, self.param_array, kinds, weights, streams, self._feats, self._acts)

    def play_states(self, chance, streams, seat_strategy, policies, out=None) -> np.ndarray:
        """Deal and play one game per chance seed ((G,) uint64); see ``sim.api.CompiledPlay``."""
        kinds, weights = self.policy_arrays(policies)
        states = np.empty((len(chance), STATE.size), dtype=np.int32) if out is None else out[: len(chance)]
        batch.play_into_states(self.param_array, np.asarray(chance, np.uint64), streams,
                               np.asarray(seat_strategy, np.int64), kinds, weights, self._feats, self._acts, states)
        return states

    # --- lockstep batches

    def deal_states(self, chance: np.ndarray) -> np.ndarray:
        states = np.empty((len(chance), STATE.size), dtype=np.int32)
        batch.deal_states(self.param_array, np.asarray(chance, np.uint64), states)
        return states

    def pending_seats(self, states: np.ndarray) -> np.ndarray:
        return np.where(states[:, PHASE] == OVER, -1, states[:, SEAT])

    def stack_tables(self, states, games, feats, acts, offsets) -> int:
        return batch.stack_tables(states, games, self.param_array, feats, acts, offsets)

    def apply_best_rows(self, states, games, acts, offsets, values) -> None:
        batch.apply_best_rows(states, games, self.param_array, acts, offsets, values)

    # --- determinisation (search players)

    def determinise(self, observation: Observation, rng: np.ndarray) -> np.ndarray:
        """A full state consistent with ``observation``; ``rng`` (1,) uint64 stream, advanced."""
        state = observation.view.copy()
        search.determinise(state, observation.seat, rng)
        return state

    def rollout_values(self, observation: Observation, actions: np.ndarray, determinisations: int,
                       rng: np.ndarray, policies: list[CompiledPolicy], margin_scale: float = 100.0) -> np.ndarray:
        """Mean outcome for the observing seat of each action ((K, A) int32), (K,) float64."""
        kinds, weights = self.policy_arrays(policies)
        values = np.empty(len(actions), dtype=np.float64)
        search.rollout_values(observation.view, self.param_array, observation.seat,
                              np.ascontiguousarray(actions, np.int32), determinisations, rng, kinds, weights,
                              float(margin_scale), self._search_feats, self._search_acts, values)
        return values

    # --- results and traces

    def records(self, states: np.ndarray) -> dict:
        return seat_records(states, self.n_players)

    def field(self, state: np.ndarray, name: str) -> np.ndarray:
        return STATE.view(state, name)

    def score_sheet(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Per seat (P,) int64: the score's parts (start included), the total and the rank."""
        f = lambda name: self.field(state, name)[: self.n_players].astype(np.int64)  # noqa: E731
        return {"start": f("start_points"), "taken": f("points"), "total": f("total"), "rank": f("rank")}

    def trace_text(self, state, log, seeds, strategy_ids, summary: bool = False) -> str:
        return render.trace_text(self, state, log, seeds, strategy_ids, summary=summary)

    def trace_json(self, state, log, seeds, strategy_ids) -> dict:
        return render.trace_json(self, state, log, seeds, strategy_ids)
