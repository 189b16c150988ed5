"""The quick form of a run (``bgsim simulate``) and the per-seat summary table."""

from collections.abc import Sequence

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.registry import parse_id
from bgsim.sim.results.spec import RunSpec
from bgsim.sim.stats.clustered import clustered_means, clustered_moments, clustered_rates
from bgsim.sim.stats.wins import win_column

__all__ = ["quick_spec", "seat_table"]


def quick_spec(game_id: str, n_players: int, strategy_ids: Sequence[str], games: int, seed: int,
               chunk_size: int) -> RunSpec:
    """A spec with fixed seats for one player count, named after the game and player count."""
    name, params = parse_id(game_id)
    params.pop("n_players", None)
    return RunSpec(name=f"simulate-{name}-{n_players}p", game=name, players=(n_players,), params=params,
                   strategies=tuple(strategy_ids), mode="fixed", games=games, chunk_size=chunk_size, seed=seed)


def seat_table(results: pl.LazyFrame | pl.DataFrame, score: str, confidence: float = 0.95) -> pd.DataFrame:
    """Per player count, seat and strategy: games, mean score with a t interval, win rate with a
    Wilson interval, mean rank; intervals clustered by deal (``sim.stats.clustered``: a permuted
    table's seatings of one deal move together). Aggregates lazily on polars' streaming engine, a
    slice of whole deals at a time, so millions of rows are cheap. ``seat`` is the stored 0-based
    index: whoever prints it for people adds 1. ``score``: the game's final-score column (its
    profile's ``score_column``)."""
    frame = results.lazy()
    win = win_column(frame.collect_schema().names())
    keys = ["n_players", "seat", "strategy"]
    moments = clustered_moments(frame, keys, {"win": win, "score": pl.col(score).cast(pl.Float64),
                                              "rank": pl.col("rank").cast(pl.Float64)})
    table = moments.select(keys).to_pandas()
    if table.empty:
        return pd.DataFrame(columns=[*keys, "games", "mean_score", "score_low", "score_high", "win_rate", "win_low",
                                     "win_high", "mean_rank"])
    table["n_players"] = table["n_players"].astype(int)
    table["seat"] = table["seat"].astype(int)
    table["games"] = moments["win|n"].to_numpy().astype(np.int64)
    table["mean_score"], table["score_low"], table["score_high"] = clustered_means(moments, "score", confidence)
    table["win_rate"], table["win_low"], table["win_high"], _ = clustered_rates(moments, "win", confidence)
    table["mean_rank"] = clustered_means(moments, "rank", confidence)[0]
    return table
