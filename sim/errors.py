"""User-facing errors: one line that says what is wrong; the CLI exits with status 2."""

__all__ = ["BgsimError", "DataError", "GameIdError", "StrategyError", "IllegalActionError"]


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
