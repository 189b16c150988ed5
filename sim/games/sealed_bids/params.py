"""Sealed Bids parameters: one table (``TABLE``) with the player count, the one rules ambiguity
(SB-TIE-1), the start-points vector (the compensation parameter), the final tie rule (SB-TIE-2,
or a shared win), the prizes on offer per round (SB-OFFER-1, SB-OFFER-2) and the prizes' points
(SB-SETUP-1). From it come ``Params`` (``from_dict`` raises one-line GameIdErrors), ``PARAM_DOCS``
and the index constants (``PR_...``, written to ``param_slots.py``) of the ``(N_PARAMS,) int32`` array
that ``Params.to_array`` packs for the kernels; ``sim/games/parameters.py`` says how.

``prize_points`` lists one value per prize id of the deck in use (``POINTS_COUNT``): 10 in single
and pair, 15 in triple. Its row alone accepts either length; ``Params`` then refuses a length that
does not fit ``prize_offer``, so a game has one spelling and no listed value is silently unused
(single's P9 and P10 excepted: it has listed them since pair, though it deals only P1..P8)."""

from bgsim.sim.errors import GameIdError
from bgsim.sim.games.parameters import GameParams, Param, ParamTable
from bgsim.sim.games.sealed_bids.state import MAX_PRIZES, OFFER_DECK, OFFER_PRIZES, PAIR_PRIZES, TRIPLE_PRIZES

__all__ = ["PARAM_DOCS", "POINTS_COUNT", "PRIZE_OFFERS", "Params", "RULEBOOK_POINTS", "START_POINTS",
           "TABLE", "check_points_fit_offer", "check_prize_points", "deck_size", "offer_size", "points_of"]

START_POINTS = {2: (0, 1), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # SB-SETUP-3, by player count
PRIZE_OFFERS = ("single", "pair", "triple")  # prize_offer's choices in code order (state.OFFER_PRIZES, OFFER_DECK)
# Values prize_points lists for each offer: the prize ids 0..n-1 (SB-SETUP-1, SB-OFFER-1, SB-OFFER-2).
POINTS_COUNT = {"single": PAIR_PRIZES, "pair": PAIR_PRIZES, "triple": TRIPLE_PRIZES}
RULEBOOK_POINTS = tuple(p + 1 for p in range(MAX_PRIZES))  # SB-SETUP-1: prize p is worth p + 1
MOST_POINTS = 999  # keeps a seat's prize points (5 prizes) inside the int16 record columns
_POINTS_EXAMPLE = "/".join(str(v) for v in RULEBOOK_POINTS[:PAIR_PRIZES])


def offer_size(offer: str) -> int:
    """Prizes revealed per round under ``prize_offer`` ``offer``: 1, 2 (SB-OFFER-1) or 3 (SB-OFFER-2)."""
    return OFFER_PRIZES[PRIZE_OFFERS.index(offer)]


def deck_size(offer: str) -> int:
    """Prize cards dealt under ``prize_offer`` ``offer``: 8, 10 (SB-OFFER-1) or 15 (SB-OFFER-2)."""
    return OFFER_DECK[PRIZE_OFFERS.index(offer)]


def check_prize_points(value) -> str:
    """The canonical text of ``prize_points``: 'rulebook', or the points of prize ids 0..9 (or 0..14,
    for triple) joined by '/' (a list is accepted and joined); anything else is a one-line
    GameIdError. Whether the length fits the offer is ``Params``' check (this row sees no other)."""
    if isinstance(value, list | tuple):
        value = "/".join(str(v) for v in value)
    if isinstance(value, str) and value.strip() == "rulebook":
        return "rulebook"
    try:
        numbers = [int(part.strip()) for part in str(value).split("/")]
    except ValueError:
        numbers = []
    if len(numbers) not in POINTS_COUNT.values() or not all(0 <= v <= MOST_POINTS for v in numbers):
        raise GameIdError(f"prize_points must be rulebook or {PAIR_PRIZES} integers 0..{MOST_POINTS} joined by '/' "
                          f"like '{_POINTS_EXAMPLE}' ({TRIPLE_PRIZES} with prize_offer=triple), got {value!r}")
    return "/".join(str(v) for v in numbers)


def check_points_fit_offer(points: str, offer: str) -> None:
    """A one-line GameIdError unless the canonical ``prize_points`` ``points`` lists one value per
    prize id of ``offer``'s deck (``POINTS_COUNT``): triple's P11..P15 need points of their own
    (SB-OFFER-2), and 15 values in single or pair would name prizes never dealt."""
    need = POINTS_COUNT[offer]
    given = need if points == "rulebook" else len(points.split("/"))
    if given != need:
        raise GameIdError(f"prize_points must be rulebook or {need} integers (P1..P{need}) with prize_offer={offer}, "
                          f"got {given} values")


def points_of(text: str, offer: str) -> tuple[int, ...]:
    """The points of prize ids 0..n-1 (n = ``POINTS_COUNT[offer]``) for a canonical ``prize_points``
    value that fits ``offer``."""
    return RULEBOOK_POINTS[: POINTS_COUNT[offer]] if text == "rulebook" else tuple(int(v) for v in text.split("/"))


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
    # triple (SB-OFFER-2) comes last: the codes of single and pair stay 0 and 1.
    Param("prize_offer", "choice", "single", "prizes on offer per round: single (the top prize card, 8 in the "
          "deck), pair (two of 10) or triple (three of 15, SB-OFFER-2); in pair and triple the round's winner "
          "takes one, the others leave the game", rule="SB-OFFER-1", choices=PRIZE_OFFERS, slot="PR_PRIZE_OFFER"),
    # Widened from 10 to 15 entries for triple; the last row, so no other index moves. Entries past
    # the offer's POINTS_COUNT stay 0: no deck deals those prizes.
    Param("prize_points", "text", "rulebook", "points of prizes P1..P10, or P1..P15 with prize_offer=triple: "
          "rulebook (prize Pk is worth k) or that many integers 0..999 joined by '/' such as "
          "'1/2/3/4/5/6/7/8/9/10' (P9 and P10 are dealt in pair and triple only, P11..P15 in triple only)",
          rule="SB-SETUP-1", check=check_prize_points,
          encode=lambda value, params: points_of(value, params.prize_offer), slot="PR_PRIZE_POINTS",
          width=MAX_PRIZES),
), listing_hint="bgsim games --all")  # an unlisted game
PARAM_DOCS = TABLE.docs


@TABLE.params_class
class Params(GameParams):
    """Sealed Bids' parameters: one field per row of ``TABLE``."""

    def __post_init__(self):
        # The one check across rows (SB-OFFER-2): the table checks each row alone.
        check_points_fit_offer(self.prize_points, self.prize_offer)
