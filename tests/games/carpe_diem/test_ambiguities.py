"""Every rule ambiguity of the digest (§3 AMB-1..19, AMB-30) and the component-data choices:
the default reading and the alternative, each checked on an arranged position through the
engine (legal rows offered, state after acting); plus parameter validation and the game id."""

import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D

from tests.games.carpe_diem.helpers import (
    GOODS,
    TYPE,
    build_turn,
    card_id,
    cell,
    counts,
    decide,
    feature,
    field,
    fresh,
    game,
    kind,
    preset,
    rows,
    to_scoring,
    to_turn,
)

# Helpers


def oriented(g, want: dict, dark=None, chimneys=None, exclude=()) -> tuple[int, int]:
    """(tile, rotation): a tile whose parts are exactly the types of ``want`` and which, at that
    rotation, shows each part open at exactly the letters given (e.g. {"pond": "SW"})."""
    wanted = {TYPE[name]: sum(1 << K.DIRECTION_LETTERS.index(ch) for ch in letters)
              for name, letters in want.items()}
    for i, tile in enumerate(g.components.tiles):
        if i in exclude or (dark is not None and tile.dark != dark):
            continue
        if sorted(p.type for p in tile.parts) != sorted(wanted):
            continue
        if chimneys is not None and sum(p.chimneys for p in tile.parts) != chimneys:
            continue
        for rot in range(4):
            if all(((p.open_mask << rot) | (p.open_mask >> (4 - rot))) & 0xF == wanted[p.type]
                   for p in tile.parts):
                return i, rot
    raise LookupError(f"no tile showing {want} (dark={dark}, chimneys={chimneys})")


def set_frames(g, s, seat, top, right, bottom, left):
    ids = [f.id for f in g.components.frames]
    field(g, s, "frame_piece")[seat] = [ids.index(p) for p in (top, right, bottom, left)]


def finish(g, s, seat, space=0) -> dict:
    """Arrange the last disc placement of the game (pass 4, ``seat`` scores last), play it out
    and return the score sheet."""
    n = g.n_players
    to_scoring(g, s, seat, space, "D17", "D18")
    field(g, s, "score_order")[:n] = [q for q in range(n) if q != seat] + [seat]
    field(g, s, "score_index")[0] = n - 1
    field(g, s, "pass_no")[0] = 4
    while not g.is_over(s):
        g.apply(s, g.decision(s).actions[0].copy(), validate=True)
    return g.score_sheet(s)


def vp(g, s, seat) -> int:
    return int(field(g, s, "vp")[seat])


def goods(g, s, seat, name) -> int:
    return int(field(g, s, "goods")[seat, GOODS[name]])


# AMB-1 frame_line_mode


def _baker_row5_task(g):
    """Seat 0 with a single baker task, on row 5 (right piece F02, task index 3)."""
    s = fresh(g)
    set_frames(g, s, 0, "F01", "F02", "F03", "F04")
    return s


def _baker_halves(g, first: str, second: str):
    a, ra = oriented(g, {"baker": first}, dark=True)
    b, rb = oriented(g, {"baker": second}, dark=True, exclude=(a,))
    return a, ra, b, rb


def test_amb1_cell_line_default_a_feature_in_the_row_meets_the_task():
    g = game(4)
    s = _baker_row5_task(g)
    a, ra, b, rb = _baker_halves(g, "E", "W")
    preset(g, s, 0, a, cell(5, 2), ra)
    feats = build_turn(g, s, 0, b, cell(5, 3), rb)
    assert counts(g, s, 0)["baker"] == 1
    assert feature(g, feats, "frame_vp") == 4
    assert field(g, s, "task_done")[0, 3] == 1
    assert finish(g, s, 0)["frame_tasks"][0] == 4


def test_amb1_straddle_a_feature_within_the_row_misses_the_task():
    g = game(4, frame_line_mode="straddle")
    s = _baker_row5_task(g)
    a, ra, b, rb = _baker_halves(g, "E", "W")
    preset(g, s, 0, a, cell(5, 2), ra)
    feats = build_turn(g, s, 0, b, cell(5, 3), rb)
    assert counts(g, s, 0)["baker"] == 1
    assert feature(g, feats, "frame_vp") == 0
    assert field(g, s, "task_done")[0, 3] == 0
    assert finish(g, s, 0)["frame_tasks"][0] == 0


def test_amb1_straddle_a_feature_across_the_line_meets_the_task():
    # index 5 on the right side can only mark the grid line between rows 4 and 5
    g = game(4, frame_line_mode="straddle")
    s = _baker_row5_task(g)
    a, ra, b, rb = _baker_halves(g, "S", "N")
    preset(g, s, 0, a, cell(4, 1), ra)
    feats = build_turn(g, s, 0, b, cell(5, 1), rb)
    assert feature(g, feats, "frame_vp") == 4
    assert field(g, s, "task_done")[0, 3] == 1
    assert finish(g, s, 0)["frame_tasks"][0] == 4


# AMB-2 landscape_max_tiles / landscape_reward_cap


def _pond_chain(g, s, seat):
    """Preset a 4-tile incomplete pond (2,0)-(2,3) turning south at (2,3); return the dark pond
    end that closes it at (3,3) as a 5th tile, with its rotation."""
    end1, r1 = oriented(g, {"pond": "E"}, dark=True)
    st1, rs1 = oriented(g, {"pond": "EW"})
    st2, rs2 = oriented(g, {"pond": "EW"}, exclude=(st1,))
    corner, rc = oriented(g, {"pond": "SW", "administrator": "N"})
    end2, r2 = oriented(g, {"pond": "N"}, dark=True, exclude=(end1,))
    for tile, at, rot in ((end1, cell(2, 0), r1), (st1, cell(2, 1), rs1), (st2, cell(2, 2), rs2),
                          (corner, cell(2, 3), rc)):
        preset(g, s, seat, tile, at, rot)
    return end2, r2


def _offer_and_build_fifth(g, s):
    end2, r2 = _pond_chain(g, s, 0)
    to_turn(g, s, 0, [end2])
    at = [r for r in rows(g, s) if r["cell"] == cell(3, 3) and r["move"] == D.STEP_CW]
    return end2, r2, at


