"""The game's profile: what studies and reports may know about it (``sim.profile``).

FILL IN: title, categories, what a seat sees, the attributions (cards, auction items, ...), the
compensation parameter, an automa if the game has one, variants of reconstructed components.
A game without start points by seat declares ``compensation=None``: its seat-order study then
plays the rules as written, without start vectors or solver.
"""

from bgsim.sim.games._template.params import TABLE
from bgsim.sim.games._template.records import CATEGORY_DOCS, RECORD_DOCS
from bgsim.sim.profile import Compensation, GameProfile, ScoreCategory

__all__ = ["SEAT_VIEW", "template_profile"]

SEAT_VIEW = ("A seat sees its own hand, how many cards every other seat holds and every card played. Hidden "
             "from it: the other hands and the order of the draw pile (XX-INFO).")
START = TABLE.compensation  # start_points, the parameter seat-order studies vary

_LABELS = {"pts_cards": "cards", "pts_bonus": "bonus"}


def template_profile(game) -> GameProfile:
    del game  # the profile does not depend on the parameters
    return GameProfile(
        game=TABLE.game,
        title="Template",
        player_counts=TABLE.player_counts,
        score_column="final_points",
        score_unit="points",
        categories=tuple(ScoreCategory(column, _LABELS[column], doc) for column, doc in CATEGORY_DOCS.items()),
        records=dict(RECORD_DOCS),
        seat_view=SEAT_VIEW,
        attributions=(),
        compensation=Compensation(
            parameter=START.name, column="start_points", label="start points", unit="points",
            fixed_first=START.vectors[2][0], rulebook=dict(START.vectors),
            named={"rulebook": "the rulebook's start points (XX-SETUP-3)", "equal": "every seat starts with 0"},
            tiebreak_column="tiebreak", adds_to_score=True),
    )
