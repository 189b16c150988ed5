"""Strategies for every game."""

from bgsim.sim.errors import StrategyError
from bgsim.strategies import register_strategy
from bgsim.strategies.base import RandomStrategy


def _random(game, **params):
    if params:
        raise StrategyError(f"random takes no parameters, got {', '.join(params)}")
    return RandomStrategy()


register_strategy("*", "random", _random, "uniform choice among the legal actions")
