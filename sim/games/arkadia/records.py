"""Result records of finished games: one row per (game, seat), built over a whole chunk at once.
The column meanings are ``RECORD_DOCS``; the final score's parts are ``CATEGORY_DOCS``."""

import numpy as np
import pyarrow as pa
from bgsim.sim.games.arkadia.state import STATE
from bgsim.sim.games.base import win_shares

__all__ = ["CATEGORY_DOCS", "RECORD_DOCS", "seat_records"]

CATEGORY_DOCS = {
    "gold_cashed": "gold from seals cashed with banners and in the final cashing (ARK-BANNER-3, ARK-END-4)",
}

RECORD_DOCS = {
    "start_gold": "gold at the start (the compensation parameter; the rulebook gives none)",
    "final_gold": "final gold: start gold + every cashing (ARK-END-4)",
    "rank": "1 = a winner; equal gold shares the place (ARK-END-5: 'es gibt mehrere Gewinner')",
    "won": "the one winner a study can count: the most gold, then the earlier seat",
    "win_share": "the seat's share of the win: 1/k to each of the k seats with rank 1 (what seat rates count)",
    "tie": "another seat has the same final gold",
    "tiebreak": "place in seat order alone (the rules share a tie; re-ranks games under other start gold)",
    **CATEGORY_DOCS,
    "banners_used": "banners used (each brings 2 workers and a cashing, ARK-BANNER)",
}


def _field(states: np.ndarray, name: str) -> np.ndarray:
    """Field ``name`` of every state, (G, *shape) int32 (``states`` (G, STATE_SIZE) int32)."""
    f = STATE.fields[name]
    return states[:, f.offset: f.offset + f.size].reshape((states.shape[0], *f.shape))


def seat_records(states: np.ndarray, n_players: int) -> dict[str, pa.Array]:
    """Columns of G * P rows (game-major, seat-minor) from final states (G, STATE_SIZE) int32."""
    g, n = states.shape[0], n_players
    seat_col = lambda name: _field(states, name)[:, :n]  # noqa: E731  (G, P)
    flat = lambda a: np.asarray(a).reshape(-1)  # noqa: E731
    total = seat_col("total").astype(np.int64)
    rank = seat_col("rank")
    key = total * (n + 1) - seat_col("tiebreak")
    won = np.zeros((g, n), dtype=bool)
    won[np.arange(g), np.argmax(key, axis=1)] = True
    tie = (total[:, :, None] == total[:, None, :]).sum(axis=2) > 1
    start = seat_col("start_gold")
    return {
        "start_gold": pa.array(flat(start), pa.int16()),
        "final_gold": pa.array(flat(total), pa.int16()),
        "rank": pa.array(flat(rank), pa.int8()),
        "won": pa.array(flat(won)),
        "win_share": pa.array(flat(win_shares(rank))),
        "tie": pa.array(flat(tie)),
        "tiebreak": pa.array(flat(seat_col("tiebreak")), pa.int8()),
        "gold_cashed": pa.array(flat(total - start), pa.int16()),
        "banners_used": pa.array(flat(4 - seat_col("banners")), pa.int8()),
    }
