"""Capitol rules, scoring, draw phase and game end: one test per rule id of the digest
(shared/rules/capitol.md, CAP-SCORE-n, CAP-DRAW-n, CAP-END-n) and the test vectors of these
phases (TV-CAP-2, -6, -8, -10, -12). Prefectures are arranged in a dealt state; the ranking
kernel is checked directly and a real scoring is run through the engine (the round's last
auction is reached, the board arranged, and the auction played out)."""

import numpy as np
import pytest
from bgsim.sim.games.capitol import decisions as D
from bgsim.sim.games.capitol import state as S
from bgsim.sim.games.capitol.kernels.board import place_points, rank_masks

from tests.games.capitol.helpers import (
    CAPITOLINE,
    ESQUILINE,
    EV,
    LILAC,
    PALATINE,
    QUIRINAL,
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
    permit,
    points,
    queue,
    random_play,
    ranks,
    roof,
    rows,
    seat,
    set_area,
    set_hand,
    set_queue,
    stone,
    stop_all_bids,
    to_auction,
)

A, B, C = 0, 1, 2


def score_round_one(g, seed, arrange, log=None):
    """Reach the last auction of round 1 (everyone passes and bids 0), ``arrange(s)`` the board,
    then play that auction out (all bid 0): the round-1 scoring runs. Returns the state."""
    s = fresh(g, seed)
    to_auction(g, s, 2)
    arrange(s)
    stop_all_bids(g, s, log)
    assert one(g, s, "round") == 0 and kind(s) == D.DRAW
    return s


def draws_by_seat(log, n, round_index=None) -> list[int]:
    """EV_DRAW events per seat (in the given round only, when ``round_index`` is set)."""
    out = [0] * n
    r = 0
    for row in ev(log):
        if row[0] == EV["round"]:
            r = row[2]
        elif row[0] == EV["draw"] and (round_index is None or r == round_index):
            out[row[1]] += 1
    return out


# --- TV-CAP-6 and the scoring rules

TV6 = {  # case: (prefecture, houses (seat, height) in building order, temple, default, shared_first_second=none)
    "S1": (QUIRINAL, [(A, 1), (B, 1), (C, 1), (B, 2), (C, 2), (A, 3)], False, [3, 1, 1], [3, 1, 1]),
    "S2": (QUIRINAL, [(A, 1), (B, 1), (C, 1), (B, 2), (C, 2), (A, 3)], True, [6, 2, 2], [6, 2, 2]),
    "S3": (PALATINE, [(A, 1), (A, 2), (B, 2)], False, [2, 0, 0], [2, 0, 0]),
    "S4": (CAPITOLINE, [(A, 1), (A, 1)], False, [4, 0, 0], [4, 0, 0]),
    "S5": (QUIRINAL, [(A, 1), (B, 2), (C, 2), (B, 2), (A, 3)], False, [3, 1, 0], [3, 1, 0]),
    "S6": (QUIRINAL, [(A, 1), (B, 1), (C, 2), (A, 3), (B, 3)], False, [3, 3, 1], [3, 3, 0]),
    "S7": (CAPITOLINE, [(A, 1), (B, 1), (C, 1), (A, 2), (A, 2)], False, [4, 2, 2], [4, 2, 2]),
    "S8": (PALATINE, [(A, 1), (B, 1), (A, 2), (B, 2)], False, [2, 2, 0], [2, 2, 0]),
    "S9": (QUIRINAL, [(A, 1), (B, 2), (C, 2), (B, 2), (C, 2), (A, 3)], False, [3, 1, 1], [3, 1, 1]),
    "S10": (QUIRINAL, [(A, 1), (B, 2), (C, 2), (B, 2), (A, 3)], False, [3, 3, 1], [3, 3, 0]),
}


def _arrange(g, pref, houses, temple=False, amphitheatre=False):
    def arrange(s):
        build_houses(g, s, pref, houses)
        if temple:
            field(g, s, "large")[pref] = S.TEMPLE
            field(g, s, "temple_round")[pref] = 0
        if amphitheatre:
            field(g, s, "large")[pref] = S.AMPHITHEATRE
    return arrange


