"""Capitol rules, setup, build phase and auctions: one test per rule id of the digest
(shared/rules/capitol.md, CAP-SETUP-n, CAP-BUILD-n, CAP-AUCTION-n) and the test vectors of these
phases (TV-CAP-1, -3, -4, -5, -7, -9, -11). Positions are arranged in a dealt state and acted on
through the engine with ``validate=True``."""

import numpy as np
import pytest
from bgsim.sim import make_game
from bgsim.sim.errors import GameIdError, IllegalActionError
from bgsim.sim.games.capitol import decisions as D
from bgsim.sim.games.capitol import state as S
from bgsim.sim.games.capitol.kernels.board import house_fits

from tests.games.capitol.helpers import (
    AVENTINE,
    CAELIAN,
    CAMPUS,
    CAPITOLINE,
    ESQUILINE,
    EV,
    GROUP,
    LIGHT_BLUE,
    LILAC,
    PALATINE,
    PINK,
    QUIRINAL,
    ROUND,
    SQUARE,
    TIBER,
    VIMINAL,
    act,
    bid,
    build_houses,
    do,
    drive,
    ev,
    ev_rows,
    field,
    fresh,
    game,
    hand_list,
    kind,
    one,
    pass_all,
    pass_turn,
    permit,
    points,
    queue,
    random_play,
    roof,
    rows,
    seat,
    set_area,
    set_hand,
    stone,
    stop_all_bids,
    unfinished_heights,
)

BUILD_EVENTS = {EV["pass"], EV["stone"], EV["roof"], EV["permit"], EV["null"]}


def build_rows(g, s, op):
    return [r for r in rows(g, s) if r[D.A_OP] == op]


def permit_targets(g, s):
    """{(height, shape, prefecture)} of the pending table's permit rows."""
    return {(r[D.A_X], r[D.A_Y], r[D.A_Z]) for r in build_rows(g, s, D.OP_PERMIT)}


def heights_into(g, s, pref):
    return {h for h, _, z in permit_targets(g, s) if z == pref}


def shapes_into(g, s, pref):
    return {sh for _, sh, z in permit_targets(g, s) if z == pref}


def stone_outcomes(g, s):
    """{unfinished heights after the row: row} for every stone row of the pending table."""
    out = {}
    who = seat(s)
    for r in build_rows(g, s, D.OP_STONE):
        c = s.copy()
        do(g, c, r)
        out[unfinished_heights(g, c, who)] = r
    return out


def alloc_results(heights) -> set[tuple[int, ...]]:
    """CAP-BUILD-8 by brute force: every allocation of 2 stones to the unfinished ``heights``."""
    u = list(heights)
    res = set()
    for i in range(len(u)):
        v = u.copy()
        v[i] += 2
        res.add(tuple(sorted(v)))
        v = u.copy()
        v[i] += 1
        res.add(tuple(sorted(v + [1])))
        for j in range(i + 1, len(u)):
            v = u.copy()
            v[i] += 1
            v[j] += 1
            res.add(tuple(sorted(v)))
    res.add(tuple(sorted(u + [1, 1])))
    res.add(tuple(sorted(u + [2])))
    return res


def auction_ready(n=3, seed=0, hands=None, scores=None, **params):
    """A game whose build phase is over (everyone passed): the first auction's first bid."""
    g = game(n, **params)
    s = fresh(g, seed)
    if hands is not None:
        for who, cards in enumerate(hands):
            set_hand(g, s, who, cards)
    if scores is not None:
        field(g, s, "score")[:n] = scores
    pass_all(g, s)
    assert kind(s) == D.BID
    return g, s


# --- CAP-SETUP


@pytest.mark.parametrize("n", [2, 3, 4])
def test_CAP_SETUP_1_two_to_four_players(n):
    g = game(n)
    s = fresh(g, 1)
    assert one(g, s, "n_players") == n
    assert field(g, s, "hand_type")[:n].sum() == 8 * n and field(g, s, "hand_type")[n:].sum() == 0
    assert field(g, s, "finished")[n:].sum() == 0


@pytest.mark.parametrize("n", [0, 1, 5, 6])
def test_CAP_SETUP_1_other_player_counts_are_rejected(n):
    with pytest.raises(GameIdError):
        make_game("capitol", n_players=n)


def test_CAP_SETUP_2_nine_prefectures_three_per_colour_one_large_site_each():
    g = game(4)
    s = fresh(g, 2)
    t = g.board_table
    assert t[S.MAX_PREF, 0] == 9
    assert sorted(t[:9, 0].tolist()) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    for colour, prefs in GROUP.items():
        assert {p for p in range(9) if t[p, 0] == colour} == set(prefs)
    assert field(g, s, "large")[:9].tolist() == [0] * 9  # one free large site each
    assert (field(g, s, "large")[9:] == -1).all()  # no further prefecture
    assert field(g, s, "free")[:9].tolist() == [5, 6, 7, 6, 5, 7, 6, 7, 5]  # 54 small spaces (RECONSTRUCTED)
    assert field(g, s, "free")[:9].sum() == 54


def test_CAP_SETUP_3_printed_fountains_count_and_hold_no_house():
    g = game(3)
    s = fresh(g, 3)
    fountains = field(g, s, "fountains")[:9]
    assert fountains[CAPITOLINE] == 2 and fountains.sum() == 4 and (fountains > 0).sum() == 3
    assert sorted(fountains.tolist()) == [0] * 6 + [1, 1, 2]
    # a printed fountain takes no small space: the Capitoline still has its 5 spaces
    assert field(g, s, "free")[CAPITOLINE] == 5
    # printed fountains count like auctioned ones: alone in the Capitoline = 2 + 2 points
    build_houses(g, s, CAPITOLINE, [(0, 1)])
    assert points(g, s, CAPITOLINE) == [4, 0, 0]
    # no house on a fountain: a prefecture whose small spaces all hold fountains takes no house
    field(g, s, "free")[PALATINE] = 0
    field(g, s, "fountains")[PALATINE] = 6
    set_hand(g, s, 0, [permit(LILAC, 2)])
    assert PALATINE not in {z for _, _, z in permit_targets(g, s)}
    assert not house_fits(s, g.board_table, PALATINE, 1, ROUND)


