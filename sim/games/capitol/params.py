"""Capitol parameters: one table (``TABLE``) with the player count, every ambiguity of the rules
digest (AMB-1..18) by name with its default, the start-points vector (the compensation parameter),
the items' points (a lab lever, CAP-VAR-1) and the board data file. From it come ``Params``
(``from_dict`` raises one-line GameIdErrors), ``PARAM_DOCS`` and the index constants (``PR_...``,
written to ``param_slots.py``) of the ``(N_PARAMS,) int32`` array that ``Params.to_array`` packs for
the kernels; ``sim/games/parameters.py`` says how."""

from bgsim.sim.games.capitol.state import AUCTIONS
from bgsim.sim.games.parameters import GameParams, Param, ParamTable, per_component_text, per_component_values

__all__ = ["ITEM_POINTS_RANGE", "PARAM_DOCS", "Params", "START_POINTS", "TABLE", "check_item_points",
           "item_points_of"]

START_POINTS = {2: (0, 0), 3: (0, 0, 0), 4: (0, 0, 0, 0)}  # CAP-SETUP-10
ITEM_POINTS_RANGE = (-20, 20)  # CAP-VAR-1: what one item may pay its winner


def check_item_points(value) -> str:
    """The canonical text of ``item_points`` (CAP-VAR-1): one integer for every auction item, or one
    per track slot 0..11 joined by '/'; "0" is the rulebook."""
    return per_component_text("item_points", value, AUCTIONS, *ITEM_POINTS_RANGE, "item")


def item_points_of(text: str) -> tuple[int, ...]:
    """Points of auction items 0..11 for a canonical ``item_points`` value."""
    return per_component_values(text, AUCTIONS)


