"""Rulebook test vectors TV-01..TV-14 (digest §5): villas, merchant, landscapes, scoring
cards, frame tasks and leftovers.

Positions are arranged directly; the step under test goes through the engine with validation
on (a whole turn, a disc placement with its card decisions, or the last scoring of the game,
which runs the final scoring).
"""

import numpy as np
import pytest
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.events import EV_CARD, EV_FINAL, EV_MERCHANT, events
from bgsim.sim.games.carpe_diem.kernels.district import villa_vp
from bgsim.sim.games.carpe_diem.kernels.final import final_scoring, leftover_vp

from tests.games.carpe_diem.helpers import (
    GOODS,
    build_turn,
    card_id,
    cell,
    counts,
    decide,
    field,
    find_tile,
    fresh,
    game,
    preset,
    rotation,
    set_goods,
    to_scoring,
    to_turn,
)

SPACE = 0  # H(0,0): card slots (0,0) and (0,1)
CARDLOG_FIELDS = ("pass", "card", "k", "b", "vp", "coins", "bread", "steps", "penalty")


# Private helpers


class _Picker:
    """Hands out distinct tiles by shape, so one arrangement never reuses a tile."""

    def __init__(self, g):
        self.g = g
        self.used = set()

    def __call__(self, parts, dark=None, chimneys=None) -> int:
        tile = find_tile(self.g, parts, dark=dark, chimneys=chimneys, exclude=tuple(self.used))
        self.used.add(tile)
        return tile


def _put(g, s, seat, tile, r, c, ptype, open_letters):
    preset(g, s, seat, tile, cell(r, c), rotation(g, tile, ptype, open_letters))


def _build(g, s, seat, tile, r, c, ptype, open_letters, log=None):
    return build_turn(g, s, seat, tile, cell(r, c), rotation(g, tile, ptype, open_letters), log)


def _pair(g, s, seat, a, b, r, c, ptype):
    """Two single-edge parts of ``ptype`` facing each other on (r, c) and (r, c + 1)."""
    _put(g, s, seat, a, r, c, ptype, "E")
    _put(g, s, seat, b, r, c + 1, ptype, "W")


PAIR_CELLS = [(r, c) for r in range(6) for c in (0, 3)]  # left cell of each horizontal pair


def _villa_pairs(g, s, seat, pick, n):
    """``n`` completed two-tile villas (dark villa ends)."""
    for r, c in PAIR_CELLS[:n]:
        _pair(g, s, seat, pick([("villa", "N")], dark=True), pick([("villa", "N")], dark=True), r, c, "villa")


def _landscape_pairs(g, s, seat, pick, specs):
    """One completed two-tile landscape per (kind, extra) in ``specs``: a dark end joined to a dark
    end (extra None) or to a light end that also shows the small building ``extra``."""
    for (r, c), (kind, extra) in zip(PAIR_CELLS, specs, strict=False):
        second = [(kind, "N")] if extra is None else [(kind, "N"), (extra, "")]
        _pair(g, s, seat, pick([(kind, "N")], dark=True), pick(second, dark=extra is None), r, c, kind)


def _companion_market(g, s, seat, pick):
    """One market at (5,5): the companion card D22 (1 market -> 1 VP) then pays exactly +1 VP."""
    _put(g, s, seat, pick([("market", "")], dark=True), 5, 5, "market", "")


def _card_log(g, s, seat) -> dict:
    n = int(field(g, s, "cardlog_n")[seat])
    out = {}
    for row in field(g, s, "cardlog")[seat, :n]:
        entry = dict(zip(CARDLOG_FIELDS, row.tolist(), strict=True))
        out[g.components.scoring_cards[entry["card"]].id] = entry
    return out


def _fulfil_rows(g, s) -> set:
    tab = g.decision(s)
    assert tab.kind == D.FULFIL
    b_col, k_col = g.action_fields.index("bread"), g.action_fields.index("count")
    return {(int(row[b_col]), int(row[k_col])) for row in tab.actions}