def test_amb2_default_a_landscape_of_4_pays_3_and_a_5th_tile_is_illegal():
    g = game(4)
    s = fresh(g)
    end1, r1 = oriented(g, {"pond": "E"}, dark=True)
    st1, rs1 = oriented(g, {"pond": "EW"})
    st2, rs2 = oriented(g, {"pond": "EW"}, exclude=(st1,))
    end2, r2 = oriented(g, {"pond": "W"}, dark=True, exclude=(end1,))
    for tile, at, rot in ((end1, cell(2, 0), r1), (st1, cell(2, 1), rs1), (st2, cell(2, 2), rs2)):
        preset(g, s, 0, tile, at, rot)
    feats = build_turn(g, s, 0, end2, cell(2, 3), r2)
    assert feature(g, feats, "goods") == 3
    assert goods(g, s, 0, "fish") == 3

    s = fresh(g)
    end2, _, at = _offer_and_build_fifth(g, s)
    assert at == []  # a 5-tile pond may not be made
    assert any(r["tile"] == end2 and r["cell"] >= 0 for r in rows(g, s))  # the tile fits elsewhere


def test_amb2_no_tile_limit_allows_a_5_tile_landscape_paying_size_minus_1():
    g = game(4, landscape_max_tiles=None)
    s = fresh(g)
    end2, r2, at = _offer_and_build_fifth(g, s)
    assert [r["rotation"] for r in at] == [r2]
    feats = decide(g, s, move=D.STEP_CW, tile=end2, cell=cell(3, 3), rotation=r2)
    assert feature(g, feats, "goods") == 4
    assert counts(g, s, 0)["pond"] == 1
    assert goods(g, s, 0, "fish") == 4


def test_amb2_reward_cap_3_pays_at_most_3_goods_for_a_5_tile_landscape():
    g = game(4, landscape_max_tiles=None, landscape_reward_cap=3)
    s = fresh(g)
    end2, r2, at = _offer_and_build_fifth(g, s)
    assert [r["rotation"] for r in at] == [r2]
    feats = decide(g, s, move=D.STEP_CW, tile=end2, cell=cell(3, 3), rotation=r2)
    assert feature(g, feats, "goods") == 3
    assert counts(g, s, 0)["pond"] == 1
    assert goods(g, s, 0, "fish") == 3


# AMB-3 full_loop


def _own_depot_only(g, bread):
    s = fresh(g)
    tiles = [oriented(g, {"market": ""}, dark=True)[0], oriented(g, {"bakery": ""}, dark=True)[0]]
    to_turn(g, s, 0, tiles, space=4, patrician=4)
    field(g, s, "bread")[0] = bread
    return s


def _moves(g, s):
    return {(r["move"], r["target"], r["space"]) for r in rows(g, s)}


def test_amb3_full_loop_default_allows_the_loop():
    g = game(2)
    s = _own_depot_only(g, bread=1)
    assert _moves(g, s) == {(D.STEP_CW, -1, 4), (D.STEP_CCW, -1, 4), (D.BREAD_TO, 4, 4)}
    decide(g, s, move=D.STEP_CW)
    assert field(g, s, "patrician")[0] == 4
    assert field(g, s, "bread")[0] == 1
    assert field(g, s, "taken")[0] == 1


def test_amb3_bread_else_stay_forces_bread():
    g = game(2, full_loop="bread_else_stay")
    s = _own_depot_only(g, bread=1)
    assert _moves(g, s) == {(D.BREAD_TO, 4, 4)}
    decide(g, s, move=D.BREAD_TO)
    assert field(g, s, "patrician")[0] == 4
    assert field(g, s, "bread")[0] == 0
    assert field(g, s, "taken")[0] == 1


def test_amb3_bread_else_stay_without_bread_stays():
    g = game(2, full_loop="bread_else_stay")
    s = _own_depot_only(g, bread=0)
    assert {space for _, _, space in _moves(g, s)} == {4}
    assert {move for move, _, _ in _moves(g, s)} <= {D.STEP_CW, D.STEP_CCW}
    decide(g, s, space=4)
    assert field(g, s, "patrician")[0] == 4
    assert field(g, s, "taken")[0] == 1


# AMB-6 bread_counts_as_fulfilment


def _bread_only_on_green(g, bread):
    """Seat 0 scores D17 (1 pond: 3 VP) then D18 (1 chicken yard: 3 VP) with neither built."""
    s = fresh(g)
    field(g, s, "bread")[0] = bread
    to_scoring(g, s, 0, 0, "D17", "D18")
    decide(g, s, space=0)
    return s


def test_amb6_default_bread_fulfilment_avoids_the_penalty():
    g = game(4)
    s = _bread_only_on_green(g, 3)
    before = vp(g, s, 0)
    tab = g.decision(s)
    assert tab.kind_name == "fulfil"
    assert sorted(tab.actions[:, D.A_BREAD].tolist()) == [0, 1]
    feats = decide(g, s, bread=1)
    assert feature(g, feats, "penalties") == 0
    # D17: +3 by bread; D18: nothing left, -4
    assert vp(g, s, 0) == before + 3 - 4
    assert field(g, s, "penalties")[0] == 1
    assert field(g, s, "bread")[0] == 0


def test_amb6_bread_not_counting_keeps_the_penalty():
    g = game(4, bread_counts_as_fulfilment=False)
    s = _bread_only_on_green(g, 3)
    before = vp(g, s, 0)
    feats = decide(g, s, bread=1)
    assert feature(g, feats, "penalties") == 1
    assert vp(g, s, 0) == before + 3 - 4 - 4
    assert field(g, s, "penalties")[0] == 2


# AMB-7 supply_limits


def _gains_against_a_rich_neighbour(g):
    """Seat 1 holds 4 fish, 24 coins and 18 bread; seat 0 completes a 3-tile pond (2 fish),
    then builds a market (1 coin) and a bakery (1 bread)."""
    s = fresh(g)
    field(g, s, "goods")[1, GOODS["fish"]] = 4
    field(g, s, "coins")[1] = 24
    field(g, s, "bread")[1] = 18
    end1, r1 = oriented(g, {"pond": "E"}, dark=True)
    st, rs = oriented(g, {"pond": "EW"})
    end2, r2 = oriented(g, {"pond": "W"}, dark=True, exclude=(end1,))
    preset(g, s, 0, end1, cell(2, 1), r1)
    preset(g, s, 0, st, cell(2, 2), rs)
    build_turn(g, s, 0, end2, cell(2, 3), r2)
    build_turn(g, s, 0, oriented(g, {"market": ""}, dark=True)[0], cell(3, 2), 0)
    build_turn(g, s, 0, oriented(g, {"bakery": ""}, dark=True)[0], cell(1, 2), 0)
    return s


