"""What a seat may see (CD-INFO): ``observe`` hides the undealt tile order, the face-down pass-1
depot (AMB-14), the fountain deck and the opponents' fountain cards, Anna's face-down automa
cards and her dice to come; candidate tables and the search player see nothing else."""

import numpy as np
import pytest
from bgsim.sim import make_game
from bgsim.sim.api import (
    CompiledPlay,
    Determinisation,
    Game,
    LockstepBatches,
    Observation,
    Stepping,
    supports,
)
from bgsim.sim.games.base import GameBase
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.games.carpe_diem.constants import N_DARK, N_FOUNTAIN_CARDS, N_LIGHT, N_SEALS
from bgsim.strategies import make_strategy

from tests.strategies.reachable import random_reachable_state

STEPS = (0, 3, 40, 90, 160, 250, 330)


def _rng(seed: int) -> np.ndarray:
    return np.array([seed], dtype=np.uint64)


def _states(game, seeds=range(1, 8)):
    for seed, steps in zip(seeds, STEPS * 3, strict=False):
        yield random_reachable_state(game, seed, steps)


def _value(game, state, name) -> int:
    return int(game.field(state, name)[0])


def _table(game, state):
    """(features, actions) of the pending decision, copied out of the game's buffers."""
    table = game.decision(state)
    return table.features.copy(), table.actions.copy()


def _same_for(game, a, b, seat) -> bool:
    return game.observe(a, seat) == game.observe(b, seat)


def _deck_places(game, state) -> list[int]:
    """Indices into the fountain deck field of the cards in the deck, top first."""
    head, count = _value(game, state, "fdeck_head"), _value(game, state, "fdeck_count")
    return [(head + i) % N_FOUNTAIN_CARDS for i in range(count)]


def _assert_hidden(game, state, other, hidden_from):
    """``other`` differs from ``state`` only in what the seats ``hidden_from`` cannot see."""
    assert (other != state).any()
    for seat in hidden_from:
        assert _same_for(game, state, other, seat)
    seat = _value(game, state, "seat")
    if seat in hidden_from:  # the deciding seat's table is the same
        for x, y in zip(_table(game, state), _table(game, other), strict=True):
            assert (x == y).all()


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_cd_info_4_the_order_of_the_undealt_tiles_is_hidden(n_players):
    game = make_game("carpe_diem", n_players=n_players)
    swapped = 0
    for state in _states(game):
        pass_no = _value(game, state, "pass_no")
        first = 28 * max(pass_no, 1)
        dark_stop = N_DARK if pass_no < 4 else 0  # pass 4 deals the rest of the dark tiles
        for name, start, stop in (("light_stock", first, N_LIGHT), ("dark_stock", N_SEALS, dark_stop)):
            if stop - start < 2:
                continue
            other = state.copy()
            stock = game.field(other, name)
            stock[start], stock[stop - 1] = stock[stop - 1], stock[start]
            _assert_hidden(game, state, other, range(n_players))
            swapped += 1
    assert swapped >= 5


def test_amb_14_the_pass_1_depot_is_hidden_until_the_patricians_are_placed():
    game = make_game("carpe_diem", n_players=3)
    state = random_reachable_state(game, 4, 1)  # seat 1 places its patrician; the depots lie face down
    assert _value(game, state, "revealed") == 0 and _value(game, state, "pass_no") == 0
    other = state.copy()
    depot, stock = game.field(other, "depot"), game.field(other, "light_stock")
    depot[0, 0], stock[0], stock[50] = stock[50], stock[50], stock[0]  # an undealt tile swapped into depot 0
    _assert_hidden(game, state, other, range(3))
    revealed = random_reachable_state(game, 4, 3)  # every patrician placed: the tiles are face up
    assert _value(game, revealed, "revealed") == 1
    other = revealed.copy()
    depot, stock = game.field(other, "depot"), game.field(other, "light_stock")
    depot[0, 0], stock[0], stock[50] = stock[50], stock[50], stock[0]
    assert not _same_for(game, revealed, other, 0)


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_cd_info_2_an_opponents_fountain_cards_and_the_deck_are_hidden_but_ones_own_are_not(n_players):
    game = make_game("carpe_diem", n_players=n_players)
    swapped = 0
    for state in _states(game, range(1, 22)):
        held, counts = game.field(state, "fountain_held"), game.field(state, "fountain_n")
        places = _deck_places(game, state)
        for holder in range(n_players):
            if counts[holder] == 0 or not places:
                continue
            other = state.copy()
            o_held, deck = game.field(other, "fountain_held"), game.field(other, "fountain_deck")
            o_held[holder, 0], deck[places[-1]] = deck[places[-1]], held[holder, 0]
            _assert_hidden(game, state, other, [s for s in range(n_players) if s != holder])
            assert not _same_for(game, state, other, holder)  # CD-INFO-2: the holder knows its cards
            swapped += 1
    assert swapped >= 5