# Rows with a slot fill the compiled array in table order.
TABLE = ParamTable("capitol", (
    Param("n_players", "players", 4, "player count 2..4", rule="CAP-SETUP-1", low=2, high=4, slot="PR_N_PLAYERS"),
    Param("start_seat", "seat", 0, "seat of the first consul: 0..n-1 (seat 1 = 0), or 'random' (from the chance "
          "seed)", rule="CAP-SETUP-11", slot="PR_START_SEAT"),
    Param("shared_first_second", "choice", "next_group", "after a shared first place: next_group (the next stone "
          "group is second) or none", rule="AMB-1", choices=("next_group", "none"), slot="PR_SHARED_FIRST_SECOND"),
    Param("first_tiebreak", "choice", "tallest_house", "a first-place tie on stones: tallest_house (the tallest "
          "house wins) or none (shared)", rule="AMB-2", choices=("tallest_house", "none"), slot="PR_FIRST_TIEBREAK"),
    Param("temple_from", "choice", "same_round", "a temple doubles from the scoring of its round (same_round) or "
          "from the next (next_round)", rule="AMB-3", choices=("same_round", "next_round"), slot="PR_TEMPLE_FROM"),
    Param("zero_bid_policy", "choice", "remove", "when nobody bids: remove the item, or tie_rule (it goes free to "
          "the unique lowest score)", rule="AMB-5", choices=("remove", "tie_rule"), slot="PR_ZERO_BID"),
    Param("allow_null_play", "flag", True, "a card may be played without its action (true) or only with one "
          "(false)", rule="AMB-6", slot="PR_NULL_PLAY"),
    Param("hand_limit", "int", None, "most cards in hand: none, or an integer (a seat at the limit draws no more)",
          rule="AMB-7", low=1, none=0, slot="PR_HAND_LIMIT"),
    Param("short_stone_take", "choice", "take_rest", "a stone card with 1 stone left: take_rest (take it) or none",
          rule="AMB-8", choices=("take_rest", "none"), slot="PR_SHORT_TAKE"),
    Param("partial_stone_take", "flag", False, "a stone card may take fewer stones than it could (true) or takes 2 "
          "or none (false)", rule="AMB-9", slot="PR_PARTIAL_TAKE"),
    Param("max_unfinished", "choice", "none", "unfinished houses a seat may have: none (no limit) or unused_roofs",
          rule="AMB-10", choices=("none", "unused_roofs"), slot="PR_MAX_UNFINISHED"),
    Param("bonus_draws_optional", "flag", True, "the amphitheatre draws may be declined (true)", rule="AMB-11",
          slot="PR_BONUS_OPTIONAL"),
    Param("base_draws_optional", "flag", False, "the 6 base draws may be declined (false: they are mandatory)",
          rule="AMB-11", slot="PR_BASE_OPTIONAL"),
    Param("bid_discard_order", "choice", "stack_order", "order a winning bid enters the discard piles: "
          "stack_order, winner_choice or canonical", rule="AMB-13",
          choices=("stack_order", "winner_choice", "canonical"), slot="PR_DISCARD_ORDER"),
    Param("reveal_played_values", "flag", False, "build-phase cards are shown before they are discarded (true) or "
          "only their type is public (false)", rule="AMB-14", slot="PR_REVEAL_VALUES"),
    Param("draw_pile_visibility", "choice", "top", "a seat sees the top card of each draw pile (top) or the whole "
          "pile (all)", rule="AMB-15", choices=("top", "all"), slot="PR_PILE_VISIBLE"),
    Param("final_tiebreak", "choice", "shared", "equal final scores: shared win, or stones (more stones on the "
          "board wins, then shared)", rule="AMB-16", choices=("shared", "stones"), slot="PR_FINAL_TIEBREAK"),
    # The kernels read the catch-up rule: 1 when the lower score wins a tied bid.
    Param("tied_bid", "choice", "lower_score", "equal highest bids: lower_score (the rule: the lower score wins) "
          "or remove (every tie removes the item), to measure the catch-up rule", rule="CAP-AUCTION-7",
          choices=("lower_score", "remove"), slot="PR_CATCH_UP", encode=lambda value, _: int(value == "lower_score")),
    Param("build_card", "choice", "any", "which cards a build action may spend: any (the rules: every distinct "
          "card of the right type is a row, and the card kept is the one bid with later) or lowest (a "
          "simplification: only the lowest card of each type, of each colour for permits)", rule="CAP-BUILD-6",
          choices=("lowest", "any"), slot="PR_BUILD_CARD"),
    Param("start_points", "start", "rulebook", "start points by seat: rulebook (all 0), equal, or a list such as "
          "'0/1/2'", rule="CAP-SETUP-10", vectors=START_POINTS, example="0/1/2", slot="PR_START", width=4,
          lever="compensation"),
    Param("height_tie_losers", "choice", "second", "seats that tie for first on stones and lose on the tallest "
          "house: second (they take second place, the digest's reading of the sidebar) or none (second place "
          "goes to the next stone group, the main text's \"zweitmeisten Bausteinen\"; they score nothing)",
          rule="CAP-SCORE-6", choices=("second", "none"), slot="PR_HEIGHT_TIE_LOSERS"),
    # Appended after the recorded rows, so their indices stay where they were.
    Param("item_points", "text", "0", "a lab lever, not a rule: points the winner of each auction item scores at "
          "once when it wins it, one integer -20..20 for every item or 12 joined by '/' in track order "
          "(round1_fountain1, round1_fountain2, round1_amphitheatre ... round4_temple); 0 = the rulebook",
          rule="CAP-VAR-1", check=check_item_points,
          encode=lambda value, _: item_points_of(value), slot="PR_ITEM_POINTS", width=AUCTIONS),
    Param("data_dir", "path", None, "directory with a replacement board.toml; any other TOML file there is an error"),
    Param("board_file", "path", None, "replacement board.toml (AMB-18: prefectures, colours, small spaces, large "
          "sites, fountains)"),
))
PARAM_DOCS = TABLE.docs


@TABLE.params_class
class Params(GameParams):
    """Capitol's parameters: one field per row of ``TABLE``."""

    def data_files(self) -> dict:
        """Replacement data files by name (only the board)."""
        return {"board": self.board_file}
