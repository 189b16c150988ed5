"""Capitol's profile: what the lab's studies and reports may know about it (``sim.profile``)."""

from bgsim.sim.games.capitol.params import ITEM_POINTS_RANGE, TABLE
from bgsim.sim.games.capitol.records import CATEGORY_DOCS, ITEM_CATEGORY_DOCS, RECORD_DOCS
from bgsim.sim.games.capitol.state import AUCTION_ITEMS, ITEM_NAMES
from bgsim.sim.profile import Attribution, Compensation, ComponentChoice, GameProfile, ScoreCategory, VariantInfo

__all__ = ["ITEM_CHOICE", "SEAT_VIEW", "VARIANTS", "capitol_profile", "item_catalogue"]

SEAT_VIEW = ("A seat sees the board, every player's area (houses, unused roofs), the stone supply, the scores, "
             "the consul, who has passed, how many cards of each type every hand holds, the cards drawn face up "
             "and the bids shown at each reveal, and the top card of each draw pile. Hidden from it: the cards "
             "dealt to the other seats, the values of cards played face down (AMB-14), the other bids until the "
             "reveal, and the draw piles below their top cards (digest §5.2).")

# Variants for the robustness study, in report order: the parameters they set and the board they
# play on, by the name of a board transform (experiments/capitol/variants.py derives the file). Board
# variants keep the exact facts: nine prefectures, three per colour, the Capitoline's two printed
# fountains, four in all.
VARIANTS: tuple[VariantInfo, ...] = (
    VariantInfo("no_catch_up", "CAP-AUCTION-7 off: every tied highest bid removes the item (tied_bid = remove)",
                params={"tied_bid": "remove"}),
    VariantInfo("temple_next_round", "AMB-3 reading (b): a temple doubles from the next round's scoring on",
                params={"temple_from": "next_round"}),
    VariantInfo("second_next_group", "CAP-SCORE-6 main-text reading: after a height tie-break second place goes to "
                "the next stone group (height_tie_losers = none)", params={"height_tie_losers": "none"}),
    VariantInfo("build_lowest_card", "the former simplification: a build spends the lowest card of its type "
                "(build_card = lowest)", params={"build_card": "lowest"}),
    VariantInfo("board_even_spaces", "board: every prefecture 6 small spaces (54 in all, as reconstructed)",
                data={"board": "even_spaces"}),
    VariantInfo("board_tight", "board: one small space fewer in every prefecture (45 in all)",
                data={"board": "tight"}),
    VariantInfo("board_fountains_large", "board: the single printed fountains on the largest prefecture of their "
                "colour", data={"board": "fountains_large"}),
    VariantInfo("board_fountains_small", "board: the single printed fountains on the smallest prefecture of their "
                "colour", data={"board": "fountains_small"}),
    VariantInfo("board_groups_by_size", "board: colour groups of alike prefectures (5/5/5, 6/6/6, 7/7/7 small "
                "spaces)", data={"board": "groups_by_size"}),
)

START = TABLE.compensation  # start_points, the parameter seat-order studies vary
_LABELS = {"pts_majority": "majorities", "pts_fountain": "fountains", "pts_temple": "temples", "pts_item": "items"}

# A seat's first bid card of an auction decides whether it goes for the item; an item's payout for
# the solver is the item_points lever (CAP-VAR-1), 0 by the rules.
ITEM_CHOICE = ComponentChoice(
    attribution="items", decisions=("bid",),
    doc="a seat's first bid card of an auction goes for the item under auction, its stop card lets it go (D2, "
        "CAP-AUCTION-3)",
    payout="points its winner scores at once (item_points)", payout_unit="points", payout_range=(-10, 10),
    payout_limits=ITEM_POINTS_RANGE,
    ablation="the item is taken off the auction track before the game: its auction does not take place")
_ORDINAL = ("1st", "2nd", "3rd")


def item_catalogue() -> tuple[dict, ...]:
    """One dict per auction slot in track order (CAP-SETUP-9): the item and the round it is auctioned in.
    The game names an item by its kind and round ("1. Runde: Brunnen / Brunnen / Amphitheater"), so
    its id does too: round1_fountain1, round1_fountain2, round1_amphitheatre, ... round4_temple."""
    rows = []
    for slot, kind in enumerate(AUCTION_ITEMS):
        name = ITEM_NAMES[int(kind)]
        rnd = slot // 3 + 1
        nth = _nth_of_kind(slot)
        label = f"{_ORDINAL[slot % 3]} auction of round {rnd}"  # where it lies on the track, which the id leaves out
        rows.append({"item": slot, "id": f"round{rnd}_{name}{nth + 1 if name == 'fountain' else ''}",
                     "group": name, "label": label, "kind": name, "round": rnd})
    return tuple(rows)


def _nth_of_kind(slot: int) -> int:
    """How many items of the slot's kind its round auctions before it (0 for the first)."""
    first = slot // 3 * 3
    return sum(1 for s in range(first, slot) if AUCTION_ITEMS[s] == AUCTION_ITEMS[slot])


def _former_ids() -> dict[str, str]:
    """The ids the items had before they were named by kind and round (R1F1, R2A, R3T ...): specs
    written with them still work."""
    out = {}
    for row in item_catalogue():
        nth = _nth_of_kind(row["item"])
        out[f"R{row['round']}{row['kind'][0].upper()}{nth + 1 if row['kind'] == 'fountain' else ''}"] = row["id"]
    return out


def _categories(game) -> tuple[ScoreCategory, ...]:
    """The parts of the final score besides the start points: the rulebook's three, and the items' own
    points where the item_points lever is set (CAP-VAR-1)."""
    docs = CATEGORY_DOCS | (ITEM_CATEGORY_DOCS if game.pays_items else {})
    return tuple(ScoreCategory(column, _LABELS[column], doc) for column, doc in docs.items())


def capitol_profile(game) -> GameProfile:
    return GameProfile(
        game=TABLE.game,
        title="Capitol",
        player_counts=TABLE.player_counts,
        score_column="final_points",
        score_unit="points",
        categories=_categories(game),
        records=dict(RECORD_DOCS),
        seat_view=SEAT_VIEW,
        attributions=(Attribution(
            name="items", label="auction items", singular="auction item", board_column="board_items",
            events_column="items", id_field="item", payoff_field="points", group_label="item kind",
            catalogue=item_catalogue(), payoff_fields=("points", "price", "draws"), renamed=_former_ids()),),
        compensation=Compensation(
            parameter=START.name, column="start_points", label="start points", unit="points",
            fixed_first=START.vectors[2][0], rulebook=dict(START.vectors),
            named={"rulebook": "every seat starts with 0 points (CAP-SETUP-10)", "equal": "every seat starts with 0"},
            tiebreak_column="tiebreak", adds_to_score=True,
            changes_play="a tied highest bid goes to the bidder with the lower score (CAP-AUCTION-7), and the "
                         "strategies bid knowing who would win a tie, so start points change the auctions"),
        variants=VARIANTS,
        choices=(ITEM_CHOICE,),
        measures={"unsold_items": "auction items nobody won in a game (out of 12)"},
        data_overrides={"board": "board.toml in sim/games/capitol/data/: prefectures, colours, spaces, fountains"},
        shared_wins="CAP-END-2" if game.params.final_tiebreak == "shared" else "",
    )