def test_CAP_SETUP_4_three_decks_dealt_two_roof_two_stone_four_permits():
    for n in (2, 3, 4):
        g = game(n)
        s = fresh(g, 4)
        hand = field(g, s, "hand")
        assert field(g, s, "hand_type")[:n].tolist() == [[2, 2, 4]] * n
        for who in range(n):
            for t in range(3):
                assert hand[who, S.CLASS_TYPE == t].sum() == S.DEAL[t]
        total = hand[:n].sum(axis=0).astype(int)
        for t in range(3):
            draw, disc = queue(g, s, t)
            assert disc == []
            for k in draw:
                total[k] += 1
        assert total.tolist() == S.CLASS_COPIES.tolist()  # 62 cards: 14 roof, 24 stone, 24 permit
        assert total.sum() == 62
    g = game(4)
    deals = {tuple(field(g, fresh(g, seed), "hand").ravel()) for seed in range(6)}
    assert len(deals) == 6  # shuffled by the chance seed


def test_CAP_SETUP_5_remaining_decks_are_face_up_draw_piles_with_empty_discards():
    for n in (2, 3, 4):
        g = game(n)
        s = fresh(g, 5)
        assert field(g, s, "pile_draw").tolist() == [14 - 2 * n, 24 - 2 * n, 24 - 4 * n]
        assert field(g, s, "pile_discard").tolist() == [0, 0, 0]
        view = g.observe(s, 1).view
        for t in range(3):
            real, _ = queue(g, s, t)
            seen, _ = queue(g, view, t)
            assert seen[0] == real[0]  # the top card is visible to all
            assert all(k == -1 for k in seen[1:])  # the rest is not (AMB-15 default)


def test_CAP_SETUP_6_stop_card_is_never_played_discarded_or_drawn():
    assert S.N_CLASSES == 7 + 8 + 24 and sum(S.TYPE_CARDS) == 62  # no card class for the stop card
    g = game(3)
    s = fresh(g, 6)
    rng = np.random.default_rng(6)
    seen_bid_tables = 0

    def check(st, row):
        nonlocal seen_bid_tables
        table = g.decision(st)
        acts = table.actions
        if table.kind == D.BID:
            seen_bid_tables += 1
            stops = acts[acts[:, D.A_OP] == D.OP_STOP]
            assert len(stops) == 1 and stops[0, D.A_CARD] == -1  # always available, never a card
            assert (acts[acts[:, D.A_OP] == D.OP_ADD][:, D.A_CARD] >= 0).all()
        if table.kind == D.BUILD:
            assert (acts[acts[:, D.A_OP] != D.OP_PASS][:, D.A_CARD] >= 0).all()

    random_play(g, s, rng, on_step=check)
    assert seen_bid_tables > 0


def test_CAP_SETUP_7_four_start_houses_and_three_roofs_of_each_shape_left():
    for n in (2, 3, 4):
        g = game(n)
        s = fresh(g, 7)
        fin = field(g, s, "finished")
        for who in range(n):
            assert fin[who, ROUND, 1] == 1 and fin[who, ROUND, 2] == 1
            assert fin[who, SQUARE, 1] == 1 and fin[who, SQUARE, 2] == 1
            assert fin[who].sum() == 4
            assert sum(h * fin[who, sh, h] for sh in range(2) for h in range(S.HMAX + 1)) == 6
            assert field(g, s, "roofs_left")[who].tolist() == [3, 3]
            assert field(g, s, "unfinished")[who].sum() == 0


@pytest.mark.parametrize(("n", "supply"), [(2, 78), (3, 72), (4, 66)])
def test_CAP_SETUP_8_common_stone_supply(n, supply):
    g = game(n)
    assert one(g, fresh(g, 8), "supply") == supply == 90 - 6 * n


def test_CAP_SETUP_9_auction_track_order():
    fountain, amph, temple = S.FOUNTAIN, S.AMPHITHEATRE, S.TEMPLE
    expected = [fountain, fountain, amph] * 2 + [fountain, fountain, temple] * 2
    assert S.AUCTION_ITEMS.tolist() == expected
    g = game(4)
    s = fresh(g, 9)
    log = g.new_log()
    random_play(g, s, np.random.default_rng(9), log)
    auctions = ev_rows(log, "auction")
    assert auctions[:, 2].tolist() == list(range(12))
    assert auctions[:, 3].tolist() == expected


def test_CAP_SETUP_10_every_score_starts_at_zero():
    for n in (2, 3, 4):
        g = game(n)
        s = fresh(g, 10)
        assert field(g, s, "score")[:n].tolist() == [0] * n
        assert field(g, s, "start_points")[:n].tolist() == [0] * n


def test_CAP_SETUP_11_consul_starts_round_one():
    g = game(3)
    s = fresh(g, 11)
    assert one(g, s, "consul") == 0 and seat(s) == 0 and g.decision(s).seat == 0
    g2 = game(3, start_seat=2)
    s2 = fresh(g2, 11)
    assert one(g2, s2, "consul") == 2 and one(g2, s2, "first_consul") == 2 and g2.decision(s2).seat == 2
    g3 = game(4, start_seat="random")
    firsts = [one(g3, fresh(g3, k), "consul") for k in range(40)]
    assert set(firsts) == {0, 1, 2, 3}  # a seeded random seat
    assert firsts == [one(g3, fresh(g3, k), "consul") for k in range(40)]  # reproducible
    with pytest.raises(GameIdError):
        game(3, start_seat=3)


def test_CAP_SETUP_12_four_rounds_of_build_auction_scoring_draw():
    for n in (2, 3, 4):
        g = game(n)
        s = fresh(g, 12)
        log = g.new_log()
        random_play(g, s, np.random.default_rng(12 + n), log)
        phases = [[]]  # per round: the phases in the order they happen (round 1 began at the deal)
        for code in ev(log)[:, 0]:
            if code == EV["round"]:
                phases.append([])
                continue
            name = ("build" if code in BUILD_EVENTS else "auction" if code == EV["auction"]
                    else "scoring" if code == EV["scoring"] else "draw" if code == EV["draw"] else None)
            if name and (not phases[-1] or phases[-1][-1] != name):
                phases[-1].append(name)
        assert len(phases) == 4
        for r in range(3):
            assert [p for p in phases[r] if p != "build"] == ["auction", "scoring", "draw"]
            assert phases[r][0] == "build"
        assert [p for p in phases[3] if p != "build"] == ["auction", "scoring"]  # CAP-END-1: no draw
        assert one(g, s, "round") == 4 and g.is_over(s)


# --- CAP-BUILD


