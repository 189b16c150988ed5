"""Scenario tests for the building rules (CD-BUILD-1..10) and features (CD-FEATURE-1..8)."""

import tomllib

import pytest
from bgsim.sim import make_game
from bgsim.sim.errors import DataError, IllegalActionError
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.components import DATA_DIR
from bgsim.sim.games.carpe_diem.tables import TABLES

from tests.games.carpe_diem._scenario import (
    District,
    arrange_turn,
    cell_of,
    cells,
    ev,
    placements,
    rc,
    seal_tiles,
    store_rows,
)
from tests.games.carpe_diem.helpers import counts, decide, field, fresh, game, shovel

CW = D.STEP_CW


def _turn(g, s, tile, seat=0, bread=0):
    """Arrange seat's turn with ``tile`` alone in depot D1 (patrician on P0)."""
    arrange_turn(g, s, seat, {1: [tile]}, patrician=0, bread=bread)


def _district(seed=0, n=4):
    g = game(n)
    s = fresh(g, seed)
    d = District(g, s, 0)
    return g, s, d


def _build(g, s, d, tile, at, part_type=None, letters=None, log=None):
    """Build ``tile`` at ``at`` through a whole turn (the rotation showing ``part_type`` open at ``letters``)."""
    d.sync_taken()
    _turn(g, s, tile)
    decide(g, s, log, move=CW, cell=cell_of(*at), rotation=d.rot(tile, part_type, letters))


# --- CD-BUILD


def test_cd_build_1_first_tile_on_the_shovel_in_any_rotation():
    """The first tile offers the shovel cell only, in all 4 rotations, and no STORE."""
    g = game(4)
    s = fresh(g, 2)
    d = District(g, s, 0)
    tile = d.tile([("villa", "NE"), ("merchant", "W")], dark=False)
    _turn(g, s, tile)
    sh = shovel(g, s, 0)
    assert placements(g, s, tile) == {(sh, r) for r in range(4)}
    assert store_rows(g, s) == []
    decide(g, s, move=CW, cell=sh, rotation=3)
    assert int(field(g, s, "cell_tile")[0, sh]) == tile and int(field(g, s, "cell_rot")[0, sh]) == 3


def test_cd_build_1_first_tile_offers_every_distinct_orientation():
    """A straight villa has two distinct orientations on the shovel; both are offered."""
    g = game(2)
    s = fresh(g, 3)
    d = District(g, s, 0)
    tile = d.tile([("villa", "NS")], dark=False)
    _turn(g, s, tile)
    sh = shovel(g, s, 0)
    rots = {r for c, r in placements(g, s, tile) if c == sh}
    assert placements(g, s, tile) == {(sh, r) for r in rots}
    assert {d.rot(tile, "villa", "NS"), d.rot(tile, "villa", "EW")} <= rots


def test_cd_build_1_alternative_first_tile_may_be_stored():
    """AMB-10 alternative: the first tile may be stored; the first built tile still goes on the shovel."""
    g = game(4, first_tile_may_be_stored=True)
    s = fresh(g, 1)
    d = District(g, s, 0)
    a, b = d.tile([("market", "")]), d.tile([("bakery", "")])
    _turn(g, s, a)
    assert len(store_rows(g, s, a)) == 2
    decide(g, s, move=CW, cell=-1)
    _turn(g, s, b)
    assert cells(g, s, b) == {shovel(g, s, 0)}


def test_cd_build_2_later_tiles_need_a_full_edge_neighbour():
    """Beside one built tile, a meadow-only tile fits on the 4 orthogonal neighbours only (no diagonal)."""
    g, s, d = _district(5)
    r, c = rc(shovel(g, s, 0))
    d.meadow((r, c), "market")
    bakery = d.tile([("bakery", "")])
    d.sync_taken()
    _turn(g, s, bakery)
    want = {cell_of(r - 1, c), cell_of(r + 1, c), cell_of(r, c - 1), cell_of(r, c + 1)}
    assert cells(g, s, bakery) == want
    for dr in (-1, 1):
        for dc in (-1, 1):
            assert cell_of(r + dr, c + dc) not in cells(g, s, bakery)  # diagonal contact only


