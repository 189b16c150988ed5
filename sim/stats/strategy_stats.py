"""How strategies did against each other in one run: per-strategy results and head-to-head shares.

Pure functions over stored result rows (a polars LazyFrame or DataFrame with the runner's columns
``n_players, game_index, seat, strategy, rank, won``, the game's final score (its profile's
``score_column``), and where present ``run_id`` and ``seating``); every table is a lazy aggregation
(``sim.stats.lazy``), so the memory needed does not grow with the number of games. Statistics, stated once:

- a strategy's win rate counts its seats: wins / seat-games, against the fair share 1/n. Wilson 95 %
  intervals on the effective games, the variance clustered by deal (``sim.stats.clustered``): the
  seats a strategy holds in one game, and its games in the seatings of one deal, move together.
  Where the rules share a tied win, each winner's seat counts its share (``sim.stats.wins``);
- mean score and mean rank: Student t 95 % intervals, clustered by deal;
- head-to-head: for every pair of seats of one game held by strategies A and B, did A finish ahead
  of B (ranks are strict: the game's tie-break decides)? The share with a Wilson interval over those
  pairs, clustered by deal. It answers "how often does A beat B" even in a game with other players at the table.
"""

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.stats.clustered import clustered_means, clustered_moments, clustered_rates
from bgsim.sim.stats.lazy import collect, column_names, lazy
from bgsim.sim.stats.wins import win_column

__all__ = ["head_to_head", "seat_by_strategy", "seats_per_game", "strategy_table"]


def _games_held(rows: pl.LazyFrame) -> pl.LazyFrame:
    """Per (n_players, strategy): the games in which it holds at least one seat.

    A runner's game i is played in seating i % seatings, so the strategies at the table are the
    same in every game of one (run, player count, seating): counting those groups' games (their
    rows / n) needs no per-game state. Rows without the seating label fall back to counting
    distinct games."""
    if not {"run_id", "seating"} <= set(column_names(rows)):
        return rows.group_by("n_players", "strategy").agg(pl.col("game_index").n_unique().alias("games"))
    cell = ["run_id", "n_players", "seating"]
    games = rows.group_by(cell).agg((pl.len() // pl.col("n_players").first().cast(pl.UInt32)).alias("games"))
    held = rows.group_by(*cell, "strategy").agg().join(games, on=cell)
    return held.group_by("n_players", "strategy").agg(pl.col("games").sum())


def strategy_table(rows, score: str, confidence: float = 0.95) -> pd.DataFrame:
    """One row per (n_players, strategy): seat_games, seats_per_game (seats it holds in a game,
    on average), wins, win_rate with _low/_high (Wilson, clustered by deal), fair (1/n), gap_pp (win
    rate - fair, pp), mean_score (of ``score``, the profile's ``score_column``) and mean_rank with
    _low/_high (t, clustered by deal)."""
    rows = lazy(rows)
    win = win_column(column_names(rows))
    keys = ["n_players", "strategy"]
    moments = _moments(rows, keys, win, score)
    held = collect(_games_held(rows)).to_pandas()
    agg = moments.select(keys).to_pandas().merge(held, on=keys, how="left")
    n = moments["win|n"].to_numpy()
    agg.insert(2, "seat_games", n.astype(np.int64))
    agg["seats_per_game"] = n / agg["games"].to_numpy()
    agg["wins"] = moments["win|sum"].to_numpy()
    agg["win_rate"], agg["win_rate_low"], agg["win_rate_high"], _ = clustered_rates(moments, "win", confidence)
    agg["fair"] = 1.0 / agg["n_players"].astype(float)
    agg["gap_pp"] = 100 * (agg["win_rate"] - agg["fair"])
    for name in ("score", "rank"):
        agg[f"mean_{name}"], agg[f"mean_{name}_low"], agg[f"mean_{name}_high"] = clustered_means(moments, name,
                                                                                               confidence)
    return agg


def _moments(rows: pl.LazyFrame, keys: list[str], win: pl.Expr, score: str | None):
    values = {"win": win, "rank": pl.col("rank").cast(pl.Float64)}
    if score:
        values["score"] = pl.col(score).cast(pl.Float64)
    return clustered_moments(rows, keys, values)


def head_to_head(rows, confidence: float = 0.95) -> pd.DataFrame:
    """One row per (n_players, a, b) with a != b, both orders: pairs (seat pairs of one game held by a
    and b), ahead (pairs in which a finished ahead of b), share with share_low/_high (Wilson on the
    effective pairs, clustered by deal: the pairs of one game, and the seatings of one deal, move
    together). The seats of a game are paired a slice of whole deals at a time."""
    frame = lazy(rows)
    on = ["n_players", "game_index"] + [c for c in ("run_id", "deal") if c in column_names(frame)]

    def pairs(part: pl.LazyFrame) -> pl.LazyFrame:
        seats = part.select(*on, "seat", "strategy", "rank")
        return (seats.join(seats, on=on, suffix="_b")
                .filter((pl.col("seat") != pl.col("seat_b")) & (pl.col("strategy") != pl.col("strategy_b")))
                .with_columns(pl.col("strategy").alias("a"), pl.col("strategy_b").alias("b")))

    moments = clustered_moments(frame, ["n_players", "a", "b"],
                                {"ahead": (pl.col("rank") < pl.col("rank_b")).cast(pl.Float64)}, transform=pairs)
    table = moments.select("n_players", "a", "b").to_pandas()
    table["pairs"] = moments["ahead|n"].to_numpy().astype(np.int64)
    table["ahead"] = moments["ahead|sum"].to_numpy().round().astype(np.int64)
    table["share"], table["share_low"], table["share_high"], _ = clustered_rates(moments, "ahead", confidence)
    return table


def seat_by_strategy(rows, score: str, confidence: float = 0.95) -> pd.DataFrame:
    """One row per (n_players, strategy, seat): seat_games, wins, win_rate with _low/_high (Wilson) and
    mean_score with _low/_high (t), both clustered by deal: how a strategy's results depend on where it
    sat."""
    rows = lazy(rows)
    win = win_column(column_names(rows))
    keys = ["n_players", "strategy", "seat"]
    moments = _moments(rows, keys, win, score)
    agg = moments.select(keys).to_pandas()
    agg["seat_games"] = moments["win|n"].to_numpy().astype(np.int64)
    agg["wins"] = moments["win|sum"].to_numpy()
    agg["win_rate"], agg["win_rate_low"], agg["win_rate_high"], _ = clustered_rates(moments, "win", confidence)
    agg["mean_score"], agg["mean_score_low"], agg["mean_score_high"] = clustered_means(moments, "score", confidence)
    return agg


def seats_per_game(rows) -> pd.DataFrame:
    """Per player count: how many distinct strategies sit at a table (``strategies``) — 1 means
    self-play, where seats differ only by their position."""
    return collect(lazy(rows).group_by("n_players").agg(pl.col("strategy").n_unique().alias("strategies"))
                   .sort("n_players")).to_pandas()
