"""Sealed Bids' component choice: two prizes on offer per round (SB-OFFER-1, ``prize_offer=pair``),
prize points as a parameter (SB-SETUP-1, ``prize_points``), and the component-choice hooks
(``sim.api.ComponentChoices``) of the winner's take. The rulebook game (``single``) plays as it
always has: the last test compares its games against a digest recorded before pair existed."""

import hashlib

import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.api import ComponentChoices, supports
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.sealed_bids.decisions import BID, TAKE
from bgsim.sim.games.sealed_bids.param_slots import PR_PRIZE_POINTS
from bgsim.sim.games.sealed_bids.state import HIDDEN
from bgsim.sim.play import play_game
from bgsim.strategies import make_strategy

from tests.games.sealed_bids.helpers import deal_hands, dealt_prizes, field

EQUAL = "4/4/4/4/4/4/4/4/4/4"


def _game(n=2, **params):
    return make_game("sealed_bids", n_players=n, **params)


def _pair(n=2, **params):
    return _game(n, prize_offer="pair", **params)


def _act(game, state, kind, value):
    game.apply(state, np.array([kind, value], dtype=np.int32), validate=True)


def _won_by_seat_1(game, seed=1):
    """A 2-player game after round 1's bids, which seat 1 wins (12 beats 1): its take is pending."""
    state = game.new_state(game_seeds(seed))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
    _act(game, state, BID, 1)
    _act(game, state, BID, 12)
    return state


# --- SB-OFFER-1


def test_SB_OFFER_1_ten_prizes_two_revealed_per_round():
    game = _pair(3)
    state = game.new_state(game_seeds(1))
    deck = dealt_prizes(game, state)
    assert sorted(deck.tolist()) == list(range(10)) and field(game, state, "offer")[0] == 2
    assert (field(game, state, "prize_deck")[10:] == -1).all()  # P11..P15: triple only
    on_offer = game.decision(state).column("prize")
    assert (on_offer == max(deck[0], deck[1]) + 1).all()  # bid rows: the better prize on offer
    other = state.copy()
    dealt_prizes(game, other)[2:] = dealt_prizes(game, other)[2:][::-1]  # the prizes to come
    assert game.observe(state, 0) == game.observe(other, 0)
    view = game.observe(state, 0).view
    assert game.field(view, "prize_deck")[:2].tolist() == deck[:2].tolist()  # both face up
    assert (game.field(view, "loc") == HIDDEN).any()


def test_SB_OFFER_1_the_winner_takes_one_prize_and_the_other_leaves_the_game():
    game = _pair()
    state = _won_by_seat_1(game)
    deck = field(game, state, "prize_deck").copy()
    table = game.decision(state)
    assert (table.kind, table.kind_name, table.seat) == (TAKE, "take", 1)
    assert table.actions.tolist() == [[TAKE, deck[0]], [TAKE, deck[1]]]  # deck order
    assert table.column("prize").tolist() == [deck[0] + 1, deck[1] + 1]
    assert field(game, state, "round")[0] == 0 and field(game, state, "prize_points")[1] == 0
    _act(game, state, TAKE, int(deck[1]))
    assert field(game, state, "prize_points")[:2].tolist() == [0, deck[1] + 1]
    assert field(game, state, "round_taken")[0] == deck[1] and field(game, state, "round")[0] == 1
    table = game.decision(state)
    assert table.kind == BID and table.seat == 1  # SB-ROUND-2: the next round, the next seat first
    assert (table.column("prize") == max(deck[2], deck[3]) + 1).all()
    while not game.is_over(state):  # the prize left behind is never scored
        table = game.decision(state)
        game.apply(state, table.actions[0].copy(), validate=True)
    taken = field(game, state, "round_taken")
    assert deck[0] not in taken.tolist()
    assert field(game, state, "prize_points")[:2].sum() == sum(int(p) + 1 for p in taken if p >= 0)


