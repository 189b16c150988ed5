"""Sealed Bids' three prizes on offer per round (SB-OFFER-2, ``prize_offer=triple``): a deck of 15,
the winner's take among three alike components, the two others leaving the game; ``prize_points``
with 15 values; and the conformance suite's checks run on the triple game (the suite itself plays
only the pair variant)."""

import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.api import ComponentChoices, supports
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.sealed_bids.decisions import BID, TAKE
from bgsim.sim.games.sealed_bids.param_slots import PR_PRIZE_POINTS
from bgsim.sim.games.sealed_bids.profile import TAKE_CHOICE
from bgsim.sim.games.sealed_bids.state import HIDDEN
from bgsim.sim.play import play_game
from bgsim.sim.rng import new_stream
from bgsim.strategies import make_strategy

from tests import test_conformance as conformance
from tests.games.sealed_bids.helpers import deal_hands, dealt_prizes, field

TRIPLE = "sealed_bids(prize_offer=triple)"
RULEBOOK_15 = "/".join(str(k) for k in range(1, 16))
EQUAL_15 = "/".join(["4"] * 15)


def _triple(n=2, **params):
    return make_game("sealed_bids", n_players=n, prize_offer="triple", **params)


def _act(game, state, kind, value):
    game.apply(state, np.array([kind, value], dtype=np.int32), validate=True)


def _won_by_seat_1(game, seed=1):
    """A 2-player game after round 1's bids, which seat 1 wins (12 beats 1): its take is pending."""
    state = game.new_state(game_seeds(seed))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]])
    _act(game, state, BID, 1)
    _act(game, state, BID, 12)
    return state


# --- SB-OFFER-2


def test_SB_OFFER_2_fifteen_prizes_three_revealed_per_round():
    game = _triple(3)
    state = game.new_state(game_seeds(1))
    deck = dealt_prizes(game, state)
    assert sorted(deck.tolist()) == list(range(15))
    assert (field(game, state, "offer")[0], field(game, state, "deck_n")[0]) == (3, 15)
    on_offer = game.decision(state).column("prize")
    assert (on_offer == deck[:3].max() + 1).all()  # bid rows: the best prize on offer


def test_SB_OFFER_2_a_seat_sees_the_three_prizes_on_offer_not_the_order_of_the_rest():
    game = _triple(3)
    state = game.new_state(game_seeds(1))
    deck = dealt_prizes(game, state).copy()
    other = state.copy()
    dealt_prizes(game, other)[3:] = deck[3:][::-1]  # the prizes to come
    assert game.observe(state, 0) == game.observe(other, 0)
    view = game.observe(state, 0).view
    assert game.field(view, "prize_deck")[:3].tolist() == deck[:3].tolist()  # all three face up
    assert game.field(view, "prize_deck")[3:15].tolist() == sorted(deck[3:].tolist())
    assert (game.field(view, "loc") == HIDDEN).any()
    moved = state.copy()
    dealt_prizes(game, moved)[[0, 3]] = deck[[3, 0]]  # a prize on offer is another one
    assert game.observe(state, 0) != game.observe(moved, 0)


def test_SB_OFFER_2_the_winner_takes_one_prize_and_the_other_two_leave_the_game():
    game = _triple()
    state = _won_by_seat_1(game)
    deck = dealt_prizes(game, state).copy()
    table = game.decision(state)
    assert (table.kind, table.kind_name, table.seat) == (TAKE, "take", 1)
    assert table.actions.tolist() == [[TAKE, deck[0]], [TAKE, deck[1]], [TAKE, deck[2]]]  # deck order
    assert table.column("prize").tolist() == [deck[0] + 1, deck[1] + 1, deck[2] + 1]
    assert field(game, state, "round")[0] == 0 and field(game, state, "prize_points")[1] == 0
    _act(game, state, TAKE, int(deck[1]))
    assert field(game, state, "prize_points")[:2].tolist() == [0, deck[1] + 1]
    assert field(game, state, "round_taken")[0] == deck[1] and field(game, state, "round")[0] == 1
    table = game.decision(state)
    assert table.kind == BID and table.seat == 1  # SB-ROUND-2: the next round, the next seat first
    assert (table.column("prize") == deck[3:6].max() + 1).all()  # round 2 offers entries 3..5
    while not game.is_over(state):  # the prizes left behind are never scored
        table = game.decision(state)
        game.apply(state, table.actions[0].copy(), validate=True)
    taken = field(game, state, "round_taken").tolist()
    assert deck[0] not in taken and deck[2] not in taken
    assert all(prize in deck[3 * r: 3 * r + 3] for r, prize in enumerate(taken) if prize >= 0)
    assert field(game, state, "prize_points")[:2].sum() == sum(p + 1 for p in taken if p >= 0)


