"""Every ambiguity of the Capitol digest (shared/rules/capitol.md §4, AMB-1..18): the default reading
and each alternative parameter (params.py, PARAM_DOCS), checked through the engine on arranged
positions; plus the engine-only parameters (tied_bid, build_card), parameter validation
(GameIdError) and broken board files (DataError)."""

import re

import pytest
from bgsim.sim import make_game
from bgsim.sim.errors import DataError, GameIdError
from bgsim.sim.games.capitol import decisions as D
from bgsim.sim.games.capitol import state as S
from bgsim.sim.games.capitol.params import PARAM_DOCS, Params

from tests.games.capitol.helpers import (
    ESQUILINE,
    LIGHT_BLUE,
    LILAC,
    PALATINE,
    PINK,
    QUIRINAL,
    act,
    bid,
    build_houses,
    do,
    drive,
    ev_rows,
    field,
    fresh,
    game,
    hand_list,
    kind,
    one,
    pass_all,
    permit,
    points,
    queue,
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
S5 = [(A, 1), (B, 2), (C, 2), (B, 2), (A, 3)]  # TV-CAP-6: A4 B4 C2, tallest A3 B2
S6 = [(A, 1), (B, 1), (C, 2), (A, 3), (B, 3)]  # A4 B4 C2, tallest 3/3


def scored_round_one(g, seed, arrange):
    s = fresh(g, seed)
    to_auction(g, s, 2)
    arrange(s)
    stop_all_bids(g, s)
    return s


def won_auction(g, s, winner_cards, log=None):
    """Play the auction under way: seat 0 bids ``winner_cards``, the others bid 0."""
    while kind(s) == D.BID:
        who = seat(s)
        bid(g, s, who, winner_cards if who == 0 else [], log)


def test_every_ambiguity_parameter_is_documented():
    for name in ("shared_first_second", "first_tiebreak", "temple_from", "zero_bid_policy", "allow_null_play",
                 "hand_limit", "short_stone_take", "partial_stone_take", "max_unfinished", "bonus_draws_optional",
                 "base_draws_optional", "bid_discard_order", "reveal_played_values", "draw_pile_visibility",
                 "final_tiebreak", "board_file", "start_seat"):
        assert name in PARAM_DOCS and hasattr(Params, name)


# --- AMB-1


@pytest.mark.parametrize(("value", "expected"), [("next_group", [3, 3, 1]), ("none", [3, 3, 0])])
def test_AMB_1_shared_first_second_next_group_and_none(value, expected):
    g = game(3, shared_first_second=value)
    s = fresh(g, 1000)
    build_houses(g, s, QUIRINAL, S6)
    assert ranks(g, s, QUIRINAL) == ({A, B}, {C} if value == "next_group" else set())
    assert points(g, s, QUIRINAL) == expected
    s = scored_round_one(g, 1001, lambda x: build_houses(g, x, QUIRINAL, S6))
    assert field(g, s, "round_points")[0, :3].tolist() == expected
    # both readings: a seat that lost the first-place tie on height only is second
    s = fresh(g, 1002)
    build_houses(g, s, QUIRINAL, S5)
    assert ranks(g, s, QUIRINAL) == ({A}, {B}) and points(g, s, QUIRINAL) == [3, 1, 0]


# --- AMB-2


@pytest.mark.parametrize(("value", "first", "expected"), [
    ("tallest_house", {A}, [3, 1, 0]),
    ("none", {A, B}, [3, 3, 1]),
])
def test_AMB_2_first_tiebreak_tallest_house_and_none(value, first, expected):
    g = game(3, first_tiebreak=value)
    s = fresh(g, 1010)
    build_houses(g, s, QUIRINAL, S5)
    assert ranks(g, s, QUIRINAL)[0] == first and points(g, s, QUIRINAL) == expected
    s = scored_round_one(g, 1011, lambda x: build_houses(g, x, QUIRINAL, S5))
    assert field(g, s, "round_points")[0, :3].tolist() == expected


# --- AMB-3


@pytest.mark.parametrize(("value", "round1", "round2"), [
    ("same_round", [6, 2, 0], [6, 2, 0]),
    ("next_round", [3, 1, 0], [6, 2, 0]),
])
def test_AMB_3_temple_from_same_round_and_next_round(value, round1, round2):
    g = game(3, temple_from=value)
    s = fresh(g, 1020)
    to_auction(g, s, 2)
    build_houses(g, s, QUIRINAL, [(A, 1), (B, 1), (A, 2), (B, 2), (A, 2)])  # A 5, B 3, F = 1
    s_temple = s.copy()
    # a temple placed in the round being scored (arranged: the round-1 track holds no temple)
    field(g, s_temple, "large")[QUIRINAL] = S.TEMPLE
    field(g, s_temple, "temple_round")[QUIRINAL] = 0
    stop_all_bids(g, s_temple)
    assert field(g, s_temple, "round_points")[0, :3].tolist() == round1
    drive(g, s_temple, lambda x: one(g, x, "round") == 2)
    assert field(g, s_temple, "round_points")[1, :3].tolist() == round2


# --- AMB-4 (no parameter) and the tied_bid engine parameter


@pytest.mark.parametrize(("scores", "winner"), [
    ((26, 26, 30), -1),  # the lowest score is shared: removed
    ((26, 30, 30), 0),  # the unique lowest among the tied wins
    ((30, 26, 26), -1),
    ((30, 31, 26), 2),
])
def test_AMB_4_three_way_tie_goes_to_the_unique_lowest_score(scores, winner):
    g = game(3)
    s = fresh(g, 1030)
    for who in range(3):
        set_hand(g, s, who, [stone(5), roof(1)])
    field(g, s, "score")[:3] = scores
    pass_all(g, s)
    for who in range(3):
        bid(g, s, who, [stone(5)])
    assert field(g, s, "winner")[0] == winner


@pytest.mark.parametrize(("value", "winner"), [("lower_score", 1), ("remove", -1)])
def test_CAP_AUCTION_7_tied_bid_parameter_lower_score_and_remove(value, winner):
    g = game(3, tied_bid=value)
    s = fresh(g, 1031)
    for who in range(3):
        set_hand(g, s, who, [stone(5), roof(1)])
    field(g, s, "score")[:3] = [9, 4, 0]
    pass_all(g, s)
    bid(g, s, 0, [stone(5)])
    bid(g, s, 1, [stone(5)])
    bid(g, s, 2, [])
    assert field(g, s, "winner")[0] == winner


# --- AMB-5


@pytest.mark.parametrize(("value", "scores", "winner"), [
    ("remove", (3, 1, 2), -1),
    ("tie_rule", (3, 1, 2), 1),  # free to the unique lowest score
    ("tie_rule", (1, 1, 2), -1),  # lowest score shared: removed
])
def test_AMB_5_zero_bid_policy_remove_and_tie_rule(value, scores, winner):
    g = game(3, zero_bid_policy=value)
    s = fresh(g, 1040)
    field(g, s, "score")[:3] = scores
    pass_all(g, s)
    hands = [hand_list(g, s, w) for w in range(3)]
    log = g.new_log()
    stop_all_bids(g, s, log)
    assert field(g, s, "winner")[0] == winner
    assert [hand_list(g, s, w) for w in range(3)] == hands  # nobody pays
    if winner >= 0:
        assert field(g, s, "price")[0] == 0 and ev_rows(log, "win")[0, 4] == 2
        assert kind(s) == D.PLACE and seat(s) == winner


# --- AMB-6


@pytest.mark.parametrize("value", [True, False])
def test_AMB_6_allow_null_play_true_and_false(value):
    g = game(3, allow_null_play=value)
    s = fresh(g, 1050)
    set_hand(g, s, 0, [roof(4), stone(2)])
    set_area(g, s, 0, unfinished=[], finished=[])
    ops = [r[D.A_OP] for r in rows(g, s)]
    assert (D.OP_NULL in ops) == value
    assert (D.OP_STONE in ops) and (D.OP_ROOF not in ops)
    field(g, s, "supply")[0] = 0  # no effective action left at all
    ops = [r[D.A_OP] for r in rows(g, s)]
    assert ops == ([D.OP_PASS, D.OP_NULL, D.OP_NULL] if value else [D.OP_PASS])


# --- AMB-7


@pytest.mark.parametrize(("value", "drawn"), [("none", 6), (10, 2)])
def test_AMB_7_hand_limit_none_and_int(value, drawn):
    g = game(3, hand_limit=value)
    s = fresh(g, 1060)
    to_auction(g, s, 2)
    log = g.new_log()
    stop_all_bids(g, s, log)
    drive(g, s, lambda x: seat(x) != 0, log)
    assert field(g, s, "hand_type")[0].sum() == 8 + drawn
    assert sum(1 for r in ev_rows(log, "draw") if r[1] == 0) == drawn


# --- AMB-8 and AMB-9


@pytest.mark.parametrize(("value", "outcomes"), [("take_rest", {D.ALLOC_ADD1, D.ALLOC_NEW1}), ("none", set())])
def test_AMB_8_short_stone_take_take_rest_and_none(value, outcomes):
    g = game(3, short_stone_take=value)
    s = fresh(g, 1070)
    set_hand(g, s, 0, [stone(2)])
    set_area(g, s, 0, unfinished=[2])
    field(g, s, "supply")[0] = 1
    assert {r[D.A_X] for r in rows(g, s) if r[D.A_OP] == D.OP_STONE} == outcomes
    if outcomes:
        do(g, s, act(D.BUILD, D.OP_STONE, stone(2), D.ALLOC_NEW1))
        assert one(g, s, "supply") == 0 and field(g, s, "unfinished")[0, 1] == 1


@pytest.mark.parametrize("value", [False, True])
def test_AMB_9_partial_stone_take_false_and_true(value):
    g = game(3, partial_stone_take=value)
    s = fresh(g, 1080)
    set_hand(g, s, 0, [stone(2)])
    set_area(g, s, 0, unfinished=[3])
    allocs = {r[D.A_X] for r in rows(g, s) if r[D.A_OP] == D.OP_STONE}
    assert ({D.ALLOC_ADD1, D.ALLOC_NEW1} <= allocs) == value
    assert {D.ALLOC_ADD2, D.ALLOC_ADD1_NEW, D.ALLOC_NEW1_NEW1, D.ALLOC_NEW2} <= allocs
    if value:
        do(g, s, act(D.BUILD, D.OP_STONE, stone(2), D.ALLOC_ADD1, 3))
        assert one(g, s, "supply") == 71 and field(g, s, "unfinished")[0, 4] == 1


# --- AMB-10


def test_AMB_10_max_unfinished_none():
    g = game(3)
    s = fresh(g, 1090)
    set_hand(g, s, 0, [stone(2)])
    set_area(g, s, 0, unfinished=[1, 1, 1], roofs=[0, 0])
    allocs = {r[D.A_X] for r in rows(g, s) if r[D.A_OP] == D.OP_STONE}
    assert {D.ALLOC_NEW2, D.ALLOC_NEW1_NEW1} <= allocs  # more unfinished houses than roofs


@pytest.mark.parametrize(("roofs", "new_rows"), [
    ([0, 1], set()),  # 1 unused roof, 1 unfinished house: no new house
    ([1, 1], {D.ALLOC_NEW2, D.ALLOC_ADD1_NEW}),  # room for one new house
    ([2, 1], {D.ALLOC_NEW2, D.ALLOC_ADD1_NEW, D.ALLOC_NEW1_NEW1}),
])
def test_AMB_10_max_unfinished_unused_roofs(roofs, new_rows):
    g = game(3, max_unfinished="unused_roofs")
    s = fresh(g, 1091)
    set_hand(g, s, 0, [stone(2)])
    set_area(g, s, 0, unfinished=[2], roofs=roofs)
    allocs = {r[D.A_X] for r in rows(g, s) if r[D.A_OP] == D.OP_STONE}
    assert allocs - {D.ALLOC_ADD2} == new_rows
    assert D.ALLOC_ADD2 in allocs


# --- AMB-11


def _bonus_position(g, seed):
    """Seat 0 first in an amphitheatre prefecture: 6 base draws + 2 bonus draws."""
    s = fresh(g, seed)
    to_auction(g, s, 2)
    build_houses(g, s, QUIRINAL, [(A, 1)])
    field(g, s, "large")[QUIRINAL] = S.AMPHITHEATRE
    stop_all_bids(g, s)
    assert kind(s) == D.DRAW and seat(s) == 0
    return s


@pytest.mark.parametrize(("bonus", "base"), [(True, False), (False, False), (True, True), (False, True)])
def test_AMB_11_bonus_draws_optional_and_base_draws_optional(bonus, base):
    g = game(3, bonus_draws_optional=bonus, base_draws_optional=base)
    s = _bonus_position(g, 1100)
    stops = []
    for _ in range(8):
        stops.append(rows(g, s)[0][D.A_OP] == D.OP_STOP)
        do(g, s, act(D.DRAW, D.OP_TAKE, -1, S.STONE))
    assert stops == [base] * 6 + [bonus] * 2
    assert seat(s) == 1
    if base:  # declining the base draws: they are lost
        s = _bonus_position(g, 1100)
        log = g.new_log()
        do(g, s, act(D.DRAW, D.OP_STOP), log)
        assert seat(s) == 1 and field(g, s, "hand_type")[0].sum() == 8
        assert ev_rows(log, "draw_stop")[0, 2:4].tolist() == [6, 2]


# --- AMB-12 (no parameter)


def test_AMB_12_all_draw_piles_empty_remaining_draws_are_lost():
    g = game(2)
    s = fresh(g, 1120)
    to_auction(g, s, 2)
    for t in range(3):
        set_queue(g, s, t, [], [])
    log = g.new_log()
    stop_all_bids(g, s, log)
    assert kind(s) == D.BUILD and one(g, s, "round") == 1
    assert ev_rows(log, "draw").shape[0] == 0
    assert [(int(r[1]), int(r[2]), int(r[3])) for r in ev_rows(log, "draw_stop")] == [(0, 6, 0), (1, 6, 0)]


# --- AMB-13


@pytest.mark.parametrize(("value", "choices", "stone_order", "permit_order"), [
    ("stack_order", [], [7, 2, 5], [PINK, LIGHT_BLUE, LILAC]),
    ("canonical", [], [2, 5, 7], [LIGHT_BLUE, LILAC, PINK]),
    ("winner_choice", [stone(5), permit(LILAC, 3), stone(7), permit(PINK, 3), stone(2)], [5, 7, 2],
     [LILAC, PINK, LIGHT_BLUE]),
])
def test_AMB_13_bid_discard_order_stack_order_winner_choice_canonical(value, choices, stone_order, permit_order):
    g = game(2, bid_discard_order=value)
    s = fresh(g, 1130)
    stack = [stone(7), permit(PINK, 3), stone(2), permit(LIGHT_BLUE, 3), stone(5), permit(LILAC, 3)]
    set_hand(g, s, 0, stack + [roof(1)])
    set_hand(g, s, 1, [roof(2)])
    pass_all(g, s)
    bid(g, s, 0, stack)
    bid(g, s, 1, [])
    for k in choices:
        assert kind(s) == D.DISCARD and seat(s) == 0
        assert k in {r[D.A_CARD] for r in rows(g, s)}
        do(g, s, act(D.DISCARD, D.OP_DISCARD, k))
    assert kind(s) == D.PLACE
    assert [int(S.CLASS_VALUE[k]) for k in queue(g, s, S.STONE)[1]] == stone_order
    assert [int(S.CLASS_COLOUR[k]) for k in queue(g, s, S.PERMIT)[1]] == permit_order
    assert hand_list(g, s, 0) == [roof(1)]


# --- AMB-14


@pytest.mark.parametrize("value", [False, True])
def test_AMB_14_reveal_played_values_false_and_true(value):
    g = game(3, reveal_played_values=value)
    s = fresh(g, 1140)
    set_hand(g, s, 0, [stone(3), stone(5), roof(2)])
    field(g, s, "known")[0, stone(3)] = 1  # both stone cards were drawn face up
    field(g, s, "known")[0, stone(5)] = 1
    do(g, s, act(D.BUILD, D.OP_NULL, stone(3)))
    seen = queue(g, g.observe(s, 1).view, S.STONE)[1]
    assert seen == ([stone(3)] if value else [-1])
    assert queue(g, g.observe(s, 0).view, S.STONE)[1] == [stone(3)]  # the player knows his own card
    # what the others know of the hand: with the value shown, the 5 is still there
    assert field(g, s, "known")[0, stone(5)] == (1 if value else 0)
    assert field(g, s, "known")[0, stone(3)] == 0
    view_hand = hand_list(g, g.observe(s, 2).view, 0)
    assert view_hand == ([stone(5)] if value else [])


# --- AMB-15


@pytest.mark.parametrize("value", ["top", "all"])
def test_AMB_15_draw_pile_visibility_top_and_all(value):
    g = game(3, draw_pile_visibility=value)
    s = fresh(g, 1150)
    set_hand(g, s, 0, [stone(4), roof(1)])
    do(g, s, act(D.BUILD, D.OP_NULL, stone(4)))  # one face-down discard
    view = g.observe(s, 1).view
    for t in range(3):
        real_draw, _ = queue(g, s, t)
        seen_draw, seen_disc = queue(g, view, t)
        assert seen_draw[0] == real_draw[0]
        assert seen_draw[1:] == (real_draw[1:] if value == "all" else [-1] * (len(real_draw) - 1))
        if t == S.STONE:
            assert seen_disc == [-1]  # the discard pile stays face down


# --- AMB-16


@pytest.mark.parametrize(("value", "expected"), [("shared", [1, 1, 3]), ("stones", [2, 1, 3])])
def test_AMB_16_final_tiebreak_shared_and_stones(value, expected):
    g = game(3, final_tiebreak=value)
    s = fresh(g, 1160)
    to_auction(g, s, 11)
    field(g, s, "score")[:3] = [20, 20, 5]
    build_houses(g, s, PALATINE, [(A, 1)])  # seat 0 alone: 2 points, 1 stone on the board
    build_houses(g, s, ESQUILINE, [(B, 1), (B, 2)])  # seat 1 alone: 2 points, 3 stones
    stop_all_bids(g, s)
    assert field(g, s, "score")[:3].tolist() == [22, 22, 5]  # equal final scores
    assert field(g, s, "rank")[:3].tolist() == expected
    assert g.result(s).rank.tolist() == expected


# --- AMB-17 (no parameter)


def test_AMB_17_item_with_no_free_space_is_removed_without_an_auction():
    g = game(3)
    s = fresh(g, 1170)
    field(g, s, "free")[:9] = 0  # every small space taken
    log = g.new_log()
    pass_all(g, s, log)
    assert kind(s) == D.BID and one(g, s, "auction") == 2  # straight to the amphitheatre
    assert field(g, s, "winner")[:2].tolist() == [-1, -1]
    assert [(int(r[2]), int(r[3])) for r in ev_rows(log, "no_space")] == [(0, S.FOUNTAIN), (1, S.FOUNTAIN)]
    assert ev_rows(log, "bid").shape[0] == 0  # nobody was asked to bid


def test_AMB_17_large_item_with_no_free_large_site_is_removed_without_an_auction():
    g = game(3)
    s = fresh(g, 1171)
    field(g, s, "free")[:9] = 0
    field(g, s, "large")[:9] = S.TEMPLE  # every large site taken
    log = g.new_log()
    pass_all(g, s, log)
    assert kind(s) == D.DRAW and field(g, s, "winner")[:3].tolist() == [-1, -1, -1]
    assert [int(r[3]) for r in ev_rows(log, "no_space")] == [S.FOUNTAIN, S.FOUNTAIN, S.AMPHITHEATRE]
    assert ev_rows(log, "bid").shape[0] == 0 and ev_rows(log, "scoring").shape[0] == 1


# --- AMB-18 and data files


def test_AMB_18_default_board_is_the_reconstructed_table():
    g = game(4)
    info = g.data_files["board"]
    assert info["status"] == "reconstructed" and info["path"].endswith("board.toml")
    assert [p.name for p in g.board.prefectures][:3] == ["capitoline", "palatine", "esquiline"]


BOARD = """status = "exact"
source = "test board"
[[prefecture]]
name = "alpha"
colour = "lilac"
small = 2
fountains = 1
[[prefecture]]
name = "beta"
colour = "light_blue"
small = 3
large = 0
[[prefecture]]
name = "gamma"
colour = "pink"
small = 4
"""


def test_AMB_18_board_file_replaces_the_board(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text(BOARD)
    g = make_game("capitol", n_players=2, board_file=str(path))
    s = fresh(g, 1180)
    assert g.board_table[S.MAX_PREF, 0] == 3
    assert field(g, s, "free")[:4].tolist() == [2, 3, 4, 0]
    assert field(g, s, "fountains")[:4].tolist() == [1, 0, 0, 0]
    assert field(g, s, "large")[:4].tolist() == [0, -1, 0, -1]  # beta has no large site
    set_hand(g, s, 0, [permit(LIGHT_BLUE, 1)])
    assert {r[D.A_Z] for r in rows(g, s) if r[D.A_OP] == D.OP_PERMIT} == {1}
    g2 = make_game("capitol", n_players=2, data_dir=str(tmp_path))
    assert g2.board_table[S.MAX_PREF, 0] == 3
    assert g.data_files["board"]["status"] == "exact"
    # AMB-17 on a custom board: a fountain with no small space left is removed unheld
    field(g, s, "free")[:3] = 0
    pass_all(g, s)
    assert field(g, s, "winner")[:2].tolist() == [-1, -1]
    assert kind(s) == D.BID and one(g, s, "auction") == 2
    # the amphitheatre may go to alpha or gamma only
    set_hand(g, s, 0, [stone(3), roof(1)])
    bid(g, s, 0, [stone(3)])
    bid(g, s, 1, [])
    assert kind(s) == D.PLACE and [r[D.A_X] for r in rows(g, s)] == [0, 2]


BROKEN = [
    ("status = 'exact'\n[[prefecture]]\nname='a'\ncolour='lilac'\nsmall=2\n", "file", "source"),
    ("status = 'guessed'\nsource='x'\n", "file", "status must be one of"),
    ("status='exact'\nsource='x'\n", "file", "list of \\[\\[prefecture\\]\\]"),
    ("status='exact'\nsource='x'\n" + "[[prefecture]]\nname='a'\ncolour='lilac'\nsmall=2\n",
     "file", "3..12 prefectures"),
    (BOARD.replace('colour = "pink"', 'colour = "green"'), "prefecture 'gamma'", "colour must be one of"),
    (BOARD.replace("small = 3", "small = 0"), "prefecture 'beta'", "small must be 1..20"),
    (BOARD.replace("small = 3", 'small = "three"'), "prefecture 'beta'", "small must be an integer"),
    (BOARD.replace("large = 0", "large = 2"), "prefecture 'beta'", "large must be 0..1"),
    (BOARD.replace("fountains = 1", "fountains = -1"), "prefecture 'alpha'", "fountains must be 0..9"),
    (BOARD.replace('name = "beta"', 'name = "alpha"'), "prefecture 2", "duplicate name 'alpha'"),
    (BOARD.replace('name = "beta"', 'name = ""'), "prefecture 2", "needs a name"),
    (BOARD.replace("large = 0", "height = 3"), "prefecture 'beta'", "unknown field 'height'"),
    (BOARD.replace('colour = "pink"', 'colour = "lilac"'), "file", "no prefecture of colour pink"),
]


@pytest.mark.parametrize(("text", "entry", "reason"), BROKEN)
def test_AMB_18_broken_board_file_is_a_data_error(tmp_path, text, entry, reason):
    path = tmp_path / "board.toml"
    path.write_text(text)
    with pytest.raises(DataError) as info:
        make_game("capitol", n_players=3, board_file=str(path))
    message = str(info.value)
    assert re.match(rf"^board\.toml: {entry}: .*{reason}", message), message
    assert "\n" not in message


def test_AMB_18_unreadable_or_invalid_board_file_is_a_data_error(tmp_path):
    path = tmp_path / "board.toml"
    path.write_text("status = = 'exact'")
    with pytest.raises(DataError, match="board.toml: not valid TOML"):
        make_game("capitol", n_players=3, board_file=str(path))
    with pytest.raises(DataError, match="cannot read"):
        make_game("capitol", n_players=3, board_file=str(tmp_path / "missing.toml"))
    with pytest.raises(DataError, match="is not a directory"):
        make_game("capitol", n_players=3, data_dir=str(tmp_path / "nowhere"))


# --- parameter validation


@pytest.mark.parametrize(("params", "match"), [
    ({"n_players": 5}, "2 to 4 players, not 5"),
    ({"n_players": 1}, "2 to 4 players, not 1"),
    ({"colour_rule": "off"}, "colour_rule"),
    ({"shared_first_second": "all"}, "shared_first_second must be one of"),
    ({"first_tiebreak": "most_houses"}, "first_tiebreak must be one of"),
    ({"temple_from": "never"}, "temple_from must be one of"),
    ({"zero_bid_policy": "random"}, "zero_bid_policy must be one of"),
    ({"short_stone_take": "two"}, "short_stone_take must be one of"),
    ({"max_unfinished": 3}, "max_unfinished must be one of"),
    ({"bid_discard_order": "random"}, "bid_discard_order must be one of"),
    ({"draw_pile_visibility": "none"}, "draw_pile_visibility must be one of"),
    ({"final_tiebreak": "custom"}, "final_tiebreak must be one of"),
    ({"tied_bid": "coin"}, "tied_bid must be one of"),
    ({"build_card": "highest"}, "build_card must be one of"),
    ({"allow_null_play": "yes"}, "allow_null_play must be true or false"),
    ({"partial_stone_take": 1}, "partial_stone_take must be true or false"),
    ({"bonus_draws_optional": None}, "bonus_draws_optional must be true or false"),
    ({"base_draws_optional": "false"}, "base_draws_optional must be true or false"),
    ({"reveal_played_values": 0}, "reveal_played_values must be true or false"),
    ({"hand_limit": 0}, "hand_limit must be at least 1, got 0"),
    ({"hand_limit": "ten"}, "hand_limit must be an integer or none, got 'ten'"),
    ({"hand_limit": True}, "hand_limit must be an integer or none, got True"),
    ({"start_seat": 4}, "start_seat must be 0..3"),
    ({"start_seat": -1}, "start_seat must be 0..3"),
    ({"start_seat": "oldest"}, "start_seat must be"),
    ({"start_points": "0/1"}, "start_points"),
    ({"board_file": 7}, "board_file must be a path"),
])
def test_bad_parameters_raise_game_id_error(params, match):
    args = {"n_players": 4, **params}
    with pytest.raises(GameIdError, match=match):
        make_game("capitol", **args)


def test_game_id_names_the_non_default_parameters():
    g = make_game("capitol", n_players=3, temple_from="next_round", hand_limit=12)
    assert g.id == "capitol(n_players=3, hand_limit=12, temple_from=next_round)"
    assert make_game(g.id).id == g.id
    assert make_game("capitol", n_players=2).id == "capitol(n_players=2)"
