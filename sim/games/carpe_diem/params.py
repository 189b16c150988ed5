"""Carpe Diem parameters: one table (``TABLE``) with the player count, every ambiguity (AMB-n),
the solo rules against Anna and the component-data choices, each with the default the rules digest
chose. From it come ``Params`` (``from_dict`` raises one-line GameIdErrors), ``PARAM_DOCS`` and the
index constants (``PR_...``, written to ``param_slots.py``) of the ``(N_PARAMS,) int32`` array that
``Params.to_array`` packs for the compiled kernels; ``sim/games/parameters.py`` says how.
"""

import re

from bgsim.sim.errors import GameIdError
from bgsim.sim.games.carpe_diem.constants import START_VP
from bgsim.sim.games.parameters import GameParams, Param, ParamTable, Slot

__all__ = ["PARAM_DOCS", "Params", "TABLE"]

ANNA_CRITERIA = "abcd"  # CD-ANNA-15 (a)-(d); (e) is anna_tiebreak and always comes last
DATA_NAMES = ("tiles", "boards", "frames", "villa_table", "track", "scoring_cards", "fountain_cards")


def _parse_solo_cards(value) -> tuple[int, int, int, int]:
    """'2A2B1C1D' -> (2, 2, 1, 1); six cards from decks A-D, each deck at most once."""
    text = str(value).replace(" ", "").upper()
    pairs = re.fullmatch(r"(?:\d[ABCD])+", text) and re.findall(r"(\d)([ABCD])", text)
    counts = [0, 0, 0, 0]
    if pairs:
        for number, deck in pairs:
            counts["ABCD".index(deck)] += int(number)
    if not pairs or len({d for _, d in pairs}) != len(pairs) or sum(counts) != 6:
        raise GameIdError(f"solo_cards must name 6 cards by deck like '2A2B1C1D', got {value!r}")
    return tuple(counts)


def _check_anna_order(value) -> str:
    """'a,b,c,d' or a subset in another order; criterion (e) always comes last."""
    if isinstance(value, list | tuple):
        value = ",".join(str(v) for v in value)
    parts = [p.strip().lower() for p in str(value).split(",") if p.strip()]
    parts = [p for p in parts if p != "e"]
    if not parts or any(p not in ANNA_CRITERIA for p in parts) or len(set(parts)) != len(parts):
        raise GameIdError(f"anna_candidate_order must list criteria from a, b, c, d once each like 'a,b,c,d', "
                          f"got {value!r}")
    return ",".join(parts)


def _check_frame_task_vp(value) -> str | None:
    if value is None:
        return None
    parts = str(value).split("/")
    if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
        raise GameIdError(f"frame_task_vp must look like '5/4/3' (landscape/lodging/villa), got {value!r}")
    return "/".join(p.strip() for p in parts)


def _check_villa_vp_table(value) -> str:
    if not isinstance(value, str) or not value:
        raise GameIdError(f"villa_vp_table must name a table of villa_table.toml, got {value!r}")
    return value


def _check_solo_cards(value) -> str:
    _parse_solo_cards(value)
    return value


def _start_codes(value, params) -> tuple[int, ...]:
    """Start VP by seat; in a solo game the human's (CD-ANNA-8: 8), then Anna's."""
    start = params.start_vector()
    return (*start, params.anna_start_vp) if params.solo else start


def _anna_order_codes(value, params) -> tuple[int, ...]:
    """The CD-ANNA-15 criteria in the order applied, -1 for each unused entry."""
    order = params.anna_order()
    return (*order, *(-1,) * (len(ANNA_CRITERIA) - len(order)))


def _choice(name, default, choices, doc, rule, slot=None, automa=False) -> Param:
    return Param(name, "choice", default, doc, rule=rule, choices=choices, slot=slot, automa=automa)


def _flag(name, default, doc, rule, slot=None) -> Param:
    return Param(name, "flag", default, doc, rule=rule, slot=slot)


