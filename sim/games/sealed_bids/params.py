"""Sealed Bids parameters: one table (``TABLE``) with the player count, the one rules ambiguity
(SB-TIE-1), the start-points vector (the compensation parameter), the final tie rule (SB-TIE-2,
or a shared win), the prizes on offer per round (SB-OFFER-1) and the prizes' points (SB-SETUP-1).
From it come ``Params`` (``from_dict`` raises one-line GameIdErrors), ``PARAM_DOCS`` and the
index constants (``PR_...``) of the ``(N_PARAMS,) int32`` array that ``Params.to_array`` packs for
the kernels; ``sim/games/parameters.py`` says how."""

from bgsim.sim.errors import GameIdError
from bgsim.sim.games.parameters import GameParams, Param, ParamTable
from bgsim.sim.games.sealed_bids.state import MAX_PRIZES

__all__ = ["N_PARAMS", "PARAM_DOCS", "Params", "RULEBOOK_POINTS", "START_POINTS", "TABLE", "check_prize_points",
           "points_of"]

START_POINTS = {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # SB-SETUP-3, by player count
RULEBOOK_POINTS = tuple(p + 1 for p in range(MAX_PRIZES))  # SB-SETUP-1: prize p is worth p + 1
MOST_POINTS = 999  # keeps a seat's prize points (5 prizes) inside the int16 record columns
_POINTS_EXAMPLE = "/".join(str(v) for v in RULEBOOK_POINTS)


def check_prize_points(value) -> str:
    """The canonical text of ``prize_points``: 'rulebook', or the points of prizes 0..9 joined by
    '/' (a list is accepted and joined); anything else is a one-line GameIdError."""
    if isinstance(value, list | tuple):
        value = "/".join(str(v) for v in value)
    if isinstance(value, str) and value.strip() == "rulebook":
        return "rulebook"
    try:
        numbers = [int(part.strip()) for part in str(value).split("/")]
    except ValueError:
        numbers = []
    if len(numbers) != MAX_PRIZES or not all(0 <= v <= MOST_POINTS for v in numbers):
        raise GameIdError(f"prize_points must be rulebook or {MAX_PRIZES} integers 0..{MOST_POINTS} joined by '/' "
                          f"like '{_POINTS_EXAMPLE}', got {value!r}")
    return "/".join(str(v) for v in numbers)


def points_of(text: str) -> tuple[int, ...]:
    """The points of prize ids 0..9 for a canonical ``prize_points`` value."""
    return RULEBOOK_POINTS if text == "rulebook" else tuple(int(v) for v in text.split("/"))


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
    # Appended after the recorded rows, so their indices stay where they were.
    Param("prize_offer", "choice", "single", "prizes on offer per round: single (the top prize card, 8 in the "
          "deck) or pair (two of 10, the round's winner takes one, the other leaves the game)", rule="SB-OFFER-1",
          choices=("single", "pair"), slot="PR_PRIZE_OFFER"),
    Param("prize_points", "text", "rulebook", "points of prizes P1..P10: rulebook (prize Pk is worth k) or 10 "
          "integers 0..999 joined by '/' such as '1/2/3/4/5/6/7/8/9/10' (P9 and P10 are dealt in pair only)",
          rule="SB-SETUP-1", check=check_prize_points, encode=lambda value, _: points_of(value),
          slot="PR_PRIZE_POINTS", width=MAX_PRIZES),
), listing_hint="bgsim games --all")  # an unlisted game
globals().update(TABLE.constants)  # PR_N_PLAYERS, PR_BID_TIE, ..., PR_PRIZE_POINTS: the indices the kernels import
N_PARAMS = TABLE.size
PARAM_DOCS = TABLE.docs


@TABLE.params_class
class Params(GameParams):
    """Sealed Bids' parameters: one field per row of ``TABLE``."""
