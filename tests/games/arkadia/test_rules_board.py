"""The board (ARK-PLACE, ARK-WORKER, ARK-COMPLETE; TV-ARK-2, -9, -10, -11, -13): where a building may
go, what it covers, enclosure and the payout of completed buildings."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.kernels.board import (
    complete_buildings,
    free_cells_around,
    is_enclosed,
    lay_castle_site,
    place_building,
    placement_is_legal,
    put_worker,
)
from bgsim.sim.games.arkadia.tables import component_table

from tests.games.arkadia.helpers import placement

YELLOW, ORANGE, GREEN, VIOLET = range(4)
CLOTH, SPICE, CARPENTER, SILVERSMITH = range(4)
COLS = 16
WIDE_AT_4_6 = 1  # the castle site wide at rows 4-6, columns 6-9: the second legal site


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


@pytest.fixture
def s():
    return np.zeros(st.STATE_SIZE, dtype=np.int32)


def _seals(s):
    return s[st.SEALS:st.SEALS + 16].reshape(4, 4)


def test_tv_ark_2_an_action_b_encloses_two_buildings_and_each_pays_on_its_own(s, t):
    lay_castle_site(s, t, WIDE_AT_4_6)
    place_building(s, t, placement(t, "monastery", [(1, 0), (1, 1), (2, 0), (2, 1)]), SPICE)
    place_building(s, t, placement(t, "trade_centre", [(0, 3), (0, 4), (1, 2), (1, 3)]), CLOTH)
    for (r, c), colour in (((0, 0), YELLOW), ((0, 1), YELLOW), ((3, 0), GREEN), ((3, 1), GREEN), ((0, 5), ORANGE),
                           ((1, 4), st.NEUTRAL)):
        put_worker(s, r * COLS + c, colour)
    assert not is_enclosed(s, t, 0) and not is_enclosed(s, t, 1)
    for (r, c), colour in (((2, 2), VIOLET), ((2, 3), VIOLET), ((0, 2), st.NEUTRAL)):  # violet's action B
        put_worker(s, r * COLS + c, colour)
    assert complete_buildings(s, t, VIOLET) == 2 and s[st.STONES_OWED] == 2
    seals = _seals(s)
    assert seals[:, CLOTH].tolist() == [0, 1, 0, 3]  # orange 1, violet 2 + the trade centre's seal
    assert seals[:, SPICE].tolist() == [2, 0, 2, 2]  # yellow 2, green 2, violet 1 + the monastery's seal
    assert complete_buildings(s, t, VIOLET) == 0  # ARK-COMPLETE-8: a completed building never pays again


def test_tv_ark_9_the_board_edge_encloses_and_a_building_can_complete_as_it_is_placed(s, t):
    lay_castle_site(s, t, WIDE_AT_4_6)
    for (r, c), colour in (((1, 0), ORANGE), ((1, 1), st.NEUTRAL), ((0, 2), VIOLET)):
        put_worker(s, r * COLS + c, colour)
    k = placement(t, "residence", [(0, 0), (0, 1)])
    assert placement_is_legal(s, t, k)  # it touches workers
    place_building(s, t, k, CLOTH)
    assert complete_buildings(s, t, YELLOW) == 1 and s[st.STONES_OWED] == 1
    assert _seals(s)[:, CLOTH].tolist() == [1, 1, 0, 1]  # yellow's seal, orange 1, violet 1, neutral nothing


def test_tv_ark_10_covering_tents_next_to_the_castle(s, t):
    lay_castle_site(s, t, WIDE_AT_4_6)
    k = placement(t, "residence", [(3, 7), (3, 8)])
    assert placement_is_legal(s, t, k)
    assert place_building(s, t, k, CLOTH) == (0, 2)  # building 0, two tents covered


def test_tv_ark_11_diagonal_contact_a_worker_underneath_and_a_tent_are_not_enough(s, t):
    lay_castle_site(s, t, WIDE_AT_4_6)
    assert not placement_is_legal(s, t, placement(t, "residence", [(3, 4), (3, 5)]))  # corner of (4, 6) only
    put_worker(s, 3 * COLS + 6, ORANGE)
    assert not placement_is_legal(s, t, placement(t, "residence", [(3, 5), (3, 6)]))  # a worker on (3, 6)
    assert placement_is_legal(s, t, placement(t, "residence", [(2, 6), (2, 7)]))  # next to that worker
    assert not placement_is_legal(s, t, placement(t, "residence", [(2, 3), (2, 4)]))  # only tents around


def test_tv_ark_13_one_worker_beside_two_completed_buildings_earns_twice(s, t):
    lay_castle_site(s, t, WIDE_AT_4_6)
    place_building(s, t, placement(t, "residence", [(0, 0), (0, 1)]), SPICE)
    place_building(s, t, placement(t, "residence", [(0, 3), (0, 4)]), SILVERSMITH)
    put_worker(s, 2, ORANGE)  # (0, 2), beside both
    around = np.zeros(24, dtype=np.int64)
    assert sorted(around[:free_cells_around(s, t, 1, around)].tolist()) == [5, 16 + 3, 16 + 4]
    for cell in (16, 17, 5, 19, 20):
        put_worker(s, cell, st.NEUTRAL)
    assert complete_buildings(s, t, YELLOW) == 2 and s[st.STONES_OWED] == 2
    seals = _seals(s)
    assert seals[ORANGE].tolist() == [0, 1, 0, 1] and seals[YELLOW].tolist() == [0, 1, 0, 1]
