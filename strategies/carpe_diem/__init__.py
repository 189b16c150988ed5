"""Carpe Diem strategies: one weight strategy per file in ``weights/`` (the personalities),
``weights(...)`` and ``search`` (see ``strategies.weights`` for the ids a designer can write)."""

from pathlib import Path

from bgsim.sim.games.carpe_diem.game import CarpeDiem
from bgsim.strategies.weights import register_weight_strategies, weight_files

__all__ = ["BEST_HEURISTIC", "WEIGHTS_DIR", "personalities"]

WEIGHTS_DIR = Path(__file__).parent / "weights"
BEST_HEURISTIC = "planner"  # the strongest weight strategy measured (strategies/README.md)


def personalities() -> list[str]:
    """Names of the weights files of this package, sorted."""
    return weight_files(WEIGHTS_DIR)


register_weight_strategies("carpe_diem", WEIGHTS_DIR, BEST_HEURISTIC, game_class=CarpeDiem,
                           example="vp=10, villa_vp=20", hidden="sampled hidden tiles and fountain cards")
