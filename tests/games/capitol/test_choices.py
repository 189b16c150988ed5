"""Capitol's component choice and the item_points lever (CAP-VAR-1): a lab lever, not a rule, that
lets an auction item pay its winner points at once, so that a component-value study can look for
the payout at which going for an item and letting it go are even. The rulebook's game (all 0) is
unchanged: the golden playthroughs and the conformance suite check that."""

import numpy as np
import pytest
from bgsim.sim import make_game
from bgsim.sim.api import ComponentChoices, supports
from bgsim.sim.batch import play_batch
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.capitol import decisions as D
from bgsim.sim.games.capitol import state as S
from bgsim.sim.games.capitol.param_slots import PR_ITEM_POINTS
from bgsim.sim.games.capitol.params import Params
from bgsim.sim.profile import round_trip
from bgsim.sim.seeding import game_seeds
from bgsim.strategies import make_strategy
from bgsim.strategies.base import RandomStrategy

from tests.games.capitol.helpers import (
    act,
    bid,
    do,
    drive,
    ev_rows,
    field,
    fresh,
    game,
    kind,
    pass_all,
    permit,
    roof,
    seat,
    set_hand,
    stone,
    stop_all_bids,
    to_auction,
)

ZEROS = "/".join(["0"] * S.AUCTIONS)


def _points(*pairs) -> str:
    """An item_points text: item id -> points for the given (id, points) pairs, 0 elsewhere."""
    values = [0] * S.AUCTIONS
    for item, pts in pairs:
        values[item] = pts
    return "/".join(str(v) for v in values)


def _auction_ready(n=3, seed=0, hands=None, **params):
    """A game whose build phase is over: the first auction's first bid, seat 0 (the consul) to bid."""
    g = game(n, **params)
    s = fresh(g, seed)
    for who, cards in enumerate(hands or ()):
        set_hand(g, s, who, cards)
    pass_all(g, s)
    assert kind(s) == D.BID and seat(s) == 0
    return g, s


# --- the parameter


@pytest.mark.parametrize(("value", "canonical", "array"), [
    ("0", "0", [0] * 12),
    (ZEROS, "0", [0] * 12),
    ("3", "3", [3] * 12),
    (_points((0, 4), (11, -2)), _points((0, 4), (11, -2)), [4] + [0] * 10 + [-2]),
    ([1] * 12, "1", [1] * 12),
    (" 2 / 2/2/2/2/2/2/2/2/2/2/-20", "2/2/2/2/2/2/2/2/2/2/2/-20", [2] * 11 + [-20]),
])
def test_CAP_VAR_1_item_points_are_read_into_their_canonical_form(value, canonical, array):
    params = Params.from_dict({"item_points": value})
    assert params.item_points == canonical
    assert params.to_array()[PR_ITEM_POINTS: PR_ITEM_POINTS + 12].tolist() == array


def test_CAP_VAR_1_the_default_is_the_rulebook_game():
    assert make_game("capitol", item_points=ZEROS).id == "capitol(n_players=4)"
    assert make_game("capitol(item_points=0)").id == "capitol(n_players=4)"
    changed = make_game("capitol", n_players=3, item_points=_points((2, 5)))
    assert make_game(changed.id).id == changed.id  # the id round-trips


@pytest.mark.parametrize("value", ["1/2", "21", "-21", ZEROS + "/0", "abc", "1.5", "", None])
def test_CAP_VAR_1_bad_item_points_give_one_line_errors(value):
    with pytest.raises(GameIdError) as info:
        make_game("capitol", item_points=value)
    message = str(info.value)
    assert "\n" not in message and repr(value) in message
    assert message.startswith("item_points must be one integer -20..20 for every item or 12 joined by '/'")


# --- the rule


def test_CAP_VAR_1_a_won_item_pays_its_item_points_to_the_winner_at_once():
    hands = [[stone(6), roof(1)], [permit(0, 5)], [stone(2)]]
    g, s = _auction_ready(3, 46, hands, item_points=_points((0, 4), (1, 9)))
    log = g.new_log()
    bid(g, s, 0, [stone(6)], log)
    bid(g, s, 1, [permit(0, 5)], log)
    bid(g, s, 2, [stone(2)], log)
    assert field(g, s, "winner")[0] == 0
    assert field(g, s, "score")[:3].tolist() == [4, 0, 0]  # at once, before the item is placed
    assert field(g, s, "pts_item")[:3].tolist() == [4, 0, 0]
    assert field(g, s, "item_points")[0] == 4  # the item's payoff in the records
    assert ev_rows(log, "win")[0, 5] == 4


