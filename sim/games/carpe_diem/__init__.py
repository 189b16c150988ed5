"""Carpe Diem (Stefan Feld, alea 2018), 2nd-edition rules, 2-4 players."""

from bgsim.sim.games.carpe_diem.game import RULES_VERSION, CarpeDiem
from bgsim.sim.games.carpe_diem.params import PARAM_DOCS, Params
from bgsim.sim.registry import register

__all__ = ["CarpeDiem", "Params", "RULES_VERSION", "make"]


def make(**params) -> CarpeDiem:
    """The game for registry parameters, e.g. ``make(n_players=3, full_loop="bread_else_stay")``."""
    return CarpeDiem(Params.from_dict(params))


register("carpe_diem", make, "Carpe Diem (Feld, alea 2018), 2nd-edition rules, 2-4 players and solo against Anna",
         player_counts=(1, 2, 3, 4), parameter_docs=PARAM_DOCS)
