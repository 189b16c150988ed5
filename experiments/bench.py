"""``make bench``: every listed game's benchmark, found through its entry (``parts.bench``), and what
they share: games per second of a game's compiled loop on one core, and the C speed yardstick beside
the project (``../shared/perf/``).

``python -m bgsim.experiments.bench`` runs every listed game's rows in the order of ``bgsim games``;
``--game NAME`` runs one game's, and the options after it go to that game's benchmark
(``--game capitol --games 2000``).
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from bgsim.sim import make_game
from bgsim.sim.registry import available_games, did_you_mean
from bgsim.sim.seeding import block_key, deal_seeds, seat_streams
from bgsim.strategies import make_strategy

__all__ = ["GameBench", "Yardstick", "alternating_rates", "engine_rate", "main", "print_engine_rows",
           "print_skill_rows", "runs_text", "search_rate"]

# The yardstick's source, beside the repository; BGSIM_YARDSTICK names another folder.
YARDSTICK_DIR = Path(os.environ.get("BGSIM_YARDSTICK", Path(__file__).resolve().parents[1].parent / "shared" / "perf"))


@dataclass(frozen=True)
class GameBench:
    """A game's rows of ``make bench``: ``main(argv)`` reads the game's own options from ``argv`` (its
    defaults when empty) and prints its rows."""

    main: Callable[[list[str]], None]


def engine_rate(game_name: str, n_players: int, strategy_id: str, n_games: int, repeats: int) -> list[float]:
    """Games/s of ``repeats`` timed runs of the compiled loop alone (no storage), one core, after an
    untimed run that loads the compiled code."""
    game = make_game(game_name, n_players=n_players)
    strategy = make_strategy(strategy_id, game)
    policies = [strategy.compiled_policy(game)]
    rates = []
    for r in range(repeats + 1):
        rate = _one_engine_run(game, policies, n_players, n_games, 1000 + r)
        if r > 0:
            rates.append(rate)
    return rates


def _one_engine_run(game, policies, n_players: int, n_games: int, seed: int) -> float:
    chance, strat = deal_seeds(block_key(seed, n_players), np.arange(n_games))
    streams = seat_streams(strat, n_players)
    seat_strategy = np.zeros((n_games, n_players), dtype=np.int64)
    start = time.perf_counter()
    game.play_states(chance, streams, seat_strategy, policies)
    return n_games / (time.perf_counter() - start)


class Yardstick:
    """The C yardstick (a simplified 4-player tile-placement game, see its README), built with gcc
    into a temporary folder. ``available`` is False when its source or gcc is missing; then
    ``why`` says which."""

    def __init__(self, source_dir: Path = YARDSTICK_DIR):
        self.source = source_dir / "cengine.c"
        self.binary: Path | None = None
        self.why = ""
        if not self.source.exists():
            self.why = f"no yardstick at {source_dir}"
        elif shutil.which("gcc") is None:
            self.why = "gcc is not installed"

    @property
    def available(self) -> bool:
        return not self.why

    def __enter__(self) -> "Yardstick":
        if self.available:
            self._dir = tempfile.TemporaryDirectory(prefix="bgsim-yardstick-")
            binary = Path(self._dir.name) / "cengine"
            built = subprocess.run(["gcc", "-O3", "-march=native", "-o", str(binary), str(self.source)],
                                   capture_output=True, text=True)
            if built.returncode == 0:
                self.binary = binary
            else:
                self.why = "the yardstick does not build: " + (built.stderr.strip().splitlines() or ["gcc failed"])[-1]
        return self

    def __exit__(self, *exc) -> None:
        if self.binary is not None:
            self._dir.cleanup()
            self.binary = None

    def rate(self, n_games: int) -> float:
        """Games/s of one run of ``n_games`` on one core."""
        out = subprocess.run([str(self.binary), "bench", str(n_games), "1"], capture_output=True, text=True,
                             check=True).stdout
        found = re.search(r"=\s*([\d.]+)\s*games/s", out)
        if not found:
            raise RuntimeError(f"unexpected yardstick output: {out.strip()!r}")
        return float(found.group(1))


def alternating_rates(game_name: str, n_players: int, strategy_id: str, n_games: int, repeats: int,
                      yardstick: Yardstick, yardstick_games: int) -> tuple[list[float], list[float]]:
    """Games/s of the game's compiled loop and of the yardstick, run in turn ``repeats`` times each
    (after an untimed engine run), so both see the same machine."""
    game = make_game(game_name, n_players=n_players)
    strategy = make_strategy(strategy_id, game)
    policies = [strategy.compiled_policy(game)]
    _one_engine_run(game, policies, n_players, n_games, 999)
    ours, theirs = [], []
    for r in range(repeats):
        ours.append(_one_engine_run(game, policies, n_players, n_games, 1000 + r))
        theirs.append(yardstick.rate(yardstick_games))
    return ours, theirs


def print_engine_rows(game_name: str, rows: list[tuple[int, str]], n_games: int, repeats: int) -> None:
    """The table of a game's engine rates: per (player count, strategy) of ``rows`` the median games/s
    of ``repeats`` compiled runs (``engine_rate``) and the single runs."""
    print(f"   {'players':>7}  {'strategy':<8} {'games/s':>9}   runs")
    for n_players, strategy_id in rows:
        rates = engine_rate(game_name, n_players, strategy_id, n_games, repeats)
        print(f"   {n_players:>7}  {strategy_id:<8} {statistics.median(rates):>9,.0f}   {runs_text(rates)}", flush=True)


def print_skill_rows(game_name: str, best_heuristic: str, n_games: int, search_games: int, repeats: int) -> None:
    """The strong players' speed, 2 players: the compiled engine with ``best_heuristic`` and with the
    expert (its goal: at least half the heuristic's games/s), then games/s of the default ``search``
    and of ``strong`` (its goal: ten times search's), each against the heuristic, seats alternating."""
    from bgsim.strategies import available_strategies

    if "strong" not in {e.name for e in available_strategies(game_name)}:
        return
    print(f"   strong players, 2 players (compiled engine; search rows: per decision, against {best_heuristic})")
    rates = {sid: engine_rate(game_name, 2, sid, n_games, repeats) for sid in (best_heuristic, "expert")}
    for sid, runs in rates.items():
        print(f"   {2:>7}  {sid:<8} {statistics.median(runs):>9,.0f}   {runs_text(runs)}", flush=True)
    ratio = statistics.median(rates["expert"]) / statistics.median(rates[best_heuristic])
    print(f"   expert at {ratio:.2f} x {best_heuristic}'s games/s (goal >= 0.5)")
    searched = {sid: search_rate(game_name, sid, best_heuristic, search_games) for sid in ("search", "strong")}
    for sid, rate in searched.items():
        print(f"   {2:>7}  {sid:<8} {rate:>9,.2f}", flush=True)
    print(f"   strong at {searched['strong'] / searched['search']:.1f} x search's games/s (goal >= 10)")


def search_rate(game_name: str, strategy_id: str, opponent_id: str, n_games: int) -> float:
    """Games/s (process time, one core) of ``n_games`` 2-player games of ``strategy_id`` against
    ``opponent_id``, seats alternating, after an untimed game."""
    from bgsim.sim.play import play_game
    from bgsim.sim.seeding import game_seeds

    game = make_game(game_name, n_players=2)
    player, opponent = make_strategy(strategy_id, game), make_strategy(opponent_id, game)
    play_game(game, [player, opponent], game_seeds(10**6))
    start = time.process_time()
    for g in range(n_games):
        seats = [player, opponent] if g % 2 == 0 else [opponent, player]
        play_game(game, seats, game_seeds(g))
    return n_games / (time.process_time() - start)


def runs_text(rates: list[float], digits: int = 0) -> str:
    """The single runs of a row, e.g. '5,120 5,311 4,987'."""
    return " ".join(f"{x:,.{digits}f}" for x in rates)


def main(argv: list[str] | None = None) -> None:
    """Every listed game's benchmark in turn, or ``--game NAME``'s with the options that follow."""
    parser = argparse.ArgumentParser(description="games per second of every game's engine (make bench)")
    parser.add_argument("--game", help="one game's benchmark; the options after it go to that benchmark")
    args, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    games = available_games(unlisted=args.game is not None)
    if args.game is not None and args.game not in games:
        parser.error(f"unknown game {args.game!r}{did_you_mean(args.game, games)}")
    if args.game is None and rest:
        parser.error(f"options {' '.join(rest)} need --game NAME (each game's benchmark has its own)")
    for name, entry in games.items():
        bench = entry.parts.load("bench")
        if args.game in (None, name) and bench is not None:
            bench.main(rest if args.game == name else [])
        elif args.game == name:
            parser.error(f"{name} declares no benchmark")


if __name__ == "__main__":
    main()
