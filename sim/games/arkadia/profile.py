"""Arkadia's profile: what the lab's studies and reports may know about it (``sim.profile``)."""

from bgsim.sim.games.arkadia.components import FAMILIES, FAMILY_COLOURS, FAMILY_NAMES, SHAPES
from bgsim.sim.games.arkadia.params import BUILDING_POINTS_RANGE, TABLE
from bgsim.sim.games.arkadia.records import BUILDING_CATEGORY_DOCS, CATEGORY_DOCS, RECORD_DOCS
from bgsim.sim.profile import Attribution, Compensation, ComponentChoice, GameProfile, ScoreCategory, VariantInfo

__all__ = ["BUILDING_CHOICE", "SEAT_VIEW", "VARIANTS", "arkadia_profile", "component_catalogue"]

SEAT_VIEW = ("A seat sees its own hand, the display, the board (buildings, their seals, workers by colour, tents), "
             "the castle and its supplies, the hand sizes, the banners and the size of the deck. Hidden from it: "
             "the other hands and the order of the deck. The other seats' screens (workers, seals) and gold depend "
             "on screen_view (AMB-12): recall, the default, shows them as a player with perfect recall knows them "
             "(every change to them is a public event, digest §5.2); hidden shows only the seat's own.")
START = TABLE.compensation  # start_gold, the parameter seat-order studies vary

_LABELS = {"gold_banners": "gold cashed with banners", "gold_final": "gold cashed at the end",
           "gold_buildings": "gold the buildings paid"}
# The ids the components had before they were named as the game names them: shapes by number, families
# by two letters. Specs written with them still work.
_FORMER_IDS = {**{f"S{i + 1}": name for i, name in enumerate(SHAPES)},
               **{name[:2].upper(): name for name in FAMILIES}}

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


# After a BUILD a seat refills its hand from the display or the deck: taking a display card picks the shape
# of a building it will place. A shape's payout for the solver is the building_points lever (ARK-VAR-1), 0 by
# the rules, paid when the building is placed. Part 1 is not declared: a card in hand is placed sooner or later
# whichever part 1 is chosen (all but a game's last few), so a payout at placement there mostly moves its time.
BUILDING_CHOICE = ComponentChoice(
    attribution="buildings", decisions=("refill",),
    doc="the refill after a BUILD: a seat takes a face-up display card, and so the shape of a building it will "
        "place, or the deck's hidden top card, which takes none (D3, ARK-PLACE-8, ARK-PLACE-1)",
    payout="gold a seat scores at once when it places a building of the shape (building_points)",
    payout_unit="gold", payout_range=(-10, 10), payout_limits=BUILDING_POINTS_RANGE, groups=("shape",))


def component_catalogue(components) -> tuple[dict, ...]:
    """One dict per attributed component: the building shapes in rulebook order (no. 1-7, group
    "shape"), then the seal families (group "family"). Each is called by its English name (the
    components file's keys, 004's names in English); the label gives the rulebook's German name
    and what tells it apart on the table (the shape's number, the seal's colour)."""
    shapes = tuple({"component": i, "id": name, "group": "shape", "label": f"{shape.german}, no. {i + 1}"}
                   for i, (name, shape) in enumerate(zip(SHAPES, components.shapes, strict=True)))
    families = tuple({"component": len(SHAPES) + i, "id": name, "group": "family",
                      "label": f"{FAMILY_NAMES[i]}, {FAMILY_COLOURS[i]} seal"} for i, name in enumerate(FAMILIES))
    return shapes + families


def _categories(game) -> tuple[ScoreCategory, ...]:
    """The parts of the final gold besides the start gold: the rulebook's two, and the buildings' own
    gold where the building_points lever is set (ARK-VAR-1)."""
    docs = CATEGORY_DOCS | (BUILDING_CATEGORY_DOCS if game.pays_buildings else {})
    return tuple(ScoreCategory(column, _LABELS[column], doc) for column, doc in docs.items())


def arkadia_profile(game) -> GameProfile:
    return GameProfile(
        game=TABLE.game,
        title="Die Baumeister von Arkadia",
        player_counts=TABLE.player_counts,
        score_column="final_gold",
        score_unit="gold",
        categories=_categories(game),
        records=dict(RECORD_DOCS),
        seat_view=SEAT_VIEW,
        attributions=(Attribution(
            name="buildings", label="building shapes and seal families", singular="building shape or seal family",
            board_column="board_components", events_column="components", id_field="component", payoff_field="gold",
            group_label="kind", catalogue=component_catalogue(game.components),
            payoff_fields=("gold", "seals", "tents"), renamed=_FORMER_IDS),),
        compensation=Compensation(
            parameter=START.name, column="start_gold", label="start gold", unit="gold", fixed_first=0,
            rulebook=dict(START.vectors),
            named={"rulebook": "every seat starts without gold (004)", "equal": "every seat starts with 0"},
            tiebreak_column="tiebreak", adds_to_score=True),
        variants=VARIANTS,
        choices=(BUILDING_CHOICE,),
        data_overrides={"components": "components.toml in sim/games/arkadia/data/: grid, tents, castle site, shapes "
                                      "and their cards, first-game layout (read only with intro_setup)"},
        shared_wins="ARK-END-5",
    )