def test_CAP_VAR_1_an_item_nobody_wins_pays_nobody():
    g, s = _auction_ready(3, 48, item_points="7")
    stop_all_bids(g, s)
    assert field(g, s, "winner")[0] == -1
    assert field(g, s, "score")[:3].tolist() == [0, 0, 0] and field(g, s, "pts_item")[:3].tolist() == [0, 0, 0]


def test_CAP_VAR_1_item_points_count_for_a_later_tied_bid():
    # CAP-AUCTION-7 reads the score: seat 0's -3 for item 0 makes it the lower score in auction 1's tie
    hands = [[stone(6), stone(4), roof(1)], [stone(3), stone(4), roof(2)], []]
    g, s = _auction_ready(3, 47, hands, item_points=_points((0, -3)))
    bid(g, s, 0, [stone(6)])
    bid(g, s, 1, [stone(3)])
    while kind(s) == D.PLACE:
        do(g, s, g.decision(s).actions[0])
    assert int(s[S.AUCTION]) == 1 and field(g, s, "score")[0] == -3
    bid(g, s, 0, [stone(4)])
    bid(g, s, 1, [stone(4)])
    assert field(g, s, "winner")[1] == 0 and field(g, s, "tie_wins")[0] == 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_CAP_VAR_1_the_score_sheet_and_records_sum_to_the_final_score_under_the_lever(n):
    g = make_game("capitol", n_players=n, item_points=_points((0, 5), (2, -4), (7, 3), (11, 10)))
    chance = np.array([game_seeds(200 + i).chance for i in range(6)], dtype=np.uint64)
    streams = np.array([game_seeds(200 + i).strategy for i in range(6)], dtype=np.uint64)
    states = play_batch(g, [RandomStrategy()], np.zeros((6, n), np.int64), chance, streams)
    records = g.records(states)
    profile = g.profile
    assert "pts_item" in profile.category_columns and set(records) == set(profile.records)
    column = lambda key: np.asarray(records[key].to_numpy(zero_copy_only=False), dtype=np.int64)  # noqa: E731
    total = column("start_points") + sum(column(c) for c in profile.category_columns)
    assert (total == column("final_points")).all() and column("pts_item").any()
    for state in states:
        result = g.result(state)
        assert "items" in result.categories
        assert (sum(result.categories.values()) == result.final_score).all()


def test_CAP_VAR_1_the_rulebook_game_keeps_its_score_sheet_and_categories():
    g = game(3)
    assert "pts_item" not in g.profile.category_columns and "pts_item" in g.profile.records
    assert "items" not in g.score_sheet(fresh(g, 1))


# --- the component choice (D2, CAP-AUCTION-3)


def test_the_profile_declares_the_item_choice():
    g = game(3)
    choice = g.profile.choice()
    assert choice.attribution == "items" and choice.decisions == ("bid",) and choice.payout_unit == "points"
    assert supports(g, ComponentChoices) and g.profile.attribution("items") is not None
    assert round_trip(g.profile) == g.profile


def test_a_first_bid_table_goes_for_the_item_under_auction_or_lets_it_go():
    g = game(3)
    s = fresh(g, 5)
    to_auction(g, s, 1)
    table = g.decision(s)
    comps = g.choice_components(s, table)
    assert comps.shape == (len(table), 1) and comps.dtype == np.int64
    adds = table.actions[:, D.A_OP] == D.OP_ADD
    assert adds.any() and (~adds).any()
    assert (comps[adds, 0] == 1).all() and (comps[~adds, 0] == -1).all()


def test_a_later_bid_table_of_the_same_auction_is_no_component_choice():
    g = game(3)
    s = fresh(g, 5)
    to_auction(g, s, 0)
    who = seat(s)
    add = next(r for r in g.decision(s).actions if r[D.A_OP] == D.OP_ADD)
    do(g, s, add)
    assert kind(s) == D.BID and seat(s) == who  # the same seat adds its next card
    assert g.choice_components(s, g.decision(s)) is None
    do(g, s, act(D.BID, D.OP_STOP))
    next_seat = g.decision(s)  # the next seat's first bid is a choice again
    assert next_seat.seat != who and g.choice_components(s, next_seat) is not None


def test_a_build_table_is_no_component_choice():
    g = game(3)
    s = fresh(g, 5)
    assert kind(s) == D.BUILD and g.choice_components(s, g.decision(s)) is None


