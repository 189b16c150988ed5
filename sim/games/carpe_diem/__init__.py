"""Carpe Diem (Stefan Feld, alea 2018), 2nd-edition rules, 2-4 players."""

from bgsim.sim.game_entry import GameEntry, GameParts
from bgsim.sim.games.carpe_diem.game import RULES_VERSION, CarpeDiem
from bgsim.sim.games.carpe_diem.params import TABLE, Params

__all__ = ["ENTRY", "CarpeDiem", "Params", "RULES_VERSION", "make"]


def make(**params) -> CarpeDiem:
    """The game for registry parameters, e.g. ``make(n_players=3, full_loop="bread_else_stay")``."""
    return CarpeDiem(Params.from_dict(params))


ENTRY = GameEntry(TABLE, make,
                  "Carpe Diem (Feld, alea 2018), 2nd-edition rules, 2-4 players and solo against Anna", order=1,
                  parts=GameParts(strategies="bgsim.strategies.carpe_diem",
                                  variants="bgsim.experiments.carpe_diem.variants:VARIANT_DATA",
                                  reports="bgsim.reports.carpe_diem:EXTRAS",
                                  bench="bgsim.experiments.carpe_diem.bench:BENCH"))
