"""Sealed Bids parameters: one table (``TABLE``) with the player count, the one rules ambiguity
(SB-TIE-1), the start-points vector (the compensation parameter)
and the final tie rule (SB-TIE-2, or a shared win). From it come ``Params``
(``from_dict`` raises one-line GameIdErrors), ``PARAM_DOCS`` and the index constants (``PR_...``)
of the ``(N_PARAMS,) int32`` array that ``Params.to_array`` packs for the kernels;
``sim/games/parameters.py`` says how."""

from bgsim.sim.games.parameters import GameParams, Param, ParamTable

__all__ = ["N_PARAMS", "PARAM_DOCS", "Params", "START_POINTS", "TABLE"]

START_POINTS = {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # SB-SETUP-3, by player count

# Rows with a slot fill the compiled array in table order.
TABLE = ParamTable("sealed_bids", (
    Param("n_players", "players", 3, "player count 2..4 (seat 0 bids first in round 1)", rule="SB-BID-1", low=2,
          high=4, slot="PR_N_PLAYERS"),
    Param("bid_tie", "choice", "first_bidder", "equal highest bids: first_bidder (the earliest of them in bid order "
          "takes the prize) or discard (nobody does)", rule="SB-TIE-1", choices=("first_bidder", "discard"),
          slot="PR_BID_TIE"),
    Param("start_points", "start", "rulebook", "start points by seat: rulebook (0/1, 0/1/2, 0/1/2/3), equal (all 0) "
          "or a list such as '0/2/3'", rule="SB-SETUP-3", vectors=START_POINTS, example="0/1/2", slot="PR_START",
          width=4, lever="compensation"),
    Param("final_tie", "choice", "tiebreak", "equal final scores: tiebreak (SB-TIE-2 ranks them) or shared (every "
          "seat with the highest score wins, so studies count a share of the win to each)", rule="SB-TIE-2",
          choices=("tiebreak", "shared"), slot="PR_FINAL_TIE"),
), listing_hint="bgsim games --all")  # an unlisted game
globals().update(TABLE.constants)  # PR_N_PLAYERS, PR_BID_TIE, PR_START, PR_FINAL_TIE: the indices the kernels import
N_PARAMS = TABLE.size
PARAM_DOCS = TABLE.docs


@TABLE.params_class
class Params(GameParams):
    """Sealed Bids' parameters: one field per row of ``TABLE``."""
