"""Carpe Diem parameters: player count, every ambiguity (AMB-n) and the component-data choices.

Each parameter has the default the rules digest chose. ``Params.from_dict`` checks names and
values and raises a one-line :class:`~sim.errors.GameIdError`; ``to_array`` turns the rule
switches into the (N_PARAMS,) int32 array the compiled kernels read.
"""

import re
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.carpe_diem.constants import START_VP
from bgsim.sim.games.parameters import GameParams, check_start_text, start_vector

__all__ = ["Params", "PARAM_DOCS", "N_PARAMS"]

# Indices into the compiled parameter array.
PR_N_PLAYERS = 0
PR_FRAME_LINE_STRADDLE = 1  # AMB-1: 0 cell_line, 1 straddle
PR_LANDSCAPE_MAX = 2  # AMB-2: max tiles of a landscape, 0 = no limit
PR_LANDSCAPE_REWARD_CAP = 3  # AMB-2: max goods for a landscape, 0 = no cap
PR_FULL_LOOP_BREAD = 4  # AMB-3: 0 allow, 1 bread_else_stay
PR_BREAD_COUNTS = 5  # AMB-6
PR_SUPPLY_LIMITS = 6  # AMB-7: 0 unlimited, 1 physical supply
PR_BREAD_PER_CARD = 7  # AMB-8: -1 no limit
PR_BREAD_PER_SCORING = 8  # AMB-8: -1 no limit
PR_RED_MIN_ONE = 9  # AMB-9
PR_FIRST_TILE_STORE = 10  # AMB-10
PR_REWARD_ORDER_FIXED = 11  # AMB-11: 0 player, 1 fixed
PR_CRAFTSMAN_OPTIONAL = 12  # AMB-12
PR_CRAFTSMAN_STORE = 13  # AMB-12
PR_TIE_UPPER_IS_BACK = 14  # AMB-13
PR_PATRICIANS_AFTER_REVEAL = 15  # AMB-14
PR_BREAD_TARGET_TILES = 16  # AMB-15
PR_OVERFLOW_ADMIN_ONLY = 17  # AMB-16
PR_VP_FLOOR = 18  # AMB-17: -1 none, else the floor
PR_FOUNTAIN_SHORT_NONE = 19  # AMB-18: 0 draw_available, 1 none
PR_ONE_TASK_PER_FEATURE = 20  # AMB-19
PR_CANONICAL_PAYMENT = 21  # CD-CARD-9
PR_SUPPLY_GOODS = 22  # physical supply per good kind (AMB-7)
PR_SUPPLY_COINS = 23
PR_SUPPLY_BREAD = 24
PR_START_VP = 25  # CD-SETUP-14: start VP of seats 0..3 (4 entries); solo: human, Anna
# Solo mode against Anna (CD-ANNA); all 0 in a 2-4 player game.
PR_SOLO = 29  # 1 in a solo game (n_players = 1): the human in seat 0, Anna in seat 1
PR_SOLO_CARDS = 30  # CD-ANNA-4: scoring cards drawn from decks A..D (4 entries)
PR_ANNA_PATRICIAN_RANDOM = 34  # AMB-20: 0 the human places Anna's patrician (D12), 1 random
PR_ANNA_BOTTOM = 35  # AMB-21: 1 Anna's banner disc starts below the human's
PR_ANNA_ORDER = 36  # AMB-22: CD-ANNA-15 criteria a..d in the order applied (4 entries, -1 = unused)
PR_ANNA_CRAFTSMAN_ONE = 40  # AMB-23: a villa from the craftsman roll advances 1 field, not per chimney
PR_ANNA_MAJORITY_ANY = 41  # AMB-24: the human's count = every feature of the type, completed or not
PR_ANNA_ZERO_TIE_VP = 42  # AMB-24: Anna's VP for a 0-0 majority tie
PR_ANNA_VILLA_DIVISOR = 43  # AMB-25: chimneys per villa for a villa fountain card, 0 = Anna has none
PR_ANNA_VILLA_VP = 44  # AMB-26: 0 table_on_total, 1 one_per_chimney, 2 virtual_villas_of_5
PR_SOLO_TIE = 45  # AMB-27: 0 banner (CD-TIE-2), 1 the human wins ties, 2 Anna wins ties
PR_ANNA_TRACK_LEN = 46  # AMB-29: fields per track, 0 = unbounded
PR_ANNA_TIEBREAK_RANDOM = 47  # CD-ANNA-15 (e): 0 the human picks (D13), 1 random
PR_ANNA_CONVERT_MODE = 48  # AMB-4: 0 total, 1 per_category, 2 per_kind
PR_ANNA_CONVERT_ALL = 49  # AMB-4: 1 return every item of what converts, 0 exactly the threshold
PR_ANNA_CRAFTSMAN_OVERFLOW = 50  # AMB-5: 0 cyclic, 1 last, 2 reroll
PR_ANNA_MAJORITY_VP = 51  # difficulty knob: Anna's VP per track majority (a tie pays half)
PR_ANNA_CONVERT_AT = 52  # difficulty knob: items Anna converts into 1 banner step
PR_ANNA_EXTRA_STEPS = 53  # difficulty knob: banner steps Anna gets at the start of each pass
N_PARAMS = 54

