"""The ``bgsim`` command line. ``app`` holds the shared options and ``main``; each other module
registers its commands on it when imported here, in the order ``bgsim --help`` lists them."""

# isort: off
from bgsim.cli import runs  # noqa: F401  (games, strategies, play, run, simulate, tune, replay, tournament)
from bgsim.cli import studies  # noqa: F401  (seat-order, robustness, report, plan)
from bgsim.cli import difficulty  # noqa: F401  (difficulty, calibrate)
from bgsim.cli import components  # noqa: F401  (component-value)
from bgsim.cli import balance  # noqa: F401  (balance)
from bgsim.cli import train  # noqa: F401  (train)
from bgsim.cli import new_game  # noqa: F401  (new-game)
# isort: on
from bgsim.cli.common import app, main

__all__ = ["app", "main"]
