"""Strategies for every game."""

from sim.errors import StrategyError
from strategies import register_strategy
from strategies.base import RandomStrategy


def _random(game, **params):
    if params:
        raise StrategyError(f"random takes no parameters, got {', '.join(params)}")
    return RandomStrategy()


register_strategy("*", "random", _random, "uniform choice among the legal actions")
