"""Play a batch of games in one of the three strategy tiers and return their final states.

- ``compiled``: every seat has a compiled policy (weights or random); whole games run inside
  the game's compiled loop.
- ``vectorised``: every seat's strategy has ``score(features) -> values``; the batch advances in
  lockstep, one Python call per strategy and step scores the stacked tables of all games.
- ``per_game``: ``choose(table, stream)`` per decision, one game after another.

The same strategies give the same games in every tier that can run them.
"""

from collections.abc import Sequence

import numpy as np
from bgsim.sim.api import CompiledPlay, Game, LockstepBatches, Strategy, supports
from bgsim.sim.errors import RunawayGameError, StrategyError
from bgsim.sim.play import play_game
from bgsim.sim.seeding import GameSeeds, seat_streams

__all__ = ["TIERS", "choose_tier", "play_batch"]

TIERS = ("auto", "compiled", "vectorised", "per_game")
_STACK_ROWS = 1 << 17  # rows of the lockstep table buffer (at least one table of game.max_rows)


def choose_tier(game: Game, strategies: Sequence[Strategy], tier: str = "auto") -> str:
    """The tier a batch will run in: ``tier`` itself, or for ``auto`` the fastest the seats allow."""
    if tier not in TIERS:
        raise StrategyError(f"unknown tier {tier!r} (one of {', '.join(TIERS)})")
    can_compile, can_lockstep = supports(game, CompiledPlay), supports(game, LockstepBatches)
    compiled = can_compile and all(s.compiled_policy(game) is not None for s in strategies)
    vectorised = can_lockstep and all(callable(getattr(s, "score", None)) for s in strategies)
    if tier == "auto":
        return "compiled" if compiled else "vectorised" if vectorised else "per_game"
    if tier == "compiled" and not compiled:
        raise StrategyError("tier 'compiled' needs a compiled policy for every strategy"
                            + ("" if can_compile else f" and a game with compiled play, which {game.name} is not"))
    if tier == "vectorised" and not vectorised:
        raise StrategyError("tier 'vectorised' needs a score(features) method on every strategy"
                            + ("" if can_lockstep else f" and a game with lockstep batches, which {game.name} is not"))
    return tier


def play_batch(game: Game, strategies: Sequence[Strategy], seat_strategy: np.ndarray, chance: np.ndarray,
               strategy_seeds: np.ndarray, tier: str = "auto", out: np.ndarray | None = None) -> np.ndarray:
    """Final states of G games, (G, state size) int32.

    ``strategies``: the K distinct strategies of the batch; ``seat_strategy`` (G, P) int64 says
    which of them sits in each seat of each game; ``chance`` and ``strategy_seeds`` (G,) uint64
    are the games' seeds (``sim.seeding``). ``out``: an optional (>= G, state size) int32 buffer
    the compiled tier plays into (the result is then a view of it, valid until its next use).
    """
    seat_strategy = np.ascontiguousarray(seat_strategy, dtype=np.int64)
    chance = np.ascontiguousarray(chance, dtype=np.uint64)
    tier = choose_tier(game, strategies, tier)
    if tier == "compiled":
        streams = seat_streams(strategy_seeds, game.n_players)
        policies = [s.compiled_policy(game) for s in strategies]
        return game.play_states(chance, streams, seat_strategy, policies, out=out)
    if tier == "vectorised":
        return _play_lockstep(game, strategies, seat_strategy, chance)
    states = []
    for g in range(len(chance)):
        seated = [strategies[k] for k in seat_strategy[g]]
        seeds = GameSeeds(int(chance[g]), int(strategy_seeds[g]))
        states.append(play_game(game, seated, seeds, compiled=False).state)
    return np.stack(states) if states else np.empty((0, 0), dtype=np.int32)


def _play_lockstep(game, strategies, seat_strategy: np.ndarray, chance: np.ndarray) -> np.ndarray:
    """The batch stepped together until every game is over; a game not over after the game's
    ``max_decisions`` decisions raises a RunawayGameError naming its place and chance seed, as the
    compiled loops do, so that no reading of the rules can keep a batch stepping forever."""
    states = game.deal_states(chance)
    limit = getattr(game, "max_decisions", 0) or np.iinfo(np.int64).max
    decisions = np.zeros(len(chance), dtype=np.int64)  # (G,) decisions each game has taken
    feats = np.empty((max(_STACK_ROWS, 2 * game.max_rows), len(game.feature_names)), dtype=np.int32)
    acts = np.empty((feats.shape[0], len(game.action_fields)), dtype=np.int32)
    offsets = np.empty(len(chance) + 1, dtype=np.int64)
    while True:
        seats = game.pending_seats(states)
        active = np.flatnonzero(seats >= 0).astype(np.int64)
        if active.size == 0:
            return states
        runaway = active[decisions[active] >= limit]
        if runaway.size:
            g = int(runaway[0])
            raise RunawayGameError(game.id, int(limit)).of_game(g + 1, f"chance {int(chance[g])}")
        while active.size:
            m = game.stack_tables(states, active, feats, acts, offsets)
            games = active[:m]
            owner = seat_strategy[games, seats[games]]  # (m,) strategy of each table
            values = _score_tables(strategies, owner, feats, offsets[: m + 1])
            game.apply_best_rows(states, games, acts, offsets[: m + 1], values)
            decisions[games] += 1
            active = active[m:]


def _score_tables(strategies, owner: np.ndarray, feats: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Values of every stacked row, (R,) int64 or float64: one score call per strategy present."""
    n_rows = int(offsets[-1])
    first = int(owner[0])
    if (owner == first).all():
        return _values(strategies[first], feats[:n_rows], n_rows)
    lengths = np.diff(offsets)
    row_owner = np.repeat(owner, lengths)
    values = np.empty(n_rows, dtype=np.float64)
    for k in np.unique(owner):
        rows = np.flatnonzero(row_owner == k)
        values[rows] = _values(strategies[int(k)], feats[rows], len(rows))
    return values


def _values(strategy, feats: np.ndarray, n_rows: int) -> np.ndarray:
    values = np.asarray(strategy.score(feats))
    if values.shape != (n_rows,):
        raise StrategyError(f"strategy {strategy.id}: score returned shape {values.shape}, expected ({n_rows},)")
    return np.ascontiguousarray(values, dtype=np.int64 if values.dtype.kind in "iub" else np.float64)
