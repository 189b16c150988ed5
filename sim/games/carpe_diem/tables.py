"""Component data as one flat int32 array for the compiled kernels (offsets are constants).

Built once per game object from the validated :class:`Components` and :class:`Params`;
rotations, edge codes and per-deck card lists are precomputed here so kernels only index.
"""

import numpy as np
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem.anna_data import AnnaData, anna_arrays
from bgsim.sim.games.carpe_diem.components import Components
from bgsim.sim.games.carpe_diem.params import Params
from bgsim.sim.layout import Layout

__all__ = ["TABLES", "build_tables", "VILLA_TABLE_LEN"]

VILLA_TABLE_LEN = 128  # villa VP precomputed for 0..127 chimneys (77 exist in the default manifest)

TABLES = Layout("carpe_diem component tables")
T_TILE_DARK = TABLES.add("tile_dark", K.N_TILES, "1 if the tile has a dark back")
T_TILE_NPARTS = TABLES.add("tile_nparts", K.N_TILES, "number of parts, 1..2")
T_PART_TYPE = TABLES.add("part_type", (K.N_TILES, 2), "part type code, 0 if absent")
T_PART_CHIM = TABLES.add("part_chimneys", (K.N_TILES, 2), "chimneys of a villa part")
T_ROT_EDGE = TABLES.add("rot_edge", (K.N_TILES, 4, 4), "edge code at direction d after r quarter turns")
T_ROT_MASK = TABLES.add("rot_mask", (K.N_TILES, 4, 2), "open-edge bitmask of part p after r quarter turns")
T_ROT_UNIQUE = TABLES.add("rot_unique", (K.N_TILES, 4), "1 if rotation r differs from every lower rotation")
T_TILE_DESIGN = TABLES.add("tile_design", K.N_TILES, "lowest tile index with the same back, parts, chimneys and "
                           "edges: tiles of one design have the same placements and values")
T_LIGHT = TABLES.add("light_tiles", K.N_LIGHT, "indices of the light tiles")
T_DARK = TABLES.add("dark_tiles", K.N_DARK, "indices of the dark tiles")
T_BOARD_SHOVEL = TABLES.add("board_shovel", K.N_BOARDS, "shovel cell of each board")
T_BOARD_BANNER = TABLES.add("board_banner", (K.N_BOARDS, K.N_CELLS), "1 where a board has a banner")
T_FRAME_TYPE = TABLES.add("frame_type", (K.N_FRAME_PIECES, 2), "task type of each piece's two tasks")
T_FRAME_POS = TABLES.add("frame_pos", (K.N_FRAME_PIECES, 2), "task position 0..5 along the piece")
T_FRAME_VP = TABLES.add("frame_vp", (K.N_FRAME_PIECES, 2), "task VP")
T_CARD_DECK = TABLES.add("card_deck", K.N_SCORING_CARDS, "deck 0..3 = A..D")
T_CARD_RED = TABLES.add("card_red", K.N_SCORING_CARDS, "1 = red (give), 0 = green (have)")
T_CARD_GIVE = TABLES.add("card_give", (K.N_SCORING_CARDS, K.N_GOODS), "red: goods per fulfilment by kind")
T_CARD_HAVE_IDX = TABLES.add("card_have_idx", (K.N_SCORING_CARDS, 3), "green: counter index, -1 unused")
T_CARD_HAVE_QTY = TABLES.add("card_have_qty", (K.N_SCORING_CARDS, 3), "green: quantity per fulfilment")
T_CARD_PAY = TABLES.add("card_pay", (K.N_SCORING_CARDS, 4), "payout per fulfilment: vp, coins, bread, steps")
T_DECK_FIRST = TABLES.add("deck_first", 4, "index of the first card of each deck (cards sorted by deck)")
T_DECK_SIZE = TABLES.add("deck_size", 4, "cards per deck")
T_FOUNTAIN_COUNTER = TABLES.add("fountain_counter", K.N_FOUNTAIN_CARDS, "counter a fountain card scores")
T_FOUNTAIN_VP = TABLES.add("fountain_vp", K.N_FOUNTAIN_CARDS, "VP per counted item")
T_VILLA_VP = TABLES.add("villa_vp", VILLA_TABLE_LEN, "end VP of a completed villa by chimneys")
T_TRACK_LAST = TABLES.add("track_last", 1, "last banner-track position L")
# Solo mode (anna_data.py; zero in a 2-4 player game).
ANNA_GREY_FIELDS = 64  # grey numbers kept per track; beyond, the last one holds (AMB-29)
T_ANNA_CARDS = TABLES.add("anna_cards", (8, 7, 13), "automa card rows: arrow (0 CW, 1 CCW), then the symbol "
                                                    "types in priority order, -1 after the last")
