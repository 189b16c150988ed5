"""Game registry: ``make_game("carpe_diem(n_players=3, full_loop=bread_else_stay)")``.

An id is a registered name, optionally followed by ``(key=value, ...)``. Values are Python
literals (``3``, ``0.5``, ``'text'``), ``true`` / ``false``, or bare words, which are read as
strings. Paths with slashes must be quoted.
"""

import ast
from typing import Any

from bgsim.sim.errors import GameIdError, closest_match, did_you_mean
from bgsim.sim.game_entry import GameEntry

__all__ = ["register", "make_game", "available_games", "parse_id", "player_counts", "parameter_defaults",
           "parameter_names", "closest_match", "did_you_mean", "GameEntry"]

_GAMES: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> None:
    """Add a game that does not live under ``sim/games/`` (a game of one's own, with its own
    parameter table)."""
    _GAMES[entry.name] = entry


def available_games(unlisted: bool = False) -> dict[str, GameEntry]:
    """Registered games by name; ``unlisted`` adds the games kept for the test suite."""
    _load_builtin_games()
    ordered = sorted(_GAMES.items(), key=lambda item: (item[1].order, item[0]))
    return {name: entry for name, entry in ordered if entry.listed or unlisted}


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
    entry = _entry(name)
    params.update(overrides)
    try:
        return entry.factory(**params)
    except GameIdError as exc:  # name the parameter a misspelt one was probably meant to be
        unknown = [key for key in params if repr(key) in str(exc) and key not in parameter_names(name)]
        hinted = "did you mean" in str(exc)  # a game with a parameter table names it itself
        hint = did_you_mean(unknown[0], parameter_names(name)) if unknown and not hinted else ""
        if not hint:
            raise
        raise GameIdError(f"{exc}{hint}") from None


def player_counts(name: str) -> tuple[int, ...]:
    """The player counts game ``name`` is for, as its parameter table declares them."""
    return _entry(name).player_counts


def parameter_defaults(name: str) -> dict[str, Any]:
    """Each parameter's default value, from the game's parameter table."""
    return _entry(name).parameter_defaults


def parameter_names(name: str) -> tuple[str, ...]:
    """The parameter names of game ``name``, in table order."""
    return _entry(name).parameters


def _entry(name: str) -> GameEntry:
    games = available_games(unlisted=True)
    if name not in games:
        listed = [g for g, entry in games.items() if entry.listed]
        known = ", ".join(listed) or "none"
        raise GameIdError(f"unknown game {name!r} (known: {known}){did_you_mean(name, listed)}")
    return games[name]


def _load_builtin_games() -> None:
    from bgsim.sim.games import BUILTIN

    for entry in BUILTIN:
        _GAMES.setdefault(entry.name, entry)