ANNA_CRITERIA = "abcd"  # CD-ANNA-15 (a)-(d); (e) is anna_tiebreak and always comes last

_CHOICES = {
    "frame_line_mode": ("cell_line", "straddle"),
    "full_loop": ("allow", "bread_else_stay"),
    "supply_limits": ("none", "physical"),
    "reward_order": ("player", "fixed"),
    "tie_stack_order": ("lower_is_back", "upper_is_back"),
    "patrician_placement": ("before_reveal", "after_reveal"),
    "track_overflow_vp": ("all", "administrator_only"),
    "fountain_short_deck": ("draw_available", "none"),
    "three_player_empty_corners": ("top_left_bottom_right", "top_right_bottom_left"),
    "anna_patrician_placement": ("human", "random"),
    "solo_banner_stack": ("human_bottom", "anna_bottom"),
    "anna_craftsman_villa": ("chimneys", "one"),
    "anna_majority_count": ("completed", "any"),
    "anna_villa_vp": ("table_on_total", "one_per_chimney", "virtual_villas_of_5"),
    "solo_tie": ("banner", "human", "anna"),
    "anna_row_fallback": ("all_tiles",),
    "anna_tiebreak": ("human", "random"),
    "anna_convert_mode": ("total", "per_category", "per_kind"),
    "anna_convert_return": ("five", "all"),
    "anna_craftsman_overflow": ("cyclic", "last", "reroll"),
}

# Integer parameters: (lowest value, None allowed).
_INTEGERS = {
    "n_players": (1, False),
    "landscape_max_tiles": (2, True),
    "landscape_reward_cap": (0, True),
    "bread_fulfilments_per_card": (0, True),
    "bread_fulfilments_per_scoring": (0, True),
    "vp_floor": (0, True),
    "banner_track_last": (1, True),
    "anna_zero_tie_vp": (0, False),
    "anna_villa_count_divisor": (1, True),
    "anna_track_len": (2, True),
    "anna_start_vp": (-999, False),
    "anna_majority_vp": (0, False),
    "anna_convert_at": (1, False),
    "anna_extra_steps": (0, False),
}

