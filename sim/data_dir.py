"""Component data files: a folder of replacements (a game's ``data_dir`` parameter), checked once;
which file a game reads; and reading one, with one-line errors."""

import hashlib
import tomllib
from collections.abc import Iterable
from pathlib import Path

from bgsim.sim.errors import DataError, did_you_mean

__all__ = ["STATUSES", "checked_data_dir", "data_file", "read_data_file"]

STATUSES = ("exact", "reconstructed")  # a data file's (or table's) status: from the rulebook, or not


def checked_data_dir(data_dir: str | Path | None, names: Iterable[str]) -> Path | None:
    """``data_dir`` as a path, or None. A one-line ``DataError`` when it is no folder, or when a TOML
    file in it is none of the game's data files ``names`` (a misspelt ``bord.toml`` would otherwise be
    ignored and the default file used); other files (notes, READMEs) are left alone."""
    if data_dir is None:
        return None
    folder = Path(data_dir)
    if not folder.is_dir():
        raise DataError(f"data_dir {str(data_dir)!r} is not a directory")
    names = tuple(names)
    for path in sorted(folder.glob("*.toml")):
        if path.stem not in names:
            raise DataError(f"{path}: not a data file of this game (its files: "
                            f"{', '.join(f'{n}.toml' for n in names)}){did_you_mean(path.stem, names)}")
    return folder


def data_file(default_dir: Path, name: str, folder: Path | None, file: str | Path | None) -> Path:
    """The data file ``name`` a game reads: ``file`` if given, else ``folder/<name>.toml`` if there
    (``folder`` from ``checked_data_dir``), else the game's own in ``default_dir``."""
    if file:
        return Path(file)
    if folder is not None and (folder / f"{name}.toml").exists():
        return folder / f"{name}.toml"
    return default_dir / f"{name}.toml"


def read_data_file(path: Path) -> tuple[dict, str]:
    """A data file's TOML and the sha256 of its bytes. One-line ``DataError`` when it cannot be read,
    is not TOML, or lacks its ``status`` (``STATUSES``) or a non-empty ``source``."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DataError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DataError(f"{path.name}: not valid TOML ({exc})") from None
    if doc.get("status") not in STATUSES:
        raise DataError(f"{path.name}: file: status must be one of {', '.join(STATUSES)}, got {doc.get('status')!r}")
    if not isinstance(doc.get("source"), str) or not doc["source"].strip():
        raise DataError(f"{path.name}: file: a non-empty 'source' is required")
    return doc, hashlib.sha256(raw).hexdigest()