def test_CAP_BUILD_1_build_turns_go_clockwise_from_the_consul_and_skip_passed_seats():
    g = game(3, start_seat=1)
    s = fresh(g, 21)
    order = []
    null = lambda: next(r for r in rows(g, s) if r[D.A_OP] == D.OP_NULL)  # noqa: E731
    order.append(seat(s))
    do(g, s, null())  # seat 1
    order.append(seat(s))
    pass_turn(g, s)  # seat 2 passes
    order.append(seat(s))
    do(g, s, null())  # seat 0
    order.append(seat(s))
    do(g, s, null())  # seat 1; seat 2 is skipped
    order.append(seat(s))
    assert order == [1, 2, 0, 1, 0]
    pass_turn(g, s)  # seat 0
    assert seat(s) == 1
    pass_turn(g, s)  # seat 1: all have passed
    assert kind(s) == D.BID


def test_CAP_BUILD_2_one_action_per_turn_stone_roof_permit_or_pass():
    g = game(3)
    s = fresh(g, 22)
    set_area(g, s, 0, unfinished=[1], finished=[(1, ROUND), (2, ROUND), (1, SQUARE), (2, SQUARE)])
    ops = {r[D.A_OP] for r in rows(g, s)}
    assert ops == {D.OP_PASS, D.OP_NULL, D.OP_STONE, D.OP_ROOF, D.OP_PERMIT}
    assert rows(g, s)[0][D.A_OP] == D.OP_PASS
    for op in (D.OP_STONE, D.OP_ROOF, D.OP_PERMIT):
        c = s.copy()
        do(g, c, build_rows(g, c, op)[0])
        assert field(g, c, "hand_type")[0].sum() == 7  # exactly one card spent
        assert seat(c) == 1  # and the turn is over


def test_CAP_BUILD_3_pass_is_final_for_the_build_phase_but_not_for_the_auction():
    g = game(3)
    s = fresh(g, 23)
    pass_turn(g, s)  # seat 0
    seats = []
    while kind(s) == D.BUILD:
        seats.append(seat(s))
        null = [r for r in rows(g, s) if r[D.A_OP] == D.OP_NULL]
        do(g, s, null[0] if null and len(seats) < 12 else act(D.BUILD, D.OP_PASS))
    assert 0 not in seats and len(seats) >= 12
    assert field(g, s, "passed")[0] == 1
    assert kind(s) == D.BID and seat(s) == 0  # the seat that passed first bids


def test_CAP_BUILD_4_a_seat_plays_on_alone_and_must_pass_with_no_cards():
    g = game(3)
    s = fresh(g, 24)
    set_hand(g, s, 0, [stone(3), roof(2)])
    set_hand(g, s, 1, [])  # no cards: passes without a turn
    log = g.new_log()
    null = lambda: next(r for r in rows(g, s) if r[D.A_OP] == D.OP_NULL)  # noqa: E731
    do(g, s, null(), log)  # seat 0
    assert seat(s) == 2  # seat 1 was passed over ...
    assert field(g, s, "passed")[1] == 1 and [r[1] for r in ev_rows(log, "pass")] == [1]  # ... by passing
    pass_turn(g, s, log)  # seat 2
    assert seat(s) == 0 and kind(s) == D.BUILD  # seat 0 plays on, turn after turn
    do(g, s, null(), log)
    assert kind(s) == D.BID  # its hand is empty: it passed, the build phase is over
    assert [r[1] for r in ev_rows(log, "pass")] == [1, 2, 0]


def test_CAP_BUILD_5_null_play_discards_the_card_without_its_action():
    g = game(3)
    s = fresh(g, 25)
    set_hand(g, s, 0, [roof(5), stone(2), permit(PINK, 3)])
    set_area(g, s, 0, unfinished=[], finished=[])  # nothing to roof, nothing to place
    nulls = {r[D.A_CARD] for r in build_rows(g, s, D.OP_NULL)}
    assert nulls == {roof(5), stone(2), permit(PINK, 3)}  # never forced to pass while holding a card
    for k in nulls:
        c = s.copy()
        before = {name: field(g, c, name).copy() for name in ("unfinished", "finished", "free", "stones",
                                                               "roofs_left", "supply")}
        t = int(S.CLASS_TYPE[k])
        do(g, c, act(D.BUILD, D.OP_NULL, k))
        for name, arr in before.items():
            assert (field(g, c, name) == arr).all(), name
        assert queue(g, c, t)[1] == [k]  # discarded normally
        assert field(g, c, "null_plays")[0] == 1 and hand_list(g, c, 0) == sorted(nulls - {k})


def test_CAP_BUILD_6_card_values_do_not_matter_when_building():
    g = game(3)
    s = fresh(g, 26)
    set_hand(g, s, 0, [stone(1), stone(8), permit(LILAC, 2), permit(LILAC, 7)])
    set_area(g, s, 0, unfinished=[1, 2], finished=[(1, ROUND)])
    by_card = {}
    for r in build_rows(g, s, D.OP_STONE) + build_rows(g, s, D.OP_PERMIT):
        by_card.setdefault(r[D.A_CARD], set()).add(r[D.A_OP:D.A_CARD] + r[D.A_X:])
    assert by_card[stone(1)] == by_card[stone(8)]
    assert by_card[permit(LILAC, 2)] == by_card[permit(LILAC, 7)]
    results = []
    for k in (stone(1), stone(8)):
        c = s.copy()
        do(g, c, act(D.BUILD, D.OP_STONE, k, D.ALLOC_ADD2, 2))
        results.append((unfinished_heights(g, c, 0), one(g, c, "supply")))
    assert results[0] == results[1] == ((1, 4), 70)
    # the permit's colour, not its value, picks the colour group
    assert {z for _, _, z in permit_targets(g, s)} == set(GROUP[LILAC])
    # the simplification build_card = lowest spends the lowest card of a type (of a colour, for permits)
    g2 = game(3, build_card="lowest")
    s2 = fresh(g2, 26)
    set_hand(g2, s2, 0, [stone(1), stone(8), permit(LILAC, 2), permit(LILAC, 7), permit(PINK, 8)])
    cards = {r[D.A_CARD] for r in rows(g2, s2) if r[D.A_OP] != D.OP_PASS}
    assert cards == {stone(1), permit(LILAC, 2), permit(PINK, 8)}


def _group(k: int) -> int:
    """The cards a build treats alike: roofs, stones, and permits of one colour."""
    return 2 + int(S.CLASS_COLOUR[k]) if S.CLASS_TYPE[k] == S.PERMIT else int(S.CLASS_TYPE[k])


