"""Arkadia's component data flattened for the kernels: the int32 component table ``t`` (its layout
is ``state.TABLE``), with the placements' bit masks (``geometry``), built once per game.

Placements are listed with mirror images included: for each shape its rotations first, then its
mirror images (``T_PLACE_TURNED_END`` marks the split), so the kernels serve AMB-6 either way from
one table. Castle sites are listed as ``geometry.castle_sites`` gives them; a tall site's fields
are the wide layout turned a quarter clockwise.
"""

import numpy as np
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import COURTYARD, FAMILIES, Components
from bgsim.sim.games.arkadia.geometry import castle_sites, neighbours, orientations, placements, site_cells

__all__ = ["component_table"]


def _field_layout(castle) -> dict[str, list[int]]:
    """Per orientation, the field index of each site cell in ``site_cells`` order (-1 courtyard)."""
    wide, index = [], 0
    for row in castle:
        for cell in row:
            wide.append(-1 if cell == COURTYARD else index)
            index += cell != COURTYARD
    grid = np.array(wide).reshape(3, 4)
    tall = np.rot90(grid, k=-1)  # 4 rows x 3 columns: the wide layout turned a quarter clockwise
    return {"wide": wide, "tall": tall.reshape(-1).tolist()}


def component_table(comps: Components) -> np.ndarray:
    """(TABLE_SIZE,) int32: the board, its tents and neighbours, the castle sites and fields, the
    cards, every placement's cells, the first-game layout."""
    buffer = np.full(st.TABLE_SIZE + 16, -1, dtype=np.int32)
    start = (-buffer.ctypes.data // 4) % 16  # 64-byte aligned: a placement's masks fill one cache line
    t = buffer[start:start + st.TABLE_SIZE]
    rows, cols = comps.rows, comps.cols
    t[st.T_ROWS], t[st.T_COLS] = rows, cols
    t[st.T_TENT:st.T_TENT + st.MAX_CELLS] = 0
    for r, c in comps.tents:
        t[st.T_TENT + r * cols + c] = 1
    for r in range(rows):
        for c in range(cols):
            around = sorted(nr * cols + nc for nr, nc in neighbours([(r, c)], rows, cols))
            base = st.T_NEIGHBOURS + (r * cols + c) * 4
            t[base:base + len(around)] = around
    sites = castle_sites(rows, cols, comps.tents)
    if len(sites) > st.MAX_SITES:
        sites = sites[:st.MAX_SITES]
    layout = _field_layout(comps.castle)
    t[st.T_N_SITES] = len(sites)
    for i, (row, col, orientation) in enumerate(sites):
        cells = [r * cols + c for r, c in site_cells(row, col, orientation)]
        t[st.T_SITE_CELLS + i * st.SITE_CELLS: st.T_SITE_CELLS + (i + 1) * st.SITE_CELLS] = cells
        t[st.T_SITE_FIELD + i * st.SITE_CELLS: st.T_SITE_FIELD + (i + 1) * st.SITE_CELLS] = layout[orientation]
    t[st.T_FIELD_PRINT:st.T_FIELD_PRINT + st.N_FIELDS] = [
        FAMILIES.index(f) if f in FAMILIES else -1 for f in comps.castle_fields()]
    cards = [(s, f) for s, shape in enumerate(comps.shapes) for f in range(len(FAMILIES))
             for _ in range(shape.cards[f])]  # card ids in shape, then family order
    t[st.T_N_CARDS] = len(cards)
    t[st.T_CARD:st.T_CARD + 2 * len(cards)] = np.array(cards, dtype=np.int32).reshape(-1)
    found = placements([s.cells for s in comps.shapes], rows, cols, mirror=True)
    t[st.T_N_PLACEMENTS] = len(found.shape)
    t[st.T_PLACE_FIRST:st.T_PLACE_FIRST + len(found.first)] = found.first
    for s, shape in enumerate(comps.shapes):
        turns = len(orientations(shape.cells))
        mine = np.flatnonzero(found.shape == s)
        t[st.T_PLACE_TURNED_END + s] = mine[found.orientation[mine] < turns][-1] + 1
    t[st.T_PLACE_CELLS:st.T_PLACE_CELLS + found.cells.size] = found.cells.reshape(-1)
    tent = t[st.T_TENT:st.T_TENT + st.MAX_CELLS]
    size = np.stack([(found.cells >= 0).sum(axis=1), np.where(found.cells >= 0, tent[found.cells], 0).sum(axis=1)], 1)
    t[st.T_PLACE_SIZE:st.T_PLACE_SIZE + size.size] = size.reshape(-1)
    bits = np.stack([found.mask, found.around], axis=1).astype("<u8").view(np.int32)  # (K, 2, MASK_WORDS)
    t[st.T_PLACE_BITS:st.T_PLACE_BITS + bits.size] = bits.reshape(-1)
    t[st.T_PLACE_SPAN:st.T_PLACE_SPAN + 2 * len(bits)] = _word_spans(bits).reshape(-1)
    _orientations(t, comps, found)
    _intro(t, comps, sites, found, cards)
    return t


def _word_spans(bits: np.ndarray) -> np.ndarray:
    """(K, 2) int32: each placement's first and past-last int32 word with a bit in its cells or the
    cells around (``bits`` (K, 2, MASK_WORDS) int32); a placement sits inside a few rows of the
    board, so its mask tests read 2-3 words instead of MASK_WORDS."""
    used = (bits != 0).any(axis=1)  # (K, MASK_WORDS)
    first = used.argmax(axis=1)
    last = st.MASK_WORDS - used[:, ::-1].argmax(axis=1)
    return np.stack([first, last], axis=1).astype(np.int32)


def _orientations(t: np.ndarray, comps: Components, found) -> None:
    """The padded board and every orientation's cell offsets on it (``kernels.anchors``). A guard as
    wide and as deep as the largest shape follows each row and the grid, so that a shape anchored
    where it does not fit covers a guard bit, which is never free; the row above catches the
    neighbours of row 0."""
    turned = [orientations(shape.cells) for shape in comps.shapes]
    every = [orientations(shape.cells, mirror=True) for shape in comps.shapes]
    guard = max(max(max(r for r, _ in o) + 1, max(c for _, c in o) + 1) for os in every for o in os)
    width = comps.cols + guard
    words = -(-width * (1 + comps.rows + guard) // 64) + 1
    if words > st.PAD_WORDS:
        raise ValueError(f"a {comps.rows} x {comps.cols} grid needs {words} words of padded board, "
                         f"more than the kernels' {st.PAD_WORDS}")
    t[st.T_PAD_WIDTH], t[st.T_PAD_WORDS] = width, words
    for r in range(comps.rows):
        for c in range(comps.cols):
            t[st.T_PAD_CELL + r * comps.cols + c] = (r + 1) * width + c
    row = 0
    for s, orients in enumerate(every):
        t[st.T_ORIENT_FIRST + s] = row
        t[st.T_ORIENT_TURNED_END + s] = row + len(turned[s])
        for o, cells in enumerate(orients):
            mine = np.flatnonzero((found.shape == s) & (found.orientation == o))
            w = max(c for _, c in cells) + 1
            fields = [mine[0], comps.cols - w + 1, len(cells)] + [r * width + c for r, c in cells]
            fields += [0] * (st.ORIENT_FIELDS - len(fields))
            t[st.T_ORIENT + row * st.ORIENT_FIELDS: st.T_ORIENT + (row + 1) * st.ORIENT_FIELDS] = fields
            row += 1
    t[st.T_ORIENT_FIRST + len(every)] = row


def _intro(t: np.ndarray, comps: Components, sites, found, cards) -> None:
    """The first game's site and buildings: each one's card (removed from the deck), placement and family."""
    t[st.T_INTRO_SITE] = sites.index(comps.intro_castle) if comps.intro_castle in sites else -1
    t[st.T_N_INTRO] = len(comps.intro_buildings)
    taken = set()
    for i, b in enumerate(comps.intro_buildings):
        card = next(k for k, c in enumerate(cards) if c == (b.shape, b.family) and k not in taken)
        taken.add(card)
        cells = sorted(r * comps.cols + c for r, c in b.cells)
        lo, hi = found.first[b.shape], found.first[b.shape + 1]
        place = next(k for k in range(lo, hi) if sorted(x for x in found.cells[k] if x >= 0) == cells)
        t[st.T_INTRO + 3 * i: st.T_INTRO + 3 * i + 3] = (card, place, b.family)
