"""Arkadia's component choice (the refill from the display, D3) and the building_points lever
(ARK-VAR-1): a lab lever, not a rule, that lets a building pay its placer gold at once by its
shape, so that a component-value study can look for the gold at which taking a card of a shape
from the display and the seat's best other take are even. The rulebook's game (all 0) is
unchanged: the golden playthroughs and the conformance suite check that."""

import bgsim.strategies.arkadia  # noqa: F401  (registers the game's strategies)
import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.api import ComponentChoices, supports
from bgsim.sim.batch import play_batch
from bgsim.sim.errors import GameIdError
from bgsim.sim.event_log import new_log
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.events import EV_BUILDING_GOLD, events
from bgsim.sim.games.arkadia.kernels.flow import apply_action
from bgsim.sim.games.arkadia.param_slots import PR_BUILDING_POINTS
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.play import play_game
from bgsim.sim.profile import round_trip
from bgsim.strategies import make_strategy
from bgsim.strategies.base import RandomStrategy

SHAPES = 7
BY_SHAPE = "1/2/3/4/5/6/7"  # shape i pays i + 1: the gold tells the shape
SITE = "4,6,wide"  # a fixed castle site, so the positions do not depend on the deal's site


def _game(n=3, **params):
    return make_game("arkadia", n_players=n, castle_placement=SITE, **params)


def _field(game, state, name) -> np.ndarray:
    return game.field(state, name)


def _first_build(game, seed=11):
    """A dealt game's state ((STATE_SIZE,) int32) and the first BUILD row of its first part 1,
    (N_ACTION_FIELDS,) int32, with the shape that row places."""
    state = game.new_state(game_seeds(seed))
    table = game.decision(state)
    assert table.kind == d.PART1
    row = next(r for r in table.actions if r[d.A_KIND] == d.DO_BUILD).copy()
    return state, row, int(game.card_shape[row[d.A_CARD]])


def _build(game, state, row) -> np.ndarray:
    """Apply the BUILD ``row`` to ``state`` in place; returns the events it wrote, (n, EVENT_WIDTH) int32."""
    log = new_log(game.event_capacity, game.event_width)
    apply_action(state, game.table, game.param_array, row.astype(np.int64), log)
    return events(log).copy()


def _refill(game, seed=11):
    """A dealt game after its first BUILD, at the refill (D3) that follows: the state and its table."""
    state, row, _ = _first_build(game, seed)
    game.apply(state, row)
    table = game.decision(state)
    while table.kind != d.REFILL:
        table = game.step(state, 0)
    return state, table


# --- the parameter


@pytest.mark.parametrize(("value", "canonical", "array"), [
    ("0", "0", [0] * 7),
    ("0/0/0/0/0/0/0", "0", [0] * 7),
    ("3", "3", [3] * 7),
    (BY_SHAPE, BY_SHAPE, [1, 2, 3, 4, 5, 6, 7]),
    ([-2] * 7, "-2", [-2] * 7),
    (" 20 /0/0/0/0/0/ -20", "20/0/0/0/0/0/-20", [20, 0, 0, 0, 0, 0, -20]),
])
def test_ARK_VAR_1_building_points_are_read_into_their_canonical_form(value, canonical, array):
    params = Params.from_dict({"building_points": value})
    assert params.building_points == canonical
    assert params.to_array()[PR_BUILDING_POINTS: PR_BUILDING_POINTS + SHAPES].tolist() == array


def test_ARK_VAR_1_the_default_is_the_rulebook_game():
    assert make_game("arkadia", building_points="0/0/0/0/0/0/0").id == "arkadia(n_players=3)"
    assert make_game("arkadia(building_points=0)").id == "arkadia(n_players=3)"
    changed = make_game("arkadia", n_players=2, building_points="0/0/0/4/0/0/0")
    assert make_game(changed.id).id == changed.id  # the id round-trips