@pytest.mark.parametrize("seed", range(6))
def test_CAP_BUILD_6_every_card_of_a_hand_may_be_spent_by_default(seed):
    """The default build table is the rules' full set: every distinct card in hand, with every action
    its type (a permit: its colour) allows, i.e. the lowest-card table with each row repeated for
    every other card of that group in hand."""
    rng = np.random.default_rng(seed)
    hand = [stone(v) for v in (1, 4, 8)] + [roof(v) for v in (2, 5)] + \
        [permit(LILAC, 2), permit(LILAC, 7), permit(PINK, 3), permit(LIGHT_BLUE, 6), permit(LIGHT_BLUE, 1)]
    hand = [int(k) for k in rng.permutation(hand)[: 6 + seed % 5]]
    full, lowest = game(3), game(3, build_card="lowest")
    tables = []
    for g in (full, lowest):
        s = fresh(g, 40 + seed)
        set_hand(g, s, 0, hand)
        set_area(g, s, 0, unfinished=[1, 2, 2], finished=[(1, ROUND), (2, SQUARE), (3, ROUND)])
        tables.append({tuple(r) for r in rows(g, s)})
    full_rows, lowest_rows = tables
    classes = set(hand)
    expected = {r for r in lowest_rows if r[D.A_OP] == D.OP_PASS}
    for r in lowest_rows - expected:
        for k in classes:
            if _group(k) == _group(r[D.A_CARD]):
                expected.add(r[: D.A_CARD] + (k,) + r[D.A_CARD + 1:])
    assert full_rows == expected
    assert {r[D.A_CARD] for r in full_rows if r[D.A_OP] == D.OP_NULL} == classes  # every card, at least discarded


def test_CAP_BUILD_7_played_cards_go_face_down_on_their_discard_pile():
    g = game(3)
    s = fresh(g, 27)
    set_hand(g, s, 0, [stone(6), roof(4), permit(LIGHT_BLUE, 5)])
    set_area(g, s, 0, unfinished=[1], finished=[(1, ROUND)])
    do(g, s, act(D.BUILD, D.OP_STONE, stone(6), D.ALLOC_NEW2))
    assert queue(g, s, S.STONE)[1] == [stone(6)]
    do(g, s, act(D.BUILD, D.OP_PASS))
    do(g, s, act(D.BUILD, D.OP_PASS))
    do(g, s, act(D.BUILD, D.OP_ROOF, roof(4), 2, SQUARE))
    do(g, s, act(D.BUILD, D.OP_PERMIT, permit(LIGHT_BLUE, 5), 1, ROUND, QUIRINAL))
    assert queue(g, s, S.ROOF)[1] == [roof(4)] and queue(g, s, S.PERMIT)[1] == [permit(LIGHT_BLUE, 5)]
    for other in (1, 2):  # face down: the others do not see the cards
        view = g.observe(s, other).view
        for t in range(3):
            assert queue(g, view, t)[1] == [-1]
    own = g.observe(s, 0).view
    assert queue(g, own, S.STONE)[1] == [stone(6)]


@pytest.mark.parametrize("heights", [(), (1,), (1, 3), (2, 2), (1, 2, 4)])
def test_CAP_BUILD_8_stone_card_allocations(heights):
    g = game(3)
    s = fresh(g, 28)
    set_hand(g, s, 0, [stone(4)])
    set_area(g, s, 0, unfinished=heights)
    outcomes = stone_outcomes(g, s)
    assert set(outcomes) == alloc_results(heights)
    for r in outcomes.values():
        c = s.copy()
        do(g, c, r)
        assert one(g, c, "supply") == 70  # 2 stones taken ...
        assert sum(unfinished_heights(g, c, 0)) == sum(heights) + 2  # ... and placed at once


def test_CAP_BUILD_9_fewer_than_two_stones_left():
    g = game(3)
    s = fresh(g, 29)
    set_hand(g, s, 0, [stone(4)])
    set_area(g, s, 0, unfinished=[2])
    field(g, s, "supply")[0] = 1
    outcomes = stone_outcomes(g, s)
    assert set(outcomes) == {(3,), (1, 2)}  # the last stone: +1 on the house or a new house
    assert {r[D.A_X] for r in outcomes.values()} == {D.ALLOC_ADD1, D.ALLOC_NEW1}
    c = s.copy()
    do(g, c, outcomes[(3,)])
    assert one(g, c, "supply") == 0
    field(g, s, "supply")[0] = 0
    assert stone_outcomes(g, s) == {}  # nothing to take: the card can only be played without action
    assert build_rows(g, s, D.OP_NULL)
    # never replenished: the supply stays 0 through a whole round
    pass_all(g, s)
    drive(g, s, lambda x: one(g, x, "round") == 1)
    assert one(g, s, "supply") == 0


def test_CAP_BUILD_10_roof_card_finishes_an_unfinished_house():
    g = game(3)
    s = fresh(g, 30)
    set_hand(g, s, 0, [roof(3), roof(6), stone(2)])
    set_area(g, s, 0, unfinished=[3], finished=[], roofs=[1, 0])
    roofs = build_rows(g, s, D.OP_ROOF)
    assert {(r[D.A_X], r[D.A_Y]) for r in roofs} == {(3, ROUND)}  # only the shape still in stock
    assert {r[D.A_CARD] for r in roofs} == {roof(3), roof(6)}  # with either roof card (CAP-BUILD-6)
    do(g, s, roofs[0])
    assert field(g, s, "finished")[0, ROUND, 3] == 1 and field(g, s, "unfinished")[0].sum() == 0
    assert field(g, s, "roofs_left")[0].tolist() == [0, 0]
    pass_turn(g, s)
    pass_turn(g, s)
    # the finished house never changes: no stone goes onto it, no roof is left for it
    assert build_rows(g, s, D.OP_ROOF) == []
    assert {r[D.A_X] for r in build_rows(g, s, D.OP_STONE)} == {D.ALLOC_NEW2, D.ALLOC_NEW1_NEW1}
    field(g, s, "roofs_left")[0] = [1, 1]
    assert build_rows(g, s, D.OP_ROOF) == []  # still nothing unfinished to roof


