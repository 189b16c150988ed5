"""Load and validate Carpe Diem's component data files (TOML) into plain Python records.

Each file sits in ``data/`` with a top-level ``status`` ("exact" or "reconstructed") and a
``source``. A user may replace any file (parameter ``data_dir`` or ``<name>_file``); the
replacement is checked against the same rule constraints, and a broken file is reported as
``file: entry: reason`` (a :class:`~sim.errors.DataError`).
"""

from dataclasses import dataclass
from pathlib import Path

from bgsim.sim.data_dir import checked_data_dir, data_file, read_data_file
from bgsim.sim.errors import DataError
from bgsim.sim.games.carpe_diem import constants as K

__all__ = [
    "DATA_DIR",
    "DATA_FILES",
    "Board",
    "Components",
    "FountainCard",
    "FramePiece",
    "FrameTask",
    "ScoringCard",
    "Tile",
    "TilePart",
    "load_components",
]

DATA_DIR = Path(__file__).parent / "data"
DATA_FILES = ("tiles", "boards", "frames", "villa_table", "track", "scoring_cards", "fountain_cards")

_TYPE_BY_NAME = {name: code for code, name in enumerate(K.TYPE_NAMES) if code != K.MEADOW}
_COUNTER_BY_NAME = {name: i for i, name in enumerate(K.COUNTER_NAMES)}
_GOODS_BY_NAME = {name: i for i, name in enumerate(K.GOODS_NAMES)}
_FRAME_TASK_TYPES = set(range(K.VILLA, K.CRAFTSMAN + 1))  # landscapes, lodgings, villa


@dataclass(frozen=True)
class TilePart:
    type: int  # part type code (constants.VILLA .. FOUNTAIN)
    open_mask: int  # open edges at rotation 0, bit d = direction d (N=1, E=2, S=4, W=8)
    chimneys: int  # villa parts only


@dataclass(frozen=True)
class Tile:
    id: str
    dark: bool
    parts: tuple[TilePart, ...]


@dataclass(frozen=True)
class Board:
    id: str
    shovel: int  # cell index r * 6 + c
    banners: tuple[int, ...]  # 9 cell indices


@dataclass(frozen=True)
class FrameTask:
    type: int  # part type: villa, a landscape or a lodging
    position: int  # 0..5 along the piece, clockwise
    vp: int


@dataclass(frozen=True)
class FramePiece:
    id: str
    tasks: tuple[FrameTask, FrameTask]


@dataclass(frozen=True)
class ScoringCard:
    id: str
    deck: int  # 0..3 = A..D
    red: bool  # red = give goods (A, B); green = have features (C, D)
    give: tuple[int, int, int, int]  # goods per fulfilment by kind (fish, herb, grape, chicken)
    have: tuple[tuple[int, int], ...]  # (counter index, quantity) per component of the requirement
    payout: tuple[int, int, int, int]  # per fulfilment: vp, coins, bread, steps


@dataclass(frozen=True)
class FountainCard:
    id: str
    counter: int  # counter index (constants.COUNTER_NAMES)
    vp_per_item: int


@dataclass(frozen=True)
class Components:
    tiles: tuple[Tile, ...]  # 123, file order
    boards: tuple[Board, ...]  # 4
    frames: tuple[FramePiece, ...]  # 16
    villa_tables: dict  # name -> (tuple of VP by chimneys, VP per chimney above the table)
    track_last: int  # last banner-track position L
    scoring_cards: tuple[ScoringCard, ...]  # 60, ordered A..D as in the file
    fountain_cards: tuple[FountainCard, ...]  # 24 (copies expanded)
    files: dict  # name -> {"path", "status", "source", "sha256"}


def load_components(data_dir: str | Path | None = None, files: dict | None = None) -> Components:
    """Load every data file: ``files[name]`` first, then ``data_dir/<name>.toml``, then the default."""
    folder = checked_data_dir(data_dir, (*DATA_FILES, "anna"))  # anna.toml: the solo automa's (anna_data.py)
    paths = {}
    for name in DATA_FILES:
        paths[name] = data_file(DATA_DIR, name, folder, (files or {}).get(name))
    docs = {name: read_data_file(path) for name, path in paths.items()}
    info = {
        name: {
            "path": str(paths[name]),
            "status": docs[name][0]["status"],
            "source": docs[name][0]["source"],
            "sha256": docs[name][1],
        }
        for name in DATA_FILES
    }
    return Components(
        tiles=_tiles(docs["tiles"][0], paths["tiles"].name),
        boards=_boards(docs["boards"][0], paths["boards"].name),
        frames=_frames(docs["frames"][0], paths["frames"].name),
        villa_tables=_villa_tables(docs["villa_table"][0], paths["villa_table"].name),
        track_last=_track(docs["track"][0], paths["track"].name),
        scoring_cards=_scoring_cards(docs["scoring_cards"][0], paths["scoring_cards"].name),
        fountain_cards=_fountain_cards(docs["fountain_cards"][0], paths["fountain_cards"].name),
        files=info,
    )