@pytest.mark.parametrize("case", list(TV6))
@pytest.mark.parametrize("column", ["default", "shared_first_second_none"])
def test_TV_CAP_6_scoring_cases(case, column):
    pref, houses, temple, default, none = TV6[case]
    params = {} if column == "default" else {"shared_first_second": "none"}
    if case == "S10":
        params["first_tiebreak"] = "none"
    expected = default if column == "default" else none
    g = game(3, **params)
    # the ranking kernel on the arranged prefecture
    s = fresh(g, 600)
    build_houses(g, s, pref, houses)
    assert points(g, s, pref, 2 if temple else 1) == expected
    # a real scoring through the engine
    log = g.new_log()
    s = score_round_one(g, 601, _arrange(g, pref, houses, temple), log)
    assert field(g, s, "round_points")[0, :3].tolist() == expected
    assert field(g, s, "score")[:3].tolist() == expected
    scored = [0, 0, 0]
    for r in ev_rows(log, "score"):
        assert r[3] == pref
        scored[r[1]] += int(r[5])
    assert scored == expected


@pytest.mark.parametrize(("case", "draws"), [("S5", [2, 1, 0]), ("S6", [2, 2, 1])])
def test_TV_CAP_6_amphitheatre_instead_of_a_temple_uses_the_same_ranks(case, draws):
    pref, houses, _, default, _ = TV6[case]
    g = game(3)
    log = g.new_log()
    s = score_round_one(g, 602, _arrange(g, pref, houses, amphitheatre=True), log)
    assert field(g, s, "round_points")[0, :3].tolist() == default  # CAP-SCORE-9: no points
    drive(g, s, lambda x: one(g, x, "round") == 1, log)
    assert field(g, s, "bonus_draws")[:3].tolist() == draws
    assert draws_by_seat(log, 3, 0) == [6 + d for d in draws]


def test_CAP_SCORE_1_four_scorings_prefectures_scored_independently_and_summed():
    g = game(3)
    log = g.new_log()

    def arrange(s):
        build_houses(g, s, QUIRINAL, [(A, 1)])  # A alone: 2 + 1
        build_houses(g, s, CAPITOLINE, [(B, 1), (A, 1), (B, 2)])  # B first 4, A second 2
        field(g, s, "score")[:3] = [1000, 0, 0]  # no cap

    s = score_round_one(g, 611, arrange, log)
    assert field(g, s, "round_points")[0, :3].tolist() == [5, 4, 0]
    assert field(g, s, "score")[:3].tolist() == [1005, 4, 0]
    per_pref = sorted((int(r[3]), int(r[1]), int(r[5])) for r in ev_rows(log, "score"))
    assert per_pref == [(CAPITOLINE, A, 2), (CAPITOLINE, B, 4), (QUIRINAL, A, 3)]
    view = g.observe(s, 2).view  # scores are public
    assert field(g, view, "score")[:3].tolist() == [1005, 4, 0]
    g4 = game(4)
    s4 = fresh(g4, 612)
    log4 = g4.new_log()
    random_play(g4, s4, np.random.default_rng(612), log4)
    assert ev_rows(log4, "scoring")[:, 2].tolist() == [0, 1, 2, 3]


def test_CAP_SCORE_2_strength_is_stones_not_houses():
    g = game(3)
    s = fresh(g, 620)
    build_houses(g, s, PALATINE, [(A, 1), (A, 1), (A, 1), (B, 2), (B, 3)])  # A 3 houses 3 stones, B 2 houses 5
    assert ranks(g, s, PALATINE) == ({B}, {A})
    assert points(g, s, PALATINE) == [0, 2, 0]
    assert C not in ranks(g, s, PALATINE)[1]  # no stones: not ranked
    s = score_round_one(g, 621, lambda x: build_houses(g, x, PALATINE, [(A, 1), (A, 1), (A, 1), (B, 2), (B, 3)]))
    assert field(g, s, "round_points")[0, :3].tolist() == [0, 2, 0]
    assert field(g, s, "firsts")[:3].tolist() == [0, 1, 0] and field(g, s, "seconds")[:3].tolist() == [1, 0, 0]


