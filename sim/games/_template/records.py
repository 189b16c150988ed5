"""Result records of finished games: one row per (game, seat), built over a chunk at once.
The column meanings are ``RECORD_DOCS``; the final score's parts are ``CATEGORY_DOCS``.

FILL IN: the score categories (they sum, with the start points, to the final score), every
other column with its meaning, and the attribution columns (components in play, events per seat).
"""

import numpy as np
import pyarrow as pa
from bgsim.sim.games._template.state import STATE

__all__ = ["CATEGORY_DOCS", "RECORD_DOCS", "seat_records"]

CATEGORY_DOCS = {
    "pts_cards": "points of the cards played (XX-TURN-1)",
    "pts_bonus": "bonus points for cards above the round's earlier cards (XX-TURN-2)",
}

RECORD_DOCS = {
    "start_points": "points at the start (XX-SETUP-3)",
    "final_points": "final score: start points + card points + bonus (XX-END-1)",
    "rank": "1 = winner, after the tie-break (XX-END-2)",
    "won": "rank == 1",
    "tie": "another seat has the same final score, so the tie-break decided between them",
    "tiebreak": "place in the tie-break order alone (XX-END-2): 1 wins any score tie; re-ranks games under "
                "other start points",
    **CATEGORY_DOCS,
}


def _field(states: np.ndarray, name: str) -> np.ndarray:
    """Field ``name`` of every state, (G, *shape) int32 (``states`` (G, STATE_SIZE) int32)."""
    f = STATE.fields[name]
    return states[:, f.offset: f.offset + f.size].reshape((states.shape[0], *f.shape))


def seat_records(states: np.ndarray, n_players: int) -> dict[str, pa.Array]:
    """Columns of G * P rows (game-major, seat-minor) from final states (G, STATE_SIZE) int32."""
    per_seat = lambda name: _field(states, name)[:, :n_players].reshape(-1)  # noqa: E731
    totals = _field(states, "total")[:, :n_players]  # (G, P)
    rank = per_seat("rank")
    return {
        "start_points": pa.array(per_seat("start_points"), pa.int16()),
        "final_points": pa.array(per_seat("total"), pa.int16()),
        "rank": pa.array(rank, pa.int8()),
        "won": pa.array(rank == 1),
        "tie": pa.array(((totals[:, :, None] == totals[:, None, :]).sum(axis=2) > 1).reshape(-1)),
        "tiebreak": pa.array(per_seat("tiebreak"), pa.int8()),
        "pts_cards": pa.array(per_seat("card_points"), pa.int16()),
        "pts_bonus": pa.array(per_seat("bonus_points"), pa.int16()),
    }