def test_amb7_default_supply_is_unlimited():
    g = game(4)
    s = _gains_against_a_rich_neighbour(g)
    assert goods(g, s, 0, "fish") == 2
    assert field(g, s, "coins")[0] == 1
    assert field(g, s, "bread")[0] == 1


def test_amb7_physical_supply_loses_gains_beyond_it():
    g = game(4, supply_limits="physical")
    s = _gains_against_a_rich_neighbour(g)
    assert goods(g, s, 0, "fish") == 1  # 5 fish in the game, 4 with seat 1
    assert field(g, s, "coins")[0] == 0  # 24 coins, all with seat 1
    assert field(g, s, "bread")[0] == 0  # 18 bread, all with seat 1


# AMB-8 bread_fulfilments_per_card / bread_fulfilments_per_scoring


def test_amb8_default_any_number_of_bread_fulfilments():
    g = game(4)
    s = _bread_only_on_green(g, 6)
    assert sorted(r["bread"] for r in rows(g, s)) == [0, 1, 2]
    decide(g, s, bread=1)
    # the second card may still use the remaining 3 bread
    assert kind(g, s) == "fulfil"
    assert sorted(r["bread"] for r in rows(g, s)) == [0, 1]
    before = vp(g, s, 0)
    decide(g, s, bread=1)
    assert vp(g, s, 0) == before + 3
    assert field(g, s, "bread")[0] == 0
    assert field(g, s, "penalties")[0] == 0


def test_amb8_per_card_1_allows_one_bread_fulfilment_per_card():
    g = game(4, bread_fulfilments_per_card=1)
    s = _bread_only_on_green(g, 6)
    assert sorted(r["bread"] for r in rows(g, s)) == [0, 1]
    decide(g, s, bread=1)
    assert kind(g, s) == "fulfil"
    assert sorted(r["bread"] for r in rows(g, s)) == [0, 1]
    decide(g, s, bread=1)
    assert field(g, s, "bread")[0] == 0
    assert field(g, s, "penalties")[0] == 0


def test_amb8_per_scoring_1_allows_one_bread_fulfilment_per_pass_scoring():
    g = game(4, bread_fulfilments_per_scoring=1)
    s = _bread_only_on_green(g, 6)
    before = vp(g, s, 0)
    assert sorted(r["bread"] for r in rows(g, s)) == [0, 1]
    decide(g, s, bread=1)
    # nothing left to choose on the second card: it fails although 3 bread remain
    assert field(g, s, "seat")[0] != 0
    assert field(g, s, "bread")[0] == 3
    assert field(g, s, "penalties")[0] == 1
    assert vp(g, s, 0) == before + 3 - 4


# AMB-9 red_card_min_one_if_able


def _red_card(g, herb):
    """Seat 0 scores A05 (give 2 herbs: 4 VP) then D17 (1 pond, none built: -4)."""
    s = fresh(g)
    field(g, s, "goods")[0, GOODS["herb"]] = herb
    to_scoring(g, s, 0, 0, "A05", "D17")
    decide(g, s, space=0)
    if g.decision(s).kind_name == "card_order":  # asked under AMB-9's alternative: A05 first
        decide(g, s, slot=0)
    return s


def test_amb9_default_red_card_may_be_declined():
    g = game(4)
    s = _red_card(g, 4)
    before = vp(g, s, 0)
    assert sorted(r["count"] for r in rows(g, s)) == [0, 1, 2]
    decide(g, s, count=0)
    assert goods(g, s, 0, "herb") == 4
    assert vp(g, s, 0) == before - 8


def test_amb9_min_one_if_able_forbids_declining():
    g = game(4, red_card_min_one_if_able=True)
    s = _red_card(g, 4)
    before = vp(g, s, 0)
    assert sorted(r["count"] for r in rows(g, s)) == [1, 2]
    decide(g, s, count=1)
    assert goods(g, s, 0, "herb") == 2
    assert vp(g, s, 0) == before + 4 - 4


def test_amb9_min_one_if_able_player_still_chooses_the_card_order():
    # With 2 herbs and 1 grape each red card, resolved first, must be paid and starves the other:
    # A05 first: +4 - 4, a grape left; B01 first: +3 - 4, a herb left (CD-SCORING-4: player's order).
    g = game(4, red_card_min_one_if_able=True)
    for first, delta, herb, grape in (("A05", 0, 0, 1), ("B01", -1, 1, 0)):
        s = fresh(g)
        field(g, s, "goods")[0, GOODS["herb"]] = 2
        field(g, s, "goods")[0, GOODS["grape"]] = 1
        to_scoring(g, s, 0, 0, "A05", "B01")
        before = vp(g, s, 0)
        decide(g, s, space=0)
        assert kind(g, s) == "card_order" and field(g, s, "seat")[0] == 0
        assert {r["tile"] for r in rows(g, s)} == {card_id(g, "A05"), card_id(g, "B01")}
        decide(g, s, tile=card_id(g, first))
        assert field(g, s, "seat")[0] != 0
        assert vp(g, s, 0) == before + delta
        assert (goods(g, s, 0, "herb"), goods(g, s, 0, "grape")) == (herb, grape)


def test_amb9_min_one_if_able_unable_player_takes_the_penalty():
    g = game(4, red_card_min_one_if_able=True)
    s = _red_card(g, 1)
    # (k, b) = (0, 0) is the only row: resolved without a decision
    assert field(g, s, "seat")[0] != 0
    assert goods(g, s, 0, "herb") == 1
    assert field(g, s, "vp_cards")[0] == -8
    assert field(g, s, "penalties")[0] == 2


# AMB-10 first_tile_may_be_stored