@pytest.mark.parametrize("value", ["1/2", "21", "-21", BY_SHAPE + "/0", "abc", "1.5", "", None])
def test_ARK_VAR_1_bad_building_points_give_one_line_errors(value):
    with pytest.raises(GameIdError) as info:
        make_game("arkadia", building_points=value)
    message = str(info.value)
    assert "\n" not in message and repr(value) in message
    assert message.startswith("building_points must be one integer -20..20 for every shape or 7 joined by '/'")


# --- the rule


def test_ARK_VAR_1_a_placed_building_pays_its_shapes_gold_to_its_placer_at_once():
    g = _game(building_points=BY_SHAPE)
    state, row, shape = _first_build(g)
    seat = int(state[st.SEAT])
    cashed = _field(g, state, "gold").copy()
    log = _build(g, state, row)
    paid = [0] * 3
    paid[seat] = shape + 1
    assert _field(g, state, "gold_buildings")[:3].tolist() == paid
    assert (_field(g, state, "gold") == cashed).all()  # apart from the cashings
    gold_events = log[log[:, 0] == EV_BUILDING_GOLD]
    assert gold_events[:, 1:5].tolist() == [[seat, 0, shape, shape + 1]]  # seat, building, shape, gold


def test_ARK_VAR_1_the_rulebook_game_pays_nothing_and_logs_no_building_gold():
    g = _game()
    state, row, _ = _first_build(g)
    log = _build(g, state, row)
    assert not _field(g, state, "gold_buildings").any() and EV_BUILDING_GOLD not in log[:, 0]


def test_ARK_VAR_1_the_first_game_layout_pays_nobody():
    g = make_game("arkadia", intro_setup=True, building_points="5")
    state = g.new_state(game_seeds(1))
    assert int(state[st.N_BUILDINGS]) == 7 and not _field(g, state, "gold_buildings").any()


def test_ARK_VAR_1_the_buildings_gold_joins_the_final_gold():
    g = _game(building_points=BY_SHAPE)
    seats = [make_strategy("greedy", g)] * 3
    played = play_game(g, seats, game_seeds(5), log=True)
    gold = _field(g, played.state, "gold_buildings")[:3]
    totals = _field(g, played.state, "total")[:3]
    cashed = _field(g, played.state, "gold")[:3]
    assert gold.all() and (totals == cashed + gold).all()  # ARK-END-4: start gold 0
    text = played.game.trace_text(played.state, played.log, played.seeds, [s.id for s in seats])
    assert "gold at once for building" in text and "(ARK-VAR-1)" in text
    assert all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize("n", [2, 3, 4])
def test_ARK_VAR_1_the_score_sheet_and_records_sum_to_the_final_gold_under_the_lever(n):
    g = make_game("arkadia", n_players=n, building_points="2/0/-3/0/4/0/6", start_gold="equal")
    chance = np.array([game_seeds(300 + i).chance for i in range(4)], dtype=np.uint64)
    streams = np.array([game_seeds(300 + i).strategy for i in range(4)], dtype=np.uint64)
    states = play_batch(g, [RandomStrategy()], np.zeros((4, n), np.int64), chance, streams)
    records = g.records(states)
    profile = g.profile
    assert "gold_buildings" in profile.category_columns and set(records) == set(profile.records)
    column = lambda key: np.asarray(records[key].to_numpy(zero_copy_only=False), dtype=np.int64)  # noqa: E731
    total = column("start_gold") + sum(column(c) for c in profile.category_columns)
    assert (total == column("final_gold")).all() and column("gold_buildings").any()
    for state in states:
        result = g.result(state)
        assert "buildings" in result.categories
        assert (sum(result.categories.values()) == result.final_score).all()


def test_ARK_VAR_1_the_rulebook_game_keeps_its_score_sheet_and_categories():
    g = _game()
    assert "gold_buildings" not in g.profile.category_columns and "gold_buildings" in g.profile.records
    assert list(g.score_sheet(g.new_state(game_seeds(1)))) == ["start", "cashed", "total", "rank"]


# --- the component choice (D3, ARK-PLACE-8)


