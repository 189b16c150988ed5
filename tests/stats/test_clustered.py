"""Variances clustered by deal (``sim.stats.clustered``) on hand-made rows: the sums agree with a
direct computation, slices of deals add up to the whole, self-play takes the one-pass path with the
same answer, and a deal's games that move together widen the interval."""

import numpy as np
import pandas as pd
import polars as pl
import pytest
from bgsim.sim.stats import clustered
from bgsim.sim.stats.clustered import clustered_moments, clustered_rates, clustered_variance, seat_covariances


def rows(deals: int, seatings: int, seed: int = 1, deal_sd: float = 0.0) -> pl.DataFrame:
    """Two seats per game, ``seatings`` games per deal; seat 0 wins with a chance that a deal moves."""
    rng = np.random.default_rng(seed)
    lean = np.clip(0.5 + rng.normal(0, deal_sd, deals), 0.05, 0.95)
    out = []
    for d in range(deals):
        for s in range(seatings):
            won = rng.random() < lean[d]
            for seat in (0, 1):
                out.append({"n_players": 2, "deal": d, "seating": s, "game_index": d * seatings + s, "seat": seat,
                            "won": float(won if seat == 0 else not won), "score": float(rng.integers(0, 50))})
    return pl.DataFrame(out)


def direct(frame: pd.DataFrame) -> tuple[float, float]:
    """Mean and clustered variance of seat 0's win, computed the long way."""
    x = frame[frame["seat"] == 0]
    mean = x["won"].mean()
    resid = (x["won"] - mean).groupby(x["deal"]).sum()
    g, n = len(resid), len(x)
    return mean, g / (g - 1) * float((resid ** 2).sum()) / n ** 2


def test_clustered_sums_agree_with_a_direct_computation():
    frame = rows(300, 4, deal_sd=0.2)
    table = clustered_moments(frame, ["seat"], {"win": pl.col("won")})
    mean, variance = clustered_variance(table, "win")
    expected = direct(frame.to_pandas())
    assert mean[0] == pytest.approx(expected[0]) and variance[0] == pytest.approx(expected[1])


def test_slices_of_whole_deals_add_up_to_the_whole(monkeypatch):
    frame = rows(400, 3, deal_sd=0.2)
    whole = clustered_moments(frame, ["seat"], {"win": pl.col("won"), "score": pl.col("score")})
    monkeypatch.setattr(clustered, "_SLICE_ROWS", 300)
    assert len(clustered.deal_slices(frame)) > 5
    sliced = clustered_moments(frame, ["seat"], {"win": pl.col("won"), "score": pl.col("score")})
    pd.testing.assert_frame_equal(sliced.to_pandas(), whole.to_pandas(), rtol=1e-12)


def test_self_play_takes_one_pass_with_the_same_sums(monkeypatch):
    frame = rows(500, 1)
    one_pass = clustered_moments(frame, ["seat"], {"win": pl.col("won")})
    monkeypatch.setattr(clustered, "_one_game_per_deal", lambda _frame: False)
    by_deal = clustered_moments(frame, ["seat"], {"win": pl.col("won")})
    pd.testing.assert_frame_equal(one_pass.to_pandas(), by_deal.to_pandas(), rtol=1e-12)


def test_a_deal_that_moves_its_games_together_widens_the_interval():
    together = clustered_rates(clustered_moments(rows(200, 6, deal_sd=0.3), ["seat"], {"win": pl.col("won")}), "win")
    apart = clustered_rates(clustered_moments(rows(1200, 1), ["seat"], {"win": pl.col("won")}), "win")
    assert (together[2] - together[1])[0] > 1.3 * (apart[2] - apart[1])[0]  # the same 1,200 games
    assert together[3][0] < 1200 * 0.5 and apart[3][0] == pytest.approx(1200)  # effective games


def test_seat_covariance_of_one_winner_per_game_is_the_multinomial_one():
    frame = rows(3000, 1)
    (found,) = seat_covariances(frame, ["n_players"], pl.col("won")).values()
    p = found.rates
    expected = (np.diag(p) - np.outer(p, p)) / 3000
    assert found.covariance == pytest.approx(expected * 3000 / 2999, rel=1e-9)
    assert found.covariance[0, 1] < 0  # seats of one game share one winner