def test_cd_build_2_the_frame_is_not_a_tile():
    """A cell touching only the frame is never offered, even in a corner."""
    g, s, d = _district(6)
    d.meadow((0, 1), "market")
    bakery = d.tile([("bakery", "")])
    d.sync_taken()
    _turn(g, s, bakery)
    assert cells(g, s, bakery) == {cell_of(0, 0), cell_of(0, 2), cell_of(1, 1)}
    bad = g.decision(s).actions[0].copy()
    bad[g.action_fields.index("cell")] = cell_of(5, 5)
    with pytest.raises(IllegalActionError):
        g.apply(s, bad, validate=True)


def test_cd_build_3_every_rotation_allowed_that_matches():
    """A villa end east of a market: open N, E or S are legal; open W (facing the market) is not."""
    g, s, d = _district(7)
    d.meadow((2, 2), "market")
    end = d.tile([("villa", "N")], dark=True)
    d.sync_taken()
    _turn(g, s, end)
    at = cell_of(2, 3)
    got = {rot for c, rot in placements(g, s, end) if c == at}
    assert got == {d.rot(end, "villa", x) for x in "NES"}


def test_cd_build_4_every_edge_carries_one_code():
    """Engine edge table: an open edge carries its part's type, every other edge is meadow."""
    g = game(4)
    view = TABLES.view(g.tables, "rot_edge")
    for i, tile in enumerate(g.components.tiles):
        used = 0
        for part in tile.parts:
            assert not used & part.open_mask  # parts use disjoint edges
            used |= part.open_mask
        for r in range(4):
            for dir_ in range(4):
                src = (dir_ - r) % 4
                owner = [p.type for p in tile.parts if p.open_mask >> src & 1]
                assert int(view[i, r, dir_]) == (owner[0] if owner else K.MEADOW)
                assert owner == [] or owner[0] < K.MARKET  # small buildings never reach an edge


def test_cd_build_4_two_part_tile_matches_each_part_on_its_own_edges():
    """A villa+merchant tile fits only with the villa edge on the villa and the merchant edge on the merchant."""
    g, s, d = _district(8)
    d.put((1, 2), [("villa", "N")], "villa", "S", dark=True)
    d.put((2, 1), [("merchant", "N")], "merchant", "E", dark=True)
    tile = d.tile([("villa", "NS"), ("merchant", "E")], dark=False)
    d.sync_taken()
    _turn(g, s, tile)
    at = cell_of(2, 2)
    assert {rot for c, rot in placements(g, s, tile) if c == at} == {d.rot(tile, "merchant", "W")}
    coins = int(field(g, s, "coins")[0])
    decide(g, s, move=CW, cell=at)
    assert counts(g, s, 0)["merchant"] == 1 and counts(g, s, 0)["villas"] == 0
    assert int(field(g, s, "coins")[0]) == coins + 1


def test_cd_build_5_frame_edges_must_be_meadow():
    """TV-25: a pond end on (0,3) may not open north onto the frame (nor east onto a market)."""
    g, s, d = _district(9)
    d.meadow((0, 4), "market")
    end = d.tile([("pond", "N")], dark=True)
    d.sync_taken()
    _turn(g, s, end)
    at = cell_of(0, 3)
    assert {rot for c, rot in placements(g, s, end) if c == at} == {d.rot(end, "pond", "S"), d.rot(end, "pond", "W")}
    corner = {rot for c, rot in placements(g, s, end) if c == cell_of(0, 5)}
    assert corner == {d.rot(end, "pond", "S")}  # (0,5): N and E face the frame, W the market


