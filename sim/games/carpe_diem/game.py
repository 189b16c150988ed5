"""Carpe Diem behind the common game interface (``sim.api.Game``): its rules hooks and
capabilities on top of ``sim.games.base.GameBase``."""

import numpy as np
from bgsim.sim.api import CompiledPolicy, Observation
from bgsim.sim.games.base import GameBase
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import render
from bgsim.sim.games.carpe_diem.anna_data import load_anna
from bgsim.sim.games.carpe_diem.components import DATA_DIR, load_components
from bgsim.sim.games.carpe_diem.decisions import ACTION_FIELDS, DECISION_NAMES, N_ACTION_FIELDS, OVER
from bgsim.sim.games.carpe_diem.events import new_log
from bgsim.sim.games.carpe_diem.features import FEATURE_DOCS, FEATURE_NAMES, N_FEATURES
from bgsim.sim.games.carpe_diem.kernels import batch, search
from bgsim.sim.games.carpe_diem.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.carpe_diem.kernels.flow import apply_action
from bgsim.sim.games.carpe_diem.kernels.play import play_to_end
from bgsim.sim.games.carpe_diem.kernels.setup import new_game
from bgsim.sim.games.carpe_diem.params import Params
from bgsim.sim.games.carpe_diem.profile import carpe_diem_profile
from bgsim.sim.games.carpe_diem.records import RECORD_DOCS, seat_records
from bgsim.sim.games.carpe_diem.state import DECISIONS, PHASE, SEAT, STATE
from bgsim.sim.games.carpe_diem.tables import build_tables
from bgsim.sim.seeding import GameSeeds

__all__ = ["CarpeDiem", "RULES_VERSION", "SCORE_CATEGORIES"]

RULES_VERSION = "1"
SCORE_CATEGORIES = ("start", "cards", "villas", "leftovers", "banner", "fountain_cards", "frame_tasks")


