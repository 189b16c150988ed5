"""Capitol behind the common game interface (``sim.api``): its rules hooks on ``GameBase`` and
every capability from its kernels (``sim.games.capabilities``)."""

import numpy as np
from bgsim.sim.api import CandidateTable
from bgsim.sim.games.base import GameBase
from bgsim.sim.games.capabilities import CompiledPlayKernels, DeterminisationKernels, LockstepKernels, SteppingKernels
from bgsim.sim.games.capitol import render
from bgsim.sim.games.capitol.components import board_table, load_board
from bgsim.sim.games.capitol.decisions import A_OP, ACTION_FIELDS, BID, DECISION_NAMES, OP_ADD
from bgsim.sim.games.capitol.events import EVENT_CAP, EVENT_WIDTH
from bgsim.sim.games.capitol.features import FEATURE_DOCS, FEATURE_NAMES
from bgsim.sim.games.capitol.kernels import loops
from bgsim.sim.games.capitol.kernels.setup import new_game
from bgsim.sim.games.capitol.params import Params, item_points_of
from bgsim.sim.games.capitol.profile import capitol_profile
from bgsim.sim.games.capitol.records import RECORD_DOCS, seat_records
from bgsim.sim.games.capitol.state import AUCTION, AUCTIONS, DECISIONS, STATE, WINNER
from bgsim.sim.seeding import GameSeeds

__all__ = ["Capitol", "RULES_VERSION"]

RULES_VERSION = "2"


class Capitol(SteppingKernels, CompiledPlayKernels, LockstepKernels, DeterminisationKernels, GameBase):
    """Capitol, 2-4 players; the first consul (seat 0 unless ``start_seat`` says otherwise) builds first."""

    version = RULES_VERSION
    feature_names = FEATURE_NAMES
    feature_docs = FEATURE_DOCS
    action_fields = ACTION_FIELDS
    decision_names = DECISION_NAMES
    record_docs = RECORD_DOCS
    sealed_decisions = ("bid",)  # bids stay hidden until every seat has bid
    sealed_round_index = AUCTION  # the reveal ends the auction
    state_layout = STATE
    decisions_index = DECISIONS
    kernels = loops
    event_capacity = EVENT_CAP
    event_width = EVENT_WIDTH
    renderer = render

    def __init__(self, params: Params | None = None):
        super().__init__(params or Params())
        self.board = load_board(self.params.data_dir, self.params.board_file)
        self.board_table = board_table(self.board)
        self.param_array = self.params.to_array()
        self.rules_args = (self.board_table, self.param_array)

    @property
    def profile(self):
        return capitol_profile(self)

    @property
    def data_files(self) -> dict:
        """The board table in use: {"board": {"path", "status", "source", "sha256"}}."""
        return dict(self.board.files)

    def new_state(self, seeds: GameSeeds) -> np.ndarray:
        """A dealt game, (STATE_SIZE,) int32, waiting for the first consul's build turn."""
        return new_game(self.board_table, self.param_array, np.uint64(seeds.chance), self._no_log)

    def records(self, states: np.ndarray) -> dict:
        """Result columns of finished games ((G, STATE_SIZE) int32): G * P rows, game-major."""
        return seat_records(states, self.n_players)

    def score_sheet(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Per seat (P,) int64: the score's parts (start included), the total and the rank; the items'
        own points (CAP-VAR-1) only where the lever is set, so the rulebook game's sheet is unchanged."""
        f = lambda name: self.field(state, name)[: self.n_players].astype(np.int64)  # noqa: E731
        sheet = {"start": f("start_points"), "majorities": f("pts_majority"), "fountains": f("pts_fountain"),
                 "temples": f("pts_temple")}
        if self.pays_items:
            sheet["items"] = f("pts_item")
        return sheet | {"total": f("score"), "rank": f("rank")}

    @property
    def pays_items(self) -> bool:
        """Whether some auction item pays its winner points at once (the item_points lever, CAP-VAR-1)."""
        return any(item_points_of(self.params.item_points))

    # --- component choices (``sim.api.ComponentChoices``, the profile's ``choices``)

    def choice_components(self, state: np.ndarray, table: CandidateTable) -> np.ndarray | None:
        """For a seat's first bid decision of an auction (D2, CAP-AUCTION-3: its stack of ``state``,
        (STATE_SIZE,) int32, still empty), (K, 1) int64: the item id under auction on each row that
        adds a card (it goes for the item), -1 on the stop row (it lets the item go). None for a later
        bid decision of the same auction and for any other table."""
        if table.kind != BID or self.field(state, "bid_n")[table.seat] != 0:
            return None
        item = int(self.field(state, "auction")[0])
        goes = table.actions[:, A_OP] == OP_ADD
        return np.where(goes, item, -1).astype(np.int64).reshape(-1, 1)

    def payout(self, component: int) -> int:
        """Points auction item ``component`` pays its winner at once (``item_points``, CAP-VAR-1)."""
        return int(item_points_of(self.params.item_points)[self._item_id(component)])

    def with_payout(self, component: int, value: int) -> "Capitol":
        """The same game except that auction item ``component`` pays its winner ``value`` points at once
        (a value ``item_points`` refuses raises its GameIdError). A new game from the changed
        parameters: its ``rollout_outcomes`` read its own parameter array."""
        points = list(item_points_of(self.params.item_points))
        points[self._item_id(component)] = value
        return self.with_params(item_points=points)

    def game_measures(self, states: np.ndarray) -> dict[str, np.ndarray]:
        """Per finished game ((G, S) int32 states): the auction items nobody won (removed unsold,
        CAP-AUCTION-6/-7, AMB-5, AMB-17), (G,) float64."""
        return {"unsold_items": (states[:, WINNER: WINNER + AUCTIONS] == -1).sum(axis=1).astype(np.float64)}

    def dealt_components(self, states: np.ndarray) -> np.ndarray:
        """(G, 12) bool: the auction items on the track of each dealt state ((G, S) int32): every item
        (CAP-SETUP-9) but one taken off by ``ablate``."""
        return states[:, WINNER: WINNER + AUCTIONS] != -1

    def ablate(self, states: np.ndarray, component: int, picks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Copies of ``states`` ((G, S) int32, dealt) with auction item ``component`` taken off the
        track: its auction is skipped, as if it had left the game unheld (its winner set to -1 now).
        Nothing takes its place, so the replacements are all -1 and ``picks`` is not needed."""
        out = states.copy()
        out[:, WINNER + self._item_id(component)] = -1
        return out, np.full(len(states), -1, dtype=np.int64)

    @staticmethod
    def _item_id(component: int) -> int:
        if not 0 <= component < AUCTIONS:
            raise ValueError(f"capitol has auction item ids 0..{AUCTIONS - 1}, not {component}")
        return int(component)
