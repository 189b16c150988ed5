"""TEMPLATE (FILL IN: the game's title, edition, player counts). Copy this folder to
``sim/games/<game>/``, replace ``_template`` and ``template`` by the game's name everywhere, fill
in every place marked FILL IN; ``sim/games`` finds the package by its ``ENTRY``.

This package is never imported as it stands: the template is not a registered game.
"""

from bgsim.sim.game_entry import GameEntry, GameParts
from bgsim.sim.games._template.game import RULES_VERSION, TemplateGame
from bgsim.sim.games._template.params import PARAM_DOCS, Params

__all__ = ["ENTRY", "Params", "RULES_VERSION", "TemplateGame", "make"]


def make(**params) -> TemplateGame:
    """The game for registry parameters, e.g. ``make(n_players=3)``."""
    return TemplateGame(Params.from_dict(params))


# FILL IN: the name, a one-line summary; listed=False keeps a game out of `bgsim games`. The parts name
# the game's modules above the engine; add variants, reports and bench when the game has them.
ENTRY = GameEntry("template", make, "Template game (FILL IN: title, edition, 2-4 players)",
                  player_counts=(2, 3, 4), parameter_docs=PARAM_DOCS,
                  parts=GameParts(strategies="bgsim.strategies._template"))