def test_cd_build_5_pond_south_legal_iff_the_cell_below_matches():
    """TV-25: pond facing south on (0,3) needs (1,3) empty or open north as pond."""
    for below, want in (("pond", {"S"}), ("market", {"W"})):
        g, s, d = _district(10)
        d.meadow((0, 4), "market")
        if below == "pond":
            d.put((1, 3), [("pond", "N")], "pond", "N", dark=True)
        else:
            d.meadow((1, 3), "market")
        end = d.tile([("pond", "N")], dark=True)
        d.sync_taken()
        _turn(g, s, end)
        got = {rot for c, rot in placements(g, s, end) if c == cell_of(0, 3)}
        assert got == {d.rot(end, "pond", x) for x in want}, below


def test_cd_build_5_every_touching_edge_must_match():
    """Pond opening to the north, market to the west: a pond corner fits only open N+E (meadow west)."""
    g, s, d = _district(11)
    d.put((1, 2), [("pond", "N")], "pond", "S", dark=True)
    d.meadow((2, 1), "market")
    corner = d.tile([("pond", "NE"), ("administrator", "S")], dark=False)
    straight = d.tile([("pond", "NS")], dark=False)
    d.sync_taken()
    arrange_turn(g, s, 0, {1: [corner, straight]}, patrician=0)
    at = cell_of(2, 2)
    assert {r for c, r in placements(g, s, corner) if c == at} == {d.rot(corner, "pond", "NE")}
    assert {r for c, r in placements(g, s, straight) if c == at} == {d.rot(straight, "pond", "NS")}
    # matching the pond alone is not enough: open N+W would put pond against the market's meadow
    assert (at, d.rot(corner, "pond", "NW")) not in placements(g, s, corner)


def test_cd_build_5_edges_facing_empty_cells_are_unconstrained():
    """Open edges may point at empty cells: a pond straight beside a market may open N and S."""
    g, s, d = _district(12)
    d.meadow((2, 2), "market")
    straight = d.tile([("pond", "NS")], dark=False)
    d.sync_taken()
    _turn(g, s, straight)
    assert (cell_of(2, 3), d.rot(straight, "pond", "NS")) in placements(g, s, straight)
    assert (cell_of(2, 3), d.rot(straight, "pond", "EW")) not in placements(g, s, straight)


def _open_pond_of_four(d):
    """Pond end (2,1) - straight (2,2) - straight (2,3) - corner (2,4) open north to (1,4)."""
    d.put((2, 1), [("pond", "N")], "pond", "E", dark=True)
    d.put((2, 2), [("pond", "NS")], "pond", "EW", dark=False)
    d.put((2, 3), [("pond", "NS")], "pond", "EW", dark=False)
    d.put((2, 4), [("pond", "NE"), ("administrator", "S")], "pond", "NW", dark=False)


def test_cd_build_6_landscape_capped_at_four_tiles():
    """AMB-2 default: a 5th pond tile that would join a 4-tile pond is not offered."""
    g, s, d = _district(13)
    _open_pond_of_four(d)
    end = d.tile([("pond", "N")], dark=True)
    d.sync_taken()
    _turn(g, s, end)
    assert cell_of(1, 4) not in cells(g, s, end)
    assert cells(g, s, end)  # elsewhere it still fits
    g2 = game(4, landscape_max_tiles=None)
    s2 = fresh(g2, 13)
    d2 = District(g2, s2, 0)
    _open_pond_of_four(d2)
    end2 = d2.tile([("pond", "N")], dark=True)
    d2.sync_taken()
    _turn(g2, s2, end2)
    assert (cell_of(1, 4), d2.rot(end2, "pond", "S")) in placements(g2, s2, end2)
    decide(g2, s2, move=CW, cell=cell_of(1, 4))
    assert int(field(g2, s2, "goods")[0, K.FISH]) == 4  # size 5 without the cap: 4 fish