def test_the_profile_declares_the_building_choice():
    g = _game()
    choice = g.profile.choice()
    assert choice.attribution == "buildings" and choice.decisions == ("refill",) and choice.payout_unit == "gold"
    assert choice.payout_unit == g.profile.score_unit
    assert supports(g, ComponentChoices) and g.profile.attribution("buildings") is not None
    assert round_trip(g.profile) == g.profile


def test_a_refill_takes_the_shape_of_each_display_card_and_none_from_the_deck():
    g = _game()
    state, table = _refill(g)
    comps = g.choice_components(state, table)
    assert comps.shape == (len(table), 1) and comps.dtype == np.int64
    slots = table.actions[:, d.A_SLOT]
    display = _field(g, state, "display")
    assert slots.tolist() == [0, 1, 2, -1]  # the three display cards, then the deck (ARK-PLACE-8)
    # ARK-PLACE-1: a card's shape is the building it places
    assert comps[:3, 0].tolist() == [int(g.table[st.T_CARD + 2 * display[i]]) for i in range(3)]
    assert comps[3, 0] == -1  # the deck's card is hidden


def test_a_refill_without_a_display_card_is_no_component_choice():
    g = _game()
    state, _ = _refill(g)
    display = _field(g, state, "display")
    _field(g, state, "card_loc")[display] = st.PLAYED  # AMB-4: the display may run empty
    display[:] = -1
    table = g.decision(state)
    assert table.kind == d.REFILL and table.actions[:, d.A_SLOT].tolist() == [-1]
    assert g.choice_components(state, table) is None


def test_part1_and_banner_tables_are_no_component_choice():
    g = _game()
    state = g.new_state(game_seeds(11))
    kinds = set()
    for _ in range(60):
        table = g.decision(state)
        if table.kind != d.REFILL:
            kinds.add(table.kind)
            assert g.choice_components(state, table) is None
        g.step(state, 0)
    assert {d.PART1, d.BANNER} <= kinds


# --- the payout hooks


def test_payout_reads_building_points_and_with_payout_changes_one_shape():
    g = _game(building_points="0/0/0/0/2/0/0")
    assert [g.payout(c) for c in range(11)] == [0, 0, 0, 0, 2, 0, 0] + [0] * 4  # seal families pay 0
    h = g.with_payout(0, -6)
    assert [h.payout(c) for c in range(SHAPES)] == [-6, 0, 0, 0, 2, 0, 0]
    assert g.payout(0) == 0  # the game itself is unchanged
    assert h.params.castle_placement == g.params.castle_placement and (h.table == g.table).all()
    with pytest.raises(ValueError):
        g.payout(11)
    with pytest.raises(ValueError):
        g.with_payout(7, 1)  # a seal family: no row takes it, the lever has no entry for it
    with pytest.raises(GameIdError):
        g.with_payout(0, 21)


def test_with_payout_changes_what_placing_that_shape_scores():
    base = _game()
    _, _, shape = _first_build(base)
    gold = {}
    for payout in (0, 8):
        g = base.with_payout(shape, payout)
        state, row, _ = _first_build(g)
        seat = int(state[st.SEAT])
        _build(g, state, row)
        gold[payout] = int(_field(g, state, "gold_buildings")[seat])
    assert gold == {0: 0, 8: 8}


def test_with_payout_rollouts_play_with_the_new_payout():
    g = _game()
    state, table = _refill(g)
    shape = int(g.choice_components(state, table).max())
    observation = g.observe(state, table.seat)
    greedy = make_strategy("greedy", g).compiled_policy(g)
    outcomes = {}
    for payout in (0, 10):
        variant = g.with_payout(shape, payout)
        rng = np.array([12345], dtype=np.uint64)
        outcomes[payout] = variant.rollout_outcomes(observation, table.actions.copy(), 2, rng, [greedy] * 3)[1]
    assert outcomes[0].shape == outcomes[10].shape and (outcomes[0] != outcomes[10]).any()
