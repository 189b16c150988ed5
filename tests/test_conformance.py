"""The common game interface, checked on every registered game and player count."""

import numpy as np
import pytest
from bgsim.sim import available_games, game_seeds, make_game
from bgsim.sim.api import Game
from bgsim.sim.play import play_game
from bgsim.sim.seeding import GameSeeds
from bgsim.strategies import make_strategy

CASES = [(name, n) for name in available_games() for n in (2, 3, 4)] + [("carpe_diem", 1)]  # 1: solo, Anna


def _scoring_seats(game) -> int:
    """Seats in the result: the players', plus the automa's in a solo game."""
    return game.n_players + (1 if getattr(game, "solo", False) else 0)


@pytest.mark.parametrize(("name", "n_players"), CASES)
def test_game_follows_the_common_interface(name, n_players):
    game = make_game(name, n_players=n_players)
    assert isinstance(game, Game)
    assert game.id.startswith(f"{name}(") and f"n_players={n_players}" in game.id
    assert make_game(game.id).id == game.id  # the canonical id round-trips
    state = game.new_state(game_seeds(11))
    rng = np.array([99], dtype=np.uint64)
    from bgsim.sim.rng import below

    decisions = 0
    while not game.is_over(state):
        table = game.decision(state)
        assert len(table) >= 1
        assert table.features.shape[1] == len(game.feature_names)
        assert table.actions.shape[1] == len(game.action_fields)
        assert table.kind_name == game.decision_names[table.kind]
        assert 0 <= table.seat < n_players
        assert len({tuple(row) for row in table.actions.tolist()}) == len(table)  # one row per action
        game.apply(state, table.actions[int(below(rng, 0, len(table)))].copy(), validate=True)
        decisions += 1
    result = game.result(state)
    assert sorted(result.rank.tolist()) == list(range(1, _scoring_seats(game) + 1))
    assert (sum(result.categories.values()) == result.final_vp).all()
    assert decisions > 0


@pytest.mark.parametrize(("name", "n_players"), CASES)
def test_same_seeds_same_game_and_chance_seed_fixes_the_deal(name, n_players):
    game = make_game(name, n_players=n_players)
    seats = [make_strategy("random", game)] * n_players
    a = play_game(game, seats, GameSeeds(5, 6))
    b = play_game(game, seats, GameSeeds(5, 6))
    c = play_game(game, seats, GameSeeds(5, 7))
    assert (a.state == b.state).all()
    assert (game.new_state(GameSeeds(5, 6)) == game.new_state(GameSeeds(5, 7))).all()
    assert not (a.state == c.state).all()
