"""The candidate table of the pending decision: rows, features and actions (decisions.py).

FILL IN: one loop per decision kind, rows in the documented order, features from what the
deciding seat can see only (so a determinised state offers the same table).
"""

from bgsim.sim.games._template.decisions import A_AMOUNT, A_KIND, OVER, TAKE
from bgsim.sim.games._template.features import F_POINTS
from bgsim.sim.games._template.state import MAX_TAKE, PHASE
from numba import njit

MAX_ROWS = MAX_TAKE  # most rows one table can have


@njit(cache=True)
def candidates(s, p, feats, acts):
    """Fill ``feats`` (>= MAX_ROWS, N_FEATURES) and ``acts`` (>= MAX_ROWS, N_ACTION_FIELDS) int32;
    returns the number of rows (0 once over)."""
    if s[PHASE] == OVER:
        return 0
    for i in range(MAX_TAKE):
        feats[i, F_POINTS] = i + 1
        acts[i, A_KIND] = TAKE
        acts[i, A_AMOUNT] = i + 1
    return MAX_TAKE
