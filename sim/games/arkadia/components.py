"""Load and check Arkadia's component data (``data/components.toml``): the grid and its tents, the
castle site, the seven building shapes with their cards, and the first-game layout.

The rulebook (004) gives the counts; the grid, the tent map, the shapes' cells, the card families
and the layouts are reconstructed (AMB-13), so a user may replace the file (``components_file``,
``data_dir``). A replacement is checked against what the rules need, and a broken file is reported
as ``file: entry: reason`` (a ``DataError``). The geometry the kernels precompute from it lives in
``geometry.py``.
"""

from dataclasses import dataclass, replace
from pathlib import Path

from bgsim.sim.data_dir import STATUSES, checked_data_dir, data_file, read_data_file
from bgsim.sim.errors import DataError
from bgsim.sim.games.arkadia.geometry import castle_sites, neighbours, orientations, site_cells
from bgsim.sim.games.arkadia.state import MAX_CELLS

__all__ = ["DATA_DIR", "FAMILIES", "FAMILY_COLOURS", "FAMILY_NAMES", "SHAPES", "Components", "IntroBuilding", "Shape",
           "load_components"]

DATA_DIR = Path(__file__).parent / "data"
FAMILIES = ("cloth", "spice", "carpenter", "silversmith")  # the seal families, in rulebook order
# 004, Spielmaterial: "Rot = Tuchhändler, Oliv = Gewürzhändler, Schwarz = Zimmerleute, Silber = Silberschmiede"
FAMILY_NAMES = ("Tuchhändler", "Gewürzhändler", "Zimmerleute", "Silberschmiede")
FAMILY_COLOURS = ("red", "olive", "black", "silver")
SHAPES = ("residence", "farm", "tavern", "mill", "smithy", "trade_centre", "monastery")  # shapes no. 1-7
BLANK, COURTYARD = "blank", "courtyard"  # a castle field without printed seal; a site cell that is no field
SITE_ROWS, SITE_COLS = 3, 4  # the castle site, wide (004: 12 cells, 10 of them fields)


@dataclass(frozen=True)
class Shape:
    name: str  # e.g. "mill"
    german: str  # e.g. "Mühle"
    cells: tuple[tuple[int, int], ...]  # (row, col) offsets of the unrotated tile, top-left at (0, 0)
    cards: tuple[int, ...]  # building cards (one tile each) per family, in FAMILIES order


@dataclass(frozen=True)
class IntroBuilding:
    shape: int  # index into SHAPES
    family: int  # index into FAMILIES
    cells: tuple[tuple[int, int], ...]  # (row, col) board cells


@dataclass(frozen=True)
class Components:
    rows: int
    cols: int
    tents: frozenset  # (row, col) of every tent cell
    castle: tuple[tuple[str, ...], ...]  # SITE_ROWS x SITE_COLS, wide: a family, BLANK or COURTYARD
    shapes: tuple[Shape, ...]  # in SHAPES order
    # the first-game layout: (row, col, "wide" | "tall") of its castle site and its buildings; None and
    # () where the game is not set up with it (intro_setup off: the file's [intro] is not read)
    intro_castle: tuple[int, int, str] | None
    intro_buildings: tuple[IntroBuilding, ...]
    files: dict  # "components" -> {"path", "status", "source", "sha256"}

    @property
    def cards(self) -> int:
        return sum(sum(s.cards) for s in self.shapes)

    def castle_fields(self) -> tuple[str, ...]:
        """The printed seal of every castle field in reading order (f0, f1, ...): a family or BLANK."""
        return tuple(cell for row in self.castle for cell in row if cell != COURTYARD)


def load_components(data_dir: str | Path | None = None, components_file: str | Path | None = None,
                    intro_setup: bool = True) -> Components:
    """The components from ``components_file``, else ``data_dir/components.toml``, else the default file.
    The first-game layout (``[intro]``) is read and checked only for a game with ``intro_setup``
    (ARK-SETUP-9): a designer who changes a shape or the grid for the standard setup need not lay out
    a first game that is never played."""
    path = data_file(DATA_DIR, "components", checked_data_dir(data_dir, ("components",)), components_file)
    doc, sha256 = read_data_file(path)
    name = path.name
    _known(doc, {"status", "source", "board", "castle", "shapes", "intro"}, name, "file")
    rows, cols, tents = _board(_table(doc, "board", name), name)
    castle = _castle(_table(doc, "castle", name), name)
    shapes = _shapes(_table(doc, "shapes", name), name)
    info = {"path": str(path), "status": doc["status"], "source": doc["source"], "sha256": sha256}
    comps = Components(rows, cols, tents, castle, shapes, None, (), {"components": info})
    if intro_setup:
        comps = _with_intro(comps, doc, name)
    _check_cards(comps, name)
    return comps


# why [intro] is read at all: every error about it says so, and what turns it off
_INTRO_NEEDED = "the first-game layout, read because intro_setup is on"


