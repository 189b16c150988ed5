"""Carpe Diem parameters: player count, every ambiguity (AMB-n) and the component-data choices.

Each parameter has the default the rules digest chose. ``Params.from_dict`` checks names and
values and raises a one-line :class:`~sim.errors.GameIdError`; ``to_array`` turns the rule
switches into the (N_PARAMS,) int32 array the compiled kernels read.
"""

from dataclasses import asdict, dataclass, fields

import numpy as np

from sim.errors import GameIdError
from sim.games.carpe_diem.constants import START_VP

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
PR_START_VP = 25  # CD-SETUP-14: start VP of seats 0..3 (4 entries)
N_PARAMS = 29

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
}

# One line per parameter: the rule or ambiguity it settles (shown by `bgsim games` and in docs).
PARAM_DOCS = {
    "n_players": "player count 2..4 (seat 0 is the start player of pass 1, CD-SETUP-1)",
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
class Params:
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

    @classmethod
    def from_dict(cls, values: dict) -> "Params":
        """Validated parameters from user input (registry id or spec); unknown names are errors."""
        known = {f.name: f for f in fields(cls)}
        clean = {}
        for name, value in values.items():
            if name not in known:
                raise GameIdError(f"carpe_diem has no parameter {name!r} (see `bgsim games`)")
            clean[name] = _check(name, value, cls.__dataclass_fields__[name].default)
        params = cls(**clean)
        if not 2 <= params.n_players <= 4:
            raise GameIdError(f"carpe_diem is for 2 to 4 players, not {params.n_players}")
        params.start_vector()  # a list of the wrong length is an error now, not at setup
        return params

    def non_default(self) -> dict:
        """The parameters that differ from their defaults (the canonical game id lists these)."""
        defaults = Params()
        return {k: v for k, v in asdict(self).items() if getattr(defaults, k) != v}

    def data_files(self) -> dict:
        return {name[: -len("_file")]: getattr(self, name) for name in PARAM_DOCS if name.endswith("_file")}

    def frame_task_values(self) -> tuple[int, int, int] | None:
        """(landscape, lodging, villa) VP from ``frame_task_vp``, or None to keep the data's values."""
        if self.frame_task_vp is None:
            return None
        return tuple(int(x) for x in self.frame_task_vp.split("/"))

    def start_vector(self) -> tuple[int, ...]:
        """Start VP per seat, from the start player (CD-SETUP-14), as ``start_vp`` asks."""
        rulebook = START_VP[self.n_players]
        if self.start_vp == "rulebook":
            return rulebook
        if self.start_vp == "equal":
            return (rulebook[0],) * self.n_players
        values = tuple(int(x) for x in self.start_vp.split("/"))
        if len(values) != self.n_players:
            raise GameIdError(f"start_vp {self.start_vp!r} gives {len(values)} values for {self.n_players} players")
        return values

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
    if name in ("landscape_max_tiles", "landscape_reward_cap", "bread_fulfilments_per_card",
                "bread_fulfilments_per_scoring", "vp_floor", "banner_track_last", "n_players"):
        if value is None or (isinstance(value, str) and value.lower() == "none"):
            if name == "n_players":
                raise GameIdError("n_players must be an integer 2..4")
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise GameIdError(f"{name} must be an integer{' or none' if name != 'n_players' else ''}, got {value!r}")
        low = {"landscape_max_tiles": 2, "banner_track_last": 1}.get(name, 0)
        if value < low:
            raise GameIdError(f"{name} must be at least {low}, got {value}")
        return value
    if name == "frame_task_vp":
        if value is None:
            return None
        parts = str(value).split("/")
        if len(parts) != 3 or not all(p.strip().isdigit() for p in parts):
            raise GameIdError(f"frame_task_vp must look like '5/4/3' (landscape/lodging/villa), got {value!r}")
        return "/".join(p.strip() for p in parts)
    if name == "start_vp":
        return _check_start_vp(value)
    if name == "villa_vp_table":
        if not isinstance(value, str) or not value:
            raise GameIdError(f"villa_vp_table must name a table of villa_table.toml, got {value!r}")
        return value
    if value is not None and not isinstance(value, str):
        raise GameIdError(f"{name} must be a path string, got {value!r}")
    return value


def _check_start_vp(value) -> str:
    """'rulebook', 'equal', or integers joined by '/' (a list is accepted and joined)."""
    if isinstance(value, list | tuple):
        value = "/".join(str(v) for v in value)
    if value in ("rulebook", "equal"):
        return value
    parts = str(value).split("/")
    try:
        numbers = [int(p.strip()) for p in parts]
    except ValueError:
        numbers = None
    if numbers is None or not 2 <= len(numbers) <= 4 or any(abs(v) > 999 for v in numbers):
        raise GameIdError(f"start_vp must be rulebook, equal or 2..4 integers like '8/9/12', got {value!r}")
    return "/".join(str(v) for v in numbers)
