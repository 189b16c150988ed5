"""Sealed Bids strategies: one weight strategy per file in ``weights/`` (the personalities),
``weights(...)`` and ``search`` (rollouts of the best heuristic)."""

from pathlib import Path

try:
    from bgsim.strategies.weights import register_weight_strategies
except ImportError:  # before strategies/weights.py exists
    from bgsim.strategies.sealed_bids._weights import register_weight_strategies

__all__ = ["BEST_HEURISTIC", "WEIGHTS_DIR"]

WEIGHTS_DIR = Path(__file__).parent / "weights"
BEST_HEURISTIC = "greedy"

register_weight_strategies("sealed_bids", WEIGHTS_DIR, BEST_HEURISTIC)
