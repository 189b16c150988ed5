"""How a game package declares itself: ``ENTRY = GameEntry(...)`` in its ``__init__``.

The registry finds every package under ``sim/games/`` (``sim.games.BUILTIN``) and reads its entry,
so a game imports nothing from the registry and adding one touches no other file. The entry names
every part of the game: its rules (the factory), its parameters, and in ``parts`` the modules of
the layers above the engine (strategies, variants, report extras, bench), so that each layer finds
a game's parts through its entry and never by the game's name.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

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
    name: str
    factory: Callable[..., Any]  # factory(**params) -> Game; raises GameIdError on bad params
    summary: str
    player_counts: tuple[int, ...] | None = None  # None: found by building the game (registry.player_counts)
    parameters: tuple[str, ...] | None = None  # None: the keys of parameter_docs, else a default game's params
    parameter_docs: dict[str, str] | None = None  # parameter -> one line (default, rule ids), for `bgsim games`
    listed: bool = True  # False: a game kept for the test suite; it builds and plays, but `bgsim games` omits it
    order: int = 100  # place in `bgsim games` (lower first, then by name); the first game is the default of
    # commands that take --game
    parts: GameParts = field(default_factory=GameParts)  # the game's modules above the engine

    def __post_init__(self):
        if self.parameters is None and self.parameter_docs is not None:
            object.__setattr__(self, "parameters", tuple(self.parameter_docs))
