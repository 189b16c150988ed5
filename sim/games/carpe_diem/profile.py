"""Carpe Diem's profile: what the lab's studies and reports may know about it (``sim.profile``)."""

from bgsim.sim.games.carpe_diem.components import DATA_FILES
from bgsim.sim.games.carpe_diem.constants import COUNTER_NAMES, DECKS
from bgsim.sim.games.carpe_diem.params import TABLE
from bgsim.sim.games.carpe_diem.records import CATEGORY_DOCS, RECORD_DOCS, SOLO_RECORD_DOCS
from bgsim.sim.profile import (
    Attribution,
    AutomaProfile,
    Compensation,
    ComponentChoice,
    GameProfile,
    Knob,
    ScoreCategory,
    VariantInfo,
)

__all__ = ["DECKS", "carpe_diem_profile"]

PAYOUT_KINDS = ("vp", "coins", "bread", "steps")
_PAYOUT_NAMES = {"vp": "VP", "coins": "coin", "bread": "bread", "steps": "step"}
_GOODS = ("fish", "herb", "grape", "chicken")

# Variants of reconstructed components, in report order: the parameters they set and the data files
# they replace. A tile file's recipe, "<family> <percent>", is a shift of one tile family
# (experiments/carpe_diem/variants.py derives the file).
_SHIFTED_FAMILIES = ("villas", "landscapes", "lodgings", "small_buildings")
_SHIFT_PERCENT = 25
VARIANTS: tuple[VariantInfo, ...] = (
    VariantInfo("villa_table_alternative", "the alternative villa table of RN §5 (2c - 3 up to 13 chimneys, 26 at "
                "14): 1 VP less for villas of 10-13 chimneys", params={"villa_vp_table": "linear"}),
    VariantInfo("frame_line_straddle", "AMB-1 reading (b): a frame task's arrow marks a grid line the feature must "
                "straddle", params={"frame_line_mode": "straddle"}),
    *(VariantInfo(f"tiles_{family}_{word}{_SHIFT_PERCENT}",
                  f"{family.replace('_', ' ')}: part count {sign}{_SHIFT_PERCENT} % (rounded per type); the other "
                  "families give or take the difference in proportion; 84 light + 39 dark tiles",
                  data={"tiles": f"{family} {sign}{_SHIFT_PERCENT}"})
      for family in _SHIFTED_FAMILIES for word, sign in (("plus", "+"), ("minus", "-"))),
)

_LABELS = {"vp_cards": "scoring cards", "vp_villas": "villas", "vp_leftovers": "leftovers", "vp_banner": "banner",
           "vp_fountain_cards": "fountain cards", "vp_frame_tasks": "frame tasks"}

SEAT_VIEW = ("A seat sees the whole board, every player's goods, coins, bread, banner position and villa track, "
             "the scoring cards and the open tiles. Hidden from it: the order of the face-down tile stocks, "
             "the fountain cards in other players' hands and the fountain deck (CD-SETUP, CD-FOUNTAIN).")

# How each difficulty knob (a tunable lever of TABLE) reads at the table: (label, +1 if a larger value
# makes Anna harder, how a player applies a value, search). ``search`` is the range a calibration
# tries when none is given: wide enough for every rung of the strategy ladder, within each
# parameter's legal values.
_KNOB_TEXT = {
    "anna_start_vp": ("Anna's start VP", +1, "Anna starts with {value} VP", (-250, 150)),
    "anna_majority_vp": ("Anna's VP per majority", +1, "Anna scores {value} VP per majority ({half} for a tie)",
                         (0, 60)),
    "anna_convert_at": ("items per banner step for Anna", -1, "Anna turns every {value} items into a banner step",
                        (1, 20)),
    "anna_extra_steps": ("Anna's extra banner steps per pass", +1,
                         "Anna's banner disc moves {value} step{s} at the start of each pass", (0, 20)),
}
KNOBS = tuple(Knob(row.name, _KNOB_TEXT[row.name][0], row.default, *_KNOB_TEXT[row.name][1:]) for row in TABLE.tunable)
START = TABLE.compensation  # start_vp, the parameter seat-order studies vary


