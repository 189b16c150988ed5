"""Arkadia's profile: what the lab's studies and reports may know about it (``sim.profile``)."""

from bgsim.sim.games.arkadia.components import FAMILIES, SHAPES
from bgsim.sim.games.arkadia.params import TABLE
from bgsim.sim.games.arkadia.records import CATEGORY_DOCS, RECORD_DOCS
from bgsim.sim.profile import Attribution, Compensation, GameProfile, ScoreCategory, VariantInfo

__all__ = ["SEAT_VIEW", "VARIANTS", "arkadia_profile", "family_catalogue", "shape_catalogue"]

SEAT_VIEW = ("A seat sees its own hand, the display, the board (buildings, their seals, workers by colour, tents), "
             "the castle and its supplies, the hand sizes, the banners and the size of the deck. Hidden from it: "
             "the other hands and the order of the deck. The screens (workers, seals) and the gold are shown as a "
             "player with perfect recall knows them: every change to them is a public event (digest §5.2).")
START = TABLE.compensation  # start_gold, the parameter seat-order studies vary

_LABELS = {"gold_banners": "gold cashed with banners", "gold_final": "gold cashed at the end"}
_SHAPE_LABELS = ("residence", "farm", "tavern", "mill", "smithy", "trade centre", "monastery")

# Variants for the robustness study, in report order: the component recipes (experiments/arkadia/
# variants.py derives each file from the one the base spec plays with) and two rule readings.
VARIANTS: tuple[VariantInfo, ...] = (
    VariantInfo("grid_small", "grid: one row and one column fewer (12 x 16 becomes 11 x 15; its tents gone)",
                data={"components": "grid_small"}),
    VariantInfo("grid_large", "grid: one row and one column more, without tents (13 x 17)",
                data={"components": "grid_large"}),
    VariantInfo("tents_sparse", "tent map: every second tent (13 of 26)", data={"components": "tents_sparse"}),
    VariantInfo("tents_mirrored", "tent map: mirrored left to right (as many tents, elsewhere)",
                data={"components": "tents_mirrored"}),
    VariantInfo("shapes_mirrored", "shapes: the smithy and the trade centre as their mirror images",
                data={"components": "shapes_mirrored"}),
    VariantInfo("more_large", "shapes: two residences become monasteries (fewer small buildings)",
                data={"components": "more_large"}),
    VariantInfo("refill_first", "AMB-11 reading (b): the hand is refilled before completions and castle stones",
                params={"refill_before_completion": True}),
    VariantInfo("mirror_images", "AMB-6 reading (b): buildings may be placed as mirror images too",
                params={"allow_mirror": True}),
)


def shape_catalogue() -> tuple[dict, ...]:
    """One dict per building shape in rulebook order (no. 1-7)."""
    return tuple({"shape": i, "id": f"S{i + 1}", "group": "shape", "label": label, "name": SHAPES[i]}
                 for i, label in enumerate(_SHAPE_LABELS))


def family_catalogue() -> tuple[dict, ...]:
    """One dict per seal family in rulebook order."""
    return tuple({"family": i, "id": name[:2].upper(), "group": "family", "label": name, "name": name}
                 for i, name in enumerate(FAMILIES))


def arkadia_profile(game) -> GameProfile:
    payoffs = ("gold", "seals", "tents")
    return GameProfile(
        game="arkadia",
        title="Die Baumeister von Arkadia",
        player_counts=(2, 3, 4),
        score_column="final_gold",
        score_unit="gold",
        categories=tuple(ScoreCategory(column, _LABELS[column], doc) for column, doc in CATEGORY_DOCS.items()),
        records=dict(RECORD_DOCS),
        seat_view=SEAT_VIEW,
        attributions=(
            Attribution(name="shapes", label="building shapes", singular="building shape",
                        board_column="board_shapes", events_column="buildings", id_field="shape",
                        payoff_field="gold", group_label="shapes", catalogue=shape_catalogue(),
                        payoff_fields=payoffs),
            Attribution(name="families", label="seal families", singular="seal family",
                        board_column="board_families", events_column="buildings", id_field="family",
                        payoff_field="gold", group_label="families", catalogue=family_catalogue(),
                        payoff_fields=payoffs),
        ),
        compensation=Compensation(
            parameter=START.name, column="start_gold", label="start gold", unit="gold", fixed_first=0,
            rulebook=dict(START.vectors),
            named={"rulebook": "every seat starts without gold (004)", "equal": "every seat starts with 0"},
            tiebreak_column="tiebreak", adds_to_score=True),
        variants=VARIANTS,
        data_overrides={"components": "components.toml in sim/games/arkadia/data/: grid, tents, castle site, shapes "
                                      "and their cards, first-game layout"},
        shared_wins="ARK-END-5",
    )
