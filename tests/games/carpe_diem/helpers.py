"""Arrange-act helpers for Carpe Diem rule tests.

Tests arrange a position directly (tiles already in a district, resources, cards on slots)
and then act through the real engine with ``validate=True``, so the action under test must be
in the legal set the rules produce.
"""

from functools import cache

import numpy as np
from bgsim.sim import game_seeds, make_game
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.kernels.district import build
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B

TYPE = {name: code for code, name in enumerate(K.TYPE_NAMES)}
GOODS = {name: i for i, name in enumerate(K.GOODS_NAMES)}


@cache
def game(n_players: int = 4, **params):
    """A cached game object (building one loads and validates the data files)."""
    return make_game("carpe_diem", n_players=n_players, **params)


def fresh(g, seed: int = 0) -> np.ndarray:
    """A dealt state after every patrician has been placed (seat i on space i): seat 0 to move."""
    s = g.new_state(game_seeds(seed))
    for seat in range(g.n_players):
        decide(g, s, space=seat)
    return s


def field(g, s, name):
    return g.field(s, name)


def card_id(g, name: str) -> int:
    return next(i for i, c in enumerate(g.components.scoring_cards) if c.id == name)


def fountain_id(g, name: str) -> int:
    """Index of the first fountain card with this id (there are two copies of each)."""
    return next(i for i, c in enumerate(g.components.fountain_cards) if c.id == name)


def tile_id(g, name: str) -> int:
    return next(i for i, t in enumerate(g.components.tiles) if t.id == name)


def find_tile(g, parts, dark=None, chimneys=None, exclude=()) -> int:
    """First tile whose parts are exactly ``parts``: a list of (type name, open letters) in any
    order, open letters as at rotation 0 up to rotation (e.g. "N" matches any single open edge)."""
    want = sorted((TYPE[t], len(letters)) for t, letters in parts)
    for i, tile in enumerate(g.components.tiles):
        if i in exclude or (dark is not None and tile.dark != dark):
            continue
        have = sorted((p.type, bin(p.open_mask).count("1")) for p in tile.parts)
        if have != want:
            continue
        if chimneys is not None and sum(p.chimneys for p in tile.parts) != chimneys:
            continue
        shapes_ok = all(_shape_matches(tile, TYPE[t], letters) for t, letters in parts)
        if shapes_ok:
            return i
    raise LookupError(f"no tile with parts {parts} (dark={dark}, chimneys={chimneys})")


def rotation(g, tile: int, part_type: str, open_letters: str) -> int:
    """The rotation that shows the part of ``part_type`` with exactly the open edges ``open_letters``."""
    want = sum(1 << K.DIRECTION_LETTERS.index(ch) for ch in open_letters)
    for part in g.components.tiles[tile].parts:
        if part.type == TYPE[part_type]:
            for r in range(4):
                if ((part.open_mask << r) | (part.open_mask >> (4 - r))) & 0xF == want:
                    return r
    raise LookupError(f"tile {tile} cannot show {part_type} open at {open_letters}")


def cell(r: int, c: int) -> int:
    return r * K.SIDE + c


def preset(g, s, seat: int, tile: int, at: int, rot: int = 0) -> int:
    """Arrange: put a tile into a district without rewards or banner steps (returns completions)."""
    done = np.zeros(2, dtype=np.int64)
    return build(s, g.tables, g.param_array, seat, tile, at, rot, done, done.copy(), done.copy())


def set_goods(g, s, seat: int, **amounts):
    for name, value in amounts.items():
        if name in GOODS:
            field(g, s, "goods")[seat, GOODS[name]] = value
        else:
            field(g, s, name)[seat] = value


def to_turn(g, s, seat: int, tiles, space: int = 1, patrician: int = 0):
    """Arrange a TURN for ``seat``: only depot ``space`` holds ``tiles``; its patrician stands on
    ``patrician``; the pass is at its first turn so the turn cannot end it."""
    depot = field(g, s, "depot")
    depot[:] = -1
    for j, tile in enumerate(tiles):
        depot[space, j] = tile
    field(g, s, "patrician")[seat] = patrician
    field(g, s, "phase")[0] = D.TURN
    field(g, s, "seat")[0] = seat
    field(g, s, "turn_no")[0] = 0
    field(g, s, "pass_start")[0] = seat
    field(g, s, "depot_takes")[:] = 0
    if field(g, s, "taken")[seat] == 0 and field(g, s, "built")[seat] > 0:
        field(g, s, "taken")[seat] = field(g, s, "built")[seat]


