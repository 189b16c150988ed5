"""Game registry: ``make_game("carpe_diem(n_players=3, full_loop=bread_else_stay)")``.

An id is a registered name, optionally followed by ``(key=value, ...)``. Values are Python
literals (``3``, ``0.5``, ``'text'``), ``true`` / ``false``, or bare words, which are read as
strings. Paths with slashes must be quoted.
"""

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bgsim.sim.errors import GameIdError

__all__ = ["register", "make_game", "available_games", "parse_id", "GameEntry"]


@dataclass(frozen=True)
class GameEntry:
    name: str
    factory: Callable[..., Any]  # factory(**params) -> Game; raises GameIdError on bad params
    summary: str


_GAMES: dict[str, GameEntry] = {}


def register(name: str, factory: Callable[..., Any], summary: str) -> None:
    _GAMES[name] = GameEntry(name, factory, summary)


def available_games() -> dict[str, GameEntry]:
    _load_builtin_games()
    return dict(sorted(_GAMES.items()))


def _literal(node: ast.expr, key: str, text: str) -> Any:
    if isinstance(node, ast.Name):
        return {"true": True, "false": False, "none": None}.get(node.id.lower(), node.id)
    try:
        return ast.literal_eval(node)
    except ValueError:
        raise GameIdError(f"game id {text!r}: value of {key!r} is not a literal") from None


def parse_id(text: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name(k=v, ...)"`` into the name and a dict of parameters."""
    source = text.strip()
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError:
        raise GameIdError(f"game id {text!r} is not of the form name or name(key=value, ...)") from None
    if isinstance(tree, ast.Name):
        return tree.id, {}
    if not isinstance(tree, ast.Call) or not isinstance(tree.func, ast.Name) or tree.args:
        raise GameIdError(f"game id {text!r} is not of the form name or name(key=value, ...)")
    params = {kw.arg: _literal(kw.value, str(kw.arg), text) for kw in tree.keywords}
    if None in params:
        raise GameIdError(f"game id {text!r}: '**' is not allowed")
    return tree.func.id, params


def make_game(game_id: str, **overrides: Any):
    """Build a game from an id string; keyword ``overrides`` win over parameters in the id."""
    name, params = parse_id(game_id)
    games = available_games()
    if name not in games:
        known = ", ".join(games) or "none"
        raise GameIdError(f"unknown game {name!r} (known: {known})")
    params.update(overrides)
    return games[name].factory(**params)


def _load_builtin_games() -> None:
    import bgsim.sim.games  # noqa: F401  (importing registers every built-in game)
