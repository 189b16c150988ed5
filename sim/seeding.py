"""Seeds: one ``SeedSequence`` tree per run, separate streams for chance and for strategies.

A game is identified by its ``SeedSequence``. From it come two independent 64-bit seeds:
``chance`` (the whole deal: tile stocks, scoring cards, fountain deck, frames, boards) and
``strategy`` (from which each seat gets its own stream). Replaying a deal with seats permuted
or with other strategies keeps ``chance`` and changes only the seating or the strategies,
which gives common random numbers for paired comparisons.
"""

from dataclasses import dataclass

import numpy as np

__all__ = ["GameSeeds", "game_seeds", "seeds_from_sequence", "strategy_streams"]


@dataclass(frozen=True)
class GameSeeds:
    """The two 64-bit seeds of one game."""

    chance: int
    strategy: int


def seeds_from_sequence(seq: np.random.SeedSequence) -> GameSeeds:
    chance, strategy = seq.generate_state(2, dtype=np.uint64)
    return GameSeeds(int(chance), int(strategy))


def game_seeds(seed: int) -> GameSeeds:
    """The seeds of the game with user-facing number ``seed`` (e.g. ``bgsim play --seed 7``)."""
    if seed < 0:
        raise ValueError("a game seed must be a non-negative integer")
    return seeds_from_sequence(np.random.SeedSequence(seed))


def strategy_streams(seeds: GameSeeds, n_seats: int) -> np.ndarray:
    """One SplitMix64 stream per seat, (n_seats,) uint64, derived from ``seeds.strategy``."""
    seq = np.random.SeedSequence(seeds.strategy)
    return seq.generate_state(n_seats, dtype=np.uint64)
