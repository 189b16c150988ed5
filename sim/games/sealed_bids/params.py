"""Sealed Bids parameters: player count, the start-points vector (the compensation parameter)
and the one rules ambiguity (SB-TIE-1). ``Params.from_dict`` raises one-line GameIdErrors;
``to_array`` gives the (N_PARAMS,) int32 array the kernels read."""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.parameters import GameParams, check_start_text, start_vector

__all__ = ["N_PARAMS", "PARAM_DOCS", "Params", "START_POINTS"]

# Indices into the compiled parameter array.
PR_N_PLAYERS = 0
PR_BID_TIE = 1  # SB-TIE-1: 0 first_bidder, 1 discard
PR_START = 2  # 4 entries: start points by seat (SB-SETUP-3)
N_PARAMS = 6

BID_TIES = ("first_bidder", "discard")
START_POINTS = {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # SB-SETUP-3, by player count

PARAM_DOCS = {
    "n_players": "player count 2..4 (seat 0 bids first in round 1, SB-BID-1)",
    "start_points": "SB-SETUP-3 start points by seat: rulebook (0/1, 0/1/2, 0/1/2/3), equal (all 0) "
                    "or a list such as '0/2/3'",
    "bid_tie": "SB-TIE-1 equal highest bids: first_bidder (the earliest of them in bid order takes the "
               "prize) or discard (nobody does)",
}


@dataclass(frozen=True)
class Params(GameParams):
    n_players: int = 3
    start_points: str = "rulebook"
    bid_tie: str = "first_bidder"

    game_name: ClassVar[str] = "sealed_bids"
    listing_hint: ClassVar[str] = "bgsim games --all"  # an unlisted game

    @classmethod
    def from_dict(cls, values: dict) -> "Params":
        cls.reject_unknown(values)
        clean = dict(values)
        cls.check_player_count(clean.get("n_players", cls.n_players), 2, 4)
        if "start_points" in clean:
            clean["start_points"] = check_start_text("start_points", clean["start_points"], "0/1/2")
        if clean.get("bid_tie", cls.bid_tie) not in BID_TIES:
            raise GameIdError(f"bid_tie must be one of {', '.join(BID_TIES)}, got {clean['bid_tie']!r}")
        params = cls(**clean)
        params.start_vector()  # a list of the wrong length fails here, not at setup
        return params

    def start_vector(self) -> tuple[int, ...]:
        """Start points by seat (SB-SETUP-3), as ``start_points`` asks."""
        return start_vector("start_points", self.start_points, START_POINTS[self.n_players])

    def to_array(self) -> np.ndarray:
        a = np.zeros(N_PARAMS, dtype=np.int32)
        a[PR_N_PLAYERS] = self.n_players
        a[PR_BID_TIE] = BID_TIES.index(self.bid_tie)
        a[PR_START: PR_START + self.n_players] = self.start_vector()
        return a
