"""Difficulty calibration on synthetic monotone responses with known answers."""

import math

import numpy as np
import pytest
from bgsim.sim.stats.calibration import slope_near, solve_level


def logistic(knob: int, middle: float, scale: float, falling: bool = True) -> float:
    x = (knob - middle) / scale
    return 1 / (1 + math.exp(x if falling else -x))


def exact(middle: float, scale: float = 3.0, games: int = 100_000, falling: bool = True, calls: list | None = None):
    def evaluate(knob: int) -> tuple[int, int]:
        if calls is not None:
            calls.append(knob)
        return round(games * logistic(knob, middle, scale, falling)), games
    return evaluate


@pytest.mark.parametrize(("target", "expected"), [(0.5, 12), (0.3, 15), (0.7, 9)])
def test_a_falling_response_is_solved_at_the_known_knob(target, expected):
    # rate(k) = 1 / (1 + exp((k - 12) / 3)): 0.5 at 12, 0.3 at 12 + 3 ln(7/3) = 14.5, 0.7 at 9.5
    level = solve_level(exact(12), range(0, 41), target)
    assert level.reachable and abs(level.knob - expected) <= 1
    assert abs(level.rate - target) < 0.07


def test_a_rising_response_works_the_same_way():
    level = solve_level(exact(20, falling=False), range(0, 41), 0.5)
    assert level.knob == 20 and level.knob_low == level.knob_high == 20  # 100,000 games: a sharp answer


def test_bisection_evaluates_only_a_few_settings():
    calls: list = []
    solve_level(exact(12, calls=calls), range(0, 1001), 0.5)
    assert len(calls) <= 16 and len(set(calls)) == len(calls)  # each setting simulated once


def test_noisy_response_gives_an_interval_that_covers_the_truth():
    rng = np.random.default_rng(3)

    def evaluate(knob: int) -> tuple[int, int]:
        return int(rng.binomial(100, logistic(knob, 12, 3))), 100  # +-10 pp: neighbours cannot be told apart

    level = solve_level(evaluate, range(0, 41), 0.5)
    assert level.knob_low <= 12 <= level.knob_high and level.knob_high - level.knob_low >= 1
    assert (level.measured["rate_low"] <= level.measured["rate"] + 1e-12).all()


def test_an_unreachable_target_says_so():
    level = solve_level(exact(12, scale=1.0), range(0, 5), 0.5)  # rates from 1.0 down to 0.9997
    assert not level.reachable and level.knob == 4


def test_bad_targets_and_ranges_are_errors():
    with pytest.raises(ValueError, match="between 0 and 1"):
        solve_level(exact(12), range(0, 5), 1.5)
    with pytest.raises(ValueError, match="at least two"):
        solve_level(exact(12), [3], 0.5)


def test_the_slope_near_the_solution_is_the_response_per_unit_of_the_knob():
    # rate(k) = 1 / (1 + exp((k - 12) / 3)) has slope -1/12 at 12: about 8.3 pp per unit
    level = solve_level(exact(12, games=1_000_000), range(0, 41), 0.5)
    assert abs(slope_near(level) - 1 / 12) < 0.005
    assert math.isnan(slope_near(solve_level(exact(12, scale=1.0), range(0, 5), 0.5)))  # one side only
