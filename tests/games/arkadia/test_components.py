"""Arkadia's component data and grid geometry (digest §2, TV-ARK-10..12, -14): the reconstructed
tables load, their counts match the rulebook, the first-game layout is a legal position, and a
broken replacement is a one-line DataError."""

import re
from pathlib import Path

import numpy as np
import pytest
from bgsim.sim.errors import DataError
from bgsim.sim.games.arkadia.components import DATA_DIR, FAMILIES, SHAPES, load_components
from bgsim.sim.games.arkadia.geometry import (
    MASK_WORDS,
    castle_sites,
    mask_of,
    neighbours,
    orientations,
    placements,
    site_cells,
)

DEFAULT = (DATA_DIR / "components.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def comps():
    return load_components()


def test_ark_setup_6_the_deck_holds_40_cards_of_132_cells_ten_per_family(comps):
    assert comps.cards == 40 and [s.name for s in comps.shapes] == list(SHAPES)
    assert sum(len(s.cells) * sum(s.cards) for s in comps.shapes) == 132
    assert [sum(s.cards[f] for s in comps.shapes) for f in range(len(FAMILIES))] == [10, 10, 10, 10]
    assert (comps.rows, comps.cols, len(comps.tents)) == (12, 16, 26)
    assert comps.files["components"]["status"] == "reconstructed" and comps.files["components"]["sha256"]


def test_ark_castle_7_ten_fields_print_two_seals_per_family(comps):
    fields = comps.castle_fields()
    assert len(fields) == 10 and all(fields.count(f) == 2 for f in FAMILIES) and fields.count("blank") == 2


def test_tv_ark_12_the_reconstructed_map_has_exactly_ten_castle_sites(comps):
    wide = [(4, 5), (4, 6), (4, 7), (5, 5), (5, 6), (5, 7)]
    tall = [(4, 5), (4, 6), (4, 7), (4, 8)]
    assert castle_sites(comps.rows, comps.cols, comps.tents) == (
        [(r, c, "wide") for r, c in wide] + [(r, c, "tall") for r, c in tall])


def test_ark_place_2_shapes_turn_four_ways_and_mirror_only_under_amb_6(comps):
    turns = {s.name: len(orientations(s.cells)) for s in comps.shapes}
    mirrored = {s.name: len(orientations(s.cells, mirror=True)) for s in comps.shapes}
    assert turns == {"residence": 2, "farm": 4, "tavern": 2, "mill": 4, "smithy": 4, "trade_centre": 2,
                     "monastery": 1}
    assert mirrored == turns | {"smithy": 8, "trade_centre": 4}


def test_placements_are_every_orientation_at_every_anchor_inside_the_board(comps):
    shapes = [s.cells for s in comps.shapes]
    found = placements(shapes, comps.rows, comps.cols)
    assert len(found.shape) == found.first[-1] and found.mask.shape == (len(found.shape), MASK_WORDS)
    # a 2-cell residence lies 12 x 15 ways across and 11 x 16 ways down
    assert found.first[1] - found.first[0] == 12 * 15 + 11 * 16
    bits = np.unpackbits(found.mask.view(np.uint8), axis=1).sum(axis=1)
    assert (bits == (found.cells >= 0).sum(axis=1)).all()  # one bit per covered cell
    assert not (found.mask & found.around).any()  # the cells around never include the placement's own
    monastery = found.first[6]  # the first monastery placement: top-left corner (0, 0)
    assert (found.around[monastery] == mask_of([(0, 2), (1, 2), (2, 0), (2, 1)], comps.cols)).all()


def test_ark_setup_9_the_first_game_layout_is_a_legal_position(comps):
    site = set(site_cells(*comps.intro_castle))
    taken = site | {cell for b in comps.intro_buildings for cell in b.cells}
    free = [len(neighbours(b.cells, comps.rows, comps.cols) - taken) for b in comps.intro_buildings]
    assert free == [4, 6, 3, 6, 7, 7, 6]  # the digest's count of free neighbours; none enclosed
    assert [b.shape for b in comps.intro_buildings] == list(range(7))  # one building of every shape
    assert not any(cell in comps.tents for cell in taken)


def test_tv_ark_10_and_11_what_touches_the_castle_site(comps):
    site = set(site_cells(4, 6, "wide"))
    covers = {(3, 7), (3, 8)}
    assert covers <= comps.tents and neighbours(covers, comps.rows, comps.cols) & site  # 2 tents, touches
    diagonal = {(3, 4), (3, 5)}
    assert not neighbours(diagonal, comps.rows, comps.cols) & site  # (3, 5) meets (4, 6) at a corner only


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    assert old in DEFAULT
    path = tmp_path / "components.toml"
    path.write_text(DEFAULT.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("old", "new", "message"), [
    ("[2, 2], [2, 5]", "[2, 2], [12, 5]", "tent [12, 5] lies outside the 12 x 16 board"),
    ('["blank", "courtyard", "courtyard", "blank"]', '["blank", "courtyard", "courtyard", "courtyard"]',
     "the castle has 10 fields (004), got 9"),
    ("[4, 3], [4, 4], [4, 5], [5, 3]", "[4, 3], [4, 4], [4, 5], [5, 5]", "not a rotation of the shape"),
    ("[7, 8], [7, 9], [8, 8], [8, 9]", "[7, 8], [7, 9], [8, 8], [8, 7]", "not a rotation of the shape"),
    ("cells = [[0, 0], [0, 1]]\n", "cells = [[0, 0], [0, 2]]\n", "joined edge to edge"),
    ('status = "reconstructed"\nsource = "RN Item 5', 'status = "guessed"\nsource = "RN Item 5',
     "status must be one of exact, reconstructed"),
    ("rows = 12", "rows = 12\ncolumns = 16", "unknown field 'columns'"),
    ('castle = { row = 4, col = 6, orientation = "wide" }', 'castle = { row = 3, col = 6, orientation = "wide" }',
     "no legal castle site"),
])
def test_a_broken_replacement_is_one_line_naming_file_entry_and_reason(tmp_path, old, new, message):
    with pytest.raises(DataError, match=re.escape(message)) as caught:
        load_components(components_file=_broken(tmp_path, old, new))
    assert str(caught.value).startswith("components.toml: ") and "\n" not in str(caught.value)
