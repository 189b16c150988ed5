"""``make bench``: games per second of Carpe Diem, engine alone and through the runner.

1. Engine: whole games in the compiled loop on one core, no storage (``play_states``), and the
   C yardstick of ``../shared/perf/`` (a simplified 4-player tile-placement game) run in turn
   with 4-player greedy games, so that their ratio, which is stable on a noisy machine while
   the rates are not, comes from one sitting.
2. Runner, Carpe Diem 4 players, greedy weights in three strategy tiers, with 1 and 2 workers:
   (a) weights inside the compiled loop, (b) a vectorised Python ``score`` over lockstep
   batches, (c) a per-game Python ``choose`` per decision. Timed: seeding, playing, recording
   and writing the Parquet chunks. Per core = total / workers.
3. Wall time of a large run with (a) on 2 workers, start-up included; extrapolated (and
   labelled so) when fewer than 1,000,000 games are played; and the time a fresh process
   needs to play and store 10 games (imports and the cached compiled code).
4. ``bgsim report`` on runs of 100,000 and 1,000,000 4-player games: wall time and peak memory of
   the fresh process. The runs are copies of one 20,000-game run (same schema, same rows, new game
   indices), or the wall-time run of 3 where it has that size.
5. Strategies, one core: the best heuristic in the compiled loop, and the search player at its
   default budget (per-game tier) in 2-player games against the best heuristic.
6. Solo against the automa Anna, one core: the human by greedy weights, random choice and the
   best heuristic, Anna's turns inside the compiled loop.

Each rate is the median of several timed runs after an untimed warm-up (Numba cache load,
worker start). Figures depend on the machine; compare on one machine.
"""

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from bgsim.experiments.bench import GameBench, Yardstick, alternating_rates, print_skill_rows, runs_text
from bgsim.experiments.bench import engine_rate as shared_engine_rate
from bgsim.experiments.report_cost import report_cost_rows
from bgsim.experiments.runner import run
from bgsim.sim import make_game
from bgsim.sim.results.spec import RunSpec
from bgsim.strategies import make_strategy


def engine_rate(n_players: int, strategy_id: str, n_games: int, repeats: int) -> list[float]:
    """Games/s of Carpe Diem's compiled loop alone, one core (``n_players`` 1: solo against Anna)."""
    return shared_engine_rate("carpe_diem", n_players, strategy_id, n_games, repeats)


