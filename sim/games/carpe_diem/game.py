"""Carpe Diem behind the common game interface (``sim.api.Game``): its rules hooks on
``sim.games.base.GameBase`` and every capability from its kernels (``sim.games.capabilities``)."""

from pathlib import Path

import numpy as np
from bgsim.sim.games.base import GameBase
from bgsim.sim.games.capabilities import CompiledPlayKernels, DeterminisationKernels, LockstepKernels, SteppingKernels
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import render
from bgsim.sim.games.carpe_diem.anna_data import load_anna
from bgsim.sim.games.carpe_diem.components import DATA_DIR, load_components
from bgsim.sim.games.carpe_diem.decisions import A_SPACE, ACTION_FIELDS, DECISION_NAMES, DISC
from bgsim.sim.games.carpe_diem.events import EVENT_CAP, EVENT_WIDTH
from bgsim.sim.games.carpe_diem.features import FEATURE_DOCS, FEATURE_NAMES
from bgsim.sim.games.carpe_diem.kernels import loops
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B, new_game
from bgsim.sim.games.carpe_diem.params import Params
from bgsim.sim.games.carpe_diem.profile import carpe_diem_profile
from bgsim.sim.games.carpe_diem.records import RECORD_DOCS, seat_records
from bgsim.sim.games.carpe_diem.state import DECISIONS, PENALTIES, SLOT_CARD, STATE
from bgsim.sim.games.carpe_diem.tables import TABLES, build_tables
from bgsim.sim.seeding import GameSeeds

__all__ = ["CarpeDiem", "RULES_VERSION", "SCORE_CATEGORIES"]

RULES_VERSION = "1"
SCORE_CATEGORIES = ("start", "cards", "villas", "leftovers", "banner", "fountain_cards", "frame_tasks")


