"""Choice values from paired rollouts (``sim.stats.choice_value``): exactly 0 when the alternatives
are the same, the size of a known advantage, no bias from picking the best of many rows, and the
interval clustered by source game."""

import numpy as np
import pandas as pd
import pytest
from bgsim.sim.stats.choice_value import (
    ChoicePoint,
    add_moments,
    choice_moments,
    choice_values,
    clustered_mean,
    point_values,
    values_from_moments,
)
from scipy import stats


def _points(make, n_points: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    frames = [point_values(ChoicePoint(game=i // 2, **make(rng))) for i in range(n_points)]
    return pd.concat(frames, ignore_index=True)


def test_identical_alternatives_have_a_choice_value_of_exactly_0():
    def make(rng):
        row = rng.random(40)
        return {"components": np.array([0, 1, 2, -1]), "shares": np.tile(row, (4, 1)),
                "margins": np.tile(rng.integers(-30, 30, 40), (4, 1))}

    table = choice_values(_points(make, 60))
    assert (table["win"] == 0).all() and (table["margin"] == 0).all()
    assert (table["win_low"] == 0).all() and (table["win_high"] == 0).all() and (table["q"] == 1).all()


def test_a_component_that_adds_a_tenth_of_a_win_on_every_rollout_is_worth_exactly_that():
    def make(rng):
        base = rng.random(30) * 0.8
        return {"components": np.array([0, 1]), "shares": np.stack([base, base + 0.1]),
                "margins": np.stack([np.zeros(30, np.int64), np.full(30, 5)])}

    table = choice_values(_points(make, 40)).set_index("component")
    assert table.loc[1, "win"] == pytest.approx(0.1) and table.loc[0, "win"] == pytest.approx(-0.1)
    assert table.loc[1, "margin"] == pytest.approx(5.0)


def test_the_best_of_many_equal_rows_is_not_favoured():
    """Ten rows of one component against one row of another, all the same coin: measured on the
    rollouts that did not pick the rows, the ten win no more often (picking and measuring on the
    same rollouts would credit them with the luckiest row's luck)."""
    def make(rng):
        return {"components": np.array([0] + [1] * 10), "shares": (rng.random((11, 64)) < 0.5).astype(float),
                "margins": np.zeros((11, 64), np.int64)}

    points = _points(make, 400, seed=3)
    table = choice_values(points).set_index("component")
    assert table.loc[1, "win_low"] < 0 < table.loc[1, "win_high"]
    assert abs(table.loc[1, "win"]) < 0.02


def test_the_interval_is_clustered_by_source_game():
    """The same point values, once spread over many games and once in pairs per game: the points of
    one game move together, so the clustered interval is wider."""
    rng = np.random.default_rng(7)
    values = rng.normal(0.05, 0.1, 200)
    spread = pd.DataFrame({"component": 0, "game": np.arange(200), "win": values, "margin": 0.0, "rollouts": 8})
    paired = spread.assign(game=np.arange(200) // 2, win=np.repeat(values[::2], 2))
    a, b = choice_values(spread).iloc[0], choice_values(paired).iloc[0]
    assert (b.win_high - b.win_low) > (a.win_high - a.win_low)


def test_values_from_moments_added_chunk_by_chunk_equal_values_from_all_points():
    """A study computes values from the moments of its chunks (disjoint source games), never holding
    every point: the same means and clustered intervals as from all points at once."""
    rng = np.random.default_rng(4)
    n = 3000
    points = pd.DataFrame({"component": rng.integers(0, 5, n), "game": np.sort(rng.integers(0, 300, n)),
                           "win": rng.normal(0.02, 0.3, n), "margin": rng.normal(1.0, 6.0, n)})
    whole = choice_values(points)
    chunks = [choice_moments(points[points["game"] // 100 == k]) for k in range(3)]
    streamed = values_from_moments(add_moments(add_moments(chunks[0], chunks[1]), chunks[2]))
    pd.testing.assert_frame_equal(streamed, whole, rtol=1e-9)
    for row in whole.itertuples():
        part = points[points["component"] == row.component]
        mean, se, games = clustered_mean(part["win"].to_numpy(), part["game"].to_numpy())
        assert row.win == pytest.approx(mean) and row.games == games
        t = stats.t.ppf(0.975, games - 1)
        assert row.win_high - row.win == pytest.approx(t * se)