def test_CAP_BUILD_11_unfinished_houses_stay_off_the_board_without_limit():
    g = game(3)
    s = fresh(g, 31)
    set_hand(g, s, 0, [permit(LILAC, 1), permit(PINK, 1), permit(LIGHT_BLUE, 1), stone(5), roof(1)])
    set_area(g, s, 0, unfinished=[1, 1, 2, 3, 1, 1, 1], finished=[], roofs=[0, 0])
    assert permit_targets(g, s) == set()  # an unfinished house cannot go onto the board
    assert build_rows(g, s, D.OP_ROOF) == []  # 10 roofs used up: no more finished houses
    allocs = {r[D.A_X] for r in build_rows(g, s, D.OP_STONE)}
    assert {D.ALLOC_NEW2, D.ALLOC_NEW1_NEW1} <= allocs  # more unfinished houses than roofs is allowed
    c = s.copy()
    do(g, c, act(D.BUILD, D.OP_STONE, stone(5), D.ALLOC_NEW1_NEW1))
    assert field(g, c, "unfinished")[0].sum() == 9


def test_CAP_BUILD_12_permit_places_one_finished_house_in_a_prefecture_of_its_colour():
    g = game(3)
    s = fresh(g, 32)
    set_hand(g, s, 0, [permit(PINK, 6)])
    assert permit_targets(g, s) == {(1, sh, p) for sh in (ROUND, SQUARE) for p in GROUP[PINK]}
    do(g, s, act(D.BUILD, D.OP_PERMIT, permit(PINK, 6), 1, SQUARE, CAELIAN))
    assert field(g, s, "finished")[0, SQUARE, 1] == 0 and field(g, s, "finished")[0].sum() == 3
    assert field(g, s, "houses")[:9].tolist() == [0] * 7 + [1, 0]
    assert field(g, s, "free")[CAELIAN] == 6 and field(g, s, "stones")[CAELIAN, 0] == 1
    assert field(g, s, "shape")[CAELIAN] == SQUARE and field(g, s, "tallest")[CAELIAN] == 1
    with pytest.raises(IllegalActionError):  # a permit of another colour
        c = fresh(g, 32)
        set_hand(g, c, 0, [permit(PINK, 6)])
        do(g, c, act(D.BUILD, D.OP_PERMIT, permit(PINK, 6), 1, SQUARE, QUIRINAL))


def test_CAP_BUILD_13_a_house_needs_a_free_small_space():
    g = game(3)
    s = fresh(g, 33)
    set_hand(g, s, 0, [permit(LILAC, 4)])
    set_area(g, s, 0, finished=[(1, ROUND), (2, ROUND), (3, ROUND)])
    build_houses(g, s, PALATINE, [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3)])  # 6 houses: full
    assert field(g, s, "free")[PALATINE] == 0 and PALATINE not in {z for _, _, z in permit_targets(g, s)}
    field(g, s, "free")[ESQUILINE] = 0  # every small space holds an (auctioned) fountain
    field(g, s, "fountains")[ESQUILINE] = 7
    assert {z for _, _, z in permit_targets(g, s)} == {CAPITOLINE}
    large = field(g, s, "large").copy()
    do(g, s, act(D.BUILD, D.OP_PERMIT, permit(LILAC, 4), 1, ROUND, CAPITOLINE))
    assert (field(g, s, "large") == large).all()  # never a large site
    assert field(g, s, "free")[CAPITOLINE] == 4 and field(g, s, "fountains")[CAPITOLINE] == 2


def test_CAP_BUILD_14_all_houses_of_a_prefecture_have_one_roof_shape():
    g = game(3)
    s = fresh(g, 34)
    set_hand(g, s, 0, [permit(LILAC, 4)])
    set_area(g, s, 0, finished=[(1, ROUND), (2, ROUND), (1, SQUARE), (2, SQUARE)])
    assert shapes_into(g, s, ESQUILINE) == {ROUND, SQUARE}  # empty: either shape
    build_houses(g, s, ESQUILINE, [(1, 1)], shape=SQUARE)
    assert shapes_into(g, s, ESQUILINE) == {SQUARE}
    assert not house_fits(s, g.board_table, ESQUILINE, 1, ROUND)


@pytest.mark.parametrize(("others", "allowed"), [
    ((SQUARE, SQUARE), {ROUND}),
    ((ROUND, ROUND), {SQUARE}),
    ((ROUND, SQUARE), {ROUND, SQUARE}),
    ((SQUARE, None), {ROUND, SQUARE}),
    ((None, None), {ROUND, SQUARE}),
])
def test_CAP_BUILD_15_colour_group_rule_never_three_prefectures_of_one_shape(others, allowed):
    g = game(3)
    s = fresh(g, 35)
    set_hand(g, s, 0, [permit(PINK, 4)])
    for pref, shape in zip((AVENTINE, CAELIAN), others, strict=True):
        if shape is not None:
            build_houses(g, s, pref, [(1, 1)], shape=shape)
    assert shapes_into(g, s, TIBER) == allowed
    for shape in (ROUND, SQUARE):
        assert house_fits(s, g.board_table, TIBER, 1, shape) == (shape in allowed)


def test_CAP_BUILD_16_first_house_has_height_one_then_tallest_or_one_more():
    g = game(3)
    s = fresh(g, 36)
    set_hand(g, s, 0, [permit(LIGHT_BLUE, 4)])
    set_area(g, s, 0, finished=[(h, ROUND) for h in range(1, 6)])
    assert heights_into(g, s, VIMINAL) == {1}
    build_houses(g, s, VIMINAL, [(1, 1)])
    assert heights_into(g, s, VIMINAL) == {1, 2}
    build_houses(g, s, VIMINAL, [(2, 2)])
    assert heights_into(g, s, VIMINAL) == {2, 3}
    build_houses(g, s, VIMINAL, [(1, 3)])
    assert heights_into(g, s, VIMINAL) == {3, 4}  # H of any owner counts
    field(g, s, "fountains")[CAMPUS] = 3  # fountains change neither height nor shape
    field(g, s, "free")[CAMPUS] -= 3
    assert heights_into(g, s, CAMPUS) == {1} and shapes_into(g, s, CAMPUS) == {ROUND}
    for h in range(1, 6):
        assert house_fits(s, g.board_table, VIMINAL, h, ROUND) == (h in (3, 4))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_CAP_BUILD_17_houses_on_the_board_never_move_or_change_and_belong_to_their_builder(seed):
    g = game(4)
    s = fresh(g, 170 + seed)
    prev = {name: field(g, s, name).copy() for name in ("stones", "top", "houses", "shape")}
    placed = []

    def check(st, row):
        for name in ("stones", "top", "houses"):
            assert (field(g, st, name) >= prev[name]).all(), name  # nothing leaves the board
        shape = field(g, st, "shape")
        assert ((prev["shape"] == -1) | (shape == prev["shape"])).all()  # a roof shape never changes
        for name in prev:
            prev[name] = field(g, st, name).copy()
        if row[D.A_KIND] == D.BUILD and row[D.A_OP] == D.OP_PERMIT:
            placed.append((seat(st), int(row[D.A_X]), int(row[D.A_Z])))

    random_play(g, s, np.random.default_rng(seed), on_step=check)
    stones_by = {}
    for who, h, pref in placed:
        stones_by[pref, who] = stones_by.get((pref, who), 0) + h
    stones = field(g, s, "stones")
    assert placed
    for pref in range(9):
        for who in range(4):
            assert stones[pref, who] == stones_by.get((pref, who), 0)  # credited to the builder