def test_SB_OFFER_2_a_discarded_round_removes_all_three_prizes():
    game = _triple(bid_tie="discard")
    state = game.new_state(game_seeds(2))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 9], [1, 2, 3, 4, 5, 9]])
    _act(game, state, BID, 9)
    _act(game, state, BID, 9)
    assert game.decision(state).kind == BID  # no take: nobody won
    assert field(game, state, "round_winner")[0] == -1 and field(game, state, "round_taken")[0] == -1
    assert field(game, state, "prize_points")[:2].tolist() == [0, 0] and field(game, state, "round")[0] == 1
    deck = dealt_prizes(game, state)
    assert (game.decision(state).column("prize") == deck[3:6].max() + 1).all()  # the next three, not these


def test_SB_OFFER_2_only_a_prize_on_offer_can_be_taken():
    game = _triple()
    state = _won_by_seat_1(game)
    elsewhere = int(dealt_prizes(game, state)[3])  # the first prize of round 2
    with pytest.raises(Exception, match="illegal action"):
        _act(game, state, TAKE, elsewhere)


@pytest.mark.parametrize("name", ["greedy", "bold", "miser"])
def test_SB_OFFER_2_the_weight_strategies_take_the_prize_worth_most(name):
    game = _triple()
    state = _won_by_seat_1(game)
    table = game.decision(state)
    best = int(np.argmax(table.column("prize")))
    assert make_strategy(name, game).choose(table, np.zeros(1, np.uint64)) == best
    equal = _triple(prize_points=EQUAL_15)
    table = equal.decision(_won_by_seat_1(equal))
    assert make_strategy(name, equal).choose(table, np.zeros(1, np.uint64)) == 0  # equal points: the first


def test_SB_OFFER_2_a_triple_game_plays_to_the_end_with_its_takes_traced_and_recorded():
    game = _triple(4)
    seats = [make_strategy(name, game) for name in ("greedy", "random", "bold", "miser")]
    played = play_game(game, seats, game_seeds(3), log=True, validate=True)
    state = played.state
    winners, taken = field(game, state, "round_winner"), field(game, state, "round_taken")
    assert ((winners >= 0) == (taken >= 0)).all()
    text = game.trace_text(state, played.log, played.seeds, [s.id for s in seats])
    assert "prize deck: " + " ".join(f"P{p + 1}" for p in dealt_prizes(game, state)) in text
    assert "leave the game" in text and ", P" in text  # e.g. "prizes P3 (3 points), P7 (7 points) and ..."
    events = game.trace_json(state, played.log, played.seeds, [s.id for s in seats])["events"]
    assert [len(e["prizes"]) for e in events] == [3] * 5 and [e["taken"] for e in events] == taken.tolist()
    records = game.records(state[None])
    assert records["board_prizes"].type.list_size == 15
    assert records["board_prizes"].to_pylist()[0] == dealt_prizes(game, state).tolist()
    prizes = [[item["prize"] for item in seat] for seat in records["prizes"].to_pylist()]
    assert [p for seat in prizes for p in seat] == [int(taken[r]) for s in range(4) for r in range(5)
                                                    if winners[r] == s]


def test_SB_OFFER_2_the_trace_names_three_discarded_prizes():
    game = _triple(bid_tie="discard")
    state = game.new_state(game_seeds(2))
    deal_hands(game, state, [[1, 2, 3, 4, 5, 9], [1, 2, 3, 4, 5, 9]])
    for value in (9, 1, 2, 3, 4):
        _act(game, state, BID, value)
        _act(game, state, BID, value)
    a, b, c = (f"P{p + 1}" for p in dealt_prizes(game, state)[:3])
    assert f"-> {a}, {b} and {c} are discarded" in game.trace_text(state, None, None, ())


# --- the component choice (sim.api.ComponentChoices)


def test_SB_OFFER_2_choice_components_name_the_prize_each_of_the_three_rows_takes():
    game = _triple()
    assert supports(game, ComponentChoices)
    state = game.new_state(game_seeds(5))
    assert game.choice_components(state, game.decision(state)) is None  # a bid takes no component
    state = _won_by_seat_1(game, seed=5)
    components = game.choice_components(state, game.decision(state))
    assert components.dtype == np.int64 and components.shape == (3, 1)
    assert components[:, 0].tolist() == dealt_prizes(game, state)[:3].tolist()


def test_SB_OFFER_2_the_profile_declares_the_take_over_a_catalogue_of_fifteen_prizes():
    profile = _triple(prize_points=EQUAL_15).profile
    assert profile.choices == (TAKE_CHOICE,) and "SB-OFFER-2" in TAKE_CHOICE.doc
    catalogue = profile.attribution("prizes").catalogue
    assert [c["id"] for c in catalogue] == [f"P{k}" for k in range(1, 16)] and {c["points"] for c in catalogue} == {4}
    rulebook = _triple().profile.attribution("prizes").catalogue
    assert [c["points"] for c in rulebook] == list(range(1, 16)) and [c["prize"] for c in rulebook] == list(range(15))


