"""Strategy building blocks: feature weights (compiled tier) and uniform random choice."""

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from bgsim.sim.api import POLICY_RANDOM, POLICY_WEIGHTS, CandidateTable, CompiledPolicy
from bgsim.sim.errors import StrategyError
from bgsim.sim.policy import first_best_row
from bgsim.sim.rng import below

__all__ = ["RandomStrategy", "WeightStrategy", "load_weights", "weights_from"]


@dataclass(frozen=True)
class RandomStrategy:
    """Uniform choice among the legal rows, drawn from the seat's strategy stream."""

    id: str = "random"

    def choose(self, table: CandidateTable, stream: np.ndarray) -> int:
        return int(below(stream, 0, len(table)))

    def compiled_policy(self, game) -> CompiledPolicy:
        return CompiledPolicy(POLICY_RANDOM, np.zeros(len(game.feature_names), dtype=np.int64))


@dataclass(frozen=True)
class WeightStrategy:
    """Score every row as ``features @ weights`` (integers) and take the first best row.

    The same weights run inside the compiled play loop (``compiled_policy``), over stacked
    tables of many games (``score``) and per decision (``choose``); all pick the same row, so
    every tier plays the same games.
    """

    id: str
    weights: np.ndarray  # (F,) int64, in the order of game.feature_names
    description: str = ""

    def score(self, features: np.ndarray) -> np.ndarray:
        """Row values (n,) of a (n, F) int32 feature table (the vectorised tier).

        Float64 products through BLAS are several times faster than numpy's integer product and
        still exact (hence the same argmax) while |weights| <= 2**20 and |features| < 2**27.
        """
        if self._float_weights is not None:
            return features.astype(np.float64) @ self._float_weights
        return features @ self.weights  # int32 @ int64 -> exact int64

    def __post_init__(self):
        exact = np.abs(self.weights).max(initial=0) <= 1 << 20
        object.__setattr__(self, "_float_weights", self.weights.astype(np.float64) if exact else None)

    def choose(self, table: CandidateTable, stream: np.ndarray) -> int:
        del stream  # deterministic
        return first_best_row(table.features, self.weights)

    def compiled_policy(self, game) -> CompiledPolicy:
        return CompiledPolicy(POLICY_WEIGHTS, self.weights)


def load_weights(path: str | Path, feature_names: tuple[str, ...], overrides: dict | None = None,
                 label: str | None = None) -> tuple[np.ndarray, str]:
    """(F,) int64 weights from a TOML file ``[weights] name = number``, then ``overrides``.

    Errors are one-line StrategyErrors that name the file (``label``, default its name) and the
    entry, so a designer editing a copy sees at once which line to fix.
    """
    label = label or Path(path).name
    try:
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise StrategyError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{label}: not valid TOML ({exc})") from None
    table = doc.get("weights")
    if not isinstance(table, dict):
        raise StrategyError(f"{label}: missing [weights] table")
    description = doc.get("description", "")
    if not isinstance(description, str):
        raise StrategyError(f"{label}: description must be a string, got {description!r}")
    weights = weights_from(table, feature_names, label)
    if overrides:
        weights = weights_from(overrides, feature_names, "strategy id", weights)
    return weights, description


def weights_from(entries: dict, feature_names: tuple[str, ...], source: str,
                 base: np.ndarray | None = None) -> np.ndarray:
    """(F,) int64 weights: ``base`` (default all 0) with ``entries`` (feature name -> number) set.

    Weights are integers, so every tier sums exactly the same row values. A float is accepted
    when it is a whole number (``10.0``); anything else (a fraction, a string, a boolean, a
    table) is an error naming ``source`` and the entry.
    """
    weights = np.zeros(len(feature_names), dtype=np.int64) if base is None else base.copy()
    for name, value in entries.items():
        where = f"{source}: weights.{name}"
        if name not in feature_names:
            raise StrategyError(f"{where}: unknown feature (see bgsim features)")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise StrategyError(f"{where}: must be an integer, got {_kind(value)}")
        if isinstance(value, float) and not value.is_integer():
            raise StrategyError(f"{where}: must be an integer (weights are whole numbers), got {value!r}")
        if abs(value) > MAX_WEIGHT:
            raise StrategyError(f"{where}: {int(value)} is outside +-{MAX_WEIGHT:,}")
        weights[feature_names.index(name)] = int(value)
    return weights


MAX_WEIGHT = 1 << 30  # far beyond any sensible weight; keeps every row value inside int64


def _kind(value) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    return repr(value)
