"""Die Baumeister von Arkadia (Rüdiger Dorn, Ravensburger 2006): building on a shared grid, workers
around the buildings, a castle whose stones set the seals' values (2-4 players). README.md is its
spec page."""

from bgsim.sim.game_entry import GameEntry, GameParts
from bgsim.sim.games.arkadia.game import RULES_VERSION, Arkadia
from bgsim.sim.games.arkadia.params import TABLE, Params

__all__ = ["ENTRY", "Arkadia", "Params", "RULES_VERSION", "make"]


def make(**params) -> Arkadia:
    """The game for registry parameters, e.g. ``make(n_players=3, intro_setup=True)``."""
    return Arkadia(Params.from_dict(params))


ENTRY = GameEntry(TABLE, make, "Die Baumeister von Arkadia: buildings, workers and a castle (2-4 players)",
                  order=3,
                  parts=GameParts(strategies="bgsim.strategies.arkadia",
                                  variants="bgsim.experiments.arkadia.variants:VARIANT_DATA",
                                  reports="bgsim.reports.arkadia:EXTRAS",
                                  bench="bgsim.experiments.arkadia.bench:BENCH"))