def _first_turn(g):
    s = fresh(g)
    tile = oriented(g, {"market": ""}, dark=True)[0]
    to_turn(g, s, 0, [tile])
    shovel = g.components.boards[int(field(g, s, "board")[0])].shovel
    return s, shovel


def test_amb10_default_first_tile_must_be_built_on_the_shovel():
    g = game(4)
    s, shovel = _first_turn(g)
    offered = rows(g, s)
    assert offered and {r["cell"] for r in offered} == {shovel}
    decide(g, s, cell=shovel)
    assert field(g, s, "cell_tile")[0, shovel] >= 0
    assert field(g, s, "stored")[0] == 0


def test_amb10_first_tile_may_be_stored_then_the_first_build_goes_on_the_shovel():
    g = game(4, first_tile_may_be_stored=True)
    s, shovel = _first_turn(g)
    assert {r["cell"] for r in rows(g, s)} == {shovel, -1}
    decide(g, s, cell=-1)
    assert field(g, s, "stored")[0] == 1
    assert field(g, s, "built")[0] == 0
    to_turn(g, s, 0, [oriented(g, {"bakery": ""}, dark=True)[0]])
    assert {r["cell"] for r in rows(g, s)} == {shovel, -1}
    decide(g, s, cell=shovel)
    assert field(g, s, "built")[0] == 1


# AMB-11 reward_order


def _vineyard_and_merchant(g, s):
    """Seat 0 builds a tile completing a 2-tile vineyard (1 grape) and a merchant lodging."""
    tile, rot = oriented(g, {"merchant": "S", "vineyard": "N"})
    vine, rv = oriented(g, {"vineyard": "S"}, dark=True)
    half, rh = oriented(g, {"merchant": "N"}, dark=True)
    preset(g, s, 0, vine, cell(1, 2), rv)
    preset(g, s, 0, half, cell(3, 2), rh)
    build_turn(g, s, 0, tile, cell(2, 2), rot)


def test_amb11_default_player_chooses_the_reward_order():
    g = game(4)
    for first, grapes, coins in (("vineyard", 0, 2), ("merchant", 1, 1)):
        s = fresh(g)
        _vineyard_and_merchant(g, s)
        assert kind(g, s) == "reward_order" and field(g, s, "seat")[0] == 0
        assert sorted(r["count"] for r in rows(g, s)) == sorted([TYPE["vineyard"], TYPE["merchant"]])
        decide(g, s, count=TYPE[first])
        assert goods(g, s, 0, "grape") == grapes
        assert field(g, s, "coins")[0] == coins
        assert kind(g, s) == "turn" and field(g, s, "seat")[0] == 1


def test_amb11_fixed_order_converts_the_new_goods():
    g = game(4, reward_order="fixed")
    s = fresh(g)
    _vineyard_and_merchant(g, s)
    assert kind(g, s) == "turn" and field(g, s, "seat")[0] == 1
    assert goods(g, s, 0, "grape") == 0
    assert field(g, s, "coins")[0] == 2


# AMB-12 craftsman_optional / craftsman_tile_may_be_stored


def _craftsman_completed(g, seals, full=False):
    """Seat 0 completes a craftsman lodging at (2,2)-(2,3); the seal display holds ``seals``.
    With ``full`` every other cell is built first, so no seal tile can be built afterwards."""
    s = fresh(g)
    a, ra = oriented(g, {"craftsman": "E"}, dark=True)
    b, rb = oriented(g, {"craftsman": "W"}, dark=True, exclude=(a,))
    preset(g, s, 0, a, cell(2, 2), ra)
    if full:
        filler = oriented(g, {"market": ""}, dark=False)[0]  # legality depends on edges only
        for at in range(K.N_CELLS):
            if at not in (cell(2, 2), cell(2, 3)):
                preset(g, s, 0, filler, at, 0)
    seal = field(g, s, "seal")
    seal[:] = -1
    seal[: len(seals)] = seals
    build_turn(g, s, 0, b, cell(2, 3), rb)
    assert counts(g, s, 0)["craftsman"] == 1
    return s


def _seal_market_and_pond(g):
    return [oriented(g, {"market": ""}, dark=True)[0], oriented(g, {"pond": "N"}, dark=True)[0]]


def test_amb12_default_seal_tile_is_mandatory_and_may_be_stored():
    g = game(4)
    market = oriented(g, {"market": ""}, dark=True)[0]
    s = _craftsman_completed(g, [market])
    assert kind(g, s) == "craftsman"
    offered = rows(g, s)
    assert all(r["space"] == 0 for r in offered)  # no decline
    assert any(r["cell"] == -1 for r in offered) and any(r["cell"] >= 0 for r in offered)
    decide(g, s, space=0, cell=-1)
    assert field(g, s, "seal")[0] == -1
    assert field(g, s, "stored")[0] == 1


def test_amb12_default_unbuildable_seal_tiles_are_stored():
    g = game(4)
    s = _craftsman_completed(g, _seal_market_and_pond(g), full=True)
    assert kind(g, s) == "craftsman"
    assert sorted((r["space"], r["cell"]) for r in rows(g, s)) == [(0, -1), (1, -1)]
    decide(g, s, space=1, cell=-1)
    assert field(g, s, "seal")[1] == -1
    assert field(g, s, "stored")[0] == 1


def test_amb12_craftsman_optional_allows_declining():
    g = game(4, craftsman_optional=True)
    market = oriented(g, {"market": ""}, dark=True)[0]
    s = _craftsman_completed(g, [market])
    offered = rows(g, s)
    assert any(r["space"] == -1 for r in offered)
    assert any(r["space"] == 0 and r["cell"] == -1 for r in offered)
    decide(g, s, space=-1)
    assert field(g, s, "seal")[0] == market
    assert field(g, s, "stored")[0] == 0
    assert kind(g, s) == "turn" and field(g, s, "seat")[0] == 1


def test_amb12_no_store_offers_only_buildable_seal_tiles():
    g = game(4, craftsman_tile_may_be_stored=False)
    market, pond = _seal_market_and_pond(g)
    s = _craftsman_completed(g, [market, pond])
    offered = rows(g, s)
    assert offered and all(r["cell"] >= 0 for r in offered)
    assert {r["space"] for r in offered} == {0, 1}  # both fit somewhere in this district
    assert not any(r["space"] == -1 for r in offered)


