"""The game's profile: what studies and reports may know about it (``sim.profile``).

FILL IN: title, categories, what a seat sees, the attributions (cards, auction items, ...), the
compensation parameter, an automa if the game has one, variants of reconstructed components.
"""

from bgsim.sim.games._template.params import TABLE
from bgsim.sim.games._template.records import CATEGORY_DOCS, RECORD_DOCS
from bgsim.sim.profile import Compensation, GameProfile, ScoreCategory

__all__ = ["template_profile"]

SEAT_VIEW = "FILL IN: what a seat sees, and what is hidden from it (rule ids)."
START = TABLE.compensation  # start_points, the parameter seat-order studies vary


def template_profile(game) -> GameProfile:
    del game
    return GameProfile(
        game="template",
        title="Template",
        player_counts=(2, 3, 4),
        score_column="final_points",
        score_unit="points",
        categories=(ScoreCategory("pts_taken", "points taken", CATEGORY_DOCS["pts_taken"]),),
        records=dict(RECORD_DOCS),
        seat_view=SEAT_VIEW,
        attributions=(),
        compensation=Compensation(
            parameter=START.name, column="start_points", label="start points", unit="points",
            fixed_first=START.vectors[2][0], rulebook=dict(START.vectors),
            named={"rulebook": "the rulebook's start points", "equal": "every seat starts with 0"},
            tiebreak_column="tiebreak"),
    )
