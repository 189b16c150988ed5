"""bgsim engine: the common game API, registry, seeding and play loop; below it the results files
(``sim.results``) and the statistics (``sim.stats``), which import no compiled code and no game.

Numba's cache directory is set by the modules that compile (``borrow``, ``policy``, ``games``)
before their first kernel, so importing the statistics alone never loads numba. The names below are
imported on first use, so that importing ``bgsim.sim.results`` or ``bgsim.sim.stats`` (which runs
this file first) does not load the registry either."""

from importlib import import_module

_EXPORTS = {
    "BgsimError": "bgsim.sim.errors",
    "GameSeeds": "bgsim.sim.seeding",
    "available_games": "bgsim.sim.registry",
    "game_seeds": "bgsim.sim.seeding",
    "make_game": "bgsim.sim.registry",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'bgsim.sim' has no attribute {name!r}")
    value = getattr(import_module(_EXPORTS[name]), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
