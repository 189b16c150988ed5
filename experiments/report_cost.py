"""What a report costs: peak memory and wall time of ``bgsim report`` in a fresh process, and large
runs made from small ones for measuring it.

``replicate_run`` copies a finished run ``times`` over into a new run directory: every chunk again
with its game indices (and deals) moved past the ones before, hashed into ``meta.json`` as the
runner would. The copy has the real schema and real rows, so a report on it does exactly the work
of a report on a run that many times larger, without playing the games.
"""

import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import polars as pl
import tomli_w
from bgsim.sim.results.spec import load_spec
from bgsim.sim.results.store import chunk_path, write_chunk, write_json

__all__ = ["ReportCost", "replicate_run", "report_cost", "report_cost_rows"]


def replicate_run(source: Path, target: Path, times: int) -> Path:
    """A copy of the finished one-block run ``source`` in ``target`` with ``times`` as many games.

    Copy k of chunk i becomes chunk k * chunks + i, its ``game_index`` and ``deal`` moved by k times
    the source's games and deals. The source's games must fill whole chunks (so the copies follow
    the chunk plan of the larger spec)."""
    source, target = Path(source), Path(target)
    spec = load_spec(source / "spec.toml")
    meta = json.loads((source / "meta.json").read_text())
    (block,) = meta["blocks"]
    games = block["games"]
    if games % spec.chunk_size or times < 1:
        raise ValueError(f"{source}: {games} games do not fill chunks of {spec.chunk_size}, or times < 1")
    chunks = games // spec.chunk_size
    seatings = len(block["seatings"])
    target.mkdir(parents=True, exist_ok=False)
    digests = {}
    for k in range(times):
        for i in range(chunks):
            frame = pl.read_parquet(chunk_path(source, i))
            frame = frame.with_columns(pl.col("game_index") + k * games, pl.col("deal") + k * (games // seatings),
                                       pl.lit(k * chunks + i, dtype=pl.Int32).alias("chunk"))
            digests[str(k * chunks + i)] = write_chunk(target, k * chunks + i, frame.to_arrow())
    doc = tomllib.loads((source / "spec.toml").read_text(encoding="utf-8"))
    doc["run"]["games"] = games * times
    (target / "spec.toml").write_bytes(tomli_w.dumps(doc).encode())
    meta.update(games_total=games * times, chunks_total=chunks * times, chunks=digests,
                blocks=[{**block, "games": games * times}])
    write_json(target / "meta.json", meta)
    for extra in ("data",):
        if (source / extra).is_dir():
            shutil.copytree(source / extra, target / extra)
    return target


class ReportCost:
    """Wall seconds and peak resident memory (MB) of one ``bgsim report`` process."""

    def __init__(self, seconds: float, peak_mb: float):
        self.seconds, self.peak_mb = seconds, peak_mb

    def __repr__(self) -> str:
        return f"ReportCost(seconds={self.seconds:.1f}, peak_mb={self.peak_mb:.0f})"


def report_cost(directory: Path, out_dir: Path) -> ReportCost:
    """Run ``bgsim report directory --out out_dir`` in a fresh process; its wall time and peak RSS
    (the kernel's maximum resident set size of that process, imports included)."""
    command = [sys.executable, "-m", "bgsim", "report", str(directory), "--out", str(out_dir)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace").strip()
    process.stderr.close()
    if process.returncode:
        raise RuntimeError(f"bgsim report {directory} failed ({process.returncode}): {error}")
    return ReportCost(seconds, usage.ru_maxrss / 1024)  # ru_maxrss is in KB on Linux


def report_cost_rows(source_spec, out: Path, sizes: tuple[int, ...], jobs: int = 2,
                     run_dir: Path | None = None) -> list[tuple[int, ReportCost, str]]:
    """(games, cost, how the run was made) of ``bgsim report`` on runs of every size in ``sizes``:
    ``run_dir`` (a finished run) where it has that many games, else copies of the one-player-count
    run ``source_spec`` (a ``RunSpec``), played first (``replicate_run``)."""
    from bgsim.experiments.runner import run

    source_games = source_spec.games
    source = run(source_spec, out=out, jobs=jobs).run_dir
    played = None if run_dir is None else json.loads((Path(run_dir) / "meta.json").read_text())["games_total"]
    rows = []
    for games in sizes:
        if games == played:
            target, how = Path(run_dir), "played"
        elif games % source_games == 0:
            target = replicate_run(source, out / f"report-{games}", games // source_games)
            how = f"{games // source_games} copies of {source_games:,} played"
        else:
            raise ValueError(f"{games:,} is no multiple of {source_games:,}")
        rows.append((games, report_cost(target, out / f"report-{games}-out"), how))
        if how != "played":
            shutil.rmtree(target)
    return rows
