"""How strategies did against each other in one run: per-strategy results and head-to-head shares.

Pure functions over stored result rows (a polars LazyFrame or DataFrame with the runner's columns
``n_players, game_index, seat, strategy, rank, won``, the game's final score (its profile's
``score_column``), and where present ``run_id`` and ``seating``); every table is a lazy aggregation
(``sim.stats.lazy``), so the memory needed does not grow with the number of games. Statistics, stated once:

- a strategy's win rate counts its seats: wins / seat-games, against the fair share 1/n. Wilson 95 %
  intervals. Where a strategy holds one seat per game (the focus of a rotated run, any strategy of a
  permuted table at 2 players) the seat-games are independent games; where it holds several seats of
  one game they are not, and the interval is a little too narrow. Where the rules share a tied win,
  each winner's seat counts its share (``sim.stats.wins``);
- mean score and mean rank: Student t 95 % intervals over seat-games;
- head-to-head: for every pair of seats of one game held by strategies A and B, did A finish ahead
  of B (ranks are strict: the game's tie-break decides)? The share with a Wilson interval over those
  pairs. It answers "how often does A beat B" even in a game with other players at the table.
"""

import pandas as pd
import polars as pl
from bgsim.sim.stats.intervals import t_bounds, wilson
from bgsim.sim.stats.lazy import collect, column_names, lazy
from bgsim.sim.stats.wins import share_interval, win_column

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
    on average), wins, win_rate with _low/_high (Wilson), fair (1/n), gap_pp (win rate - fair, pp),
    mean_score (of ``score``, the profile's ``score_column``) and mean_rank with _low/_high (t)."""
    rows = lazy(rows)
    win = win_column(column_names(rows))
    sums = (rows.group_by("n_players", "strategy")
            .agg(pl.len().alias("seat_games"),
                 win.sum().alias("wins"), (win * win).sum().alias("win_squares"),
                 pl.col(score).cast(pl.Float64).mean().alias("mean_score"),
                 pl.col(score).cast(pl.Float64).std().alias("sd_score"),
                 pl.col("rank").cast(pl.Float64).mean().alias("mean_rank"),
                 pl.col("rank").cast(pl.Float64).std().alias("sd_rank")))
    agg = collect(sums.join(_games_held(rows), on=["n_players", "strategy"])
                  .select("n_players", "strategy", "seat_games", "games", "wins", "win_squares", "mean_score",
                          "sd_score", "mean_rank", "sd_rank").sort("n_players", "strategy")).to_pandas()
    n = agg["seat_games"].to_numpy()
    agg["seats_per_game"] = n / agg["games"].to_numpy()
    agg["win_rate"] = agg["wins"] / n
    agg["win_rate_low"], agg["win_rate_high"] = share_interval(agg["wins"], agg["win_squares"], n, confidence)
    agg["fair"] = 1.0 / agg["n_players"].astype(float)
    agg["gap_pp"] = 100 * (agg["win_rate"] - agg["fair"])
    for name in ("score", "rank"):
        agg[f"mean_{name}_low"], agg[f"mean_{name}_high"] = t_bounds(agg[f"mean_{name}"], agg[f"sd_{name}"], n,
                                                                     confidence)
    return agg.drop(columns=["sd_score", "sd_rank", "win_squares"])


def head_to_head(rows, confidence: float = 0.95) -> pd.DataFrame:
    """One row per (n_players, a, b) with a != b, both orders: pairs (seat pairs of one game held by a
    and b), ahead (pairs in which a finished ahead of b), share with share_low/_high (Wilson)."""
    seats = lazy(rows).select("n_players", "game_index", "seat", "strategy", "rank")
    # the self-join pairs the seats of one game; the streaming engine joins and counts batch by batch
    pairs = collect(seats.join(seats, on=["n_players", "game_index"], suffix="_b")
                    .filter((pl.col("seat") != pl.col("seat_b")) & (pl.col("strategy") != pl.col("strategy_b")))
                    .group_by("n_players", pl.col("strategy").alias("a"), pl.col("strategy_b").alias("b"))
                    .agg(pl.len().alias("pairs"),
                         (pl.col("rank") < pl.col("rank_b")).cast(pl.Int64).sum().alias("ahead"))
                    .sort("n_players", "a", "b")).to_pandas()
    pairs["share"] = pairs["ahead"] / pairs["pairs"]
    pairs["share_low"], pairs["share_high"] = wilson(pairs["ahead"].to_numpy(), pairs["pairs"].to_numpy(),
                                                     confidence)
    return pairs


def seat_by_strategy(rows, score: str, confidence: float = 0.95) -> pd.DataFrame:
    """One row per (n_players, strategy, seat): seat_games, win_rate with _low/_high (Wilson) and
    mean_score with _low/_high (t): how a strategy's results depend on where it sat."""
    rows = lazy(rows)
    win = win_column(column_names(rows))
    agg = collect(rows.group_by("n_players", "strategy", "seat")
                  .agg(pl.len().alias("seat_games"), win.sum().alias("wins"), (win * win).sum().alias("win_squares"),
                       pl.col(score).cast(pl.Float64).mean().alias("mean_score"),
                       pl.col(score).cast(pl.Float64).std().alias("sd_score"))
                  .sort("n_players", "strategy", "seat")).to_pandas()
    n = agg["seat_games"].to_numpy()
    agg["win_rate"] = agg["wins"] / n
    agg["win_rate_low"], agg["win_rate_high"] = share_interval(agg["wins"], agg["win_squares"], n, confidence)
    agg["mean_score_low"], agg["mean_score_high"] = t_bounds(agg["mean_score"], agg["sd_score"], n, confidence)
    return agg.drop(columns=["sd_score", "win_squares"])


def seats_per_game(rows) -> pd.DataFrame:
    """Per player count: how many distinct strategies sit at a table (``strategies``) — 1 means
    self-play, where seats differ only by their position."""
    return collect(lazy(rows).group_by("n_players").agg(pl.col("strategy").n_unique().alias("strategies"))
                   .sort("n_players")).to_pandas()