def test_SB_OFFER_1_a_discarded_round_removes_both_prizes():
    game = _pair(bid_tie="discard")
    state = game.new_state(game_seeds(2))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 9], [1, 2, 3, 4, 5, 9]])
    _act(game, state, BID, 9)
    _act(game, state, BID, 9)
    assert game.decision(state).kind == BID  # no take: nobody won
    assert field(game, state, "round_winner")[0] == -1 and field(game, state, "round_taken")[0] == -1
    assert field(game, state, "prize_points")[:2].tolist() == [0, 0] and field(game, state, "round")[0] == 1


def test_SB_OFFER_1_only_a_prize_on_offer_can_be_taken():
    game = _pair()
    state = _won_by_seat_1(game)
    elsewhere = int(field(game, state, "prize_deck")[2])
    with pytest.raises(Exception, match="illegal action"):
        _act(game, state, TAKE, elsewhere)


@pytest.mark.parametrize("name", ["greedy", "bold", "miser"])
def test_SB_OFFER_1_the_weight_strategies_take_the_prize_worth_more(name):
    game = _pair()
    state = _won_by_seat_1(game)
    table = game.decision(state)
    better = int(np.argmax(table.column("prize")))
    assert make_strategy(name, game).choose(table, np.zeros(1, np.uint64)) == better
    equal = _pair(prize_points=EQUAL)
    table = equal.decision(_won_by_seat_1(equal))
    assert make_strategy(name, equal).choose(table, np.zeros(1, np.uint64)) == 0  # equal points: the first


def test_SB_OFFER_1_a_pair_game_plays_to_the_end_with_five_takes():
    game = _pair(4)
    seats = [make_strategy(name, game) for name in ("greedy", "random", "bold", "miser")]
    played = play_game(game, seats, game_seeds(3), log=True, validate=True)
    state = played.state
    winners, taken = field(game, state, "round_winner"), field(game, state, "round_taken")
    assert ((winners >= 0) == (taken >= 0)).all()
    text = game.trace_text(state, played.log, played.seeds, [s.id for s in seats])
    assert "leaves the game" in text and "prize deck: " + " ".join(
        f"P{p + 1}" for p in dealt_prizes(game, state)) in text
    records = game.records(state[None])
    assert records["board_prizes"].type.list_size == 10
    prizes = [[item["prize"] for item in seat] for seat in records["prizes"].to_pylist()]
    assert [p for seat in prizes for p in seat] == [int(taken[r]) for s in range(4) for r in range(5)
                                                    if winners[r] == s]


# --- prize points (SB-SETUP-1)


@pytest.mark.parametrize(("value", "canonical"), [
    ("rulebook", "rulebook"),
    (" 1/2/ 3/4/5/6/7/8/9/10", "1/2/3/4/5/6/7/8/9/10"),
    ([0, 0, 0, 0, 0, 0, 0, 0, 0, 20], "0/0/0/0/0/0/0/0/0/20"),
])
def test_SB_SETUP_1_prize_points_are_read_into_their_canonical_form(value, canonical):
    game = _game(prize_points=value)
    assert game.params.prize_points == canonical
    points = list(range(1, 11)) if canonical == "rulebook" else [int(v) for v in canonical.split("/")]
    assert game.param_array[PR_PRIZE_POINTS: PR_PRIZE_POINTS + 10].tolist() == points


@pytest.mark.parametrize("value", ["1/2/3", "1/2/3/4/5/6/7/8/9/10/11", "1/2/3/4/5/6/7/8/9/-1", "lots",
                                   "1/2/3/4/5/6/7/8/9/1000", "1/2/3/4/5/6/7/8/9/x", 7])
def test_SB_SETUP_1_bad_prize_points_give_one_line_errors(value):
    with pytest.raises(GameIdError) as info:
        _game(prize_points=value)
    message = str(info.value)
    assert message.startswith("prize_points must be rulebook or 10 integers 0..999") and "\n" not in message


