"""Scenario tests for immediate rewards and resource rules (CD-REWARD-1..13)."""

import pytest
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D

from tests.games.carpe_diem._scenario import (
    LAST,
    District,
    arrange_turn,
    cell_of,
    deck_bottom,
    ev,
    ev_names,
    seal_tiles,
    set_fountain_deck,
)
from tests.games.carpe_diem.helpers import counts, decide, field, fresh, game, held, rows, set_goods, to_scoring

CW = D.STEP_CW
GOOD_OF = {"pond": K.FISH, "garden": K.HERB, "vineyard": K.GRAPE, "chicken_yard": K.CHICKEN}


def _district(seed=0, n=4, **params):
    g = game(n, **params)
    s = fresh(g, seed)
    return g, s, District(g, s, 0)


def _build(g, s, d, tile, at, part_type=None, letters=None, log=None, **extra):
    """A whole turn: step to D1 (only ``tile`` there) and build it at ``at``."""
    d.sync_taken()
    arrange_turn(g, s, 0, {1: [tile]}, patrician=0, bread=int(field(g, s, "bread")[0]))
    decide(g, s, log, move=CW, cell=cell_of(*at), rotation=d.rot(tile, part_type, letters), **extra)


def _lodging_half(d, kind, at, letters):
    return d.put(at, [(kind, "N")], kind, letters)


@pytest.mark.parametrize("landscape", list(GOOD_OF))
@pytest.mark.parametrize("size", [2, 3])
def test_cd_reward_1_landscape_gives_size_minus_one_goods_of_its_kind(landscape, size):
    """A completed landscape of n tiles gives n - 1 goods: fish, herbs, grapes or chickens."""
    g, s, d = _district(1)
    d.put((2, 1), [(landscape, "N")], landscape, "E", dark=True)
    if size == 3:
        d.put((2, 2), [(landscape, "NS")], landscape, "EW", dark=False)
    end = d.tile([(landscape, "N")], dark=True)
    _build(g, s, d, end, (2, size), landscape, "W")
    want = [0, 0, 0, 0]
    want[GOOD_OF[landscape]] = size - 1
    assert field(g, s, "goods")[0].tolist() == want
    assert counts(g, s, 0)[landscape] == 1


def test_cd_reward_2_merchant_returns_all_goods_for_coins_plus_one():
    """TV-03: 2 fish, 1 chicken, 1 grape -> all goods back to the supply, 5 coins."""
    g, s, d = _district(2)
    _lodging_half(d, "merchant", (2, 2), "E")
    set_goods(g, s, 0, fish=2, chicken=1, grape=1, herb=0, coins=0)
    half = d.tile([("merchant", "N")])
    log = g.new_log()
    _build(g, s, d, half, (2, 3), "merchant", "W", log=log)
    assert field(g, s, "goods")[0].tolist() == [0, 0, 0, 0]
    assert int(field(g, s, "coins")[0]) == 5
    assert [e[1:3] for e in ev(log, "merchant")] == [[4, 5]]


def test_cd_reward_2_merchant_without_goods_gives_one_coin():
    """TV-04: no goods, 2 coins held -> 3 coins; held coins are untouched."""
    g, s, d = _district(3)
    _lodging_half(d, "merchant", (2, 2), "E")
    set_goods(g, s, 0, coins=2)
    half = d.tile([("merchant", "N")])
    _build(g, s, d, half, (2, 3), "merchant", "W")
    assert int(field(g, s, "coins")[0]) == 3


def test_cd_reward_3_baker_gives_two_bread():
    """A completed baker lodging gives 2 bread."""
    g, s, d = _district(4)
    _lodging_half(d, "baker", (2, 2), "S")
    set_goods(g, s, 0, bread=1)
    half = d.tile([("baker", "N")])
    _build(g, s, d, half, (3, 2), "baker", "N")
    assert int(field(g, s, "bread")[0]) == 3
    assert counts(g, s, 0)["baker"] == 1


def test_cd_reward_4_administrator_gives_two_steps_on_top_of_the_stack():
    """A completed administrator lodging moves the banner disc 2 steps, landing on top of a stack."""
    g, s, d = _district(5)
    field(g, s, "banner_pos")[:4] = [3, 5, 5, 1]
    _lodging_half(d, "administrator", (2, 2), "E")
    half = d.tile([("administrator", "N")])
    _build(g, s, d, half, (2, 3), "administrator", "W")
    assert field(g, s, "banner_pos")[:4].tolist() == [5, 5, 5, 1]
    stamps = field(g, s, "banner_stamp")
    assert int(stamps[0]) > max(int(stamps[1]), int(stamps[2]))