# One line per parameter: the rule or ambiguity it settles (shown by `bgsim games` and in docs).
PARAM_DOCS = {
    "n_players": "player count 2..4 (seat 0 is the start player of pass 1, CD-SETUP-1); 1 = solo against "
                 "the automa Anna (CD-ANNA: the human in seat 0, Anna in seat 1)",
    "frame_line_mode": "AMB-1 what a frame task's arrow line is: a row/column of cells, or a grid line to straddle",
    "landscape_max_tiles": "AMB-2 a placement may not make a landscape larger than this (none = no limit)",
    "landscape_reward_cap": "AMB-2 most goods one completed landscape yields (none = size - 1 always)",
    "full_loop": "AMB-3 when only the mover's own depot has tiles: loop around, or pay bread if possible",
    "bread_counts_as_fulfilment": "AMB-6 a card fulfilled only with 3 bread avoids the -4 VP",
    "supply_limits": "AMB-7 goods/coins/bread unlimited, or the physical supply (5 per good, 24 coins, 18 bread)",
    "bread_fulfilments_per_card": "AMB-8 most 3-bread fulfilments on one card (none = no limit)",
    "bread_fulfilments_per_scoring": "AMB-8 most 3-bread fulfilments in one pass scoring (none = no limit)",
    "red_card_min_one_if_able": "AMB-9 a player able to fulfil a red card must fulfil it at least once",
    "first_tile_may_be_stored": "AMB-10 the first tile taken may be stored instead of built on the shovel",
    "reward_order": "AMB-11 rewards of one build in an order the player chooses, or a fixed order",
    "craftsman_optional": "AMB-12 the craftsman's seal tile may be declined",
    "craftsman_tile_may_be_stored": "AMB-12 the craftsman's seal tile may be stored instead of built",
    "tie_stack_order": "AMB-13 on a shared banner space, which disc counts as further back",
    "patrician_placement": "AMB-14 patricians are placed before or after the pass-1 tiles are revealed",
    "bread_target_must_have_tiles": "AMB-15 a bread move must end at a depot with tiles",
    "track_overflow_vp": "AMB-16 steps beyond the track end pay 1 VP for every source, or only the administrator's",
    "vp_floor": "AMB-17 lowest possible VP (none = VP may go negative)",
    "fountain_short_deck": "AMB-18 a fountain with fewer than 2 cards left draws what is there, or nothing",
    "feature_scores_one_task_only": "AMB-19 one completed feature satisfies at most one frame task",
    "frame_task_vp": "AMB-30 VP of landscape/lodging/villa tasks as 'L/U/V' (none = the values in frames data)",
    "canonical_payment": "CD-CARD-9 pay red cards with own goods first (no payment decision)",
    "vp_public": "CD-INFO-3 VP are public (affects only what a seat may observe)",
    "three_player_empty_corners": "CD-SETUP-7 which two opposite card-slot corners stay empty with 3 players",
    "start_vp": "CD-SETUP-14 start VP by seat from the start player: rulebook (8/9, 8/9/13, 8/9/10/11), "
                "equal (every seat 8) or a list such as '8/9/12'",
    "villa_vp_table": "CD-END-2 which villa table of villa_table.toml to use",
    "banner_track_last": "last banner-track position L (none = track.toml)",
    "solo_cards": "CD-ANNA-4 solo scoring cards drawn per deck, e.g. 2A2B1C1D (6 cards in all)",
    "anna_patrician_placement": "AMB-20 the human places Anna's patrician (decision D12), or it goes to a random space",
    "solo_banner_stack": "AMB-21 which banner disc starts at the bottom of the stack in a solo game",
    "anna_candidate_order": "AMB-22 CD-ANNA-15 criteria in the order Anna applies them, e.g. 'a,b,c,d' "
                            "(a two parts, b group of the other part, c its track furthest back, d chimneys)",
    "anna_craftsman_villa": "AMB-23 a villa tile from Anna's craftsman roll advances by its chimneys or by 1",
    "anna_majority_count": "AMB-24 the human's count in a majority: completed features, or any feature built",
    "anna_zero_tie_vp": "AMB-24 Anna's VP for a 0-0 majority tie (at most a normal tie's VP)",
    "anna_villa_count_divisor": "AMB-25 Anna's villas for a villa fountain card = villa field // this (none = 0)",
    "anna_villa_vp": "AMB-26 Anna's villa-track VP: villa table on her chimney total, 1 per chimney, or "
                     "virtual villas of 5 chimneys",
    "solo_tie": "AMB-27 a solo VP tie: banner discs decide (CD-TIE-2), or the human, or Anna wins",
    "anna_row_fallback": "AMB-28 no symbol of the row in the depot: Anna chooses among all its tiles",
    "anna_track_len": "AMB-29 fields per Anna track; the cube stops on the last (none = unbounded)",
    "anna_tiebreak": "CD-ANNA-15 (e) a tie left between Anna's candidates: the human picks (D13) or random",
    "anna_convert_mode": "AMB-4 what Anna converts: the total of coins, bread and goods, 5 of one category, "
                         "or 5 of one kind",
    "anna_convert_return": "AMB-4 on converting Anna returns exactly 5 items, or all of the converting kind",
    "anna_craftsman_overflow": "AMB-5 a craftsman roll above the seal tiles left counts on cyclically, takes "
                               "the last, or rolls again",
    "anna_start_vp": "difficulty knob: Anna's start VP (rulebook 0)",
    "anna_majority_vp": "difficulty knob: Anna's VP per track majority, a tie pays half (rulebook 10)",
    "anna_convert_at": "difficulty knob: coins + bread + goods Anna turns into 1 banner step (rulebook 5)",
    "anna_extra_steps": "difficulty knob: banner steps Anna moves at the start of each pass (rulebook 0)",
    "anna_file": "replacement anna.toml (Anna's automa cards and tracker)",
    "data_dir": "directory with replacement data files (any subset of the 7 TOML files)",
    "tiles_file": "replacement tiles.toml",
    "boards_file": "replacement boards.toml",
    "frames_file": "replacement frames.toml",
    "villa_table_file": "replacement villa_table.toml",
    "track_file": "replacement track.toml",
    "scoring_cards_file": "replacement scoring_cards.toml",
    "fountain_cards_file": "replacement fountain_cards.toml",
}