def test_CAP_BUILD_18_auction_phase_begins_when_all_have_passed():
    g = game(4, start_seat=2)
    s = fresh(g, 38)
    for _ in range(3):
        pass_turn(g, s)
        assert kind(s) == D.BUILD
    pass_turn(g, s)
    assert kind(s) == D.BID and one(g, s, "auction") == 0 and seat(s) == 2


# --- CAP-AUCTION


def test_CAP_AUCTION_1_three_items_per_round_one_at_a_time_in_track_order():
    g = game(4)
    s = fresh(g, 41)
    log = g.new_log()
    random_play(g, s, np.random.default_rng(41), log)
    current = -1
    round_of = 0  # round 1 began at the deal
    for row in ev(log):
        code = row[0]
        if code == EV["round"]:
            round_of = row[2]
        elif code == EV["auction"]:
            assert row[2] == current + 1 and row[2] // 3 == round_of  # in order, 3 per round
            current = row[2]
        elif code in (EV["bid"], EV["win"], EV["removed"], EV["place_item"], EV["no_space"]):
            assert row[2] == current  # everything of an auction, placement included, happens in it
    assert current == 11


def test_CAP_AUCTION_2_every_seat_bids_with_any_cards_only_values_count():
    hands = [[roof(2), permit(PINK, 7), stone(1)], [stone(3), roof(6)], [permit(LILAC, 8), stone(8)]]
    g, s = auction_ready(3, 42, hands)
    assert all(field(g, s, "passed")[:3] == 1)
    assert {r[D.A_CARD] for r in rows(g, s) if r[D.A_OP] == D.OP_ADD} == set(hands[0])  # any type
    bid(g, s, 0, [permit(PINK, 7), roof(2)])
    assert seat(s) == 1
    bid(g, s, 1, [stone(3)])
    assert seat(s) == 2  # every seat takes part, even after passing
    bid(g, s, 2, [])
    assert field(g, s, "bids")[0, :3].tolist() == [9, 3, 0]  # face values only
    assert field(g, s, "winner")[0] == 0


def test_CAP_AUCTION_3_sealed_bid_stop_card_on_top_is_zero_and_no_cards_bid_zero():
    hands = [[roof(5), stone(4)], [], [stone(2), permit(LIGHT_BLUE, 3)]]
    g, s = auction_ready(3, 43, hands)
    do(g, s, act(D.BID, D.OP_ADD, stone(4)))
    view = g.observe(s, 2).view
    assert field(g, s, "bid_sum")[0] == 4
    assert field(g, view, "bid_sum")[0] == 0 and field(g, view, "bid_n")[0] == 0  # hidden from the others
    do(g, s, act(D.BID, D.OP_STOP))
    assert seat(s) == 2  # seat 1 holds no card: it bids 0 without a decision
    bid(g, s, 2, [])  # stop card on top
    assert field(g, s, "bids")[0, :3].tolist() == [4, 0, 0]


def test_CAP_AUCTION_4_stacks_are_revealed_down_to_the_stop_card():
    hands = [[stone(7), roof(1), permit(PINK, 2)], [stone(5), roof(6), permit(LILAC, 3)], [stone(2)]]
    g, s = auction_ready(3, 44, hands)
    log = g.new_log()
    bid(g, s, 0, [stone(7)], log)
    bid(g, s, 1, [roof(6), stone(5)], log)
    bid(g, s, 2, [], log)
    assert [(r[1], r[3], r[4]) for r in ev_rows(log, "bid")] == [(0, 7, 1), (1, 11, 2), (2, 0, 0)]
    assert field(g, s, "bids")[0, :3].tolist() == [7, 11, 0]
    known = field(g, s, "known")
    assert known[0, stone(7)] == 1  # the loser's bid was seen ...
    assert known[0, roof(1)] == 0 and known[0, permit(PINK, 2)] == 0  # ... what lay below the stop was not
    view = g.observe(s, 2).view
    assert hand_list(g, view, 0) == [stone(7)]


def test_CAP_AUCTION_5_bid_is_the_sum_of_all_cards_above_the_stop_card():
    hands = [[stone(8), roof(1), permit(LIGHT_BLUE, 6)], [stone(2), roof(7)], [roof(3)]]
    g, s = auction_ready(3, 45, hands)
    bid(g, s, 0, [stone(8), roof(1)])  # 9, although 8 would have won
    bid(g, s, 1, [stone(2)])
    bid(g, s, 2, [])
    assert field(g, s, "winner")[0] == 0 and field(g, s, "price")[0] == 9
    assert hand_list(g, s, 0) == [permit(LIGHT_BLUE, 6)]  # both cards paid


def test_CAP_AUCTION_6_highest_bid_wins_pays_its_cards_the_others_take_theirs_back():
    hands = [[roof(3), permit(LILAC, 4), stone(1)], [stone(5), roof(2)], [permit(PINK, 6)]]
    g, s = auction_ready(3, 46, hands)
    bid(g, s, 0, [roof(3), permit(LILAC, 4)])
    bid(g, s, 1, [stone(5)])
    bid(g, s, 2, [permit(PINK, 6)])
    assert field(g, s, "winner")[0] == 0 and field(g, s, "price")[0] == 7
    assert hand_list(g, s, 0) == [stone(1)]
    assert queue(g, s, S.ROOF)[1] == [roof(3)] and queue(g, s, S.PERMIT)[1] == [permit(LILAC, 4)]
    assert queue(g, s, S.STONE)[1] == []
    assert hand_list(g, s, 1) == sorted(hands[1]) and hand_list(g, s, 2) == sorted(hands[2])
    assert (field(g, s, "bid_n") == 0).all()
    assert kind(s) == D.PLACE and seat(s) == 0  # the winner places the fountain


