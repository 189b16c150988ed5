"""The quick form of a run (``bgsim simulate``) and the per-seat summary table."""

from collections.abc import Sequence

import pandas as pd
from scipy import stats

from experiments.spec import RunSpec
from sim.registry import parse_id

__all__ = ["quick_spec", "seat_table"]


def quick_spec(game_id: str, n_players: int, strategy_ids: Sequence[str], games: int, seed: int,
               chunk_size: int) -> RunSpec:
    """A spec with fixed seats for one player count, named after the game and player count."""
    name, params = parse_id(game_id)
    params.pop("n_players", None)
    return RunSpec(name=f"simulate-{name}-{n_players}p", game=name, players=(n_players,), params=params,
                   strategies=tuple(strategy_ids), mode="fixed", games=games, chunk_size=chunk_size, seed=seed)


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
