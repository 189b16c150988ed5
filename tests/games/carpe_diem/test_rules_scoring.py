"""Scenario tests for pass scoring (CD-SCORING-1..6) and scoring cards (CD-CARD-1..9)."""

from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.kernels.setup import DISC_SLOT_A, DISC_SLOT_B

from tests.games.carpe_diem._scenario import (
    LAST,
    District,
    arrange_turn,
    ev,
    light_tiles,
    play_random,
)
from tests.games.carpe_diem.helpers import card_id, counts, decide, field, fresh, game, rows, set_goods, to_scoring

SPACE = 4  # H(2,0)


def _scoring(seed, card_a, card_b, n=4, **params):
    """Seat 0's DISC decision with ``card_a``/``card_b`` beside disc space 4, and its district arranger."""
    g = game(n, **params)
    s = fresh(g, seed)
    d = District(g, s, 0)
    to_scoring(g, s, 0, SPACE, card_a, card_b)
    return g, s, d


def _card_log(log):
    """(card id, k, b, vp, coins, bread, steps, goods paid, coins paid, penalty) per resolved card."""
    return [e[1:] for e in ev(log, "card")]


def _landscape_pairs(d, kinds):
    """A completed 2-tile landscape per entry of ``kinds``, ends facing each other vertically."""
    spots = [(r, c) for r in (0, 2, 4) for c in range(6)]
    for kind, (r, c) in zip(kinds, spots, strict=False):
        for at, letters in (((r, c), "S"), ((r + 1, c), "N")):
            try:
                d.put(at, [(kind, "N")], kind, letters)
            except LookupError:
                extra = {"pond": "bakery", "garden": "fountain", "vineyard": "market", "chicken_yard": "bakery"}[kind]
                d.put(at, [(kind, "N"), (extra, "")], kind, letters)


