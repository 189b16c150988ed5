"""The castle (ARK-CASTLE, TV-ARK-5..7): seal values from the visible tops, stones level by level,
the leftovers moving to level 3 and the end triggered when level 2 fills."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.kernels.castle import (
    place_stone,
    reset_castle,
    seal_value,
    stone_is_legal,
    stones_available,
)
from bgsim.sim.games.arkadia.tables import component_table

CLOTH, SPICE, CARPENTER, SILVERSMITH = range(4)


@pytest.fixture(scope="module")
def table():
    return component_table(load_components())


@pytest.fixture
def s():
    state = np.zeros(st.STATE_SIZE, dtype=np.int32)
    reset_castle(state)
    return state


def _supply(s, level):
    return s[st.STONE_SUPPLY + (level - 1) * 4: st.STONE_SUPPLY + level * 4].tolist()


def _values(s, t):
    return [seal_value(s, t, f) for f in range(4)]


def test_ark_setup_5_the_supplies_hold_12_12_and_4_stones(s):
    assert _supply(s, 1) == [3, 3, 3, 3] and _supply(s, 2) == [3, 3, 3, 3] and _supply(s, 3) == [1, 1, 1, 1]
    assert s[st.LEVEL] == 1 and not s[st.END_TRIGGERED]


def test_tv_ark_5_seal_values_follow_the_visible_tops(s, table):
    assert _values(s, table) == [2, 2, 2, 2]  # ARK-SETUP-8: two printed seals each
    blank = s.copy()
    place_stone(blank, CARPENTER, 4)
    place_stone(blank, CARPENTER, 5)  # the two blank fields
    assert _values(blank, table) == [2, 2, 4, 2]
    printed = s.copy()
    place_stone(printed, CARPENTER, 0)
    place_stone(printed, CARPENTER, 9)  # the two printed cloth fields
    assert _values(printed, table) == [0, 2, 4, 2]


def test_ark_castle_3_a_stone_goes_on_a_field_of_the_current_level_from_its_supply(s):
    assert stone_is_legal(s, SPICE, 3)
    place_stone(s, SPICE, 3)
    assert not stone_is_legal(s, CLOTH, 3)  # level 2 has not begun: field 3 holds its level-1 stone
    for _ in range(2):
        place_stone(s, SPICE, 4 + _)
    assert not stone_is_legal(s, SPICE, 7)  # the level-1 supply holds no more spice


def _fill(s, level_fields, keep):
    """Put stones on every field but ``keep`` of the current level, taking families in turn from what
    the supply holds."""
    for field in level_fields:
        if field == keep:
            continue
        family = next(f for f in range(4) if s[st.STONE_SUPPLY + (s[st.LEVEL] - 1) * 4 + f] > 0)
        place_stone(s, family, field)


def test_tv_ark_6_filling_level_1_moves_its_two_leftovers_to_level_3(s):
    for field, family in zip(range(9), (CLOTH, SPICE, SPICE, CARPENTER, CARPENTER, CARPENTER, SILVERSMITH,
                                        SILVERSMITH, SILVERSMITH), strict=True):
        place_stone(s, family, field)
    assert _supply(s, 1) == [2, 1, 0, 0]  # cloth, cloth, spice left
    s[st.STONES_OWED] = 2  # two buildings completed
    place_stone(s, SPICE, 9)  # the 10th stone fills level 1
    assert s[st.LEVEL] == 2 and _supply(s, 1) == [0, 0, 0, 0] and _supply(s, 3) == [3, 1, 1, 1]  # 6 on level 3
    assert all(stone_is_legal(s, f, 0) for f in range(4))  # the level-2 supply holds every family
    place_stone(s, CLOTH, 0)  # the second stone: from the level-2 supply, on a level-1 stone
    assert _supply(s, 2) == [2, 3, 3, 3] and s[st.FIELD_HEIGHT] == 2 and s[st.STONES_OWED] == 0


def test_tv_ark_7_filling_level_2_triggers_the_end_and_level_3_takes_the_rest(s, table):
    _fill(s, range(10), keep=-1)
    _fill(s, range(10), keep=9)  # level 2 holds 9 stones
    assert s[st.LEVEL] == 2 and sum(_supply(s, 3)) == 6 and not s[st.END_TRIGGERED]
    s[st.STONES_OWED] = 3
    place_stone(s, SILVERSMITH, 9)  # fills level 2
    assert s[st.END_TRIGGERED] == 1 and s[st.LEVEL] == 3 and sum(_supply(s, 3)) == 8
    for field in (0, 1):
        family = next(f for f in range(4) if s[st.STONE_SUPPLY + 8 + f] > 0)
        assert stone_is_legal(s, family, field)
        place_stone(s, family, field)
    assert s[st.STONES_OWED] == 0 and sum(_supply(s, 3)) == 6 and s[st.FIELD_HEIGHT] == 3


def test_ark_castle_6_level_3_never_fills_and_an_empty_supply_places_nothing(s):
    _fill(s, range(10), keep=-1)
    _fill(s, range(10), keep=-1)
    _fill(s, range(8), keep=-1)  # the 8 level-3 stones
    assert s[st.LEVEL] == 3 and stones_available(s) == 0  # AMB-9: owed stones are not placed
    assert not any(stone_is_legal(s, f, 9) for f in range(4))
