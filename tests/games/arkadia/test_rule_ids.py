"""One test per rule id of the digest that had none (ARK-SETUP, -TURN, -PLACE, -WORKER, -COMPLETE,
-CASTLE, -BANNER, -END): each builds a small position for its rule and checks it through the kernels
or the candidate table. The last test checks that every rule id of the digest has a test named
after it somewhere in this folder."""

import ast
import re
from pathlib import Path

import numpy as np
import pytest
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import SHAPES, load_components
from bgsim.sim.games.arkadia.features import N_FEATURES
from bgsim.sim.games.arkadia.game import Arkadia
from bgsim.sim.games.arkadia.kernels.board import (
    complete_buildings,
    free_cells_around,
    is_enclosed,
    place_building,
    placement_is_legal,
    put_worker,
)
from bgsim.sim.games.arkadia.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.arkadia.kernels.castle import place_stone, seal_value, stone_is_legal
from bgsim.sim.games.arkadia.kernels.flow import apply_action
from bgsim.sim.games.arkadia.kernels.scoring import cash, final_cashing
from bgsim.sim.games.arkadia.kernels.search import observe
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.render import board_lines
from bgsim.sim.games.arkadia.tables import component_table

from tests.games.arkadia.helpers import act, placement

YELLOW, ORANGE, GREEN, VIOLET = range(4)
CLOTH, SPICE, CARPENTER, SILVERSMITH = range(4)
ROWS, COLS = 12, 16
CASTLE = [(r, c) for r in range(4, 7) for c in range(6, 10)]  # the site of "4,6,wide"


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


# --- positions


def _game(t, seed=11, **params):
    """A dealt game (3 players, the castle site wide at rows 4-6, columns 6-9) and its parameters."""
    p = Params.from_dict({"n_players": 3, "castle_placement": "4,6,wide", **params}).to_array()
    return new_game(t, p, np.uint64(seed), None), p


def _at(r, c) -> int:
    return r * COLS + c


def _cells(t, k) -> list[int]:
    return [int(c) for c in t[st.T_PLACE_CELLS + 6 * k:st.T_PLACE_CELLS + 6 * k + 6] if c >= 0]


def _neighbours(t, cell) -> list[int]:
    return [int(c) for c in t[st.T_NEIGHBOURS + 4 * cell:st.T_NEIGHBOURS + 4 * cell + 4] if c >= 0]


def _around(t, cells) -> set[int]:
    """The board cells sharing an edge with ``cells`` (cells off the board have no number)."""
    return {nb for c in cells for nb in _neighbours(t, c)} - set(cells)


def _kind(s, cell) -> int:
    return int(s[st.CELL_KIND + cell])


def _rotations(t, shape: int) -> range:
    return range(int(t[st.T_PLACE_FIRST + shape]), int(t[st.T_PLACE_TURNED_END + shape]))


def _build(s, t, shape: str, cells, family: int) -> int:
    """Building ``shape`` on ``cells`` with a seal of ``family``; returns its id."""
    b, _ = place_building(s, t, placement(t, shape, cells), family)
    return int(b)


def _fill_around(s, t, cells, keep=(), colour=st.NEUTRAL) -> None:
    """A worker of ``colour`` on every free cell around ``cells`` ((row, col) pairs) but ``keep``."""
    skip = {_at(r, c) for r, c in keep}
    for nb in sorted(_around(t, [_at(r, c) for r, c in cells])):
        if _kind(s, nb) == st.FREE and nb not in skip:
            put_worker(s, nb, colour)


def _building_cells(s, t, b) -> list[int]:
    return _cells(t, int(s[st.B_PLACEMENT + b]))


def _legal_by_the_rule(s, t, k) -> bool:
    """ARK-PLACE-3, -4 read off the cells: every covered cell free, one of them beside the castle
    site, a building or a worker."""
    cells = _cells(t, k)
    if any(_kind(s, c) != st.FREE for c in cells):
        return False
    return any(_kind(s, nb) in (st.SITE, st.BUILDING, st.WORKER) for nb in _around(t, cells))


def _enclosed_by_the_rule(s, t, b) -> bool:
    """ARK-COMPLETE-2 read off the cells: no free cell around the building (off the board closes)."""
    return all(_kind(s, nb) != st.FREE for nb in _around(t, _building_cells(s, t, b)))


def _free_around(s, t, b) -> set[int]:
    return {nb for nb in _around(t, _building_cells(s, t, b)) if _kind(s, nb) == st.FREE}


def _hand(s, seat=0) -> list[int]:
    return [c for c in range(40) if s[st.CARD_LOC + c] == st.IN_HAND + seat]


def _card(t, shape: str, family: int) -> int:
    return next(c for c in range(int(t[st.T_N_CARDS]))
                if t[st.T_CARD + 2 * c] == SHAPES.index(shape) and t[st.T_CARD + 2 * c + 1] == family)


def _give(s, card, seat=0, keep=()) -> None:
    """Put ``card`` in the seat's hand in exchange for one of its cards (not in ``keep``), which
    takes the given card's place in the deck, the display or another hand."""
    if s[st.CARD_LOC + card] == st.IN_HAND + seat:
        return
    out = next(c for c in _hand(s, seat) if c not in keep)
    loc = int(s[st.CARD_LOC + card])
    if loc == st.IN_DECK:
        s[st.DECK + int(np.flatnonzero(s[st.DECK:st.DECK + st.MAX_CARDS] == card)[0])] = out
    elif loc == st.IN_DISPLAY:
        s[st.DISPLAY + int(np.flatnonzero(s[st.DISPLAY:st.DISPLAY + 3] == card)[0])] = out
    s[st.CARD_LOC + out] = loc
    s[st.CARD_LOC + card] = st.IN_HAND + seat


def _empty_hands(s, n=3) -> None:
    for card in range(40):
        if 0 <= s[st.CARD_LOC + card] < st.IN_DISPLAY:
            s[st.CARD_LOC + card] = st.PLAYED
    s[st.HAND_N:st.HAND_N + n] = 0


def _fill_castle(s, level_fields, keep=-1) -> None:
    """A stone on every field of ``level_fields`` but ``keep`` on the current level, taking the
    families in turn from what its supply holds."""
    for field in level_fields:
        if field != keep:
            level = int(s[st.LEVEL])
            family = next(f for f in range(4) if s[st.STONE_SUPPLY + (level - 1) * 4 + f] > 0)
            place_stone(s, family, field)


# --- decisions


def _rows(s, t, p) -> np.ndarray:
    """The pending table's action rows, (rows, N_ACTION_FIELDS) int64."""
    feats = np.zeros((MAX_ROWS, N_FEATURES), dtype=np.int32)
    acts = np.zeros((MAX_ROWS, d.N_ACTION_FIELDS), dtype=np.int32)
    return acts[:candidates(s, t, p, feats, acts)].astype(np.int64)


def _kinds(s, t, p) -> set[int]:
    return set(_rows(s, t, p)[:, d.A_KIND].tolist())