def _with_intro(comps: Components, doc: dict, fname: str) -> Components:
    """``comps`` with the first-game layout of ``doc``; one DataError naming every problem of it at once
    (a designer then fixes them in one go, not one per attempt)."""
    try:
        site, buildings = _intro(_table(doc, "intro", fname), fname, comps.rows, comps.cols)
    except DataError as exc:
        raise DataError(f"{exc} ({_INTRO_NEEDED})") from None
    comps = replace(comps, intro_castle=site, intro_buildings=buildings)
    problems = _intro_problems(comps)
    if problems:
        raise DataError(f"{fname}: [intro] ({_INTRO_NEEDED}): {'; '.join(problems)}")
    return comps


def _check_cards(comps: Components, fname: str) -> None:
    """Enough building cards for 4 hands of 4 and the display of 3, and the first game's buildings
    when it is laid out (their cards leave the deck, ARK-SETUP-9)."""
    laid = len(comps.intro_buildings)
    needed = 4 * 4 + 3 + laid
    if comps.cards < needed:
        first = f" and the first game's {laid} buildings" if laid else ""
        _fail(fname, "shapes", f"{comps.cards} building cards cannot deal 4 players 4 cards, a display of 3{first} "
                               f"(at least {needed})")


# --- the tables


def _fail(fname: str, entry: str, reason: str):
    raise DataError(f"{fname}: {entry}: {reason}")


def _table(doc: dict, key: str, fname: str) -> dict:
    table = doc.get(key)
    if not isinstance(table, dict):
        _fail(fname, "file", f"a [{key}] table is required")
    _check_status(table, fname, f"[{key}]")
    return table


def _check_status(table: dict, fname: str, entry: str) -> None:
    if table.get("status") not in STATUSES:
        _fail(fname, entry, f"status must be one of {', '.join(STATUSES)}, got {table.get('status')!r}")
    if not isinstance(table.get("source"), str) or not table["source"].strip():
        _fail(fname, entry, "a non-empty 'source' is required")


def _known(table: dict, keys: set, fname: str, entry: str) -> None:
    unknown = sorted(set(table) - keys)
    if unknown:
        _fail(fname, entry, f"unknown field {unknown[0]!r}")


def _int(value, fname: str, entry: str, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        _fail(fname, entry, f"{what} must be an integer {low}..{high}, got {value!r}")
    return value


def _cells(value, fname: str, entry: str) -> tuple[tuple[int, int], ...]:
    """A list of distinct [row, col] pairs of non-negative integers."""
    if not isinstance(value, list) or not value or not all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                                       for v in c) for c in value):
        _fail(fname, entry, "cells must be a non-empty list of [row, col] pairs of non-negative integers")
    cells = tuple((int(r), int(c)) for r, c in value)
    if len(set(cells)) != len(cells):
        _fail(fname, entry, "a cell is listed twice")
    return cells


def _board(table: dict, fname: str) -> tuple[int, int, frozenset]:
    _known(table, {"status", "source", "rows", "cols", "tents"}, fname, "[board]")
    rows = _int(table.get("rows"), fname, "[board]", "rows", SITE_COLS, 64)
    cols = _int(table.get("cols"), fname, "[board]", "cols", SITE_COLS, 64)
    if rows * cols > MAX_CELLS:
        _fail(fname, "[board]", f"at most {MAX_CELLS} cells, got {rows} x {cols}")
    tents = _cells(table.get("tents"), fname, "[board] tents")
    outside = [c for c in tents if c[0] >= rows or c[1] >= cols]
    if outside:
        _fail(fname, "[board] tents", f"tent {list(outside[0])} lies outside the {rows} x {cols} board")
    return rows, cols, frozenset(tents)


def _castle(table: dict, fname: str) -> tuple[tuple[str, ...], ...]:
    _known(table, {"status", "source", "layout"}, fname, "[castle]")
    layout = table.get("layout")
    words = (*FAMILIES, BLANK, COURTYARD)
    if not (isinstance(layout, list) and len(layout) == SITE_ROWS
            and all(isinstance(r, list) and len(r) == SITE_COLS and all(w in words for w in r) for r in layout)):
        _fail(fname, "[castle] layout", f"must be {SITE_ROWS} rows of {SITE_COLS} entries, each one of "
                                        f"{', '.join(words)}")
    fields = [w for row in layout for w in row if w != COURTYARD]
    if len(fields) != 10:
        _fail(fname, "[castle] layout", f"the castle has 10 fields (004), got {len(fields)}")
    return tuple(tuple(row) for row in layout)


