"""Same spec and seed, same results: whatever the workers, chunk size, backend or strategy tier."""

import polars as pl
import pytest
from bgsim.experiments.runner import run
from bgsim.sim.results.spec import load_spec
from polars.testing import assert_frame_equal

from tests.runner.conftest import results, write_spec


def _table(run_dir):
    return results(run_dir).drop("run_id")  # the run id names the chunk plan, which differs by design


@pytest.mark.own_workers
def test_results_are_identical_for_jobs_chunk_sizes_and_a_dask_cluster(tmp_path):
    from distributed import LocalCluster

    spec = load_spec(write_spec(tmp_path, chunk_size=5))
    reference = _table(run(spec, out=tmp_path / "jobs1", jobs=1).run_dir)
    assert reference.height == 12 * 2 + 12 * 3  # games x seats for 2 and 3 players
    assert_frame_equal(_table(run(spec, out=tmp_path / "jobs2", jobs=2).run_dir), reference)
    other_chunks = load_spec(write_spec(tmp_path, name="small", chunk_size=7))
    assert other_chunks.run_id != spec.run_id
    assert_frame_equal(_table(run(other_chunks, out=tmp_path / "chunk7", jobs=2).run_dir), reference)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster:
        dask_dir = run(spec, out=tmp_path / "dask", scheduler=cluster.scheduler_address).run_dir
    assert_frame_equal(_table(dask_dir), reference)


def test_every_tier_plays_the_same_games(tmp_path):
    tables = {}
    for tier in ("compiled", "vectorised", "per_game"):
        spec = load_spec(write_spec(tmp_path, name=f"t_{tier}", others="greedy", tier=tier, games=6,
                                    players=[3]))
        tables[tier] = _table(run(spec, out=tmp_path).run_dir)
    assert_frame_equal(tables["vectorised"], tables["compiled"])
    assert_frame_equal(tables["per_game"], tables["compiled"])


def test_a_deal_is_played_in_every_seating_with_the_same_chance_seed(tmp_path):
    spec = load_spec(write_spec(tmp_path, games=6, players=[3]))
    frame = _table(run(spec, out=tmp_path).run_dir)
    per_deal = frame.group_by("deal").agg(pl.col("seed").n_unique().alias("seeds"),
                                          pl.col("seating").n_unique().alias("seatings"))
    assert per_deal["seeds"].to_list() == [1, 1] and per_deal["seatings"].to_list() == [3, 3]
    focus_seats = frame.filter(pl.col("strategy") == "carpe_diem/greedy").sort("game_index")["seat"].to_list()
    assert focus_seats == [0, 1, 2, 0, 1, 2]  # CRN: the focus strategy visits every seat of each deal


def test_another_seed_gives_other_deals(tmp_path):
    a = _table(run(load_spec(write_spec(tmp_path, name="s1", seed=1, games=4, players=[2])), out=tmp_path).run_dir)
    b = _table(run(load_spec(write_spec(tmp_path, name="s2", seed=2, games=4, players=[2])), out=tmp_path).run_dir)
    assert set(a["seed"].to_list()).isdisjoint(b["seed"].to_list())
    assert a["final_vp"].to_list() != b["final_vp"].to_list()


def test_weight_scores_are_exact_integers_in_both_number_paths():
    import numpy as np
    from bgsim.strategies.base import WeightStrategy

    features = np.array([[1, 2], [3, -1], [2, 1]], dtype=np.int32)
    small = WeightStrategy("small", np.array([5, -2], dtype=np.int64))
    big = WeightStrategy("big", np.array([1 << 40, 1], dtype=np.int64))  # beyond exact float products
    assert small.score(features).tolist() == [1, 17, 8]
    assert big.score(features).dtype == np.int64
    assert big.score(features).tolist() == [(1 << 40) + 2, 3 * (1 << 40) - 1, (2 << 40) + 1]
