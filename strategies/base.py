"""Strategy building blocks: feature weights (compiled tier) and uniform random choice."""

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.api import POLICY_RANDOM, POLICY_WEIGHTS, CandidateTable, CompiledPolicy
from sim.errors import StrategyError
from sim.policy import first_best_row
from sim.rng import below

__all__ = ["RandomStrategy", "WeightStrategy", "load_weights"]


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


def load_weights(path: Path, feature_names: tuple[str, ...], overrides: dict | None = None) -> tuple[np.ndarray, str]:
    """(F,) int64 weights from a TOML file ``[weights] name = integer``, then ``overrides``.

    Unknown feature names and non-integer values are one-line StrategyErrors naming the entry.
    """
    try:
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise StrategyError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{Path(path).name}: not valid TOML ({exc})") from None
    table = doc.get("weights")
    if not isinstance(table, dict):
        raise StrategyError(f"{Path(path).name}: missing [weights] table")
    weights = np.zeros(len(feature_names), dtype=np.int64)
    for source, entries in ((Path(path).name, table), ("strategy id", overrides or {})):
        for name, value in entries.items():
            if name not in feature_names:
                raise StrategyError(f"{source}: weights.{name}: unknown feature (see `bgsim features`)")
            if not isinstance(value, int) or isinstance(value, bool):
                raise StrategyError(f"{source}: weights.{name}: must be an integer, got {value!r}")
            weights[feature_names.index(name)] = value
    return weights, str(doc.get("description", ""))