def _villa_pairs(d, n):
    """``n`` completed 2-tile villas from villa ends."""
    for i in range(n):
        r, c = 2 * (i // 6), i % 6
        d.put((r, c), [("villa", "N")], "villa", "S")
        d.put((r + 1, c), [("villa", "N")], "villa", "N")


# --- CD-SCORING


def test_cd_scoring_1_pass_scoring_follows_the_last_turn():
    """The pass scoring starts right after turn 7N of the pass, not earlier."""
    g = game(2)
    s = fresh(g, 1)
    d = District(g, s, 1)
    d.meadow((2, 2), "market")
    d.sync_taken()
    t = light_tiles(g, 2)
    arrange_turn(g, s, 1, {3: t}, patrician=2, turn_no=12)
    decide(g, s, move=D.STEP_CW, cell=-1)
    assert g.decision(s).kind == D.TURN
    arrange_turn(g, s, 1, {3: [t[1]]}, patrician=2, turn_no=13)
    decide(g, s, move=D.STEP_CW, cell=-1)
    tab = g.decision(s)
    assert tab.kind == D.DISC and int(field(g, s, "pass_no")[0]) == 1


def test_cd_scoring_1_four_pass_scorings_per_game():
    """Every game has exactly 4 pass scorings, one after each pass."""
    for n, seed in ((2, 1), (3, 2), (4, 3)):
        _, log = play_random(game(n), seed)
        assert [e[1] for e in ev(log, "scoring_start")] == [1, 2, 3, 4]


def test_cd_scoring_2_order_by_banner_position_then_top_of_stack():
    """TV-19: seat 0 on 5, seats 1 (bottom) and 2 (top) on 3, seat 3 on 0 -> order 0, 2, 1, 3."""
    g = game(4)
    s = fresh(g, 4)
    d = District(g, s, 3)
    d.meadow((2, 2), "market")
    d.sync_taken()
    field(g, s, "banner_pos")[:4] = [5, 3, 3, 0]
    field(g, s, "banner_stamp")[:4] = [5, 6, 7, 8]
    field(g, s, "stamp")[0] = 8
    arrange_turn(g, s, 3, {2: light_tiles(g, 1)}, patrician=1, turn_no=27)
    decide(g, s, move=D.STEP_CW, cell=-1)
    assert field(g, s, "score_order")[:4].tolist() == [0, 2, 1, 3]
    seen = []
    while int(field(g, s, "pass_no")[0]) == 1:
        tab = g.decision(s)
        if tab.kind == D.DISC:
            seen.append(tab.seat)
        g.apply(s, tab.actions[0].copy(), validate=True)
    assert seen == [0, 2, 1, 3]


def test_cd_scoring_3_disc_goes_on_an_empty_live_space():
    """DISC rows are exactly the live spaces without a disc; the disc leaves the storage."""
    g = game(2)
    s = fresh(g, 5)
    to_scoring(g, s, 0, SPACE, "D21", "D22")
    live = field(g, s, "disc_live").copy()
    field(g, s, "disc")[9] = 1  # V(0,1) taken in an earlier pass
    want = {sp for sp in range(17) if live[sp] and sp != 9}
    assert {r["space"] for r in rows(g, s)} == want
    assert len(want) == 8
    decide(g, s, space=SPACE)
    assert int(field(g, s, "disc")[SPACE]) == 0
    assert int(field(g, s, "discs")[0]) == 3


def test_cd_scoring_4_the_two_cards_beside_the_disc_are_triggered():
    """Exactly the cards on the two slots next to the chosen space are resolved."""
    g = game(4)
    s = fresh(g, 6)
    to_scoring(g, s, 0, SPACE, "D21", "D22")
    space = 13  # V(1,2): slots (1,2) and (2,2)
    a, b = int(field(g, s, "slot_card")[DISC_SLOT_A[space]]), int(field(g, s, "slot_card")[DISC_SLOT_B[space]])
    log = g.new_log()
    decide(g, s, log, space=space)
    while g.decision(s).seat == 0 and not g.decision(s).kind == D.DISC:
        tab = g.decision(s)
        g.apply(s, tab.actions[0].copy(), log, validate=True)
    assert [e[1:4] for e in ev(log, "disc")] == [[space, a, b]]
    assert sorted(c[0] for c in _card_log(log)) == sorted([a, b])


def test_cd_scoring_4_gains_of_the_first_card_serve_the_second():
    """TV-15: C01 first gives the 3rd bread for A11 (+7 VP); A11 first fails (-4) and keeps 3 bread."""
    for first, vp_delta, bread in (("C01", 7, 0), ("A11", -4, 3)):
        g, s, d = _scoring(7, "C01", "A11")
        d.put((2, 2), [("villa", "N")], "villa", "E", dark=True, chimneys=2)
        set_goods(g, s, 0, bread=2, fish=0, coins=0)
        vp = int(field(g, s, "vp")[0])
        decide(g, s, space=SPACE)
        assert g.decision(s).kind == D.CARD_ORDER
        assert {r["tile"] for r in rows(g, s)} == {card_id(g, "C01"), card_id(g, "A11")}
        decide(g, s, tile=card_id(g, first))
        if first == "C01":
            assert g.decision(s).kind == D.FULFIL
            assert {(r["bread"], r["count"]) for r in rows(g, s)} == {(0, 0), (1, 0)}
            decide(g, s, bread=1)
        assert int(field(g, s, "vp")[0]) == vp + vp_delta
        assert int(field(g, s, "bread")[0]) == bread


def test_cd_scoring_4_coins_from_the_first_card_pay_a_red_second_card():
    """C03 first pays a coin that fulfils A03 (coins wild, +1 VP); A03 first fails (-4) before the coin comes."""
    for first, vp_delta, coins in (("C03", 1, 0), ("A03", -4, 1)):
        g, s, d = _scoring(31, "A03", "C03")
        d.put((2, 2), [("villa", "N")], "villa", "E", dark=True, chimneys=2)
        vp = int(field(g, s, "vp")[0])
        decide(g, s, space=SPACE)
        decide(g, s, tile=card_id(g, first))
        if first == "C03":
            assert {(r["bread"], r["count"]) for r in rows(g, s)} == {(0, 0), (0, 1)}
            decide(g, s, count=1)
        assert int(field(g, s, "vp")[0]) == vp + vp_delta
        assert int(field(g, s, "coins")[0]) == coins


def test_cd_scoring_5_discs_stay_and_block_their_space_for_later_passes():
    """A disc placed in pass 1 stays; in pass 2 its space is no longer offered and never scores again."""
    g = game(2)
    s = fresh(g, 8)
    to_scoring(g, s, 0, SPACE, "D21", "D22")
    decide(g, s, space=SPACE)
    while g.decision(s).kind != D.TURN:
        tab = g.decision(s)
        g.apply(s, tab.actions[0].copy(), validate=True)
    assert int(field(g, s, "pass_no")[0]) == 2 and int(field(g, s, "disc")[SPACE]) == 0
    placed = field(g, s, "disc").copy()
    field(g, s, "score_order")[:2] = [0, 1]  # jump to the pass-2 scoring
    field(g, s, "score_index")[0] = 0
    field(g, s, "phase")[0] = D.DISC
    field(g, s, "seat")[0] = 0
    offered = {r["space"] for r in rows(g, s)}
    taken = {sp for sp in range(17) if placed[sp] >= 0}
    assert len(taken) == 2 and SPACE in taken and not offered & taken
    assert offered == {sp for sp in range(17) if field(g, s, "disc_live")[sp] and placed[sp] < 0}


def test_cd_scoring_5_each_scorer_resolves_only_the_new_disc():
    """Whole games: per pass scoring exactly 2 cards per player, and disc spaces are never reused."""
    for n, seed in ((2, 9), (3, 10), (4, 11)):
        _, log = play_random(game(n), seed)
        discs = [e[1] for e in ev(log, "disc")]
        assert len(discs) == 4 * n and len(set(discs)) == 4 * n
        assert len(ev(log, "card")) == 8 * n


def test_cd_scoring_6_scoring_ends_once_every_player_placed_a_disc():
    """After N placements the next pass begins; before each placement at least 2 live spaces are free."""
    for n, seed in ((2, 12), (3, 13), (4, 14)):
        g = game(n)
        free_before = []

        def check(s, tab, out=free_before):
            if tab.kind == D.DISC:
                out.append(len(tab))

        play_random(g, seed, check)
        assert len(free_before) == 4 * n
        assert min(free_before) >= 2
        assert free_before[-1] == 2  # 4N + 1 live spaces, 4N placements


# --- CD-CARD


def test_cd_card_1_red_cards_ask_for_k_green_cards_do_not():
    """Decks A/B are red (k chosen), C/D green (k automatic at its maximum)."""
    g = game(4)
    for card in g.components.scoring_cards:
        assert card.red == (card.deck in (0, 1))
    g, s, d = _scoring(15, "A03", "D22")
    d.meadow((2, 2), "market")
    set_goods(g, s, 0, fish=3)
    decide(g, s, space=SPACE)
    assert g.decision(s).kind == D.FULFIL
    assert sorted(r["count"] for r in rows(g, s)) == [0, 1, 2, 3]
    decide(g, s, count=2)
    assert g.decision(s).kind == D.DISC and g.decision(s).seat != 0  # D22 needed no decision


def test_cd_card_2_payout_is_paid_once_per_fulfilment():
    """TV-13: A05 with 4 herbs and 2 coins, k = 3 -> 12 VP; A12 with 6 chickens, k = 2 -> 14 VP."""
    g, s, d = _scoring(16, "A05", "A12")
    set_goods(g, s, 0, herb=4, coins=2, chicken=6)
    vp = int(field(g, s, "vp")[0])
    log = g.new_log()
    decide(g, s, log, space=SPACE)
    assert max(r["count"] for r in rows(g, s)) == 3
    decide(g, s, log, count=3)
    assert max(r["count"] for r in rows(g, s)) == 2
    decide(g, s, log, count=2)
    assert int(field(g, s, "vp")[0]) == vp + 12 + 14
    assert [c[:4] for c in _card_log(log)] == [[card_id(g, "A05"), 3, 0, 12], [card_id(g, "A12"), 2, 0, 14]]
    assert field(g, s, "goods")[0].tolist() == [0, 0, 0, 0] and int(field(g, s, "coins")[0]) == 0


def test_cd_card_3_green_sets_and_counts_fulfilled_automatically():
    """TV-09: 7 landscapes incl. 2 ponds and 1 garden: D12 -> 7 VP, D15 -> 2 coins + 2 bread; nothing spent."""
    g, s, d = _scoring(17, "D12", "D15")
    _landscape_pairs(d, ["pond", "pond", "garden", "vineyard", "vineyard", "chicken_yard", "chicken_yard"])
    c = counts(g, s, 0)
    assert (c["landscapes"], c["pond"], c["garden"]) == (7, 2, 1)
    vp = int(field(g, s, "vp")[0])
    log = g.new_log()
    decide(g, s, log, space=SPACE)
    if g.decision(s).kind == D.CARD_ORDER:
        decide(g, s, log, tile=card_id(g, "D15"))
    assert int(field(g, s, "vp")[0]) == vp + 7
    assert (int(field(g, s, "coins")[0]), int(field(g, s, "bread")[0])) == (2, 2)
    assert sorted(c[:3] for c in _card_log(log)) == sorted([[card_id(g, "D12"), 1, 0], [card_id(g, "D15"), 2, 0]])
    assert counts(g, s, 0)["landscapes"] == 7


def test_cd_card_3_chimneys_count_on_incomplete_villas():
    """TV-08: 7 chimneys on incomplete villas: C01 -> 3 bread, C06 -> 2 coins + 2 steps."""
    g, s, d = _scoring(18, "C01", "C06")
    for i, ch in enumerate((2, 2, 2, 1)):
        d.put((1, 1 + i), [("villa", "N")], "villa", "N", dark=True, chimneys=ch)
    assert counts(g, s, 0)["chimneys"] == 7 and counts(g, s, 0)["villas"] == 0
    decide(g, s, space=SPACE)
    if g.decision(s).kind == D.CARD_ORDER:
        decide(g, s, tile=card_id(g, "C06"))
    assert int(field(g, s, "bread")[0]) == 3
    assert int(field(g, s, "coins")[0]) == 2 and int(field(g, s, "banner_pos")[0]) == 2


def test_cd_card_3_villa_cards_count_only_completed_villas():
    """TV-13: C09 with 3 completed villas (and an incomplete one) -> 9 VP."""
    g, s, d = _scoring(19, "C09", "D22")
    _villa_pairs(d, 3)
    d.put((4, 4), [("villa", "NS")], "villa", "NS", dark=False)
    d.meadow((5, 0), "market")
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=SPACE)
    assert int(field(g, s, "vp")[0]) == vp + 9 + 1


