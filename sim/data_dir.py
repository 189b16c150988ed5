"""A folder of replacement component data files (a game's ``data_dir`` parameter), checked once."""

from collections.abc import Iterable
from pathlib import Path

from bgsim.sim.errors import DataError, did_you_mean

__all__ = ["checked_data_dir"]


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
