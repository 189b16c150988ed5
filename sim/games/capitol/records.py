"""Result records of finished games: one row per (game, seat), built over a whole chunk at once.
The column meanings are ``RECORD_DOCS``; the final score's parts are ``CATEGORY_DOCS``, and
``ITEM_CATEGORY_DOCS`` under the item_points lever (CAP-VAR-1)."""

import numpy as np
import pyarrow as pa
from bgsim.sim.games.base import win_shares
from bgsim.sim.games.capitol.state import AUCTION_ITEMS, AUCTIONS, MAX_P, MAX_PREF, N_TYPES, ROUNDS, STATE

__all__ = ["CATEGORY_DOCS", "ITEM_CATEGORY_DOCS", "RECORD_DOCS", "seat_records"]

CATEGORY_DOCS = {
    "pts_majority": "2 points per first place in a prefecture scoring (CAP-SCORE-3)",
    "pts_fountain": "1 point per fountain for each first and second place (CAP-SCORE-3, -5)",
    "pts_temple": "the points a temple's doubling added (CAP-SCORE-8)",
}
# A category of the score only where the lever is set: the rulebook's score has the three above.
ITEM_CATEGORY_DOCS = {"pts_item": "points the items won paid at once (CAP-VAR-1, the item_points lever; 0 by the "
                                  "rules)"}

RECORD_DOCS = {
    "start_points": "points at the start (CAP-SETUP-10: 0; the compensation parameter)",
    "final_points": "final score: start points + majorities + fountains + temples (CAP-END-2) + the items' own "
                    "points (CAP-VAR-1, 0 by the rules)",
    "rank": "place by the rules: 1 = a winner; equal scores share a place (CAP-END-2, AMB-16)",
    "won": "the one winner a study counts: the highest score, a shared win going to the tie-break order",
    "win_share": "the seat's share of the win: 1/k to each of the k seats with rank 1 (what seat rates count)",
    "shared_win": "rank == 1 together with another seat (AMB-16: the rules share the win)",
    "tie": "another seat has the same final score",
    "tiebreak": "place in the tie-break order alone: more stones on the board first, then the earlier seat",
    **CATEGORY_DOCS,
    **ITEM_CATEGORY_DOCS,
    **{f"points_round{r + 1}": f"points scored in round {r + 1}'s scoring" for r in range(ROUNDS)},
    "consul_rounds": "rounds this seat held the consul (CAP-DRAW-10: 1 at 4 players; at 3 players the first "
                     "consul holds it twice)",
    "houses_placed": "houses the seat placed on the board (CAP-BUILD-12)",
    "stones_placed": "stones of those houses",
    "firsts": "first places over the four scorings",
    "seconds": "second places over the four scorings",
    "items_won": "auctions won",
    "spent": "face value paid for the items won",
    "tie_bid_wins": "auctions won on a tied highest bid by the lower score (CAP-AUCTION-7, the catch-up rule)",
    "bonus_draws": "amphitheatre draws earned (CAP-DRAW-6)",
    "null_plays": "cards played without their action (CAP-BUILD-5)",
    "roof_cards_played": "roof cards played in build phases",
    "stone_cards_played": "stone cards played in build phases",
    "permits_played": "permits played in build phases",
    "cards_left": "cards in hand at the end (worth nothing, CAP-END-3)",
    "board_items": f"auction slot of each of the {AUCTIONS} items, -1 for one removed (same for every seat)",
    "items": "items this seat won: slot, kind (1 fountain, 2 amphitheatre, 3 temple), price, the points it "
             "gave the seat (at once, CAP-VAR-1, and in the scorings afterwards), the draws it gave (amphitheatre) "
             "and its prefecture",
}


def _field(states: np.ndarray, name: str) -> np.ndarray:
    """Field ``name`` of every state, (G, *shape) int32 (``states`` (G, STATE_SIZE) int32)."""
    f = STATE.fields[name]
    return states[:, f.offset: f.offset + f.size].reshape((states.shape[0], *f.shape))


