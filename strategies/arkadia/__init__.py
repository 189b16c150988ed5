"""Arkadia strategies: one weight strategy per file in ``weights/`` (the personalities),
``weights(...)`` and ``search`` (rollouts of the best heuristic)."""

from pathlib import Path

from bgsim.sim.games.arkadia.game import Arkadia
from bgsim.strategies.weights import register_weight_strategies, weight_files

__all__ = ["BEST_HEURISTIC", "WEIGHTS_DIR", "personalities"]

WEIGHTS_DIR = Path(__file__).parent / "weights"
BEST_HEURISTIC = "planner"  # the strongest weight strategy measured (its file's header)


def personalities() -> list[str]:
    """Names of the weights files of this package, sorted."""
    return weight_files(WEIGHTS_DIR)


register_weight_strategies("arkadia", WEIGHTS_DIR, BEST_HEURISTIC, game_class=Arkadia)
