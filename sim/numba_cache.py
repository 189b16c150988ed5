"""Numba's on-disk cache, keyed per game by the sources a compiled function can depend on.

Numba keys a cached function on its own file only. A kernel that inlines a constant or a callee
from another module would survive an edit of that module and run stale code. So each function
lives under a directory named by a hash of every source it may inline:

- a game's function (in ``sim/games/<game>/`` or ``strategies/<game>/``): that game's sources
  and the generic ones, so an edit of Carpe Diem recompiles Carpe Diem only;
- a generic function (anywhere else in ``sim/`` or ``strategies/``): the generic sources, so an
  edit of, say, ``sim/rng.py`` recompiles every game;
- a shared loop bound to a game (``sim.kernel_binding``): that game's key, like its own kernels.

Games never import each other and generic modules never name a game (tests/test_import_graph.py),
so nothing else can be inlined. Plain Python that no kernel imports, directly or not (results,
statistics, the registry, the game classes and drivers, strategies; in a game's package its
``__init__``, ``game``, ``profile``, ``records`` and ``render`` modules; tests/test_import_graph.py
checks the list) is in no key: edits there keep the cache.

The keyed locator subclasses numba's private ``UserProvidedCacheLocator`` and goes first in
``CacheImpl._locator_classes`` (``numba_internals``), so pyproject.toml pins numba to the minor
version where tests/test_numba_cache.py checks both (0.68.0 and 0.68.1).

Layout: ``<base>/<scope>-<hash>/<numba's folder per source folder>/``, ``<scope>`` being
``generic`` or the game's package name. ``<base>`` is ``~/.cache/bgsim/numba`` (under
``XDG_CACHE_HOME`` when set), or ``BGSIM_NUMBA_CACHE`` (or ``NUMBA_CACHE_DIR``) when given.
"""

import functools
import hashlib
import os
from pathlib import Path

__all__ = ["GENERIC", "cache_is_cold", "configure_numba_cache", "numba_internals", "source_keys"]

GENERIC = "generic"  # the scope of functions outside any game's package
ROOT = Path(__file__).resolve().parent.parent  # the folder holding sim/ and strategies/
_PACKAGES = ("sim", "strategies")
# Plain Python no kernel reads (tests/test_import_graph.py checks): edits keep the cache.
_NOT_COMPILED = ("sim/results/", "sim/stats/", "sim/profile.py", "sim/__init__.py", "sim/registry.py",
                 "sim/game_entry.py", "sim/play.py", "sim/batch.py", "sim/exports.py", "sim/games/__init__.py",
                 "sim/games/base.py", "sim/games/capabilities.py", "strategies/")
PLAIN_GAME_MODULES = ("__init__.py", "game.py", "profile.py", "records.py", "render.py")  # in a game's package


def scope_of(relative: Path) -> str | None:
    """The game whose sources key a file (a path relative to the root), ``GENERIC``, or None
    outside bgsim's compiled packages."""
    parts = relative.parts
    if not parts or parts[0] not in _PACKAGES:
        return None
    if parts[:2] == ("sim", "games") and len(parts) > 3:
        return parts[2]
    if parts[0] == "strategies" and len(parts) > 2:
        return parts[1]
    return GENERIC


def plain(relative: Path) -> bool:
    """True for a source (relative to the root) that no compiled function reads."""
    parts = relative.parts
    in_game_package = len(parts) == 4 and parts[:2] == ("sim", "games")
    return relative.as_posix().startswith(_NOT_COMPILED) or (in_game_package and parts[3] in PLAIN_GAME_MODULES)


def _sources_by_scope(root: Path) -> dict[str, list[Path]]:
    """Every source file that compiled code may read, by scope, in a fixed order."""
    scopes: dict[str, list[Path]] = {GENERIC: []}
    for package in _PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root)
            if not plain(relative):
                scopes.setdefault(scope_of(relative), []).append(path)
    return scopes


def _digest(root: Path, paths: list[Path], seed: str = "") -> str:
    digest = hashlib.sha1(seed.encode())
    for path in paths:
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_keys(root: Path = ROOT) -> dict[str, str]:
    """The cache directory name of every scope: ``generic-<hash>`` and ``<game>-<hash>``, a game's
    hash covering the generic sources too."""
    scopes = _sources_by_scope(root)
    generic = _digest(root, scopes.pop(GENERIC))
    keys = {GENERIC: f"{GENERIC}-{generic}"}
    keys.update({game: f"{game}-{_digest(root, paths, seed=generic)}" for game, paths in scopes.items()})
    return keys