class CarpeDiem(GameBase):
    """Carpe Diem, 2nd-edition rules, 2-4 players, or solo against the automa Anna (n_players=1:
    the human in seat 0, Anna in seat 1). Seat 0 is the start player of pass 1."""

    name = "carpe_diem"
    version = RULES_VERSION
    feature_names = FEATURE_NAMES
    feature_docs = FEATURE_DOCS  # one line per feature, for `bgsim features`
    action_fields = ACTION_FIELDS
    decision_names = DECISION_NAMES
    record_docs = RECORD_DOCS  # the per-(game, seat) result columns, see ``records``
    max_rows = MAX_ROWS  # most rows one candidate table can have
    state_size = STATE.size  # int32 entries of one state
    over_kind = OVER

    def __init__(self, params: Params | None = None):
        super().__init__(params or Params())
        self.components = load_components(self.params.data_dir, self.params.data_files())
        self.solo = self.params.solo
        self.anna = load_anna(self.params.anna_file) if self.solo else None  # CD-ANNA-2
        self.tables = build_tables(self.components, self.params, self.anna)
        self.param_array = self.params.to_array()
        self.empty_slots = np.array(self._empty_slots(), dtype=np.int64)
        self._no_log = new_log(enabled=False)
        # rollouts get their own buffers: the pending table's arrays view the base's
        self._search_feats = np.empty((MAX_ROWS, N_FEATURES), dtype=np.int32)
        self._search_acts = np.empty((MAX_ROWS, N_ACTION_FIELDS), dtype=np.int32)

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
            files["anna"] = {"path": str(self.params.anna_file or DATA_DIR / "anna.toml"),
                             "status": self.anna.status, "source": self.anna.source, "sha256": self.anna.sha256}
        return files

    # --- rules hooks (``GameBase``)

    def new_state(self, seeds: GameSeeds) -> np.ndarray:
        """A dealt game, (STATE_SIZE,) int32, waiting for seat 0's patrician (D01)."""
        return new_game(self.tables, self.param_array, np.uint64(seeds.chance), self.empty_slots)

    def new_log(self) -> np.ndarray:
        """An empty event log for ``apply``/``play_compiled`` (see ``events.py``)."""
        return new_log()

    def _kind(self, state: np.ndarray) -> int:
        return int(state[PHASE])

    def _seat(self, state: np.ndarray) -> int:
        return int(state[SEAT])

    def _decision_index(self, state: np.ndarray) -> int:
        return int(state[DECISIONS])

    def _candidates(self, state: np.ndarray, feats: np.ndarray, acts: np.ndarray) -> int:
        return candidates(state, self.tables, self.param_array, feats, acts)

    def _apply(self, state: np.ndarray, action: np.ndarray, log: np.ndarray | None) -> None:
        apply_action(state, self.tables, self.param_array, action, self._no_log if log is None else log)

    def observe(self, state: np.ndarray, seat: int) -> Observation:
        """What ``seat`` may see (CD-INFO): a copy of ``state`` with the hidden parts in a canonical
        arrangement (``kernels.search.observe``)."""
        view = np.empty_like(state)
        search.observe(state, seat, view)
        return Observation(seat, view)

    # --- capability: stepping

    def step(self, state: np.ndarray, row: int, log: np.ndarray | None = None):
        """Apply row ``row`` of the table that ``decision`` or ``step`` last returned for ``state``
        and return the next table: the per-decision loop in one compiled call per decision."""
        n = batch.apply_row_and_decide(state, self.tables, self.param_array, row, self._feats, self._acts,
                                       self._no_log if log is None else log)
        return self._table(state, n)

    # --- capability: compiled play

    def play_compiled(self, state: np.ndarray, policies: list[CompiledPolicy], streams: np.ndarray,
                      log: np.ndarray | None = None) -> None:
        """Play to the end with compiled policies, one per seat; ``streams`` (P,) uint64 in place."""
        kinds, weights = self.policy_arrays(policies)
        play_to_end(state, self.tables, self.param_array, kinds, weights, streams, self._feats, self._acts,
                    self._no_log if log is None else log)

    def play_states(self, chance: np.ndarray, streams: np.ndarray, seat_strategy: np.ndarray,
                    policies: list[CompiledPolicy], out: np.ndarray | None = None) -> np.ndarray:
        """Deal and play one game per chance seed ((G,) uint64) in the compiled loop.

        ``streams`` (G, P) uint64 seat streams, advanced in place; ``seat_strategy`` (G, P) int64
        index into ``policies``. Returns the final states, (G, STATE_SIZE) int32: ``out[:G]`` if
        given (reusing one buffer spares the kernel zero-filling fresh pages for every batch).
        """
        kinds, weights = self.policy_arrays(policies)
        states = np.empty((len(chance), STATE.size), dtype=np.int32) if out is None else out[: len(chance)]
        batch.play_into_states(self.tables, self.param_array, self.empty_slots, np.asarray(chance, np.uint64),
                               streams, np.asarray(seat_strategy, np.int64), kinds, weights, self._feats,
                               self._acts, self._no_log, states)
        return states

    # --- capability: determinisation (search players, ``strategies.search``)

    def determinise(self, observation: Observation, rng: np.ndarray) -> np.ndarray:
        """A full state consistent with ``observation``: what its seat cannot see arranged at random
        (``kernels.search.determinise``); ``rng`` (1,) uint64 stream, advanced."""
        state = observation.view.copy()
        search.determinise(state, observation.seat, rng)
        return state

    def rollout_values(self, observation: Observation, actions: np.ndarray, determinisations: int,
                       rng: np.ndarray, policies: list[CompiledPolicy], margin_scale: float = 100.0) -> np.ndarray:
        """Mean outcome for the observing seat of each action ((K, A) int32, legal now), (K,) float64:
        every action played to the end on the same ``determinisations`` of the hidden information,
        all seats by ``policies`` (one per seat). Outcome: 1 for a win, plus the VP margin over the
        best opponent / ``margin_scale``. ``rng`` (1,) uint64 stream, advanced."""
        kinds, weights = self.policy_arrays(policies)
        values = np.empty(len(actions), dtype=np.float64)
        search.rollout_values(observation.view, self.tables, self.param_array, observation.seat,
                              np.ascontiguousarray(actions, np.int32), determinisations, rng, kinds, weights,
                              float(margin_scale), self._search_feats, self._search_acts, self._no_log, values)
        return values

    # --- capability: lockstep batches (the vectorised tier, ``sim.batch``)

    def deal_states(self, chance: np.ndarray) -> np.ndarray:
        """One dealt game per chance seed ((G,) uint64): (G, STATE_SIZE) int32."""
        states = np.empty((len(chance), STATE.size), dtype=np.int32)
        batch.deal_states(self.tables, self.param_array, self.empty_slots, np.asarray(chance, np.uint64), states)
        return states

    def pending_seats(self, states: np.ndarray) -> np.ndarray:
        """Seat to decide in each state ((G, STATE_SIZE) int32), (G,) int32; -1 once over."""
        return np.where(states[:, PHASE] == OVER, -1, states[:, SEAT])

    def stack_tables(self, states, games, feats, acts, offsets) -> int:
        """Stack the tables of ``states[games]`` (see ``kernels.batch.stack_tables``)."""
        return batch.stack_tables(states, games, self.tables, self.param_array, feats, acts, offsets)

    def apply_best_rows(self, states, games, acts, offsets, values) -> None:
        """Apply each stacked table's first best row by ``values`` (see ``kernels.batch``)."""
        batch.apply_best_rows(states, games, self.tables, self.param_array, acts, offsets, values, self._no_log)

    # --- results and traces

    def trace_text(self, state, log, seeds: GameSeeds, strategy_ids, summary: bool = False) -> str:
        """The readable trace of a played game (``log`` from ``new_log``)."""
        return render.trace_text(self, state, log, seeds, strategy_ids, summary=summary)

    def trace_json(self, state, log, seeds: GameSeeds, strategy_ids) -> dict:
        """The played game as JSON-ready events and a score sheet."""
        return render.trace_json(self, state, log, seeds, strategy_ids)

    def records(self, states: np.ndarray) -> dict:
        """Result columns of finished games ((G, STATE_SIZE) int32): G * P rows, game-major."""
        return seat_records(states, self.n_players, self.params.tie_stack_order == "upper_is_back", self.solo)

    def field(self, state: np.ndarray, name: str) -> np.ndarray:
        """A named state field with its declared shape (see ``state.py``)."""
        return STATE.view(state, name)

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

    def _empty_slots(self) -> tuple[int, ...]:
        if self.solo:
            return K.SOLO_EMPTY_SLOTS
        if self.n_players == 3 and self.params.three_player_empty_corners == "top_right_bottom_left":
            return K.EMPTY_SLOTS_3P_OTHER_DIAGONAL
        return K.EMPTY_SLOTS[self.n_players]

