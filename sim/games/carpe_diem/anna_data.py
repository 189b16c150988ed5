"""Component data of the solo automa Anna (CD-ANNA-2, -12, -23; data/anna.toml).

Read and checked like the other data files (one-line DataError naming the file and the entry),
and turned into the arrays the compiled solo rules read. Kept apart from ``load_components`` so
that the 2-4 player games, their data hashes and their stored runs do not depend on this file.
"""

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from bgsim.sim.data_dir import read_data_file
from bgsim.sim.games.carpe_diem.components import DATA_DIR, _fail
from bgsim.sim.games.carpe_diem.constants import TYPE_NAMES

__all__ = ["ARROWS", "AnnaCard", "AnnaData", "TRACKS", "anna_arrays", "load_anna"]

CARDS = 8  # CD-ANNA-2
ROWS = 7  # CD-ANNA-12: one row per Anna turn of a pass
ARROWS = ("CW", "CCW")  # index = the arrow code in the arrays
TRACKS = TYPE_NAMES[1:]  # the 12 tracker tracks, one per feature type (villa first)
_FILE = "anna.toml"


@dataclass(frozen=True)
class AnnaCard:
    id: str
    arrows: tuple[str, ...]  # (7,) "CW" or "CCW"
    symbols: tuple[tuple[str, ...], ...]  # (7, k) feature types in priority order


@dataclass(frozen=True)
class AnnaData:
    cards: tuple[AnnaCard, ...]  # 8, file order
    grey: dict  # non-villa track -> tuple of grey numbers by field (last one holds beyond, AMB-29)
    villa_vp: str  # "villa_table": the villa table applied to the villa field (AMB-26)
    status: str
    source: str
    sha256: str


def load_anna(path: str | Path | None = None) -> AnnaData:
    """The automa's cards and tracker from ``path`` (default: the package's data/anna.toml)."""
    path = Path(path) if path is not None else DATA_DIR / _FILE
    doc, sha = read_data_file(path)
    name = path.name
    cards = doc.get("card")
    if not isinstance(cards, list) or len(cards) != CARDS:
        _fail(name, "card", f"needs exactly {CARDS} [[card]] entries (CD-ANNA-2)")
    parsed, seen = [], set()
    for i, card in enumerate(cards):
        parsed.append(_card(card, i, seen, name))
    tracker = doc.get("tracker")
    if not isinstance(tracker, dict):
        _fail(name, "tracker", "a [tracker] table is required")
    unknown = sorted(set(tracker) - set(TRACKS))
    if unknown:
        _fail(name, f"tracker.{unknown[0]}", f"unknown track (tracks: {', '.join(TRACKS)})")
    villa = tracker.get("villa", {})
    if villa.get("vp") != "villa_table":
        _fail(name, "tracker.villa", 'vp must be "villa_table" (the villa table on the chimney field, AMB-26)')
    grey = {track: _grey(tracker.get(track), track, name) for track in TRACKS[1:]}
    return AnnaData(cards=tuple(parsed), grey=grey, villa_vp="villa_table", status=doc["status"],
                    source=doc["source"], sha256=sha)


def _card(card, index: int, seen: set, name: str) -> AnnaCard:
    entry = f"card[{index}]"
    if not isinstance(card, dict) or not isinstance(card.get("id"), str):
        _fail(name, entry, "needs a string id")
    if card["id"] in seen:
        _fail(name, entry, f"id {card['id']!r} appears twice")
    seen.add(card["id"])
    entry = f"card {card['id']}"
    rows = card.get("rows")
    if not isinstance(rows, list) or len(rows) != ROWS:
        _fail(name, entry, f"needs exactly {ROWS} rows (CD-ANNA-12)")
    arrows, symbols = [], []
    for r, row in enumerate(rows):
        where = f"{entry} row {r + 1}"
        if not isinstance(row, dict) or row.get("arrow") not in ARROWS:
            _fail(name, where, f"arrow must be one of {', '.join(ARROWS)}")
        listed = row.get("symbols")
        if not isinstance(listed, list) or not listed:
            _fail(name, where, "symbols must be a non-empty list of feature types")
        for symbol in listed:
            if symbol not in TRACKS:
                _fail(name, where, f"unknown symbol {symbol!r} (symbols: {', '.join(TRACKS)})")
        if len(set(listed)) != len(listed):
            _fail(name, where, "a symbol is listed twice")
        arrows.append(row["arrow"])
        symbols.append(tuple(listed))
    return AnnaCard(card["id"], tuple(arrows), tuple(symbols))


def _grey(track, key: str, name: str) -> tuple[int, ...]:
    entry = f"tracker.{key}"
    values = track.get("grey") if isinstance(track, dict) else None
    if not isinstance(values, list) or not values:
        _fail(name, entry, "grey must be a non-empty list of counts by field")
    if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in values):
        _fail(name, entry, "grey numbers must be non-negative integers")
    if values[0] != 0:
        _fail(name, entry, "the start field (0) must show 0 (CD-ANNA-10)")
    if any(b < a for a, b in zip(values, values[1:], strict=False)):
        _fail(name, entry, "grey numbers may not decrease along the track (CD-ANNA-23)")
    return tuple(values)


def anna_arrays(data: AnnaData) -> tuple[np.ndarray, np.ndarray]:
    """Arrays for the compiled solo rules.

    cards: (8, 7, 13) int32: [card, row, 0] = arrow (0 CW, 1 CCW); [card, row, 1:] = the row's
    feature types (constants.VILLA..FOUNTAIN) in priority order, -1 after the last listed one.
    grey: (13, F) int32: grey number of feature type t on field f (row 0 and the villa row unused),
    each row padded with its last value up to the longest track, F = that length.
    """
    cards = np.full((CARDS, ROWS, 1 + len(TRACKS)), -1, dtype=np.int32)
    for c, card in enumerate(data.cards):
        for r in range(ROWS):
            cards[c, r, 0] = ARROWS.index(card.arrows[r])
            for k, symbol in enumerate(card.symbols[r]):
                cards[c, r, 1 + k] = TYPE_NAMES.index(symbol)
    fields = max(len(v) for v in data.grey.values())
    grey = np.zeros((len(TYPE_NAMES), fields), dtype=np.int32)
    for track, values in data.grey.items():
        row = grey[TYPE_NAMES.index(track)]
        row[: len(values)] = values
        row[len(values):] = values[-1]
    return cards, grey
