"""Arkadia's profile: what the lab's studies and reports may know about it (``sim.profile``)."""

from bgsim.sim.games.arkadia.params import TABLE
from bgsim.sim.games.arkadia.records import CATEGORY_DOCS, RECORD_DOCS
from bgsim.sim.profile import Compensation, GameProfile, ScoreCategory

__all__ = ["SEAT_VIEW", "arkadia_profile"]

SEAT_VIEW = ("A seat sees its own hand, the display, the board (buildings, their seals, workers by colour, tents), "
             "the castle and its supplies, the hand sizes, the banners and the size of the deck. Hidden from it: "
             "the other hands and the order of the deck. The screens (workers, seals) and the gold are shown as a "
             "player with perfect recall knows them: every change to them is a public event (digest §5.2).")
START = TABLE.compensation  # start_gold, the parameter seat-order studies vary

_LABELS = {"gold_cashed": "gold from cashings"}


def arkadia_profile(game) -> GameProfile:
    return GameProfile(
        game="arkadia",
        title="Die Baumeister von Arkadia",
        player_counts=(2, 3, 4),
        score_column="final_gold",
        score_unit="gold",
        categories=tuple(ScoreCategory(column, _LABELS[column], doc) for column, doc in CATEGORY_DOCS.items()),
        records=dict(RECORD_DOCS),
        seat_view=SEAT_VIEW,
        compensation=Compensation(
            parameter=START.name, column="start_gold", label="start gold", unit="gold", fixed_first=0,
            rulebook=dict(START.vectors),
            named={"rulebook": "every seat starts without gold (004)", "equal": "every seat starts with 0"},
            tiebreak_column="tiebreak", adds_to_score=True),
        data_overrides={"components": "components.toml in sim/games/arkadia/data/: grid, tents, castle site, shapes "
                                      "and their cards, first-game layout"},
        shared_wins="ARK-END-5",
    )
