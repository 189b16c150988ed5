"""Parameters: one table (``TABLE``) with the player count, the compensation parameter and one row
per rules ambiguity. From it come ``Params`` (``from_dict`` raises one-line GameIdErrors),
``PARAM_DOCS`` and the index constants (``PR_...``, written to ``param_slots.py``) of the
``(N_PARAMS,) int32`` array that ``Params.to_array`` packs for the kernels; ``sim/games/parameters.py``
lists the kinds.

FILL IN: one row per parameter with the rulebook's default, its rule id and doc line; a row the
kernels read gets a ``slot`` (its index constant) and takes the next entries of the array. After a
change, ``python -m tests.param_slots`` writes the constants the kernels import.
"""

from bgsim.sim.games.parameters import GameParams, Param, ParamTable

__all__ = ["PARAM_DOCS", "Params", "START_POINTS", "TABLE"]

START_POINTS = {2: (0, 0), 3: (0, 0, 0), 4: (0, 0, 0, 0)}  # FILL IN: the rulebook's vector per player count

# Rows with a slot fill the compiled array in table order.
TABLE = ParamTable("template", (
    Param("n_players", "players", 3, "player count 2..4", low=2, high=4, slot="PR_N_PLAYERS"),
    Param("start_points", "start", "rulebook", "start points by seat: rulebook, equal or a list such as '0/1/2'",
          rule="XX-SETUP-3", vectors=START_POINTS, example="0/1/2", slot="PR_START", width=4, lever="compensation"),
    # FILL IN, e.g. Param("tie_rule", "choice", "shared", "equal scores: shared or ...", rule="AMB-1",
    #                     choices=("shared", "stones"), slot="PR_TIE_RULE"),
))
PARAM_DOCS = TABLE.docs


@TABLE.params_class
class Params(GameParams):
    """The game's parameters: one field per row of ``TABLE``."""