def test_CAP_SCORE_3_first_place_two_plus_fountains_second_place_fountains():
    g = game(3)

    def arrange(s):
        build_houses(g, s, CAPITOLINE, [(A, 1), (B, 1), (A, 1)])  # A 2, B 1
        field(g, s, "fountains")[CAPITOLINE] += 1  # 2 printed + 1 auctioned
        field(g, s, "free")[CAPITOLINE] -= 1
        build_houses(g, s, PALATINE, [(B, 1), (C, 1), (B, 1)])  # no fountain: second place pays 0
    s = score_round_one(g, 630, arrange)
    assert field(g, s, "round_points")[0, :3].tolist() == [5, 3 + 2, 0]
    assert field(g, s, "pts_majority")[:3].tolist() == [2, 2, 0]
    assert field(g, s, "pts_fountain")[:3].tolist() == [3, 3, 0]
    assert field(g, s, "seconds")[:3].tolist() == [0, 1, 1]  # C's second place was scored, for 0


def test_CAP_SCORE_4_a_lone_builder_gets_first_place_only():
    g = game(3)
    log = g.new_log()
    s = score_round_one(g, 640, lambda x: build_houses(g, x, CAPITOLINE, [(B, 1), (B, 2), (B, 3)]), log)
    assert field(g, s, "round_points")[0, :3].tolist() == [0, 4, 0]
    assert [(int(r[1]), int(r[4])) for r in ev_rows(log, "score")] == [(B, 1)]
    assert field(g, s, "seconds")[:3].tolist() == [0, 0, 0]


def test_CAP_SCORE_5_every_seat_tied_for_second_gets_second_place_points():
    g = game(4)
    houses = [(A, 1), (B, 1), (C, 1), (A, 2), (A, 2)]  # TV-CAP-6 S7
    s = score_round_one(g, 650, lambda x: build_houses(g, x, CAPITOLINE, houses))
    assert field(g, s, "round_points")[0].tolist() == [4, 2, 2, 0]
    s2 = fresh(g, 651)
    build_houses(g, s2, VIMINAL, [(A, 1), (B, 1), (C, 1), (3, 1), (A, 2)])
    field(g, s2, "fountains")[VIMINAL] = 2
    assert ranks(g, s2, VIMINAL) == ({A}, {B, C, 3}) and points(g, s2, VIMINAL) == [4, 2, 2, 2]


def test_CAP_SCORE_6_first_place_tie_tallest_house_then_shared():
    g = game(3)
    s = fresh(g, 660)
    build_houses(g, s, QUIRINAL, TV6["S5"][1])  # A4 B4, tallest A3 B2: A first, B lost on height: second
    assert ranks(g, s, QUIRINAL) == ({A}, {B})
    s = fresh(g, 661)
    build_houses(g, s, QUIRINAL, TV6["S6"][1])  # A4 B4, tallest 3/3: shared first, C second
    assert ranks(g, s, QUIRINAL) == ({A, B}, {C}) and points(g, s, QUIRINAL) == [3, 3, 1]
    s = fresh(g, 662)
    build_houses(g, s, QUIRINAL, TV6["S9"][1])  # A4 B4 C4, tallest 3/2/2: both losers are second
    assert ranks(g, s, QUIRINAL) == ({A}, {B, C})
    s = score_round_one(g, 663, lambda x: build_houses(g, x, PALATINE, TV6["S8"][1]))
    assert field(g, s, "round_points")[0, :3].tolist() == [2, 2, 0]
    assert field(g, s, "firsts")[:3].tolist() == [1, 1, 0]


