"""Check that a command can write where it is told to, before it plays a single game.

A run of hours that fails on its first write, or a tuning that fails after its last game, wastes
the work. ``check_writable`` looks at the nearest folder that exists on the way to the destination
and writes a real temporary file there: permission bits alone would say nothing for a process
running as root, and a read-only mount or an immutable folder only shows when one writes.
"""

from pathlib import Path

from bgsim.sim.errors import BgsimError
from bgsim.sim.results.store import write_probe

__all__ = ["DestinationError", "check_writable", "os_error_text"]

class DestinationError(BgsimError):
    """A destination folder that cannot be created or written to."""


def check_writable(path: str | Path, what: str, file: bool = False) -> None:
    """A one-line DestinationError unless the folder ``path`` (with ``file``: the folder of the
    file ``path``) can be created and written to.

    ``what`` names the destination for the message (``--out``, ``run directory``). Creates nothing:
    the probe file is removed at once, and missing folders are left for the command to make."""
    path = Path(path)
    existing = path.parent if file else path
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise DestinationError(f"{what} {path}: cannot write to {existing}, it is a file, not a folder")
    try:
        write_probe(existing)
    except OSError as exc:
        raise DestinationError(f"{what} {path}: cannot write to {existing}: {exc.strerror or exc}") from None


def os_error_text(exc: OSError) -> str:
    """``<path>: <reason>`` for an OSError (both paths of a rename), the reason alone without one."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    paths = [str(p) for p in (exc.filename, exc.filename2) if p is not None]
    return f"{' -> '.join(paths)}: {reason}" if paths else reason