def _play_turn(s, t, p) -> list[int]:
    """The seat's whole turn, taking the first row of every table; returns the phases decided."""
    turn, phases = int(s[st.TURN]), []
    while s[st.PHASE] != d.OVER and s[st.TURN] == turn:
        phases.append(int(s[st.PHASE]))
        apply_action(s, t, p, _rows(s, t, p)[0], None)
    return phases


def _seals(s, seat) -> list[int]:
    return s[st.SEALS + 4 * seat:st.SEALS + 4 * seat + 4].tolist()


# --- ARK-SETUP


def test_ark_setup_1_two_to_four_players_in_yellow_orange_green_violet(t):
    for bad in (1, 5):
        with pytest.raises(GameIdError):
            Params.from_dict({"n_players": bad})
    for n in (2, 3, 4):
        s, _ = _game(t, n_players=n)
        assert s[st.N_PLAYERS] == n and (s[st.CARD_LOC:st.CARD_LOC + 40] == st.IN_HAND + n - 1).sum() == 4
        assert s[st.OWN_SCREEN:st.OWN_SCREEN + 4].tolist() == [3] * n + [0] * (4 - n)
        assert s[st.BANNERS_LEFT:st.BANNERS_LEFT + 4].tolist() == [4] * n + [0] * (4 - n)
    game = Arkadia(Params.from_dict({"n_players": 4, "castle_placement": "4,6,wide"}))
    s, _ = _game(t, n_players=4)
    for col, colour in enumerate((YELLOW, ORANGE, GREEN, VIOLET, st.NEUTRAL)):
        put_worker(s, _at(11, col + 5), colour)
    row_11 = board_lines(game, s)[1 + 11]
    assert [row_11[4 + 2 * c + 1] for c in range(5, 10)] == list("yogvn")  # seats by colour, neutral beige


def test_ark_setup_2_the_castle_site_covers_no_tent_and_its_cells_stay_taken(t):
    tents = {i for i in range(ROWS * COLS) if t[st.T_TENT + i]}
    rectangles = set()
    for height, width in ((3, 4), (4, 3)):
        for r in range(ROWS - height + 1):
            for c in range(COLS - width + 1):
                cells = frozenset(_at(r + i, c + j) for i in range(height) for j in range(width))
                if not cells & tents:
                    rectangles.add(cells)
    n_sites = int(t[st.T_N_SITES])
    sites = {frozenset(int(c) for c in t[st.T_SITE_CELLS + 12 * i:st.T_SITE_CELLS + 12 * i + 12])
             for i in range(n_sites)}
    assert sites == rectangles and len(sites) == n_sites == 10  # every aligned 3x4 or 4x3 without a tent
    s, p = _game(t)
    site = [_at(r, c) for r, c in CASTLE]
    assert all(_kind(s, c) == st.SITE for c in site)
    over_site = [k for k in range(int(t[st.T_N_PLACEMENTS])) if set(_cells(t, k)) & set(site)]
    assert over_site and not any(placement_is_legal(s, t, k) for k in over_site)
    for _ in range(6):
        _play_turn(s, t, p)
    assert all(_kind(s, c) == st.SITE for c in site)  # occupied for good


def test_ark_setup_4_the_general_supply_holds_the_workers_neutrals_buildings_and_seals(t):
    tiles = [sum(shape.cards) for shape in load_components().shapes]
    for n in (2, 3, 4):
        s, _ = _game(t, n_players=n)
        assert s[st.OWN_SUPPLY:st.OWN_SUPPLY + n].tolist() == [8] * n  # the other 8 of each playing colour
        assert s[st.NEUTRAL_SUPPLY] == 24 and s[st.NEUTRAL_SCREEN:st.NEUTRAL_SCREEN + n].sum() == 0
        assert s[st.SEAL_LIMIT] == 0 and s[st.SEALS_OUT:st.SEALS_OUT + 4].sum() == 0  # every seal in the supply
        assert s[st.N_BUILDINGS] == 0 and s[st.GOLD:st.GOLD + n].sum() == 0
        shapes = [int(t[st.T_CARD + 2 * c]) for c in range(40) if s[st.CARD_LOC + c] != st.PLAYED]
        assert [shapes.count(i) for i in range(7)] == tiles == [8, 6, 6, 5, 5, 5, 5]


def test_ark_setup_7_and_ark_turn_1_the_start_player_begins_and_turns_go_clockwise(t):
    assert _game(t)[0][st.SEAT] == 0  # the default start seat
    starts = {int(_game(t, seed=seed, start_seat="random")[0][st.START_SEAT]) for seed in range(30)}
    assert starts == {0, 1, 2}  # a seeded random seat ...
    again = {int(_game(t, seed=4, start_seat="random")[0][st.START_SEAT]) for _ in range(3)}
    assert len(again) == 1  # ... the same for the same seed
    s, p = _game(t, n_players=4, start_seat=2)
    assert s[st.START_SEAT] == s[st.SEAT] == 2 and s[st.PHASE] == d.PART1
    seats = []
    for turn in range(9):
        assert s[st.TURN] == turn and s[st.PHASE] == d.PART1
        seats.append(int(s[st.SEAT]))
        _play_turn(s, t, p)
        assert s[st.TURNS_LEFT] == -1 and not s[st.END_TRIGGERED]  # no rounds, no final round yet
    assert seats == [2, 3, 0, 1, 2, 3, 0, 1, 2]


def test_ark_setup_8_every_family_is_worth_2_at_the_start(t):
    for n, intro, seed in ((2, False, 1), (3, True, 2), (4, False, 3), (4, True, 4)):
        s, _ = _game(t, seed=seed, n_players=n, intro_setup=intro)
        assert [seal_value(s, t, f) for f in range(4)] == [2, 2, 2, 2]
        assert s[st.FIELD_HEIGHT:st.FIELD_HEIGHT + 10].sum() == 0


# --- ARK-TURN


def _then(s, t, p, kind, **columns) -> tuple[int, set[int]]:
    """Apply one action; the next phase and the kinds of its table's rows."""
    act(s, t, p, kind, **columns)
    return int(s[st.PHASE]), _kinds(s, t, p)


def test_ark_turn_2_part_1_then_completion_then_at_most_one_banner(t):
    s, p = _game(t)
    x = _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)  # below the castle site
    _fill_around(s, t, [(7, 6), (7, 7)], keep=[(7, 5)])
    assert _then(s, t, p, d.DO_WORKERS, building=x) == (d.PUT_WORKER, {d.DO_PUT})  # B, so no A in this turn
    assert _then(s, t, p, d.DO_PUT, cell=_at(7, 5), neutral=0) == (d.PUT_WORKER, {d.DO_DONE})
    assert s[st.B_STATE + x] == st.UNDER_CONSTRUCTION  # enclosed; completed once part 1 is over
    assert _then(s, t, p, d.DO_DONE) == (d.STONE, {d.DO_STONE})
    assert s[st.B_STATE + x] == st.COMPLETED and _seals(s, YELLOW) == [2, 0, 0, 0]  # paid before the stone
    assert _then(s, t, p, d.DO_STONE, family=CLOTH, field=4) == (d.BANNER, {d.DO_BANNER})  # part 2
    assert _then(s, t, p, d.DO_BANNER, count=1) == (d.CASH, {d.DO_CASH})
    act(s, t, p, d.DO_CASH, family=CLOTH, count=0)
    assert s[st.SEAT] == 1 and s[st.PHASE] == d.PART1 and s[st.BANNERS_LEFT] == 3  # one banner, then the next seat