def test_cd_card_4_coins_are_wild_for_goods_on_a_cards():
    """A11 with 1 fish and 2 coins: k = 1 is possible and uses the fish and both coins."""
    g, s, d = _scoring(20, "A11", "D22")
    d.meadow((2, 2), "market")
    set_goods(g, s, 0, fish=1, coins=2)
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=SPACE)
    assert {(r["bread"], r["count"]) for r in rows(g, s)} == {(0, 0), (0, 1)}
    decide(g, s, count=1)
    assert int(field(g, s, "vp")[0]) == vp + 7 + 1
    assert int(field(g, s, "goods")[0, K.FISH]) == 0 and int(field(g, s, "coins")[0]) == 0


def test_cd_card_4_coins_fill_the_missing_kinds_of_a_b_card_set():
    """TV-13: B09 with 2 chickens, 1 grape, 2 fish, 1 coin: k = 2 (coin for a grape) -> 10 VP; k = 3 is not offered."""
    g, s, d = _scoring(21, "B09", "D22")
    d.meadow((2, 2), "market")
    set_goods(g, s, 0, chicken=2, grape=1, fish=2, coins=1)
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=SPACE)
    assert sorted(r["count"] for r in rows(g, s)) == [0, 1, 2]
    decide(g, s, count=2)
    assert int(field(g, s, "vp")[0]) == vp + 10 + 1
    assert field(g, s, "goods")[0].tolist() == [0, 0, 0, 0] and int(field(g, s, "coins")[0]) == 0


