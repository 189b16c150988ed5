"""bgsim, the library: build games and strategies, run experiment specs, load their results.

    import bgsim
    report = bgsim.run(bgsim.load_spec("experiments/configs/greedy_4p.toml"), jobs=2)
    games = bgsim.load(report.run_dir)          # polars LazyFrame, one row per (game, seat)
    played = bgsim.replay(report.run_dir, 17)   # game 17 again, traced
"""

from experiments.replay import replay
from experiments.runner import RunReport, run
from experiments.spec import RunSpec, load_spec
from experiments.store import load
from sim import game_seeds, make_game
from strategies import make_strategy

__all__ = ["RunReport", "RunSpec", "game_seeds", "load", "load_spec", "make_game", "make_strategy", "replay", "run"]
