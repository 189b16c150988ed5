"""Play a batch of games in this process and summarise them per seat (the quick form of a run)."""

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from scipy import stats

from sim.play import play_game
from sim.seeding import seeds_from_sequence
from strategies import make_strategy

__all__ = ["simulate", "seat_table"]


def simulate(game, strategy_ids: Sequence[str], n_games: int, seed: int,
             on_progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """One row per (game, seat): game_index, seat, strategy, final_vp, rank, won and the score categories.

    Game ``i`` uses the ``i``-th child of ``SeedSequence(seed)``, so any game can be replayed alone.
    """
    strategies = [make_strategy(sid, game) for sid in strategy_ids]
    children = np.random.SeedSequence(seed).spawn(n_games)
    rows = []
    for index, child in enumerate(children):
        played = play_game(game, strategies, seeds_from_sequence(child))
        res = played.result
        for seat in range(game.n_players):
            row = {"game_index": index, "seat": seat, "strategy": strategies[seat].id,
                   "final_vp": int(res.final_vp[seat]), "rank": int(res.rank[seat]),
                   "won": bool(res.rank[seat] == 1)}
            row.update({k: int(v[seat]) for k, v in res.categories.items()})
            rows.append(row)
        if on_progress is not None:
            on_progress(1)
    return pd.DataFrame(rows)


def seat_table(frame: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Per seat: games, mean VP with a t interval, win rate with a Wilson interval, mean rank."""
    out = []
    for seat, group in frame.groupby("seat"):
        n = len(group)
        vp = group["final_vp"].to_numpy(dtype=float)
        sem = stats.sem(vp) if n > 1 else float("nan")
        if n > 1 and sem > 0:
            lo, hi = stats.t.interval(confidence, n - 1, loc=vp.mean(), scale=sem)
        else:
            lo = hi = vp.mean()
        wins = int(group["won"].sum())
        ci = stats.binomtest(wins, n).proportion_ci(confidence_level=confidence, method="wilson")
        out.append({"seat": int(seat), "strategy": group["strategy"].iloc[0], "games": n,
                    "mean_vp": vp.mean(), "vp_low": lo, "vp_high": hi,
                    "win_rate": wins / n, "win_low": ci.low, "win_high": ci.high,
                    "mean_rank": group["rank"].mean()})
    return pd.DataFrame(out)