def _snapshot(g, s, seat) -> dict:
    goods = field(g, s, "goods")[seat]
    return {
        "vp": int(field(g, s, "vp")[seat]),
        "coins": int(field(g, s, "coins")[seat]),
        "bread": int(field(g, s, "bread")[seat]),
        "banner": int(field(g, s, "banner_pos")[seat]),
        "penalties": int(field(g, s, "penalties")[seat]),
        **{name: int(goods[i]) for name, i in GOODS.items()},
    }


def _scoring_done(g, s, seat):
    """Seat's pass-scoring turn is over: the next scorer is placing a disc."""
    assert int(field(g, s, "phase")[0]) == D.DISC
    assert int(field(g, s, "seat")[0]) != seat
    assert int(field(g, s, "disc")[SPACE]) == seat


def _finish_game(g, s, last: int = 1) -> np.ndarray:
    """Arrange the last pass-4 scoring turn for seat ``last`` and play it (first legal rows) to the
    end, so the engine runs the final scoring itself. Returns the event log."""
    n = g.n_players
    order = field(g, s, "score_order")
    order[:] = -1
    order[:n] = [q for q in range(n) if q != last] + [last]
    field(g, s, "score_index")[0] = n - 1
    field(g, s, "score_bread_used")[0] = 0
    field(g, s, "pass_no")[0] = 4
    field(g, s, "disc")[:] = -1
    field(g, s, "phase")[0] = D.DISC
    field(g, s, "seat")[0] = last
    log = g.new_log()
    for _ in range(50):
        if g.is_over(s):
            break
        tab = g.decision(s)
        g.apply(s, tab.actions[0].copy(), log, validate=True)
    assert g.is_over(s)
    return log


# TV-01 / TV-02: villas (CD-END-2)


def test_tv01_cd_end_2_villa_table_gives_3_7_7_for_the_rulebook_villas():
    """Nils: completed villas with 3, 5, 5 chimneys score 3 + 7 + 7 = 17."""
    t = game(4).tables
    assert [villa_vp(t, c) for c in (3, 5, 5)] == [3, 7, 7]
    assert sum(villa_vp(t, c) for c in (3, 5, 5)) == 17


def test_tv01_cd_end_2_completed_villas_score_incomplete_villas_do_not():
    """Built villas: completed 3/5/5 chimneys and incomplete 4/4; final scoring gives 17 villa VP."""
    g = game(4)
    s = fresh(g)
    pick = _Picker(g)
    end1 = lambda: pick([("villa", "N")], dark=True, chimneys=1)  # noqa: E731
    end2 = lambda: pick([("villa", "N")], dark=True, chimneys=2)  # noqa: E731
    # 3 = 1 + 2 on row 0, columns 0-1
    _put(g, s, 0, end1(), 0, 0, "villa", "E")
    a_last = end2()
    # 5 = 1 + 3 + 1 on row 0, columns 3-5
    _put(g, s, 0, end1(), 0, 3, "villa", "E")
    _put(g, s, 0, pick([("villa", "NS")], chimneys=3), 0, 4, "villa", "EW")
    b_last = end1()
    # 5 = 2 + 1 + 2 around a corner: (2,0) (2,1) (3,1)
    _put(g, s, 0, end2(), 2, 0, "villa", "E")
    _put(g, s, 0, pick([("villa", "NE")], chimneys=1), 2, 1, "villa", "SW")
    c_last = end2()
    # incomplete 4 = 2 + 2, one edge left open towards (3,4)
    _put(g, s, 0, pick([("villa", "NE")], chimneys=2), 2, 4, "villa", "ES")
    _put(g, s, 0, end2(), 2, 5, "villa", "W")
    # incomplete 4 = 3 + 1, two edges left open towards (3,2) and (4,1)
    _put(g, s, 0, pick([("villa", "NES")], chimneys=3), 4, 2, "villa", "NEW")
    _put(g, s, 0, end1(), 4, 3, "villa", "W")
    assert counts(g, s, 0)["villas"] == 0

    _build(g, s, 0, a_last, 0, 1, "villa", "W")
    _build(g, s, 0, b_last, 0, 5, "villa", "W")
    _build(g, s, 0, c_last, 3, 1, "villa", "N")

    assert counts(g, s, 0)["villas"] == 3
    assert counts(g, s, 0)["chimneys"] == 3 + 5 + 5 + 4 + 4  # CD-FEATURE-7 counts all chimneys
    log = _finish_game(g, s)
    sheet = g.score_sheet(s)
    assert sheet["villas"][0] == 17
    final = [e for e in events(log) if e[0] == EV_FINAL and e[1] == 0]
    assert len(final) == 1 and final[0][2] == 17


