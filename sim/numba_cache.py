"""Point Numba's on-disk cache at a directory keyed by the source of bgsim itself.

Numba keys a cached function on its own file only. A compiled kernel that inlines a constant
or a callee from another module would survive an edit of that module and run stale code, so
every cache entry lives under a hash of all of bgsim's Python sources: any edit, anywhere,
starts a fresh cache. ``BGSIM_NUMBA_CACHE`` (or ``NUMBA_CACHE_DIR``) overrides the location.
"""

import functools
import hashlib
import os
from pathlib import Path

__all__ = ["cache_is_cold", "configure_numba_cache"]

_PACKAGES = ("sim", "strategies")
_NOT_COMPILED = ("sim/results/", "sim/stats/", "sim/profile.py")  # plain Python no kernel reads: edits keep the cache


def _source_hash(root: Path) -> str:
    digest = hashlib.sha1()
    for package in _PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if path.relative_to(root).as_posix().startswith(_NOT_COMPILED):
                continue
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@functools.cache
def configure_numba_cache() -> Path:
    """Set ``numba.config.CACHE_DIR`` before any kernel is decorated; return the directory."""
    import numba

    explicit = os.environ.get("BGSIM_NUMBA_CACHE") or os.environ.get("NUMBA_CACHE_DIR")
    if explicit:
        cache_dir = Path(explicit)
    else:
        root = Path(__file__).resolve().parent.parent
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "bgsim" / "numba"
        cache_dir = base / _source_hash(root)
    cache_dir.mkdir(parents=True, exist_ok=True)
    numba.config.CACHE_DIR = str(cache_dir)
    return cache_dir


def cache_is_cold() -> bool:
    """True while the cache configured above holds no compiled function, so the first game compiles
    the engine (a fresh environment, or the first use after an edit of bgsim's sources)."""
    import numba

    return not any(Path(numba.config.CACHE_DIR).rglob("*.nbi"))
