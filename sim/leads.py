"""Lead changes: how often the lead of a game changes hands, a measure of its drama.

The shared loops (``sim.loops.play_counting_leads``) read the seats' running scores at the end of
every round and the final ranks once over; ``lead_step`` folds each reading into (leader, changes).
"""

import numpy as np
from numba import njit

__all__ = ["lead_step"]


@njit(cache=True)
def lead_step(leader, changes, scores, n):
    """The leader and the count of lead changes after one more reading of ``scores`` ((>= n,) int32,
    the first ``n`` are the seats'): a unique highest score names the leader, and one that differs
    from the last unique leader (``leader``, -1 before the first) is a change; a tie keeps both."""
    best = np.int64(scores[0])
    top = 0
    count = 1
    for seat in range(1, n):
        if scores[seat] > best:
            best = np.int64(scores[seat])
            top = seat
            count = 1
        elif scores[seat] == best:
            count += 1
    if count > 1:
        return leader, changes
    if leader >= 0 and top != leader:
        changes += 1
    return top, changes