def _craftsman_ready(seed=6, **params):
    """Craftsman half at (2,1) open east; the matching half goes to (2,2) next turn."""
    g, s, d = _district(seed, **params)
    _lodging_half(d, "craftsman", (2, 1), "E")
    half = d.tile([("craftsman", "N")], dark=False)
    return g, s, d, half


def test_cd_reward_5_craftsman_takes_a_seal_tile_of_choice_and_builds_it():
    """Completing a craftsman lodging offers every seal tile (build or store, no decline); the chosen one is built."""
    g, s, d, half = _craftsman_ready()
    market, bakery = d.tile([("market", "")], dark=True), d.tile([("bakery", "")], dark=True)
    seal_tiles(g, s, {0: market, 9: bakery})
    _build(g, s, d, half, (2, 2), "craftsman", "W")
    tab = g.decision(s)
    assert (tab.kind, tab.seat) == (D.CRAFTSMAN, 0)
    offered = rows(g, s)
    assert {(r["space"], r["tile"]) for r in offered} == {(0, market), (9, bakery)}
    assert all(r["space"] >= 0 for r in offered)  # no decline by default (AMB-12)
    assert {r["space"] for r in offered if r["cell"] < 0} == {0, 9}  # storing is allowed
    decide(g, s, space=9, cell=cell_of(2, 3))
    assert field(g, s, "seal")[[0, 9]].tolist() == [market, -1]
    assert int(field(g, s, "cell_tile")[0, cell_of(2, 3)]) == bakery
    assert int(field(g, s, "bread")[0]) == 1  # the bakery's own reward
    assert g.decision(s).kind == D.TURN


def test_cd_reward_5_craftsman_chain_takes_a_second_seal_tile():
    """A seal tile that completes another craftsman lodging earns another seal tile at once."""
    g, s, d, half = _craftsman_ready(7)
    _lodging_half(d, "craftsman", (1, 3), "S")
    second = d.tile([("craftsman", "N")], dark=True)
    market = d.tile([("market", "")], dark=True)
    pond = d.tile([("pond", "N")], dark=True)
    seal_tiles(g, s, {2: second, 5: market, 7: pond})
    _build(g, s, d, half, (2, 2), "craftsman", "W")
    decide(g, s, space=2, cell=cell_of(2, 3), rotation=d.rot(second, "craftsman", "N"))
    assert counts(g, s, 0)["craftsman"] == 2
    tab = g.decision(s)
    assert tab.kind == D.CRAFTSMAN
    assert {r["space"] for r in rows(g, s)} == {5, 7}
    decide(g, s, space=5, cell=cell_of(3, 3))
    assert int(field(g, s, "coins")[0]) == 1
    assert field(g, s, "seal").tolist() == [-1] * 7 + [pond] + [-1] * 3  # never refilled
    assert g.decision(s).kind == D.TURN


def test_cd_reward_5_empty_seal_display_gives_nothing():
    """With no tile on the seal spaces the craftsman reward has no effect and the turn ends."""
    g, s, d, half = _craftsman_ready(8)
    seal_tiles(g, s, {})
    log = g.new_log()
    _build(g, s, d, half, (2, 2), "craftsman", "W", log=log)
    tab = g.decision(s)
    assert (tab.kind, tab.seat) == (D.TURN, 1)
    assert counts(g, s, 0)["craftsman"] == 1
    assert [e[1:3] for e in ev(log, "craftsman")] == [[-1, -1]]
    assert int(field(g, s, "built")[0]) == 2


def test_cd_reward_5_seal_tile_may_be_stored():
    """AMB-12 default: the seal tile may be stored face down instead of built."""
    g, s, d, half = _craftsman_ready(9)
    villa = d.tile([("villa", "N")], dark=True)
    seal_tiles(g, s, {4: villa})
    _build(g, s, d, half, (2, 2), "craftsman", "W")
    decide(g, s, space=4, cell=-1)
    assert int(field(g, s, "stored")[0]) == 1
    assert int(field(g, s, "seal")[4]) == -1
    assert villa not in field(g, s, "cell_tile")[0].tolist()


def test_cd_reward_5_alternative_optional_craftsman_offers_decline():
    """AMB-12 alternative craftsman_optional: a decline row (seal space -1) exists."""
    g, s, d, half = _craftsman_ready(10, craftsman_optional=True)
    seal_tiles(g, s, {4: d.tile([("market", "")], dark=True)})
    _build(g, s, d, half, (2, 2), "craftsman", "W")
    assert -1 in {r["space"] for r in rows(g, s)}


