"""Damaged results never go unnoticed: every chunk's size and SHA-256 are written into meta.json
with the chunk; ``--resume`` plays a damaged chunk again, ``load`` and ``bgsim report`` name every
damaged chunk in one line, a run from before the hashes still loads and gets them on resume."""

import hashlib
import json
import re
import shlex
import tempfile
import textwrap
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from bgsim.experiments import runner
from bgsim.experiments.difficulty import difficulty_from_dict, load_rows, run_difficulty
from bgsim.experiments.runner import run
from bgsim.experiments.seat_order import load_seat_order, run_seat_order
from bgsim.experiments.seat_order_results import load_study_rows
from bgsim.experiments.tournament import load_results, load_tournament, run_tournament
from bgsim.sim.results.spec import load_spec
from bgsim.sim.results.store import RunStoreError
from polars.testing import assert_frame_equal

import bgsim
from tests.runner.conftest import cli, results, write_spec
from tests.runner.test_tournament import write_tournament


def damage(path: Path) -> None:
    """Overwrite 16 bytes in the middle of the chunk's largest column with other bytes: the size,
    the Parquet footer and the row count stay as they were, only the data differs."""
    row_group = pq.ParquetFile(path).metadata.row_group(0)
    column = max((row_group.column(i) for i in range(row_group.num_columns)), key=lambda c: c.total_compressed_size)
    start = (column.dictionary_page_offset or column.data_page_offset) + column.total_compressed_size // 2
    data = bytearray(path.read_bytes())
    data[start:start + 16] = bytes(b ^ 0xFF for b in data[start:start + 16])
    path.write_bytes(bytes(data))


def meta_of(run_dir: Path) -> dict:
    return json.loads((run_dir / "meta.json").read_text())


def hash_matches(run_dir: Path, index: int) -> bool:
    """Whether chunk ``index`` has the size and SHA-256 that meta.json holds for it."""
    written = meta_of(run_dir)["chunks"][str(index)]
    data = (run_dir / f"chunk-{index:06d}.parquet").read_bytes()
    return (len(data), hashlib.sha256(data).hexdigest()) == (written.get("size"), written.get("sha256"))


def chunk_times(run_dir: Path) -> dict[str, int]:
    return {p.name: p.stat().st_mtime_ns for p in run_dir.glob("chunk-*.parquet")}


@pytest.fixture
def played(tmp_path):
    """A run of 4 chunks (5 games of 2 players each) and the same run played separately (the reference)."""
    spec_path = write_spec(tmp_path, players=[2], games=20, chunk_size=5)
    spec = load_spec(spec_path)
    reference = run(spec, out=tmp_path / "reference")
    return spec, run(spec, out=tmp_path / "runs").run_dir, reference.run_dir


# --- the hashes


def test_every_chunk_has_its_hash_in_meta_json_as_soon_as_it_is_on_disk(tmp_path):
    spec = load_spec(write_spec(tmp_path, players=[2], games=20, chunk_size=5))
    run_dir = tmp_path / spec.run_id
    seen = []

    def look(done, total):  # called after each chunk: meta.json on disk must already hold its hash
        on_disk = sorted(int(p.stem.split("-")[1]) for p in run_dir.glob("chunk-*.parquet"))
        seen.append([hash_matches(run_dir, index) for index in on_disk])

    run(spec, out=tmp_path, on_progress=look)
    assert seen == [[], [True], [True] * 2, [True] * 3, [True] * 4]


# --- a chunk damaged in the middle of the file


def test_resume_plays_exactly_the_damaged_chunk_again(played, capsys):
    spec, run_dir, reference = played
    chunk = run_dir / "chunk-000002.parquet"
    untouched = {name: t for name, t in chunk_times(run_dir).items() if name != chunk.name}
    damage(chunk)
    code, _, err = cli(capsys, "run", run_dir, "--resume", "--quiet")
    assert code == 0, err
    assert {name: t for name, t in chunk_times(run_dir).items() if name != chunk.name} == untouched
    assert hash_matches(run_dir, 2)
    assert_frame_equal(results(run_dir), results(reference))
    meta = meta_of(run_dir)
    assert meta["status"] == "complete"
    assert meta["sessions"][-1]["games_played"] == 5 and meta["sessions"][-1]["chunks_repaired"] == 1
    assert any("chunk-000002.parquet" in note and "damaged" in note for note in meta["notes"])

    damage(run_dir / "chunk-000000.parquet")  # the library call says what it repaired
    again = run(spec, run_dir=run_dir, resume=True)
    assert (again.games_played, again.chunks_repaired, again.chunks_skipped) == (5, 1, 3)
    assert_frame_equal(results(run_dir), results(reference))


def test_report_names_the_damaged_chunk_in_one_line(played, capsys):
    _, run_dir, _ = played
    damage(run_dir / "chunk-000001.parquet")
    code, _, err = cli(capsys, "report", run_dir)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"bgsim: error: {run_dir}: 1 damaged chunk: chunk-000001.parquet (content differs")
    assert f"`bgsim run {run_dir} --resume`" in err
    assert not (run_dir / "report").exists()