def test_tv02_cd_end_2_villa_table_gives_26_for_14_chimneys():
    assert villa_vp(game(4).tables, 14) == 26


def test_tv02_cd_end_2_completed_villa_with_14_chimneys_scores_26():
    """One completed villa of six tiles (2 + 3 + 3 + 2 + 2 + 2 chimneys) scores 26 at the end."""
    g = game(4)
    s = fresh(g)
    pick = _Picker(g)
    end2 = lambda: pick([("villa", "N")], dark=True, chimneys=2)  # noqa: E731
    _put(g, s, 0, end2(), 1, 0, "villa", "E")
    _put(g, s, 0, pick([("villa", "NS")], chimneys=3), 1, 1, "villa", "EW")
    _put(g, s, 0, pick([("villa", "NES")], chimneys=3), 1, 2, "villa", "ESW")
    _put(g, s, 0, pick([("villa", "NS")], chimneys=2), 1, 3, "villa", "EW")
    _put(g, s, 0, end2(), 1, 4, "villa", "W")
    assert counts(g, s, 0)["villas"] == 0
    _build(g, s, 0, end2(), 2, 2, "villa", "N")
    assert counts(g, s, 0)["villas"] == 1
    assert counts(g, s, 0)["chimneys"] == 14
    _finish_game(g, s)
    assert g.score_sheet(s)["villas"][0] == 26


# TV-03 / TV-04: merchant (CD-REWARD-2)


def _merchant_position(g):
    s = fresh(g)
    pick = _Picker(g)
    _put(g, s, 0, pick([("merchant", "N")], dark=True), 2, 2, "merchant", "E")
    return s, pick([("merchant", "N")], dark=True)


def test_tv03_cd_reward_2_merchant_returns_all_goods_for_goods_plus_one_coins():
    """Nils returns 2 fish, 1 chicken, 1 grape and takes 5 coins."""
    g = game(4)
    s, half = _merchant_position(g)
    set_goods(g, s, 0, fish=2, chicken=1, grape=1, herb=0, coins=0)
    log = g.new_log()
    _build(g, s, 0, half, 2, 3, "merchant", "W", log)
    assert counts(g, s, 0)["merchant"] == 1
    assert field(g, s, "goods")[0].tolist() == [0, 0, 0, 0]
    assert int(field(g, s, "coins")[0]) == 5
    merchant = [e for e in events(log) if e[0] == EV_MERCHANT]
    assert [(int(e[2]), int(e[3])) for e in merchant] == [(4, 5)]


def test_tv04_cd_reward_2_merchant_without_goods_gives_one_coin_and_keeps_coins():
    g = game(4)
    s, half = _merchant_position(g)
    set_goods(g, s, 0, coins=2)
    _build(g, s, 0, half, 2, 3, "merchant", "W")
    assert counts(g, s, 0)["merchant"] == 1
    assert field(g, s, "goods")[0].tolist() == [0, 0, 0, 0]
    assert int(field(g, s, "coins")[0]) == 3


# TV-05: landscape goods (CD-REWARD-1)


def test_tv05_cd_reward_1_three_tile_pond_gives_two_fish():
    g = game(4)
    s = fresh(g)
    pick = _Picker(g)
    _put(g, s, 0, pick([("pond", "N")], dark=True), 2, 1, "pond", "E")
    _put(g, s, 0, pick([("pond", "NS")]), 2, 2, "pond", "EW")
    assert int(field(g, s, "goods")[0, GOODS["fish"]]) == 0
    _build(g, s, 0, pick([("pond", "N")], dark=True), 2, 3, "pond", "W")
    assert counts(g, s, 0)["pond"] == 1
    assert counts(g, s, 0)["landscapes"] == 1
    assert field(g, s, "goods")[0].tolist() == [2, 0, 0, 0]


# TV-06 / TV-07: red cards (CD-CARD-4, -5, -6)


