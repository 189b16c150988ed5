"""Load and check Capitol's board table (``data/board.toml``) and turn it into the kernels' table.

The file has a top-level ``status`` ("exact" or "reconstructed") and ``source``. A user may
replace it (parameter ``board_file``, ``data_dir``, or ``[data] board = "path"`` in a run spec);
the replacement is checked against the rules' constraints (AMB-18: any table with the same
fields), and a broken file is reported as ``file: entry: reason`` (a ``DataError``).
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from bgsim.sim.data_dir import checked_data_dir, data_file, read_data_file
from bgsim.sim.errors import DataError
from bgsim.sim.games.capitol.state import COLOUR_NAMES, MAX_PREF, N_COLOURS

__all__ = ["DATA_DIR", "Board", "Prefecture", "board_table", "load_board"]

DATA_DIR = Path(__file__).parent / "data"

# The kernels' board table: one row per prefecture (BT_ROWS rows), columns below; row MAX_PREF
# holds the prefecture count.
BT_COLOUR, BT_SMALL, BT_LARGE, BT_FOUNTAINS = range(4)
BT_COLUMNS = 4


@dataclass(frozen=True)
class Prefecture:
    name: str
    colour: int  # index into COLOUR_NAMES
    small: int  # small spaces (houses and auctioned fountains)
    large: int  # large sites, 0 or 1
    fountains: int  # printed fountains (they take no small space)


@dataclass(frozen=True)
class Board:
    prefectures: tuple[Prefecture, ...]
    files: dict  # "board" -> {"path", "status", "source", "sha256"}


def load_board(data_dir: str | Path | None = None, board_file: str | Path | None = None) -> Board:
    """The board from ``board_file``, else ``data_dir/board.toml``, else the default file."""
    path = data_file(DATA_DIR, "board", checked_data_dir(data_dir, ("board",)), board_file)
    doc, sha256 = read_data_file(path)
    prefectures = _prefectures(doc, path.name)
    info = {"path": str(path), "status": doc["status"], "source": doc["source"], "sha256": sha256}
    return Board(prefectures, {"board": info})


def board_table(board: Board) -> np.ndarray:
    """(MAX_PREF + 1, BT_COLUMNS) int32: a row per prefecture, then [count, 0, 0, 0]."""
    table = np.zeros((MAX_PREF + 1, BT_COLUMNS), dtype=np.int32)
    for i, pref in enumerate(board.prefectures):
        table[i] = (pref.colour, pref.small, pref.large, pref.fountains)
    table[MAX_PREF, 0] = len(board.prefectures)
    return table


def _fail(fname: str, entry: str, reason: str):
    raise DataError(f"{fname}: {entry}: {reason}")


def _int(value, fname: str, entry: str, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        _fail(fname, entry, f"{what} must be an integer, got {value!r}")
    if not low <= value <= high:
        _fail(fname, entry, f"{what} must be {low}..{high}, got {value}")
    return value


def _prefectures(doc: dict, fname: str) -> tuple[Prefecture, ...]:
    entries = doc.get("prefecture")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        _fail(fname, "file", "expected a list of [[prefecture]] tables")
    if not 3 <= len(entries) <= MAX_PREF:
        _fail(fname, "file", f"a board has 3..{MAX_PREF} prefectures, got {len(entries)}")
    seen = set()
    out = []
    for i, entry in enumerate(entries):
        label = f"prefecture {i + 1}"
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            _fail(fname, label, "needs a name")
        if name in seen:
            _fail(fname, label, f"duplicate name {name!r}")
        seen.add(name)
        label = f"prefecture {name!r}"
        unknown = set(entry) - {"name", "colour", "small", "large", "fountains"}
        if unknown:
            _fail(fname, label, f"unknown field {sorted(unknown)[0]!r}")
        colour = entry.get("colour")
        if colour not in COLOUR_NAMES:
            _fail(fname, label, f"colour must be one of {', '.join(COLOUR_NAMES)}, got {colour!r}")
        out.append(Prefecture(
            name=name, colour=COLOUR_NAMES.index(colour),
            small=_int(entry.get("small"), fname, label, "small", 1, 20),
            large=_int(entry.get("large", 1), fname, label, "large", 0, 1),
            fountains=_int(entry.get("fountains", 0), fname, label, "fountains", 0, 9)))
    for colour in range(N_COLOURS):
        if not any(p.colour == colour for p in out):
            _fail(fname, "file", f"no prefecture of colour {COLOUR_NAMES[colour]} (every permit colour needs one)")
    return tuple(out)
