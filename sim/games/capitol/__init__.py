"""Capitol (Alan R. Moon and Aaron Weissblum, Schmidt Spiele 2001), 2-4 players; README.md is its spec page."""

from bgsim.sim.game_entry import GameEntry, GameParts
from bgsim.sim.games.capitol.game import RULES_VERSION, Capitol
from bgsim.sim.games.capitol.params import TABLE, Params

__all__ = ["ENTRY", "Capitol", "Params", "RULES_VERSION", "make"]


def make(**params) -> Capitol:
    """The game for registry parameters, e.g. ``make(n_players=3, temple_from="next_round")``."""
    return Capitol(Params.from_dict(params))


ENTRY = GameEntry(TABLE, make, "Capitol (Moon/Weissblum, Schmidt 2001), 2-4 players", order=2,
                  parts=GameParts(strategies="bgsim.strategies.capitol",
                                  variants="bgsim.experiments.capitol.variants:VARIANT_DATA",
                                  reports="bgsim.reports.capitol:EXTRAS",
                                  bench="bgsim.experiments.capitol.bench:BENCH"))