def test_cd_build_6_joining_two_ponds_into_five_tiles_is_illegal():
    """A corner joining a 2-tile and a 2-tile pond (5 tiles) is illegal; 2 + 1 + corner (4) is legal."""
    for lower, legal in ((2, False), (1, True)):
        g, s, d = _district(14)
        d.put((2, 0), [("pond", "N")], "pond", "E", dark=True)
        d.put((2, 1), [("pond", "NS")], "pond", "EW", dark=False)
        if lower == 2:
            d.put((3, 2), [("pond", "NS")], "pond", "NS", dark=False)
            d.put((4, 2), [("pond", "N")], "pond", "N", dark=True)
        else:
            d.put((3, 2), [("pond", "N")], "pond", "N", dark=True)
        corner = d.tile([("pond", "NE"), ("administrator", "S")], dark=False)
        d.sync_taken()
        _turn(g, s, corner)
        option = (cell_of(2, 2), d.rot(corner, "pond", "SW"))
        assert (option in placements(g, s, corner)) == legal
        if legal:
            decide(g, s, move=CW, cell=option[0], rotation=option[1])
            assert int(field(g, s, "goods")[0, K.FISH]) == 3


def test_cd_build_7_banner_cell_gives_one_step_and_the_banner_leaves():
    """Building on a banner cell removes the banner and moves the banner disc 1 step, on top of the stack."""
    g, s, d = _district(15)
    d.meadow((2, 2), "market")
    field(g, s, "banner_left")[0, cell_of(2, 3)] = 1
    field(g, s, "banner_pos")[:4] = [0, 1, 1, 0]
    bakery = d.tile([("bakery", "")])
    _build(g, s, d, bakery, (2, 3))
    assert int(field(g, s, "banner_left")[0, cell_of(2, 3)]) == 0
    assert int(field(g, s, "banner_pos")[0]) == 1
    stamps = field(g, s, "banner_stamp")[:4]
    assert int(stamps[0]) > max(int(stamps[1]), int(stamps[2]))  # on top of seats 1 and 2


def test_cd_build_7_banner_step_also_for_a_craftsman_seal_tile():
    """A seal tile built by a craftsman reward on a banner cell also gives the banner step."""
    g, s, d = _district(16)
    d.put((2, 1), [("craftsman", "N")], "craftsman", "E", dark=True)
    half = d.tile([("craftsman", "N")], dark=True)
    market = d.tile([("market", "")], dark=True)
    seal_tiles(g, s, {3: market})
    field(g, s, "banner_left")[0, cell_of(2, 3)] = 1
    _build(g, s, d, half, (2, 2), "craftsman", "W")
    assert g.decision(s).kind == D.CRAFTSMAN
    decide(g, s, space=3, cell=cell_of(2, 3))
    assert int(field(g, s, "banner_pos")[0]) == 1
    assert int(field(g, s, "banner_left")[0, cell_of(2, 3)]) == 0


def test_cd_build_7_no_banner_step_for_a_stored_tile():
    """Storing never touches banners, even with banners all over the district."""
    g, s, d = _district(17)
    d.meadow((2, 2), "market")
    field(g, s, "banner_left")[0] = 1
    field(g, s, "banner_left")[0, cell_of(2, 2)] = 0
    bakery = d.tile([("bakery", "")])
    d.sync_taken()
    _turn(g, s, bakery)
    decide(g, s, move=CW, cell=-1)
    assert int(field(g, s, "banner_pos")[0]) == 0
    assert int(field(g, s, "banner_left")[0].sum()) == 35


def test_cd_build_8_every_feature_completed_by_one_build_pays():
    """A pond+garden tile between a pond end and a garden end completes both: 1 fish and 1 herb."""
    g, s, d = _district(18)
    d.put((1, 2), [("pond", "N")], "pond", "S", dark=True)
    d.put((3, 2), [("garden", "N")], "garden", "N", dark=True)
    tile = d.tile([("pond", "N"), ("garden", "S")], dark=False)
    log = g.new_log()
    _build(g, s, d, tile, (2, 2), "pond", "N", log=log)
    assert sorted(e[1] for e in ev(log, "complete")) == [K.POND, K.GARDEN]
    assert field(g, s, "goods")[0].tolist() == [1, 1, 0, 0]
    assert counts(g, s, 0)["landscapes"] == 2


