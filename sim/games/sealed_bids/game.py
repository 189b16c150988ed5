"""Sealed Bids behind the common game interface (``sim.api``): its rules hooks on ``GameBase``,
every capability from its kernels (``sim.games.capabilities``) and the component-choice hooks
(``sim.api.ComponentChoices``) of the winner's take (SB-OFFER-1, SB-OFFER-2)."""

import numpy as np
from bgsim.sim.api import CandidateTable
from bgsim.sim.games.base import GameBase
from bgsim.sim.games.capabilities import CompiledPlayKernels, DeterminisationKernels, LockstepKernels, SteppingKernels
from bgsim.sim.games.sealed_bids import render
from bgsim.sim.games.sealed_bids.decisions import A_VALUE, ACTION_FIELDS, DECISION_NAMES, TAKE
from bgsim.sim.games.sealed_bids.features import FEATURE_DOCS, FEATURE_NAMES
from bgsim.sim.games.sealed_bids.kernels import loops
from bgsim.sim.games.sealed_bids.kernels.setup import new_game
from bgsim.sim.games.sealed_bids.params import Params, offer_size, points_of
from bgsim.sim.games.sealed_bids.profile import sealed_bids_profile
from bgsim.sim.games.sealed_bids.records import seat_records
from bgsim.sim.games.sealed_bids.state import ROUND, ROUNDS, STATE
from bgsim.sim.seeding import GameSeeds

__all__ = ["RULES_VERSION", "SealedBids"]

RULES_VERSION = "1"


class SealedBids(SteppingKernels, CompiledPlayKernels, LockstepKernels, DeterminisationKernels, GameBase):
    """Sealed Bids, 2-4 players; seat 0 bids first in round 1."""

    version = RULES_VERSION
    feature_names = FEATURE_NAMES
    feature_docs = FEATURE_DOCS
    action_fields = ACTION_FIELDS
    decision_names = DECISION_NAMES
    sealed_decisions = ("bid",)  # bids stay hidden until every seat has bid
    # The round counter moves on when the bids are revealed (pair, triple: after the winner's take,
    # which every seat sees, SB-OFFER-1, SB-OFFER-2).
    sealed_round_index = ROUND
    state_layout = STATE
    kernels = loops
    renderer = render

    def __init__(self, params: Params | None = None):
        super().__init__(params or Params())
        self.param_array = self.params.to_array()
        self.rules_args = (self.param_array,)
        # (10,) or, in triple, (15,) int64: the points of every prize id prize_points lists
        self.prize_points = np.array(points_of(self.params.prize_points, self.params.prize_offer), dtype=np.int64)

    @property
    def profile(self):
        return sealed_bids_profile(self)

    def new_state(self, seeds: GameSeeds) -> np.ndarray:
        """A dealt game, (STATE_SIZE,) int32, waiting for seat 0's bid."""
        return new_game(self.param_array, np.uint64(seeds.chance), self._no_log)

    def records(self, states: np.ndarray) -> dict:
        revealed = ROUNDS * offer_size(self.params.prize_offer)  # SB-ROUND-1, SB-OFFER-1, SB-OFFER-2
        return seat_records(states, self.n_players, self.prize_points, revealed)

    def score_sheet(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Per seat (P,) int64: the score's parts (start included), the total and the rank."""
        f = lambda name: self.field(state, name)[: self.n_players].astype(np.int64)  # noqa: E731
        return {"start": f("start_points"), "prizes": f("prize_points"), "leftover": f("leftover_points"),
                "total": f("total"), "rank": f("rank")}

    # --- component choices (sim.api.ComponentChoices): the winner's take, SB-OFFER-1, SB-OFFER-2

    def choice_components(self, state: np.ndarray, table: CandidateTable) -> np.ndarray | None:
        """For a take table of ``state`` ((STATE_SIZE,) int32), (K, 1) int64: the prize id each row
        takes; None for any other table (a bid takes no component)."""
        del state  # the take rows name their prize
        if table.kind != TAKE:
            return None
        return table.actions[:, A_VALUE].astype(np.int64).reshape(-1, 1)

    def payout(self, component: int) -> int:
        """Points of prize id ``component`` under this game's ``prize_points``."""
        return int(self.prize_points[self._prize_id(component)])

    def with_payout(self, component: int, value: int) -> "SealedBids":
        """The same game except that prize id ``component`` is worth ``value`` points (a value the
        ``prize_points`` parameter refuses raises its GameIdError)."""
        points = self.prize_points.tolist()
        points[self._prize_id(component)] = value
        return self.with_params(prize_points="/".join(str(v) for v in points))

    def _prize_id(self, component: int) -> int:
        """``component`` if ``prize_points`` lists it (0..9, or 0..14 in triple), else a ValueError."""
        count = len(self.prize_points)
        if not 0 <= component < count:
            raise ValueError(f"sealed_bids({self.params.prize_offer}) has prize ids 0..{count - 1}, not {component}")
        return int(component)
