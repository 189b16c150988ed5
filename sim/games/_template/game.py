"""The game behind the common game interface (``sim.api``): its rules hooks on ``GameBase`` and
every capability from its kernels (``sim.games.capabilities``).

FILL IN: the docstrings; drop the mixin of a capability the game cannot offer (and its kernels).
"""

import numpy as np
from bgsim.sim.games._template import render
from bgsim.sim.games._template.decisions import ACTION_FIELDS, DECISION_NAMES
from bgsim.sim.games._template.features import FEATURE_DOCS, FEATURE_NAMES
from bgsim.sim.games._template.kernels import loops
from bgsim.sim.games._template.kernels.setup import new_game
from bgsim.sim.games._template.params import Params
from bgsim.sim.games._template.profile import template_profile
from bgsim.sim.games._template.records import RECORD_DOCS, seat_records
from bgsim.sim.games._template.state import DECISIONS, EVENT_CAP, EVENT_WIDTH, STATE, card_table
from bgsim.sim.games.base import GameBase
from bgsim.sim.games.capabilities import CompiledPlayKernels, DeterminisationKernels, LockstepKernels, SteppingKernels
from bgsim.sim.seeding import GameSeeds

__all__ = ["RULES_VERSION", "TemplateGame"]

RULES_VERSION = "1"


class TemplateGame(SteppingKernels, CompiledPlayKernels, LockstepKernels, DeterminisationKernels, GameBase):
    """FILL IN: title, player counts, who starts. Seat 0 plays first in every round."""

    version = RULES_VERSION
    feature_names = FEATURE_NAMES
    feature_docs = FEATURE_DOCS
    action_fields = ACTION_FIELDS
    decision_names = DECISION_NAMES
    record_docs = RECORD_DOCS
    state_layout = STATE
    decisions_index = DECISIONS
    kernels = loops
    event_capacity = EVENT_CAP
    event_width = EVENT_WIDTH
    renderer = render

    def __init__(self, params: Params | None = None):
        super().__init__(params or Params())
        self.card_table = card_table()
        self.param_array = self.params.to_array()
        # what every rules kernel takes after the state: the component table, then the parameters
        self.rules_args = (self.card_table, self.param_array)

    @property
    def profile(self):
        return template_profile(self)

    def new_state(self, seeds: GameSeeds) -> np.ndarray:
        """A dealt game, (STATE_SIZE,) int32, waiting for seat 0."""
        return new_game(self.card_table, self.param_array, np.uint64(seeds.chance), self._no_log)

    def records(self, states: np.ndarray) -> dict:
        """Result columns of finished games ((G, STATE_SIZE) int32): G * P rows, game-major."""
        return seat_records(states, self.n_players)

    def score_sheet(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Per seat (P,) int64: the score's parts (start included), the total and the rank."""
        f = lambda name: self.field(state, name)[: self.n_players].astype(np.int64)  # noqa: E731
        return {"start": f("start_points"), "cards": f("card_points"), "bonus": f("bonus_points"),
                "total": f("total"), "rank": f("rank")}