def test_ark_turn_3_4_a_is_legal_iff_a_card_fits_and_here_b_is_not(t):
    s, p = _game(t)  # the start: the castle site alone, 3 workers behind every screen
    assert s[st.OWN_SCREEN] == 3 and free_cells_around(s, t, st.CASTLE_TARGET, np.zeros(24, np.int64)) > 0
    rows = _rows(s, t, p)
    offered = {(int(r[d.A_CARD]), int(r[d.A_PLACEMENT])) for r in rows if r[d.A_KIND] == d.DO_BUILD}
    fits = {(card, k) for card in _hand(s) for k in _rotations(t, int(t[st.T_CARD + 2 * card]))
            if _legal_by_the_rule(s, t, k)}
    assert offered == fits and len(fits) > 0
    assert set(rows[:, d.A_KIND].tolist()) == {d.DO_BUILD}  # no building: B is not legal, and no pass


def _one_free_cell(t):
    """A game whose board is full of neutral workers but for one cell next to a residence (7,6)-(7,7)."""
    s, p = _game(t)
    x = _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)
    for cell in range(ROWS * COLS):
        if _kind(s, cell) == st.FREE and cell != _at(7, 5):
            put_worker(s, cell, st.NEUTRAL)
    return s, p, x


def test_ark_turn_3_4_b_is_legal_iff_a_worker_and_a_free_cell_and_here_a_is_not(t):
    s, p, x = _one_free_cell(t)
    assert s[st.HAND_N] == 4 and s[st.OWN_SCREEN] == 3
    shapes = {int(t[st.T_CARD + 2 * card]) for card in _hand(s)}
    assert not any(_legal_by_the_rule(s, t, k) for shape in shapes for k in _rotations(t, shape))  # no card fits
    rows = _rows(s, t, p)
    assert rows[:, d.A_KIND].tolist() == [d.DO_WORKERS] and rows[0, d.A_BUILDING] == x  # B, and no pass
    s[st.OWN_SCREEN] = 0
    s[st.NEUTRAL_SCREEN] = 1  # a neutral worker is enough
    assert _rows(s, t, p)[:, d.A_KIND].tolist() == [d.DO_WORKERS]


def test_ark_turn_5_with_neither_a_nor_b_part_1_is_skipped_and_the_banner_remains(t):
    s, p, _ = _one_free_cell(t)
    s[st.OWN_SCREEN] = 0  # no worker behind the screen, and no card fits
    assert _rows(s, t, p)[:, d.A_KIND].tolist() == [d.DO_SKIP]
    act(s, t, p, d.DO_SKIP)
    assert s[st.SEAT] == 0 and s[st.PHASE] == d.BANNER  # part 2 is still the seat's
    assert _rows(s, t, p)[:, d.A_COUNT].tolist() == [0, 1]
    act(s, t, p, d.DO_BANNER, count=1)
    assert s[st.OWN_SCREEN] == 2 and s[st.BANNERS_LEFT] == 3 and s[st.SEAT] == 1 and s[st.PHASE] == d.PART1


# --- ARK-PLACE


def test_ark_place_1_6_7_the_played_card_becomes_its_building_with_its_seal_and_leaves_the_game(t):
    s, p = _game(t)
    card = _card(t, "mill", SPICE)
    _give(s, card)
    rows = _rows(s, t, p)
    for r in rows[rows[:, d.A_KIND] == d.DO_BUILD]:  # a card of the hand, a placement of its shape
        assert s[st.CARD_LOC + r[d.A_CARD]] == st.IN_HAND
        assert r[d.A_PLACEMENT] in _rotations(t, int(t[st.T_CARD + 2 * r[d.A_CARD]]))
    k = placement(t, "mill", [(3, 5), (3, 6), (3, 7), (2, 6)])  # beside the castle site, over a tent
    assert any((r[d.A_CARD], r[d.A_PLACEMENT]) == (card, k) for r in rows)
    act(s, t, p, d.DO_BUILD, card=card, placement=k)
    b = int(s[st.N_BUILDINGS]) - 1
    assert b == 0 and s[st.B_PLACEMENT + b] == k and s[st.CARD_LOC + card] == st.PLAYED and s[st.HAND_N] == 3
    assert s[st.B_FAMILY + b] == SPICE and s[st.B_SEAL + b] == 1 and s[st.B_STATE + b] == st.UNDER_CONSTRUCTION
    assert s[st.SEALS_OUT:st.SEALS_OUT + 4].tolist() == [0, 1, 0, 0]  # the seal came from the supply
    assert all(_kind(s, c) == st.BUILDING and s[st.CELL_WHO + c] == b for c in _cells(t, k))
    view = np.empty_like(s)
    observe(s, 2, view)
    assert view[st.CARD_LOC + card] == st.PLAYED  # public
    for _ in range(9):
        _play_turn(s, t, p)
        assert s[st.CARD_LOC + card] == st.PLAYED and card not in s[st.DECK:st.DECK + st.MAX_CARDS]
        assert card not in s[st.DISPLAY:st.DISPLAY + 3] and card not in _rows(s, t, p)[:, d.A_CARD]


def test_ark_place_3_4_covered_cells_free_and_one_beside_a_building_or_a_worker(t):
    s, _ = _game(t)
    _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)  # below the castle site
    put_worker(s, _at(1, 13), ORANGE)  # a worker far from everything
    put_worker(s, _at(10, 2), st.NEUTRAL)
    cases = {
        ((3, 6), (4, 6)): False,  # a castle-site cell
        ((7, 7), (7, 8)): False,  # a building cell
        ((1, 12), (1, 13)): False,  # a worker's cell
        ((3, 7), (3, 8)): True,  # two tents, beside the castle site
        ((7, 4), (7, 5)): True,  # beside the building alone (the castle site only diagonally)
        ((1, 11), (1, 12)): True,  # beside an orange worker alone
        ((10, 3), (10, 4)): True,  # beside a neutral worker alone
        ((0, 14), (0, 15)): False,  # the orange worker only diagonally
        ((7, 10), (7, 11)): False,  # the castle site only diagonally
        ((2, 3), (2, 4)): False,  # nothing but uncovered tents around
    }
    for cells, legal in cases.items():
        assert placement_is_legal(s, t, placement(t, "residence", cells)) == legal, cells
    for k in range(int(t[st.T_N_PLACEMENTS])):  # every shape, orientation and anchor, mirrors included
        assert placement_is_legal(s, t, k) == _legal_by_the_rule(s, t, k), k


