"""A run interrupted at any moment and resumed holds exactly the games of an uninterrupted run."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from bgsim.experiments.runner import run
from bgsim.sim.results.spec import load_spec
from polars.testing import assert_frame_equal

from tests.runner.conftest import cli, results, write_spec

ROOT = Path(__file__).resolve().parents[2]


def _start(spec_path: Path, out: Path) -> subprocess.Popen:
    """``bgsim run`` with two workers in its own process group (so a kill reaches the workers too)."""
    return subprocess.Popen(
        [sys.executable, "-m", "bgsim", "run", str(spec_path), "--jobs", "2", "--quiet",
         "--out", str(out)],
        cwd=ROOT, start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )


def _wait_for_chunks(run_dir: Path, at_least: int, proc: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(list(run_dir.glob("chunk-*.parquet"))) >= at_least:
            return
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it could be interrupted: {proc.stderr.read().decode()}")
        time.sleep(0.01)
    pytest.fail("no chunk appeared in time")


@pytest.mark.own_workers
@pytest.mark.parametrize("how", ["SIGKILL", "SIGINT"])
def test_killed_run_resumes_to_exactly_the_uninterrupted_games(tmp_path, how):
    spec_path = write_spec(tmp_path, name="long", players=[2], games=4000, chunk_size=40)
    spec = load_spec(spec_path)
    run_dir = tmp_path / "runs" / spec.run_id
    proc = _start(spec_path, tmp_path / "runs")
    _wait_for_chunks(run_dir, 3, proc)
    if how == "SIGKILL":
        os.killpg(proc.pid, signal.SIGKILL)
    else:
        os.kill(proc.pid, signal.SIGINT)
    code = proc.wait(timeout=60)
    stopped_with = len(list(run_dir.glob("chunk-*.parquet")))
    assert stopped_with < len(spec.chunks()), "the run finished before the signal; make it longer"
    for path in run_dir.glob("chunk-*.parquet"):
        assert pq.read_metadata(path).num_rows == 40 * 2  # every named chunk is whole
    if how == "SIGINT":
        assert code == 130
        assert "--resume" in proc.stderr.read().decode()
        assert json.loads((run_dir / "meta.json").read_text())["status"] == "interrupted"

    resumed = run(spec, out=tmp_path / "runs", jobs=2, resume=True)
    assert resumed.chunks_skipped >= stopped_with
    assert not list(run_dir.glob(".tmp-*"))
    uninterrupted = run(spec, out=tmp_path / "reference", jobs=2)
    assert_frame_equal(results(resumed.run_dir), results(uninterrupted.run_dir))
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["status"] == "complete" and len(meta["sessions"]) == 2


def test_resume_of_a_finished_run_plays_nothing(tmp_path):
    spec = load_spec(write_spec(tmp_path, players=[2], games=4, chunk_size=2))
    first = run(spec, out=tmp_path)
    again = run(spec, out=tmp_path, resume=True)
    assert (again.games_played, again.chunks_skipped) == (0, 2)
    assert_frame_equal(results(again.run_dir), results(first.run_dir))


def test_a_run_directory_is_not_overwritten_without_resume(tmp_path, capsys):
    spec_path = write_spec(tmp_path, players=[2], games=2, chunk_size=2)
    assert cli(capsys, "run", spec_path, "--out", tmp_path, "--quiet")[0] == 0
    code, _, err = cli(capsys, "run", spec_path, "--out", tmp_path, "--quiet")
    assert code == 2 and "--resume" in err and err.count("\n") == 1


def test_a_truncated_chunk_is_played_again_on_resume(tmp_path, capsys):
    spec_path = write_spec(tmp_path, players=[2], games=6, chunk_size=2)
    spec = load_spec(spec_path)
    run(spec, out=tmp_path)
    expected = results(tmp_path / spec.run_id)
    chunk = tmp_path / spec.run_id / "chunk-000001.parquet"
    chunk.write_bytes(chunk.read_bytes()[: chunk.stat().st_size // 2])
    code, out, err = cli(capsys, "run", spec_path, "--out", tmp_path, "--resume", "--quiet")
    assert code == 0, err
    assert "1 damaged chunk played again" in " ".join(out.split())
    assert results(tmp_path / spec.run_id).equals(expected)


def test_resume_continues_from_a_run_directory(tmp_path, capsys):
    spec = load_spec(write_spec(tmp_path, players=[2], games=4, chunk_size=2))
    report = run(spec, out=tmp_path)
    (report.run_dir / "chunk-000001.parquet").unlink()
    code, out, err = cli(capsys, "run", report.run_dir, "--resume", "--quiet")
    assert code == 0, err
    assert (report.run_dir / "chunk-000001.parquet").exists()


def test_chunk_timings_missing_from_meta_are_recovered_from_the_chunks(tmp_path):
    spec = load_spec(write_spec(tmp_path, players=[2], games=4, chunk_size=2))
    report = run(spec, out=tmp_path)
    meta_path = report.run_dir / "meta.json"
    meta = json.loads(meta_path.read_text())
    del meta["chunks"]["1"]  # as if killed between writing chunk 1 and the next meta.json
    meta_path.write_text(json.dumps(meta))
    run(spec, out=tmp_path, resume=True)
    recovered = json.loads(meta_path.read_text())["chunks"]["1"]
    assert recovered["tier"] == "compiled" and recovered["seconds"] > 0