def test_cd_info_2_the_cards_an_opponent_has_just_drawn_are_hidden_from_the_others():
    game = make_game("carpe_diem", n_players=3)
    found = 0
    for seed in range(1, 200):
        state = random_reachable_state(game, seed, 40 + seed)
        if _value(game, state, "phase") != D.FOUNTAIN or not _deck_places(game, state):
            continue
        drawer = _value(game, state, "seat")
        other = state.copy()
        drawn, deck = game.field(other, "fountain_drawn"), game.field(other, "fountain_deck")
        place = _deck_places(game, state)[0]
        drawn[0], deck[place] = deck[place], drawn[0]
        _assert_hidden(game, state, other, [s for s in range(3) if s != drawer])
        assert not _same_for(game, state, other, drawer)
        found += 1
        if found == 3:
            break
    assert found > 0


def test_cd_info_4_annas_face_down_automa_cards_and_her_dice_to_come_are_hidden():
    game = make_game("carpe_diem", n_players=1)
    changed = 0
    for state in _states(game):
        pass_no, draws = _value(game, state, "pass_no"), _value(game, state, "anna_rand_next")
        other = state.copy()
        deck, rand = game.field(other, "anna_deck"), game.field(other, "anna_rand")
        deck[pass_no], deck[7] = deck[7], deck[pass_no]
        rand[draws:] = (rand[draws:] + 1) % 720720  # other dice to come
        rand[:draws] += 1  # other raw values behind the rolls already seen
        _assert_hidden(game, state, other, [0])
        changed += 1
    assert changed == len(STEPS)


@pytest.mark.parametrize("n_players", [1, 2, 3, 4])
def test_cd_info_1_what_a_seat_sees_changes_its_observation(n_players):
    game = make_game("carpe_diem", n_players=n_players)
    state = random_reachable_state(game, 3, 90)
    for field in ("coins", "vp", "bread"):  # CD-INFO-1: public, for every seat
        other = state.copy()
        game.field(other, field)[0] += 1
        assert all(not _same_for(game, state, other, seat) for seat in range(n_players))
    other = state.copy()
    game.field(other, "cell_tile")[0, 0] = -1 if game.field(state, "cell_tile")[0, 0] >= 0 else 5
    assert not _same_for(game, state, other, 0)


@pytest.mark.parametrize("n_players", [1, 2, 3, 4])
def test_cd_info_a_determinisation_is_seen_exactly_as_the_observation_it_came_from(n_players):
    game = make_game("carpe_diem", n_players=n_players)
    for k, state in enumerate(_states(game)):
        seat = _value(game, state, "seat")
        observation = game.observe(state, seat)
        assert isinstance(observation, Observation) and observation.seat == seat
        truth = game.determinise(observation, _rng(k))
        assert game.observe(truth, seat) == observation
        for x, y in zip(_table(game, state), _table(game, truth), strict=True):
            assert (x == y).all()
        assert game.decision(state).observation == observation  # the table carries the same view


def test_cd_info_the_search_player_chooses_the_same_on_states_that_differ_only_in_hidden_parts():
    game = make_game("carpe_diem", n_players=3)
    search = make_strategy("search(width=3, rollouts=3)", game)
    compared = 0
    for state in _states(game, range(11, 18)):
        seat = _value(game, state, "seat")
        other = game.determinise(game.observe(state, seat), _rng(77))  # another hidden truth, same view
        if _value(game, state, "pass_no") < 4:  # and two undealt dark tiles swapped on top
            stock = game.field(other, "dark_stock")
            stock[N_SEALS], stock[N_DARK - 1] = stock[N_DARK - 1], stock[N_SEALS]
        assert (other != state).any()
        table = game.decision(state)
        if len(table) == 1:
            continue
        row = search.choose(table, _rng(5))
        assert search.choose(game.decision(other), _rng(5)) == row
        compared += 1
    assert compared >= 3


def test_a_finished_game_has_no_observation_on_its_table():
    from bgsim.sim import game_seeds
    from bgsim.sim.play import play_game

    game = make_game("carpe_diem", n_players=2)
    played = play_game(game, [make_strategy("greedy", game)] * 2, game_seeds(1))
    assert game.decision(played.state).observation is None


@pytest.mark.parametrize("n_players", [1, 2, 4])
def test_supports_reflects_the_capabilities_of_carpe_diem(n_players):
    game = make_game("carpe_diem", n_players=n_players)
    assert isinstance(game, Game) and isinstance(game, GameBase)
    for capability in (Stepping, CompiledPlay, LockstepBatches, Determinisation):
        assert supports(game, capability)

    class RulesOnly(GameBase):  # a game with no optional capability
        pass

    bare = RulesOnly.__new__(RulesOnly)
    assert not any(supports(bare, c) for c in (Stepping, CompiledPlay, LockstepBatches, Determinisation))
