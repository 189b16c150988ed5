"""Sealed Bids parameters: player count, the start-points vector (the compensation parameter)
and the one rules ambiguity (SB-TIE-1). ``Params.from_dict`` raises one-line GameIdErrors;
``to_array`` gives the (N_PARAMS,) int32 array the kernels read."""

from dataclasses import asdict, dataclass, fields

import numpy as np
from bgsim.sim.errors import GameIdError

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
class Params:
    n_players: int = 3
    start_points: str = "rulebook"
    bid_tie: str = "first_bidder"

    @classmethod
    def from_dict(cls, values: dict) -> "Params":
        known = {f.name for f in fields(cls)}
        for name in values:
            if name not in known:
                raise GameIdError(f"sealed_bids has no parameter {name!r} (see `bgsim games --all`)")
        clean = dict(values)
        n = clean.get("n_players", cls.n_players)
        if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 4:
            raise GameIdError(f"sealed_bids is for 2 to 4 players, not {n!r}")
        if "start_points" in clean:
            clean["start_points"] = _check_start(clean["start_points"])
        if clean.get("bid_tie", cls.bid_tie) not in BID_TIES:
            raise GameIdError(f"bid_tie must be one of {', '.join(BID_TIES)}, got {clean['bid_tie']!r}")
        params = cls(**clean)
        params.start_vector()  # a list of the wrong length fails here, not at setup
        return params

    def non_default(self) -> dict:
        """The parameters that differ from their defaults (the canonical game id lists these)."""
        defaults = Params()
        return {k: v for k, v in asdict(self).items() if getattr(defaults, k) != v}

    def start_vector(self) -> tuple[int, ...]:
        """Start points by seat (SB-SETUP-3), as ``start_points`` asks."""
        if self.start_points == "rulebook":
            return START_POINTS[self.n_players]
        if self.start_points == "equal":
            return (0,) * self.n_players
        values = tuple(int(x) for x in self.start_points.split("/"))
        if len(values) != self.n_players:
            raise GameIdError(f"start_points {self.start_points!r} gives {len(values)} values for "
                              f"{self.n_players} players")
        return values

    def to_array(self) -> np.ndarray:
        a = np.zeros(N_PARAMS, dtype=np.int32)
        a[PR_N_PLAYERS] = self.n_players
        a[PR_BID_TIE] = BID_TIES.index(self.bid_tie)
        a[PR_START: PR_START + self.n_players] = self.start_vector()
        return a


def _check_start(value) -> str:
    """'rulebook', 'equal', or integers joined by '/' (a list is accepted and joined)."""
    if isinstance(value, list | tuple):
        value = "/".join(str(v) for v in value)
    if value in ("rulebook", "equal"):
        return value
    try:
        numbers = [int(part.strip()) for part in str(value).split("/")]
    except ValueError:
        numbers = []
    if not 1 <= len(numbers) <= 4 or any(abs(v) > 999 for v in numbers):
        raise GameIdError(f"start_points must be rulebook, equal or 2..4 integers like '0/1/2', got {value!r}")
    return "/".join(str(v) for v in numbers)
