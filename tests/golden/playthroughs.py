"""The golden playthroughs: one seeded, traced game per registered game and player count."""

import importlib
from pathlib import Path

from bgsim.sim import game_seeds, make_game
from bgsim.sim.play import play_game
from bgsim.sim.registry import available_games, player_counts
from bgsim.strategies import make_strategy

GOLDEN_DIR = Path(__file__).parent
SEED = 7
SEATS = ("greedy", "random", "greedy", "random")  # every game names a personality "greedy"


def cases() -> list[tuple[str, int]]:
    """(game, player count) of every golden playthrough: every registered game, listed or not."""
    return [(name, n) for name in available_games(unlisted=True) for n in player_counts(name)]


def path_for(name: str, n_players: int) -> Path:
    return GOLDEN_DIR / f"{name}_{n_players}p_seed{SEED}.txt"


def render(name: str, n_players: int) -> str:
    importlib.import_module(f"bgsim.strategies.{name}")  # the game's strategies, where not found yet
    g = make_game(name, n_players=n_players)
    seats = [make_strategy(kind, g) for kind in SEATS[:n_players]]
    played = play_game(g, seats, game_seeds(SEED), log=True, validate=True)
    return g.trace_text(played.state, played.log, played.seeds, [s.id for s in seats])