# --- the payout hooks


def test_payout_reads_item_points_and_with_payout_changes_one_item():
    g = make_game("capitol", n_players=3, item_points=_points((4, 2)))
    assert [g.payout(i) for i in range(12)] == [0, 0, 0, 0, 2] + [0] * 7
    h = g.with_payout(0, -6)
    assert [h.payout(i) for i in range(12)] == [-6, 0, 0, 0, 2] + [0] * 7
    assert g.payout(0) == 0  # the game itself is unchanged
    assert h.board_table is not None and (h.board_table == g.board_table).all()
    with pytest.raises(ValueError):
        g.payout(12)
    with pytest.raises(GameIdError):
        g.with_payout(0, 21)


def test_with_payout_changes_what_winning_the_item_scores():
    hands = [[stone(6), roof(1)], [permit(0, 5)], [stone(2)]]
    scores = {}
    for payout in (0, 8):
        g = game(3).with_payout(0, payout)
        s = fresh(g, 46)
        for who, cards in enumerate(hands):
            set_hand(g, s, who, cards)
        pass_all(g, s)
        bid(g, s, 0, [stone(6)])
        bid(g, s, 1, [permit(0, 5)])
        bid(g, s, 2, [stone(2)])
        scores[payout] = field(g, s, "score")[:3].tolist()
    assert scores == {0: [0, 0, 0], 8: [8, 0, 0]}


def test_with_payout_rollouts_play_with_the_new_payout():
    g = game(3)
    s = fresh(g, 5)
    to_auction(g, s, 0)
    table = g.decision(s)
    observation = g.observe(s, table.seat)
    greedy = make_strategy("greedy", g).compiled_policy(g)
    policies = [greedy] * 3
    outcomes = {}
    for payout in (0, 20):
        variant = g.with_payout(0, payout)
        rng = np.array([12345], dtype=np.uint64)
        outcomes[payout] = variant.rollout_outcomes(observation, table.actions.copy(), 4, rng, policies)[1]
    assert outcomes[0].shape == outcomes[20].shape and (outcomes[0] != outcomes[20]).any()


def test_CAP_VAR_1_bidders_see_what_the_item_pays_at_once():
    """The bid rows' item_points (and worth_gap) count the lever's points, so a seat bids for what
    the item pays; with the rulebook's 0 the table is the rulebook game's."""
    import numpy as np
    from bgsim.sim import game_seeds, make_game

    def first_bid(game):  # the same first rows in both games up to the first bid: the lever changes nothing before
        state = game.new_state(game_seeds(4))
        while game.decision(state).kind_name != "bid":
            game.step(state, 0)
        return game.decision(state)

    a = first_bid(make_game("capitol", n_players=3))
    b = first_bid(make_game("capitol", n_players=3, item_points=5))
    adds = a.column("bid_after") > 0
    assert adds.any()
    assert np.array_equal(b.column("item_points")[adds], a.column("item_points")[adds] + 5)
    assert np.array_equal(b.column("worth_gap")[adds], a.column("worth_gap")[adds] + 15)


def test_an_item_taken_off_the_track_is_not_auctioned_and_the_next_one_is():
    """The ablation of a component-value study takes an auction item off the track at the deal
    (CAP-AUCTION-1 then skips it): nobody bids for it, wins it or places it, and the next item of
    the track is auctioned in its place in the order."""
    g = game(3)
    s = fresh(g, 4)
    assert g.dealt_components(s[None]).all()
    ablated, replacement = g.ablate(s[None], 1, np.zeros(1))
    assert replacement.tolist() == [-1] and (s[S.WINNER + 1] == -2)  # the dealt state is left alone
    s = ablated[0]
    assert g.dealt_components(s[None])[0].tolist() == [c != 1 for c in range(S.AUCTIONS)]
    log = g.new_log()
    to_auction(g, s, 0, log)
    stop_all_bids(g, s, log)
    drive(g, s, lambda x: kind(x) == D.BID, log)
    assert int(s[S.AUCTION]) == 2  # item 1 had no auction
    removed = ev_rows(log, "removed")
    assert removed[:, 2].tolist() == [0, 1] and removed[:, 3].tolist() == [1, 3]  # 0: nobody bid; 1: off the track
    assert int(s[S.WINNER + 1]) == -1 and int(s[S.PLACED + 1]) == -1
    assert "taken off the track before the game: no auction" in g.trace_text(s, log, game_seeds(4), ["x"] * 3)
