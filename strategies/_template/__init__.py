"""Strategies of the template game (FILL IN: the game's name): one weight strategy per file in
``weights/`` (the personalities, one of them ``greedy``), ``weights(...)`` and ``search``. Copy to
``strategies/<game>/``; the game's entry names this package (``parts.strategies``), and importing
it registers them."""

from pathlib import Path

from bgsim.sim.games._template.game import TemplateGame
from bgsim.strategies.weights import register_weight_strategies

__all__ = ["BEST_HEURISTIC", "WEIGHTS_DIR"]

WEIGHTS_DIR = Path(__file__).parent / "weights"
BEST_HEURISTIC = "greedy"  # FILL IN: the strongest personality measured

register_weight_strategies("template", WEIGHTS_DIR, BEST_HEURISTIC, game_class=TemplateGame)
