"""D1, ARK-TURN-2/3: the compiled loops choose part 1 for a compiled policy without writing its
table (``kernels.part1.direct_part1``); the choice must be the row the table and the policy give,
under any weights and either reading of mirror images (AMB-6) and the castle target (AMB-3)."""

import numpy as np
import pytest
from bgsim.sim import make_game
from bgsim.sim.api import POLICY_RANDOM, POLICY_WEIGHTS
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia.features import N_FEATURES
from bgsim.sim.games.arkadia.kernels.part1 import direct_part1, new_part1_scratch
from bgsim.sim.policy import first_best_row
from bgsim.sim.rng import below
from bgsim.sim.seeding import game_seeds
from hypothesis import given, settings
from hypothesis import strategies as st

SPECS = ["arkadia", "arkadia(allow_mirror=true,castle_is_worker_target=true)"]


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), n_players=st.integers(2, 4),
       weights=st.lists(st.integers(-4, 4), min_size=N_FEATURES, max_size=N_FEATURES))
def test_d1_the_direct_part1_choice_is_the_row_the_table_and_the_policy_give(spec, seed, n_players, weights):
    game = make_game(spec, n_players=n_players)
    t, p = game.rules_args
    w = np.array(weights, dtype=np.int64)
    state = game.new_state(game_seeds(seed))
    table = game.decision(state)
    scratch, action = new_part1_scratch(), np.empty(len(game.action_fields), dtype=np.int32)
    streams = np.array([seed + i for i in range(n_players)], dtype=np.uint64)
    checked = 0
    while not game.is_over(state) and checked < 60:
        if table.kind == d.PART1:
            before = state.copy()
            assert direct_part1(state, t, p, POLICY_WEIGHTS, w, streams, scratch, action)
            assert (action == table.actions[first_best_row(table.features, w)]).all()
            drawn, expected = streams.copy(), streams.copy()
            assert direct_part1(state, t, p, POLICY_RANDOM, w, drawn, scratch, action)
            assert (action == table.actions[below(expected, table.seat, len(table.actions))]).all()
            assert (drawn == expected).all() and (state == before).all()  # one draw, nothing changed
            checked += 1
        table = game.step(state, int(below(streams, 0, len(table.actions))))  # play on at random
    assert checked > 0