T_ANNA_GREY = TABLES.add("anna_grey", (K.N_TYPES, ANNA_GREY_FIELDS), "Anna's count of type t on track field f")
TABLES_SIZE = TABLES.size


def _rotate_mask(mask: int, r: int) -> int:
    return ((mask << r) | (mask >> (4 - r))) & 0xF


def build_tables(comp: Components, params: Params, anna: AnnaData | None = None) -> np.ndarray:
    """The (TABLES_SIZE,) int32 component table for ``comp`` (and, solo, Anna's ``anna``) under ``params``."""
    t = np.zeros(TABLES_SIZE, dtype=np.int32)

    def view(name):
        return TABLES.view(t, name)

    dark, nparts, ptype, pchim = view("tile_dark"), view("tile_nparts"), view("part_type"), view("part_chimneys")
    rot_edge, rot_mask, rot_unique = view("rot_edge"), view("rot_mask"), view("rot_unique")
    for i, tile in enumerate(comp.tiles):
        dark[i] = tile.dark
        nparts[i] = len(tile.parts)
        for p, part in enumerate(tile.parts):
            ptype[i, p] = part.type
            pchim[i, p] = part.chimneys
        patterns = []
        for r in range(4):
            for p, part in enumerate(tile.parts):
                m = _rotate_mask(part.open_mask, r)
                rot_mask[i, r, p] = m
                for d in range(4):
                    if m >> d & 1:
                        rot_edge[i, r, d] = part.type
            pattern = (tuple(rot_edge[i, r]), tuple(rot_mask[i, r]))
            rot_unique[i, r] = pattern not in patterns
            patterns.append(pattern)
    design, first = view("tile_design"), {}
    for i in range(len(design)):
        key = (dark[i], nparts[i], ptype[i].tobytes(), pchim[i].tobytes(), rot_edge[i].tobytes(), rot_mask[i].tobytes())
        design[i] = first.setdefault(key, i)
    view("light_tiles")[:] = [i for i, tile in enumerate(comp.tiles) if not tile.dark]
    view("dark_tiles")[:] = [i for i, tile in enumerate(comp.tiles) if tile.dark]

    for b, board in enumerate(comp.boards):
        view("board_shovel")[b] = board.shovel
        view("board_banner")[b, list(board.banners)] = 1

    task_vp = params.frame_task_values()
    for f, piece in enumerate(comp.frames):
        for j, task in enumerate(piece.tasks):
            view("frame_type")[f, j] = task.type
            view("frame_pos")[f, j] = task.position
            if task_vp is None:
                view("frame_vp")[f, j] = task.vp
            elif task.type == K.VILLA:
                view("frame_vp")[f, j] = task_vp[2]
            elif task.type <= K.LANDSCAPE_LAST:
                view("frame_vp")[f, j] = task_vp[0]
            else:
                view("frame_vp")[f, j] = task_vp[1]

    view("card_have_idx")[:] = -1
    for c, card in enumerate(comp.scoring_cards):
        view("card_deck")[c] = card.deck
        view("card_red")[c] = card.red
        view("card_give")[c] = card.give
        for j, (counter, qty) in enumerate(card.have):
            view("card_have_idx")[c, j] = counter
            view("card_have_qty")[c, j] = qty
        view("card_pay")[c] = card.payout
    decks = [card.deck for card in comp.scoring_cards]
    for d in range(4):
        view("deck_first")[d] = decks.index(d)
        view("deck_size")[d] = decks.count(d)

    for f, card in enumerate(comp.fountain_cards):
        view("fountain_counter")[f] = card.counter
        view("fountain_vp")[f] = card.vp_per_item

    if params.villa_vp_table not in comp.villa_tables:
        names = ", ".join(sorted(comp.villa_tables))
        raise GameIdError(f"villa_vp_table {params.villa_vp_table!r} is not in villa_table.toml (have: {names})")
    values, above = comp.villa_tables[params.villa_vp_table]
    villa = view("villa_vp")
    for c in range(VILLA_TABLE_LEN):
        villa[c] = values[c] if c < len(values) else values[-1] + above * (c - len(values) + 1)

    view("track_last")[0] = params.banner_track_last or comp.track_last
    if anna is not None:
        cards, grey = anna_arrays(anna)
        view("anna_cards")[:] = cards
        fields = min(grey.shape[1], ANNA_GREY_FIELDS)
        view("anna_grey")[:, :fields] = grey[:, :fields]
        view("anna_grey")[:, fields:] = grey[:, fields - 1: fields]
    return t