def _reference_rank(stones, tops, tiebreak_tallest, shared_next_group, height_losers_second=True):
    """CAP-SCORE-7 as printed in the digest; ``height_losers_second=False`` the main text's reading
    (second place to the next stone group, the seats that lost on height score nothing)."""
    present = [p for p in range(len(stones)) if stones[p] >= 1]
    if not present:
        return set(), set()
    m = max(stones[p] for p in present)
    tied = {p for p in present if stones[p] == m}
    if len(tied) == 1:
        first = tied
    elif tiebreak_tallest:
        h = max(tops[p] for p in tied)
        first = {p for p in tied if tops[p] == h}
    else:
        first = tied
    rest = set(present) - tied
    if len(present) == 1:
        second = set()
    elif tied - first and height_losers_second:
        second = tied - first
    elif len(first) >= 2 and not shared_next_group:
        second = set()
    elif not rest:
        second = set()
    else:
        m2 = max(stones[p] for p in rest)
        second = {p for p in rest if stones[p] == m2}
    return first, second


def test_CAP_SCORE_6_height_tie_losers_second_or_nothing():
    """The sidebar (the digest's reading, default): a seat that ties for first on stones and loses on
    the tallest house is second. The main text's "zweitmeisten Bausteinen" (height_tie_losers =
    none): second place goes to the next stone group and the seat that lost on height gets nothing."""
    for value, want_ranks, want_points in (("second", ({A}, {B}), [3, 1, 0]), ("none", ({A}, {C}), [3, 0, 1])):
        g = game(3, height_tie_losers=value)
        s = fresh(g, 664)
        build_houses(g, s, QUIRINAL, TV6["S5"][1])  # A4 B4 C2, tallest A3 B2; Quirinal has one fountain
        assert ranks(g, s, QUIRINAL) == want_ranks, value
        assert points(g, s, QUIRINAL) == want_points, value
    g = game(3, height_tie_losers="none")
    s = fresh(g, 665)
    build_houses(g, s, QUIRINAL, TV6["S9"][1])  # A4 B4 C4, tallest 3/2/2: no stone group below the tie
    assert ranks(g, s, QUIRINAL) == ({A}, set())


@pytest.mark.parametrize("first_tiebreak", ["tallest_house", "none"])
@pytest.mark.parametrize("shared_first_second", ["next_group", "none"])
@pytest.mark.parametrize("height_tie_losers", ["second", "none"])
def test_CAP_SCORE_7_ranking_algorithm_matches_the_digest(first_tiebreak, shared_first_second, height_tie_losers):
    rng = np.random.default_rng(7)
    for n in (2, 3, 4):
        g = game(n, first_tiebreak=first_tiebreak, shared_first_second=shared_first_second,
                 height_tie_losers=height_tie_losers)
        s = fresh(g, 670)
        st = field(g, s, "stones")
        top = field(g, s, "top")
        for _ in range(400):
            stones = [int(v) for v in rng.integers(0, 6, size=n)]
            tops = [int(rng.integers(1, v + 1)) if v else 0 for v in stones]
            st[TIBER, :n] = stones
            top[TIBER, :n] = tops
            first, second = rank_masks(s, g.param_array, TIBER, -1, 0)
            got = ({p for p in range(n) if first >> p & 1}, {p for p in range(n) if second >> p & 1})
            want = _reference_rank(stones, tops, first_tiebreak == "tallest_house",
                                   shared_first_second == "next_group", height_tie_losers == "second")
            assert got == want, (stones, tops)
            for p in range(n):
                f = int(rng.integers(0, 4))
                factor = int(rng.integers(1, 3))
                exp = (2 + f) * factor if p in want[0] else f * factor if p in want[1] else 0
                assert place_points(first, second, p, f, factor) == exp


def test_CAP_SCORE_8_temple_doubles_every_point_of_its_prefecture_not_draws():
    g = game(3)
    houses = TV6["S7"][1]

    def arrange(s):
        build_houses(g, s, CAPITOLINE, houses)  # 4 / 2 / 2, doubled
        field(g, s, "large")[CAPITOLINE] = S.TEMPLE
        field(g, s, "temple_round")[CAPITOLINE] = 0
        build_houses(g, s, PALATINE, [(C, 1)])  # 2, not doubled
    log = g.new_log()
    s = score_round_one(g, 680, arrange, log)
    assert field(g, s, "round_points")[0, :3].tolist() == [8, 4, 6]
    assert field(g, s, "pts_temple")[:3].tolist() == [4, 2, 2]
    drive(g, s, lambda x: one(g, x, "round") == 1, log)
    assert field(g, s, "bonus_draws")[:3].tolist() == [0, 0, 0]  # a temple gives no draws


