"""Sealed Bids rules, one test per rule id of its spec page (sim/games/sealed_bids/README.md)."""

import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.sealed_bids.decisions import BID
from bgsim.sim.games.sealed_bids.state import FACE_DOWN, HIDDEN, IN_HAND, PLAYED, UNDEALT

from tests.games.sealed_bids.helpers import deal_hands, field


def _game(n=3, **params):
    return make_game("sealed_bids", n_players=n, **params)


def _bid(game, state, value):
    game.apply(state, np.array([BID, value], dtype=np.int32), validate=True)


def test_SB_SETUP_1_decks_hold_two_of_each_value_and_eight_prizes():
    game = _game(4)
    state = game.new_state(game_seeds(1))
    deck = field(game, state, "prize_deck")
    assert sorted(deck[:8].tolist()) == list(range(8)) and (deck[8:] == -1).all()  # P9..P15: pair and triple only
    assert (field(game, state, "loc") != UNDEALT).sum() == 24  # 4 x 6 dealt: the whole deck


def test_SB_SETUP_2_each_seat_holds_six_hidden_cards():
    game = _game(2)
    state = game.new_state(game_seeds(2))
    loc = field(game, state, "loc")
    assert [(loc == IN_HAND + s).sum() for s in range(2)] == [6, 6] and (loc == UNDEALT).sum() == 12
    view = game.observe(state, 0).view
    assert (game.field(view, "loc") == HIDDEN).sum() == 18  # the other hand and the box


@pytest.mark.parametrize(("n", "start"), [(2, [0, 1]), (3, [0, 1, 2]), (4, [0, 1, 2, 3])])
def test_SB_SETUP_3_rulebook_start_points(n, start):
    game = _game(n)
    assert field(game, game.new_state(game_seeds(3)), "start_points")[:n].tolist() == start
    equal = _game(n, start_points="equal")
    assert field(equal, equal.new_state(game_seeds(3)), "start_points")[:n].tolist() == [0] * n
    with pytest.raises(GameIdError, match="gives 2 values for"):
        _game(n if n != 2 else 3, start_points="0/5")


def test_SB_ROUND_1_one_prize_revealed_per_round_for_five_rounds():
    game = _game(2)
    state = game.new_state(game_seeds(4))
    assert game.decision(state).column("prize")[0] == field(game, state, "prize_deck")[0] + 1
    rounds = 0
    while not game.is_over(state):
        _bid(game, state, int(game.decision(state).actions[0, 1]))
        rounds += int(field(game, state, "bids_made")[0] == 0)
    assert rounds == 5


def test_SB_ROUND_2_first_bidder_moves_on_each_round():
    game = _game(3)
    state = game.new_state(game_seeds(5))
    firsts = []
    while not game.is_over(state):
        if field(game, state, "bids_made")[0] == 0:
            firsts.append(game.decision(state).seat)
        _bid(game, state, int(game.decision(state).actions[0, 1]))
    assert firsts == [0, 1, 2, 0, 1]


def test_SB_BID_1_a_seat_bids_one_card_of_its_hand_face_down():
    game = _game(2)
    state = game.new_state(game_seeds(6))
    deal_hands(game, state, [[1, 3, 5, 7, 9, 11], [2, 4, 6, 8, 10, 12]])
    assert game.decision(state).actions[:, 1].tolist() == [1, 3, 5, 7, 9, 11]
    _bid(game, state, 7)
    assert field(game, state, "loc")[12] == FACE_DOWN + 0 and field(game, state, "hand_n")[0] == 5
    with pytest.raises(Exception, match="illegal action"):
        _bid(game, state, 7)  # seat 2 holds no 7