def test_cd_reward_5_seal_fountain_decides_before_the_outer_reward():
    """Depth first with a decision inside: a seal fountain's card choice comes before the pending garden herb."""
    g, s, d = _district(26)
    d.put((1, 2), [("garden", "N")], "garden", "S", dark=True)
    _lodging_half(d, "craftsman", (3, 2), "N")
    fountain = d.tile([("fountain", "")], dark=True)
    seal_tiles(g, s, {1: fountain})
    (f01, f02), _ = set_fountain_deck(g, s, ["F01", "F02"])
    tile = d.tile([("garden", "N"), ("craftsman", "S")], dark=False)
    _build(g, s, d, tile, (2, 2), "garden", "N")
    decide(g, s, count=K.CRAFTSMAN)
    decide(g, s, space=1, cell=cell_of(2, 3))
    tab = g.decision(s)
    assert (tab.kind, tab.seat) == (D.FOUNTAIN, 0)
    assert int(field(g, s, "goods")[0, K.HERB]) == 0  # the garden is still pending
    decide(g, s, tile=f02)
    assert held(g, s, 0) == [f01]
    assert int(field(g, s, "goods")[0, K.HERB]) == 1
    assert g.decision(s).kind == D.TURN


def test_cd_reward_6_market_gives_one_coin():
    """A built market gives 1 coin."""
    g, s, d = _district(11)
    d.meadow((2, 2), "bakery")
    market = d.tile([("market", "")])
    _build(g, s, d, market, (2, 3))
    assert int(field(g, s, "coins")[0]) == 1 and counts(g, s, 0)["market"] == 1


def test_cd_reward_7_bakery_gives_one_bread():
    """A built bakery gives 1 bread."""
    g, s, d = _district(12)
    d.meadow((2, 2), "market")
    bakery = d.tile([("bakery", "")])
    _build(g, s, d, bakery, (2, 3))
    assert int(field(g, s, "bread")[0]) == 1 and counts(g, s, 0)["bakery"] == 1


def _fountain_turn(seed, top, hand=()):
    g, s, d = _district(seed)
    d.meadow((2, 2), "market")
    ids, hands = set_fountain_deck(g, s, top, {0: list(hand)} if hand else None)
    fountain = d.tile([("fountain", "")])
    _build(g, s, d, fountain, (2, 3))
    return g, s, ids, hands.get(0, [])


def test_cd_reward_8_first_fountain_draws_two_and_keeps_one():
    """TV-16: holding no card, the two drawn cards are the choices; the other goes under the deck."""
    g, s, (f05, f12), _ = _fountain_turn(13, ["F05", "F12"])
    tab = g.decision(s)
    assert (tab.kind, tab.seat) == (D.FOUNTAIN, 0)
    assert sorted(r["tile"] for r in rows(g, s)) == sorted([f05, f12])
    decide(g, s, tile=f05)
    assert held(g, s, 0) == [f12]
    assert deck_bottom(g, s) == f05
    assert int(field(g, s, "fdeck_count")[0]) == 23


def test_cd_reward_8_later_fountain_keeps_both_and_returns_an_earlier_card():
    """TV-16: holding F03, the choices are F05, F12 and F03; returning F03 keeps both new cards."""
    g, s, (f05, f12), [f03] = _fountain_turn(14, ["F05", "F12"], ["F03"])
    assert sorted(r["tile"] for r in rows(g, s)) == sorted([f05, f12, f03])
    decide(g, s, tile=f03)
    assert held(g, s, 0) == sorted([f05, f12])
    assert deck_bottom(g, s) == f03
    assert int(field(g, s, "fountain_n")[0]) == 2  # cards held = fountains built


def test_cd_reward_8_later_fountain_may_return_a_drawn_card():
    """Holding 2 cards, any of the 4 may go under; returning a drawn card keeps the old ones."""
    g, s, (f05, f12), hand = _fountain_turn(15, ["F05", "F12"], ["F03", "F07"])
    assert sorted(r["tile"] for r in rows(g, s)) == sorted([f05, f12] + hand)
    decide(g, s, tile=f12)
    assert held(g, s, 0) == sorted(hand + [f05])
    assert deck_bottom(g, s) == f12