def test_CAP_SCORE_9_amphitheatre_gives_no_points_only_draws_by_rank():
    g = game(3)
    houses = TV6["S7"][1]
    log = g.new_log()
    s = score_round_one(g, 690, _arrange(g, CAPITOLINE, houses, amphitheatre=True), log)
    assert field(g, s, "round_points")[0, :3].tolist() == [4, 2, 2]
    drive(g, s, lambda x: one(g, x, "round") == 1, log)
    assert field(g, s, "bonus_draws")[:3].tolist() == [2, 1, 1]


# --- CAP-DRAW


def at_first_draw(g, seed, arrange=None, log=None):
    s = fresh(g, seed)
    to_auction(g, s, 2)
    if arrange is not None:
        arrange(s)
    stop_all_bids(g, s, log)
    assert kind(s) == D.DRAW
    return s


def draw(g, s, pile, log=None):
    do(g, s, act(D.DRAW, D.OP_TAKE, -1, pile), log)


def test_CAP_DRAW_1_three_face_up_draw_piles_one_for_all_permit_colours():
    g = game(2)
    s = fresh(g, 700)
    permits, _ = queue(g, s, S.PERMIT)
    assert len(permits) == 16 and all(S.CLASS_TYPE[k] == S.PERMIT for k in permits)
    assert {int(S.CLASS_COLOUR[k]) for k in permits} == {0, 1, 2}  # the three colours share a pile
    s = at_first_draw(g, 701)
    table = g.decision(s)
    assert [r[D.A_X] for r in table.actions] == [S.ROOF, S.STONE, S.PERMIT]
    tops = [queue(g, s, t)[0][0] for t in range(3)]
    assert table.column("card_value").tolist() == [int(S.CLASS_VALUE[k]) for k in tops]
    view = g.observe(s, 1).view
    for t in range(3):
        seen = queue(g, view, t)[0]
        assert seen[0] == tops[t] and all(k == -1 for k in seen[1:])  # only the top card is visible


def test_CAP_DRAW_2_played_and_winning_bid_cards_go_on_top_of_their_discard_pile():
    g = game(2)
    s = fresh(g, 702)
    set_hand(g, s, 0, [stone(2), stone(7), roof(3)])
    set_hand(g, s, 1, [roof(1)])
    do(g, s, act(D.BUILD, D.OP_NULL, stone(2)))
    do(g, s, act(D.BUILD, D.OP_PASS))
    do(g, s, act(D.BUILD, D.OP_PASS))
    bid(g, s, 0, [stone(7), roof(3)])
    bid(g, s, 1, [])
    assert queue(g, s, S.STONE)[1] == [stone(2), stone(7)]  # oldest first
    assert queue(g, s, S.ROOF)[1] == [roof(3)]


def test_CAP_DRAW_3_draw_and_discard_pile_form_one_queue_never_shuffled():
    g = game(3)
    log = g.new_log()

    def arrange(s):
        set_queue(g, s, S.STONE, [stone(3), stone(6)], [stone(1), stone(8), stone(4)])
    s = at_first_draw(g, 703, arrange, log)
    got = []
    for _ in range(5):
        draw(g, s, S.STONE, log)
        got.append(int(ev_rows(log, "draw")[-1, 2]))
    assert got == [stone(3), stone(6), stone(1), stone(8), stone(4)]
    turn = ev_rows(log, "turnover")
    assert turn.shape[0] == 1 and turn[0, 2:4].tolist() == [S.STONE, 3]


@pytest.mark.parametrize("start", [0, 2])
def test_CAP_DRAW_4_draws_go_clockwise_from_the_consul_each_seat_all_at_once(start):
    g = game(3, start_seat=start)
    s = fresh(g, 704)
    log = g.new_log()
    drive(g, s, lambda x: one(g, x, "round") == 2, log)  # nobody plays a card: the piles last two rounds
    by_round = {}
    r = 0
    for row in ev(log):
        if row[0] == EV["round"]:
            r = row[2]
        elif row[0] == EV["draw"]:
            by_round.setdefault(r, []).append(int(row[1]))
    for r in range(2):
        consul = (start + r) % 3
        order = [(consul + i) % 3 for i in range(3)]
        assert by_round[r] == [w for w in order for _ in range(6)]


