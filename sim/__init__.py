"""bgsim engine: the common game API, registry, seeding and play loop."""

from bgsim.sim.numba_cache import configure_numba_cache

configure_numba_cache()

from bgsim.sim.errors import BgsimError  # noqa: E402
from bgsim.sim.registry import available_games, make_game  # noqa: E402
from bgsim.sim.seeding import GameSeeds, game_seeds  # noqa: E402

__all__ = ["BgsimError", "GameSeeds", "available_games", "game_seeds", "make_game"]
