"""Capitol parameters: player count, every ambiguity of the rules digest (AMB-1..18) by name with
its default, the start-points vector (the compensation parameter) and the board data file.
``Params.from_dict`` raises one-line GameIdErrors; ``to_array`` gives the (N_PARAMS,) int32 array
the kernels read."""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.parameters import GameParams, check_start_text, start_vector

__all__ = ["N_PARAMS", "PARAM_DOCS", "Params", "START_POINTS"]

# Indices into the compiled parameter array.
PR_N_PLAYERS = 0
PR_START_SEAT = 1  # -1 = a seeded random seat
PR_SHARED_FIRST_SECOND = 2  # AMB-1: 0 next_group, 1 none
PR_FIRST_TIEBREAK = 3  # AMB-2: 0 tallest_house, 1 none
PR_TEMPLE_FROM = 4  # AMB-3: 0 same_round, 1 next_round
PR_ZERO_BID = 5  # AMB-5: 0 remove, 1 tie_rule
PR_NULL_PLAY = 6  # AMB-6: 1 allowed
PR_HAND_LIMIT = 7  # AMB-7: 0 none, else the limit
PR_SHORT_TAKE = 8  # AMB-8: 0 take_rest, 1 none
PR_PARTIAL_TAKE = 9  # AMB-9: 1 allowed
PR_MAX_UNFINISHED = 10  # AMB-10: 0 none, 1 unused_roofs
PR_BONUS_OPTIONAL = 11  # AMB-11
PR_BASE_OPTIONAL = 12  # AMB-11
PR_DISCARD_ORDER = 13  # AMB-13: 0 stack_order, 1 winner_choice, 2 canonical
PR_REVEAL_VALUES = 14  # AMB-14: 1 played values are shown
PR_PILE_VISIBLE = 15  # AMB-15: 0 top, 1 all
PR_FINAL_TIEBREAK = 16  # AMB-16: 0 shared, 1 stones
PR_CATCH_UP = 17  # CAP-AUCTION-7: 1 the lower score wins a tied bid (the rule), 0 every tie removes the item
PR_BUILD_CARD = 18  # 0 lowest, 1 any
PR_START = 19  # 4 entries: start points by seat
N_PARAMS = 23

SHARED_FIRST_SECOND = ("next_group", "none")
FIRST_TIEBREAK = ("tallest_house", "none")
TEMPLE_FROM = ("same_round", "next_round")
ZERO_BID = ("remove", "tie_rule")
SHORT_TAKE = ("take_rest", "none")
MAX_UNFINISHED = ("none", "unused_roofs")
DISCARD_ORDER = ("stack_order", "winner_choice", "canonical")
PILE_VISIBILITY = ("top", "all")
FINAL_TIEBREAK = ("shared", "stones")
TIED_BID = ("lower_score", "remove")
BUILD_CARD = ("lowest", "any")
START_POINTS = {2: (0, 0), 3: (0, 0, 0), 4: (0, 0, 0, 0)}  # CAP-SETUP-10

PARAM_DOCS = {
    "n_players": "player count 2..4 (CAP-SETUP-1)",
    "start_seat": "CAP-SETUP-11 seat of the first consul: 0..n-1 (seat 1 = 0), or 'random' (from the chance seed)",
    "start_points": "CAP-SETUP-10 start points by seat: rulebook (all 0), equal, or a list such as '0/1/2'",
    "shared_first_second": "AMB-1 after a shared first place: next_group (the next stone group is second) or none",
    "first_tiebreak": "AMB-2 a first-place tie on stones: tallest_house (the tallest house wins) or none (shared)",
    "temple_from": "AMB-3 a temple doubles from the scoring of its round (same_round) or from the next (next_round)",
    "zero_bid_policy": "AMB-5 when nobody bids: remove the item, or tie_rule (it goes free to the unique lowest score)",
    "allow_null_play": "AMB-6 a card may be played without its action (true) or only with one (false)",
    "hand_limit": "AMB-7 most cards in hand: none, or an integer (a seat at the limit draws no more)",
    "short_stone_take": "AMB-8 a stone card with 1 stone left: take_rest (take it) or none",
    "partial_stone_take": "AMB-9 a stone card may take fewer stones than it could (true) or takes 2 or none (false)",
    "max_unfinished": "AMB-10 unfinished houses a seat may have: none (no limit) or unused_roofs",
    "bonus_draws_optional": "AMB-11 the amphitheatre draws may be declined (true)",
    "base_draws_optional": "AMB-11 the 6 base draws may be declined (false: they are mandatory)",
    "bid_discard_order": "AMB-13 order a winning bid enters the discard piles: stack_order, winner_choice or canonical",
    "reveal_played_values": "AMB-14 build-phase cards are shown before they are discarded (true) or only their type "
                            "is public (false)",
    "draw_pile_visibility": "AMB-15 a seat sees the top card of each draw pile (top) or the whole pile (all)",
    "final_tiebreak": "AMB-16 equal final scores: shared win, or stones (more stones on the board wins, then shared)",
    "tied_bid": "CAP-AUCTION-7 equal highest bids: lower_score (the rule: the lower score wins) or remove (every tie "
                "removes the item), to measure the catch-up rule",
    "build_card": "which card of a type a build action spends: lowest (the lowest value, or lowest of the permit's "
                  "colour; values do not matter when building, CAP-BUILD-6) or any (every distinct card is a row)",
    "data_dir": "directory with a replacement board.toml",
    "board_file": "replacement board.toml (AMB-18: prefectures, colours, small spaces, large sites, fountains)",
}