def test_CAP_DRAW_5_six_draws_one_at_a_time_from_any_non_empty_pile():
    g = game(3)
    log = g.new_log()

    def arrange(s):
        set_queue(g, s, S.ROOF, [], [])
        set_queue(g, s, S.STONE, [stone(5), stone(2), stone(8)], [])
    s = at_first_draw(g, 705, arrange, log)
    table = g.decision(s)
    assert [r[D.A_X] for r in table.actions] == [S.STONE, S.PERMIT]  # an empty pile is not offered
    assert table.column("card_value")[0] == 5
    draw(g, s, S.STONE, log)
    assert g.decision(s).column("card_value")[0] == 2  # the next card is seen before the next pick
    draw(g, s, S.PERMIT, log)
    draw(g, s, S.STONE, log)
    assert g.decision(s).column("card_value")[0] == 8
    while seat(s) == 0:
        draw(g, s, S.PERMIT, log)
    assert draws_by_seat(log, 3) == [6, 0, 0]
    assert field(g, s, "hand_type")[0].sum() == 8 + 6


@pytest.mark.parametrize(("second_elsewhere", "total"), [(False, 10), (True, 9)])
def test_TV_CAP_2_amphitheatre_draws(second_elsewhere, total):
    g = game(3)
    log = g.new_log()

    def arrange(s):
        build_houses(g, s, QUIRINAL, [(A, 1)])
        if second_elsewhere:
            build_houses(g, s, PALATINE, [(A, 1), (B, 1), (B, 1)])
        else:
            build_houses(g, s, PALATINE, [(A, 1)])
        field(g, s, "large")[QUIRINAL] = S.AMPHITHEATRE
        field(g, s, "large")[PALATINE] = S.AMPHITHEATRE
    s = at_first_draw(g, 720, arrange, log)
    drive(g, s, lambda x: one(g, x, "round") == 1, log)
    assert draws_by_seat(log, 3, 0)[A] == total


def test_CAP_DRAW_6_amphitheatre_bonus_two_for_first_one_for_second_added_up():
    g = game(4)
    log = g.new_log()

    def arrange(s):
        build_houses(g, s, QUIRINAL, [(A, 1), (B, 1), (C, 1), (A, 2)])  # A first, B and C second
        build_houses(g, s, ESQUILINE, [(3, 1), (B, 1), (3, 1)])  # D first, B second
        build_houses(g, s, VIMINAL, [(C, 1)])  # C alone, but no amphitheatre there
        field(g, s, "large")[QUIRINAL] = S.AMPHITHEATRE
        field(g, s, "large")[ESQUILINE] = S.AMPHITHEATRE
        draw_pile, _ = queue(g, s, S.STONE)
        set_queue(g, s, S.STONE, draw_pile, [stone(1), stone(2), stone(3)])  # enough cards for 31 draws
    s = at_first_draw(g, 721, arrange, log)
    drive(g, s, lambda x: one(g, x, "round") == 1, log)
    assert field(g, s, "bonus_draws")[:4].tolist() == [2, 2, 1, 2]
    assert draws_by_seat(log, 4, 0) == [8, 8, 7, 8]
    assert [(int(r[1]), int(r[2])) for r in ev_rows(log, "bonus")] == [(0, 2), (1, 2), (2, 1), (3, 2)]


def test_CAP_DRAW_7_base_draws_mandatory_bonus_draws_optional():
    g = game(3)
    log = g.new_log()
    s = at_first_draw(g, 722, _arrange(g, QUIRINAL, [(A, 1)], amphitheatre=True), log)
    for _ in range(6):
        assert all(r[D.A_OP] == D.OP_TAKE for r in rows(g, s))  # no stop while base draws are left
        draw(g, s, S.STONE, log)
    assert seat(s) == 0 and rows(g, s)[0] == (D.DRAW, D.OP_STOP, -1, 0, 0, 0)  # may stop before a bonus draw
    draw(g, s, S.PERMIT, log)
    assert rows(g, s)[0][D.A_OP] == D.OP_STOP
    do(g, s, act(D.DRAW, D.OP_STOP), log)
    assert seat(s) == 1  # the last bonus draw is declined
    assert draws_by_seat(log, 3) == [7, 0, 0]
    assert ev_rows(log, "draw_stop")[-1, 2:4].tolist() == [0, 1]


