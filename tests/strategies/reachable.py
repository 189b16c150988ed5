"""Random reachable states: deal a game and play uniformly random legal actions for a while."""

import numpy as np
from bgsim.sim import game_seeds
from bgsim.sim.rng import below, new_stream


def random_reachable_state(game, seed: int, steps: int) -> np.ndarray:
    """The state after up to ``steps`` random decisions of a game dealt with ``seed``; it stops
    early (returning a pending decision) rather than at the game's end."""
    state = game.new_state(game_seeds(seed))
    stream = new_stream(seed)
    for _ in range(steps):
        table = game.decision(state)
        if len(table) == 0:
            break
        row = int(below(stream, 0, len(table)))
        after = state.copy()
        game.apply(after, table.actions[row])
        if game.is_over(after):
            break
        state = after
    return state