def test_SB_OFFER_2_with_payout_reaches_the_prizes_only_triple_deals():
    game = _triple(bid_tie="discard")
    assert game.payout(14) == 15
    richer = game.with_payout(14, 2)
    assert richer.payout(14) == 2 and richer.params.prize_points == "1/2/3/4/5/6/7/8/9/10/11/12/13/14/2"
    assert richer.params.prize_offer == "triple" and richer.params.bid_tie == "discard"
    assert [richer.payout(c) for c in range(14)] == [game.payout(c) for c in range(14)]
    with pytest.raises(ValueError):
        game.payout(15)
    with pytest.raises(ValueError):
        make_game("sealed_bids(prize_offer=pair)").payout(14)  # pair deals and lists P1..P10 only


# --- prize points (SB-SETUP-1) for the deck of 15


def test_SB_OFFER_2_prize_points_list_fifteen_values_in_triple():
    points = "/".join(str(10 * k) for k in range(1, 16))
    game = _triple(prize_points=points)
    assert game.params.prize_points == points
    assert game.param_array[PR_PRIZE_POINTS: PR_PRIZE_POINTS + 15].tolist() == [10 * k for k in range(1, 16)]
    state = _won_by_seat_1(game)
    deck = dealt_prizes(game, state)
    assert game.decision(state).column("prize").tolist() == [10 * (p + 1) for p in deck[:3]]
    assert _triple().param_array[PR_PRIZE_POINTS: PR_PRIZE_POINTS + 15].tolist() == list(range(1, 16))
    assert _triple(prize_points=RULEBOOK_15).params.prize_points == RULEBOOK_15  # the same points, spelt out


@pytest.mark.parametrize(("offer", "points", "need"), [
    ("triple", "1/2/3/4/5/6/7/8/9/10", 15),  # P11..P15 would have no points
    ("pair", RULEBOOK_15, 10),  # P11..P15 are never dealt
    ("single", RULEBOOK_15, 10),
])
def test_SB_OFFER_2_prize_points_must_list_the_values_of_the_deck_in_use(offer, points, need):
    with pytest.raises(GameIdError) as info:
        make_game("sealed_bids", prize_offer=offer, prize_points=points)
    message = str(info.value)
    assert message.startswith(f"prize_points must be rulebook or {need} integers") and "\n" not in message
    assert f"prize_offer={offer}" in message


def test_SB_OFFER_2_changing_the_offer_alone_keeps_rulebook_points_valid():
    game = make_game("sealed_bids(prize_offer=pair)")
    assert game.with_params(prize_offer="triple").payout(14) == 15
    with pytest.raises(GameIdError, match="15 integers"):
        make_game("sealed_bids", prize_offer="pair", prize_points=[4] * 10).with_params(prize_offer="triple")


# --- the conformance suite's checks, on the triple game

# tests/test_conformance.py plays sealed_bids(prize_offer=pair) through these (its VARIANTS); the
# triple game runs them here, for every player count.
BY_PLAYER_COUNT = (
    "test_game_follows_the_common_interface",
    "test_same_seeds_same_game_and_chance_seed_fixes_the_deal",
    "test_every_tier_plays_the_same_games",
    "test_records_match_the_profile_and_sum_to_the_score",
    "test_profile_round_trips_through_json",
    "test_determinisation_keeps_what_the_seat_sees",
    "test_identical_choices_played_on_the_same_chance_have_identical_outcomes",
    "test_declared_component_choices_name_components_and_change_only_their_payout",
    "test_another_seats_sealed_choices_change_nothing_a_seat_sees",
    "test_dealt_games_play_as_dealt_and_count_the_lead_changes_of_the_running_score",
)
BY_GAME = (
    "test_stepping_follows_apply",
    "test_uncompiled_code_plays_the_same_game",
    "test_determinisations_differ_in_what_is_hidden",
)


@pytest.mark.parametrize("n_players", (2, 3, 4))
@pytest.mark.parametrize("check", BY_PLAYER_COUNT)
def test_SB_OFFER_2_the_triple_game_passes_the_conformance_checks(check, n_players):
    getattr(conformance, check)(name=TRIPLE, n_players=n_players)


@pytest.mark.parametrize("check", BY_GAME)
def test_SB_OFFER_2_the_triple_game_passes_the_conformance_checks_by_game(check):
    getattr(conformance, check)(name=TRIPLE)


def test_SB_OFFER_2_a_determinised_view_keeps_the_offer_and_deals_the_rest_again():
    game = _triple(3)
    state = game.new_state(game_seeds(8))
    observation = game.observe(state, 1)
    deck = dealt_prizes(game, state)
    orders = set()
    for seed in range(4):
        again = dealt_prizes(game, game.determinise(observation, new_stream(seed)))
        assert again[:3].tolist() == deck[:3].tolist() and sorted(again.tolist()) == list(range(15))
        orders.add(tuple(again[3:].tolist()))
    assert len(orders) > 1  # the twelve prizes to come are shuffled again