def test_CAP_DRAW_8_draws_are_lost_when_every_pile_is_empty():
    g = game(3)
    log = g.new_log()

    def arrange(s):
        set_queue(g, s, S.ROOF, [], [])
        set_queue(g, s, S.STONE, [], [])
        set_queue(g, s, S.PERMIT, [permit(LILAC, 5)], [])
    s = fresh(g, 723)
    to_auction(g, s, 2)
    arrange(s)
    stop_all_bids(g, s, log)
    # one card left in one pile: seat 0 takes it without a choice, the rest is lost
    assert kind(s) == D.BUILD and one(g, s, "round") == 1
    assert draws_by_seat(log, 3) == [1, 0, 0]
    assert field(g, s, "hand")[0, permit(LILAC, 5)] == 1
    stops = ev_rows(log, "draw_stop")
    assert [(int(r[1]), int(r[2])) for r in stops] == [(0, 5), (1, 6), (2, 6)]


def test_CAP_DRAW_9_no_hand_limit():
    g = game(3)
    big = [roof(v) for v in range(1, 8)] * 2 + [stone(v) for v in range(1, 9)] * 2
    s = at_first_draw(g, 724, lambda x: set_hand(g, x, 0, big))
    drive(g, s, lambda x: seat(x) != 0)
    assert len(hand_list(g, s, 0)) == 30 + 6


@pytest.mark.parametrize(("n", "consuls"), [(2, [0, 1, 0, 1]), (3, [0, 1, 2, 0]), (4, [0, 1, 2, 3])])
def test_CAP_DRAW_10_consul_passes_left_after_the_draw_phase(n, consuls):
    g = game(n)
    s = fresh(g, 730)
    seen = []
    for r in range(4):
        drive(g, s, lambda x, r=r: kind(x) == D.BUILD and one(g, x, "round") == r)
        seen.append(one(g, s, "consul"))
        assert seat(s) == seen[-1]  # the new consul builds first
    assert seen == consuls


# --- CAP-END


def to_last_auction(g, seed, log=None):
    s = fresh(g, seed)
    to_auction(g, s, 11, log)
    return s


def test_CAP_END_1_game_ends_after_the_fourth_scoring_without_a_draw_phase():
    g = game(4)
    log = g.new_log()
    s = to_last_auction(g, 740, log)
    stop_all_bids(g, s, log)
    assert g.is_over(s) and one(g, s, "round") == 4 and seat(s) == -1
    codes = ev(log)[:, 0].tolist()
    last_scoring = len(codes) - 1 - codes[::-1].index(EV["scoring"])
    assert ev(log)[last_scoring, 2] == 3
    assert EV["draw"] not in codes[last_scoring:] and codes[-1] == EV["end"]  # no draw after it, then the end
    assert len(g.decision(s)) == 0


@pytest.mark.parametrize(("scores", "expected"), [
    ((10, 12, 12), [3, 1, 1]),  # a shared win
    ((14, 12, 12), [1, 2, 2]),
    ((5, 6, 7), [3, 2, 1]),
])
def test_CAP_END_2_highest_score_wins_ties_share(scores, expected):
    g = game(3)
    s = to_last_auction(g, 741)
    field(g, s, "score")[:3] = scores
    stop_all_bids(g, s)
    assert field(g, s, "rank")[:3].tolist() == expected
    assert g.result(s).rank.tolist() == expected


