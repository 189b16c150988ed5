"""Compile the kernels of every game the suites run (tests/suite.py) into the Numba cache before the
tests run in parallel.

``make test`` runs this first, so the test workers load the kernels from the cache instead of each
compiling the same ones. Every game plays a few games through each path that compiles its own
signatures: the three strategy tiers, the logged and the checked loop, and the search player.
Games are keyed apart in the cache (``sim.numba_cache``), so two games compile side by side.
With a warm cache this only loads what is there.
"""

import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor

WORKERS = 2  # the cores `make test` assumes
SEARCH = "search(width=2, rollouts=2)"  # the search kernels at the least cost


def _weight_strategy(name: str) -> str:
    """The game's first weight strategy, or ``random`` when it has none."""
    from bgsim.strategies import available_strategies

    weighted = [e.name for e in available_strategies(name) if e.name not in ("random", "search", "strong", "weights")]
    return weighted[0] if weighted else "random"


def _play_every_path(name: str, n_players: int) -> None:
    import numpy as np
    from bgsim.sim import game_seeds, make_game
    from bgsim.sim.batch import choose_tier, play_batch
    from bgsim.sim.errors import StrategyError
    from bgsim.sim.play import play_game
    from bgsim.sim.seeding import block_key, deal_seeds
    from bgsim.strategies import available_strategies, make_strategy

    game = make_game(name, n_players=n_players)
    player = make_strategy(_weight_strategy(name), game)
    chance, strategy_seeds = deal_seeds(block_key(1, n_players), np.arange(2))
    seat_strategy = np.zeros((2, n_players), dtype=np.int64)
    for tier in ("compiled", "vectorised", "per_game"):
        try:
            choose_tier(game, [player], tier)
        except StrategyError:
            continue  # a tier the game or strategy does not offer
        play_batch(game, [player], seat_strategy, chance, strategy_seeds, tier=tier)
    play_game(game, [player] * n_players, game_seeds(1), log=True)
    play_game(game, [player] * n_players, game_seeds(1), log=True, validate=True)
    if any(e.name == "search" for e in available_strategies(name)):
        play_game(game, [make_strategy(SEARCH, game)] + [player] * (n_players - 1), game_seeds(1))


def compile_game(name: str) -> str:
    """Play ``name`` through every compiled path at each player count; a line saying how it went."""
    from bgsim.sim.registry import player_counts

    start = time.perf_counter()
    try:
        for n_players in player_counts(name):
            _play_every_path(name, n_players)
    except Exception as exc:  # the tests name the failure with the rest: the suite still runs
        return f"could not compile {name}: {type(exc).__name__}: {exc}"
    return f"compiled {name} ({time.perf_counter() - start:.0f} s)"


def main() -> None:
    try:
        from tests.suite import suite_games

        names = suite_games()  # a game being written (unlisted, no rules test yet) may not compile yet
    except Exception as exc:  # a broken import: the tests report it, this step only saves time
        print(f"could not list the games: {type(exc).__name__}: {exc}", file=sys.stderr)
        return
    # spawn: each game compiles in a fresh interpreter, not a fork of one that loaded numba
    with ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn")) as pool:
        for line in pool.map(compile_game, names):
            print(line, file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