# Rows with a slot fill the compiled array in table order.
TABLE = ParamTable("carpe_diem", (
    Param("n_players", "players", 4, "player count 2..4 (seat 0 is the start player of pass 1); 1 = solo against "
          "the automa Anna (CD-ANNA: the human in seat 0, Anna in seat 1)", rule="CD-SETUP-1", low=1, high=4,
          what="2 to 4 players or solo (1)", slot="PR_N_PLAYERS",
          encode=lambda value, _: 2 if value == 1 else value),  # solo: the board has two seats, the human and Anna
    _choice("frame_line_mode", "cell_line", ("cell_line", "straddle"), "what a frame task's arrow line is: a "
            "row/column of cells, or a grid line to straddle", "AMB-1", "PR_FRAME_LINE_STRADDLE"),
    Param("landscape_max_tiles", "int", 4, "a placement may not make a landscape larger than this (none = no limit)",
          rule="AMB-2", low=2, none=0, slot="PR_LANDSCAPE_MAX"),
    Param("landscape_reward_cap", "int", None, "most goods one completed landscape yields (none = size - 1 always)",
          rule="AMB-2", low=0, none=0, slot="PR_LANDSCAPE_REWARD_CAP"),
    _choice("full_loop", "allow", ("allow", "bread_else_stay"), "when only the mover's own depot has tiles: loop "
            "around, or pay bread if possible", "AMB-3", "PR_FULL_LOOP_BREAD"),
    _flag("bread_counts_as_fulfilment", True, "a card fulfilled only with 3 bread avoids the -4 VP", "AMB-6",
          "PR_BREAD_COUNTS"),
    _choice("supply_limits", "none", ("none", "physical"), "goods/coins/bread unlimited, or the physical supply "
            "(5 per good, 24 coins, 18 bread)", "AMB-7", "PR_SUPPLY_LIMITS"),
    Param("bread_fulfilments_per_card", "int", None, "most 3-bread fulfilments on one card (none = no limit)",
          rule="AMB-8", low=0, none=-1, slot="PR_BREAD_PER_CARD"),
    Param("bread_fulfilments_per_scoring", "int", None, "most 3-bread fulfilments in one pass scoring (none = no "
          "limit)", rule="AMB-8", low=0, none=-1, slot="PR_BREAD_PER_SCORING"),
    _flag("red_card_min_one_if_able", False, "a player able to fulfil a red card must fulfil it at least once",
          "AMB-9", "PR_RED_MIN_ONE"),
    _flag("first_tile_may_be_stored", False, "the first tile taken may be stored instead of built on the shovel",
          "AMB-10", "PR_FIRST_TILE_STORE"),
    _choice("reward_order", "player", ("player", "fixed"), "rewards of one build in an order the player chooses, "
            "or a fixed order", "AMB-11", "PR_REWARD_ORDER_FIXED"),
    _flag("craftsman_optional", False, "the craftsman's seal tile may be declined", "AMB-12", "PR_CRAFTSMAN_OPTIONAL"),
    _flag("craftsman_tile_may_be_stored", True, "the craftsman's seal tile may be stored instead of built", "AMB-12",
          "PR_CRAFTSMAN_STORE"),
    _choice("tie_stack_order", "lower_is_back", ("lower_is_back", "upper_is_back"), "on a shared banner space, "
            "which disc counts as further back", "AMB-13", "PR_TIE_UPPER_IS_BACK"),
    _choice("patrician_placement", "before_reveal", ("before_reveal", "after_reveal"), "patricians are placed "
            "before or after the pass-1 tiles are revealed", "AMB-14", "PR_PATRICIANS_AFTER_REVEAL"),
    _flag("bread_target_must_have_tiles", True, "a bread move must end at a depot with tiles", "AMB-15",
          "PR_BREAD_TARGET_TILES"),
    _choice("track_overflow_vp", "all", ("all", "administrator_only"), "steps beyond the track end pay 1 VP for "
            "every source, or only the administrator's", "AMB-16", "PR_OVERFLOW_ADMIN_ONLY"),
    Param("vp_floor", "int", None, "lowest possible VP (none = VP may go negative)", rule="AMB-17", low=0, none=-1,
          slot="PR_VP_FLOOR"),
    _choice("fountain_short_deck", "draw_available", ("draw_available", "none"), "a fountain with fewer than 2 "
            "cards left draws what is there, or nothing", "AMB-18", "PR_FOUNTAIN_SHORT_NONE"),
    _flag("feature_scores_one_task_only", False, "one completed feature satisfies at most one frame task", "AMB-19",
          "PR_ONE_TASK_PER_FEATURE"),
    Param("frame_task_vp", "text", None, "VP of landscape/lodging/villa tasks as 'L/U/V' (none = the values in "
          "frames data)", rule="AMB-30", check=_check_frame_task_vp),
    _flag("canonical_payment", False, "pay red cards with own goods first (no payment decision)", "CD-CARD-9",
          "PR_CANONICAL_PAYMENT"),
    # The physical supply per good kind, of coins and of bread (AMB-7; 000 SPIELMATERIAL).
    Slot("PR_SUPPLY_GOODS", lambda params: 5, "goods of each kind in the physical supply"),
    Slot("PR_SUPPLY_COINS", lambda params: 24, "coins in the physical supply"),
    Slot("PR_SUPPLY_BREAD", lambda params: 18, "bread in the physical supply"),
    _flag("vp_public", True, "VP are public (affects only what a seat may observe)", "CD-INFO-3"),
    _choice("three_player_empty_corners", "top_left_bottom_right", ("top_left_bottom_right", "top_right_bottom_left"),
            "which two opposite card-slot corners stay empty with 3 players", "CD-SETUP-7"),
    Param("start_vp", "start", "rulebook", "start VP by seat from the start player: rulebook (8/9, 8/9/13, "
          "8/9/10/11), equal (every seat 8) or a list such as '8/9/12'", rule="CD-SETUP-14",
          vectors={1: (8,), **START_VP}, example="8/9/12", slot="PR_START_VP", width=4, encode=_start_codes,
          lever="compensation"),  # solo: CD-ANNA-8, the human starts with 8
    Param("villa_vp_table", "text", "reconstructed", "which villa table of villa_table.toml to use", rule="CD-END-2",
          check=_check_villa_vp_table),
    Param("banner_track_last", "int", None, "last banner-track position L (none = track.toml)", low=1, none=0),
    Slot("PR_SOLO", lambda params: int(params.solo), "1 in a solo game: the human in seat 0, Anna in seat 1"),
    Param("solo_cards", "text", "2A2B1C1D", "solo scoring cards drawn per deck, e.g. 2A2B1C1D (6 cards in all)",
          rule="CD-ANNA-4", check=_check_solo_cards, slot="PR_SOLO_CARDS", width=4, automa=True,
          encode=lambda value, params: params.solo_card_counts() if params.solo else 0),
    _choice("anna_patrician_placement", "human", ("human", "random"), "the human places Anna's patrician (decision "
            "D12), or it goes to a random space", "AMB-20", "PR_ANNA_PATRICIAN_RANDOM", automa=True),
    _choice("solo_banner_stack", "human_bottom", ("human_bottom", "anna_bottom"), "which banner disc starts at the "
            "bottom of the stack in a solo game", "AMB-21", "PR_ANNA_BOTTOM", automa=True),
    Param("anna_candidate_order", "text", "a,b,c,d", "CD-ANNA-15 criteria in the order Anna applies them, e.g. "
          "'a,b,c,d' (a two parts, b group of the other part, c its track furthest back, d chimneys)", rule="AMB-22",
          check=_check_anna_order, slot="PR_ANNA_ORDER", width=4, encode=_anna_order_codes, automa=True),
    _choice("anna_craftsman_villa", "chimneys", ("chimneys", "one"), "a villa tile from Anna's craftsman roll "
            "advances by its chimneys or by 1", "AMB-23", "PR_ANNA_CRAFTSMAN_ONE", automa=True),
    _choice("anna_majority_count", "completed", ("completed", "any"), "the human's count in a majority: completed "
            "features, or any feature built", "AMB-24", "PR_ANNA_MAJORITY_ANY", automa=True),
    Param("anna_zero_tie_vp", "int", 5, "Anna's VP for a 0-0 majority tie (at most a normal tie's VP)", rule="AMB-24",
          low=0, slot="PR_ANNA_ZERO_TIE_VP", automa=True),
    Param("anna_villa_count_divisor", "int", 5, "Anna's villas for a villa fountain card = villa field // this "
          "(none = 0)", rule="AMB-25", low=1, none=0, slot="PR_ANNA_VILLA_DIVISOR", automa=True),
    _choice("anna_villa_vp", "table_on_total", ("table_on_total", "one_per_chimney", "virtual_villas_of_5"),
            "Anna's villa-track VP: villa table on her chimney total, 1 per chimney, or virtual villas of 5 chimneys",
            "AMB-26", "PR_ANNA_VILLA_VP", automa=True),
    _choice("solo_tie", "banner", ("banner", "human", "anna"), "a solo VP tie: banner discs decide (CD-TIE-2), or "
            "the human, or Anna wins", "AMB-27", "PR_SOLO_TIE", automa=True),
    _choice("anna_row_fallback", "all_tiles", ("all_tiles",), "no symbol of the row in the depot: Anna chooses "
            "among all its tiles", "AMB-28", automa=True),
    Param("anna_track_len", "int", None, "fields per Anna track; the cube stops on the last (none = unbounded)",
          rule="AMB-29", low=2, none=0, slot="PR_ANNA_TRACK_LEN", automa=True),
    _choice("anna_tiebreak", "human", ("human", "random"), "(e) a tie left between Anna's candidates: the human "
            "picks (D13) or random", "CD-ANNA-15", "PR_ANNA_TIEBREAK_RANDOM", automa=True),
    _choice("anna_convert_mode", "total", ("total", "per_category", "per_kind"), "what Anna converts: the total "
            "of coins, bread and goods, 5 of one category, or 5 of one kind", "AMB-4", "PR_ANNA_CONVERT_MODE",
            automa=True),
    _choice("anna_convert_return", "five", ("five", "all"), "on converting Anna returns exactly 5 items, or all of "
            "the converting kind", "AMB-4", "PR_ANNA_CONVERT_ALL", automa=True),
    _choice("anna_craftsman_overflow", "cyclic", ("cyclic", "last", "reroll"), "a craftsman roll above the seal "
            "tiles left counts on cyclically, takes the last, or rolls again", "AMB-5", "PR_ANNA_CRAFTSMAN_OVERFLOW",
            automa=True),
    # Difficulty knobs; anna_start_vp is packed with the start VP (Anna's seat).
    Param("anna_start_vp", "int", 0, "difficulty knob: Anna's start VP (rulebook 0)", low=-999, lever="tunable",
          automa=True),
    Param("anna_majority_vp", "int", 10, "difficulty knob: Anna's VP per track majority, a tie pays half (rulebook "
          "10)", low=0, slot="PR_ANNA_MAJORITY_VP", lever="tunable", automa=True),
    Param("anna_convert_at", "int", 5, "difficulty knob: coins + bread + goods Anna turns into 1 banner step "
          "(rulebook 5)", low=1, slot="PR_ANNA_CONVERT_AT", lever="tunable", automa=True),
    Param("anna_extra_steps", "int", 0, "difficulty knob: banner steps Anna moves at the start of each pass "
          "(rulebook 0)", low=0, slot="PR_ANNA_EXTRA_STEPS", lever="tunable", automa=True),
    Param("anna_file", "path", None, "replacement anna.toml (Anna's automa cards and tracker)"),
    Param("data_dir", "path", None, "directory with replacement data files (any subset of the 7 TOML files, and "
          "anna.toml for a solo game); any other TOML file there is an error"),
    *(Param(f"{name}_file", "path", None, f"replacement {name}.toml") for name in DATA_NAMES),
))
PARAM_DOCS = TABLE.docs


@TABLE.params_class
class Params(GameParams):
    """Carpe Diem's parameters: one field per row of ``TABLE``."""

    @property
    def solo(self) -> bool:
        """A solo game against the automa Anna (CD-ANNA)."""
        return self.n_players == 1

    def data_files(self) -> dict:
        """Replacement files of the 2-4 player component data (anna_file is read apart)."""
        return {name: getattr(self, f"{name}_file") for name in DATA_NAMES}

    def solo_card_counts(self) -> tuple[int, int, int, int]:
        """Cards drawn from decks A..D for a solo game (CD-ANNA-4)."""
        return _parse_solo_cards(self.solo_cards)

    def anna_order(self) -> tuple[int, ...]:
        """CD-ANNA-15 criteria (0..3 for a..d) in the order Anna applies them (AMB-22)."""
        return tuple(ANNA_CRITERIA.index(c) for c in self.anna_candidate_order.split(","))

    def frame_task_values(self) -> tuple[int, int, int] | None:
        """(landscape, lodging, villa) VP from ``frame_task_vp``, or None to keep the data's values."""
        if self.frame_task_vp is None:
            return None
        return tuple(int(x) for x in self.frame_task_vp.split("/"))