def test_ark_place_8_the_refill_takes_a_display_card_or_the_top_card_of_the_deck(t):
    s, p = _game(t)
    card = _hand(s)[0]
    k = next(k for k in _rotations(t, int(t[st.T_CARD + 2 * card])) if placement_is_legal(s, t, k))
    act(s, t, p, d.DO_BUILD, card=card, placement=k)
    assert s[st.PHASE] == d.REFILL and _rows(s, t, p)[:, d.A_SLOT].tolist() == [0, 1, 2, -1]
    display, deck_top = s[st.DISPLAY:st.DISPLAY + 3].tolist(), int(s[st.DECK_TOP])
    top = int(s[st.DECK + deck_top])
    from_deck = s.copy()
    act(s, t, p, d.DO_TAKE, slot=1)
    assert s[st.CARD_LOC + display[1]] == st.IN_HAND and s[st.HAND_N] == 4
    assert s[st.DISPLAY:st.DISPLAY + 3].tolist() == [display[0], top, display[2]]  # revealed at once
    assert s[st.CARD_LOC + top] == st.IN_DISPLAY and s[st.DECK_TOP] == deck_top + 1
    act(from_deck, t, p, d.DO_TAKE, slot=-1)
    assert from_deck[st.CARD_LOC + top] == st.IN_HAND and from_deck[st.HAND_N] == 4
    assert from_deck[st.DISPLAY:st.DISPLAY + 3].tolist() == display and from_deck[st.DECK_TOP] == deck_top + 1


def test_ark_place_9_the_hand_holds_4_cards_after_every_action_a_while_cards_remain(t):
    s, p = _game(t)
    for _ in range(6):
        seat = int(s[st.SEAT])
        _play_turn(s, t, p)
        assert s[st.HAND_N + seat] == 4
    assert s[st.N_BUILDINGS] == 6  # the first row of part 1 builds
    for i in range(int(s[st.DECK_TOP]), st.MAX_CARDS):  # the deck runs out; the display remains
        if s[st.DECK + i] >= 0:
            s[st.CARD_LOC + s[st.DECK + i]] = st.PLAYED
            s[st.DECK + i] = -1
    seat = int(s[st.SEAT])
    _play_turn(s, t, p)
    assert s[st.HAND_N + seat] == 4 and (s[st.DISPLAY:st.DISPLAY + 3] == -1).sum() == 1
    s[st.DISPLAY:st.DISPLAY + 3] = -1  # no card left anywhere (AMB-4): the hand shrinks
    seat = int(s[st.SEAT])
    assert d.REFILL not in _play_turn(s, t, p) and s[st.HAND_N + seat] == 3


# --- ARK-WORKER


def test_ark_worker_1_any_building_with_a_free_cell_is_a_target_the_castle_site_is_not(t):
    s, p = _game(t)
    s[st.SEAT] = 1
    x = _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)  # placed by orange
    s[st.SEAT] = 0
    y = _build(s, t, "residence", [(3, 6), (3, 7)], SPICE)  # placed by yellow, completed below
    _fill_around(s, t, [(3, 6), (3, 7)])
    assert complete_buildings(s, t, 0) == 1 and s[st.B_STATE + y] == st.COMPLETED
    s[st.STONES_OWED] = 0
    s[st.SEAT] = 2
    z = _build(s, t, "tavern", [(5, 10), (5, 11), (5, 12)], SILVERSMITH)  # placed by green
    s[st.SEAT] = 0
    assert s[st.B_PLACER + x] == 1 and s[st.B_PLACER + z] == 2
    rows = _rows(s, t, p)
    targets = rows[rows[:, d.A_KIND] == d.DO_WORKERS, d.A_BUILDING].tolist()
    assert targets == [x, z] and st.CASTLE_TARGET not in targets
    assert [b for b in range(3) if _free_around(s, t, b)] == [x, z]


def test_ark_worker_2_3_own_and_neutral_workers_each_on_a_free_cell_beside_the_chosen_building(t):
    s, p = _game(t)
    x = _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)
    y = _build(s, t, "residence", [(9, 6), (9, 7)], SPICE)  # (8, 6) and (8, 7) lie beside both
    s[st.OWN_SCREEN], s[st.NEUTRAL_SCREEN] = 1, 1
    act(s, t, p, d.DO_WORKERS, building=x)
    free = _free_around(s, t, x)
    assert free == {_at(7, 5), _at(7, 8), _at(8, 6), _at(8, 7)}
    rows = _rows(s, t, p)
    assert {(int(r[d.A_CELL]), int(r[d.A_NEUTRAL])) for r in rows} == {(c, n) for c in free for n in (0, 1)}
    assert set(rows[:, d.A_KIND].tolist()) == {d.DO_PUT}  # at least one worker first; y's cells not offered
    assert _at(9, 5) in _free_around(s, t, y) and _at(9, 5) not in rows[:, d.A_CELL]
    act(s, t, p, d.DO_PUT, cell=_at(8, 6), neutral=0)  # beside both buildings
    rows = _rows(s, t, p)
    puts = {(int(r[d.A_CELL]), int(r[d.A_NEUTRAL])) for r in rows if r[d.A_KIND] == d.DO_PUT}
    assert puts == {(c, 1) for c in free - {_at(8, 6)}} and rows[-1, d.A_KIND] == d.DO_DONE
    act(s, t, p, d.DO_PUT, cell=_at(7, 5), neutral=1)
    assert _rows(s, t, p)[:, d.A_KIND].tolist() == [d.DO_DONE]  # nothing left behind the screen
    act(s, t, p, d.DO_DONE)
    assert s[st.CELL_WHO + _at(8, 6)] == YELLOW and s[st.CELL_WHO + _at(7, 5)] == st.NEUTRAL
    assert s[st.OWN_SCREEN] == 0 and s[st.NEUTRAL_SCREEN] == 0 and s[st.PHASE] == d.BANNER


def test_ark_worker_4_a_worker_on_a_tent_brings_no_neutral_worker(t):
    s, p = _game(t)
    x = _build(s, t, "residence", [(3, 5), (3, 6)], CLOTH)  # tents at (2, 5) and (3, 7) beside it
    assert t[st.T_TENT + _at(2, 5)] and t[st.T_TENT + _at(3, 7)]
    act(s, t, p, d.DO_WORKERS, building=x)
    act(s, t, p, d.DO_PUT, cell=_at(2, 5), neutral=0)
    act(s, t, p, d.DO_PUT, cell=_at(3, 7), neutral=0)
    act(s, t, p, d.DO_DONE)
    assert s[st.CELL_KIND + _at(2, 5)] == st.WORKER and s[st.CELL_KIND + _at(3, 7)] == st.WORKER
    assert s[st.NEUTRAL_SCREEN] == 0 and s[st.NEUTRAL_SUPPLY] == 24


def test_ark_worker_5_placed_workers_never_move_or_leave_the_board(t):
    s, p = _game(t, seed=3)
    rng = np.random.default_rng(5)
    board = {}
    for _ in range(600):
        if s[st.PHASE] == d.OVER:
            break
        rows = _rows(s, t, p)
        apply_action(s, t, p, rows[rng.integers(len(rows))], None)
        for cell, colour in board.items():
            assert _kind(s, cell) == st.WORKER and s[st.CELL_WHO + cell] == colour
        board.update({c: int(s[st.CELL_WHO + c]) for c in range(ROWS * COLS) if _kind(s, c) == st.WORKER})
    assert len(board) >= 10  # workers were placed, and stayed where they were put


