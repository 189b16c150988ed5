"""``make bench``, Capitol: games per second of the compiled loop on one core (no storage).

Rows: 4 players with greedy weights (the speed target), random play, 3 and 2 players, and the best
heuristic. Each rate is the median of several timed runs after an untimed warm-up.
"""

import argparse

from bgsim.experiments.bench import GameBench, print_engine_rows, print_skill_rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per row (median reported)")
    parser.add_argument("--search-games", type=int, default=20, help="games per search row")
    args = parser.parse_args(argv)
    from bgsim.strategies.capitol import BEST_HEURISTIC

    print(f"\nCapitol: engine alone, compiled loop, one core, median of {args.repeats} runs")
    rows = [(4, "greedy"), (4, "random"), (3, "greedy"), (2, "greedy")]
    if BEST_HEURISTIC != "greedy":
        rows.append((4, BEST_HEURISTIC))
    print_engine_rows("capitol", rows, args.games, args.repeats)
    print_skill_rows("capitol", BEST_HEURISTIC, args.games, args.search_games, args.repeats)


BENCH = GameBench(main=main)

if __name__ == "__main__":
    main()
