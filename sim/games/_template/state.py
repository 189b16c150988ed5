"""The arrays the kernels share: the state (one flat int32 array, ``sim.layout``), the component
table and the event log, with the game's sizes.

FILL IN: one field per piece of the game (sized for the most players), with its meaning. Keep
what a seat cannot see in fields of its own, so ``observe`` can hide them. Kernels index the state
through the offsets below (``s[HAND_N + seat]``); -1 means "none".
"""

import numpy as np
from bgsim.sim import event_log
from bgsim.sim.event_log import log_event
from bgsim.sim.layout import Layout

__all__ = ["CARD_POINTS", "EVENT_CAP", "EVENT_NAMES", "EVENT_WIDTH", "STATE", "STATE_SIZE", "card_table", "events",
           "log_event"]

MAX_P = 4
HAND = 3  # cards dealt to each seat (XX-SETUP-2)
ROUNDS = 4  # every seat plays one card a round (XX-TURN-1); the game ends after the last (XX-END-1)
BONUS = 2  # points for a card above every card played before it in its round, not the first (XX-TURN-2)

# The component table (the kernels' ``t``): points of each card, card id c -> CARD_POINTS[c]. At least
# MAX_P * (HAND + ROUNDS) cards, so the pile never runs out and every hand stays full (and hidden).
# FILL IN: a game with data files loads them in components.py and flattens them in tables.py instead.
CARD_POINTS = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7)
N_CARDS = len(CARD_POINTS)

# Where a card lies (LOC).
IN_PILE = -1  # in the face-down draw pile (hidden from everyone)
HIDDEN = -2  # in an observation only: a card this seat cannot locate
IN_HAND = 0  # + seat: in that seat's hidden hand
PLAYED = MAX_P  # + seat: played face up by that seat

STATE = Layout("template state")
_ = STATE.add
N_PLAYERS = _("n_players", 1, "player count")
PHASE = _("phase", 1, "pending decision kind (decisions.py), 0 over")
SEAT = _("seat", 1, "seat to decide, -1 once over")
ROUND = _("round", 1, "round 0..ROUNDS-1 (ROUNDS once over)")
DECISIONS = _("decisions", 1, "decisions made so far (for error messages)")
ROUND_HIGH = _("round_high", 1, "points of the highest card played this round, 0 before the first")
START_PTS = _("start_points", MAX_P, "start points by seat (XX-SETUP-3)")
HAND_N = _("hand_n", MAX_P, "cards in each hand (visible to all)")
LOC = _("loc", N_CARDS, "where each card lies: IN_PILE, IN_HAND + seat or PLAYED + seat")
PILE = _("pile", N_CARDS, "card ids in draw order, -1 once drawn (the order is hidden)")
PILE_TOP = _("pile_top", 1, "index in PILE of the next card to draw")
CARD_PTS = _("card_points", MAX_P, "points of the cards played (XX-TURN-1)")
BONUS_PTS = _("bonus_points", MAX_P, "bonus points (XX-TURN-2)")
TOTAL = _("total", MAX_P, "final score (XX-END-1)")
RANK = _("rank", MAX_P, "1 = winner, after the tie-break (XX-END-2)")
TIEBREAK = _("tiebreak", MAX_P, "place in the tie-break order alone: 1 wins any score tie (XX-END-2)")
STATE_SIZE = STATE.size


def card_table() -> np.ndarray:
    """The component table the kernels take as ``t``: (N_CARDS,) int32 points by card id."""
    return np.array(CARD_POINTS, dtype=np.int32)


# The events the kernels write into the event log (``sim.event_log``): code, seat, values.
EVENT_WIDTH = 5  # code, seat, then up to 3 values
EVENT_CAP = 2 * N_CARDS  # at most one draw and one play per card
EV_DRAW = 1  # seat, card
EV_PLAY = 2  # seat, card, points, bonus
EVENT_NAMES = {EV_DRAW: "draw", EV_PLAY: "play"}


def events(log: np.ndarray | None) -> np.ndarray:
    """The events written, (n, EVENT_WIDTH) int32 (none without a log)."""
    if log is None:
        return np.zeros((0, EVENT_WIDTH), dtype=np.int32)
    return event_log.events(log)
