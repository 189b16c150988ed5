"""Die Baumeister von Arkadia behind the common game interface (``sim.api``): its rules hooks on
``GameBase`` and every capability from its kernels (``sim.games.capabilities``)."""

import numpy as np
from bgsim.sim.api import CandidateTable, Observation
from bgsim.sim.games.arkadia import render
from bgsim.sim.games.arkadia.components import FAMILIES, SHAPES, load_components
from bgsim.sim.games.arkadia.decisions import A_SLOT, ACTION_FIELDS, DECISION_NAMES, REFILL
from bgsim.sim.games.arkadia.events import EVENT_CAP, EVENT_WIDTH
from bgsim.sim.games.arkadia.features import FEATURE_DOCS, FEATURE_NAMES
from bgsim.sim.games.arkadia.kernels import loops
from bgsim.sim.games.arkadia.kernels.castle import seal_value
from bgsim.sim.games.arkadia.kernels.search import hide_screens
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params, building_points_of
from bgsim.sim.games.arkadia.profile import arkadia_profile
from bgsim.sim.games.arkadia.records import RECORD_DOCS, seat_records
from bgsim.sim.games.arkadia.state import (
    DECISIONS,
    MAX_CARDS,
    N_FIELDS,
    STATE,
    T_CARD,
    T_FIELD_PRINT,
    T_PLACE_FIRST,
)
from bgsim.sim.games.arkadia.tables import component_table
from bgsim.sim.games.base import GameBase
from bgsim.sim.games.capabilities import CompiledPlayKernels, DeterminisationKernels, LockstepKernels, SteppingKernels
from bgsim.sim.seeding import GameSeeds

__all__ = ["Arkadia", "RULES_VERSION"]

RULES_VERSION = "2"  # 2: one BUILD row per distinct card in hand; the chosen castle site is a setup step


class Arkadia(SteppingKernels, CompiledPlayKernels, LockstepKernels, DeterminisationKernels, GameBase):
    """Die Baumeister von Arkadia, 2-4 players; the start player (seat 0 unless ``start_seat`` says
    otherwise) moves first."""

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
        self.components = load_components(self.params.data_dir, self.params.components_file,
                                          intro_setup=self.params.intro_setup)
        self.table = component_table(self.components)
        self.place_first = self.table[T_PLACE_FIRST:T_PLACE_FIRST + len(self.components.shapes) + 1].copy()
        self.card_shape = self.table[T_CARD:T_CARD + 2 * MAX_CARDS:2].astype(np.int64)  # (MAX_CARDS,) shape per card
        self.param_array = self.params.to_array()
        self.rules_args = (self.table, self.param_array)
        self.hidden_screens = self.params.screen_view == "hidden"  # AMB-12: what the views show

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

    def observe(self, state: np.ndarray, seat: int) -> Observation:
        """What ``seat`` may see (``kernels/search.py``); under ``screen_view = hidden`` without the other
        seats' screens and gold (AMB-12), which ``determinise`` then deals as well."""
        observation = super().observe(state, seat)
        if self.hidden_screens:
            hide_screens(observation.view, seat)
        return observation

    def records(self, states: np.ndarray) -> dict:
        """Result columns of finished games ((G, STATE_SIZE) int32): G * P rows, game-major."""
        field_print = self.table[T_FIELD_PRINT:T_FIELD_PRINT + N_FIELDS]
        return seat_records(states, self.n_players, self.place_first, field_print)

    def seal_value(self, state: np.ndarray, family: int) -> int:
        """The castle's value of a seal of ``family`` (ARK-CASTLE-7)."""
        return int(seal_value(state, self.table, family))

    def score_sheet(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Per seat (P,) int64: start gold, gold from cashings, the total and the rank; the buildings'
        own gold (ARK-VAR-1) only where the lever is set, so the rulebook game's sheet is unchanged."""
        f = lambda name: self.field(state, name)[: self.n_players].astype(np.int64)  # noqa: E731
        start, buildings = f("start_gold"), f("gold_buildings")
        sheet = {"start": start, "cashed": f("total") - start - buildings}
        if self.pays_buildings:
            sheet["buildings"] = buildings
        return sheet | {"total": f("total"), "rank": f("rank")}

    @property
    def pays_buildings(self) -> bool:
        """Whether some shape pays its placer gold at once (the building_points lever, ARK-VAR-1)."""
        return any(building_points_of(self.params.building_points))

    # --- component choices (``sim.api.ComponentChoices``, the profile's ``choices``)

    def choice_components(self, state: np.ndarray, table: CandidateTable) -> np.ndarray | None:
        """For a refill table with a display card (D3, ARK-PLACE-8), (K, 1) int64: the shape
        (components 0..6) of the building card each display row takes, the building the seat will
        place with it (ARK-PLACE-1); -1 on the deck row (its card is hidden when the seat decides).
        None for a refill table without a display card and for any other table (part 1 places a card
        already in hand, placed sooner or later whichever part 1 is chosen, so a payout at placement
        would mostly move its time). ``state``: (STATE_SIZE,) int32, only its display is read."""
        if table.kind != REFILL:
            return None
        slots = table.actions[:, A_SLOT]
        shown = slots >= 0
        if not shown.any():
            return None
        cards = self.field(state, "display")[np.where(shown, slots, 0)]
        return np.where(shown, self.card_shape[cards], -1).astype(np.int64).reshape(-1, 1)

    def payout(self, component: int) -> int:
        """Gold a building of shape ``component`` (0..6) pays its placer at once (``building_points``,
        ARK-VAR-1); a seal family (7..10) pays nothing at once under the lever: 0."""
        if len(SHAPES) <= component < len(SHAPES) + len(FAMILIES):
            return 0
        return int(building_points_of(self.params.building_points)[self._shape(component)])

    def with_payout(self, component: int, value: int) -> "Arkadia":
        """The same game except that a building of shape ``component`` pays its placer ``value`` gold at
        once (a value ``building_points`` refuses raises its GameIdError; a seal family, which no row
        takes, a ValueError). A new game from the changed parameters: its ``rollout_outcomes`` read its
        own parameter array."""
        points = list(building_points_of(self.params.building_points))
        points[self._shape(component)] = value
        return self.with_params(building_points=points)

    @staticmethod
    def _shape(component: int) -> int:
        if not 0 <= component < len(SHAPES):
            raise ValueError(f"arkadia's building_points pays building shapes 0..{len(SHAPES) - 1}, not component "
                             f"{component}")
        return int(component)
