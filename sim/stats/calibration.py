"""Difficulty calibration: the setting of one integer knob that gives a chosen win rate.

The response (win rate against the knob, e.g. the automa's start score) is assumed monotone, rising or
falling. ``solve_level`` brackets the target by bisection over the knob's values, calling
``evaluate(knob) -> (wins, games)`` only where it needs to (each call is a simulation), and
returns the value whose measured rate is closest to the target together with the range of knob
values whose Wilson interval still contains it (found by walking outwards from the bracket until an
interval excludes the target): the calibration's interval.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from bgsim.sim.stats.intervals import wilson

__all__ = ["Level", "find_root", "slope_near", "solve_level"]

Evaluate = Callable[[int], tuple[int, int]]


@dataclass
class Level:
    target: float
    knob: int  # the value whose measured win rate is closest to the target
    rate: float
    rate_low: float
    rate_high: float
    knob_low: int  # the evaluated values whose interval contains the target span knob_low..knob_high
    knob_high: int
    reachable: bool  # False: the target lies beyond the rates at both ends of the range
    measured: pd.DataFrame = field(repr=False)  # knob, wins, games, rate, rate_low, rate_high


def solve_level(evaluate: Evaluate, knobs: Sequence[int], target: float, confidence: float = 0.95) -> Level:
    """The knob value for ``target`` (a win rate in 0..1) over the sorted integer ``knobs``."""
    if not 0 < target < 1:
        raise ValueError(f"target win rate must be between 0 and 1, not {target}")
    seen: dict[int, tuple[int, int]] = {}

    def measure(knob: int) -> tuple[float, bool]:
        if knob not in seen:
            seen[knob] = evaluate(knob)
        wins, games = seen[knob]
        return wins / games, _contains(seen[knob], target, confidence)

    reachable = find_root(measure, knobs, target)
    return _level(seen, target, reachable, confidence)


Measure = Callable[[int], tuple[float, bool]]


def find_root(measure: Measure, knobs: Sequence[int], target: float) -> bool:
    """Where a monotone response (rising or falling) crosses ``target`` over the integer ``knobs``.

    ``measure(knob) -> (estimate, its interval contains the target)`` is called only where needed
    (each call is a simulation): both ends, a bisection to the bracket, then outwards from it while
    the intervals still contain the target. The caller keeps what it measured; returns whether the
    target lies between the estimates at the two ends (False: only the ends were measured).
    Shared by the difficulty calibration and the component payout solver."""
    values = sorted(set(int(k) for k in knobs))
    if len(values) < 2:
        raise ValueError("a root search needs at least two knob values")
    seen: dict[int, tuple[float, bool]] = {}

    def at(index: int) -> tuple[float, bool]:
        if values[index] not in seen:
            seen[values[index]] = measure(values[index])
        return seen[values[index]]

    lo, hi = 0, len(values) - 1
    sign = 1 if at(hi)[0] >= at(lo)[0] else -1
    reachable = sign * (at(lo)[0] - target) <= 0 <= sign * (at(hi)[0] - target)
    while reachable and hi - lo > 1:  # invariant: the target lies between the estimates at lo and hi
        mid = (lo + hi) // 2
        if sign * (at(mid)[0] - target) < 0:
            lo = mid
        else:
            hi = mid
    if reachable:  # walk outwards while the measured value cannot be told from the target
        for start, step in ((lo, -1), (hi, 1)):
            i = start
            while 0 <= i < len(values) and at(i)[1]:
                i += step
                if 0 <= i < len(values):
                    at(i)
    return reachable


def slope_near(level: Level) -> float:
    """How much the win rate moves per unit of the knob around the solution: the measured rates at
    the nearest values tried on either side of it, their difference over their distance (NaN if a
    side was never tried). Half of it is about the most an integer knob can miss a target by."""
    m = level.measured
    below, above = m[m["knob"] < level.knob], m[m["knob"] > level.knob]
    if below.empty or above.empty:
        return float("nan")
    lo, hi = below.iloc[-1], above.iloc[0]
    return float(abs(hi["rate"] - lo["rate"]) / (hi["knob"] - lo["knob"]))


def _contains(result: tuple[int, int], target: float, confidence: float) -> bool:
    low, high = wilson(np.array([result[0]]), np.array([result[1]]), confidence)
    return bool(low[0] <= target <= high[0])


def _level(seen: dict, target: float, reachable: bool, confidence: float) -> Level:
    knobs = np.array(sorted(seen), dtype=np.int64)
    wins = np.array([seen[k][0] for k in knobs], dtype=np.int64)
    games = np.array([seen[k][1] for k in knobs], dtype=np.int64)
    rates = wins / games
    low, high = wilson(wins, games, confidence)
    measured = pd.DataFrame({"knob": knobs, "wins": wins, "games": games, "rate": rates, "rate_low": low,
                             "rate_high": high})
    best = int(np.argmin(np.abs(rates - target)))
    inside = knobs[(low <= target) & (target <= high)]
    span = (int(inside.min()), int(inside.max())) if len(inside) else (int(knobs[best]), int(knobs[best]))
    return Level(target=target, knob=int(knobs[best]), rate=float(rates[best]), rate_low=float(low[best]),
                 rate_high=float(high[best]), knob_low=span[0], knob_high=span[1], reachable=reachable,
                 measured=measured)