def test_load_names_the_damaged_chunk(played):
    _, run_dir, _ = played
    damage(run_dir / "chunk-000003.parquet")
    with pytest.raises(RunStoreError, match=r"1 damaged chunk: chunk-000003\.parquet \(content differs"):
        bgsim.load(run_dir)


def test_two_damaged_chunks_are_named_in_one_message(played, capsys):
    _, run_dir, _ = played
    damage(run_dir / "chunk-000001.parquet")
    chunk = run_dir / "chunk-000003.parquet"
    chunk.write_bytes(chunk.read_bytes()[:100])  # cut short
    with pytest.raises(RunStoreError) as info:
        bgsim.load(run_dir)
    message = str(info.value)
    assert "\n" not in message and "2 damaged chunks: chunk-000001.parquet (content differs" in message
    assert re.search(r"chunk-000003\.parquet \(100 bytes, [\d,]+ when written\)", message)
    code, _, err = cli(capsys, "report", run_dir)
    assert code == 2 and err.count("\n") == 1 and "chunk-000001.parquet" in err and "chunk-000003.parquet" in err


def test_a_chunk_gone_after_its_hash_was_written_is_missing_until_resumed(played):
    spec, run_dir, reference = played
    (run_dir / "chunk-000001.parquet").unlink()
    with pytest.raises(RunStoreError, match=r"chunk-000001\.parquet \(missing, though its hash was written\)"):
        bgsim.load(run_dir)
    again = run(spec, run_dir=run_dir, resume=True)
    assert (again.games_played, again.chunks_repaired) == (5, 1)
    assert_frame_equal(results(run_dir), results(reference))


# --- runs written before the hashes


def test_a_run_without_hashes_loads_and_gets_them_on_resume(played):
    spec, run_dir, reference = played
    meta = meta_of(run_dir)
    for info in meta["chunks"].values():
        del info["size"], info["sha256"]  # as written before the hashes were kept
    del meta["chunks"]["3"]  # as if killed between chunk 3's rename and the meta.json after it
    (run_dir / "meta.json").write_text(json.dumps(meta))
    assert_frame_equal(results(run_dir), results(reference))
    again = run(spec, run_dir=run_dir, resume=True)
    assert (again.games_played, again.chunks_repaired, again.chunks_skipped) == (0, 0, 4)
    assert all(hash_matches(run_dir, index) for index in range(4))
    assert meta_of(run_dir)["chunks"]["3"]["tier"] == "compiled"  # its timings, from the chunk's own record
    assert any("hashes recorded for 4 chunk(s)" in note for note in meta_of(run_dir)["notes"])


def test_a_damaged_chunk_without_a_hash_is_found_by_reading_it_in_full(played):
    spec, run_dir, reference = played
    meta = meta_of(run_dir)
    del meta["chunks"]["2"]
    (run_dir / "meta.json").write_text(json.dumps(meta))
    chunk = run_dir / "chunk-000002.parquet"
    chunk.write_bytes(b"PAR1" + chunk.read_bytes()[4:][::-1])  # same size, still a Parquet-looking file
    with pytest.raises(RunStoreError, match=r"1 damaged chunk: chunk-000002\.parquet \(unreadable: "):
        bgsim.load(run_dir)
    again = run(spec, run_dir=run_dir, resume=True)
    assert (again.games_played, again.chunks_repaired) == (5, 1)
    assert_frame_equal(results(run_dir), results(reference))


# --- a run directory that cannot be written


@pytest.fixture
def read_only(monkeypatch):
    """Make a directory read-only. Root writes through permission bits, so when chmod does not stop
    a write, creating a file in that directory is made to fail the way a read-only mount fails."""
    made = []

    def make(directory: Path) -> None:
        directory.chmod(0o555)
        made.append(directory)
        try:
            (directory / ".probe").touch()
        except PermissionError:
            return  # a real read-only directory
        (directory / ".probe").unlink()
        real_mkstemp = tempfile.mkstemp

        def mkstemp(*args, dir=None, **kwargs):  # noqa: A002  (tempfile's own name)
            if dir is not None and Path(dir).resolve() == directory.resolve():
                raise PermissionError(13, "Permission denied", str(directory))
            return real_mkstemp(*args, dir=dir, **kwargs)

        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)

    yield make
    for directory in made:
        directory.chmod(0o755)


def test_resume_in_a_read_only_directory_fails_before_any_game(played, read_only, monkeypatch, capsys):
    spec, run_dir, _ = played
    (run_dir / "chunk-000001.parquet").unlink()
    before = {p.name: p.read_bytes() for p in run_dir.iterdir()}
    read_only(run_dir)
    monkeypatch.setattr(runner, "play_chunk", lambda *args: pytest.fail("a game was played"))
    with pytest.raises(RunStoreError, match=f"cannot write to {re.escape(str(run_dir))}: Permission denied"):
        run(spec, run_dir=run_dir, resume=True)
    code, _, err = cli(capsys, "run", run_dir, "--resume", "--quiet")
    assert code == 2 and err.count("\n") == 1 and str(run_dir) in err and "Traceback" not in err
    assert {p.name: p.read_bytes() for p in run_dir.iterdir()} == before