def test_ark_worker_6_an_own_worker_pays_for_every_building_it_touches_a_neutral_never(t):
    s, _ = _game(t)
    _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)  # x
    put_worker(s, _at(8, 6), ORANGE)  # placed for x
    put_worker(s, _at(8, 7), st.NEUTRAL)
    _build(s, t, "residence", [(9, 6), (9, 7)], SPICE)  # y, later, beside both workers too
    _fill_around(s, t, [(9, 6), (9, 7)])
    assert complete_buildings(s, t, GREEN) == 1  # y
    assert _seals(s, ORANGE) == [0, 1, 0, 0] and _seals(s, GREEN) == [0, 1, 0, 0]
    _fill_around(s, t, [(7, 6), (7, 7)])
    assert complete_buildings(s, t, GREEN) == 1  # x
    assert _seals(s, ORANGE) == [1, 1, 0, 0] and _seals(s, GREEN) == [1, 1, 0, 0]
    assert _seals(s, YELLOW) == [0] * 4 and s[st.SEALS:st.SEALS + 16].sum() == 4  # the neutral ones paid nothing


# --- ARK-COMPLETE


def test_ark_complete_1_a_new_building_completes_itself_and_the_buildings_it_encloses_at_once(t):
    s, p = _game(t)
    x = _build(s, t, "residence", [(0, 2), (0, 3)], CLOTH)
    y = _build(s, t, "residence", [(2, 4), (2, 5)], SPICE)
    _fill_around(s, t, [(0, 2), (0, 3), (2, 4), (2, 5), (1, 3), (1, 4)], keep=[(1, 3), (1, 4)])
    assert _free_around(s, t, x) == {_at(1, 3)} and _free_around(s, t, y) == {_at(1, 4)}
    card = _card(t, "residence", CARPENTER)
    _give(s, card)
    act(s, t, p, d.DO_BUILD, card=card, placement=placement(t, "residence", [(1, 3), (1, 4)]))
    assert s[st.B_STATE:st.B_STATE + 3].tolist() == [st.COMPLETED] * 3  # x, y and the new one
    assert s[st.STONES_OWED] == 3 and s[st.PHASE] == d.STONE and s[st.COMPLETIONS] == 3
    assert _seals(s, YELLOW) == [1, 1, 1, 0]  # the three buildings' seals; the neutral workers pay nothing
    for _ in range(3):
        act(s, t, p, d.DO_STONE, family=SILVERSMITH, field=int(np.argmin(s[st.FIELD_HEIGHT:st.FIELD_HEIGHT + 10])))
    act(s, t, p, d.DO_TAKE, slot=-1)
    z = _build(s, t, "residence", [(9, 6), (9, 7)], CLOTH)  # enclosed after this turn's completions ...
    _fill_around(s, t, [(9, 6), (9, 7)])
    act(s, t, p, d.DO_BANNER, count=1)
    while s[st.PHASE] == d.CASH:
        act(s, t, p, d.DO_CASH, family=int(s[st.CASH_FAMILY]), count=0)
    assert s[st.B_STATE + z] == st.UNDER_CONSTRUCTION and s[st.COMPLETIONS] == 3  # ... the banner completes nothing
    assert s[st.SEAT] == 1 and s[st.PHASE] == d.PART1
    apply_action(s, t, p, _rows(s, t, p)[0], None)  # orange's part 1 (a building elsewhere)
    assert s[st.B_STATE + z] == st.COMPLETED and s[st.COMPLETIONS + ORANGE] >= 1 and _seals(s, ORANGE)[CLOTH] == 1


def test_ark_complete_2_enclosed_means_edge_worker_building_or_castle_site_all_round(t):
    s, _ = _game(t)
    a = _build(s, t, "residence", [(3, 5), (3, 6)], CLOTH)  # the castle site at (4, 6) below
    _build(s, t, "residence", [(2, 6), (2, 7)], SPICE)  # a building above
    put_worker(s, _at(3, 4), YELLOW)
    put_worker(s, _at(4, 5), st.NEUTRAL)
    put_worker(s, _at(2, 5), ORANGE)  # a worker on a tent closes like any
    corner = _build(s, t, "residence", [(11, 14), (11, 15)], CLOTH)  # the board's edge on two sides
    put_worker(s, _at(10, 14), st.NEUTRAL)
    put_worker(s, _at(10, 15), st.NEUTRAL)
    assert not is_enclosed(s, t, a) and _free_around(s, t, a) == {_at(3, 7)}  # an uncovered tent is free
    assert not is_enclosed(s, t, corner) and _free_around(s, t, corner) == {_at(11, 13)}
    for b in range(int(s[st.N_BUILDINGS])):
        assert is_enclosed(s, t, b) == _enclosed_by_the_rule(s, t, b)
    put_worker(s, _at(3, 7), VIOLET)
    put_worker(s, _at(11, 13), YELLOW)
    assert is_enclosed(s, t, a) and is_enclosed(s, t, corner)
    for b in range(int(s[st.N_BUILDINGS])):
        assert is_enclosed(s, t, b) == _enclosed_by_the_rule(s, t, b)


def test_ark_complete_3_the_castle_site_never_completes_pays_or_earns_a_stone(t):
    s, p = _game(t)
    _fill_around(s, t, CASTLE, colour=YELLOW)  # every cell around the site: yellow workers
    assert len(_around(t, [_at(r, c) for r, c in CASTLE])) == 14
    assert complete_buildings(s, t, YELLOW) == 0 and s[st.STONES_OWED] == 0 and _seals(s, YELLOW) == [0] * 4
    card = _card(t, "residence", CLOTH)
    _give(s, card)
    act(s, t, p, d.DO_BUILD, card=card, placement=placement(t, "residence", [(2, 6), (2, 7)]))
    assert s[st.PHASE] == d.REFILL and s[st.STONES_OWED] == 0 and _seals(s, YELLOW) == [0] * 4
    assert s[st.COMPLETIONS] == 0


def test_ark_complete_6_a_worker_beside_three_completed_buildings_earns_three_seals(t):
    s, _ = _game(t)
    buildings = [_build(s, t, "residence", [(9, 11), (9, 12)], CLOTH),
                 _build(s, t, "residence", [(10, 10), (10, 11)], CLOTH),
                 _build(s, t, "residence", [(10, 13), (10, 14)], SPICE)]
    put_worker(s, _at(10, 12), ORANGE)  # beside all three
    _fill_around(s, t, [(9, 11), (9, 12), (10, 10), (10, 11), (10, 13), (10, 14)])
    assert complete_buildings(s, t, VIOLET) == 3 and s[st.STONES_OWED] == 3
    assert _seals(s, ORANGE) == [2, 1, 0, 0] and _seals(s, VIOLET) == [2, 1, 0, 0]
    paid = s[st.B_PAID:st.B_PAID + 4 * 3].reshape(3, 4)
    assert paid[buildings, ORANGE].tolist() == [1, 1, 1] and paid[buildings, VIOLET].tolist() == [1, 1, 1]