def _flag(name: str, value) -> bool:
    if not isinstance(value, bool):
        raise GameIdError(f"{name} must be true or false, got {value!r}")
    return value


def _choice(name: str, value, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise GameIdError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return value


@dataclass(frozen=True)
class Params(GameParams):
    n_players: int = 4
    start_seat: int | str = 0
    start_points: str = "rulebook"
    shared_first_second: str = "next_group"
    first_tiebreak: str = "tallest_house"
    temple_from: str = "same_round"
    zero_bid_policy: str = "remove"
    allow_null_play: bool = True
    hand_limit: int | str = "none"
    short_stone_take: str = "take_rest"
    partial_stone_take: bool = False
    max_unfinished: str = "none"
    bonus_draws_optional: bool = True
    base_draws_optional: bool = False
    bid_discard_order: str = "stack_order"
    reveal_played_values: bool = False
    draw_pile_visibility: str = "top"
    final_tiebreak: str = "shared"
    tied_bid: str = "lower_score"
    build_card: str = "lowest"
    data_dir: str | None = None
    board_file: str | None = None

    game_name: ClassVar[str] = "capitol"

    @classmethod
    def from_dict(cls, values: dict) -> "Params":
        cls.reject_unknown(values)
        clean = dict(values)
        n = clean.get("n_players", cls.n_players)
        cls.check_player_count(n, 2, 4)
        seat = clean.get("start_seat", cls.start_seat)
        if seat != "random" and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n):
            raise GameIdError(f"start_seat must be 0..{n - 1} or 'random', got {seat!r}")
        if "start_points" in clean:
            clean["start_points"] = check_start_text("start_points", clean["start_points"], "0/1/2")
        for name, allowed in (("shared_first_second", SHARED_FIRST_SECOND), ("first_tiebreak", FIRST_TIEBREAK),
                              ("temple_from", TEMPLE_FROM), ("zero_bid_policy", ZERO_BID),
                              ("short_stone_take", SHORT_TAKE), ("max_unfinished", MAX_UNFINISHED),
                              ("bid_discard_order", DISCARD_ORDER), ("draw_pile_visibility", PILE_VISIBILITY),
                              ("final_tiebreak", FINAL_TIEBREAK), ("tied_bid", TIED_BID), ("build_card", BUILD_CARD)):
            if name in clean:
                _choice(name, clean[name], allowed)
        for name in ("allow_null_play", "partial_stone_take", "bonus_draws_optional", "base_draws_optional",
                     "reveal_played_values"):
            if name in clean:
                _flag(name, clean[name])
        limit = clean.get("hand_limit", cls.hand_limit)
        if limit != "none" and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
            raise GameIdError(f"hand_limit must be none or a positive integer, got {limit!r}")
        for name in ("data_dir", "board_file"):
            if clean.get(name) is not None and not isinstance(clean[name], str):
                raise GameIdError(f"{name} must be a path, got {clean[name]!r}")
        params = cls(**clean)
        params.start_vector()  # a list of the wrong length fails here, not at setup
        return params

    def start_vector(self) -> tuple[int, ...]:
        """Start points by seat (CAP-SETUP-10), as ``start_points`` asks."""
        return start_vector("start_points", self.start_points, START_POINTS[self.n_players])

    def data_files(self) -> dict:
        """Replacement data files by name (only the board)."""
        return {"board": self.board_file}

    def to_array(self) -> np.ndarray:
        a = np.zeros(N_PARAMS, dtype=np.int32)
        a[PR_N_PLAYERS] = self.n_players
        a[PR_START_SEAT] = -1 if self.start_seat == "random" else self.start_seat
        a[PR_SHARED_FIRST_SECOND] = SHARED_FIRST_SECOND.index(self.shared_first_second)
        a[PR_FIRST_TIEBREAK] = FIRST_TIEBREAK.index(self.first_tiebreak)
        a[PR_TEMPLE_FROM] = TEMPLE_FROM.index(self.temple_from)
        a[PR_ZERO_BID] = ZERO_BID.index(self.zero_bid_policy)
        a[PR_NULL_PLAY] = int(self.allow_null_play)
        a[PR_HAND_LIMIT] = 0 if self.hand_limit == "none" else self.hand_limit
        a[PR_SHORT_TAKE] = SHORT_TAKE.index(self.short_stone_take)
        a[PR_PARTIAL_TAKE] = int(self.partial_stone_take)
        a[PR_MAX_UNFINISHED] = MAX_UNFINISHED.index(self.max_unfinished)
        a[PR_BONUS_OPTIONAL] = int(self.bonus_draws_optional)
        a[PR_BASE_OPTIONAL] = int(self.base_draws_optional)
        a[PR_DISCARD_ORDER] = DISCARD_ORDER.index(self.bid_discard_order)
        a[PR_REVEAL_VALUES] = int(self.reveal_played_values)
        a[PR_PILE_VISIBLE] = PILE_VISIBILITY.index(self.draw_pile_visibility)
        a[PR_FINAL_TIEBREAK] = FINAL_TIEBREAK.index(self.final_tiebreak)
        a[PR_CATCH_UP] = 1 if self.tied_bid == "lower_score" else 0
        a[PR_BUILD_CARD] = BUILD_CARD.index(self.build_card)
        a[PR_START: PR_START + self.n_players] = self.start_vector()
        return a
