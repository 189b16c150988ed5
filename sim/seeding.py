"""Seeds: one ``SeedSequence`` per run, separate streams for chance and for strategies.

A game is identified by two independent 64-bit seeds: ``chance`` (the whole deal and every
later chance event of the rules: shuffles, draws, dice) and ``strategy`` (from which each seat
gets its own SplitMix64 stream). Replaying a deal with seats permuted or with other
strategies keeps ``chance`` and changes only the seating or the strategies, which gives
common random numbers for paired comparisons.

Runs derive the seeds of deal ``i`` from a 64-bit block key (a child of the run's
``SeedSequence``) and ``i`` alone, with a counter-based SplitMix64 hash: a game's seeds never
depend on the chunk it was played in, the chunk size or the number of workers, and a
million deals are seeded in milliseconds.
"""

import warnings
from dataclasses import dataclass

import numpy as np

__all__ = ["GameSeeds", "block_key", "deal_seeds", "game_seeds", "seat_streams", "seeds_from_sequence",
           "strategy_streams"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


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


def _mix(z: np.ndarray) -> np.ndarray:
    """The SplitMix64 output function, element-wise on a uint64 array (wraps modulo 2**64)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        z = (z ^ (z >> np.uint64(30))) * _MIX1
        z = (z ^ (z >> np.uint64(27))) * _MIX2
        return z ^ (z >> np.uint64(31))


def _counter(key: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Output ``k`` (k >= 1) of the SplitMix64 sequence that starts at ``key``; both uint64 arrays
    (or scalars) that broadcast together."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _mix(np.asarray(key, dtype=np.uint64) + np.asarray(k, dtype=np.uint64) * _GOLDEN)


def block_key(seed: int, block: int) -> int:
    """The 64-bit key of block ``block`` of a run with master seed ``seed``: child ``block`` of
    ``SeedSequence(seed)``. A run has one block per player count."""
    return int(np.random.SeedSequence(seed, spawn_key=(block,)).generate_state(1, dtype=np.uint64)[0])


def deal_seeds(key: int, deals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Chance and strategy seeds ((n,) uint64 each) of the deals ``deals`` ((n,) int64) of a block."""
    k = np.asarray(deals, dtype=np.uint64) * np.uint64(2)
    return _counter(np.uint64(key), k + np.uint64(1)), _counter(np.uint64(key), k + np.uint64(2))


def seat_streams(strategy: np.ndarray, n_seats: int) -> np.ndarray:
    """One SplitMix64 stream per seat, (n, n_seats) uint64, from strategy seeds ((n,) uint64)."""
    strategy = np.asarray(strategy, dtype=np.uint64)
    seats = np.arange(1, n_seats + 1, dtype=np.uint64)
    return _counter(strategy[:, None], seats[None, :])


def strategy_streams(seeds: GameSeeds, n_seats: int) -> np.ndarray:
    """One SplitMix64 stream per seat, (n_seats,) uint64, derived from ``seeds.strategy``."""
    return seat_streams(np.array([seeds.strategy], dtype=np.uint64), n_seats)[0]
