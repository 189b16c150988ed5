"""Die Baumeister von Arkadia behind the common game interface (``sim.api``): its rules hooks on
``GameBase`` and every capability from its kernels (``sim.games.capabilities``)."""

import numpy as np
from bgsim.sim.games.arkadia import render
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.decisions import ACTION_FIELDS, DECISION_NAMES, OVER
from bgsim.sim.games.arkadia.events import EVENT_CAP, EVENT_WIDTH
from bgsim.sim.games.arkadia.features import FEATURE_DOCS, FEATURE_NAMES
from bgsim.sim.games.arkadia.kernels import loops
from bgsim.sim.games.arkadia.kernels.candidates import MAX_ROWS
from bgsim.sim.games.arkadia.kernels.castle import seal_value
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.profile import arkadia_profile
from bgsim.sim.games.arkadia.records import RECORD_DOCS, seat_records
from bgsim.sim.games.arkadia.state import DECISIONS, N_FIELDS, PHASE, SEAT, STATE, T_FIELD_PRINT, T_PLACE_FIRST
from bgsim.sim.games.arkadia.tables import component_table
from bgsim.sim.games.base import GameBase
from bgsim.sim.games.capabilities import CompiledPlayKernels, DeterminisationKernels, LockstepKernels, SteppingKernels
from bgsim.sim.seeding import GameSeeds

__all__ = ["Arkadia", "RULES_VERSION"]

RULES_VERSION = "1"


class Arkadia(SteppingKernels, CompiledPlayKernels, LockstepKernels, DeterminisationKernels, GameBase):
    """Die Baumeister von Arkadia, 2-4 players; the start player (seat 0 unless ``start_seat`` says
    otherwise) moves first."""

    name = "arkadia"
    version = RULES_VERSION
    feature_names = FEATURE_NAMES
    feature_docs = FEATURE_DOCS
    action_fields = ACTION_FIELDS
    decision_names = DECISION_NAMES
    record_docs = RECORD_DOCS
    max_rows = MAX_ROWS
    over_kind = OVER
    state_layout = STATE
    phase_index = PHASE
    seat_index = SEAT
    decisions_index = DECISIONS
    kernels = loops
    event_capacity = EVENT_CAP
    event_width = EVENT_WIDTH
    renderer = render

    def __init__(self, params: Params | None = None):
        super().__init__(params or Params())
        self.components = load_components(self.params.data_dir, self.params.components_file)
        self.table = component_table(self.components)
        self.place_first = self.table[T_PLACE_FIRST:T_PLACE_FIRST + len(self.components.shapes) + 1].copy()
        self.param_array = self.params.to_array()
        self.rules_args = (self.table, self.param_array)

    @property
    def profile(self):
        return arkadia_profile(self)

    @property
    def data_files(self) -> dict:
        """The component data in use: {"components": {"path", "status", "source", "sha256"}}."""
        return dict(self.components.files)

    def new_state(self, seeds: GameSeeds) -> np.ndarray:
        """A dealt game, (STATE_SIZE,) int32, waiting for the start player."""
        return new_game(self.table, self.param_array, np.uint64(seeds.chance), self._no_log)

    def records(self, states: np.ndarray) -> dict:
        """Result columns of finished games ((G, STATE_SIZE) int32): G * P rows, game-major."""
        field_print = self.table[T_FIELD_PRINT:T_FIELD_PRINT + N_FIELDS]
        return seat_records(states, self.n_players, self.place_first, field_print)

    def seal_value(self, state: np.ndarray, family: int) -> int:
        """The castle's value of a seal of ``family`` (ARK-CASTLE-7)."""
        return int(seal_value(state, self.table, family))

    def score_sheet(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Per seat (P,) int64: start gold, gold from cashings, the total and the rank."""
        f = lambda name: self.field(state, name)[: self.n_players].astype(np.int64)  # noqa: E731
        start = f("start_gold")
        return {"start": start, "cashed": f("total") - start, "total": f("total"), "rank": f("rank")}