def test_amb12_no_store_reward_lapses_when_no_seal_tile_fits():
    g = game(4, craftsman_tile_may_be_stored=False)
    seals = _seal_market_and_pond(g)
    s = _craftsman_completed(g, seals, full=True)
    # AMB-12 (c): with no seal tile buildable the reward lapses without a decision
    assert list(field(g, s, "seal")[:2]) == seals
    assert field(g, s, "stored")[0] == 0
    assert kind(g, s) == "turn" and field(g, s, "seat")[0] == 1


# AMB-13 tie_stack_order


def _tie_on_one_space(g):
    """Two players end level on VP on the same banner space, seat 1's disc on top."""
    s = fresh(g)
    field(g, s, "vp")[:2] = [20, 12]  # seat 0 loses 8 in the arranged last scoring
    field(g, s, "banner_pos")[:2] = 5
    field(g, s, "banner_stamp")[:2] = [7, 8]
    field(g, s, "stamp")[0] = 8
    sheet = finish(g, s, 0)
    assert sheet["total"][0] == sheet["total"][1]
    return sheet


def test_amb13_default_lower_disc_is_further_back_and_wins():
    sheet = _tie_on_one_space(game(2))
    assert list(sheet["rank"]) == [1, 2]


def test_amb13_upper_is_back_upper_disc_wins():
    sheet = _tie_on_one_space(game(2, tie_stack_order="upper_is_back"))
    assert list(sheet["rank"]) == [2, 1]


# AMB-14 patrician_placement


def test_amb14_default_patricians_are_placed_in_seat_order_before_the_reveal():
    g = game(4)
    s = g.new_state(game_seeds(0))
    for seat in range(4):
        tab = g.decision(s)
        assert tab.kind_name == "patrician" and tab.seat == seat
        assert sorted(tab.actions[:, D.A_SPACE].tolist()) == [q for q in range(7) if q >= seat]
        assert field(g, s, "revealed")[0] == 0
        assert not tab.column("depot_tiles").any()  # tiles still face down
        decide(g, s, space=seat)
    assert field(g, s, "revealed")[0] == 1
    assert kind(g, s) == "turn"


def test_amb14_after_reveal_patricians_see_the_tiles():
    g = game(4, patrician_placement="after_reveal")
    s = g.new_state(game_seeds(0))
    depot = field(g, s, "depot")
    for seat in range(4):
        tab = g.decision(s)
        assert tab.kind_name == "patrician" and tab.seat == seat
        assert field(g, s, "revealed")[0] == 1  # the pass-1 tiles are already face up
        # each row describes the two depots the first step can reach
        for row in range(len(tab)):
            space = int(tab.actions[row, g.action_fields.index("space")])
            reach = [int(x) for d in ((space + 1) % 7, (space + 6) % 7) for x in depot[d] if x >= 0]
            parts = sum(len(g.components.tiles[x].parts) for x in reach)
            assert tab.column("depot_tiles")[row] == len(reach) == 8
            assert tab.column("tile_parts")[row] == parts
        decide(g, s, space=seat)
    assert kind(g, s) == "turn"


def test_amb14_default_patrician_rows_reveal_nothing():
    g = game(4)
    tab = g.decision(g.new_state(game_seeds(0)))
    assert field(g, g.new_state(game_seeds(0)), "revealed")[0] == 0
    assert not tab.features.any()


# AMB-15 bread_target_must_have_tiles


def _depots_0_3_5(g):
    """TV-20: tiles only at D0, D3, D5; seat 0 on P0 with 1 bread."""
    s = fresh(g)
    smalls = []
    for _ in range(3):  # markets: their reward does not touch bread
        smalls.append(oriented(g, {"market": ""}, dark=True, exclude=smalls)[0])
    to_turn(g, s, 0, [smalls[0]], space=0, patrician=0)
    depot = field(g, s, "depot")
    depot[3, 0], depot[5, 0] = smalls[1], smalls[2]
    field(g, s, "bread")[0] = 1
    return s


def test_amb15_default_bread_target_must_hold_tiles():
    g = game(4)
    s = _depots_0_3_5(g)
    assert _moves(g, s) == {(D.STEP_CW, -1, 3), (D.STEP_CCW, -1, 5),
                            (D.BREAD_TO, 0, 0), (D.BREAD_TO, 3, 3), (D.BREAD_TO, 5, 5)}
    decide(g, s, move=D.BREAD_TO, target=0)
    assert field(g, s, "patrician")[0] == 0
    assert field(g, s, "bread")[0] == 0


def test_amb15_any_bread_target_then_skips_on_in_a_chosen_direction():
    g = game(4, bread_target_must_have_tiles=False)
    s = _depots_0_3_5(g)
    then = {(D.BREAD_THEN_CW, 1, 3), (D.BREAD_THEN_CCW, 1, 0), (D.BREAD_THEN_CW, 2, 3),
            (D.BREAD_THEN_CCW, 2, 0), (D.BREAD_THEN_CW, 4, 5), (D.BREAD_THEN_CCW, 4, 3),
            (D.BREAD_THEN_CW, 6, 0), (D.BREAD_THEN_CCW, 6, 5)}
    assert _moves(g, s) == {(D.STEP_CW, -1, 3), (D.STEP_CCW, -1, 5), (D.BREAD_TO, 0, 0),
                            (D.BREAD_TO, 3, 3), (D.BREAD_TO, 5, 5)} | then
    tile = int(field(g, s, "depot")[3, 0])
    decide(g, s, move=D.BREAD_THEN_CCW, target=4)
    assert field(g, s, "patrician")[0] == 3
    assert field(g, s, "bread")[0] == 0
    assert field(g, s, "depot")[3, 0] == -1
    assert tile in field(g, s, "cell_tile")[0]


# AMB-16 track_overflow_vp


def _banner_step_at(g, pos):
    """Seat 0 at banner position ``pos`` builds a market on a banner cell."""
    s = fresh(g)
    field(g, s, "banner_left")[0] = 0
    field(g, s, "banner_left")[0, cell(2, 3)] = 1
    field(g, s, "banner_pos")[0] = pos
    preset(g, s, 0, oriented(g, {"market": ""}, dark=True)[0], cell(2, 2), 0)
    before = vp(g, s, 0)
    feats = build_turn(g, s, 0, oriented(g, {"bakery": ""}, dark=True)[0], cell(2, 3), 0)
    return s, feats, vp(g, s, 0) - before