@pytest.mark.parametrize(("scores", "winner"), [((5, 3, 0), 1), ((3, 5, 0), 0), ((4, 4, 0), -1)])
def test_CAP_AUCTION_7_tied_highest_bid_goes_to_the_lower_score_else_removed(scores, winner):
    hands = [[stone(6), roof(1)], [permit(PINK, 6), roof(2)], [stone(3)]]
    g, s = auction_ready(3, 47, hands, scores=scores)
    log = g.new_log()
    bid(g, s, 0, [stone(6)], log)
    bid(g, s, 1, [permit(PINK, 6)], log)
    bid(g, s, 2, [stone(3)], log)
    assert field(g, s, "winner")[0] == winner
    if winner >= 0:
        assert field(g, s, "price")[0] == 6 and ev_rows(log, "win")[0, 4] == 1  # won on the lower score
        loser = 1 - winner
        assert hand_list(g, s, winner) == sorted(hands[winner][1:])
        assert hand_list(g, s, loser) == sorted(hands[loser])
    else:
        assert ev_rows(log, "removed")[0, 3] == 2
        for who in range(3):
            assert hand_list(g, s, who) == sorted(hands[who])  # nobody pays
        assert one(g, s, "auction") == 1 and field(g, s, "placed")[0] == -1


def test_CAP_AUCTION_8_nobody_bids_the_item_leaves_the_game():
    g, s = auction_ready(4, 48)
    hands = [hand_list(g, s, w) for w in range(4)]
    log = g.new_log()
    stop_all_bids(g, s, log)
    assert field(g, s, "winner")[0] == -1 and field(g, s, "placed")[0] == -1
    assert ev_rows(log, "removed")[0, 3] == 1
    assert [hand_list(g, s, w) for w in range(4)] == hands
    assert one(g, s, "auction") == 1 and kind(s) == D.BID


def test_CAP_AUCTION_9_winner_places_the_item_at_once_anywhere_free():
    hands = [[stone(4), roof(1)], [stone(1)], [roof(2)]]
    g, s = auction_ready(3, 49, hands)
    field(g, s, "free")[TIBER] = 0
    build_houses(g, s, PALATINE, [(1, 1), (2, 2)], shape=SQUARE)  # roof, colour and height rules do not apply
    bid(g, s, 0, [stone(4)])
    bid(g, s, 1, [])
    bid(g, s, 2, [])
    assert kind(s) == D.PLACE and seat(s) == 0
    assert [r[D.A_X] for r in rows(g, s)] == [p for p in range(9) if p != TIBER]  # any colour, a free space
    with pytest.raises(IllegalActionError):
        do(g, s.copy(), act(D.PLACE, D.OP_PLACE, -1, TIBER))
    do(g, s, act(D.PLACE, D.OP_PLACE, -1, PALATINE))
    assert field(g, s, "fountains")[PALATINE] == 1 and field(g, s, "free")[PALATINE] == 3
    assert field(g, s, "placed")[0] == PALATINE and kind(s) == D.BID and one(g, s, "auction") == 1
    # an amphitheatre (auction 3) goes on a free large site only
    stop_all_bids(g, s)
    field(g, s, "large")[ESQUILINE] = S.TEMPLE
    set_hand(g, s, 1, [stone(2), roof(3)])
    bid(g, s, 0, [])
    bid(g, s, 1, [stone(2)])
    bid(g, s, 2, [])
    assert kind(s) == D.PLACE and seat(s) == 1
    assert [r[D.A_X] for r in rows(g, s)] == [p for p in range(9) if p != ESQUILINE]
    do(g, s, act(D.PLACE, D.OP_PLACE, -1, TIBER))  # no small space left there, but a large site
    assert field(g, s, "large")[TIBER] == S.AMPHITHEATRE and field(g, s, "free")[TIBER] == 0


def test_CAP_AUCTION_10_any_number_of_fountains_one_large_item_per_prefecture():
    hands = [[stone(4), stone(5), roof(1)], [stone(1)], [roof(2)]]
    g, s = auction_ready(3, 50, hands)
    field(g, s, "free")[:9] = 0
    field(g, s, "free")[AVENTINE] = 3
    for a in range(2):
        bid(g, s, 0, [stone(4 + a)])
        bid(g, s, 1, [])
        bid(g, s, 2, [])
    # the only free place: placed without asking, twice
    assert field(g, s, "placed")[:2].tolist() == [AVENTINE, AVENTINE]
    assert field(g, s, "fountains")[AVENTINE] == 3 and field(g, s, "free")[AVENTINE] == 1
    # the fountains use up small spaces houses could take
    field(g, s, "free")[AVENTINE] = 0
    assert not house_fits(s, g.board_table, AVENTINE, 1, ROUND)
    # a large site holds one item
    field(g, s, "large")[:9] = S.TEMPLE
    field(g, s, "large")[CAELIAN] = 0
    set_hand(g, s, 0, [stone(6), roof(1)])
    bid(g, s, 0, [stone(6)])
    bid(g, s, 1, [])
    bid(g, s, 2, [])
    assert field(g, s, "placed")[2] == CAELIAN and field(g, s, "large")[CAELIAN] == S.AMPHITHEATRE


def test_CAP_AUCTION_11_a_removed_item_never_returns_and_scoring_follows_the_third_auction():
    g, s = auction_ready(3, 51)
    log = g.new_log()
    for a in range(3):
        assert one(g, s, "auction") == a
        stop_all_bids(g, s, log)
    assert field(g, s, "winner")[:3].tolist() == [-1, -1, -1]
    codes = ev(log)[:, 0].tolist()
    assert codes.index(EV["scoring"]) > max(i for i, c in enumerate(codes) if c == EV["removed"])
    assert one(g, s, "auction") == 3 and kind(s) == D.DRAW
    drive(g, s, lambda x: g.is_over(x), log)
    auctioned = ev_rows(log, "auction")[:, 2].tolist()
    assert auctioned == list(range(1, 12))  # each slot once (0 began before the log): none is offered again
    assert field(g, s, "placed")[:3].tolist() == [-1, -1, -1]


# --- test vectors


