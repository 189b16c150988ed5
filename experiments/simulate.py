"""The quick form of a run (``bgsim simulate``) and the per-seat summary table."""

from collections.abc import Sequence

import pandas as pd
import polars as pl
from bgsim.sim.registry import parse_id
from bgsim.sim.results.spec import RunSpec
from bgsim.sim.stats.lazy import collect
from bgsim.sim.stats.moments import mean_sd, moment_aggs
from bgsim.sim.stats.wins import share_interval, win_column
from scipy import stats

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
    Wilson interval, mean rank. Aggregates lazily on polars' streaming engine, so millions of rows
    are cheap: only the per-seat sums are ever in memory, and means and sds come from exact sums
    (``sim.stats.moments``), the same on every call. ``seat`` is the stored 0-based index: whoever
    prints it for people adds 1. ``score``: the game's final-score column (its profile's ``score_column``)."""
    frame = results.lazy()
    schema = frame.collect_schema()
    win = win_column(schema.names())
    agg = collect(frame.group_by("n_players", "seat", "strategy")
                  .agg(pl.len().alias("games"), win.sum().alias("wins"), (win * win).sum().alias("win_squares"),
                       *moment_aggs(score, schema[score], "score"), pl.col("rank").mean().alias("mean_rank"))
                  .sort("n_players", "seat", "strategy"))
    groups = agg.select("n_players", "seat", "strategy", "games", "wins", "win_squares", "mean_rank").to_pandas()
    groups["mean_score"], groups["sd_score"] = mean_sd(agg, "score")
    groups["win_low"], groups["win_high"] = share_interval(groups["wins"], groups["win_squares"], groups["games"],
                                                           confidence)
    rows = []
    for g in groups.itertuples():
        n = int(g.games)
        if n > 1 and g.sd_score > 0:
            lo, hi = stats.t.interval(confidence, n - 1, loc=g.mean_score, scale=g.sd_score / n**0.5)
        else:
            lo = hi = g.mean_score
        rows.append({"n_players": int(g.n_players), "seat": int(g.seat), "strategy": g.strategy, "games": n,
                     "mean_score": g.mean_score, "score_low": lo, "score_high": hi, "win_rate": g.wins / n,
                     "win_low": g.win_low, "win_high": g.win_high, "mean_rank": g.mean_rank})
    return pd.DataFrame(rows)
