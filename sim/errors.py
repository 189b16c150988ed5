"""User-facing errors: one line that says what is wrong; the CLI exits with status 2."""

import difflib
from collections.abc import Iterable

__all__ = ["BgsimError", "DataError", "GameIdError", "StrategyError", "IllegalActionError", "RunawayGameError",
           "closest_match",
           "did_you_mean"]


class BgsimError(Exception):
    """Bad input from the user (spec, id, data file, option). Its message is one line."""

    exit_code = 2


class GameIdError(BgsimError):
    """An unknown game, an unknown parameter or a parameter value outside its range."""


class DataError(BgsimError):
    """A component data file that is missing, malformed or violates a rule constraint."""


class StrategyError(BgsimError):
    """An unknown strategy id or malformed strategy parameters."""


class RunawayGameError(BgsimError):
    """A game that did not end within its game's bound on decisions (``RulesKernels.max_decisions``):
    rules or parameters under which seats can play forever. ``of_game`` names the game and its seed."""

    def __init__(self, game_id: str, limit: int, label: str = "a game"):
        super().__init__(f"{game_id} {label} did not end within {limit} decisions")
        self.game_id, self.limit = game_id, limit

    def of_game(self, number: int, seed) -> "RunawayGameError":
        """The same error for game ``number`` with seed ``seed``."""
        return RunawayGameError(self.game_id, self.limit, f"game {number} (seed {seed})")


class IllegalActionError(RuntimeError):
    """A strategy chose an action outside the legal set (a bug, not bad user input)."""


def closest_match(word: str, known: Iterable[str]) -> str | None:
    """The known word a misspelt ``word`` was most likely meant to be (difflib), or None."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``"; did you mean 'greedy'?"`` for the known word closest to a misspelt one, else ``""``."""
    best = closest_match(word, known)
    return f"; did you mean {best!r}?" if best else ""