def runner_rate(tier: str, jobs: int, n_games: int, repeats: int, out: Path) -> list[float]:
    """Games/s of ``bgsim run`` for 4 greedy players in ``tier`` with ``jobs`` workers."""
    rates = []
    for r in range(repeats + 1):
        spec = RunSpec(name=f"bench-{tier}-{jobs}-{r}", game="carpe_diem", players=(4,), strategies=("greedy",),
                       games=n_games, chunk_size=max(1, n_games // (4 * jobs)), seed=3000 + r, tier=tier)
        start = time.perf_counter()
        run(spec, out=out, jobs=jobs)
        if r > 0:  # the first run starts the workers and loads the compiled code
            rates.append(n_games / (time.perf_counter() - start))
    return rates


def wall_time(n_games: int, jobs: int, out: Path) -> tuple[float, Path]:
    """Seconds of a ``n_games`` 4-player greedy run on ``jobs`` workers, and its directory."""
    spec = RunSpec(name="bench-wall", game="carpe_diem", players=(4,), strategies=("greedy",), games=n_games,
                   chunk_size=10_000, seed=4000, tier="compiled")
    start = time.perf_counter()
    done = run(spec, out=out, jobs=jobs)
    return time.perf_counter() - start, done.run_dir


def warm_start(out: Path) -> float:
    """Seconds for a fresh Python process to import bgsim, start a run and store 10 games
    (the compiled code comes from the Numba cache)."""
    import subprocess
    import sys

    code = ("import bgsim; bgsim.run(bgsim.RunSpec(name='warm', game='carpe_diem', players=(4,), "
            f"strategies=('greedy',), games=10, seed={time.time_ns() % 10**9}), out={str(out)!r})")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="games per timed run, compiled rows")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per row (median reported)")
    parser.add_argument("--wall-games", type=int, default=200_000,
                        help="games of the wall-time run (1,000,000 measures the target directly)")
    parser.add_argument("--report-games", type=int, nargs="+", default=[100_000, 1_000_000],
                        help="run sizes to time `bgsim report` on (multiples of 20,000; copies of one run)")
    parser.add_argument("--search-games", type=int, default=12, help="games per timed run, search row")
    parser.add_argument("--yardstick-games", type=int, default=20_000, help="games per run of the C yardstick")
    args = parser.parse_args(argv)
    print(f"bgsim bench: {os.cpu_count()} cores, median of {args.repeats} runs", flush=True)

    print("\n1. Engine alone, compiled loop, one core")
    yardstick_row(args.games, args.repeats, args.yardstick_games)
    print(f"   {'players':>7}  {'strategy':<8} {'games/s':>9}   runs")
    for n_players, strategy_id in ((4, "random"), (3, "greedy"), (2, "greedy")):
        rates = engine_rate(n_players, strategy_id, args.games, args.repeats)
        print(f"   {n_players:>7}  {strategy_id:<8} {statistics.median(rates):>9,.0f}   {runs_text(rates)}", flush=True)

    print("\n2. Runner, Carpe Diem 4 players, greedy weights (seeding, play, records, Parquet)")
    print(f"   {'tier':<28} {'workers':>7} {'games/s':>9} {'per core':>9}   runs")
    tiers = (("(a) weights, compiled loop", "compiled", args.games),
             ("(b) vectorised Python score", "vectorised", max(200, args.games // 4)),
             ("(c) per-game Python choose", "per_game", max(100, args.games // 10)))
    with tempfile.TemporaryDirectory(prefix="bgsim-bench-") as tmp:
        for label, tier, n_games in tiers:
            for jobs in (1, 2):
                rates = runner_rate(tier, jobs, n_games * jobs, args.repeats, Path(tmp))
                total = statistics.median(rates)
                print(f"   {label:<28} {jobs:>7} {total:>9,.0f} {total / jobs:>9,.0f}   {runs_text(rates)}", flush=True)

        print("\n3. Wall time, (a) on 2 workers, start-up included")
        seconds, wall_run = wall_time(args.wall_games, 2, Path(tmp))
        line = f"   {args.wall_games:,} games: {seconds:.1f} s ({args.wall_games / seconds:,.0f} games/s)"
        if args.wall_games < 1_000_000:
            line += f"; 1,000,000 games extrapolated: {seconds * 1_000_000 / args.wall_games:.0f} s"
        print(line, flush=True)
        print(f"   warm start: a fresh process imports bgsim, plays and stores 10 games in "
              f"{warm_start(Path(tmp)):.1f} s", flush=True)

        print("\n4. bgsim report on 4-player greedy runs: a fresh process, imports included (goal at 1,000,000 "
              "games: under 60 s and 1.5 GB)")
        print(f"   {'games':>9} {'seconds':>8} {'peak MB':>8}   run")
        source = RunSpec(name="bench-report", game="carpe_diem", players=(4,), strategies=("greedy",),
                         games=20_000, chunk_size=10_000, seed=4100, tier="compiled")
        for games, cost, how in report_cost_rows(source, Path(tmp), tuple(args.report_games), run_dir=wall_run):
            print(f"   {games:>9,} {cost.seconds:>8.1f} {cost.peak_mb:>8,.0f}   {how}", flush=True)

    from bgsim.strategies.carpe_diem import BEST_HEURISTIC

    print("\n5. Strategies, one core")
    print(f"   {'players':>7}  {'strategy':<34} {'games/s':>9}   runs")
    for n_players in (2, 4):
        rates = engine_rate(n_players, BEST_HEURISTIC, args.games, args.repeats)
        label = f"{BEST_HEURISTIC} (best heuristic, compiled)"
        print(f"   {n_players:>7}  {label:<34} {statistics.median(rates):>9,.0f}   {runs_text(rates)}", flush=True)
    rates, per_second = search_rate(args.search_games, args.repeats)
    label = f"search vs {BEST_HEURISTIC} (per game)"
    print(f"   {2:>7}  {label:<34} {statistics.median(rates):>9,.2f}   {runs_text(rates, 2)}"
          f"   ({per_second:,.0f} search decisions/s)", flush=True)
    print_skill_rows("carpe_diem", BEST_HEURISTIC, args.games, args.search_games, args.repeats)

    print("\n6. Solo against Anna, compiled loop, one core (her turns included)")
    print(f"   {'human':<34} {'games/s':>9}   runs")
    for strategy_id in ("greedy", "random", BEST_HEURISTIC):
        rates = engine_rate(1, strategy_id, args.games, args.repeats)
        print(f"   {strategy_id:<34} {statistics.median(rates):>9,.0f}   {runs_text(rates)}", flush=True)


def yardstick_row(n_games: int, repeats: int, yardstick_games: int) -> None:
    """4-player greedy games/s per core, the C yardstick's, and their ratio, run in turn."""
    with Yardstick() as yardstick:
        if not yardstick.available:
            rates = engine_rate(4, "greedy", n_games, repeats)
            print(f"   4 players greedy: {statistics.median(rates):,.0f} games/s   ({runs_text(rates)})")
            print(f"   yardstick skipped: {yardstick.why}", flush=True)
            return
        ours, theirs = alternating_rates("carpe_diem", 4, "greedy", n_games, repeats, yardstick, yardstick_games)
    ratio = statistics.median(o / c for o, c in zip(ours, theirs, strict=True))
    print(f"   4 players greedy   {statistics.median(ours):>9,.0f} games/s   runs {runs_text(ours)}")
    print(f"   C yardstick        {statistics.median(theirs):>9,.0f} games/s   runs {runs_text(theirs)}")
    print(f"   ratio bgsim / yardstick: {ratio:.2f} (median of the runs' ratios; goal 0.5)\n", flush=True)


def search_rate(n_games: int, repeats: int) -> tuple[list[float], float]:
    """Games/s of 2-player games, search (default budget) against the best heuristic, one core,
    and the search player's decisions per second."""
    from bgsim.sim.play import play_game
    from bgsim.sim.seeding import game_seeds
    from bgsim.strategies.carpe_diem import BEST_HEURISTIC

    game = make_game("carpe_diem", n_players=2)
    search, best = make_strategy("search", game), make_strategy(BEST_HEURISTIC, game)
    counting = _CountingChoices(search)
    rates, decisions, seconds = [], 0, 0.0
    for r in range(repeats + 1):
        start = time.perf_counter()
        counting.calls = 0
        for g in range(n_games if r else 1):
            seats = (counting, best) if g % 2 == 0 else (best, counting)
            play_game(game, seats, game_seeds(5000 + 100 * r + g), compiled=False)
        if r > 0:  # the first game loads the compiled code
            elapsed = time.perf_counter() - start
            rates.append(n_games / elapsed)
            decisions += counting.calls
            seconds += elapsed
    return rates, decisions / seconds


class _CountingChoices:
    """Wraps a strategy and counts its decisions."""

    def __init__(self, strategy):
        self.strategy, self.id, self.calls = strategy, strategy.id, 0

    def choose(self, table, stream):
        self.calls += 1
        return self.strategy.choose(table, stream)

    def compiled_policy(self, game):
        return None


BENCH = GameBench(main=main)

if __name__ == "__main__":
    main()
