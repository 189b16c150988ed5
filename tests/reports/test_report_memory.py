"""Reports in bounded memory: ``bgsim report`` on a run ten times larger needs no more memory.

Each run is a small played run copied many times over (``replicate_run``: real schema, real rows,
new game indices), and each report runs in a fresh process whose peak resident memory the kernel
measures. Before the reports aggregated lazily, the peak grew by about 6 KB per game: 1 GB between
the two sizes here.
"""

from pathlib import Path

import polars as pl
import pytest
from bgsim.experiments.report_cost import replicate_run, report_cost
from bgsim.experiments.runner import run
from bgsim.sim.results.spec import RunSpec
from bgsim.sim.results.store import load

SMALL, LARGE = 10, 100  # copies of the played run: 20,000 and 200,000 games
GROWTH_MB = 40  # what the larger run may add to the peak: buffers of the streaming engine, not rows


def _played(tmp_path: Path, strategies: tuple[str, ...]) -> Path:
    spec = RunSpec(name="memory-" + "-".join(strategies), game="carpe_diem", players=(4,), strategies=strategies,
                   games=2000, chunk_size=1000, seed=18, tier="compiled")
    return run(spec, out=tmp_path / "played", jobs=1).run_dir


@pytest.mark.parametrize("strategies", [("greedy",), ("greedy", "random", "greedy", "random")],
                         ids=["self-play", "mixed"])
def test_report_peak_memory_does_not_grow_with_games(tmp_path, strategies):
    source = _played(tmp_path, strategies)
    small = replicate_run(source, tmp_path / "small", SMALL)
    large = replicate_run(source, tmp_path / "large", LARGE)
    assert load(large).select(pl.col("game_index").n_unique()).collect().item() == 2000 * LARGE
    small_cost = report_cost(small, tmp_path / "small-report")
    large_cost = report_cost(large, tmp_path / "large-report")
    growth = large_cost.peak_mb - small_cost.peak_mb
    assert growth < GROWTH_MB, (f"peak memory of `bgsim report` grew by {growth:.0f} MB from {2000 * SMALL:,} to "
                                f"{2000 * LARGE:,} games ({small_cost} -> {large_cost})")
    assert (tmp_path / "large-report" / "index.html").is_file()


def test_a_replicated_run_reports_the_rows_it_copies(tmp_path):
    """The copies are the played games again: every win rate of the copy equals the original's."""
    source = _played(tmp_path, ("greedy",))
    copy = replicate_run(source, tmp_path / "copy", 3)
    rates = [load(d).group_by("seat").agg(pl.col("won").mean(), pl.len()).sort("seat").collect()
             for d in (source, copy)]
    assert rates[1]["won"].to_list() == rates[0]["won"].to_list()
    assert rates[1]["len"].to_list() == [3 * n for n in rates[0]["len"]]
    assert load(copy).select(pl.col("chunk").n_unique()).collect().item() == 6