def _tv06_position(g):
    s = fresh(g)
    _companion_market(g, s, 0, _Picker(g))
    set_goods(g, s, 0, bread=3, coins=3, fish=2, herb=2, chicken=1, grape=0)
    to_scoring(g, s, 0, SPACE, "B11", "D22")
    decide(g, s, space=SPACE)
    return s


def test_tv06_cd_card_4_cd_card_5_b11_legal_fulfilments_k_up_to_2_b_up_to_1():
    """3 coins cover at most 2 sets (a 3rd needs 7 coins); 3 bread give one bread fulfilment."""
    g = game(4)
    s = _tv06_position(g)
    assert _fulfil_rows(g, s) == {(b, k) for b in (0, 1) for k in (0, 1, 2)}


def test_tv06_cd_card_4_cd_card_5_b11_three_sets_with_bread_and_coins():
    """Sylvia: 3 bread (one set) + 3 coins, 2 fish, 2 herbs, 1 chicken (two sets) = 24 VP."""
    g = game(4)
    s = _tv06_position(g)
    before = _snapshot(g, s, 0)
    log = g.new_log()
    decide(g, s, log, bread=1, count=2)
    _scoring_done(g, s, 0)
    after = _snapshot(g, s, 0)
    b11 = _card_log(g, s, 0)["B11"]
    assert (b11["k"], b11["b"], b11["vp"], b11["penalty"]) == (2, 1, 24, 0)
    assert after["vp"] - before["vp"] == 24 + 1  # + D22 with its one market
    assert [after[x] for x in ("bread", "coins", "fish", "herb", "grape", "chicken")] == [0] * 6
    card = [e for e in events(log) if e[0] == EV_CARD and e[2] == card_id(g, "B11")]
    assert [(int(e[9]), int(e[10])) for e in card] == [(5, 3)]  # goods paid, coins paid


def test_tv07_cd_card_4_cd_card_6_a11_unpayable_costs_4_vp_and_keeps_the_fish():
    """Sylvia must give 3 fish but has 2, no coins and only 2 bread: k = b = 0, -4 VP."""
    g = game(4)
    s = fresh(g)
    _companion_market(g, s, 0, _Picker(g))
    set_goods(g, s, 0, fish=2, coins=0, bread=2)
    to_scoring(g, s, 0, SPACE, "A11", "D22")
    before = _snapshot(g, s, 0)
    decide(g, s, space=SPACE)
    _scoring_done(g, s, 0)  # the only legal (b, k) = (0, 0) was applied without a decision
    after = _snapshot(g, s, 0)
    a11 = _card_log(g, s, 0)["A11"]
    assert (a11["k"], a11["b"], a11["vp"], a11["penalty"]) == (0, 0, -4, 1)
    assert after["vp"] - before["vp"] == -4 + 1
    assert (after["fish"], after["bread"], after["coins"]) == (2, 2, 0)
    assert after["penalties"] - before["penalties"] == 1


# TV-08 / TV-09: green cards (CD-CARD-3, CD-FEATURE-7)


@pytest.mark.parametrize("first", ["C01", "C06"])
def test_tv08_cd_card_3_cd_feature_7_c01_c06_count_chimneys_of_all_villas(first):
    """7 chimneys (a completed villa of 3, an incomplete one of 4): C01 -> 3 bread,
    C06 -> 2 coins + 2 steps, in either order."""
    g = game(4)
    s = fresh(g)
    pick = _Picker(g)
    _put(g, s, 0, pick([("villa", "N")], dark=True, chimneys=1), 0, 0, "villa", "E")
    _put(g, s, 0, pick([("villa", "N")], dark=True, chimneys=2), 0, 1, "villa", "W")
    _put(g, s, 0, pick([("villa", "NS")], chimneys=3), 2, 1, "villa", "EW")
    _put(g, s, 0, pick([("villa", "N")], dark=True, chimneys=1), 2, 2, "villa", "W")
    assert counts(g, s, 0)["chimneys"] == 7 and counts(g, s, 0)["villas"] == 1
    to_scoring(g, s, 0, SPACE, "C01", "C06")
    before = _snapshot(g, s, 0)
    decide(g, s, space=SPACE)
    assert g.decision(s).kind == D.CARD_ORDER  # both cards pay coins or bread
    decide(g, s, slot=0 if first == "C01" else 1)
    if first == "C01":
        # C06 second, with C01's 3 bread on hand: k is fixed, b is the choice; no bread spent
        assert _fulfil_rows(g, s) == {(0, 2), (1, 2)}
        decide(g, s, bread=0, count=2)
    _scoring_done(g, s, 0)
    after = _snapshot(g, s, 0)
    log = _card_log(g, s, 0)
    assert (log["C01"]["k"], log["C01"]["bread"]) == (3, 3)
    assert (log["C06"]["k"], log["C06"]["coins"], log["C06"]["steps"]) == (2, 2, 2)
    assert after["bread"] - before["bread"] == 3
    assert after["coins"] - before["coins"] == 2
    assert after["banner"] - before["banner"] == 2
    assert after["vp"] == before["vp"]


