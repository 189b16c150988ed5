"""``make bench``, Arkadia: games per second of the compiled loop on one core (no storage).

Rows: 4 players with greedy weights (the speed target: 2,000 games/s per core), random play, 3 and
2 players, and the best heuristic. Each rate is the median of several timed runs after an untimed
warm-up. Then the 4-player greedy rate beside the C yardstick of ``../shared/perf/`` (a simplified
tile-placement game), run in turn, when it is there: only their ratio is stable between machines.
"""

import argparse
import statistics

from bgsim.experiments.bench import GameBench, Yardstick, alternating_rates, print_engine_rows, print_skill_rows

TARGET = 2_000  # four-player greedy games/s per core (issue: Arkadia end to end)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000, help="games per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per row (median reported)")
    parser.add_argument("--search-games", type=int, default=20, help="games per search row")
    args = parser.parse_args(argv)
    from bgsim.strategies.arkadia import BEST_HEURISTIC

    print(f"\nArkadia: engine alone, compiled loop, one core, median of {args.repeats} runs "
          f"(target: {TARGET:,} four-player greedy games/s)")
    rows = [(4, "greedy"), (4, "random"), (3, "greedy"), (2, "greedy")]
    if BEST_HEURISTIC != "greedy":
        rows.append((4, BEST_HEURISTIC))
    print_engine_rows("arkadia", rows, args.games, args.repeats)
    print_skill_rows("arkadia", BEST_HEURISTIC, args.games, args.search_games, args.repeats)
    with Yardstick() as yardstick:
        if not yardstick.binary:
            print(f"   C yardstick: not run ({yardstick.why})")
            return
        ours, theirs = alternating_rates("arkadia", 4, "greedy", args.games, args.repeats, yardstick, 20_000)
        ratio = statistics.median(ours) / statistics.median(theirs)
        print(f"   4-player greedy {statistics.median(ours):,.0f} games/s against the C yardstick's "
              f"{statistics.median(theirs):,.0f} (run in turn): a ratio of {ratio:.2f}", flush=True)


BENCH = GameBench(main=main)

if __name__ == "__main__":
    main()