def _describe(amounts: dict[str, int]) -> str:
    parts = []
    for kind, qty in amounts.items():
        name = _PAYOUT_NAMES[kind]
        parts.append(f"{qty} {name}{'s' if qty != 1 and name in ('coin', 'step') else ''}")
    return " + ".join(parts)


def card_catalogue(components, counter_names: tuple[str, ...]) -> tuple[dict, ...]:
    """One dict per scoring card in engine index order, from the components in use (overrides included)."""
    rows = []
    for index, card in enumerate(components.scoring_cards):
        if card.red:
            needs = {_GOODS[k]: q for k, q in enumerate(card.give) if q}
            requirement = "give " + " + ".join(f"{q} {name}" for name, q in needs.items())
        else:
            requirement = "have " + " + ".join(f"{q} {counter_names[c]}" for c, q in card.have)
        payout = {kind: int(q) for kind, q in zip(PAYOUT_KINDS, card.payout, strict=True) if q}
        rows.append({"card": index, "id": card.id, "group": DECKS[card.deck], "deck": DECKS[card.deck],
                     "colour": "red" if card.red else "green", "requirement": requirement,
                     "payout": _describe(payout), "give_units": int(sum(card.give)) if card.red else 0,
                     **{f"pay_{kind}": int(q) for kind, q in zip(PAYOUT_KINDS, card.payout, strict=True)}})
    return tuple(rows)


# A disc placement picks the pair of cards it triggers; a card's payout for the solver is its VP per
# fulfilment, on top of its other payouts: most C cards pay coins, bread or steps, so a card that is
# worth too much can only be evened by a VP cost (a negative VP payout).
CARD_CHOICE = ComponentChoice(
    attribution="scoring_cards", decisions=("disc",),
    doc="the scorer puts a disc on an empty live space and so triggers the two cards beside it (D08, CD-SCORING-3, "
        "CD-SCORING-4)",
    payout="VP per fulfilment (beside its other payouts; below 0 a VP cost)", payout_unit="VP",
    payout_range=(-15, 30),
    ablation="the card's slot holds another card of its deck instead, one not dealt in that game (CD-SETUP-6)")


def carpe_diem_profile(game) -> GameProfile:
    """The profile of a built game (its player count, parameters and component data)."""
    records = dict(RECORD_DOCS) | (dict(SOLO_RECORD_DOCS) if game.solo else {})
    automa = AutomaProfile(
        name="Anna", player_counts=(1,), knobs=KNOBS, score_column="anna_vp", margin_column="margin",
        category_columns={"start": "anna_vp_start", "banner": "anna_vp_banner", "villas": "anna_vp_villa",
                          "majorities": "anna_vp_majority", "fountain cards": "anna_vp_fountain"},
        rules_parameters=TABLE.automa_rules,
        calibration_knob="anna_start_vp",
    )
    return GameProfile(
        game=TABLE.game,
        title="Carpe Diem",
        player_counts=TABLE.player_counts,
        score_column="final_vp",
        score_unit="VP",
        categories=tuple(ScoreCategory(column, _LABELS[column], doc) for column, doc in CATEGORY_DOCS.items()),
        records=records,
        seat_view=SEAT_VIEW,
        attributions=(Attribution(
            name="scoring_cards", label="scoring cards", singular="scoring card", board_column="board_cards",
            events_column="cards", id_field="card", payoff_field="vp", group_label="deck",
            catalogue=card_catalogue(game.components, COUNTER_NAMES), payoff_fields=PAYOUT_KINDS),),
        compensation=Compensation(
            parameter=START.name, column="start_vp", label="start VP", unit="VP", fixed_first=START.vectors[2][0],
            rulebook={n: tuple(v) for n, v in START.vectors.items() if n > 1},  # solo has no seat order
            named={"rulebook": "the rulebook's start VP (CD-SETUP-14)", "equal": "every seat starts with 8 VP"},
            tiebreak_column="tiebreak"),
        automa=automa,
        variants=VARIANTS,
        choices=(CARD_CHOICE,) if not game.solo else (),
        measures={"penalties": "-4 VP penalties for unfulfilled scoring cards in a game, every seat's together "
                               "(CD-CARD-6)"},
        data_overrides={name: f"{name}.toml in sim/games/carpe_diem/data/" for name in DATA_FILES},
    )

