"""The golden playthroughs: one seeded, traced game per player count (1 = solo against Anna)."""

from pathlib import Path

from bgsim.sim import game_seeds, make_game
from bgsim.sim.games.carpe_diem.render import trace_text
from bgsim.sim.play import play_game
from bgsim.strategies import make_strategy

GOLDEN_DIR = Path(__file__).parent
SEED = 7
SEATS = ("greedy", "random", "greedy", "random")


def path_for(n_players: int) -> Path:
    return GOLDEN_DIR / f"carpe_diem_{n_players}p_seed{SEED}.txt"


def render(n_players: int) -> str:
    g = make_game("carpe_diem", n_players=n_players)
    seats = [make_strategy(kind, g) for kind in SEATS[:n_players]]
    played = play_game(g, seats, game_seeds(SEED), log=True, validate=True)
    return trace_text(g, played.state, played.log, played.seeds, [s.id for s in seats])
