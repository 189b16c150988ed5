"""Building Arkadia positions in tests: a decision applied by its kind and columns, a placement found
by the cells it covers, a card put in a hand, the pending table."""

import numpy as np
from bgsim.sim.event_log import new_log
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import features as f
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import SHAPES
from bgsim.sim.games.arkadia.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.arkadia.kernels.flow import apply_action

COLS = 16  # the reconstructed grid's columns
RESIDENCE_CLOTH = 0  # card 0: a residence (shape 0) with a cloth seal
NO_LOG = new_log(1, 8, enabled=False)


def act(s, t, p, kind, **columns) -> None:
    """Apply the action of ``kind`` (``decisions.DO_*``) with ``columns`` set by name, in place."""
    action = np.zeros(d.N_ACTION_FIELDS, dtype=np.int64)
    action[d.A_KIND] = kind
    for name, value in columns.items():
        action[d.ACTION_FIELDS.index(name)] = value
    apply_action(s, t, p, action, NO_LOG)


def placement(t, shape: int | str, cells) -> int:
    """The placement row of ``shape`` (its index or name) covering exactly ``cells`` ((row, col) pairs)."""
    shape = SHAPES.index(shape) if isinstance(shape, str) else shape
    wanted = sorted(r * COLS + c for r, c in cells)
    rows = t[st.T_PLACE_CELLS:st.T_PLACE_CELLS + int(t[st.T_N_PLACEMENTS]) * 6].reshape(-1, 6)
    first, last = t[st.T_PLACE_FIRST + shape], t[st.T_PLACE_FIRST + shape + 1]
    return next(k for k in range(first, last) if sorted(c for c in rows[k] if c >= 0) == wanted)


def give(s, card, seat=0) -> None:
    """Put ``card`` in the seat's hand (a test's shortcut past the deal)."""
    if s[st.CARD_LOC + card] != st.IN_HAND + seat:
        s[st.CARD_LOC + card] = st.IN_HAND + seat
        s[st.HAND_N + seat] += 1


def table(s, t, p) -> tuple[np.ndarray, np.ndarray]:
    """The pending table: features (rows, N_FEATURES) and actions (rows, N_ACTION_FIELDS) int32."""
    feats = np.zeros((MAX_ROWS, f.N_FEATURES), dtype=np.int32)
    acts = np.zeros((MAX_ROWS, d.N_ACTION_FIELDS), dtype=np.int32)
    n = candidates(s, t, p, feats, acts)
    return feats[:n], acts[:n]