# Helpers


def _fail(fname: str, entry: str, reason: str):
    raise DataError(f"{fname}: {entry}: {reason}")


def _entries(doc: dict, key: str, fname: str) -> list:
    entries = doc.get(key)
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        _fail(fname, "file", f"expected a list of [[{key}]] tables")
    return entries


def _int(value, fname: str, entry: str, what: str, low: int | None = None, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        _fail(fname, entry, f"{what} must be an integer, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f">= {low}"
        _fail(fname, entry, f"{what} must be {bounds}, got {value}")
    return value


def _unique_id(entry: dict, seen: set, fname: str, index: int, kind: str) -> str:
    ident = entry.get("id")
    if not isinstance(ident, str) or not ident:
        _fail(fname, f"{kind} #{index + 1}", "missing string 'id'")
    if ident in seen:
        _fail(fname, ident, "duplicate id")
    seen.add(ident)
    return ident


def _cell(value, fname: str, entry: str, what: str) -> int:
    if not (isinstance(value, list) and len(value) == 2):
        _fail(fname, entry, f"{what} must be [row, column], got {value!r}")
    r = _int(value[0], fname, entry, f"{what} row", 0, K.SIDE - 1)
    c = _int(value[1], fname, entry, f"{what} column", 0, K.SIDE - 1)
    return r * K.SIDE + c


def _tiles(doc: dict, fname: str) -> tuple[Tile, ...]:
    tiles, seen = [], set()
    for i, entry in enumerate(_entries(doc, "tile", fname)):
        tid = _unique_id(entry, seen, fname, i, "tile")
        back = entry.get("back")
        if back not in ("light", "dark"):
            _fail(fname, tid, f"back must be 'light' or 'dark', got {back!r}")
        raw_parts = entry.get("parts")
        if not isinstance(raw_parts, list) or not 1 <= len(raw_parts) <= K.MAX_PARTS:
            _fail(fname, tid, "a tile has 1 or 2 parts (CD-FEATURE-8)")
        parts, used_edges, used_types = [], 0, set()
        for part in raw_parts:
            if not isinstance(part, dict):
                _fail(fname, tid, "each part is a table {type, open, chimneys}")
            ptype = _TYPE_BY_NAME.get(part.get("type"))
            if ptype is None:
                _fail(fname, tid, f"unknown part type {part.get('type')!r}")
            letters = part.get("open", "")
            if not isinstance(letters, str) or any(ch not in K.DIRECTION_LETTERS for ch in letters) \
                    or len(set(letters)) != len(letters):
                _fail(fname, tid, f"open edges must be distinct letters of NESW, got {letters!r}")
            mask = sum(1 << K.DIRECTION_LETTERS.index(ch) for ch in letters)
            n_open = len(letters)
            name = K.TYPE_NAMES[ptype]
            if ptype >= K.MARKET and n_open != 0:
                _fail(fname, tid, f"a {name} is surrounded by meadow: it has no open edge (CD-FEATURE-6)")
            if K.LODGING_FIRST <= ptype <= K.LODGING_LAST and n_open != 1:
                _fail(fname, tid, f"a lodging half has exactly 1 open edge (CD-FEATURE-5), {name} has {n_open}")
            if ptype <= K.LANDSCAPE_LAST and n_open < 1:
                _fail(fname, tid, f"a {name} part needs at least 1 open edge (CD-FEATURE-8)")
            if mask & used_edges:
                _fail(fname, tid, "the parts of one tile must use disjoint edges (CD-BUILD-4)")
            if ptype in used_types:
                _fail(fname, tid, f"two {name} parts on one tile are not supported (pairing rule, RN §1)")
            chimneys = part.get("chimneys", 0)
            if ptype == K.VILLA:
                chimneys = _int(chimneys, fname, tid, "chimneys", 0, 9)
            elif "chimneys" in part:
                _fail(fname, tid, f"only villa parts have chimneys, not {name}")
            used_edges |= mask
            used_types.add(ptype)
            parts.append(TilePart(ptype, mask, chimneys))
        if back == "dark" and len(parts) != 1:
            _fail(fname, tid, "a dark tile shows exactly one part (000 'immer nur genau eine Abbildung')")
        tiles.append(Tile(tid, back == "dark", tuple(parts)))
    n_light = sum(not t.dark for t in tiles)
    n_dark = len(tiles) - n_light
    if (n_light, n_dark) != (K.N_LIGHT, K.N_DARK):
        _fail(fname, "file", f"need {K.N_LIGHT} light + {K.N_DARK} dark tiles, found {n_light} + {n_dark}")
    return tuple(tiles)


def _boards(doc: dict, fname: str) -> tuple[Board, ...]:
    boards, seen = [], set()
    central = {r * K.SIDE + c for r in (2, 3) for c in (2, 3)}
    for i, entry in enumerate(_entries(doc, "board", fname)):
        bid = _unique_id(entry, seen, fname, i, "board")
        shovel = _cell(entry.get("shovel"), fname, bid, "shovel")
        if shovel not in central:
            _fail(fname, bid, "the shovel lies in the middle: one of the four central cells (CD-SETUP-3)")
        raw = entry.get("banners")
        if not isinstance(raw, list):
            _fail(fname, bid, "banners must be a list of [row, column]")
        banners = tuple(_cell(cell, fname, bid, "banner") for cell in raw)
        if len(set(banners)) != K.N_BANNERS or len(banners) != K.N_BANNERS:
            _fail(fname, bid, f"a board has {K.N_BANNERS} distinct banner cells (CD-SETUP-4), found {len(banners)}")
        if shovel in banners:
            _fail(fname, bid, "the shovel cell cannot hold a banner")
        boards.append(Board(bid, shovel, banners))
    if len(boards) != K.N_BOARDS:
        _fail(fname, "file", f"need {K.N_BOARDS} district boards, found {len(boards)}")
    return tuple(boards)


def _frames(doc: dict, fname: str) -> tuple[FramePiece, ...]:
    pieces, seen = [], set()
    for i, entry in enumerate(_entries(doc, "piece", fname)):
        pid = _unique_id(entry, seen, fname, i, "piece")
        raw = entry.get("tasks")
        if not isinstance(raw, list) or len(raw) != 2:
            _fail(fname, pid, "a frame piece shows exactly two tasks (CD-SETUP-2)")
        tasks = []
        for task in raw:
            ttype = _TYPE_BY_NAME.get(task.get("type") if isinstance(task, dict) else None)
            if ttype not in _FRAME_TASK_TYPES:
                _fail(fname, pid, f"a task is a landscape, lodging or villa, not {task!r} (CD-END-6)")
            position = _int(task.get("position"), fname, pid, "position", 0, K.SIDE - 1)
            vp = _int(task.get("vp"), fname, pid, "vp", 0)
            tasks.append(FrameTask(ttype, position, vp))
        if tasks[0].position == tasks[1].position:
            _fail(fname, pid, "the two tasks of a piece need distinct positions")
        pieces.append(FramePiece(pid, (tasks[0], tasks[1])))
    if len(pieces) != K.N_FRAME_PIECES:
        _fail(fname, "file", f"need {K.N_FRAME_PIECES} frame pieces, found {len(pieces)}")
    return tuple(pieces)


def _villa_tables(doc: dict, fname: str) -> dict:
    anchors = doc.get("anchors")
    if not isinstance(anchors, list) or not all(isinstance(a, list) and len(a) == 2 for a in anchors):
        _fail(fname, "anchors", "expected a list of [chimneys, vp] pairs")
    exact = {(3, 3), (5, 7), (14, 26)}
    if {tuple(a) for a in anchors} != exact:
        _fail(fname, "anchors", "the rulebook anchors are [[3, 3], [5, 7], [14, 26]] (000, 001)")
    tables = doc.get("tables")
    if not isinstance(tables, dict) or not tables:
        _fail(fname, "tables", "expected at least one [tables.<name>]")
    result = {}
    for name, table in tables.items():
        vp = table.get("vp") if isinstance(table, dict) else None
        if not isinstance(vp, list) or len(vp) < 15:
            _fail(fname, f"tables.{name}", "vp must list the VP for 0..14 chimneys at least")
        values = tuple(_int(v, fname, f"tables.{name}", "vp entry", 0) for v in vp)
        if any(b < a for a, b in zip(values, values[1:], strict=False)):
            _fail(fname, f"tables.{name}", "VP must not decrease with more chimneys")
        for chimneys, points in exact:
            if values[chimneys] != points:
                _fail(fname, f"tables.{name}", f"{chimneys} chimneys must score {points} (rulebook anchor)")
        above = _int(table.get("per_chimney_above"), fname, f"tables.{name}", "per_chimney_above", 0)
        result[name] = (values, above)
    return result


def _track(doc: dict, fname: str) -> int:
    return _int(doc.get("last_position"), fname, "last_position", "last_position", 1, 200)


def _scoring_cards(doc: dict, fname: str) -> tuple[ScoringCard, ...]:
    cards, seen = [], set()
    green_counters = {
        "C": {_COUNTER_BY_NAME["chimneys"], _COUNTER_BY_NAME["villas"]},
        "D": set(range(K.POND, K.FOUNTAIN + 1)) | {K.C_LANDSCAPES, K.C_LODGINGS},
    }
    for i, entry in enumerate(_entries(doc, "card", fname)):
        cid = _unique_id(entry, seen, fname, i, "card")
        deck = entry.get("deck")
        if deck not in ("A", "B", "C", "D"):
            _fail(fname, cid, f"deck must be A, B, C or D, got {deck!r}")
        red = deck in "AB"
        if entry.get("colour") != ("red" if red else "green"):
            _fail(fname, cid, f"deck {deck} cards are {'red' if red else 'green'} (CD-CARD-1)")
        give = [0, 0, 0, 0]
        have: list[tuple[int, int]] = []
        if red:
            if "have" in entry or not isinstance(entry.get("give"), dict) or not entry["give"]:
                _fail(fname, cid, "a red card has a non-empty 'give' table and no 'have'")
            for good, qty in entry["give"].items():
                if good not in _GOODS_BY_NAME:
                    _fail(fname, cid, f"unknown good {good!r}")
                give[_GOODS_BY_NAME[good]] = _int(qty, fname, cid, f"give.{good}", 1)
            kinds = sum(q > 0 for q in give)
            if deck == "A" and kinds != 1:
                _fail(fname, cid, "an A card asks for one kind of goods")
            if deck == "B" and (kinds < 2 or max(give) != 1):
                _fail(fname, cid, "a B card asks for a set of 1 each of different goods")
        else:
            if "give" in entry or not isinstance(entry.get("have"), dict) or not entry["have"]:
                _fail(fname, cid, "a green card has a non-empty 'have' table and no 'give'")
            if len(entry["have"]) > 3:
                _fail(fname, cid, "a requirement has at most 3 components")
            for key, qty in entry["have"].items():
                counter = _COUNTER_BY_NAME.get(key)
                if counter is None or counter not in green_counters[deck]:
                    _fail(fname, cid, f"{key!r} is not something a {deck} card counts")
                have.append((counter, _int(qty, fname, cid, f"have.{key}", 1)))
        payout = entry.get("payout")
        if not isinstance(payout, dict) or not payout:
            _fail(fname, cid, "missing payout table")
        pay = [0, 0, 0, 0]
        for key, qty in payout.items():
            if key not in K.PAYOUT_NAMES:
                _fail(fname, cid, f"unknown payout {key!r} (vp, coins, bread, steps)")
            pay[K.PAYOUT_NAMES.index(key)] = _int(qty, fname, cid, f"payout.{key}", 1)
        cards.append(ScoringCard(cid, "ABCD".index(deck), red, tuple(give), tuple(have), tuple(pay)))
    counts = [sum(c.deck == d for c in cards) for d in range(4)]
    if counts != [12, 11, 10, 27]:
        _fail(fname, "file", f"decks A/B/C/D hold 12/11/10/27 cards, found {'/'.join(map(str, counts))}")
    return tuple(sorted(cards, key=lambda c: c.deck))


def _fountain_cards(doc: dict, fname: str) -> tuple[FountainCard, ...]:
    cards, seen = [], set()
    allowed = set(range(K.VILLA, K.FOUNTAIN + 1))
    for i, entry in enumerate(_entries(doc, "card", fname)):
        fid = _unique_id(entry, seen, fname, i, "card")
        counter = _COUNTER_BY_NAME.get(entry.get("counts"))
        if counter not in allowed:
            _fail(fname, fid, f"counts must name a villa, landscape, lodging or small building, got "
                              f"{entry.get('counts')!r}")
        copies = _int(entry.get("copies"), fname, fid, "copies", 1)
        vp = _int(entry.get("vp_per_item"), fname, fid, "vp_per_item", 0)
        cards.extend(FountainCard(fid, counter, vp) for _ in range(copies))
    if len(cards) != K.N_FOUNTAIN_CARDS:
        _fail(fname, "file", f"need {K.N_FOUNTAIN_CARDS} fountain cards in all, found {len(cards)}")
    return tuple(cards)