def test_cd_card_4_and_5_rulebook_example_b11():
    """TV-06: B11 with 3 bread, 3 coins, 2 fish, 2 herbs, 1 chicken: b = 1, k = 2 -> 24 VP, everything spent."""
    g, s, d = _scoring(22, "B11", "D22")
    d.meadow((2, 2), "market")
    set_goods(g, s, 0, bread=3, coins=3, fish=2, herb=2, chicken=1, grape=0)
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=SPACE)
    offered = {(r["bread"], r["count"]) for r in rows(g, s)}
    assert offered == {(b, k) for b in (0, 1) for k in (0, 1, 2)}
    decide(g, s, bread=1, count=2)
    assert int(field(g, s, "vp")[0]) == vp + 24 + 1
    assert field(g, s, "goods")[0].tolist() == [0, 0, 0, 0]
    assert (int(field(g, s, "coins")[0]), int(field(g, s, "bread")[0])) == (0, 0)


def test_cd_card_4_player_may_pay_a_coin_instead_of_an_own_good():
    """Paying 2 herbs for A05 (k = 1) with 4 herbs and 2 coins: 0, 1 or 2 of them may be coins."""
    g, s, _ = _scoring(23, "A05", "D22")
    set_goods(g, s, 0, herb=4, coins=2)
    decide(g, s, space=SPACE)
    decide(g, s, count=1)
    assert g.decision(s).kind == D.PAYMENT
    assert sorted(r["count"] for r in rows(g, s)) == [0, 1, 2]
    decide(g, s, count=2)
    assert int(field(g, s, "goods")[0, K.HERB]) == 4 and int(field(g, s, "coins")[0]) == 0


