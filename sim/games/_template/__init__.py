"""TEMPLATE (FILL IN: the game's title, edition, player counts). ``bgsim new-game <game>`` copies this
folder to ``sim/games/<game>/`` and ``strategies/_template/`` to ``strategies/<game>/``, with
``_template`` and ``template`` replaced by the game's name and ``Template`` by its title-case name;
then fill in every place marked FILL IN (README.md lists every step). ``sim/games`` finds the
package by its ``ENTRY``.

This package is never imported as it stands: its name starts with an underscore, so the template
is not a registered game (``tests/test_template_copy.py`` plays a copy).
"""

from bgsim.sim.game_entry import GameEntry, GameParts
from bgsim.sim.games._template.game import RULES_VERSION, TemplateGame
from bgsim.sim.games._template.params import TABLE, Params

__all__ = ["ENTRY", "Params", "RULES_VERSION", "TemplateGame", "make"]


def make(**params) -> TemplateGame:
    """The game for registry parameters, e.g. ``make(n_players=3)``."""
    return TemplateGame(Params.from_dict(params))


# FILL IN: a one-line summary (the name and player counts come from TABLE). listed=False keeps the game out
# of `bgsim games` and, until tests/games/<game>/ holds a rules test, out of the test suites; once it does,
# listed=True shows it (the conformance suite requires a rules test of every listed game). The parts name
# the game's modules above the engine; add bench="bgsim.experiments.<game>.bench:BENCH" (README.md, step 5),
# and variants and reports when the game has them.
ENTRY = GameEntry(TABLE, make, "Template game (FILL IN: title, edition, 2-4 players)", listed=False,
                  parts=GameParts(strategies="bgsim.strategies._template"))
