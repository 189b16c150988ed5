"""The event log every game's kernels write: what happened in a game, read by the game's renderer.

A log is an (capacity + 1, width) int32 array. Row 0 column 0 counts the events written; each
event is one row: its code, the seat (-1 for none), then up to ``width - 2`` values (at most 10).
A game fixes its width and capacity and names its codes in its ``events.py``. Logging is off
when the array has a single row: the fast path, where ``log_event`` returns at once.
"""

import numpy as np
from bgsim.sim.borrow import njit_without_refcounts

__all__ = ["MAX_VALUES", "events", "log_event", "new_log"]

MAX_VALUES = 10  # values per event after the code and the seat


def new_log(capacity: int, width: int, enabled: bool = True) -> np.ndarray:
    """An empty log of ``capacity`` events of ``width`` columns (code and seat included); with
    ``enabled=False`` the one-row array that switches logging off."""
    if not 2 <= width <= MAX_VALUES + 2:
        raise ValueError(f"an event has 2 to {MAX_VALUES + 2} columns, not {width}")
    return np.zeros((capacity + 1 if enabled else 1, width), dtype=np.int32)


@njit_without_refcounts
def log_event(log, code, seat, a=0, b=0, c=0, d=0, e=0, f=0, g=0, h=0, i=0, j=0):
    """Append one event ((n + 1, width) int32 ``log``): no-op when logging is off or the log is
    full. Values past the log's width are not kept: a game's width holds its longest event."""
    if log.shape[0] == 1:
        return
    n = log[0, 0]
    if n >= log.shape[0] - 1:
        return
    row = log[n + 1]
    row[0] = code
    row[1] = seat
    values = (np.int32(a), np.int32(b), np.int32(c), np.int32(d), np.int32(e), np.int32(f), np.int32(g),
              np.int32(h), np.int32(i), np.int32(j))  # one type, so that a loop may index them
    for k in range(min(row.shape[0] - 2, MAX_VALUES)):
        row[2 + k] = values[k]
    log[0, 0] = n + 1


def events(log: np.ndarray) -> np.ndarray:
    """The events written so far, (n, width) int32."""
    return log[1: int(log[0, 0]) + 1]