def test_cd_reward_8_short_deck_draws_what_is_left():
    """AMB-18 default: one card left and none held -> it is kept without a choice; an empty deck gives nothing."""
    g, s, d = _district(27)
    d.meadow((2, 2), "market")
    set_fountain_deck(g, s, [])
    last = int(field(g, s, "fountain_deck")[0])
    field(g, s, "fdeck_count")[0] = 1
    _build(g, s, d, d.tile([("fountain", "")]), (2, 3))
    assert g.decision(s).kind == D.TURN
    assert held(g, s, 0) == [last] and int(field(g, s, "fdeck_count")[0]) == 0
    _build(g, s, d, d.tile([("fountain", "")]), (2, 1))
    assert g.decision(s).kind == D.TURN
    assert held(g, s, 0) == [last] and counts(g, s, 0)["fountain"] == 2


def test_cd_reward_9_completed_villa_gives_nothing_at_once():
    """Completing a villa changes no resource, VP or banner position (it scores at the end)."""
    g, s, d = _district(16)
    d.put((2, 2), [("villa", "N")], "villa", "E", dark=True, chimneys=2)
    end = d.tile([("villa", "N")], dark=True, chimneys=1)
    keep = ("goods", "coins", "bread", "vp", "banner_pos", "fountain_n")
    before = {k: field(g, s, k)[0].copy() for k in keep}
    _build(g, s, d, end, (2, 3), "villa", "W")
    assert counts(g, s, 0)["villas"] == 1
    for k, v in before.items():
        assert (field(g, s, k)[0] == v).all(), k
    assert int(field(g, s, "villa_vp_sum")[0]) == 3


def test_cd_reward_10_surplus_administrator_step_at_the_track_end_gives_1_vp():
    """TV-23: from L-1 the administrator's 2 steps reach L and pay 1 VP; the disc lies on top."""
    g, s, d = _district(17)
    field(g, s, "banner_pos")[:4] = [LAST - 1, LAST, 0, LAST]
    _lodging_half(d, "administrator", (2, 2), "E")
    vp = int(field(g, s, "vp")[0])
    half = d.tile([("administrator", "N")])
    _build(g, s, d, half, (2, 3), "administrator", "W")
    assert int(field(g, s, "banner_pos")[0]) == LAST
    assert int(field(g, s, "vp")[0]) == vp + 1
    assert int(field(g, s, "vp_overflow")[0]) == 1
    stamps = field(g, s, "banner_stamp")
    assert int(stamps[0]) > max(int(stamps[1]), int(stamps[3]))


def test_cd_reward_10_banner_step_at_the_track_end_gives_1_vp():
    """AMB-16 default: a banner step beyond L also pays 1 VP, and the disc goes on top again."""
    g, s, d = _district(18)
    d.meadow((2, 2), "market")
    field(g, s, "banner_pos")[:4] = [LAST, LAST, 2, 2]
    field(g, s, "banner_stamp")[:4] = [1, 9, 2, 3]
    field(g, s, "stamp")[0] = 9
    field(g, s, "banner_left")[0, cell_of(2, 3)] = 1
    vp = int(field(g, s, "vp")[0])
    _build(g, s, d, d.tile([("market", "")]), (2, 3))
    assert int(field(g, s, "banner_pos")[0]) == LAST
    assert int(field(g, s, "vp")[0]) == vp + 1
    assert int(field(g, s, "banner_stamp")[0]) > int(field(g, s, "banner_stamp")[1])


def test_cd_reward_11_banner_step_before_the_rewards_of_the_build():
    """Order within a build: the banner step comes before the completed feature's reward."""
    g, s, d = _district(19)
    _lodging_half(d, "administrator", (2, 2), "E")
    field(g, s, "banner_left")[0, cell_of(2, 3)] = 1
    log = g.new_log()
    _build(g, s, d, d.tile([("administrator", "N")]), (2, 3), "administrator", "W", log=log)
    names = ev_names(log)
    assert names[names.index("place"):] == ["place", "banner", "steps", "complete", "steps"]
    assert [e[1:5] for e in ev(log, "steps")] == [[1, 1, 0, 0], [2, 3, 0, 1]]  # banner, then administrator


def _vineyard_and_merchant(seed):
    """A vineyard corner + merchant tile that completes a 3-tile vineyard and a merchant lodging."""
    g, s, d = _district(seed)
    d.put((1, 2), [("vineyard", "N")], "vineyard", "S", dark=True)
    d.put((2, 3), [("vineyard", "N")], "vineyard", "W", dark=True)
    _lodging_half(d, "merchant", (3, 2), "N")
    tile = d.tile([("vineyard", "NE"), ("merchant", "S")], dark=False)
    _build(g, s, d, tile, (2, 2), "vineyard", "NE")
    return g, s


