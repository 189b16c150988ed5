"""Sealed Bids' profile: what the lab's studies and reports may know about it (``sim.profile``)."""

from bgsim.sim.games.sealed_bids.params import TABLE, deck_size, points_of
from bgsim.sim.games.sealed_bids.records import CATEGORY_DOCS, RECORD_DOCS
from bgsim.sim.profile import Attribution, Compensation, ComponentChoice, GameProfile, ScoreCategory

__all__ = ["SEAT_VIEW", "TAKE_CHOICE", "prize_catalogue", "sealed_bids_profile"]

SEAT_VIEW = ("A seat sees its own hand, how many cards every other seat holds, who has bid this round, every "
             "bid of a finished round and the prizes revealed so far. Hidden from it: the other hands, this "
             "round's face-down bids, the cards left in the box and the order of the prizes to come (SB-INFO).")
START = TABLE.compensation  # start_points, the parameter seat-order studies vary

_LABELS = {"pts_prizes": "prizes", "pts_leftover": "leftover cards"}


# SB-OFFER-1, SB-OFFER-2: the winner's take is the game's one component choice (pair and triple;
# single offers one prize, so there is nothing to choose). One declaration for both offers: the take
# table lists the prizes on offer whatever their number. The payout range covers the rulebook's
# points up to P15's 15.
TAKE_CHOICE = ComponentChoice(
    attribution="prizes", decisions=("take",),
    doc="the round's winner takes one of the prizes on offer, two in pair (SB-OFFER-1) or three in triple "
        "(SB-OFFER-2); the others leave the game",
    payout="points of the prize", payout_unit="points", payout_range=(0, 20))


def prize_catalogue(params) -> tuple[dict, ...]:
    """One dict per prize card of the deck (P1..P8, P1..P10 in pair, P1..P15 in triple), in id
    order, with its points under ``params`` (``prize_points``)."""
    points = points_of(params.prize_points, params.prize_offer)
    deck = deck_size(params.prize_offer)
    return tuple({"prize": p, "id": f"P{p + 1}", "group": "prizes", "label": f"prize worth {points[p]}",
                  "points": points[p]} for p in range(deck))


def sealed_bids_profile(game) -> GameProfile:
    return GameProfile(
        game=TABLE.game,
        title="Sealed Bids",
        player_counts=TABLE.player_counts,
        score_column="final_points",
        score_unit="points",
        categories=tuple(ScoreCategory(column, _LABELS[column], doc) for column, doc in CATEGORY_DOCS.items()),
        records=dict(RECORD_DOCS),
        seat_view=SEAT_VIEW,
        attributions=(Attribution(
            name="prizes", label="prize cards", singular="prize card", board_column="board_prizes",
            events_column="prizes", id_field="prize", payoff_field="points", group_label="deck",
            catalogue=prize_catalogue(game.params), payoff_fields=("points",)),),
        compensation=Compensation(
            parameter=START.name, column="start_points", label="start points", unit="points",
            fixed_first=START.vectors[2][0], rulebook=dict(START.vectors),
            named={"rulebook": "the rulebook's start points (SB-SETUP-3)", "equal": "every seat starts with 0"},
            tiebreak_column="tiebreak", adds_to_score=True),
        shared_wins="final_tie = shared" if game.params.final_tie == "shared" else "",
        choices=(TAKE_CHOICE,) if game.params.prize_offer != "single" else (),
    )
