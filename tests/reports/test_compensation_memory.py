"""The compensation solver in bounded memory: games re-scored in batches give exactly the one-batch
results, and ``game_scores`` reads a LazyFrame as it reads the collected rows."""

import tracemalloc

import numpy as np
import pandas as pd
import polars as pl
import pytest
from bgsim.sim.stats.compensation import GameScores, _scan, game_scores, solve, win_rates, winners
from hypothesis import assume, given
from hypothesis import strategies as st


@st.composite
def small_games(draw) -> tuple[GameScores, np.ndarray | None]:
    """Random games of 2-4 players (tie-break places a permutation per game) and optional bootstrap weights."""
    n, g = draw(st.integers(2, 4)), draw(st.integers(1, 40))
    base = np.array(draw(st.lists(st.integers(-10, 40), min_size=g * n, max_size=g * n)), dtype=np.int32)
    tiebreak = np.array([draw(st.permutations(range(1, n + 1))) for _ in range(g)], dtype=np.int32)
    start = np.array(draw(st.lists(st.integers(0, 12), min_size=n, max_size=n)), dtype=np.int64)
    weights = draw(st.none() | st.lists(st.integers(0, 4), min_size=g, max_size=g))
    weights = None if weights is None else np.array(weights, dtype=np.float64)
    assume(weights is None or weights.sum() > 0)
    return GameScores(base.reshape(g, n), tiebreak, np.arange(g), start), weights


@given(small_games(), st.integers(1, 8), st.integers(-5, 5), st.integers(1, 12), st.data())
def test_batches_give_exactly_the_one_batch_results(games, batch, low, width, data):
    scores, weights = games
    n, high = scores.n_players, low + width
    seat = data.draw(st.integers(1, n - 1))
    vector = np.array(data.draw(st.lists(st.integers(low, high), min_size=n, max_size=n)), dtype=np.int64)
    scanned = _scan(scores, vector, seat, low, high, weights, batch=batch)
    assert np.array_equal(scanned, _scan(scores, vector, seat, low, high, weights))
    for value, rates in zip(range(low, high + 1), scanned, strict=True):  # the scan is an exact re-scoring
        trial = vector.copy()
        trial[seat] = value
        assert np.array_equal(rates, win_rates(scores, trial, weights))
    assert np.array_equal(win_rates(scores, vector, weights, batch=batch), win_rates(scores, vector, weights))
    assert np.array_equal(winners(scores, vector, batch=batch), winners(scores, vector))
    batched, whole = solve(scores, low, high, weights=weights, batch=batch), solve(scores, low, high, weights=weights)
    assert batched.vector == whole.vector and batched.objective == whole.objective
    assert np.array_equal(batched.rates, whole.rates)


def _stored_rows(n: int, games: int, seed: int = 0) -> pl.DataFrame:
    """Rows as a run stores them (narrow integer types, extra columns), in shuffled order."""
    rng = np.random.default_rng(seed)
    rows = pl.DataFrame({
        "run_id": "r", "n_players": pl.Series(np.full(games * n, n), dtype=pl.Int8),
        "game_index": np.repeat(np.arange(games), n), "deal": np.repeat(np.arange(games) // 2, n),
        "seat": pl.Series(np.tile(np.arange(n), games), dtype=pl.Int8),
        "start_points": pl.Series(np.tile(np.arange(n) + 8, games), dtype=pl.Int16),
        "final_points": pl.Series(rng.integers(40, 140, games * n), dtype=pl.Int16),
        "tiebreak": pl.Series((np.argsort(rng.random((games, n)), axis=1) + 1).ravel(), dtype=pl.Int8),
        "strategy": "greedy", "spent": rng.integers(0, 50, games * n),
    })
    return rows[rng.permutation(rows.height)]


COLUMNS = ("start_points", "final_points", "tiebreak")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_game_scores_reads_a_lazy_frame_as_the_collected_rows(tmp_path, n):
    rows = _stored_rows(n, 3000, seed=n)
    rows[:5000].write_parquet(tmp_path / "a.parquet")
    rows[5000:].write_parquet(tmp_path / "b.parquet")
    lazy = game_scores(pl.scan_parquet(tmp_path / "*.parquet"), *COLUMNS)
    for eager in (game_scores(rows, *COLUMNS), game_scores(rows.to_pandas(), *COLUMNS)):
        for name in ("base", "tiebreak", "deal", "start"):
            assert np.array_equal(getattr(lazy, name), getattr(eager, name)), name
    assert (lazy.base.dtype, lazy.tiebreak.dtype, lazy.deal.dtype, lazy.start.dtype) == (np.int32, np.int32,
                                                                                        np.int64, np.int64)
    assert lazy.base.shape == lazy.tiebreak.shape == (3000, n) and lazy.deal.shape == (3000,)
    ordered = rows.sort("game_index", "seat")
    expected = (ordered["final_points"].to_numpy().astype(np.int64) - ordered["start_points"].to_numpy())
    assert np.array_equal(lazy.base, expected.reshape(-1, n))
    assert np.array_equal(lazy.deal, np.arange(3000) // 2) and lazy.start.tolist() == list(range(8, 8 + n))


def test_game_scores_on_a_lazy_frame_still_refuses_mixed_games():
    rows = _stored_rows(2, 10)
    with pytest.raises(ValueError, match="one player count"):
        game_scores(pl.concat([rows, _stored_rows(3, 10).with_columns(pl.lit("s").alias("run_id"))]).lazy(),
                    *COLUMNS)
    other_start = rows.with_columns(pl.when(pl.col("game_index") == 3).then(0).otherwise(pl.col("start_points"))
                                    .cast(pl.Int16).alias("start_points"))
    with pytest.raises(ValueError, match="one start vector"):
        game_scores(other_start.lazy(), *COLUMNS)
    without_run = game_scores(pd.DataFrame(rows.drop("run_id").to_pandas()), *COLUMNS)
    assert np.array_equal(without_run.base, game_scores(rows.lazy(), *COLUMNS).base)


def _peak(function) -> int:
    """Bytes of the peak traced allocation while ``function`` runs (numpy reports its buffers)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        function()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_scan_and_win_rates_peak_does_not_grow_with_games():
    """400,000 4-player games: unbatched, the (G, 4) int64 keys alone are 12.8 MB; batched, the
    temporaries are a few (16384, 4) int64 blocks."""
    rng = np.random.default_rng(0)
    games = 400_000
    base = rng.integers(60, 160, (games, 4)).astype(np.int32)
    tiebreak = (np.argsort(rng.random((games, 4)), axis=1) + 1).astype(np.int32)
    scores = GameScores(base, tiebreak, np.arange(games), np.array([8, 9, 10, 11]))
    weights = rng.multinomial(games, np.full(games, 1.0 / games)).astype(np.float64)
    vector = np.array([8, 9, 10, 11])
    whole = _peak(lambda: _scan(scores, vector, 2, 0, 30, weights, batch=games))
    batched = _peak(lambda: _scan(scores, vector, 2, 0, 30, weights, batch=1 << 14))
    rates = _peak(lambda: win_rates(scores, vector, weights, batch=1 << 14))
    assert batched < 4 << 20 and rates < 4 << 20, (batched, rates)
    assert whole > 5 * batched, (whole, batched)