class CarpeDiem(SteppingKernels, CompiledPlayKernels, LockstepKernels, DeterminisationKernels, GameBase):
    """Carpe Diem, 2nd-edition rules, 2-4 players, or solo against the automa Anna (n_players=1:
    the human in seat 0, Anna in seat 1). Seat 0 is the start player of pass 1."""

    version = RULES_VERSION
    feature_names = FEATURE_NAMES
    feature_docs = FEATURE_DOCS  # one line per feature, for `bgsim features`
    action_fields = ACTION_FIELDS
    decision_names = DECISION_NAMES
    record_docs = RECORD_DOCS  # the per-(game, seat) result columns, see ``records``
    sealed_decisions = ("fountain",)  # D07: the card put under the deck stays hidden (CD-INFO)
    state_layout = STATE  # gives state_size, the int32 entries of one state
    decisions_index = DECISIONS
    kernels = loops
    event_capacity = EVENT_CAP
    event_width = EVENT_WIDTH
    renderer = render

    def __init__(self, params: Params | None = None):
        super().__init__(params or Params())
        self.components = load_components(self.params.data_dir, self.params.data_files())
        self.solo = self.params.solo
        self.anna = load_anna(self._anna_path()) if self.solo else None  # CD-ANNA-2
        self.tables = build_tables(self.components, self.params, self.anna)
        self.param_array = self.params.to_array()
        self.empty_slots = np.array(self._empty_slots(), dtype=np.int64)
        self.rules_args = (self.tables, self.param_array)

    @property
    def profile(self):
        """What studies and reports may know about this game (``sim.profile.GameProfile``)."""
        return carpe_diem_profile(self)

    @property
    def data_files(self) -> dict:
        """Data file name -> {"path", "status", "source", "sha256"} of the component data in use,
        and Anna's cards in a solo game (``anna_file``)."""
        files = dict(self.components.files)
        if self.anna is not None:
            files["anna"] = {"path": str(self._anna_path()),
                             "status": self.anna.status, "source": self.anna.source, "sha256": self.anna.sha256}
        return files

    # --- rules hooks (``GameBase``)

    @property
    def deal_args(self) -> tuple:
        """Dealing also needs the board's empty slots (CD-SETUP)."""
        return (self.tables, self.param_array, self.empty_slots)

    def new_state(self, seeds: GameSeeds) -> np.ndarray:
        """A dealt game, (STATE_SIZE,) int32, waiting for seat 0's patrician (D01)."""
        return new_game(self.tables, self.param_array, np.uint64(seeds.chance), self.empty_slots)

    # ``observe`` (CD-INFO) is kernels/search.py's: a copy of the state with the stock order, the
    # unrevealed depot, the fountain deck and hands, an opponent's fresh draw and Anna's dice canonical.

    # --- results

    def records(self, states: np.ndarray) -> dict:
        """Result columns of finished games ((G, STATE_SIZE) int32): G * P rows, game-major."""
        return seat_records(states, self.n_players, self.params.tie_stack_order == "upper_is_back", self.solo)

    def score_sheet(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Per seat (P,) int arrays: every category of the final score, the total and the rank.
        Solo: two columns, the human and Anna (CD-ANNA-22), with Anna's majorities."""
        n = 2 if self.solo else self.n_players
        f = lambda name: self.field(state, name)[:n].astype(np.int64)  # noqa: E731
        sheet = {
            "start": f("vp_start"),
            "cards": f("vp_cards"),
            "villas": f("final_villas"),
            "leftovers": f("final_leftovers"),
            "banner": f("final_banner") + f("vp_overflow"),
            "fountain_cards": f("final_fountain"),
            "frame_tasks": f("final_frames"),
        }
        if self.solo:
            sheet["majorities"] = np.array([0, int(self.field(state, "anna_final_majority")[0])], dtype=np.int64)
        sheet["total"] = f("final_total")
        sheet["rank"] = f("rank")
        return sheet

    # --- component choices (``sim.api.ComponentChoices``, the profile's ``choices``)

    def choice_components(self, state: np.ndarray, table) -> np.ndarray | None:
        """A disc placement (D08) takes the two scoring cards on the slots beside its space
        (CD-SCORING-4): (K, 2) int64 card indices per row; None for any other table."""
        if table.kind != DISC:
            return None
        spaces = table.actions[:, A_SPACE]
        cards = self.field(state, "slot_card")
        return np.stack([cards[DISC_SLOT_A[spaces]], cards[DISC_SLOT_B[spaces]]], axis=1).astype(np.int64)

    def payout(self, component: int) -> int:
        """VP that scoring card ``component`` pays per fulfilment (CD-CARD-8)."""
        return int(TABLES.view(self.tables, "card_pay")[component, K.PAY_VP])

    def with_payout(self, component: int, value: int) -> "CarpeDiem":
        """The same game with scoring card ``component`` paying ``value`` VP per fulfilment (its other
        payouts unchanged)."""
        tables = self.tables.copy()
        TABLES.view(tables, "card_pay")[component, K.PAY_VP] = value
        game = self.rebound(tables, self.param_array)
        game.tables = tables
        return game

    def game_measures(self, states: np.ndarray) -> dict[str, np.ndarray]:
        """Per finished game ((G, S) int32 states): the -4 VP penalties every seat took together
        (G,) float64."""
        return {"penalties": states[:, PENALTIES: PENALTIES + K.MAX_P].sum(axis=1).astype(np.float64)}

    def dealt_components(self, states: np.ndarray) -> np.ndarray:
        """(G, cards) bool: the scoring cards dealt onto the slots of each state ((G, S) int32)."""
        slots = states[:, SLOT_CARD: SLOT_CARD + K.N_SLOTS]
        dealt = np.zeros((len(states), len(self.components.scoring_cards)), dtype=bool)
        rows, cols = np.nonzero(slots >= 0)
        dealt[rows, slots[rows, cols]] = True
        return dealt

    def ablate(self, states: np.ndarray, component: int, picks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Copies of ``states`` ((G, S) int32, each with scoring card ``component`` on a slot) with
        another card of its deck on that slot: of the deck's cards not dealt in that game, the one
        at ``picks`` ((G,) float64 in [0, 1)) along them. Returns the states and (G,) int64 cards."""
        deck = TABLES.view(self.tables, "card_deck")[component]
        first = TABLES.view(self.tables, "deck_first")[deck]
        pile = np.arange(first, first + TABLES.view(self.tables, "deck_size")[deck])
        out = states.copy()
        dealt = self.dealt_components(states)
        replacements = np.empty(len(states), dtype=np.int64)
        for g, state in enumerate(out):
            free = pile[~dealt[g, pile]]
            if component not in state[SLOT_CARD: SLOT_CARD + K.N_SLOTS] or not len(free):
                raise ValueError(f"deal {g} does not hold card {component}, or its deck has no card left for it")
            replacements[g] = free[int(picks[g] * len(free))]
            slot = SLOT_CARD + int(np.flatnonzero(state[SLOT_CARD: SLOT_CARD + K.N_SLOTS] == component)[0])
            state[slot] = replacements[g]
        return out, replacements

    def _anna_path(self) -> Path:
        """Anna's file: ``anna_file``, else ``anna.toml`` in ``data_dir``, else the package's."""
        if self.params.anna_file:
            return Path(self.params.anna_file)
        if self.params.data_dir and (Path(self.params.data_dir) / "anna.toml").exists():
            return Path(self.params.data_dir) / "anna.toml"
        return DATA_DIR / "anna.toml"

    def _empty_slots(self) -> tuple[int, ...]:
        if self.solo:
            return K.SOLO_EMPTY_SLOTS
        if self.n_players == 3 and self.params.three_player_empty_corners == "top_right_bottom_left":
            return K.EMPTY_SLOTS_3P_OTHER_DIAGONAL
        return K.EMPTY_SLOTS[self.n_players]