def test_SB_BID_2_face_down_bids_are_hidden_until_all_have_bid():
    game = _game(3)
    state = game.new_state(game_seeds(7))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [1, 2, 3, 4, 5, 6]])
    _bid(game, state, 6)
    view = game.observe(state, 1).view
    assert game.field(view, "bid")[0] == HIDDEN and game.field(view, "bid_down")[0] == 1
    assert game.field(view, "loc")[10] == HIDDEN  # the 6 seat 1 bid (first copy: card 10)
    _bid(game, state, 12)
    _bid(game, state, 5)
    assert (field(game, state, "round_bids")[0, :3] // 2 + 1).tolist() == [6, 12, 5]
    assert (field(game, state, "loc")[[10, 22, 9]] >= PLAYED).all()


def test_SB_WIN_1_highest_bid_takes_the_prize():
    game = _game(2)
    state = game.new_state(game_seeds(8))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
    prize = int(field(game, state, "prize_deck")[0]) + 1
    _bid(game, state, 6)
    _bid(game, state, 7)
    assert field(game, state, "round_winner")[0] == 1 and field(game, state, "prize_points")[:2].tolist() == [0, prize]


@pytest.mark.parametrize(("rule", "winner"), [("first_bidder", 0), ("discard", -1)])
def test_SB_TIE_1_equal_highest_bids(rule, winner):
    game = _game(2, bid_tie=rule)
    state = game.new_state(game_seeds(9))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 9], [1, 2, 3, 4, 5, 9]])
    _bid(game, state, 9)
    _bid(game, state, 9)
    assert field(game, state, "round_winner")[0] == winner


def test_SB_END_1_2_3_five_rounds_leftover_value_over_three_and_the_total():
    game = _game(2)
    state = game.new_state(game_seeds(10))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 12], [6, 7, 8, 9, 10, 11]])
    for v0, v1 in [(1, 6), (2, 7), (3, 8), (4, 9), (5, 10)]:
        _bid(game, state, v0) if game.decision(state).seat == 0 else None
        _bid(game, state, v1)
        if field(game, state, "bids_made")[0] == 1:
            _bid(game, state, v0)
    assert game.is_over(state)
    assert field(game, state, "leftover_points")[:2].tolist() == [4, 3]  # 12 // 3, 11 // 3
    sheet = game.score_sheet(state)
    assert (sheet["total"] == sheet["start"] + sheet["prizes"] + sheet["leftover"]).all()
    assert sheet["prizes"].tolist() == [0, sum(field(game, state, "prize_deck")[:5] + 1)]


def test_SB_TIE_2_equal_scores_go_to_the_seat_that_spent_less_then_the_later_seat():
    game = _game(2, start_points="equal", bid_tie="discard")
    state = game.new_state(game_seeds(11))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]])
    for v in (1, 2, 3, 4, 5):  # every round tied: no prizes, equal leftovers
        _bid(game, state, v)
        _bid(game, state, v)
    assert field(game, state, "total")[:2].tolist() == [2, 2]
    assert field(game, state, "rank")[:2].tolist() == [2, 1]  # equal spending: the later seat
    assert field(game, state, "tiebreak")[:2].tolist() == [2, 1]


def test_SB_INFO_the_view_hides_other_hands_and_the_prizes_to_come():
    game = _game(3)
    a = game.new_state(game_seeds(12))
    b = a.copy()
    loc = field(game, b, "loc")
    one, two = np.flatnonzero(loc == IN_HAND + 1)[0], np.flatnonzero(loc == IN_HAND + 2)[0]
    loc[one], loc[two] = IN_HAND + 2, IN_HAND + 1  # other seats swap a card
    deck = field(game, b, "prize_deck")
    deck[6], deck[7] = deck[7], deck[6]
    assert game.observe(a, 0) == game.observe(b, 0)
    assert game.observe(a, 1) != game.observe(b, 1)


def test_sealed_bids_is_kept_for_the_tests_built_but_not_listed():
    from bgsim.sim.registry import available_games

    assert "sealed_bids" in available_games(unlisted=True) and "sealed_bids" not in available_games()
    assert make_game("sealed_bids(n_players=2, bid_tie=discard)").id == "sealed_bids(n_players=2, bid_tie=discard)"
