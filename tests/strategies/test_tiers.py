"""Tier equivalence (design.md, three strategy tiers): the same weights give the same games in
the compiled loop (tier 1), as a vectorised ``score`` over lockstep batches (tier 2) and as a
per-decision ``choose`` (tier 3), for every registered weight strategy."""

import numpy as np
import pytest
from bgsim.sim import make_game
from bgsim.sim.batch import play_batch
from bgsim.sim.seeding import block_key, deal_seeds
from bgsim.strategies import available_strategies, make_strategy

WEIGHT_STRATEGIES = [e.name for e in available_strategies("carpe_diem")
                     if e.name not in ("random", "search", "strong", "weights")]


def test_there_are_weight_strategies_to_compare():
    assert "greedy" in WEIGHT_STRATEGIES and len(WEIGHT_STRATEGIES) >= 1


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_every_weight_strategy_plays_identical_games_in_all_three_tiers(n_players):
    game = make_game("carpe_diem", n_players=n_players)
    strategies = [make_strategy(name, game) for name in WEIGHT_STRATEGIES]
    n_games = max(3, len(strategies))
    chance, strategy_seeds = deal_seeds(block_key(21, n_players), np.arange(n_games))
    # every strategy meets the others: game g seats strategies g, g+1, ... (mod K)
    seat_strategy = (np.arange(n_games)[:, None] + np.arange(n_players)[None, :]) % len(strategies)
    finals = {tier: play_batch(game, strategies, seat_strategy, chance, strategy_seeds, tier=tier).copy()
              for tier in ("compiled", "vectorised", "per_game")}
    assert (finals["compiled"] == finals["vectorised"]).all()
    assert (finals["compiled"] == finals["per_game"]).all()
    assert (game.field(finals["compiled"][0], "phase") == 0).all()  # the games were played out