def test_cd_card_5_bread_fulfils_a_green_card_without_its_requirement():
    """3 bread fulfil D17 (no pond built) once: +3 VP and no penalty."""
    g, s, d = _scoring(24, "D17", "D22")
    d.meadow((2, 2), "market")
    set_goods(g, s, 0, bread=4)
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=SPACE)
    assert g.decision(s).kind == D.FULFIL
    assert {(r["bread"], r["count"]) for r in rows(g, s)} == {(0, 0), (1, 0)}
    decide(g, s, bread=1)
    assert int(field(g, s, "vp")[0]) == vp + 3 + 1
    assert int(field(g, s, "bread")[0]) == 1 and int(field(g, s, "penalties")[0]) == 0


def test_cd_card_5_several_bread_fulfilments_in_addition_on_a_red_card():
    """AMB-8 default: 6 bread give 2 bread fulfilments on top of the normal ones (A03: 1 fish -> 1 VP)."""
    g, s, d = _scoring(25, "A03", "D22")
    d.meadow((2, 2), "market")
    set_goods(g, s, 0, fish=1, bread=7)
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=SPACE)
    assert {(r["bread"], r["count"]) for r in rows(g, s)} == {(b, k) for b in range(3) for k in range(2)}
    decide(g, s, bread=2, count=1)
    assert int(field(g, s, "vp")[0]) == vp + 3 + 1
    assert int(field(g, s, "bread")[0]) == 1 and int(field(g, s, "goods")[0, K.FISH]) == 0


def test_cd_card_6_unfulfilled_cards_cost_4_vp_each_at_most_8():
    """TV-14: neither card fulfilled -> -8 VP in this scoring, nothing paid; VP may go negative."""
    g, s, _ = _scoring(26, "D17", "A11")
    set_goods(g, s, 0, fish=2, bread=2, coins=0)
    field(g, s, "vp")[0] = 3
    decide(g, s, space=SPACE)
    assert int(field(g, s, "vp")[0]) == -5
    assert int(field(g, s, "penalties")[0]) == 2 and int(field(g, s, "vp_cards")[0]) == -8
    assert int(field(g, s, "goods")[0, K.FISH]) == 2 and int(field(g, s, "bread")[0]) == 2


def test_cd_card_7_red_card_may_be_declined():
    """AMB-9 default: with 3 fish, A03 offers k = 0..3; k = 0 costs 4 VP and keeps the fish."""
    g, s, d = _scoring(27, "A03", "D22")
    d.meadow((2, 2), "market")
    set_goods(g, s, 0, fish=3)
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=SPACE)
    assert sorted(r["count"] for r in rows(g, s)) == [0, 1, 2, 3]
    decide(g, s, count=0)
    assert int(field(g, s, "vp")[0]) == vp - 4 + 1
    assert int(field(g, s, "goods")[0, K.FISH]) == 3