@dataclass(frozen=True)
class Params(GameParams):
    n_players: int = 4
    frame_line_mode: str = "cell_line"
    landscape_max_tiles: int | None = 4
    landscape_reward_cap: int | None = None
    full_loop: str = "allow"
    bread_counts_as_fulfilment: bool = True
    supply_limits: str = "none"
    bread_fulfilments_per_card: int | None = None
    bread_fulfilments_per_scoring: int | None = None
    red_card_min_one_if_able: bool = False
    first_tile_may_be_stored: bool = False
    reward_order: str = "player"
    craftsman_optional: bool = False
    craftsman_tile_may_be_stored: bool = True
    tie_stack_order: str = "lower_is_back"
    patrician_placement: str = "before_reveal"
    bread_target_must_have_tiles: bool = True
    track_overflow_vp: str = "all"
    vp_floor: int | None = None
    fountain_short_deck: str = "draw_available"
    feature_scores_one_task_only: bool = False
    frame_task_vp: str | None = None
    canonical_payment: bool = False
    vp_public: bool = True
    three_player_empty_corners: str = "top_left_bottom_right"
    start_vp: str = "rulebook"
    villa_vp_table: str = "reconstructed"
    banner_track_last: int | None = None
    data_dir: str | None = None
    tiles_file: str | None = None
    boards_file: str | None = None
    frames_file: str | None = None
    villa_table_file: str | None = None
    track_file: str | None = None
    scoring_cards_file: str | None = None
    fountain_cards_file: str | None = None
    solo_cards: str = "2A2B1C1D"
    anna_patrician_placement: str = "human"
    solo_banner_stack: str = "human_bottom"
    anna_candidate_order: str = "a,b,c,d"
    anna_craftsman_villa: str = "chimneys"
    anna_majority_count: str = "completed"
    anna_zero_tie_vp: int = 5
    anna_villa_count_divisor: int | None = 5
    anna_villa_vp: str = "table_on_total"
    solo_tie: str = "banner"
    anna_row_fallback: str = "all_tiles"
    anna_track_len: int | None = None
    anna_tiebreak: str = "human"
    anna_convert_mode: str = "total"
    anna_convert_return: str = "five"
    anna_craftsman_overflow: str = "cyclic"
    anna_start_vp: int = 0
    anna_majority_vp: int = 10
    anna_convert_at: int = 5
    anna_extra_steps: int = 0
    anna_file: str | None = None

    game_name: ClassVar[str] = "carpe_diem"

    @classmethod
    def from_dict(cls, values: dict) -> "Params":
        """Validated parameters from user input (registry id or spec); unknown names are errors."""
        cls.reject_unknown(values)
        clean = {name: _check(name, value, cls.__dataclass_fields__[name].default) for name, value in values.items()}
        params = cls(**clean)
        cls.check_player_count(params.n_players, 1, 4, "2 to 4 players or solo (1)")
        params.start_vector()  # a list of the wrong length is an error now, not at setup
        return params

    @property
    def solo(self) -> bool:
        """A solo game against the automa Anna (CD-ANNA)."""
        return self.n_players == 1

    def data_files(self) -> dict:
        """Replacement files of the 2-4 player component data (anna_file is read apart)."""
        return {name[: -len("_file")]: getattr(self, name) for name in PARAM_DOCS
                if name.endswith("_file") and name != "anna_file"}

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

    def start_vector(self) -> tuple[int, ...]:
        """Start VP per seat, from the start player (CD-SETUP-14), as ``start_vp`` asks."""
        rulebook = (8,) if self.solo else START_VP[self.n_players]  # CD-ANNA-8: the human starts with 8
        return start_vector("start_vp", self.start_vp, rulebook)

    def to_array(self) -> np.ndarray:
        """The rule switches as a (N_PARAMS,) int32 array for the compiled kernels."""
        a = np.zeros(N_PARAMS, dtype=np.int32)
        a[PR_N_PLAYERS] = self.n_players
        a[PR_FRAME_LINE_STRADDLE] = self.frame_line_mode == "straddle"
        a[PR_LANDSCAPE_MAX] = self.landscape_max_tiles or 0
        a[PR_LANDSCAPE_REWARD_CAP] = self.landscape_reward_cap or 0
        a[PR_FULL_LOOP_BREAD] = self.full_loop == "bread_else_stay"
        a[PR_BREAD_COUNTS] = self.bread_counts_as_fulfilment
        a[PR_SUPPLY_LIMITS] = self.supply_limits == "physical"
        a[PR_BREAD_PER_CARD] = -1 if self.bread_fulfilments_per_card is None else self.bread_fulfilments_per_card
        a[PR_BREAD_PER_SCORING] = (
            -1 if self.bread_fulfilments_per_scoring is None else self.bread_fulfilments_per_scoring
        )
        a[PR_RED_MIN_ONE] = self.red_card_min_one_if_able
        a[PR_FIRST_TILE_STORE] = self.first_tile_may_be_stored
        a[PR_REWARD_ORDER_FIXED] = self.reward_order == "fixed"
        a[PR_CRAFTSMAN_OPTIONAL] = self.craftsman_optional
        a[PR_CRAFTSMAN_STORE] = self.craftsman_tile_may_be_stored
        a[PR_TIE_UPPER_IS_BACK] = self.tie_stack_order == "upper_is_back"
        a[PR_PATRICIANS_AFTER_REVEAL] = self.patrician_placement == "after_reveal"
        a[PR_BREAD_TARGET_TILES] = self.bread_target_must_have_tiles
        a[PR_OVERFLOW_ADMIN_ONLY] = self.track_overflow_vp == "administrator_only"
        a[PR_VP_FLOOR] = -1 if self.vp_floor is None else self.vp_floor
        a[PR_FOUNTAIN_SHORT_NONE] = self.fountain_short_deck == "none"
        a[PR_ONE_TASK_PER_FEATURE] = self.feature_scores_one_task_only
        a[PR_CANONICAL_PAYMENT] = self.canonical_payment
        a[PR_SUPPLY_GOODS], a[PR_SUPPLY_COINS], a[PR_SUPPLY_BREAD] = 5, 24, 18  # 000 SPIELMATERIAL
        start = self.start_vector()
        a[PR_START_VP: PR_START_VP + len(start)] = start
        if self.solo:
            a[PR_N_PLAYERS] = 2  # the board has two seats: the human and Anna
            a[PR_START_VP + 1] = self.anna_start_vp  # CD-ANNA-8: 0 by the rulebook
            a[PR_SOLO] = 1
            a[PR_SOLO_CARDS: PR_SOLO_CARDS + 4] = self.solo_card_counts()
        order = self.anna_order()
        a[PR_ANNA_ORDER: PR_ANNA_ORDER + 4] = -1
        a[PR_ANNA_ORDER: PR_ANNA_ORDER + len(order)] = order
        a[PR_ANNA_PATRICIAN_RANDOM] = self.anna_patrician_placement == "random"
        a[PR_ANNA_BOTTOM] = self.solo_banner_stack == "anna_bottom"
        a[PR_ANNA_CRAFTSMAN_ONE] = self.anna_craftsman_villa == "one"
        a[PR_ANNA_MAJORITY_ANY] = self.anna_majority_count == "any"
        a[PR_ANNA_ZERO_TIE_VP] = self.anna_zero_tie_vp
        a[PR_ANNA_VILLA_DIVISOR] = self.anna_villa_count_divisor or 0
        a[PR_ANNA_VILLA_VP] = _CHOICES["anna_villa_vp"].index(self.anna_villa_vp)
        a[PR_SOLO_TIE] = _CHOICES["solo_tie"].index(self.solo_tie)
        a[PR_ANNA_TRACK_LEN] = self.anna_track_len or 0
        a[PR_ANNA_TIEBREAK_RANDOM] = self.anna_tiebreak == "random"
        a[PR_ANNA_CONVERT_MODE] = _CHOICES["anna_convert_mode"].index(self.anna_convert_mode)
        a[PR_ANNA_CONVERT_ALL] = self.anna_convert_return == "all"
        a[PR_ANNA_CRAFTSMAN_OVERFLOW] = _CHOICES["anna_craftsman_overflow"].index(self.anna_craftsman_overflow)
        a[PR_ANNA_MAJORITY_VP] = self.anna_majority_vp
        a[PR_ANNA_CONVERT_AT] = self.anna_convert_at
        a[PR_ANNA_EXTRA_STEPS] = self.anna_extra_steps
        return a


