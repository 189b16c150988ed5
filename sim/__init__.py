"""bgsim engine: the common game API, registry, seeding and play loop; below it the results files
(``sim.results``) and the statistics (``sim.stats``), which import no compiled code and no game.

Numba's cache directory is set by the modules that compile (``borrow``, ``policy``, ``games``)
before their first kernel, so importing the statistics alone never loads numba. The names below are
imported on first use, so that importing ``bgsim.sim.results`` or ``bgsim.sim.stats`` (which runs
this file first) does not load the registry either."""

from bgsim.sim.exports import lazy_exports

_EXPORTS = {
    "BgsimError": "bgsim.sim.errors",
    "GameSeeds": "bgsim.sim.seeding",
    "available_games": "bgsim.sim.registry",
    "game_seeds": "bgsim.sim.seeding",
    "make_game": "bgsim.sim.registry",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