def _admin_at(g, pos):
    s = fresh(g)
    field(g, s, "banner_left")[0] = 0
    field(g, s, "banner_pos")[0] = pos
    a, ra = oriented(g, {"administrator": "E"}, dark=True)
    b, rb = oriented(g, {"administrator": "W"}, dark=True, exclude=(a,))
    preset(g, s, 0, a, cell(2, 2), ra)
    before = vp(g, s, 0)
    feats = build_turn(g, s, 0, b, cell(2, 3), rb)
    return s, feats, vp(g, s, 0) - before


def _card_steps_at_the_end(g):
    """TV-23: at L, C04 (per 2 chimneys 1 step) with 6 chimneys; D17 beside it fails (-4)."""
    s = fresh(g)
    field(g, s, "banner_pos")[0] = 29
    field(g, s, "count")[0, K.C_CHIMNEYS] = 6
    to_scoring(g, s, 0, 0, "C04", "D17")
    before = vp(g, s, 0)
    decide(g, s, space=0)
    assert field(g, s, "seat")[0] != 0
    return s, vp(g, s, 0) - before


def test_amb16_default_every_surplus_step_pays_1_vp():
    g = game(4)
    s, feats, gained = _banner_step_at(g, 29)
    assert feature(g, feats, "vp") == 1
    assert gained == 1 and field(g, s, "vp_overflow")[0] == 1
    assert field(g, s, "banner_pos")[0] == 29
    s, feats, gained = _admin_at(g, 28)
    assert gained == 1 and field(g, s, "banner_pos")[0] == 29
    s, gained = _card_steps_at_the_end(g)
    assert gained == 3 - 4
    assert field(g, s, "vp_overflow")[0] == 3


def test_amb16_administrator_only_other_surplus_steps_are_lost():
    g = game(4, track_overflow_vp="administrator_only")
    s, feats, gained = _banner_step_at(g, 29)
    assert feature(g, feats, "vp") == 0
    assert gained == 0 and field(g, s, "vp_overflow")[0] == 0
    assert field(g, s, "banner_pos")[0] == 29
    s, gained = _card_steps_at_the_end(g)
    assert gained == -4
    assert field(g, s, "vp_overflow")[0] == 0
    s, feats, gained = _admin_at(g, 28)
    assert feature(g, feats, "vp") == 1
    assert gained == 1 and field(g, s, "vp_overflow")[0] == 1
    assert field(g, s, "banner_pos")[0] == 29


# AMB-17 vp_floor


def _two_cards_at_low_vp(g, ponds):
    """Seat 0 at 2 VP scores D17 (1 pond: 3 VP) and D18 (1 chicken yard, none: -4)."""
    s = fresh(g)
    field(g, s, "vp")[0] = 2
    field(g, s, "count")[0, K.COUNTER_NAMES.index("pond")] = ponds
    to_scoring(g, s, 0, 0, "D17", "D18")
    return s


def test_amb17_default_vp_may_go_negative():
    g = game(4)
    s = _two_cards_at_low_vp(g, ponds=0)
    decide(g, s, space=0)
    assert field(g, s, "seat")[0] != 0
    assert vp(g, s, 0) == 2 - 8
    # with one card met the order cannot matter: no card-order decision
    s = _two_cards_at_low_vp(g, ponds=1)
    decide(g, s, space=0)
    assert field(g, s, "seat")[0] != 0
    assert vp(g, s, 0) == 2 + 3 - 4


def test_amb17_vp_floor_0_stops_losses_at_0():
    g = game(4, vp_floor=0)
    s = _two_cards_at_low_vp(g, ponds=0)
    decide(g, s, space=0)
    assert kind(g, s) == "card_order"  # with a floor the order can matter
    decide(g, s, slot=0)
    assert field(g, s, "seat")[0] != 0
    assert vp(g, s, 0) == 0
    assert field(g, s, "penalties")[0] == 2
    for first, expected in (("D18", 0 + 3), ("D17", 2 + 3 - 4)):
        s = _two_cards_at_low_vp(g, ponds=1)
        decide(g, s, space=0)
        assert kind(g, s) == "card_order"
        assert {r["tile"] for r in rows(g, s)} == {card_id(g, "D17"), card_id(g, "D18")}
        decide(g, s, tile=card_id(g, first))
        assert vp(g, s, 0) == expected


# AMB-18 fountain_short_deck


def _fountain_with_one_card_left(g, held):
    s = fresh(g)
    field(g, s, "fdeck_count")[0] = 1
    top = int(field(g, s, "fountain_deck")[field(g, s, "fdeck_head")[0]])
    if held:
        other = next(c for c in range(K.N_FOUNTAIN_CARDS) if c != top)
        field(g, s, "fountain_held")[0, 0] = other
        field(g, s, "fountain_n")[0] = 1
    preset(g, s, 0, oriented(g, {"market": ""}, dark=True)[0], cell(2, 2), 0)
    build_turn(g, s, 0, oriented(g, {"fountain": ""}, dark=True)[0], cell(2, 3), 0)
    assert counts(g, s, 0)["fountain"] == 1
    return s, top


def test_amb18_default_short_deck_draws_what_is_there():
    g = game(4)
    s, top = _fountain_with_one_card_left(g, held=False)
    assert field(g, s, "fountain_n")[0] == 1
    assert field(g, s, "fountain_held")[0, 0] == top
    assert field(g, s, "fdeck_count")[0] == 0

    s, top = _fountain_with_one_card_left(g, held=True)
    assert kind(g, s) == "fountain"
    assert sorted(r["slot"] for r in rows(g, s)) == [-1, 0, 1]  # return none, the drawn or the held
    decide(g, s, slot=-1)
    assert field(g, s, "fountain_n")[0] == 2
    assert top in field(g, s, "fountain_held")[0, :2]
    assert field(g, s, "fdeck_count")[0] == 0


def test_amb18_none_short_deck_has_no_effect():
    g = game(4, fountain_short_deck="none")
    for held in (False, True):
        s, _ = _fountain_with_one_card_left(g, held=held)
        assert kind(g, s) == "turn" and field(g, s, "seat")[0] == 1
        assert field(g, s, "fountain_n")[0] == int(held)
        assert field(g, s, "fdeck_count")[0] == 1


