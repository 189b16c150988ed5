"""Pluggable players. Ids look like ``carpe_diem/greedy``, ``greedy(vp=12)`` or ``random``.

A short id (``greedy``) is looked up for the game at hand; ``random`` works for every game.
Parameters in brackets override the strategy's feature weights.
"""

from collections.abc import Callable
from dataclasses import dataclass

from bgsim.sim.errors import BgsimError, StrategyError
from bgsim.sim.registry import closest_match, did_you_mean, parse_id

__all__ = ["available_strategies", "make_strategy", "register_strategy", "strategy_rows"]


@dataclass(frozen=True)
class StrategyEntry:
    game: str  # game name, or "*" for every game
    name: str
    factory: Callable  # factory(game, **params) -> Strategy
    summary: str


_STRATEGIES: dict[tuple[str, str], StrategyEntry] = {}


def register_strategy(game: str, name: str, factory: Callable, summary: str) -> None:
    _STRATEGIES[(game, name)] = StrategyEntry(game, name, factory, summary)


def available_strategies(game_name: str) -> list[StrategyEntry]:
    _load_builtin()
    return [e for (g, _), e in sorted(_STRATEGIES.items()) if g in (game_name, "*")]


def make_strategy(strategy_id: str, game):
    """The strategy for ``strategy_id`` playing ``game``; a StrategyError for unknown ids."""
    _load_builtin()
    text = strategy_id.strip()
    prefix, _, rest = text.partition("/")
    prefixed = bool(rest) and prefix.strip().isidentifier()  # not a slash inside file='dir/my.toml'
    if prefixed:
        prefix = prefix.strip()
        if prefix != game.name:
            raise StrategyError(f"strategy {strategy_id!r} is for {prefix!r}, not {game.name!r}"
                                f"{did_you_mean(prefix, [game.name])}")
        text = rest
    try:
        name, params = parse_id(text)
    except BgsimError:
        raise StrategyError(f"strategy id {strategy_id!r} is not of the form name or name(key=value, ...)") from None
    entry = _STRATEGIES.get((game.name, name)) or _STRATEGIES.get(("*", name))
    if entry is None:
        names = [e.name for e in available_strategies(game.name)]
        best = closest_match(name, names)
        typed = f"{game.name}/{best}" if prefixed else best  # suggested in the form it was typed
        hint = f"; did you mean {typed!r}?" if best else ""
        raise StrategyError(f"unknown strategy {strategy_id!r} for {game.name} (known: {', '.join(names)}){hint}")
    return entry.factory(game, **params)


def strategy_rows(game) -> list[tuple[str, str, dict[str, int]]]:
    """(name, description, non-zero weights by feature) of every strategy for ``game``; a
    strategy whose weights come from its id (``weights``) or that has none lists no weights."""
    rows = []
    for entry in available_strategies(game.name):
        weights = {}
        if entry.name != "weights":
            strategy = entry.factory(game)
            values = getattr(strategy, "weights", None)
            if values is not None:
                weights = {n: int(w) for n, w in zip(game.feature_names, values, strict=True) if w != 0}
        rows.append((entry.name, entry.summary, weights))
    return rows


def _load_builtin() -> None:
    """Register ``random`` (every game), then import each registered game's strategies part (its
    entry's ``parts.strategies``), which registers the game's own strategies."""
    from bgsim.sim.registry import available_games

    if ("*", "random") not in _STRATEGIES:
        from bgsim.strategies.base import RandomStrategy

        def _random(game, **params):
            if params:
                raise StrategyError(f"random takes no parameters, got {', '.join(params)}")
            return RandomStrategy()

        register_strategy("*", "random", _random, "uniform choice among the legal actions")

    for name, entry in available_games(unlisted=True).items():
        if name not in _LOOKED_FOR:
            entry.parts.load("strategies")
            _LOOKED_FOR.add(name)


_LOOKED_FOR: set[str] = set()  # games whose strategies part was imported (or that declare none)