def seat_records(states: np.ndarray, n_players: int) -> dict[str, pa.Array]:
    """Columns of G * P rows (game-major, seat-minor) from final states (G, STATE_SIZE) int32."""
    g = states.shape[0]
    n = n_players
    seat_col = lambda name: _field(states, name)[:, :n]  # noqa: E731  (G, P)
    flat = lambda a: a.reshape(-1)  # noqa: E731
    scores = seat_col("score").astype(np.int64)
    tiebreak = seat_col("tiebreak").astype(np.int64)
    rank = seat_col("rank")
    key = scores * (n + 1) - tiebreak
    winner = np.argmax(key, axis=1)
    won = np.zeros((g, n), dtype=bool)
    won[np.arange(g), winner] = True
    tie = (scores[:, :, None] == scores[:, None, :]).sum(axis=2) > 1
    shared = (rank == 1) & ((rank == 1).sum(axis=1) > 1)[:, None]
    first = _field(states, "first_consul")[:, 0]
    consul_rounds = np.zeros((g, n), dtype=np.int64)
    for r in range(ROUNDS):
        consul_rounds[np.arange(g), (first + r) % n] += 1
    stones = _field(states, "stones").reshape(g, MAX_PREF, MAX_P)[:, :, :n]
    houses = _houses_placed(states, n)
    winners = _field(states, "winner")  # (G, AUCTIONS)
    prices = _field(states, "price")
    placed = _field(states, "placed")
    item_points = _field(states, "item_points")
    item_draws = _field(states, "item_draws")
    mine = winners[:, None, :] == np.arange(n)[None, :, None]  # (G, P, AUCTIONS)
    played = _field(states, "cards_played")[:, :n, :]  # (G, P, N_TYPES)
    hand_types = _field(states, "hand_type")[:, :n, :N_TYPES]
    round_points = _field(states, "round_points")[:, :, :n]  # (G, ROUNDS, P)
    columns = {
        "start_points": pa.array(flat(seat_col("start_points")), pa.int16()),
        "final_points": pa.array(flat(scores), pa.int16()),
        "rank": pa.array(flat(rank), pa.int8()),
        "won": pa.array(flat(won)),
        "win_share": pa.array(flat(win_shares(rank))),
        "shared_win": pa.array(flat(shared)),
        "tie": pa.array(flat(tie)),
        "tiebreak": pa.array(flat(tiebreak), pa.int8()),
        "pts_majority": pa.array(flat(seat_col("pts_majority")), pa.int16()),
        "pts_fountain": pa.array(flat(seat_col("pts_fountain")), pa.int16()),
        "pts_temple": pa.array(flat(seat_col("pts_temple")), pa.int16()),
        "pts_item": pa.array(flat(seat_col("pts_item")), pa.int16()),
        **{f"points_round{r + 1}": pa.array(flat(round_points[:, r, :]), pa.int16()) for r in range(ROUNDS)},
        "consul_rounds": pa.array(flat(consul_rounds), pa.int8()),
        "houses_placed": pa.array(flat(houses), pa.int8()),
        "stones_placed": pa.array(flat(stones.sum(axis=1)), pa.int16()),
        "firsts": pa.array(flat(seat_col("firsts")), pa.int8()),
        "seconds": pa.array(flat(seat_col("seconds")), pa.int8()),
        "items_won": pa.array(flat(mine.sum(axis=2)), pa.int8()),
        "spent": pa.array(flat((mine * prices[:, None, :]).sum(axis=2)), pa.int16()),
        "tie_bid_wins": pa.array(flat(seat_col("tie_wins")), pa.int8()),
        "bonus_draws": pa.array(flat(seat_col("bonus_draws")), pa.int8()),
        "null_plays": pa.array(flat(seat_col("null_plays")), pa.int8()),
        "roof_cards_played": pa.array(flat(played[:, :, 0]), pa.int8()),
        "stone_cards_played": pa.array(flat(played[:, :, 1]), pa.int8()),
        "permits_played": pa.array(flat(played[:, :, 2]), pa.int8()),
        "cards_left": pa.array(flat(hand_types.sum(axis=2)), pa.int8()),
    }
    slots = np.where(winners == -1, -1, np.arange(AUCTIONS)[None, :])
    board = np.repeat(slots, n, axis=0).astype(np.int16)  # (G*P, AUCTIONS)
    columns["board_items"] = pa.FixedSizeListArray.from_arrays(pa.array(board.reshape(-1)), AUCTIONS)
    won_flat = mine.reshape(g * n, AUCTIONS)
    rep = lambda a: np.repeat(a, n, axis=0)[won_flat]  # noqa: E731  row-major: seat by seat, slot order
    ids = np.repeat(np.arange(AUCTIONS)[None, :], g * n, axis=0)[won_flat]
    structs = pa.StructArray.from_arrays(
        [pa.array(ids, pa.int16()), pa.array(AUCTION_ITEMS[ids], pa.int8()), pa.array(rep(prices), pa.int16()),
         pa.array(rep(item_points), pa.int16()), pa.array(rep(item_draws), pa.int16()),
         pa.array(rep(placed), pa.int8())],
        names=["item", "kind", "price", "points", "draws", "prefecture"])
    offsets = np.zeros(g * n + 1, dtype=np.int32)
    np.cumsum(won_flat.sum(axis=1), out=offsets[1:])
    columns["items"] = pa.ListArray.from_arrays(pa.array(offsets), structs)
    return columns


def _houses_placed(states: np.ndarray, n: int) -> np.ndarray:
    """(G, P) houses on the board per seat: the permits that placed one (CAP-BUILD-12), from the
    start houses (4) and roofs used, minus the finished houses still in the area."""
    g = states.shape[0]
    roofs_left = _field(states, "roofs_left")[:, :n, :].sum(axis=2)  # (G, P)
    finished = _field(states, "finished")[:, :n].reshape(g, n, -1).sum(axis=2)
    return (10 - roofs_left) - finished