@pytest.mark.parametrize("first", ["D12", "D15"])
def test_tv09_cd_card_3_d12_d15_seven_landscapes_with_two_ponds_and_one_garden(first):
    """Hardy: 7 completed landscapes, 2 ponds, 1 garden: D12 -> 7 VP, D15 -> 2 coins + 2 bread."""
    g = game(4)
    s = fresh(g)
    pick = _Picker(g)
    _landscape_pairs(g, s, 0, pick, [
        ("pond", None), ("garden", None), ("vineyard", None), ("chicken_yard", None),
        ("pond", "bakery"), ("vineyard", "market"), ("chicken_yard", "bakery"),
    ])
    have = counts(g, s, 0)
    assert (have["landscapes"], have["pond"], have["garden"]) == (7, 2, 1)
    to_scoring(g, s, 0, SPACE, "D12", "D15")
    before = _snapshot(g, s, 0)
    decide(g, s, space=SPACE)
    decide(g, s, slot=0 if first == "D12" else 1)
    _scoring_done(g, s, 0)
    after = _snapshot(g, s, 0)
    log = _card_log(g, s, 0)
    assert (log["D12"]["k"], log["D12"]["vp"]) == (1, 7)
    assert (log["D15"]["k"], log["D15"]["coins"], log["D15"]["bread"]) == (2, 2, 2)
    assert after["vp"] - before["vp"] == 7
    assert after["coins"] - before["coins"] == 2
    assert after["bread"] - before["bread"] == 2


# TV-10: frame tasks (CD-END-6)

# Frame pieces F02 (N), F04 (E), F01 (S), F03 (W) give these task lines (task = side * 2 + j):
# 0 garden column 1, 1 baker column 5, 2 chicken yard row 0, 3 villa row 4,
# 4 pond column 5, 5 merchant column 1, 6 vineyard row 3, 7 administrator row 2.
TV10_FRAMES = ("F02", "F04", "F01", "F03")


def _tv10_position(g):
    s = fresh(g)
    pieces = [piece.id for piece in g.components.frames]
    field(g, s, "frame_piece")[0] = [pieces.index(f) for f in TV10_FRAMES]
    pick = _Picker(g)
    # baker lodging on column 5 (baker task), villa on row 4 (villa task)
    _put(g, s, 0, pick([("baker", "N")], dark=True), 1, 4, "baker", "E")
    _put(g, s, 0, pick([("villa", "N")], dark=True), 4, 1, "villa", "E")
    # incomplete pond on column 5 (pond task), open towards (3,5)
    _put(g, s, 0, pick([("pond", "N")], dark=True), 4, 5, "pond", "N")
    # garden in column 2, beside but not on the garden task's column 1
    _put(g, s, 0, pick([("garden", "N")], dark=True), 2, 2, "garden", "S")
    _build(g, s, 0, pick([("baker", "N")], dark=True), 1, 5, "baker", "W")
    _build(g, s, 0, pick([("villa", "N")], dark=True), 4, 2, "villa", "W")
    _build(g, s, 0, pick([("garden", "N")], dark=True), 3, 2, "garden", "N")
    have = counts(g, s, 0)
    assert (have["baker"], have["villas"], have["garden"], have["pond"]) == (1, 1, 1, 0)
    return s, pick