def _shapes(table: dict, fname: str) -> tuple[Shape, ...]:
    _known(table, {"status", "source", *SHAPES}, fname, "[shapes]")
    out = []
    for name in SHAPES:
        entry = f"[shapes.{name}]"
        shape = table.get(name)
        if not isinstance(shape, dict):
            _fail(fname, "[shapes]", f"the shape {name!r} is missing")
        _known(shape, {"name", "cells", "cards"}, fname, entry)
        cells = _cells(shape.get("cells"), fname, entry)
        if min(r for r, _ in cells) != 0 or min(c for _, c in cells) != 0:
            _fail(fname, entry, "cells must start at row 0 and column 0 (offsets of the unrotated tile)")
        if not 1 <= len(cells) <= 6 or not _connected(cells):
            _fail(fname, entry, "a shape is 1 to 6 cells joined edge to edge")
        cards = shape.get("cards")
        if not isinstance(cards, dict) or set(cards) != set(FAMILIES):
            _fail(fname, entry, f"cards must give a count for each of {', '.join(FAMILIES)}")
        counts = tuple(_int(cards[f], fname, entry, f"cards.{f}", 0, 40) for f in FAMILIES)
        out.append(Shape(name, str(shape.get("name", name)), cells, counts))
    return tuple(out)


def _connected(cells) -> bool:
    todo, seen = [cells[0]], {cells[0]}
    while todo:
        r, c = todo.pop()
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def _intro(table: dict, fname: str, rows: int, cols: int) -> tuple[tuple[int, int, str], tuple[IntroBuilding, ...]]:
    _known(table, {"status", "source", "castle", "buildings"}, fname, "[intro]")
    castle = table.get("castle")
    if not (isinstance(castle, dict) and set(castle) == {"row", "col", "orientation"}
            and castle["orientation"] in ("wide", "tall")):
        _fail(fname, "[intro] castle", "needs row, col and orientation (wide or tall)")
    site = (_int(castle["row"], fname, "[intro] castle", "row", 0, rows - 1),
            _int(castle["col"], fname, "[intro] castle", "col", 0, cols - 1), castle["orientation"])
    buildings = table.get("buildings")
    if not isinstance(buildings, list) or not all(isinstance(b, dict) for b in buildings):
        _fail(fname, "[intro] buildings", "must be a list of { shape, family, cells } tables")
    out = []
    for i, b in enumerate(buildings):
        entry = f"[intro] building {i + 1}"
        _known(b, {"shape", "family", "cells"}, fname, entry)
        if b.get("shape") not in SHAPES or b.get("family") not in FAMILIES:
            _fail(fname, entry, f"shape must be one of {', '.join(SHAPES)} and family one of {', '.join(FAMILIES)}")
        out.append(IntroBuilding(SHAPES.index(b["shape"]), FAMILIES.index(b["family"]), _cells(b["cells"], fname,
                                                                                                  entry)))
    return site, tuple(out)


def _intro_problems(comps: Components) -> list[str]:
    """What keeps the first-game layout from being a position legal play could reach (ARK-SETUP-9):
    the site must be a legal one, every building a rotation of its shape inside the board, on no
    tent, overlapping nothing, touching the site or another building, and not enclosed; each
    building's card in the deck. One entry per wrong building (its first problem)."""
    problems = []
    row, col, orientation = comps.intro_castle
    if (row, col, orientation) not in castle_sites(comps.rows, comps.cols, comps.tents):
        problems.append(f"castle: ({row}, {col}, {orientation}) is no legal castle site (inside the board, "
                        f"covering no tent)")
    taken = {cell: "the castle site" for cell in site_cells(row, col, orientation)}
    used, wrong = {}, set()
    for i, b in enumerate(comps.intro_buildings):
        used[(b.shape, b.family)] = used.get((b.shape, b.family), 0) + 1
        problem = _building_problem(comps, b, taken, used[(b.shape, b.family)])
        if problem:
            problems.append(f"building {i + 1} ({SHAPES[b.shape]}): {problem}")
            wrong.add(i)
        taken.update({cell: f"intro building {i + 1}" for cell in b.cells if cell not in taken})
    for i, b in enumerate(comps.intro_buildings):
        if i in wrong:
            continue
        around = neighbours(b.cells, comps.rows, comps.cols)
        if not any(cell in taken and cell not in b.cells for cell in around):
            problems.append(f"building {i + 1} ({SHAPES[b.shape]}): touches neither the castle site nor another "
                            f"building (ARK-PLACE-4)")
        elif all(cell in taken for cell in around):
            problems.append(f"building {i + 1} ({SHAPES[b.shape]}): is enclosed from the start (its buildings must "
                            f"be under construction)")
    return problems


def _building_problem(comps: Components, b: IntroBuilding, taken: dict, nth: int) -> str:
    """The first thing wrong with one first-game building, given the cells laid before it; "" if none."""
    shape = comps.shapes[b.shape]
    top, left = min(r for r, _ in b.cells), min(c for _, c in b.cells)
    if tuple(sorted((r - top, c - left) for r, c in b.cells)) not in orientations(shape.cells):
        return "its cells are not a rotation of the shape"
    for cell in b.cells:
        if not (cell[0] < comps.rows and cell[1] < comps.cols):
            return f"cell {list(cell)} lies outside the board"
        if cell in comps.tents:
            return f"cell {list(cell)} is a tent"
        if cell in taken:
            return f"cell {list(cell)} is taken by {taken[cell]}"
    if nth > shape.cards[b.family]:
        return f"the deck holds no more {FAMILIES[b.family]} {SHAPES[b.shape]} cards"
    return ""
