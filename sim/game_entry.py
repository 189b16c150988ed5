"""How a game package declares itself: ``ENTRY = GameEntry(...)`` in its ``__init__``.

The registry finds every package under ``sim/games/`` (``sim.games.BUILTIN``) and reads its entry,
so a game imports nothing from the registry and adding one touches no other file. The entry names
every part of the game: its rules (the factory), its parameter table, and in ``parts`` the modules
of the layers above the engine (strategies, variants, report extras, bench), so that each layer
finds a game's parts through its entry and never by the game's name.

The game's name, its player counts and its parameters come from its parameter table
(``sim.games.parameters.ParamTable``), where each is written once: nothing builds a game to find
them out.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the registry reads entries without importing the parameter machinery
    from bgsim.sim.games.parameters import ParamTable

__all__ = ["GameEntry", "GameParts"]


@dataclass(frozen=True)
class GameParts:
    """A game's parts above the engine, as ``"module"`` or ``"module:object"`` (None: the game has none).

    Each names one object of its layer's contract, checked by the conformance suite: ``strategies``
    a module that registers the game's strategies when imported (``strategies.weights``);
    ``variants`` an ``experiments.variants.VariantData``, how the data files of the variants in the
    game's profile are derived; ``reports`` a ``reports.extras.ReportExtras``; ``bench`` an
    ``experiments.bench.GameBench``, the game's rows of ``make bench``; ``calibration`` an
    ``experiments.calibration_suite.GameCalibration``, how the calibration suite plays the game to
    stand in for a known truth.
    """

    strategies: str | None = None
    variants: str | None = None
    reports: str | None = None
    bench: str | None = None
    calibration: str | None = None

    def load(self, part: str) -> Any:
        """The object ``part`` names (one of the fields), imported; None when the game declares none."""
        target = getattr(self, part)
        if target is None:
            return None
        module, _, name = target.partition(":")
        loaded = import_module(module)
        return getattr(loaded, name) if name else loaded


@dataclass(frozen=True)
class GameEntry:
    """A game as the registry knows it: ``GameEntry(TABLE, make, "one line", parts=GameParts(...))``."""

    table: "ParamTable"  # the game's parameters (sim.games.parameters), which name the game and its player counts
    factory: Callable[..., Any]  # factory(**params) -> Game; raises GameIdError on bad params
    summary: str
    # False: a game kept for the test suite, or one still being written (`bgsim new-game` makes it so until
    # its rules tests exist); it builds and plays, but `bgsim games` omits it
    listed: bool = True
    order: int = 100  # place in `bgsim games` (lower first, then by name); the first game is the default of
    # commands that take --game
    parts: GameParts = field(default_factory=GameParts)  # the game's modules above the engine

    @property
    def name(self) -> str:
        """The registry name, as the table spells it."""
        return self.table.game

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts the game is for: its ``players`` row's ``low..high``."""
        return self.table.player_counts

    @property
    def parameters(self) -> tuple[str, ...]:
        """The parameter names, in table order."""
        return tuple(row.name for row in self.table.params)

    @property
    def parameter_docs(self) -> dict[str, str]:
        """Parameter -> one line (rule id, then what it settles), for `bgsim games`."""
        return dict(self.table.docs)

    @property
    def parameter_defaults(self) -> dict[str, Any]:
        """Parameter -> its default value."""
        return {row.name: row.default for row in self.table.params}
