"""The planning and steering feature columns in constructed positions: what a building leaves free,
whose workers stand around it, what a castle stone does to the seat's seals, and what a banner or a
cashing risks or keeps."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import features as f
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.kernels.board import put_worker
from bgsim.sim.games.arkadia.kernels.castle import place_stone
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.tables import component_table

from tests.games.arkadia.helpers import COLS, NO_LOG, RESIDENCE_CLOTH, act, give, placement, table

CLOTH, SPICE, CARPENTER, SILVERSMITH = range(4)


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


def _game(t):
    """2 players, the castle at rows 4-6, columns 6-9 (its fields: cloth printed on f0 and f9, spice
    on f1 and f8, blank f4 and f5)."""
    p = Params.from_dict({"n_players": 2, "castle_placement": "4,6,wide"}).to_array()
    return new_game(t, p, np.uint64(11), NO_LOG), p


def _row(acts, **columns):
    hits = [i for i in range(len(acts)) if all(acts[i, d.ACTION_FIELDS.index(k)] == v for k, v in columns.items())]
    assert len(hits) == 1, columns
    return hits[0]


def test_a_build_row_counts_the_cells_left_free_and_the_seats_workers_around(t):
    s, p = _game(t)
    give(s, RESIDENCE_CLOTH)
    put_worker(s, 3 * COLS + 5, 0)  # seat 0's worker left of (3, 6)
    put_worker(s, 2 * COLS + 6, 1)  # the other seat's, above (3, 6)
    k = placement(t, 0, [(3, 6), (3, 7)])  # on the castle's top edge
    feats, acts = table(s, t, p)
    row = _row(acts, kind=d.DO_BUILD, card=RESIDENCE_CLOTH, placement=k)
    assert feats[row, f.F_FREE_AFTER] == 2  # (2, 7) and (3, 8); the castle, the two workers close the rest
    assert feats[row, f.F_MY_WORKERS_AROUND] == 1


def _after_a_residence(t):
    """Seat 0 placed the cloth residence at (3, 6)(3, 7); seat 1 is to play part 1."""
    s, p = _game(t)
    give(s, RESIDENCE_CLOTH)
    act(s, t, p, d.DO_BUILD, card=RESIDENCE_CLOTH, placement=placement(t, 0, [(3, 6), (3, 7)]))
    act(s, t, p, d.DO_TAKE, slot=-1)
    act(s, t, p, d.DO_BANNER, count=0)
    assert s[st.SEAT] == 1 and s[st.PHASE] == d.PART1
    return s, p


def test_a_workers_row_says_whether_the_seat_can_close_the_building(t):
    s, p = _after_a_residence(t)
    assert s[st.OWN_SCREEN + 1] + s[st.NEUTRAL_SCREEN + 1] == 3
    feats, acts = table(s, t, p)
    row = _row(acts, kind=d.DO_WORKERS, building=0)
    assert feats[row, f.F_FREE_AROUND] == 4 and feats[row, f.F_CLOSABLE] == 0  # 3 workers, 4 free cells
    put_worker(s, 3 * COLS + 5, 1)
    feats, acts = table(s, t, p)
    row = _row(acts, kind=d.DO_WORKERS, building=0)
    assert feats[row, f.F_CLOSABLE] == 1 and feats[row, f.F_MY_WORKERS_AROUND] == 1


def test_a_put_row_values_an_own_worker_by_every_building_it_touches(t):
    s, p = _after_a_residence(t)
    # A second building under construction, a spice residence at (2, 8)(2, 9): (2, 7) touches both.
    spice = next(c for c in range(40) if t[st.T_CARD + 2 * c] == 0 and t[st.T_CARD + 2 * c + 1] == SPICE)
    s[st.SEAT] = 0
    give(s, spice)
    act(s, t, p, d.DO_BUILD, card=spice, placement=placement(t, 0, [(2, 8), (2, 9)]))
    act(s, t, p, d.DO_TAKE, slot=-1)
    act(s, t, p, d.DO_BANNER, count=0)
    place_stone(s, CLOTH, 4)  # cloth shows 3, spice 2
    s[st.NEUTRAL_SCREEN + 1] = 1  # seat 1, with its 3 own: 4 workers for the residence's 4 free cells
    act(s, t, p, d.DO_WORKERS, building=0)
    feats, acts = table(s, t, p)
    both = _row(acts, kind=d.DO_PUT, cell=2 * COLS + 7, neutral=0)
    one = _row(acts, kind=d.DO_PUT, cell=2 * COLS + 6, neutral=0)
    assert feats[both, f.F_OWN_PAYS] == 3 + 2 and feats[one, f.F_OWN_PAYS] == 3
    assert feats[_row(acts, kind=d.DO_PUT, cell=2 * COLS + 7, neutral=1), f.F_OWN_PAYS] == 0  # neutral: never paid
    assert feats[both, f.F_CLOSABLE] == 1


def test_put_and_done_rows_have_columns_of_their_own(t):
    """A worker put is weighed apart from an action B started: its closable, completions and payout
    repeat in PUT-only columns, and DONE says how many workers went out and how many cells stay free."""
    s, p = _after_a_residence(t)
    s[st.NEUTRAL_SCREEN + 1] = 1  # 3 own and 1 neutral for the residence's 4 free cells
    act(s, t, p, d.DO_WORKERS, building=0)
    feats, acts = table(s, t, p)
    assert not (acts[:, d.A_KIND] == d.DO_DONE).any()  # min_workers_in_b = 1: no DONE before a worker
    put = _row(acts, kind=d.DO_PUT, cell=2 * COLS + 6, neutral=1)
    assert feats[put, f.F_PUT_FREE_LEFT] == 3 and feats[put, f.F_PUT_CLOSABLE] == feats[put, f.F_CLOSABLE] == 1
    for cell in (2 * COLS + 6, 2 * COLS + 7, 3 * COLS + 5):
        act(s, t, p, d.DO_PUT, cell=cell, neutral=0)
    feats, acts = table(s, t, p)
    done = _row(acts, kind=d.DO_DONE)
    assert feats[done, f.F_DONE_PLACED] == 3 and feats[done, f.F_DONE_FREE_LEFT] == 1
    last = _row(acts, kind=d.DO_PUT, neutral=1)
    assert feats[last, f.F_PUT_FREE_LEFT] == 0 and feats[last, f.F_COMPLETES] == 1  # it closes the residence
    assert feats[last, f.F_PUT_COMPLETES] == 1 and feats[last, f.F_PUT_MY_PAYOUT] == feats[last, f.F_MY_PAYOUT] > 0
    assert not feats[:, [f.F_DONE_PLACED, f.F_DONE_FREE_LEFT]][acts[:, d.A_KIND] == d.DO_PUT].any()


def test_a_display_card_row_shows_the_cards_building_and_family(t):
    s, p = _game(t)
    s[st.PHASE], s[st.SEAT] = d.REFILL, 0
    s[st.SEALS + SPICE] = 2
    feats, acts = table(s, t, p)
    for row in range(len(acts)):
        slot = acts[row, d.A_SLOT]
        if slot < 0:  # the deck's top card is hidden: nothing but take_deck
            assert feats[row, f.F_TAKE_DECK] == 1 and not feats[row, f.F_TAKE_CELLS:f.F_TAKE_MY_SEALS + 1].any()
            continue
        card = s[st.DISPLAY + slot]
        shape, family = t[st.T_CARD + 2 * card], t[st.T_CARD + 2 * card + 1]
        first = t[st.T_PLACE_FIRST + shape]
        assert feats[row, f.F_TAKE_CELLS] == t[st.T_PLACE_SIZE + 2 * first] >= 2
        assert feats[row, f.F_TAKE_MY_SEALS] == (2 if family == SPICE else 0)
        assert feats[row, f.F_TAKE_VALUE] > 0


def test_a_stone_row_weighs_the_seats_seals_raised_against_those_it_covers(t):
    s, p = _game(t)
    s[st.PHASE], s[st.SEAT], s[st.STONES_OWED] = d.STONE, 0, 1
    s[st.SEALS + CARPENTER], s[st.SEALS + CLOTH] = 3, 2
    feats, acts = table(s, t, p)
    on_cloth = _row(acts, family=CARPENTER, field=0)  # a printed cloth field: carpenter +1, cloth -1
    on_blank = _row(acts, family=CARPENTER, field=4)
    on_spice = _row(acts, family=CARPENTER, field=1)  # spice: the seat holds none
    assert feats[on_cloth, f.F_MY_GOLD_CHANGE] == 3 - 2 and feats[on_cloth, f.F_LOWERS_OTHER] == 0
    assert feats[on_blank, f.F_MY_GOLD_CHANGE] == 3 and feats[on_blank, f.F_LOWERS_OTHER] == 0
    assert feats[on_spice, f.F_MY_GOLD_CHANGE] == 3 and feats[on_spice, f.F_LOWERS_OTHER] == 1
    assert (feats[:, f.F_STONE_FAMILY_VALUE] == feats[:, f.F_FAMILY_VALUE]).all()  # STONE's own copy
    lower_cloth = _row(acts, family=SPICE, field=0)  # the seat loses a cloth seal's worth 2 times
    assert feats[lower_cloth, f.F_MY_GOLD_CHANGE] == -2
    same = _row(acts, family=CLOTH, field=9)  # cloth on cloth: nothing changes
    assert feats[same, f.F_MY_GOLD_CHANGE] == 0 and feats[same, f.F_LOWERS_OTHER] == 0


def test_banner_and_cash_rows_count_the_seals_the_castle_can_still_lower_or_raise(t):
    s, p = _game(t)
    s[st.SEALS + CLOTH] = 3
    for field, family in ((4, CLOTH), (5, SPICE), (2, SPICE)):  # 3 stones: 17 to go to the end
        place_stone(s, family, field)
    # Cloth shows f0, f9 (printed, open) and f4 (a stone): 2 fields at risk on level 1. Its level-1
    # supply holds 2 more stones, and 5 open fields show another family: it can gain 2.
    s[st.PHASE], s[st.SEAT] = d.BANNER, 0
    feats, acts = table(s, t, p)
    use = _row(acts, kind=d.DO_BANNER, count=1)
    assert feats[use, f.F_SEALS_AT_RISK] == 3 * 2 and feats[use, f.F_SEALS_CAN_RISE] == 3 * 2
    assert feats[use, f.F_STONES_TO_END] == 17 and feats[use, f.F_BANNERS_LEFT] == 4
    assert feats[use, f.F_WORKERS_HELD] == 3
    assert not feats[use, f.F_CASH_AT_RISK:f.F_CASH_TO_END + 1].any()  # CASH's copies are its own
    keep = _row(acts, kind=d.DO_BANNER, count=0)
    assert not feats[keep].any()
    s[st.PHASE], s[st.CASH_FAMILY] = d.CASH, CLOTH
    feats, acts = table(s, t, p)
    two = _row(acts, count=2)
    assert feats[two, f.F_CASH_GOLD] == 2 * 3 and feats[two, f.F_SEALS_AT_RISK] == 2 * 2
    assert feats[two, f.F_SEALS_CAN_RISE] == 2 * 2 and feats[two, f.F_STONES_TO_END] == 2 * 17
    assert feats[two, f.F_CASH_AT_RISK] == 2 * 2 and feats[two, f.F_CASH_CAN_RISE] == 2 * 2
    assert feats[two, f.F_CASH_TO_END] == 2 * 17


def test_on_level_2_only_the_fields_still_without_a_second_stone_are_at_risk(t):
    s, p = _game(t)
    for field in range(10):
        place_stone(s, CARPENTER if field < 3 else SILVERSMITH if field < 6 else CLOTH, field)
    assert s[st.LEVEL] == 2
    place_stone(s, CLOTH, 0)  # cloth now shows f0 (level 2, safe) and f6-f9 (level 1, open)
    s[st.SEALS + CLOTH] = 1
    s[st.PHASE], s[st.SEAT], s[st.CASH_FAMILY] = d.CASH, 0, CLOTH
    feats, acts = table(s, t, p)
    one = _row(acts, count=1)
    # open fields: f1-f9; 4 show cloth; cloth's level-2 supply holds 2, 5 open fields show another family
    assert feats[one, f.F_FAMILY_VALUE] == 5 and feats[one, f.F_SEALS_AT_RISK] == 4
    assert feats[one, f.F_SEALS_CAN_RISE] == 2 and feats[one, f.F_STONES_TO_END] == 9
