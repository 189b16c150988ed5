"""The built-in games: every package here except ``_template`` declares ``ENTRY`` (``sim.game_entry``),
and ``BUILTIN`` lists them for the registry. A new game is a new package; nothing here changes."""

import importlib
import pkgutil

from bgsim.sim.numba_cache import configure_numba_cache

configure_numba_cache()  # before any game's kernels are compiled

BUILTIN = tuple(importlib.import_module(f"{__name__}.{module.name}").ENTRY
                for module in pkgutil.iter_modules(__path__) if module.ispkg and not module.name.startswith("_"))
