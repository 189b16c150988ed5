"""Tournament statistics in bounded memory: the pairs of seats counted part by part equal the
comparisons of every row, the bootstrap draws its replicates in batches yet gives exactly the
numbers of the full (B, D) resampling matrix, and the summary of a tournament comes from lazy scans
of its chunks, equal to the statistics of all rows in memory."""

import numpy as np
import polars as pl
import pytest
from bgsim.experiments.tournament import (
    load_results,
    load_tournament,
    result_parts,
    run_tournament,
    scan_results,
    summarise,
)
from bgsim.sim.stats import ratings
from polars.testing import assert_frame_equal

from tests.runner.test_tournament import _synthetic_results, write_tournament


def _old_resample_deals(strata: np.ndarray, replicates: int, seed: int) -> np.ndarray:
    """The resampling before batches: one (B, m) draw per stratum, the whole (B, D) matrix."""
    rng = np.random.default_rng(seed)
    weights = np.zeros((replicates, len(strata)), dtype=np.int64)
    for stratum in np.unique(strata):
        members = np.flatnonzero(strata == stratum)
        draws = members[rng.integers(0, len(members), size=(replicates, len(members)))]
        np.add.at(weights, (np.repeat(np.arange(replicates), len(members)), draws.reshape(-1)), 1)
    return weights


@pytest.mark.parametrize("at_once", [1, 7, 64, 1 << 22])
def test_batched_draws_are_the_draws_of_one_matrix(monkeypatch, at_once):
    monkeypatch.setattr(ratings, "_DRAWS_AT_ONCE", at_once)
    strata = np.array([0, 0, 2, 1, 1, 1, 2, 0, 0, 0, 3], dtype=np.int64)  # a stratum need not be contiguous
    weights = _old_resample_deals(strata, 37, seed=5)
    np.testing.assert_array_equal(ratings.resample_deals(strata, 37, seed=5), weights)
    deal_wins = np.random.default_rng(1).integers(0, 4, (len(strata), 3, 3)).astype(np.float64)
    full = (weights.astype(np.float64) @ deal_wins.reshape(len(strata), 9)).reshape(37, 3, 3)
    np.testing.assert_array_equal(ratings._resampled_wins(deal_wins, strata, 37, seed=5), full)


def test_the_bootstrap_in_small_batches_gives_the_same_ratings(monkeypatch):
    frame = _synthetic_results({"a": 0.0, "b": 0.5, "c": 0.2}, [("a", "b"), ("b", "c")], deals=40)
    capped = frame.filter((pl.col("run_id") == "r0") | (pl.col("deal") < 15))
    (whole,) = ratings.bradley_terry_ratings(capped, ["a", "b", "c"], replicates=50, seed=2)
    monkeypatch.setattr(ratings, "_DRAWS_AT_ONCE", 3)
    (batched,) = ratings.bradley_terry_ratings(capped, ["a", "b", "c"], replicates=50, seed=2)
    np.testing.assert_array_equal(batched.samples, whole.samples)


@pytest.mark.parametrize("split", [pl.col("game_index") // 7,  # consecutive games: parts share a border deal
                                   pl.col("game_index") % 2,  # one seating each: every deal in two parts
                                   pl.lit(0)])
def test_pair_counts_of_parts_are_the_comparisons_of_all_rows(split):
    frame = _synthetic_results({"a": 0.0, "b": 0.5, "c": 0.2}, [("a", "b"), ("b", "c"), ("a", "c")], deals=30)
    parts = [part.lazy() for _, part in frame.group_by("run_id", split.alias("part"), maintain_order=True)]
    counted = ratings.pair_counts(parts)
    pairs = ratings.comparisons(frame)
    expected = (pairs.group_by("n_players", "run_id", "deal", "a", "b")
                .agg(pl.len().alias("games"), pl.col("ahead").sum(), pl.col("level").sum()))
    got = counted.deals.with_columns(pl.col("run_id", "a", "b").cast(pl.String))
    assert_frame_equal(got, expected, check_row_order=False, check_dtypes=False)
    wins, strata = ratings.deal_win_counts(pairs, ["a", "b", "c"])
    wins_parts, strata_parts = ratings.deal_win_counts(counted.deals, ["a", "b", "c"])
    np.testing.assert_array_equal(wins_parts, wins)
    np.testing.assert_array_equal(strata_parts, strata)
    assert ratings.pairwise(parts, ["a", "b", "c"]).equals(ratings.pairwise(frame, ["a", "b", "c"]))


@pytest.mark.parametrize("as_bits", [127, 0])  # a deal's runs as the bits of a number, or as a string
def test_strata_are_numbered_in_the_order_of_the_joined_run_ids(monkeypatch, as_bits):
    monkeypatch.setattr(ratings, "_RUNS_AS_BITS", as_bits)
    pairs = pl.DataFrame({"deal": [0, 0, 1, 2, 2, 3], "run_id": ["b", "a|", "b", "a", "b", "a"],
                          "a": ["x"] * 6, "b": ["y"] * 6, "ahead": [True] * 6})
    _, strata = ratings.deal_win_counts(pairs, ["x", "y"])
    keys = ["a||b", "b", "a|b", "a"]  # the ids of each deal's runs, sorted and joined as before
    np.testing.assert_array_equal(strata, np.unique(keys, return_inverse=True)[1])


@pytest.fixture(scope="module")
def small_tournament(tmp_path_factory):
    root = tmp_path_factory.mktemp("lazy_tournament")
    spec = load_tournament(write_tournament(root))
    return run_tournament(spec, out=root / "runs")


def test_scans_and_parts_hold_the_rows_of_every_pairing(small_tournament, monkeypatch):
    directory = small_tournament.directory
    rows = load_results(directory)
    assert_frame_equal(scan_results(directory).collect(), rows)
    monkeypatch.setattr("bgsim.experiments.tournament.ROWS_PER_PART", 1)  # one chunk per part
    parts = result_parts(directory)
    assert len(parts) == sum(len(list(r.run_dir.glob("chunk-*.parquet"))) for r in small_tournament.runs)
    assert_frame_equal(pl.concat(parts).collect(), rows)


def test_the_summary_equals_the_statistics_of_all_rows(small_tournament, monkeypatch):
    monkeypatch.setattr("bgsim.experiments.tournament.ROWS_PER_PART", 1)
    summary = summarise(small_tournament, replicates=30)
    rows = load_results(small_tournament.directory)
    order = summary.strategies
    assert summary.standings.equals(ratings.standings(rows, order))
    assert summary.pairwise.equals(ratings.pairwise(rows, order, alpha=0.05))
    expected = ratings.bradley_terry_ratings(rows, order, replicates=30, seed=summary.settings["bootstrap_seed"])
    for got, want in zip(summary.ratings.groupby("n_players"), expected, strict=True):
        np.testing.assert_array_equal(got[1]["rating"].to_numpy(), want.elo)
        np.testing.assert_array_equal(got[1]["low"].to_numpy(), want.table()["low"].to_numpy())
