"""The golden playthroughs: one seeded, traced game per game of the suites and player count, kept in
the game's own test folder (``tests/games/<game>/golden/``)."""

import importlib
from pathlib import Path

from bgsim.sim import game_seeds, make_game
from bgsim.sim.play import play_game
from bgsim.sim.registry import player_counts
from bgsim.strategies import make_strategy

from tests.suite import game_test_folder, suite_games

SEED = 7
SEATS = ("greedy", "random", "greedy", "random")  # every game names a personality "greedy"


def cases() -> list[tuple[str, int]]:
    """(game, player count) of every golden playthrough: every game the suites run (``tests.suite``)."""
    return [(name, n) for name in suite_games() for n in player_counts(name)]


def path_for(name: str, n_players: int) -> Path:
    return game_test_folder(name) / "golden" / f"{name}_{n_players}p_seed{SEED}.txt"


def render(name: str, n_players: int) -> str:
    importlib.import_module(f"bgsim.strategies.{name}")  # the game's strategies, where not found yet
    g = make_game(name, n_players=n_players)
    seats = [make_strategy(kind, g) for kind in SEATS[:n_players]]
    played = play_game(g, seats, game_seeds(SEED), log=True, validate=True)
    return g.trace_text(played.state, played.log, played.seeds, [s.id for s in seats])