def table(g, s):
    return g.decision(s)


def kind(g, s) -> str:
    """Name of the pending decision."""
    return g.decision(s).kind_name


def rows(g, s) -> list[dict]:
    """The pending decision's rows as dicts of action fields."""
    return [dict(zip(g.action_fields, map(int, a), strict=True)) for a in g.decision(s).actions]


def feature(g, feats, name: str) -> int:
    """One named value of a feature row."""
    return int(feats[g.feature_names.index(name)])


def shovel(g, s, seat: int = 0) -> int:
    return g.components.boards[int(field(g, s, "board")[seat])].shovel


def held(g, s, seat: int) -> list[int]:
    """The fountain cards ``seat`` holds, sorted."""
    return sorted(int(c) for c in field(g, s, "fountain_held")[seat, : int(field(g, s, "fountain_n")[seat])])


def matching_rows(g, s, **want) -> list[int]:
    tab = g.decision(s)
    idx = [g.action_fields.index(k) for k in want]
    vals = np.array(list(want.values()))
    return [i for i in range(len(tab)) if (tab.actions[i, idx] == vals).all()]


def decide(g, s, log=None, **want) -> np.ndarray:
    """Act: apply the first legal row whose action fields equal ``want``; fail if there is none.
    Returns the features of the chosen row (a copy)."""
    rows = matching_rows(g, s, **want)
    tab = g.decision(s)
    assert rows, f"no legal {tab.kind_name} row with {want}"
    feats = tab.features[rows[0]].copy()
    g.apply(s, tab.actions[rows[0]].copy(), log, validate=True)
    return feats


def build_turn(g, s, seat: int, tile: int, at: int, rot: int, log=None) -> np.ndarray:
    """A whole turn: step clockwise to depot 1, take ``tile``, build it at ``at`` with ``rot``."""
    to_turn(g, s, seat, [tile])
    return decide(g, s, log, move=D.STEP_CW, space=1, slot=0, cell=at, rotation=rot)


def to_scoring(g, s, seat: int, space: int, card_a: str, card_b: str):
    """Arrange a DISC decision for ``seat`` with the two named cards beside disc space ``space``."""
    slots = field(g, s, "slot_card")
    slots[DISC_SLOT_A[space]] = card_id(g, card_a)
    slots[DISC_SLOT_B[space]] = card_id(g, card_b)
    field(g, s, "disc")[:] = -1
    field(g, s, "disc_live")[space] = 1
    order = field(g, s, "score_order")
    order[:] = -1
    order[0] = seat
    for j, other in enumerate(q for q in range(g.n_players) if q != seat):
        order[j + 1] = other
    field(g, s, "score_index")[0] = 0
    field(g, s, "score_bread_used")[0] = 0
    field(g, s, "pass_no")[0] = 1
    field(g, s, "phase")[0] = D.DISC
    field(g, s, "seat")[0] = seat


def disc_space_between(slot_a: int, slot_b: int) -> int:
    for space in range(K.N_DISC_SPACES):
        if {int(DISC_SLOT_A[space]), int(DISC_SLOT_B[space])} == {slot_a, slot_b}:
            return space
    raise LookupError((slot_a, slot_b))


def counts(g, s, seat: int) -> dict:
    return dict(zip(K.COUNTER_NAMES, field(g, s, "count")[seat].tolist(), strict=True))


# Helpers


def _shape_matches(tile, ptype, letters):
    for part in tile.parts:
        if part.type != ptype:
            continue
        want = sum(1 << K.DIRECTION_LETTERS.index(ch) for ch in letters)
        for r in range(4):
            if ((part.open_mask << r) | (part.open_mask >> (4 - r))) & 0xF == want:
                return True
    return False