def test_cd_build_9_any_number_of_complete_and_incomplete_features():
    """A district may hold several baker lodgings, complete and incomplete; built tiles never move."""
    g, s, d = _district(19)
    d.put((1, 1), [("baker", "N")], "baker", "E")
    d.put((1, 2), [("baker", "N")], "baker", "W")
    d.put((3, 1), [("baker", "N")], "baker", "E")
    d.put((4, 4), [("baker", "N"), ("chicken_yard", "N")], "baker", "N")
    assert counts(g, s, 0)["baker"] == 1
    layout = field(g, s, "cell_tile")[0].copy()
    half = d.tile([("baker", "N")])
    _build(g, s, d, half, (3, 2), "baker", "W")
    assert counts(g, s, 0)["baker"] == 2
    after = field(g, s, "cell_tile")[0]
    assert all(after[c] == layout[c] for c in range(36) if layout[c] >= 0)


def test_cd_build_10_a_tile_without_legal_placement_must_be_stored():
    """Every neighbour of a villa/pond tile needs a villa or pond edge: a market can only be stored."""
    g, s, d = _district(20)
    d.put((2, 2), [("villa", "NES"), ("pond", "W")], "villa", "NES", dark=False)
    market = d.tile([("market", "")])
    pond = d.tile([("pond", "N")], dark=True)
    d.sync_taken()
    arrange_turn(g, s, 0, {1: [market, pond]}, patrician=0)
    assert placements(g, s, market) == set()
    assert store_rows(g, s, market)
    assert cells(g, s, pond) == {cell_of(2, 1)}  # the pond end fits the pond edge
    decide(g, s, move=CW, tile=market)
    assert int(field(g, s, "stored")[0]) == 1


# --- CD-FEATURE


def test_cd_feature_1_parts_connect_through_open_edges_of_both():
    """Two pond ends facing each other form one completed pond of 2 tiles."""
    g, s, d = _district(21)
    d.put((2, 2), [("pond", "N")], "pond", "E", dark=True)
    end = d.tile([("pond", "N")], dark=True)
    log = g.new_log()
    _build(g, s, d, end, (2, 3), "pond", "W", log=log)
    assert [e[1:3] for e in ev(log, "complete")] == [[K.POND, 2]]
    assert int(field(g, s, "goods")[0, K.FISH]) == 1


def test_cd_feature_1_parts_on_one_tile_never_connect():
    """Completing the pond of a pond+garden tile leaves its garden open (no garden, no herb)."""
    g, s, d = _district(22)
    d.put((1, 2), [("pond", "N")], "pond", "S", dark=True)
    tile = d.tile([("pond", "N"), ("garden", "S")], dark=False)
    _build(g, s, d, tile, (2, 2), "pond", "N")
    assert counts(g, s, 0)["pond"] == 1 and counts(g, s, 0)["garden"] == 0
    assert field(g, s, "goods")[0].tolist() == [1, 0, 0, 0]


def test_cd_feature_1_different_types_never_connect():
    """A garden opening cannot take a pond edge: no pond end is offered against it."""
    g, s, d = _district(23)
    d.put((2, 2), [("garden", "N")], "garden", "E", dark=True)
    pond, garden = d.tile([("pond", "N")], dark=True), d.tile([("garden", "N")], dark=True)
    d.sync_taken()
    arrange_turn(g, s, 0, {1: [pond, garden]}, patrician=0)
    assert cell_of(2, 3) not in cells(g, s, pond)
    assert (cell_of(2, 3), d.rot(garden, "garden", "W")) in placements(g, s, garden)