def test_CAP_END_3_no_final_bonus_for_cards_houses_stones_or_roofs():
    g = game(3)
    s = to_last_auction(g, 742)

    def arrange(x):
        set_hand(g, x, 0, [roof(7), stone(8), permit(LILAC, 8)] * 3)
        set_area(g, x, 0, unfinished=[5, 6], finished=[(4, 0), (7, 1)], roofs=[3, 3])
        field(g, x, "score")[:3] = [3, 9, 9]
    arrange(s)
    before = field(g, s, "score")[:3].tolist()
    stop_all_bids(g, s)
    assert field(g, s, "score")[:3].tolist() == before  # empty board: the last scoring pays nothing
    assert field(g, s, "rank")[:3].tolist() == [3, 1, 1]


def test_CAP_END_3_final_score_is_start_plus_the_scorings():
    g = game(4)
    for seed in range(3):
        s = fresh(g, 743 + seed)
        log = g.new_log()
        random_play(g, s, np.random.default_rng(seed), log)
        sheet = g.score_sheet(s)
        total = sheet["start"] + sheet["majorities"] + sheet["fountains"] + sheet["temples"]
        assert (sheet["total"] == total).all()
        scored = np.zeros(4, dtype=np.int64)
        for row in ev_rows(log, "score"):
            scored[row[1]] += row[5]
        assert (sheet["total"] == sheet["start"] + scored).all()


# --- test vectors


def test_TV_CAP_8_stone_pile_turned_over_first_in_first_out():
    g = game(3)
    log = g.new_log()

    def arrange(s):
        set_queue(g, s, S.STONE, [], [stone(5), stone(2), stone(8)])  # oldest first
    s = at_first_draw(g, 800, arrange, log)
    # the draw pile was empty when the draw phase began: the discards were turned over
    assert queue(g, s, S.STONE) == ([stone(5), stone(2), stone(8)], [])
    assert g.decision(s).column("card_value")[1] == 5  # the draw pile shows 5
    got = []
    for _ in range(3):
        draw(g, s, S.STONE, log)
        got.append(int(ev_rows(log, "draw")[-1, 2]))
    assert [value for value in (int(S.CLASS_VALUE[k]) for k in got)] == [5, 2, 8]


@pytest.mark.parametrize(("temple_from", "round3", "round4"), [
    ("same_round", [6, 2, 0], [6, 2, 0]),
    ("next_round", [3, 1, 0], [6, 2, 0]),
])
def test_TV_CAP_10_temple_timing(temple_from, round3, round4):
    g = game(3, temple_from=temple_from)
    s = fresh(g, 810)
    to_auction(g, s, 8)
    build_houses(g, s, QUIRINAL, [(A, 1), (B, 1), (A, 2), (B, 2), (A, 2)])  # A 5 stones, B 3; F = 1
    set_hand(g, s, A, [stone(3), roof(1)])
    while kind(s) == D.BID:
        who = seat(s)
        bid(g, s, who, [stone(3)] if who == A else [])
    assert kind(s) == D.PLACE and seat(s) == A
    do(g, s, act(D.PLACE, D.OP_PLACE, -1, QUIRINAL))
    assert field(g, s, "round_points")[2, :3].tolist() == round3
    drive(g, s, lambda x: g.is_over(x))
    assert field(g, s, "round_points")[3, :3].tolist() == round4
    assert field(g, s, "temple_round")[QUIRINAL] == 2


@pytest.mark.parametrize("n", [2, 3, 4])
def test_TV_CAP_12_four_scorings_three_draw_phases_twelve_auctions(n):
    g = game(n)
    for seed in range(3):
        s = fresh(g, 820 + seed)
        log = g.new_log()
        random_play(g, s, np.random.default_rng(seed), log)
        assert ev_rows(log, "scoring").shape[0] == 4
        rounds_with_draws = set()
        r = 0
        for row in ev(log):
            if row[0] == EV["round"]:
                r = row[2]
            elif row[0] == EV["draw"]:
                rounds_with_draws.add(int(r))
        assert rounds_with_draws == {0, 1, 2}
        assert ev_rows(log, "auction").shape[0] == 12
        assert (field(g, s, "winner") != -2).all()
        won = ev_rows(log, "win").shape[0]
        gone = ev_rows(log, "removed").shape[0] + ev_rows(log, "no_space").shape[0]
        assert won + gone == 12