@functools.cache
def _current_keys() -> dict[str, str]:
    return source_keys(ROOT)


def _key_directory(py_file: str) -> str | None:
    """The keyed directory (under the base) of a function defined in ``py_file``; None outside bgsim."""
    try:
        relative = Path(py_file).resolve().relative_to(ROOT)
    except ValueError:
        return None
    scope = scope_of(relative)
    if scope is None:
        return None
    return _current_keys().get(scope) or _current_keys()[GENERIC]


def _keying_file(py_func, py_file: str) -> str:
    """The file whose scope keys a function: the module it was compiled for (``__file__`` of its
    globals), which is its source file except for a shared loop bound to a game
    (``sim.kernel_binding``: written in ``sim/loops.py``, compiled with that game's kernels)."""
    return getattr(py_func, "__globals__", {}).get("__file__") or py_file


def numba_internals():
    """The two parts of Numba's (private) caching module the keyed locator builds on: the locator
    class for ``NUMBA_CACHE_DIR``, and the class whose ``_locator_classes`` list Numba asks in turn
    when it decorates a cached function. pyproject.toml pins numba to the versions where these are
    as used here; tests/test_numba_cache.py checks them. A numba without them is a clear error,
    not a cache that silently ignores the keys (and runs stale compiled code after an edit)."""
    from numba.core import caching

    locator = getattr(caching, "UserProvidedCacheLocator", None)
    impl = getattr(caching, "CacheImpl", None)
    if not isinstance(locator, type) or not isinstance(getattr(impl, "_locator_classes", None), list):
        import numba

        raise ImportError(f"numba {numba.__version__} has no numba.core.caching.UserProvidedCacheLocator or "
                          "CacheImpl._locator_classes, which bgsim's keyed kernel cache (sim/numba_cache.py) "
                          "builds on: install the numba version pyproject.toml names")
    return locator, impl


def _keyed_locator_class():
    """A Numba cache locator like the one for ``NUMBA_CACHE_DIR``, one keyed directory deeper; it
    declines functions outside bgsim, which then go to Numba's own locators."""
    from numba.core import config

    base, _ = numba_internals()

    class SourceKeyedCacheLocator(base):
        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            subpath = self.get_suitable_cache_subpath(py_file)
            self._cache_path = os.path.join(config.CACHE_DIR, _key_directory(_keying_file(py_func, py_file)), subpath)

        @classmethod
        def from_function(cls, py_func, py_file):
            if _key_directory(_keying_file(py_func, py_file)) is None:
                return None
            return super().from_function(py_func, py_file)

    return SourceKeyedCacheLocator


def _register_locator() -> None:
    """Put the keyed locator first: Numba picks a function's locator when it is decorated."""
    _, impl = numba_internals()
    if not any(cls.__name__ == "SourceKeyedCacheLocator" for cls in impl._locator_classes):
        impl._locator_classes.insert(0, _keyed_locator_class())


def _base_directory() -> Path:
    explicit = os.environ.get("BGSIM_NUMBA_CACHE") or os.environ.get("NUMBA_CACHE_DIR")
    if explicit:
        return Path(explicit)
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "bgsim" / "numba"


@functools.cache
def configure_numba_cache() -> Path:
    """Set ``numba.config.CACHE_DIR`` to the base and register the keyed locator, before any
    kernel is decorated; return the base directory."""
    import numba

    cache_dir = _base_directory()
    cache_dir.mkdir(parents=True, exist_ok=True)
    numba.config.CACHE_DIR = str(cache_dir)
    _register_locator()
    return cache_dir


def cache_is_cold(game: str | None = None) -> bool:
    """True while the first game will compile: ``game``'s directory for its current sources holds no
    compiled function (a fresh environment, or the first use after an edit of its sources or of
    the generic ones). Without a game: while no directory for the current sources holds one."""
    import numba

    keys = _current_keys()
    names = [keys.get(game, keys[GENERIC])] if game else list(keys.values())
    base = Path(numba.config.CACHE_DIR)
    return not any(any((base / name).rglob("*.nbi")) for name in names)