def test_ark_complete_7_seals_go_behind_the_receivers_screen_without_a_limit(t):
    for supply, paid in (("unlimited", 1), ("physical_88", 0)):
        s, _ = _game(t, seal_supply=supply)
        _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)
        put_worker(s, _at(8, 6), GREEN)
        before = _seals(s, YELLOW)
        s[st.SEALS_OUT + CLOTH] = 500  # far more cloth seals out than the box holds
        _fill_around(s, t, [(7, 6), (7, 7)])
        assert complete_buildings(s, t, ORANGE) == 1
        assert _seals(s, GREEN) == [paid, 0, 0, 0] and _seals(s, ORANGE) == [1, 0, 0, 0]  # the seal on it
        assert _seals(s, YELLOW) == before and s[st.SEALS_OUT + CLOTH] == 500 + paid


def test_ark_complete_8_a_completed_building_keeps_no_seal_and_never_pays_again(t):
    s, p = _game(t)
    x = _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)
    put_worker(s, _at(8, 6), ORANGE)
    _fill_around(s, t, [(7, 6), (7, 7)], keep=[(7, 5)])
    act(s, t, p, d.DO_WORKERS, building=x)
    act(s, t, p, d.DO_PUT, cell=_at(7, 5), neutral=0)
    act(s, t, p, d.DO_DONE)
    assert s[st.B_STATE + x] == st.COMPLETED and s[st.B_SEAL + x] == 0
    assert free_cells_around(s, t, x, np.zeros(24, np.int64)) == 0
    seals = s[st.SEALS:st.SEALS + 16].copy()
    assert seals[4 * ORANGE + CLOTH] == 1 and seals[4 * YELLOW + CLOTH] == 2
    assert complete_buildings(s, t, YELLOW) == 0 and (s[st.SEALS:st.SEALS + 16] == seals).all()
    act(s, t, p, d.DO_STONE, family=CLOTH, field=4)
    for _ in range(6):
        if s[st.PHASE] == d.PART1:
            rows = _rows(s, t, p)
            assert x not in rows[rows[:, d.A_KIND] == d.DO_WORKERS, d.A_BUILDING]
        _play_turn(s, t, p)
        assert s[st.B_STATE + x] == st.COMPLETED and s[st.B_PAID + 4 * x:st.B_PAID + 4 * x + 4].tolist() == [2, 1, 0, 0]


# --- ARK-CASTLE


def test_ark_castle_1_one_stone_per_completed_building_after_the_payouts_one_at_a_time(t):
    s, p = _game(t)
    x = _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)
    _build(s, t, "residence", [(9, 6), (9, 7)], SPICE)  # (8, 6) and (8, 7) lie beside both
    _fill_around(s, t, [(7, 6), (7, 7), (9, 6), (9, 7)], keep=[(8, 6), (8, 7)])
    act(s, t, p, d.DO_WORKERS, building=x)
    act(s, t, p, d.DO_PUT, cell=_at(8, 6), neutral=0)
    act(s, t, p, d.DO_PUT, cell=_at(8, 7), neutral=0)
    act(s, t, p, d.DO_DONE)
    assert _seals(s, YELLOW) == [3, 3, 0, 0]  # both payouts before any stone
    assert s[st.PHASE] == d.STONE and s[st.STONES_OWED] == 2
    rows = _rows(s, t, p)
    assert set(rows[:, d.A_KIND].tolist()) == {d.DO_STONE} and len(rows) == 4 * 10  # no way to decline
    act(s, t, p, d.DO_STONE, family=CLOTH, field=4)
    assert s[st.PHASE] == d.STONE and s[st.STONES_OWED] == 1 and s[st.FIELD_HEIGHT:st.FIELD_HEIGHT + 10].sum() == 1
    act(s, t, p, d.DO_STONE, family=SPICE, field=5)
    assert s[st.PHASE] == d.BANNER and s[st.STONES_OWED] == 0 and s[st.FIELD_HEIGHT:st.FIELD_HEIGHT + 10].sum() == 2
    assert [seal_value(s, t, f) for f in range(4)] == [3, 3, 2, 2]


def _stone_fields(s, t, p) -> set[int]:
    return set(_rows(s, t, p)[:, d.A_FIELD].tolist())


def test_ark_castle_2_a_level_begins_only_once_the_level_below_is_full(t):
    s, p = _game(t)
    s[st.PHASE], s[st.STONES_OWED] = d.STONE, 30
    _fill_castle(s, range(9))
    assert s[st.LEVEL] == 1 and _stone_fields(s, t, p) == {9}  # no second stone while a field is empty
    assert not any(stone_is_legal(s, f, field) for f in range(4) for field in range(9))
    _fill_castle(s, [9])
    assert s[st.LEVEL] == 2 and _stone_fields(s, t, p) == set(range(10))
    place_stone(s, CARPENTER, 3)
    assert s[st.FIELD_HEIGHT + 3] == 2 and _stone_fields(s, t, p) == set(range(10)) - {3}  # no third stone yet
    _fill_castle(s, range(10), keep=3)
    assert s[st.LEVEL] == 3 and (s[st.FIELD_HEIGHT:st.FIELD_HEIGHT + 10] == 2).all()
    assert _stone_fields(s, t, p) == set(range(10))


def test_ark_castle_4_a_full_level_1_sends_its_two_leftovers_to_level_3(t):
    s, _ = _game(t)
    families = [CLOTH] * 3 + [SPICE] * 3 + [CARPENTER] * 2 + [SILVERSMITH] * 2
    for field, family in enumerate(families[:9]):
        place_stone(s, family, field)
    level = [s[st.STONE_SUPPLY + 4 * i:st.STONE_SUPPLY + 4 * i + 4].tolist() for i in range(3)]
    assert level == [[0, 0, 1, 2], [3, 3, 3, 3], [1, 1, 1, 1]] and s[st.LEVEL] == 1
    place_stone(s, SILVERSMITH, 9)  # the 10th stone: carpenter and silversmith are left over
    level = [s[st.STONE_SUPPLY + 4 * i:st.STONE_SUPPLY + 4 * i + 4].tolist() for i in range(3)]
    assert level == [[0, 0, 0, 0], [3, 3, 3, 3], [1, 1, 2, 2]] and s[st.LEVEL] == 2
    assert all(stone_is_legal(s, f, 0) for f in range(4))  # a second stone on a field, any family
    place_stone(s, CLOTH, 0)  # the next stone comes from the level-2 supply
    assert s[st.STONE_SUPPLY + 4:st.STONE_SUPPLY + 8].tolist() == [2, 3, 3, 3] and s[st.FIELD_HEIGHT] == 2


