"""Result records of finished games: one row per (game, seat), built over a whole chunk at once.
The column meanings are ``RECORD_DOCS``; the final score's parts are ``CATEGORY_DOCS``. Prize
points come from the game's parameters (``prize_points``), never from the prize id."""

import numpy as np
import pyarrow as pa
from bgsim.sim.games.base import win_shares
from bgsim.sim.games.sealed_bids.state import ROUNDS, STATE

__all__ = ["CATEGORY_DOCS", "RECORD_DOCS", "seat_records"]

CATEGORY_DOCS = {
    "pts_prizes": "points of the prize cards taken (SB-WIN-1)",
    "pts_leftover": "the card left in hand: value // 3 (SB-END-2)",
}

RECORD_DOCS = {
    "start_points": "points at the start (SB-SETUP-3)",
    "final_points": "final score: start points + prizes + leftover (SB-END-3)",
    "rank": "1 = a winner: after the tie-break (SB-TIE-2), or equal totals share a place (final_tie = shared)",
    "won": "the one winner a study can count: the highest score, then the tie-break order (SB-TIE-2)",
    "win_share": "the seat's share of the win: 1/k to each of the k seats with rank 1 (what seat rates count)",
    "tie": "another seat has the same final score, so the tie-break decided between them",
    "tiebreak": "place in the tie-break order alone (SB-TIE-2): 1 = spent least (then the later seat), "
                "so it wins any score tie; re-ranks games under other start points",
    **CATEGORY_DOCS,
    "spent": "sum of the values this seat bid",
    "prizes_won": "prize cards taken",
    "board_prizes": f"prize ids revealed, in deck order: one in each of the {ROUNDS} rounds (pair: two, "
                    "SB-OFFER-1; triple: three, SB-OFFER-2); the same for every seat",
    "prizes": "prizes this seat took: prize id and points",
}


def _field(states: np.ndarray, name: str) -> np.ndarray:
    """Field ``name`` of every state, (G, *shape) int32 (``states`` (G, STATE_SIZE) int32)."""
    f = STATE.fields[name]
    return states[:, f.offset: f.offset + f.size].reshape((states.shape[0], *f.shape))


def seat_records(states: np.ndarray, n_players: int, points: np.ndarray, revealed: int) -> dict[str, pa.Array]:
    """Columns of G * P rows (game-major, seat-minor) from final states (G, STATE_SIZE) int32;
    ``points`` (10,) or (15,) int64 the points of each prize id (``SealedBids.prize_points``),
    ``revealed`` the prize entries a game reveals (5, 10 in pair, 15 in triple)."""
    g = states.shape[0]
    per_seat = lambda name: _field(states, name)[:, :n_players].reshape(-1)  # noqa: E731
    totals = _field(states, "total")[:, :n_players]
    same = (totals[:, :, None] == totals[:, None, :]).sum(axis=2) > 1
    rank = per_seat("rank")
    key = totals.astype(np.int64) * (n_players + 1) - _field(states, "tiebreak")[:, :n_players]
    won = np.zeros(totals.shape, dtype=bool)
    won[np.arange(g), np.argmax(key, axis=1)] = True
    winners = _field(states, "round_winner")  # (G, ROUNDS)
    took = winners[:, None, :] == np.arange(n_players)[None, :, None]  # (G, P, ROUNDS)
    columns = {
        "start_points": pa.array(per_seat("start_points"), pa.int16()),
        "final_points": pa.array(per_seat("total"), pa.int16()),
        "rank": pa.array(rank, pa.int8()),
        "won": pa.array(won.reshape(-1)),
        "win_share": pa.array(win_shares(rank.reshape(g, n_players)).reshape(-1)),
        "tie": pa.array(same.reshape(-1)),
        "tiebreak": pa.array(per_seat("tiebreak"), pa.int8()),
        "pts_prizes": pa.array(per_seat("prize_points"), pa.int16()),
        "pts_leftover": pa.array(per_seat("leftover_points"), pa.int16()),
        "spent": pa.array(per_seat("spent"), pa.int16()),
        "prizes_won": pa.array(took.sum(axis=2).reshape(-1), pa.int8()),
    }
    board = np.repeat(_field(states, "prize_deck")[:, :revealed], n_players, axis=0).astype(np.int16)  # (G*P, revealed)
    columns["board_prizes"] = pa.FixedSizeListArray.from_arrays(pa.array(board.reshape(-1)), revealed)
    columns["prizes"] = _taken_prizes(_field(states, "round_taken"), took, points)
    return columns


def _taken_prizes(taken: np.ndarray, took: np.ndarray, points: np.ndarray) -> pa.ListArray:
    """The ``prizes`` column: per (game, seat) row the {prize, points} it took, in round order.
    ``taken`` (G, ROUNDS) int32 prize id taken each round, ``took`` (G, P, ROUNDS) bool whether the
    seat won the round, ``points`` (10,) or (15,) int64 the points of each prize id."""
    g, n_players, _ = took.shape
    flat = took.reshape(g * n_players, ROUNDS)
    ids = np.repeat(taken, n_players, axis=0)[flat]  # row-major: seat by seat, round order
    structs = pa.StructArray.from_arrays([pa.array(ids, pa.int16()), pa.array(points[ids], pa.int16())],
                                         names=["prize", "points"])
    offsets = np.zeros(g * n_players + 1, dtype=np.int32)
    np.cumsum(flat.sum(axis=1), out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), structs)