# AMB-19 feature_scores_one_task_only


def _lodging_on_two_baker_lines(g):
    """A baker lodging at (5,3)-(5,4) lies on two baker tasks: column 4 (top F07) and row 5
    (right F02)."""
    s = fresh(g)
    set_frames(g, s, 0, "F07", "F02", "F01", "F03")
    a, ra, b, rb = _baker_halves(g, "E", "W")
    preset(g, s, 0, a, cell(5, 3), ra)
    build_turn(g, s, 0, b, cell(5, 4), rb)
    assert counts(g, s, 0)["baker"] == 1
    return s


def test_amb19_default_one_feature_meets_several_tasks():
    g = game(4)
    s = _lodging_on_two_baker_lines(g)
    assert finish(g, s, 0)["frame_tasks"][0] == 4 + 4


def test_amb19_one_task_only_a_feature_meets_a_single_task():
    g = game(4, feature_scores_one_task_only=True)
    s = _lodging_on_two_baker_lines(g)
    assert finish(g, s, 0)["frame_tasks"][0] == 4


# AMB-30 frame_task_vp


def _one_task_of_each_kind(g):
    """Complete a baker lodging on a baker line, a villa on a villa line and a pond on a pond
    line; return the frame_vp feature of each completing build."""
    s = fresh(g)
    set_frames(g, s, 0, "F02", "F04", "F03", "F01")  # baker col 5, villa row 4, pond row 5
    a, ra, b, rb = _baker_halves(g, "S", "N")
    preset(g, s, 0, a, cell(2, 5), ra)
    baker = feature(g, build_turn(g, s, 0, b, cell(3, 5), rb), "frame_vp")
    v1, rv1 = oriented(g, {"villa": "E"}, dark=True)
    v2, rv2 = oriented(g, {"villa": "W"}, dark=True, exclude=(v1,))
    preset(g, s, 0, v1, cell(4, 1), rv1)
    villa = feature(g, build_turn(g, s, 0, v2, cell(4, 2), rv2), "frame_vp")
    p1, rp1 = oriented(g, {"pond": "E"}, dark=True)
    p2, rp2 = oriented(g, {"pond": "W"}, dark=True, exclude=(p1,))
    preset(g, s, 0, p1, cell(5, 3), rp1)
    pond = feature(g, build_turn(g, s, 0, p2, cell(5, 4), rp2), "frame_vp")
    c = counts(g, s, 0)
    assert (c["baker"], c["villas"], c["pond"]) == (1, 1, 1)
    return (pond, baker, villa), finish(g, s, 0)["frame_tasks"][0]


def test_amb30_default_landscape_5_lodging_4_villa_3():
    values, total = _one_task_of_each_kind(game(4))
    assert values == (5, 4, 3)
    assert total == 12


def test_amb30_frame_task_vp_sets_landscape_lodging_villa_values():
    values, total = _one_task_of_each_kind(game(4, frame_task_vp="6/2/1"))
    assert values == (6, 2, 1)
    assert total == 9


# CD-CARD-9 canonical_payment


def _herbs_and_coins(g):
    """Seat 0 with 2 herbs and 2 coins scores A05 (give 2 herbs: 4 VP) with k = 1."""
    s = fresh(g)
    field(g, s, "goods")[0, GOODS["herb"]] = 2
    field(g, s, "coins")[0] = 2
    to_scoring(g, s, 0, 0, "A05", "D17")
    decide(g, s, space=0)
    assert sorted(r["count"] for r in rows(g, s)) == [0, 1, 2]
    decide(g, s, count=1)
    return s


def test_canonical_payment_default_offers_the_payment_choice():
    g = game(4)
    s = _herbs_and_coins(g)
    assert kind(g, s) == "payment"
    assert sorted(r["count"] for r in rows(g, s)) == [0, 1, 2]
    decide(g, s, count=2)
    assert goods(g, s, 0, "herb") == 2
    assert field(g, s, "coins")[0] == 0


def test_canonical_payment_pays_own_goods_first():
    g = game(4, canonical_payment=True)
    s = _herbs_and_coins(g)
    assert kind(g, s) != "payment" and field(g, s, "seat")[0] != 0
    assert goods(g, s, 0, "herb") == 0
    assert field(g, s, "coins")[0] == 2


# CD-SETUP-7 three_player_empty_corners


def _live_spaces_offered(g):
    s = fresh(g)
    field(g, s, "phase")[0] = D.DISC
    field(g, s, "seat")[0] = 0
    offered = {r["space"] for r in rows(g, s)}
    return s, offered


def test_three_player_empty_corners_default_top_left_and_bottom_right():
    g = game(3)
    s, offered = _live_spaces_offered(g)
    empty = [slot for slot in range(K.N_SLOTS) if field(g, s, "slot_card")[slot] < 0]
    assert empty == [0, 11]
    assert offered == set(range(K.N_DISC_SPACES)) - {0, 8, 7, 16}  # H(0,0) V(0,0) H(3,1) V(2,2)


def test_three_player_empty_corners_other_diagonal():
    g = game(3, three_player_empty_corners="top_right_bottom_left")
    s, offered = _live_spaces_offered(g)
    empty = [slot for slot in range(K.N_SLOTS) if field(g, s, "slot_card")[slot] < 0]
    assert empty == [2, 9]
    assert offered == set(range(K.N_DISC_SPACES)) - {1, 10, 6, 14}  # H(0,1) V(0,2) H(3,0) V(2,0)


# villa_vp_table (CD-END-2, §6.4)