# Helpers


def _check(name: str, value, default):
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise GameIdError(f"{name} must be one of {', '.join(_CHOICES[name])}, got {value!r}")
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise GameIdError(f"{name} must be true or false, got {value!r}")
        return value
    if name in _INTEGERS:
        low, nullable = _INTEGERS[name]
        if value is None or (isinstance(value, str) and value.lower() == "none"):
            if not nullable:
                raise GameIdError(f"{name} must be an integer" + (" 1..4" if name == "n_players" else ""))
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise GameIdError(f"{name} must be an integer{' or none' if nullable else ''}, got {value!r}")
        if value < low:
            raise GameIdError(f"{name} must be at least {low}, got {value}")
        return value
    if name == "solo_cards":
        _parse_solo_cards(value)
        return value
    if name == "anna_candidate_order":
        return _check_anna_order(value)
    if name == "frame_task_vp":
        if value is None:
            return None
        parts = str(value).split("/")
        if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
            raise GameIdError(f"frame_task_vp must look like '5/4/3' (landscape/lodging/villa), got {value!r}")
        return "/".join(p.strip() for p in parts)
    if name == "start_vp":
        return check_start_text("start_vp", value, "8/9/12")
    if name == "villa_vp_table":
        if not isinstance(value, str) or not value:
            raise GameIdError(f"villa_vp_table must name a table of villa_table.toml, got {value!r}")
        return value
    if value is not None and not isinstance(value, str):
        raise GameIdError(f"{name} must be a path string, got {value!r}")
    return value


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
