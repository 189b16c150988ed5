"""Sealed Bids behind the common game interface (``sim.api``): its rules hooks on ``GameBase``
and every capability from its kernels (``sim.games.capabilities``)."""

import numpy as np
from bgsim.sim.games.base import GameBase
from bgsim.sim.games.capabilities import CompiledPlayKernels, DeterminisationKernels, LockstepKernels, SteppingKernels
from bgsim.sim.games.sealed_bids import render
from bgsim.sim.games.sealed_bids.decisions import ACTION_FIELDS, DECISION_NAMES, OVER
from bgsim.sim.games.sealed_bids.features import FEATURE_DOCS, FEATURE_NAMES
from bgsim.sim.games.sealed_bids.kernels import loops
from bgsim.sim.games.sealed_bids.kernels.candidates import MAX_ROWS
from bgsim.sim.games.sealed_bids.kernels.setup import new_game
from bgsim.sim.games.sealed_bids.params import Params
from bgsim.sim.games.sealed_bids.profile import sealed_bids_profile
from bgsim.sim.games.sealed_bids.records import seat_records
from bgsim.sim.games.sealed_bids.state import PHASE, ROUND, SEAT, STATE
from bgsim.sim.seeding import GameSeeds

__all__ = ["RULES_VERSION", "SealedBids"]

RULES_VERSION = "1"


class SealedBids(SteppingKernels, CompiledPlayKernels, LockstepKernels, DeterminisationKernels, GameBase):
    """Sealed Bids, 2-4 players; seat 0 bids first in round 1."""

    name = "sealed_bids"
    version = RULES_VERSION
    feature_names = FEATURE_NAMES
    feature_docs = FEATURE_DOCS
    action_fields = ACTION_FIELDS
    decision_names = DECISION_NAMES
    max_rows = MAX_ROWS
    over_kind = OVER
    sealed_decisions = ("bid",)  # bids stay hidden until every seat has bid
    sealed_round_index = ROUND  # the reveal ends the round
    state_layout = STATE
    phase_index = PHASE
    seat_index = SEAT
    kernels = loops
    renderer = render

    def __init__(self, params: Params | None = None):
        super().__init__(params or Params())
        self.param_array = self.params.to_array()
        self.rules_args = (self.param_array,)

    @property
    def profile(self):
        return sealed_bids_profile(self)

    def new_state(self, seeds: GameSeeds) -> np.ndarray:
        """A dealt game, (STATE_SIZE,) int32, waiting for seat 0's bid."""
        return new_game(self.param_array, np.uint64(seeds.chance), self._no_log)

    def records(self, states: np.ndarray) -> dict:
        return seat_records(states, self.n_players)

    def score_sheet(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Per seat (P,) int64: the score's parts (start included), the total and the rank."""
        f = lambda name: self.field(state, name)[: self.n_players].astype(np.int64)  # noqa: E731
        return {"start": f("start_points"), "prizes": f("prize_points"), "leftover": f("leftover_points"),
                "total": f("total"), "rank": f("rank")}
