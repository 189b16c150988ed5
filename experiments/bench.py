"""``make bench``: games per second of the Carpe Diem engine on one core.

Each line is the median of several timed runs after an untimed warm-up (Numba cache load).
Timed: dealing and playing whole games inside the compiled loop (``play_batch``), or, for the
per-decision row, the Python play loop. Figures depend on the machine; compare on one machine.
"""

import argparse
import os
import statistics
import time

import numpy as np

from sim import make_game
from sim.play import play_game
from sim.seeding import seeds_from_sequence
from strategies import make_strategy


def _batch_inputs(game, strategy_id: str, n_games: int, seed: int):
    from sim.games.carpe_diem.events import new_log
    from sim.games.carpe_diem.features import N_FEATURES

    strategy = make_strategy(strategy_id, game)
    policy = strategy.compiled_policy(game)
    seq = np.random.SeedSequence(seed)
    chance = seq.generate_state(n_games, dtype=np.uint64)
    streams = np.random.SeedSequence([seed, 1]).generate_state(n_games * game.n_players, dtype=np.uint64)
    kinds = np.full(game.n_players, policy.kind, dtype=np.int64)
    weights = np.tile(np.asarray(policy.weights, dtype=np.int64)[:N_FEATURES], (game.n_players, 1))
    return chance, streams.reshape(n_games, game.n_players), kinds, weights, new_log(enabled=False)


def compiled_rate(game, strategy_id: str, n_games: int, repeats: int) -> tuple[float, list[float]]:
    from sim.games.carpe_diem.kernels.play import play_batch

    rates = []
    for r in range(repeats + 1):
        chance, streams, kinds, weights, log = _batch_inputs(game, strategy_id, n_games, 1000 + r)
        out = np.zeros((n_games, game.n_players, 2), dtype=np.int32)
        start = time.perf_counter()
        play_batch(game.tables, game.param_array, game.empty_slots, chance, streams, kinds, weights,
                   game._feats, game._acts, log, out)
        elapsed = time.perf_counter() - start
        if r > 0:  # the first run only loads the compiled code
            rates.append(n_games / elapsed)
    return statistics.median(rates), rates


def per_decision_rate(game, strategy_id: str, n_games: int, repeats: int) -> tuple[float, list[float]]:
    seats = [make_strategy(strategy_id, game)] * game.n_players
    rates = []
    for r in range(repeats + 1):
        children = np.random.SeedSequence(2000 + r).spawn(n_games)
        start = time.perf_counter()
        for child in children:
            play_game(game, seats, seeds_from_sequence(child), compiled=False)
        if r > 0:
            rates.append(n_games / (time.perf_counter() - start))
    return statistics.median(rates), rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per timed run (compiled rows)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per row")
    args = parser.parse_args()
    print(f"Carpe Diem engine, one core (pid {os.getpid()}), median of {args.repeats} runs")
    print(f"{'players':>7}  {'strategy':<10} {'tier':<22} {'games/s':>9}   runs")
    rows = [(4, "greedy", "compiled"), (4, "random", "compiled"), (3, "greedy", "compiled"),
            (2, "greedy", "compiled"), (4, "greedy", "per-decision python")]
    for n_players, strategy_id, tier in rows:
        game = make_game("carpe_diem", n_players=n_players)
        if tier == "compiled":
            median, rates = compiled_rate(game, strategy_id, args.games, args.repeats)
        else:
            median, rates = per_decision_rate(game, strategy_id, max(50, args.games // 20), args.repeats)
        runs = " ".join(f"{x:,.0f}" for x in rates)
        print(f"{n_players:>7}  {strategy_id:<10} {tier:<22} {median:>9,.0f}   {runs}", flush=True)


if __name__ == "__main__":
    main()
