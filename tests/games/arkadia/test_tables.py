"""Arkadia's component table with its placement masks (``tables.py``): what the kernels will read about
the board, the castle sites and fields, the cards, every placement and the first-game layout."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.tables import component_table


@pytest.fixture(scope="module")
def built():
    comps = load_components()
    t = component_table(comps)
    n = int(t[st.T_N_PLACEMENTS])
    return comps, t, _rows(t, st.T_PLACE_BITS, n, 2 * st.MASK_WORDS).view(np.uint32)


def _rows(t, offset, count, width):
    return t[offset:offset + count * width].reshape(count, width)


def test_each_cell_knows_its_tent_and_its_edge_neighbours(built):
    comps, t, _ = built
    neighbours = _rows(t, st.T_NEIGHBOURS, st.MAX_CELLS, 4)
    assert sorted(n for n in neighbours[0] if n >= 0) == [1, 16]  # the corner (0, 0)
    assert sorted(neighbours[5 * 16 + 5]) == [4 * 16 + 5, 5 * 16 + 4, 5 * 16 + 6, 6 * 16 + 5]
    assert t[st.T_TENT:st.T_TENT + st.MAX_CELLS].sum() == 26 and t[st.T_TENT + 6] == 1  # tent (0, 6)


def test_ark_castle_7_each_site_holds_the_ten_fields_turned_with_it(built):
    _, t, _ = built
    assert t[st.T_N_SITES] == 10
    fields = _rows(t, st.T_SITE_FIELD, 10, st.SITE_CELLS)
    for row in fields:
        assert sorted(f for f in row if f >= 0) == list(range(10))  # two cells are the courtyard
    assert fields[0].reshape(3, 4).tolist() == [[0, 1, 2, 3], [4, -1, -1, 5], [6, 7, 8, 9]]
    assert fields[6].reshape(4, 3).tolist() == [[6, 4, 0], [7, -1, 1], [8, -1, 2], [9, 5, 3]]  # a tall site
    assert t[st.T_FIELD_PRINT:st.T_FIELD_PRINT + 10].tolist() == [0, 1, 2, 3, -1, -1, 3, 2, 1, 0]


def test_the_cards_are_the_shapes_times_their_families(built):
    comps, t, _ = built
    cards = _rows(t, st.T_CARD, int(t[st.T_N_CARDS]), 2)
    assert len(cards) == 40
    for s, shape in enumerate(comps.shapes):
        assert [int(((cards[:, 0] == s) & (cards[:, 1] == f)).sum()) for f in range(4)] == list(shape.cards)


def test_placements_list_rotations_then_mirror_images_with_masks_to_match(built):
    _, t, masks = built
    first = t[st.T_PLACE_FIRST:st.T_PLACE_FIRST + 8]
    turned = t[st.T_PLACE_TURNED_END:st.T_PLACE_TURNED_END + 7]
    assert int((turned - first[:-1]).sum()) == 3029 and first[-1] == t[st.T_N_PLACEMENTS] == 3941
    assert turned[6] == first[7] and turned[0] == first[1]  # the monastery and the residence have no mirrors
    cells = _rows(t, st.T_PLACE_CELLS, int(t[st.T_N_PLACEMENTS]), 6)
    assert masks.shape == (3941, 2 * st.MASK_WORDS)
    words = st.MASK_WORDS
    set_bits = [np.flatnonzero(np.unpackbits(row.view(np.uint8), bitorder="little")) for row in masks[:, :words]]
    assert all(sorted(c for c in row if c >= 0) == bits.tolist() for row, bits in zip(cells, set_bits, strict=True))
    assert not (masks[:, :words] & masks[:, words:]).any()


def test_ark_setup_9_the_first_game_layout_names_cards_and_placements(built):
    comps, t, _ = built
    assert t[st.T_INTRO_SITE] == 1  # the wide site at (4, 6), the second legal site
    intro = _rows(t, st.T_INTRO, int(t[st.T_N_INTRO]), 3)
    cards = _rows(t, st.T_CARD, int(t[st.T_N_CARDS]), 2)
    placed = _rows(t, st.T_PLACE_CELLS, int(t[st.T_N_PLACEMENTS]), 6)
    assert len(set(intro[:, 0])) == 7  # seven distinct cards leave the deck
    for (card, place, family), b in zip(intro, comps.intro_buildings, strict=True):
        assert tuple(cards[card]) == (b.shape, b.family) == (b.shape, family)
        assert sorted(c for c in placed[place] if c >= 0) == sorted(r * comps.cols + c for r, c in b.cells)
