"""bgsim, the library: build games and strategies, run experiment specs, load their results.

    import bgsim
    report = bgsim.run(bgsim.load_spec("experiments/configs/greedy_4p.toml"), jobs=2)
    games = bgsim.load(report.run_dir)          # polars LazyFrame, one row per (game, seat); a study too
    played = bgsim.replay(report.run_dir, 17)   # game 17 again, traced

Everything lives under this one import name: ``bgsim.sim`` (the engine), ``bgsim.strategies``,
``bgsim.experiments`` (specs, runner, CLI) and ``bgsim.reports``, so a folder of the user's own
named ``sim/`` or ``reports/`` never shadows them. The names below are imported on first use,
which keeps ``import bgsim.sim`` in a worker process free of the runner and the reports.
"""

from bgsim.sim.exports import lazy_exports

_EXPORTS = {
    "RunReport": "bgsim.experiments.runner",
    "RunSpec": "bgsim.sim.results.spec",
    "game_seeds": "bgsim.sim",
    "load": "bgsim.experiments.loading",
    "load_spec": "bgsim.experiments.spec_check",
    "make_game": "bgsim.sim",
    "make_strategy": "bgsim.strategies",
    "replay": "bgsim.experiments.replay",
    "run": "bgsim.experiments.runner",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(globals(), _EXPORTS)