def test_cd_feature_2_completed_only_when_every_open_edge_faces_a_tile():
    """A 2-tile pond open at one end is incomplete; the closing end completes it once (2 fish)."""
    g, s, d = _district(24)
    d.put((2, 1), [("pond", "N")], "pond", "E", dark=True)
    straight = d.tile([("pond", "NS")], dark=False)
    _build(g, s, d, straight, (2, 2), "pond", "EW")
    assert counts(g, s, 0)["pond"] == 0 and int(field(g, s, "goods")[0, K.FISH]) == 0
    end = d.tile([("pond", "N")], dark=True)
    _build(g, s, d, end, (2, 3), "pond", "W")
    assert counts(g, s, 0)["pond"] == 1 and int(field(g, s, "goods")[0, K.FISH]) == 2
    market = d.tile([("market", "")])
    _build(g, s, d, market, (1, 2))  # touching the finished pond changes nothing
    assert counts(g, s, 0)["pond"] == 1 and int(field(g, s, "goods")[0, K.FISH]) == 2


def test_cd_feature_3_villa_of_three_tiles_sums_its_chimneys():
    """Villa end (2) + straight (3) + end (1): completed villa with 6 chimneys, scored 9 at the end."""
    g, s, d = _district(25)
    d.put((2, 1), [("villa", "N")], "villa", "E", dark=True, chimneys=2)
    d.put((2, 2), [("villa", "NS")], "villa", "EW", dark=False, chimneys=3)
    assert counts(g, s, 0)["villas"] == 0 and counts(g, s, 0)["chimneys"] == 5
    end = d.tile([("villa", "N")], dark=True, chimneys=1)
    log = g.new_log()
    _build(g, s, d, end, (2, 3), "villa", "W", log=log)
    assert [e[1:4] for e in ev(log, "complete")] == [[K.VILLA, 3, 6]]
    assert counts(g, s, 0)["villas"] == 1 and counts(g, s, 0)["chimneys"] == 6
    assert int(field(g, s, "villa_vp_sum")[0]) == 9


def test_cd_feature_3_villa_ring_closing_on_itself_is_completed():
    """Four villa corners in a square: the last corner joins the same villa twice and completes it."""
    g, s, d = _district(31)
    d.put((2, 2), [("villa", "NE"), ("merchant", "W")], "villa", "ES", dark=False)
    d.put((2, 3), [("villa", "NE"), ("baker", "W")], "villa", "SW", dark=False)
    d.put((3, 2), [("villa", "NE")], "villa", "NE", dark=False, chimneys=1)
    assert counts(g, s, 0)["villas"] == 0
    corner = d.tile([("villa", "NE")], dark=False, chimneys=2)
    log = g.new_log()
    _build(g, s, d, corner, (3, 3), "villa", "NW", log=log)
    assert [e[1:4] for e in ev(log, "complete")] == [[K.VILLA, 4, 6]]
    assert counts(g, s, 0)["villas"] == 1 and int(field(g, s, "villa_vp_sum")[0]) == 9


def test_cd_feature_3_villa_with_an_open_edge_is_incomplete():
    """Two villa tiles with an opening left are not a completed villa."""
    g, s, d = _district(26)
    d.put((2, 1), [("villa", "N")], "villa", "E", dark=True)
    straight = d.tile([("villa", "NS")], dark=False)
    _build(g, s, d, straight, (2, 2), "villa", "EW")
    assert counts(g, s, 0)["villas"] == 0 and int(field(g, s, "villa_vp_sum")[0]) == 0


def test_cd_feature_4_landscape_of_four_tiles_is_completed():
    """A closed chicken yard of 4 tiles completes with size 4 (3 chickens)."""
    g, s, d = _district(27)
    d.put((2, 1), [("chicken_yard", "N")], "chicken_yard", "E", dark=True)
    d.put((2, 2), [("chicken_yard", "NS")], "chicken_yard", "EW", dark=False)
    d.put((2, 3), [("chicken_yard", "NS")], "chicken_yard", "EW", dark=False)
    end = d.tile([("chicken_yard", "N")], dark=True)
    log = g.new_log()
    _build(g, s, d, end, (2, 4), "chicken_yard", "W", log=log)
    assert [e[1:3] for e in ev(log, "complete")] == [[K.CHICKEN_YARD, 4]]
    assert int(field(g, s, "goods")[0, K.CHICKEN]) == 3


