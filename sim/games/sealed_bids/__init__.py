"""Sealed Bids: a small auction game kept for the test suite (2-4 players, hidden hands).

It exercises every part of the game interface with a few dozen lines of rules; README.md is its
spec page. Declared unlisted (``ENTRY``): it builds and plays everywhere, but ``bgsim games`` omits it.
"""

from bgsim.sim.game_entry import GameEntry, GameParts
from bgsim.sim.games.sealed_bids.game import RULES_VERSION, SealedBids
from bgsim.sim.games.sealed_bids.params import TABLE, Params

__all__ = ["ENTRY", "Params", "RULES_VERSION", "SealedBids", "make"]


def make(**params) -> SealedBids:
    """The game for registry parameters, e.g. ``make(n_players=3, bid_tie="discard")``."""
    return SealedBids(Params.from_dict(params))


ENTRY = GameEntry(TABLE, make,
                  "Sealed Bids, a small auction game with hidden hands (2-4 players, for the tests)", listed=False,
                  parts=GameParts(strategies="bgsim.strategies.sealed_bids",
                                  calibration="bgsim.experiments.sealed_bids.calibration:CALIBRATION"))
