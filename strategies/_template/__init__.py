"""Strategies of the template game (FILL IN: the game's name): one weight strategy per file in
``weights/`` (the personalities), ``weights(...)`` and ``search``. Copy to ``strategies/<game>/``;
the package is imported for the registered game of the same name."""

from pathlib import Path

from bgsim.sim.games._template.game import TemplateGame
from bgsim.strategies.weights import register_weight_strategies

__all__ = ["BEST_HEURISTIC", "WEIGHTS_DIR"]

WEIGHTS_DIR = Path(__file__).parent / "weights"
BEST_HEURISTIC = "greedy"  # FILL IN: the strongest personality measured

register_weight_strategies("template", WEIGHTS_DIR, BEST_HEURISTIC, game_class=TemplateGame)