def test_cd_feature_5_lodging_halves_join_only_within_one_colour():
    """A baker half cannot face a merchant half; a second merchant half completes the lodging."""
    g, s, d = _district(28)
    d.put((2, 2), [("merchant", "N")], "merchant", "E", dark=True)
    baker, merchant = d.tile([("baker", "N")], dark=True), d.tile([("merchant", "N")], dark=True)
    d.sync_taken()
    arrange_turn(g, s, 0, {1: [baker, merchant]}, patrician=0)
    assert cell_of(2, 3) not in cells(g, s, baker)
    assert {r for c, r in placements(g, s, merchant) if c == cell_of(2, 3)} == {d.rot(merchant, "merchant", "W")}
    decide(g, s, move=CW, tile=merchant, cell=cell_of(2, 3))
    assert counts(g, s, 0)["merchant"] == 1 and counts(g, s, 0)["lodgings"] == 1


def test_cd_feature_6_small_buildings_complete_at_once_beside_meadow_only():
    """A market counts as soon as it is built; it never fits against an open edge."""
    g, s, d = _district(29)
    d.put((2, 2), [("villa", "N")], "villa", "E", dark=True)
    market = d.tile([("market", "")])
    d.sync_taken()
    _turn(g, s, market)
    assert cell_of(2, 3) not in cells(g, s, market)
    assert cells(g, s, market) == {cell_of(1, 2), cell_of(3, 2), cell_of(2, 1)}
    decide(g, s, move=CW, cell=cell_of(1, 2))
    assert counts(g, s, 0)["market"] == 1 and int(field(g, s, "coins")[0]) == 1


def test_cd_feature_7_counting_rule():
    """Chimneys count on every villa; villas, landscapes, lodgings only when completed; stored tiles never."""
    g, s, d = _district(30)
    d.put((1, 1), [("villa", "N")], "villa", "S", dark=True, chimneys=2)
    d.put((2, 1), [("villa", "N")], "villa", "N", dark=True, chimneys=1)  # completed villa, 3 chimneys
    d.put((4, 4), [("villa", "NS")], "villa", "NS", dark=False, chimneys=3)  # incomplete
    d.put((1, 4), [("pond", "N")], "pond", "S", dark=True)  # incomplete pond
    d.put((3, 1), [("merchant", "N")], "merchant", "E", dark=True)  # incomplete lodging
    c = counts(g, s, 0)
    assert (c["chimneys"], c["villas"], c["pond"], c["landscapes"], c["merchant"], c["lodgings"]) == (6, 1, 0, 0, 0, 0)
    market = d.tile([("market", "")])
    d.sync_taken()
    _turn(g, s, market)
    decide(g, s, move=CW, cell=-1)
    assert counts(g, s, 0)["market"] == 0


def test_cd_feature_8_tile_data_invariants_hold():
    """Villa/landscape parts have >= 1 open edge, lodging halves 1, small buildings 0; <= 2 parts; dark = 1 part."""
    g = game(4)
    for tile in g.components.tiles:
        assert 1 <= len(tile.parts) <= 2
        if tile.dark:
            assert len(tile.parts) == 1
        for part in tile.parts:
            n_open = bin(part.open_mask).count("1")
            if part.type <= K.LANDSCAPE_LAST:
                assert n_open >= 1
            elif part.type <= K.LODGING_LAST:
                assert n_open == 1
            else:
                assert n_open == 0


