"""bgsim engine: the common game API, registry, seeding and play loop; below it the results files
(``sim.results``) and the statistics (``sim.stats``), which import no compiled code.

Numba's cache directory is set by the modules that compile (``borrow``, ``policy``, ``games``)
before their first kernel, so importing the statistics alone never loads numba."""

from bgsim.sim.errors import BgsimError
from bgsim.sim.registry import available_games, make_game
from bgsim.sim.seeding import GameSeeds, game_seeds

__all__ = ["BgsimError", "GameSeeds", "available_games", "game_seeds", "make_game"]