def test_tv10_cd_end_6_frame_tasks_score_only_completed_features_on_their_line():
    """Baker (4) and villa (3) tasks met; pond task (pond incomplete) and garden task (garden off
    the line) not: 7 VP."""
    g = game(4)
    s, _ = _tv10_position(g)
    assert field(g, s, "task_done")[0].tolist() == [0, 1, 0, 1, 0, 0, 0, 0]
    _finish_game(g, s)
    assert g.score_sheet(s)["frame_tasks"][0] == 7


def test_tv10_cd_end_6_completing_the_pond_on_its_line_adds_the_pond_task():
    """Control: the same pond, once completed on column 5, meets its task: 7 + 5 VP."""
    g = game(4)
    s, pick = _tv10_position(g)
    _build(g, s, 0, pick([("pond", "N")], dark=True), 3, 5, "pond", "S")
    assert counts(g, s, 0)["pond"] == 1
    assert field(g, s, "task_done")[0].tolist() == [0, 1, 0, 1, 1, 0, 0, 0]
    _finish_game(g, s)
    assert g.score_sheet(s)["frame_tasks"][0] == 12


# TV-11 / TV-12: leftover material (CD-END-3)


def test_tv11_cd_end_3_three_leftover_items_score_one_vp():
    """1 bread, 1 fish, 1 chicken left: floor(3 / 2) = 1 VP."""
    g = game(4)
    s = fresh(g)
    set_goods(g, s, 0, bread=1, fish=1, chicken=1)
    assert leftover_vp(s, 0) == 1
    _finish_game(g, s)
    assert g.score_sheet(s)["leftovers"][0] == 1


def test_tv11_cd_end_3_final_scoring_kernel_adds_leftovers_to_the_total():
    g = game(4)
    s = fresh(g)
    set_goods(g, s, 0, bread=1, fish=1, chicken=1)
    final_scoring(s, g.tables, g.param_array, g.new_log())
    sheet = g.score_sheet(s)
    assert sheet["leftovers"][0] == 1
    others = ("villas", "banner", "fountain_cards", "frame_tasks")
    assert [int(sheet[k][0]) for k in others] == [0, 0, 0, 0]
    assert sheet["total"][0] == int(field(g, s, "vp")[0]) + 1


def test_tv12_cd_end_3_stored_tiles_count_as_leftover_material():
    """3 goods + 2 coins + 1 bread + 2 tiles stored during play: floor(8 / 2) = 4 VP."""
    g = game(4)
    s = fresh(g)
    pick = _Picker(g)
    shovel = g.components.boards[int(field(g, s, "board")[0])].shovel
    preset(g, s, 0, pick([("market", "")], dark=True), shovel)
    for _ in range(2):
        to_turn(g, s, 0, [pick([("fountain", "")], dark=True)])
        decide(g, s, move=D.STEP_CW, space=1, slot=0, cell=-1)  # STORE
    assert int(field(g, s, "stored")[0]) == 2
    set_goods(g, s, 0, fish=1, herb=1, grape=1, coins=2, bread=1)
    assert leftover_vp(s, 0) == 4
    _finish_game(g, s)
    assert g.score_sheet(s)["leftovers"][0] == 4


# TV-13: card texts (CD-CARD-2..4)


def _arrange_none(g, s, pick):
    pass


def _arrange_villas(n):
    def arrange(g, s, pick):
        _villa_pairs(g, s, 0, pick, n)
        assert counts(g, s, 0)["villas"] == n

    return arrange


def _arrange_bakeries(n):
    def arrange(g, s, pick):
        for c in range(n):
            _put(g, s, 0, pick([("bakery", "")]), 5, c, "bakery", "")
        assert counts(g, s, 0)["bakery"] == n

    return arrange


def _arrange_three_gardens(g, s, pick):
    _landscape_pairs(g, s, 0, pick, [("garden", None), ("garden", "fountain")])
    # the third garden from two light garden ends that carry a craftsman half facing empty cells
    _put(g, s, 0, pick([("garden", "N"), ("craftsman", "N")]), 4, 3, "garden", "E")
    _put(g, s, 0, pick([("garden", "N"), ("craftsman", "N")]), 4, 4, "garden", "W")
    assert (counts(g, s, 0)["garden"], counts(g, s, 0)["pond"]) == (3, 0)


