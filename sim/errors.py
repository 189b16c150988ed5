"""User-facing errors: one line that says what is wrong; the CLI exits with status 2."""

import difflib
from collections.abc import Iterable

__all__ = ["BgsimError", "DataError", "GameIdError", "StrategyError", "IllegalActionError", "closest_match",
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