def test_cd_card_8_combined_payout_pays_every_item_per_fulfilment():
    """TV-13: C10 with 5 completed villas -> 2 coins, 2 steps and 2 bread."""
    g, s, d = _scoring(28, "C10", "D22")
    _villa_pairs(d, 5)
    d.meadow((4, 0), "market")
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=SPACE)
    if g.decision(s).kind == D.CARD_ORDER:
        decide(g, s, tile=card_id(g, "C10"))
    assert (int(field(g, s, "coins")[0]), int(field(g, s, "bread")[0])) == (2, 2)
    assert int(field(g, s, "banner_pos")[0]) == 2
    assert int(field(g, s, "vp")[0]) == vp + 1


def test_cd_card_8_step_payout_beyond_the_track_end_pays_vp():
    """TV-23: C04 with 6 chimneys at position L -> 3 steps -> 3 VP, disc on top of its stack."""
    g, s, d = _scoring(29, "C04", "C02")
    d.put((1, 1), [("villa", "NES")], "villa", "NES", dark=False, chimneys=3)
    d.put((4, 4), [("villa", "NS")], "villa", "NS", dark=False, chimneys=3)
    field(g, s, "banner_pos")[:4] = [LAST, LAST, 0, 0]
    field(g, s, "banner_stamp")[:4] = [1, 5, 2, 3]
    field(g, s, "stamp")[0] = 5
    vp = int(field(g, s, "vp")[0])
    decide(g, s, space=SPACE)
    assert int(field(g, s, "banner_pos")[0]) == LAST
    assert int(field(g, s, "vp")[0]) == vp + 3 + 6  # C02: 6 chimneys -> 3 x 2 VP
    assert int(field(g, s, "vp_overflow")[0]) == 3
    assert int(field(g, s, "banner_stamp")[0]) > int(field(g, s, "banner_stamp")[1])


def test_cd_card_9_canonical_payment_uses_own_goods_first():
    """With canonical_payment no payment decision is asked and own herbs are paid before coins."""
    g, s, _ = _scoring(30, "A05", "D22", canonical_payment=True)
    set_goods(g, s, 0, herb=4, coins=2)
    decide(g, s, space=SPACE)
    decide(g, s, count=1)
    assert g.decision(s).kind != D.PAYMENT
    assert int(field(g, s, "goods")[0, K.HERB]) == 2 and int(field(g, s, "coins")[0]) == 2


def test_CD_SCORING_4_a_disc_placement_takes_the_two_cards_beside_its_space():
    """The component choice of a component-value study (D08): each DISC row's space triggers the
    cards on its two slots, and nothing else is a card choice."""
    g, s, _ = _scoring(3, "A05", "C04")
    t = g.decision(s)
    assert t.kind == D.DISC
    taken = g.choice_components(s, t)
    assert taken.shape == (len(t), 2)
    space_row = [i for i in range(len(t)) if t.actions[i, D.A_SPACE] == SPACE]
    assert sorted(taken[space_row[0]].tolist()) == sorted([card_id(g, "A05"), card_id(g, "C04")])
    for row, space in enumerate(t.actions[:, D.A_SPACE]):
        slots = field(g, s, "slot_card")
        assert taken[row].tolist() == [slots[DISC_SLOT_A[space]], slots[DISC_SLOT_B[space]]]
    assert g.choice_components(fresh(g, 3), g.decision(fresh(g, 3))) is None  # a patrician placement


def test_CD_CARD_8_with_payout_sets_the_vp_a_card_pays_per_fulfilment():
    g = game(2)
    card = card_id(g, "A05")  # give 2 herbs: 4 VP
    assert g.payout(card) == 4
    richer = g.with_payout(card, 9)
    assert richer.payout(card) == 9 and g.payout(card) == 4
    assert richer.payout(card_id(g, "A06")) == g.payout(card_id(g, "A06"))