# card, arrangement, resources, chosen (b, k) or None when the engine has nothing to ask,
# expected card payout (vp, coins, bread, steps), expected resources after
TV13_CASES = {
    "A05": ("A05", _arrange_none, {"herb": 4, "coins": 2}, (0, 3), (12, 0, 0, 0), {"herb": 0, "coins": 0}),
    "A12": ("A12", _arrange_none, {"chicken": 6}, (0, 2), (14, 0, 0, 0), {"chicken": 0}),
    "B09": (
        "B09", _arrange_none, {"chicken": 2, "grape": 1, "fish": 2, "coins": 1}, (0, 2), (10, 0, 0, 0),
        {"chicken": 0, "grape": 0, "fish": 0, "coins": 0},
    ),
    "C09": ("C09", _arrange_villas(3), {}, None, (9, 0, 0, 0), {}),
    "C10": ("C10", _arrange_villas(5), {}, None, (0, 2, 2, 2), {"coins": 2, "bread": 2}),
    "D27": ("D27", _arrange_bakeries(5), {}, None, (6, 0, 0, 0), {}),
    "D12": ("D12", _arrange_three_gardens, {"bread": 3}, (1, 0), (7, 0, 0, 0), {"bread": 0}),
}


@pytest.mark.parametrize("case", list(TV13_CASES), ids=lambda c: c.lower())
def test_tv13_cd_card_2_cd_card_3_cd_card_4_card_texts(case):
    """Each fulfilment pays the payout once: 2 herbs x3 -> 12, 3 chickens x2 -> 14, grape+chicken+fish
    x2 with a coin -> 10, 3 villas -> 9, 5 villas -> 2 x (coin, step, bread), 5 bakeries -> 6,
    garden+pond set with no pond but 3 bread -> 7."""
    name, arrange, resources, choice, payout, expect = TV13_CASES[case]
    g = game(4)
    s = fresh(g)
    pick = _Picker(g)
    arrange(g, s, pick)
    _companion_market(g, s, 0, pick)
    set_goods(g, s, 0, **resources)
    to_scoring(g, s, 0, SPACE, name, "D22")
    before = _snapshot(g, s, 0)
    decide(g, s, space=SPACE)
    if g.decision(s).kind == D.CARD_ORDER:
        decide(g, s, slot=0)  # the card under test first
    if choice is None:
        assert not (g.decision(s).kind == D.FULFIL and int(field(g, s, "seat")[0]) == 0)
    else:
        b, k = choice
        assert (b, k) in _fulfil_rows(g, s)
        decide(g, s, bread=b, count=k)
    _scoring_done(g, s, 0)
    after = _snapshot(g, s, 0)
    entry = _card_log(g, s, 0)[name]
    assert (entry["vp"], entry["coins"], entry["bread"], entry["steps"]) == payout
    assert entry["penalty"] == 0
    assert after["vp"] - before["vp"] == payout[0] + 1  # + D22 with its one market
    assert after["banner"] - before["banner"] == payout[3]
    for key, value in expect.items():
        assert after[key] == value, key


# TV-14: the worst pass scoring (CD-CARD-6)


def test_tv14_cd_card_6_two_unfulfilled_cards_cost_8_vp():
    """No fish, coins, bread or pond: A11 and D17 both unfulfilled, -4 VP each."""
    g = game(4)
    s = fresh(g)
    to_scoring(g, s, 0, SPACE, "A11", "D17")
    before = _snapshot(g, s, 0)
    decide(g, s, space=SPACE)
    _scoring_done(g, s, 0)
    after = _snapshot(g, s, 0)
    assert after["vp"] - before["vp"] == -8
    assert after["penalties"] - before["penalties"] == 2
    assert int(field(g, s, "vp_cards")[0]) == -8
    log = _card_log(g, s, 0)
    assert {name: (e["k"], e["b"], e["vp"], e["penalty"]) for name, e in log.items()} == {
        "A11": (0, 0, -4, 1), "D17": (0, 0, -4, 1),
    }