@pytest.mark.parametrize("wins", [True, False])
def test_TV_CAP_1_bid_stack_seven_four_stop_six_eight(wins):
    hand = [stone(4), stone(6), stone(7), stone(8)]
    g, s = auction_ready(2, 61, [hand, [roof(5), roof(7)]])
    do(g, s, act(D.BID, D.OP_ADD, stone(7)))
    do(g, s, act(D.BID, D.OP_ADD, stone(4)))
    do(g, s, act(D.BID, D.OP_STOP))
    assert field(g, s, "bid_sum")[0] == 11
    bid(g, s, 1, [roof(5), roof(7)] if not wins else [roof(5)])
    assert field(g, s, "bids")[0, :2].tolist() == [11, 12 if not wins else 5]
    if wins:
        assert field(g, s, "winner")[0] == 0
        assert queue(g, s, S.STONE)[1] == [stone(7), stone(4)]  # 7, then 4
        assert hand_list(g, s, 0) == [stone(6), stone(8)]
    else:
        assert field(g, s, "winner")[0] == 1
        assert hand_list(g, s, 0) == sorted(hand)


def test_TV_CAP_1_stop_card_on_top_bids_zero():
    g, s = auction_ready(2, 61, [[stone(4), stone(6), stone(7), stone(8)], [roof(5)]])
    bid(g, s, 0, [])
    bid(g, s, 1, [roof(5)])
    assert field(g, s, "bids")[0, :2].tolist() == [0, 5]


def test_TV_CAP_3_new_house_height():
    g = game(3)
    s = fresh(g, 63)
    set_hand(g, s, 0, [permit(LIGHT_BLUE, 2)])
    set_area(g, s, 0, finished=[(h, ROUND) for h in range(1, 5)])
    build_houses(g, s, QUIRINAL, [(1, 1), (2, 2)])
    assert heights_into(g, s, QUIRINAL) == {2, 3}
    assert heights_into(g, s, VIMINAL) == {1}  # empty
    field(g, s, "fountains")[CAMPUS] = 1  # only a fountain
    field(g, s, "free")[CAMPUS] -= 1
    assert heights_into(g, s, CAMPUS) == {1}


@pytest.mark.parametrize(("quirinal", "viminal", "allowed"), [
    (SQUARE, SQUARE, {ROUND}),  # rulebook
    (ROUND, SQUARE, {ROUND, SQUARE}),  # derived
    (SQUARE, None, {ROUND, SQUARE}),  # derived
])
def test_TV_CAP_4_roof_shapes_in_a_colour_group(quirinal, viminal, allowed):
    g = game(3)
    s = fresh(g, 64)
    set_hand(g, s, 0, [permit(LIGHT_BLUE, 2)])
    build_houses(g, s, QUIRINAL, [(1, 1)], shape=quirinal)
    if viminal is not None:
        build_houses(g, s, VIMINAL, [(2, 1)], shape=viminal)
    assert shapes_into(g, s, CAMPUS) == allowed


RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3
BOOK_SCORES = (28, 26, 32, 37)  # red, blue, green, yellow (002 score example)


def _cards_for(who: int, total: int) -> list[int]:
    """Bid cards of face value ``total`` (stone cards, then a permit of the seat's colour index)."""
    if total == 0:
        return []
    if total <= 8:
        return [stone(total)]
    return [stone(8), permit(who % 3, total - 8)]


@pytest.mark.parametrize(("case", "scores", "bids", "winner"), [
    ("a", BOOK_SCORES, (11, 11, 9, 0), BLUE),
    ("b", BOOK_SCORES, (5, 3, 14, 14), GREEN),
    ("c", BOOK_SCORES, (10, 10, 10, 0), BLUE),
    ("d", (26, 26, 32, 37), (10, 10, 10, 0), -1),
    ("e", (0, 0, 0, 0), (9, 9, 0, 0), -1),
    ("f", BOOK_SCORES, (0, 0, 0, 0), -1),
])
def test_TV_CAP_5_auction_ties_and_the_score_display(case, scores, bids, winner):
    hands = [_cards_for(who, b) + [roof(1)] for who, b in enumerate(bids)]
    g, s = auction_ready(4, 65, hands, scores=scores)
    for who in range(4):
        bid(g, s, who, _cards_for(who, bids[who]))
    assert field(g, s, "bids")[0, :4].tolist() == list(bids)
    assert field(g, s, "winner")[0] == winner
    for who in range(4):
        if who == winner:
            assert hand_list(g, s, who) == [roof(1)]  # the winner discards his bid
            assert field(g, s, "price")[0] == bids[who]
        else:
            assert hand_list(g, s, who) == sorted(hands[who])  # the others take their cards back
    if winner < 0:
        assert field(g, s, "pile_discard").tolist() == [0, 0, 0]


def test_TV_CAP_7_setup_with_three_players():
    g = game(3)
    s = fresh(g, 67)
    assert one(g, s, "supply") == 72
    assert field(g, s, "pile_draw").tolist() == [8, 18, 12]
    for who in range(3):
        fin = field(g, s, "finished")[who]
        assert fin.sum() == 4 and sum(h * fin[sh, h] for sh in range(2) for h in range(S.HMAX + 1)) == 6
        assert field(g, s, "roofs_left")[who].tolist() == [3, 3]


def test_TV_CAP_9_stone_allocation_results():
    g = game(3)
    s = fresh(g, 69)
    set_hand(g, s, 0, [stone(3)])
    set_area(g, s, 0, unfinished=[1])
    outcomes = stone_outcomes(g, s)
    assert set(outcomes) == {(3,), (1, 2), (1, 1, 1)}  # new2 gives {1, 2} too: one row
    c = s.copy()
    do(g, c, act(D.BUILD, D.OP_NULL, stone(3)))
    assert unfinished_heights(g, c, 0) == (1,)
    field(g, s, "supply")[0] = 1
    assert set(stone_outcomes(g, s)) == {(2,), (1, 1)}


def test_TV_CAP_11_passing_order_with_three_players():
    g = game(3)
    s = fresh(g, 71)
    decisions = []

    def null():
        return next(r for r in rows(g, s) if r[D.A_OP] == D.OP_NULL)

    decisions.append(seat(s))
    do(g, s, null())  # seat 0
    decisions.append(seat(s))
    pass_turn(g, s)  # seat 1 passes on his first turn
    for _ in range(3):  # seats 2 and 0 alternate
        decisions.append(seat(s))
        do(g, s, null())
        decisions.append(seat(s))
        do(g, s, null())
    decisions.append(seat(s))
    pass_turn(g, s)  # seat 2 passes
    assert decisions == [0, 1, 2, 0, 2, 0, 2, 0, 2]
    alone = []
    while kind(s) == D.BUILD:
        alone.append(seat(s))
        do(g, s, null())
    assert alone == [0] * 4  # seat 0 plays on alone until his hand is empty, then must pass
    assert field(g, s, "hand_type")[0].sum() == 0 and kind(s) == D.BID
