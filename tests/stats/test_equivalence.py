"""Two one-sided tests over a family: the three outcomes, and the quantity a verdict names."""

import numpy as np
import pandas as pd
from bgsim.sim.stats.equivalence import CANNOT_TELL, HELD, MIN_GAMES, OFF, equivalence
from bgsim.sim.stats.seats import seat_equivalence, tolerance_sentence


def test_every_interval_inside_the_tolerance_is_held():
    verdict = equivalence([0.005, -0.004], [0.002, 0.002], tolerance=0.02, games=10_000)
    assert verdict.outcome == HELD


def test_one_interval_wholly_outside_is_off():
    verdict = equivalence([0.001, 0.05], [0.002, 0.005], tolerance=0.02, games=10_000)
    assert verdict.outcome == OFF


def test_an_interval_across_the_edge_cannot_tell_and_says_how_many_games_would():
    verdict = equivalence([0.015], [0.005], tolerance=0.02, games=1_000)
    assert verdict.outcome == CANNOT_TELL
    assert verdict.games_to_tell > 1_000


def test_off_names_the_seat_whose_interval_lies_outside_not_the_furthest_estimate():
    # seat 3 is furthest (+16.7 pp) but its wide interval reaches back inside the tolerance; seat 1
    # (-14.6 pp, narrower) is the one the verdict rests on
    verdict = equivalence([-0.146, -0.021, 0.167], [0.04, 0.06, 0.075], tolerance=0.02, games=48, k=3)
    assert verdict.outcome == OFF
    assert verdict.worst == 2
    assert verdict.off_low[2] < 0.02  # seat 3's interval is not wholly outside
    assert verdict.decisive == 0
    assert verdict.off_high[0] < -0.02


def test_the_table_sentence_for_off_names_an_interval_that_is_outside():
    seats = pd.DataFrame({"n_players": 3, "population": "search", "start": "rulebook", "seat": [0, 1, 2],
                          "win_rate": np.array([0.188, 0.312, 0.5]), "fair": 1 / 3,
                          "win_se": [0.04, 0.06, 0.075], "games": 48})
    row = seat_equivalence(seats).iloc[0]
    assert row["outcome"] == OFF
    assert row["worst_seat"] == 0 and row["worst_high_pp"] < -2
    assert tolerance_sentence(row).startswith("off by more than ±2 pp: seat 1 ")


def test_a_shown_interval_wholly_outside_the_tolerance_always_means_off():
    # the shown interval answers each quantity's own question: off (95 %) beyond the tolerance,
    # held (90 %) inside it; so "cannot tell" never shows an interval beyond the tolerance
    rng = np.random.default_rng(3)
    for _ in range(2000):
        k = int(rng.integers(1, 5))
        verdict = equivalence(rng.normal(0, 0.04, k), rng.uniform(0.001, 0.02, k), 0.02, 1000, k=k)
        low, high = verdict.bounds
        outside = (low > 0.02) | (high < -0.02)
        assert outside.any() == (verdict.outcome == OFF)
        if verdict.outcome == HELD:
            assert ((low > -0.02) & (high < 0.02)).all()


def test_cannot_tell_beyond_the_tolerance_shows_the_off_tests_interval():
    verdict = equivalence([0.031], [0.006], tolerance=0.02, games=6_000)  # 90 %: [2.1, 4.1]; 95 %: [1.9, 4.3]
    assert verdict.outcome == CANNOT_TELL
    low, high = verdict.bounds
    assert low[0] < 0.02 < verdict.low[0]


def test_fewer_games_than_the_calibration_measures_cannot_tell():
    # 4 seats on 24 games: a seat with 1 win of 24 has a standard error of 4 pp, and the normal
    # interval would call it off; below MIN_GAMES no verdict is given
    rate = np.array([1, 7, 8, 8]) / 24
    se = np.sqrt(rate * (1 - rate) / 23)
    assert equivalence(rate - 0.25, se, 0.02, 24, k=4).outcome == CANNOT_TELL
    verdict = equivalence(rate - 0.25, se, 0.02, MIN_GAMES, k=4)
    assert verdict.outcome == OFF  # the same rates on MIN_GAMES games are a verdict
    assert equivalence(rate - 0.25, se, 0.02, 24, k=4).games_to_tell >= MIN_GAMES
