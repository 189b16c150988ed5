"""Every registered strategy plays only legal actions and is deterministic given its stream
(property test over random reachable states of 2, 3 and 4 players)."""

from functools import cache

import numpy as np
from bgsim.sim import make_game
from bgsim.strategies import available_strategies, make_strategy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.strategies.reachable import random_reachable_state

# A small search budget keeps the property test quick; the search code path is the same.
TEST_PARAMS = {"search": "(width=3, rollouts=2)"}


@cache
def _game(n_players: int):
    return make_game("carpe_diem", n_players=n_players)


@cache
def _strategy(name: str, n_players: int):
    return make_strategy(name + TEST_PARAMS.get(name, ""), _game(n_players))


STRATEGY_NAMES = [entry.name for entry in available_strategies("carpe_diem")]


def test_the_registry_lists_the_heuristics_and_the_search_player():
    assert {"random", "greedy", "search"} <= set(STRATEGY_NAMES)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n_players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**31), steps=st.integers(0, 400),
       stream_seed=st.integers(0, 2**63))
def test_every_strategy_chooses_a_legal_row_deterministically(n_players, seed, steps, stream_seed):
    game = _game(n_players)
    state = random_reachable_state(game, seed, steps)
    for name in STRATEGY_NAMES:
        strategy = _strategy(name, n_players)
        table = game.decision(state)
        before = state.copy()  # after decision(): its union-find lookups may compress paths
        stream = np.array([stream_seed], dtype=np.uint64)
        row = strategy.choose(table, stream)
        assert 0 <= row < len(table), name
        chosen = table.actions[row].copy()
        assert (state == before).all(), f"{name} changed the game state"
        again = strategy.choose(game.decision(state), np.array([stream_seed], dtype=np.uint64))
        assert again == row, f"{name} is not deterministic given its stream"
        after = state.copy()
        game.apply(after, chosen, validate=True)  # raises IllegalActionError if not legal