def test_ark_castle_5_and_ark_end_2_3_level_2_full_triggers_the_end_and_a_final_round_on_level_3(t):
    s, p = _game(t, start_seat=1)
    _fill_castle(s, range(10))
    _fill_castle(s, range(10), keep=9)  # level 2 holds 9 stones
    assert s[st.LEVEL] == 2 and s[st.STONE_SUPPLY + 8:st.STONE_SUPPLY + 12].sum() == 6
    x = _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)
    y = _build(s, t, "residence", [(3, 5), (3, 6)], SPICE)
    _fill_around(s, t, [(7, 6), (7, 7)], keep=[(7, 5)])
    _fill_around(s, t, [(3, 5), (3, 6)], keep=[(3, 4)])
    assert s[st.SEAT] == 1
    for action in ((d.DO_WORKERS, {"building": x}), (d.DO_PUT, {"cell": _at(7, 5), "neutral": 0}), (d.DO_DONE, {})):
        act(s, t, p, action[0], **action[1])
    assert s[st.PHASE] == d.STONE and _stone_fields(s, t, p) == {9}
    act(s, t, p, d.DO_STONE, family=int(_rows(s, t, p)[0, d.A_FAMILY]), field=9)
    assert s[st.END_TRIGGERED] == 1 and s[st.TRIGGER_SEAT] == 1 and s[st.LEVEL] == 3  # ARK-CASTLE-5
    assert s[st.STONE_SUPPLY + 8:st.STONE_SUPPLY + 12].sum() == 8  # 4 + 2 + 2
    assert s[st.STONE_SUPPLY + 4:st.STONE_SUPPLY + 8].sum() == 0
    assert s[st.PHASE] == d.BANNER  # the trigger turn goes on normally
    act(s, t, p, d.DO_BANNER, count=0)
    final = []
    assert s[st.SEAT] == 2 and s[st.TURNS_LEFT] == 3  # ARK-END-2: one more turn each, the trigger last
    final.append(int(s[st.SEAT]))
    for action in ((d.DO_WORKERS, {"building": y}), (d.DO_PUT, {"cell": _at(3, 4), "neutral": 0}), (d.DO_DONE, {})):
        act(s, t, p, action[0], **action[1])
    assert s[st.PHASE] == d.STONE and _stone_fields(s, t, p) == set(range(10))  # ARK-END-3: level 3
    families = set(_rows(s, t, p)[:, d.A_FAMILY].tolist())
    assert families == {f for f in range(4) if s[st.STONE_SUPPLY + 8 + f] > 0}  # from the level-3 supply
    act(s, t, p, d.DO_STONE, family=min(families), field=0)
    assert s[st.FIELD_HEIGHT] == 3 and s[st.STONE_SUPPLY + 8:st.STONE_SUPPLY + 12].sum() == 7
    assert s[st.PHASE] == d.BANNER  # a normal turn: part 2 too
    act(s, t, p, d.DO_BANNER, count=0)
    while s[st.PHASE] != d.OVER:
        final.append(int(s[st.SEAT]))
        assert s[st.PHASE] == d.PART1
        _play_turn(s, t, p)
    assert final == [2, 0, 1] and s[st.SEAT] == -1 and (s[st.RANK:st.RANK + 3] >= 1).all()


def test_ark_castle_8_supplies_stones_and_values_are_public(t):
    s, _ = _game(t)
    _fill_castle(s, range(10))
    place_stone(s, SPICE, 2)
    view = np.empty_like(s)
    for seat in range(3):
        observe(s, seat, view)
        for name in ("field_height", "field_top", "stone_supply", "level"):
            assert (st.STATE.view(view, name) == st.STATE.view(s, name)).all(), name
        assert [seal_value(view, t, f) for f in range(4)] == [seal_value(s, t, f) for f in range(4)]
    assert view[st.FIELD_HEIGHT + 2] == 2 and view[st.FIELD_TOP + 2] == SPICE


# --- ARK-BANNER


def test_ark_banner_1_only_the_active_player_at_the_end_of_his_turn_and_once(t):
    s, p = _game(t)
    s[st.SEALS + CLOTH] = 2  # yellow holds 2 cloth seals
    phases = []
    while s[st.PHASE] != d.BANNER:  # part 1 and the refill: no banner yet
        assert d.DO_BANNER not in _kinds(s, t, p)
        phases.append(int(s[st.PHASE]))
        apply_action(s, t, p, _rows(s, t, p)[0], None)
    assert phases == [d.PART1, d.REFILL] and s[st.SEAT] == 0
    assert _rows(s, t, p)[:, d.A_COUNT].tolist() == [0, 1]
    act(s, t, p, d.DO_BANNER, count=1)
    assert s[st.PHASE] == d.CASH and s[st.BANNERS_LEFT:st.BANNERS_LEFT + 3].tolist() == [3, 4, 4]
    act(s, t, p, d.DO_CASH, family=CLOTH, count=2)
    assert s[st.SEAT] == 1 and s[st.PHASE] == d.PART1  # no second banner in the turn
    assert _play_turn(s, t, p)[-1] == d.BANNER and s[st.BANNERS_LEFT + 1] == 4  # declined: the first row
    s[st.BANNERS_LEFT + 2] = 0
    assert d.BANNER not in _play_turn(s, t, p) and s[st.SEAT] == 0  # none left: no part 2
    assert s[st.BANNERS_LEFT:st.BANNERS_LEFT + 3].tolist() == [3, 4, 0]