@pytest.mark.parametrize("bad, message", [
    ('{ type = "merchant", open = "NE" }', "exactly 1 open edge"),
    ('{ type = "market", open = "N" }', "no open edge"),
    ('{ type = "pond", open = "" }', "at least 1 open edge"),
])
def test_cd_feature_8_loader_rejects_broken_tile_data(tmp_path, bad, message):
    """A tile file that breaks a part invariant is refused when the game is built."""
    text = (DATA_DIR / "tiles.toml").read_text()
    first = tomllib.loads(text)["tile"][0]
    assert first["id"] == "L01"
    old = 'parts = [{ type = "villa", open = "NS", chimneys = 1 }, { type = "merchant", open = "E" }]'
    assert old in text
    broken = text.replace(old, f"parts = [{bad}]", 1)
    path = tmp_path / "tiles.toml"
    path.write_text(broken)
    with pytest.raises(DataError, match=message):
        make_game("carpe_diem", n_players=2, tiles_file=str(path))


def test_cd_feature_8_loader_rejects_a_two_part_dark_tile(tmp_path):
    """A dark tile with two parts is refused."""
    text = (DATA_DIR / "tiles.toml").read_text()
    old = 'id = "D01"\nback = "dark"\nparts = [{ type = "merchant", open = "N" }]'
    assert old in text
    path = tmp_path / "tiles.toml"
    path.write_text(text.replace(old, old[:-1] + ', { type = "market", open = "" }]'))
    with pytest.raises(DataError, match="dark"):
        make_game("carpe_diem", n_players=2, tiles_file=str(path))


def test_cd_build_2_to_6_offered_placements_match_the_building_rules():
    """Random and greedy games: at every build decision the engine's placements equal an independent
    reading of CD-BUILD-1..6, and the CD-FEATURE-7 counters match the district."""
    from bgsim.sim import game_seeds
    from bgsim.sim.seeding import strategy_streams
    from bgsim.strategies import make_strategy

    from tests.games.carpe_diem._scenario import edge_codes, features, grid_of, legal_patterns, open_dirs

    def pattern(g, tile, cell, rot):
        parts = range(len(g.components.tiles[tile].parts))
        return cell, tuple(edge_codes(g, tile, rot)), tuple(sum(1 << x for x in open_dirs(g, tile, rot, j))
                                                              for j in parts)

    checked = 0
    for n, name, seed in ((2, "greedy", 1), (3, "random", 2), (4, "greedy", 3), (4, "random", 4)):
        g = game(n)
        strategy = make_strategy(name, g)
        s = g.new_state(game_seeds(seed))
        streams = strategy_streams(game_seeds(seed), n)
        while not g.is_over(s):
            tab = g.decision(s)
            if tab.kind in (D.TURN, D.CRAFTSMAN):
                grid = grid_of(g, s, tab.seat)
                acts = [dict(zip(g.action_fields, map(int, a), strict=True)) for a in tab.actions]
                for tile in {a["tile"] for a in acts if a["tile"] >= 0}:
                    got = {pattern(g, tile, a["cell"], a["rotation"]) for a in acts
                           if a["tile"] == tile and a["cell"] >= 0}
                    if grid:
                        want = legal_patterns(g, grid, tile)
                    else:
                        want = {pattern(g, tile, shovel(g, s, tab.seat), r) for r in range(4)}
                    assert got == want, (n, seed, tile)
                    checked += 1
            row = strategy.choose(tab, streams[tab.seat: tab.seat + 1])
            g.apply(s, tab.actions[row].copy(), validate=True)
        for seat in range(n):
            found = features(g, grid_of(g, s, seat))
            done = [f for f in found if f["open"] == 0 and (f["tiles"] >= 2 or f["type"] >= K.MARKET)]
            c = counts(g, s, seat)
            for code in range(K.VILLA, K.FOUNTAIN + 1):
                assert c[K.COUNTER_NAMES[code]] == sum(f["type"] == code for f in done)
            assert c["chimneys"] == sum(f["chimneys"] for f in found if f["type"] == K.VILLA)
            assert all(f["tiles"] <= 4 for f in found if K.POND <= f["type"] <= K.CHICKEN_YARD)
    assert checked > 1000