def test_SB_SETUP_1_scoring_features_records_and_profile_read_the_points_parameter():
    points = "10/20/30/40/50/60/70/80/90/100"
    game = _game(prize_points=points)
    state = _won_by_seat_1(game)  # single: seat 1 takes the prize at once (SB-WIN-1)
    prize = int(field(game, state, "prize_deck")[0])
    assert field(game, state, "prize_points")[:2].tolist() == [0, 10 * (prize + 1)]
    assert (game.decision(state).column("prize") == 10 * (int(field(game, state, "prize_deck")[1]) + 1)).all()
    catalogue = game.profile.attribution("prizes").catalogue
    assert [c["points"] for c in catalogue] == [10 * k for k in range(1, 9)]  # P1..P8 in single
    played = play_game(game, [make_strategy("greedy", game)] * 2, game_seeds(4))
    records = game.records(played.state[None])
    for seat in records["prizes"].to_pylist():
        assert all(item["points"] == 10 * (item["prize"] + 1) for item in seat)
    assert records["pts_prizes"].to_pylist() == field(game, played.state, "prize_points")[:2].tolist()


def test_the_profile_declares_the_take_as_a_component_choice_in_pair_only():
    assert _game().profile.choices == ()
    profile = _pair(prize_points=EQUAL).profile
    (choice,) = profile.choices
    assert (choice.attribution, choice.decisions, choice.payout_unit) == ("prizes", ("take",), "points")
    catalogue = profile.attribution("prizes").catalogue
    assert [c["id"] for c in catalogue] == [f"P{k}" for k in range(1, 11)] and {c["points"] for c in catalogue} == {4}


# --- component-choice hooks (sim.api.ComponentChoices)


def test_choice_components_names_the_prize_each_take_row_takes():
    game = _pair()
    assert supports(game, ComponentChoices)
    state = game.new_state(game_seeds(5))
    assert game.choice_components(state, game.decision(state)) is None  # a bid takes no component
    state = _won_by_seat_1(game, seed=5)
    components = game.choice_components(state, game.decision(state))
    assert components.dtype == np.int64 and components.shape == (2, 1)
    assert components[:, 0].tolist() == field(game, state, "prize_deck")[:2].tolist()


def test_with_payout_changes_what_a_taken_prize_scores():
    game = _pair(bid_tie="discard")
    state = _won_by_seat_1(game)
    prize = int(field(game, state, "prize_deck")[1])
    assert game.payout(prize) == prize + 1
    richer = game.with_payout(prize, 17)
    assert richer.payout(prize) == 17 and richer.payout((prize + 1) % 10) == game.payout((prize + 1) % 10)
    assert richer.params.bid_tie == "discard" and richer.params.prize_offer == "pair" and richer.n_players == 2
    assert game.payout(prize) == prize + 1  # the original game is unchanged
    for which, points in ((game, prize + 1), (richer, 17)):
        after = state.copy()
        which.apply(after, np.array([TAKE, prize], dtype=np.int32), validate=True)
        assert field(which, after, "prize_points")[1] == points
    with pytest.raises(GameIdError):
        game.with_payout(prize, -1)
    with pytest.raises(ValueError):
        game.payout(10)


# --- the rulebook game is unchanged


def _single_digest() -> str:
    """A digest of finished rulebook games (2-4 players, 5 seeds each, four strategies): the deck
    dealt and every field that existed before ``prize_offer``."""
    fields = ("loc", "round_bids", "round_winner", "spent", "prize_points", "leftover_points", "total", "rank",
              "tiebreak")
    h = hashlib.sha256()
    for n in (2, 3, 4):
        game = make_game("sealed_bids", n_players=n)
        seats = [make_strategy(("greedy", "random", "bold", "miser")[seat], game) for seat in range(n)]
        for seed in range(5):
            state = play_game(game, seats, game_seeds(seed)).state
            h.update(field(game, state, "prize_deck")[:8].tobytes())
            for name in fields:
                h.update(np.ascontiguousarray(field(game, state, name)).tobytes())
    return h.hexdigest()[:24]


def test_single_with_rulebook_points_plays_the_games_it_always_played():
    game = _game()
    state = game.new_state(game_seeds(6))
    assert field(game, state, "deck_n")[0] == 8 and (field(game, state, "prize_deck")[8:] == -1).all()
    assert _single_digest() == "ffb8b8b0157d0431e1f70001"  # recorded before prize_offer and prize_points
