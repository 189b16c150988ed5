"""The state: the layout of one flat int32 array (``sim.layout``), and the game's sizes.

FILL IN: one field per piece of the game (sized for the most players), with its meaning. Keep
what a seat cannot see in fields of its own, so ``observe`` can blank them.
"""

from bgsim.sim.layout import Layout

__all__ = ["STATE", "STATE_SIZE"]

MAX_P = 4
ROUNDS = 4  # FILL IN
MAX_TAKE = 3  # placeholder rule: a seat takes 1..3 points a turn

STATE = Layout("template state")
_ = STATE.add
N_PLAYERS = _("n_players", 1, "player count")
PHASE = _("phase", 1, "pending decision kind (decisions.py), 0 over")
SEAT = _("seat", 1, "seat to decide, -1 once over")
ROUND = _("round", 1, "round number")
START_PTS = _("start_points", MAX_P, "start points by seat")
POINTS = _("points", MAX_P, "points taken (placeholder category)")
TOTAL = _("total", MAX_P, "final score")
RANK = _("rank", MAX_P, "1 = winner, after the tie-break")
TIEBREAK = _("tiebreak", MAX_P, "place in the tie-break order alone: 1 wins any score tie")
STATE_SIZE = STATE.size