def test_cd_reward_11_player_chooses_the_order_of_rewards():
    """TV-27: vineyard first -> grapes converted (0 grapes, 3 coins); merchant first -> 2 grapes, 1 coin."""
    for first, grapes, coins in ((K.VINEYARD, 0, 3), (K.MERCHANT, 2, 1)):
        g, s = _vineyard_and_merchant(20)
        tab = g.decision(s)
        assert (tab.kind, tab.seat) == (D.REWARD_ORDER, 0)
        assert sorted(r["count"] for r in rows(g, s)) == [K.VINEYARD, K.MERCHANT]
        decide(g, s, count=first)
        assert int(field(g, s, "goods")[0, K.GRAPE]) == grapes
        assert int(field(g, s, "coins")[0]) == coins
        assert g.decision(s).kind == D.TURN


def test_cd_reward_11_craftsman_reward_resolves_depth_first():
    """The seal tile's merchant reward is paid before the garden reward still pending from the turn."""
    for first, herbs, coins in ((K.CRAFTSMAN, 1, 1), (K.GARDEN, 0, 2)):
        g, s, d = _district(21)
        d.put((1, 2), [("garden", "N")], "garden", "S", dark=True)
        _lodging_half(d, "craftsman", (3, 2), "N")
        _lodging_half(d, "merchant", (2, 4), "W")
        seal_merchant = d.tile([("merchant", "N")], dark=True)
        seal_tiles(g, s, {6: seal_merchant})
        tile = d.tile([("garden", "N"), ("craftsman", "S")], dark=False)
        _build(g, s, d, tile, (2, 2), "garden", "N")
        assert g.decision(s).kind == D.REWARD_ORDER
        decide(g, s, count=first)
        assert g.decision(s).kind == D.CRAFTSMAN
        decide(g, s, space=6, cell=cell_of(2, 3), rotation=d.rot(seal_merchant, "merchant", "E"))
        assert counts(g, s, 0)["merchant"] == 1
        assert int(field(g, s, "goods")[0, K.HERB]) == herbs
        assert int(field(g, s, "coins")[0]) == coins


def test_cd_reward_12_supply_is_unlimited():
    """AMB-7 default: 30 goods convert to 31 coins; bread beyond the 18 printed pieces is still paid."""
    g, s, d = _district(22)
    _lodging_half(d, "merchant", (2, 2), "E")
    set_goods(g, s, 0, fish=10, herb=10, grape=5, chicken=5, coins=20, bread=17)
    field(g, s, "bread")[1] = 5
    _build(g, s, d, d.tile([("merchant", "N")]), (2, 3), "merchant", "W")
    assert int(field(g, s, "coins")[0]) == 51
    _lodging_half(d, "baker", (4, 2), "E")
    _build(g, s, d, d.tile([("baker", "N")]), (4, 3), "baker", "W")
    assert int(field(g, s, "bread")[0]) == 19


def test_cd_reward_12_alternative_physical_supply_caps_gains():
    """AMB-7 alternative: with the physical supply, bread beyond the 18 pieces is lost."""
    g, s, d = _district(23, supply_limits="physical")
    set_goods(g, s, 0, bread=17)
    _lodging_half(d, "baker", (4, 2), "E")
    _build(g, s, d, d.tile([("baker", "N")]), (4, 3), "baker", "W")
    assert int(field(g, s, "bread")[0]) == 18


def test_cd_reward_13_goods_and_coins_never_replace_bread():
    """Without 3 bread there is no bread fulfilment, whatever goods and coins are held."""
    g = game(4)
    s = fresh(g, 24)
    to_scoring(g, s, 0, 4, "D17", "D21")  # no pond, no bakery
    set_goods(g, s, 0, fish=6, herb=6, coins=9, bread=2)
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=4)
    assert int(field(g, s, "vp")[0]) == vp - 8
    assert field(g, s, "goods")[0].tolist() == [6, 6, 0, 0]
    assert (int(field(g, s, "coins")[0]), int(field(g, s, "bread")[0])) == (9, 2)


def test_cd_reward_13_bread_never_pays_single_goods():
    """TV-07: 3 fish wanted, 2 fish and 2 bread held: only k = 0, b = 0 -> -4 VP, fish kept."""
    g = game(4)
    s = fresh(g, 25)
    to_scoring(g, s, 0, 4, "A11", "D23")
    d = District(g, s, 0)
    d.meadow((2, 2), "fountain")  # D23: 1 fountain -> 1 VP
    set_goods(g, s, 0, fish=2, coins=0, bread=2)
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=4)
    assert int(field(g, s, "vp")[0]) == vp - 4 + 1
    assert int(field(g, s, "goods")[0, K.FISH]) == 2 and int(field(g, s, "bread")[0]) == 2