def test_ark_banner_2_a_banner_leaves_the_game_and_brings_two_own_workers(t):
    s, p = _game(t, n_players=2)
    for turn in range(10):
        seat = int(s[st.SEAT])
        while s[st.PHASE] != d.OVER and s[st.TURN] == turn:
            rows = _rows(s, t, p)
            use = s[st.PHASE] == d.BANNER and seat == 0
            apply_action(s, t, p, rows[1 if use else 0], None)
            for who in (0, 1):
                on_board = sum(1 for c in range(ROWS * COLS) if _kind(s, c) == st.WORKER and s[st.CELL_WHO + c] == who)
                assert s[st.OWN_SCREEN + who] + s[st.OWN_SUPPLY + who] + on_board == 11
        if seat == 0:
            used = min(turn // 2 + 1, 4)
            assert s[st.BANNERS_LEFT] == 4 - used and s[st.OWN_SUPPLY] == 8 - 2 * used
    assert s[st.BANNERS_LEFT:st.BANNERS_LEFT + 2].tolist() == [0, 4]
    assert s[st.OWN_SCREEN] == 11 and s[st.OWN_SUPPLY] == 0  # 3 + 4 x 2; yellow only built
    assert s[st.OWN_SCREEN + 1] == 3 and s[st.OWN_SUPPLY + 1] == 8


def test_ark_banner_4_seals_are_cashed_only_after_a_banner_and_in_the_final_cashing(t):
    s, p = _game(t)
    s[st.SEALS + CLOTH] = 3
    s[st.BANNERS_LEFT] = 2
    assert d.CASH not in _play_turn(s, t, p)  # the banner declined: nothing cashed
    assert _seals(s, YELLOW)[CLOTH] == 3 and s[st.GOLD] == 0
    for _ in range(2):
        _play_turn(s, t, p)
    phases = []
    while s[st.SEAT] == 0 and s[st.PHASE] != d.CASH:
        phases.append(int(s[st.PHASE]))
        rows = _rows(s, t, p)
        apply_action(s, t, p, rows[-1 if s[st.PHASE] == d.BANNER else 0], None)
    assert _rows(s, t, p)[:, d.A_COUNT].tolist() == [0, 1, 2, 3]
    act(s, t, p, d.DO_CASH, family=CLOTH, count=1)
    value = seal_value(s, t, CLOTH)
    assert s[st.GOLD] == value and _seals(s, YELLOW)[CLOTH] == 2 and s[st.SEAT] == 1
    s[st.BANNERS_LEFT] = 0  # the last banner gone: no more cashing in play
    for _ in range(3):
        _play_turn(s, t, p)
    assert s[st.SEAT] == 1 and _seals(s, YELLOW)[CLOTH] == 2 and s[st.GOLD] == value
    s[st.END_TRIGGERED], s[st.TURNS_LEFT] = 1, 1  # orange's turn is the game's last
    _play_turn(s, t, p)
    assert s[st.PHASE] == d.OVER and _seals(s, YELLOW) == [0] * 4
    assert s[st.TOTAL] == s[st.GOLD] == value + 2 * seal_value(s, t, CLOTH)


def test_ark_banner_5_gold_comes_from_an_unlimited_supply(t):
    s, _ = _game(t)
    for seat in range(3):
        s[st.SEALS + 4 * seat + SILVERSMITH] = 100_000
    paid = [cash(s, t, seat, SILVERSMITH, 100_000) for seat in range(3)]
    assert paid == [200_000] * 3 and s[st.GOLD:st.GOLD + 3].tolist() == [200_000] * 3


# --- ARK-END


def test_ark_end_6_workers_banners_and_cards_left_are_worth_nothing(t):
    s, _ = _game(t)
    s[st.SEALS + 4 * 0 + SPICE] = s[st.SEALS + 4 * 1 + SPICE] = 3
    s[st.OWN_SCREEN + 0], s[st.NEUTRAL_SCREEN + 0], s[st.BANNERS_LEFT + 0] = 11, 6, 4  # yellow keeps everything
    s[st.OWN_SCREEN + 1], s[st.NEUTRAL_SCREEN + 1], s[st.BANNERS_LEFT + 1] = 0, 0, 0
    _empty_hands(s)
    s[st.CARD_LOC + _card(t, "mill", CLOTH)] = st.IN_HAND
    s[st.HAND_N] = 1
    final_cashing(s, t, 3)
    assert s[st.TOTAL:st.TOTAL + 3].tolist() == [6, 6, 0] and s[st.RANK:st.RANK + 3].tolist() == [1, 1, 3]


def _stalled(t, neutral_for_green):
    s, p = _game(t)
    _build(s, t, "residence", [(7, 6), (7, 7)], CLOTH)  # a building with free cells around it
    _empty_hands(s)
    s[st.DECK:st.DECK + st.MAX_CARDS] = -1
    s[st.DISPLAY:st.DISPLAY + 3] = -1
    s[st.OWN_SCREEN:st.OWN_SCREEN + 3] = 0
    s[st.BANNERS_LEFT:st.BANNERS_LEFT + 3] = 0
    s[st.NEUTRAL_SCREEN + GREEN] = neutral_for_green
    s[st.SEALS + 4 * ORANGE + SPICE] = 2
    return s, p


def test_ark_end_7_the_game_ends_at_once_when_nobody_can_take_part_1_again(t):
    s, p = _stalled(t, 0)
    assert _rows(s, t, p)[:, d.A_KIND].tolist() == [d.DO_SKIP]
    act(s, t, p, d.DO_SKIP)
    assert s[st.PHASE] == d.OVER and s[st.TURN] == 1  # after one turn: no round played out
    assert s[st.TOTAL:st.TOTAL + 3].tolist() == [0, 4, 0] and s[st.RANK:st.RANK + 3].tolist() == [2, 1, 2]
    s, p = _stalled(t, 1)  # green could still place its neutral worker: play goes on
    act(s, t, p, d.DO_SKIP)
    assert s[st.PHASE] == d.PART1 and s[st.SEAT] == 1


# --- every rule id


RULE_IDS = (  # the digest's rule ids, §3
    "ARK-SETUP-1", "ARK-SETUP-2", "ARK-SETUP-3", "ARK-SETUP-4", "ARK-SETUP-5",
    "ARK-SETUP-6", "ARK-SETUP-7", "ARK-SETUP-8", "ARK-SETUP-9",
    "ARK-TURN-1", "ARK-TURN-2", "ARK-TURN-3", "ARK-TURN-4", "ARK-TURN-5", "ARK-TURN-6",
    "ARK-PLACE-1", "ARK-PLACE-2", "ARK-PLACE-3", "ARK-PLACE-4", "ARK-PLACE-5",
    "ARK-PLACE-6", "ARK-PLACE-7", "ARK-PLACE-8", "ARK-PLACE-9",
    "ARK-WORKER-1", "ARK-WORKER-2", "ARK-WORKER-3", "ARK-WORKER-4", "ARK-WORKER-5", "ARK-WORKER-6",
    "ARK-COMPLETE-1", "ARK-COMPLETE-2", "ARK-COMPLETE-3", "ARK-COMPLETE-4",
    "ARK-COMPLETE-5", "ARK-COMPLETE-6", "ARK-COMPLETE-7", "ARK-COMPLETE-8",
    "ARK-CASTLE-1", "ARK-CASTLE-2", "ARK-CASTLE-3", "ARK-CASTLE-4",
    "ARK-CASTLE-5", "ARK-CASTLE-6", "ARK-CASTLE-7", "ARK-CASTLE-8",
    "ARK-BANNER-1", "ARK-BANNER-2", "ARK-BANNER-3", "ARK-BANNER-4", "ARK-BANNER-5",
    "ARK-END-1", "ARK-END-2", "ARK-END-3", "ARK-END-4", "ARK-END-5", "ARK-END-6", "ARK-END-7",
)


def _test_names(folder: Path) -> list[str]:
    names = []
    for path in sorted(folder.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                names.append(node.name)
    return names


def _covered(names) -> set[str]:
    """The rule ids the names cite as ``ark_<kind>_<n1>_<n2>...``."""
    ids = set()
    for name in names:
        for found in re.finditer(r"ark_(setup|turn|place|worker|complete|castle|banner|end)((?:_\d+)+)", name):
            ids.update(f"ARK-{found[1].upper()}-{n}" for n in found[2].strip("_").split("_"))
    return ids


def test_every_rule_id_of_the_digest_has_a_test_named_after_it():
    assert len(RULE_IDS) == len(set(RULE_IDS)) == 58
    assert _covered(["test_ark_turn_4_5_x", "test_ark_setup_9_amb_10", "test_tv_ark_14_and_4"]) == {
        "ARK-TURN-4", "ARK-TURN-5", "ARK-SETUP-9"}
    names = _test_names(Path(__file__).parent)
    assert "test_every_rule_id_of_the_digest_has_a_test_named_after_it" in names  # this file is read too
    missing = [rule for rule in RULE_IDS if rule not in _covered(names)]
    assert not missing, f"rule ids without a test named after them: {', '.join(missing)}"
