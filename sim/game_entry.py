"""How a game package declares itself to the registry: ``ENTRY = GameEntry(...)`` in its ``__init__``.

The registry finds every package under ``sim/games/`` (``sim.games.BUILTIN``) and reads its entry,
so a game imports nothing from the registry and adding one touches no other file.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["GameEntry"]


@dataclass(frozen=True)
class GameEntry:
    name: str
    factory: Callable[..., Any]  # factory(**params) -> Game; raises GameIdError on bad params
    summary: str
    player_counts: tuple[int, ...] | None = None  # None: found by building the game (registry.player_counts)
    parameters: tuple[str, ...] | None = None  # None: the keys of parameter_docs, else a default game's params
    parameter_docs: dict[str, str] | None = None  # parameter -> one line (default, rule ids), for `bgsim games`
    listed: bool = True  # False: a game kept for the test suite; it builds and plays, but `bgsim games` omits it
    order: int = 100  # place in `bgsim games` (lower first, then by name); the first game is the default of
    # commands that take --game

    def __post_init__(self):
        if self.parameters is None and self.parameter_docs is not None:
            object.__setattr__(self, "parameters", tuple(self.parameter_docs))
