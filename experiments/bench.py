"""What every game's benchmark shares: games per second of a game's compiled loop on one core."""

import time

import numpy as np
from bgsim.sim import make_game
from bgsim.sim.seeding import block_key, deal_seeds, seat_streams
from bgsim.strategies import make_strategy

__all__ = ["engine_rate", "runs_text"]


def engine_rate(game_name: str, n_players: int, strategy_id: str, n_games: int, repeats: int) -> list[float]:
    """Games/s of ``repeats`` timed runs of the compiled loop alone (no storage), one core, after an
    untimed run that loads the compiled code."""
    game = make_game(game_name, n_players=n_players)
    strategy = make_strategy(strategy_id, game)
    rates = []
    for r in range(repeats + 1):
        chance, strat = deal_seeds(block_key(1000 + r, n_players), np.arange(n_games))
        streams = seat_streams(strat, n_players)
        seat_strategy = np.zeros((n_games, n_players), dtype=np.int64)
        start = time.perf_counter()
        game.play_states(chance, streams, seat_strategy, [strategy.compiled_policy(game)])
        if r > 0:
            rates.append(n_games / (time.perf_counter() - start))
    return rates


def runs_text(rates: list[float], digits: int = 0) -> str:
    """The single runs of a row, e.g. '5,120 5,311 4,987'."""
    return " ".join(f"{x:,.{digits}f}" for x in rates)