def _villa_of_12_chimneys(g):
    """Complete a 5-tile villa of 2 + 3 + 3 + 2 + 2 = 12 chimneys (the tables differ at 10-13)."""
    s = fresh(g)
    e1, r1 = oriented(g, {"villa": "E"}, dark=True, chimneys=2)
    st, rs = oriented(g, {"villa": "EW"}, chimneys=3)
    tee, rt = oriented(g, {"villa": "ESW"}, chimneys=3)
    e2, r2 = oriented(g, {"villa": "W"}, dark=True, chimneys=2, exclude=(e1,))
    e3, r3 = oriented(g, {"villa": "N"}, dark=True, chimneys=2, exclude=(e1, e2))
    for tile, at, rot in ((e1, cell(2, 0), r1), (st, cell(2, 1), rs), (tee, cell(2, 2), rt),
                          (e2, cell(2, 3), r2)):
        preset(g, s, 0, tile, at, rot)
    feats = build_turn(g, s, 0, e3, cell(3, 2), r3)
    assert counts(g, s, 0)["villas"] == 1 and counts(g, s, 0)["chimneys"] == 12
    return s, feats


def test_villa_vp_table_default_reconstructed():
    g = game(4)
    s, feats = _villa_of_12_chimneys(g)
    assert feature(g, feats, "villa_vp") == 22
    assert field(g, s, "villa_vp_sum")[0] == 22
    assert finish(g, s, 0)["villas"][0] == 22


def test_villa_vp_table_linear():
    g = game(4, villa_vp_table="linear")
    s, feats = _villa_of_12_chimneys(g)
    assert feature(g, feats, "villa_vp") == 21
    assert field(g, s, "villa_vp_sum")[0] == 21
    assert finish(g, s, 0)["villas"][0] == 21


# banner_track_last (L, §6.1)


def test_banner_track_last_default_29():
    g = game(4)
    s, feats, gained = _banner_step_at(g, 10)
    assert field(g, s, "banner_pos")[0] == 11 and gained == 0
    s, feats, gained = _banner_step_at(g, 28)
    assert field(g, s, "banner_pos")[0] == 29 and gained == 0
    s, feats, gained = _banner_step_at(g, 29)
    assert field(g, s, "banner_pos")[0] == 29 and gained == 1


def test_banner_track_last_10_overflows_at_10():
    g = game(4, banner_track_last=10)
    s, feats, gained = _banner_step_at(g, 9)
    assert field(g, s, "banner_pos")[0] == 10 and gained == 0
    s, feats, gained = _banner_step_at(g, 10)
    assert feature(g, feats, "vp") == 1
    assert field(g, s, "banner_pos")[0] == 10 and gained == 1


# Parameter validation and the game id


@pytest.mark.parametrize("game_id, name", [
    ("carpe_diem(n_players=3, full_loop=sideways)", "full_loop"),
    ("carpe_diem(n_players=3, colour=red)", "colour"),
    ("carpe_diem(n_players=5)", "players"),
    ("carpe_diem(n_players=0)", "2 to 4 players or solo (1), not 0"),
    ("carpe_diem(frame_line_mode=diagonal)", "frame_line_mode"),
    ("carpe_diem(landscape_max_tiles=1)", "landscape_max_tiles"),
    ("carpe_diem(landscape_max_tiles=four)", "landscape_max_tiles"),
    ("carpe_diem(landscape_reward_cap=-1)", "landscape_reward_cap"),
    ("carpe_diem(bread_counts_as_fulfilment=maybe)", "bread_counts_as_fulfilment"),
    ("carpe_diem(supply_limits=infinite)", "supply_limits"),
    ("carpe_diem(bread_fulfilments_per_card=1.5)", "bread_fulfilments_per_card"),
    ("carpe_diem(bread_fulfilments_per_scoring=-1)", "bread_fulfilments_per_scoring"),
    ("carpe_diem(red_card_min_one_if_able=1)", "red_card_min_one_if_able"),
    ("carpe_diem(first_tile_may_be_stored=yes)", "first_tile_may_be_stored"),
    ("carpe_diem(reward_order=random)", "reward_order"),
    ("carpe_diem(craftsman_optional=0)", "craftsman_optional"),
    ("carpe_diem(craftsman_tile_may_be_stored=never)", "craftsman_tile_may_be_stored"),
    ("carpe_diem(tie_stack_order=middle)", "tie_stack_order"),
    ("carpe_diem(patrician_placement=never)", "patrician_placement"),
    ("carpe_diem(bread_target_must_have_tiles=none)", "bread_target_must_have_tiles"),
    ("carpe_diem(track_overflow_vp=none)", "track_overflow_vp"),
    ("carpe_diem(vp_floor=-1)", "vp_floor"),
    ("carpe_diem(fountain_short_deck=reshuffle)", "fountain_short_deck"),
    ("carpe_diem(feature_scores_one_task_only=2)", "feature_scores_one_task_only"),
    ("carpe_diem(frame_task_vp='5/4')", "frame_task_vp"),
    ("carpe_diem(frame_task_vp='a/b/c')", "frame_task_vp"),
    ("carpe_diem(canonical_payment=sometimes)", "canonical_payment"),
    ("carpe_diem(three_player_empty_corners=all)", "three_player_empty_corners"),
    ("carpe_diem(villa_vp_table=fancy)", "villa_vp_table"),
    ("carpe_diem(banner_track_last=0)", "banner_track_last"),
])
def test_bad_parameter_raises_a_one_line_game_id_error(game_id, name):
    with pytest.raises(GameIdError) as err:
        make_game(game_id)
    message = str(err.value)
    assert name in message
    assert message and "\n" not in message


def test_bad_parameter_as_keyword_raises_game_id_error():
    with pytest.raises(GameIdError, match="full_loop"):
        make_game("carpe_diem", n_players=4, full_loop="sideways")
    with pytest.raises(GameIdError, match="no_such_rule"):
        make_game("carpe_diem", no_such_rule=True)


def test_game_id_lists_only_non_default_parameters():
    assert make_game("carpe_diem").id == "carpe_diem(n_players=4)"
    assert make_game("carpe_diem", n_players=3, full_loop="allow", vp_floor=None).id == "carpe_diem(n_players=3)"
    g = make_game("carpe_diem", n_players=3, full_loop="bread_else_stay", vp_floor=0,
                  craftsman_optional=True, frame_task_vp="6/2/1", landscape_max_tiles=None)
    assert g.id == ("carpe_diem(n_players=3, craftsman_optional=true, frame_task_vp='6/2/1', "
                    "full_loop=bread_else_stay, landscape_max_tiles=None, vp_floor=0)")
    again = make_game(g.id)
    assert again.id == g.id
    assert again.params == g.params
    assert np.array_equal(again.param_array, g.param_array)