# --- studies


TINY_SEAT_ORDER = """\
    name = "tiny_integrity"
    [game]
    id = "carpe_diem"
    players = [2]
    [populations]
    greedy = ["greedy"]
    [start]
    vectors = ["rulebook", "equal"]
    [run]
    games = 40
    chunk_size = 20
    seed = 3
    [compensation]
    confirm_games = 20
    bootstrap = 10
    """


def test_a_damaged_chunk_of_a_seat_order_study_is_reported_and_repaired_by_resume(tmp_path, capsys):
    spec_path = tmp_path / "tiny.toml"
    spec_path.write_text(textwrap.dedent(TINY_SEAT_ORDER))
    study = run_seat_order(load_seat_order(spec_path), out=tmp_path / "runs").directory
    cells, confirm = load_study_rows(study).collect(), load_study_rows(study, "confirm").collect()
    cell_dir = next((study / "cells").iterdir())
    untouched = chunk_times(cell_dir)
    damage(cell_dir / "chunk-000001.parquet")
    confirm_chunk = next((study / "confirm").glob("*/chunk-000000.parquet"))
    damage(confirm_chunk)

    code, _, err = cli(capsys, "report", study)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert f"2 damaged chunks: cells/{cell_dir.name}/chunk-000001.parquet (content differs" in err
    assert f"confirm/{confirm_chunk.parent.name}/chunk-000000.parquet" in err
    command = re.search(r"run `([^`]+)` to play them again", err).group(1)
    assert command == f"bgsim seat-order {study}/seat_order.toml --out {study.parent} --resume"

    code, _, err = cli(capsys, *shlex.split(command)[1:], "--quiet", "--no-report")  # the command it names
    assert code == 0, err
    assert {n: t for n, t in chunk_times(cell_dir).items() if n != "chunk-000001.parquet"} == {
        n: t for n, t in untouched.items() if n != "chunk-000001.parquet"}
    assert hash_matches(cell_dir, 1) and hash_matches(confirm_chunk.parent, 0)
    assert_frame_equal(load_study_rows(study).collect(), cells)
    assert_frame_equal(load_study_rows(study, "confirm").collect(), confirm)


def test_a_damaged_tournament_pairing_is_named_and_repaired_by_resume(tmp_path, capsys):
    spec = load_tournament(write_tournament(tmp_path))
    report = run_tournament(spec, out=tmp_path / "runs")
    expected = load_results(report.directory)
    first = report.runs[0].run_dir
    damage(first / "chunk-000000.parquet")
    with pytest.raises(RunStoreError, match=rf"pairings/{first.name}/chunk-000000\.parquet \(content differs.*"
                                            rf"`bgsim tournament {re.escape(str(report.directory))}/tournament\.toml"):
        load_results(report.directory)
    resumed = run_tournament(spec, out=tmp_path / "runs", resume=True)
    assert [r.chunks_repaired for r in resumed.runs] == [1] + [0] * (len(resumed.runs) - 1)
    assert_frame_equal(load_results(report.directory), expected)


def test_a_damaged_difficulty_run_is_named_and_repaired_by_resume(tmp_path):
    doc = {"name": "tiny_integrity", "game": {"id": "carpe_diem"}, "ladder": {"weak": "greedy"},
           "run": {"games": 20, "chunk_size": 10, "seed": 2},
           "calibration": {"low": -60, "high": 60, "step": 30, "games": 10, "verify_games": 10,
                           "levels": {"normal": 0.5}}}
    spec = difficulty_from_dict(doc)
    directory = run_difficulty(spec, out=tmp_path).directory
    base = load_rows(directory, "base").collect()  # now: the lazy rows would read the repaired chunks
    base_dir = next((directory / "base").iterdir())
    damage(base_dir / "chunk-000001.parquet")
    with pytest.raises(RunStoreError, match=rf"base/{base_dir.name}/chunk-000001\.parquet \(content differs.*"
                                            r"`bgsim difficulty .*difficulty\.toml .*--resume`"):
        load_rows(directory, "calibrate")  # any part of the study: every run is checked
    again = run_difficulty(spec, out=tmp_path, resume=True)
    assert again.games_played == 10
    assert_frame_equal(load_rows(directory, "base").collect(), base)


def test_a_chunk_of_another_size_is_found_without_hashing_it(played, monkeypatch):
    _, run_dir, _ = played
    chunk = run_dir / "chunk-000002.parquet"
    chunk.write_bytes(chunk.read_bytes()[:-1])
    hashed, real = [], hashlib.file_digest

    def counting(handle, digest):
        hashed.append(Path(handle.name).name)
        return real(handle, digest)

    monkeypatch.setattr(hashlib, "file_digest", counting)
    with pytest.raises(RunStoreError, match=r"chunk-000002\.parquet \([\d,]+ bytes, [\d,]+ when written\)"):
        bgsim.load(run_dir)
    assert sorted(hashed) == ["chunk-000000.parquet", "chunk-000001.parquet", "chunk-000003.parquet"]
