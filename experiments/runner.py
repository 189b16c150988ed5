"""Run an experiment spec: chunks of games on local processes or a Dask cluster, stored as Parquet.

``run(spec)`` plays every chunk not yet on disk and returns the run directory; ``--resume``
after an interruption (Ctrl-C, SIGKILL, a lost machine) plays only the missing chunks, so the
finished run holds exactly the games of an uninterrupted one. ``--resume`` also checks every
chunk on disk against the hash written with it (store.py) and plays a damaged one again. Games
are seeded per deal (``sim.seeding``), never per chunk or worker, so results do not depend on
the number of workers, the chunk size or the backend.
"""

import json
import os
import platform
import shutil
import socket
import subprocess
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from importlib import metadata
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from bgsim.experiments.spec_check import check_spec, load_spec
from bgsim.sim.batch import choose_tier, play_batch
from bgsim.sim.errors import BgsimError
from bgsim.sim.registry import make_game
from bgsim.sim.results.spec import Block, Chunk, RunSpec, SpecError
from bgsim.sim.results.store import (
    ChunkCheck,
    RunStoreError,
    begin_session,
    chunk_path,
    end_session,
    now,
    probe_write,
    read_meta,
    remove_partial_files,
    verify_chunks,
    write_chunk,
    write_json,
    write_toml,
)
from bgsim.sim.seeding import block_key, deal_seeds
from bgsim.strategies import make_strategy
from threadpoolctl import threadpool_limits

__all__ = ["RunReport", "build_block", "check_jobs", "locate_game", "open_spec", "play_chunk", "play_study_run", "run"]

ProgressCallback = Callable[[int, int], None]  # (games done, games in the run)
SEED_SCHEME = ("deal i of player count n: SplitMix64 outputs 2i+1 (chance) and 2i+2 (strategy) from "
               "child n of SeedSequence(seed); seat s streams: output s+1 from the strategy seed")


@dataclass(frozen=True)
class RunReport:
    run_dir: Path
    games_total: int
    games_played: int  # in this call; the rest were on disk already
    chunks_skipped: int  # found intact on disk
    seconds: float
    tier: dict  # player count -> tier used
    chunks_repaired: int = 0  # found damaged (or gone, though hashed) and played again


# --- building games and strategies (parent and workers)


def build_block(spec: RunSpec, block: Block, data_dir: Path | None = None):
    """(game, strategies, seating_index) of one player count; seating_index (S, P) int64 maps
    each seating's seats to ``strategies``. ``data_dir`` holds the data overrides by name."""
    files = {f"{name}_file": str((data_dir / f"{name}.toml") if data_dir else path)
             for name, path in spec.data.items()}
    game = make_game(spec.game, **spec.params, **files, n_players=block.n_players)
    ids = spec.strategy_ids()
    strategies = [make_strategy(sid, game) for sid in ids]
    seating_index = np.array([[ids.index(sid) for sid in seating] for seating in block.seatings], dtype=np.int64)
    return game, strategies, seating_index


_STATES_AT_ONCE = 1024  # games whose final states are held at once (a state is some kB)
_WORKER_CACHE: dict = {}  # (run id, block) -> build_block result, per process


def _worker_block(spec: RunSpec, data_texts: dict[str, str], b: int):
    key = (spec.run_id, b)
    if key not in _WORKER_CACHE:
        data_dir = None
        if data_texts:  # workers may run on other machines: rebuild the overrides locally
            data_dir = Path(tempfile.mkdtemp(prefix=f"bgsim-{spec.run_id}-"))
            for name, text in data_texts.items():
                (data_dir / f"{name}.toml").write_text(text, encoding="utf-8")
        try:
            _WORKER_CACHE[key] = build_block(spec, spec.blocks()[b], data_dir)
        finally:  # the game has read its data (and hashed it) while it was built: the copies are litter now
            if data_dir is not None:
                shutil.rmtree(data_dir, ignore_errors=True)
    return _WORKER_CACHE[key]


# --- one chunk


@dataclass(frozen=True)
class ChunkResult:
    index: int
    table: pa.Table
    seconds: float
    host: str
    pid: int
    tier: str


def play_chunk(spec: RunSpec, data_texts: dict[str, str], chunk: Chunk) -> ChunkResult:
    """Play one chunk (in a worker) and return its rows as an Arrow table."""
    with threadpool_limits(1):  # one core per worker: BLAS threads in a vectorised score would fight
        return _play_chunk(spec, data_texts, chunk)


def _play_chunk(spec: RunSpec, data_texts: dict[str, str], chunk: Chunk) -> ChunkResult:
    start = time.perf_counter()
    block = spec.blocks()[chunk.block]
    game, strategies, seating_index = _worker_block(spec, data_texts, chunk.block)
    tier = choose_tier(game, strategies, spec.tier)
    key = block_key(spec.seed, block.n_players)
    tables = []
    buffer = _WORKER_CACHE.setdefault(("states", game.state_size),
                                      np.empty((_STATES_AT_ONCE, game.state_size), dtype=np.int32))
    for first in range(chunk.start, chunk.stop, _STATES_AT_ONCE):  # bounded memory for final states
        local = np.arange(first, min(first + _STATES_AT_ONCE, chunk.stop), dtype=np.int64)
        deal, seating = np.divmod(local, len(block.seatings))
        chance, strategy_seeds = deal_seeds(key, deal)
        seat_strategy = seating_index[seating]  # (G, P)
        states = play_batch(game, strategies, seat_strategy, chance, strategy_seeds, tier, out=buffer)
        tables.append(_chunk_table(spec, game, block, chunk, local, deal, seating, chance, strategy_seeds,
                                   seat_strategy, strategies, game.records(states)))
    table = pa.concat_tables(tables).combine_chunks()
    return ChunkResult(chunk.index, table, time.perf_counter() - start, socket.gethostname(), os.getpid(), tier)


def _chunk_table(spec, game, block, chunk, local, deal, seating, chance, strategy_seeds, seat_strategy,
                 strategies, records) -> pa.Table:
    n, p = len(local), block.n_players
    per_seat = lambda values: np.repeat(values, p)  # noqa: E731  game-major, seat-minor rows
    const = lambda value, kind: pa.array([value] * (n * p), kind)  # noqa: E731
    ids = np.array([s.id for s in strategies], dtype=object)
    columns = {
        "run_id": const(spec.run_id, pa.string()),
        "game": const(game.id, pa.string()),
        "rules_version": const(game.version, pa.string()),
        "n_players": pa.array(np.full(n * p, p), pa.int8()),
        "chunk": pa.array(np.full(n * p, chunk.index), pa.int32()),
        "game_index": pa.array(per_seat(block.offset + local), pa.int64()),
        "deal": pa.array(per_seat(deal), pa.int64()),
        "seating": pa.array(per_seat(seating), pa.int16()),
        "seed": pa.array(per_seat(chance), pa.uint64()),
        "strategy_seed": pa.array(per_seat(strategy_seeds), pa.uint64()),
        "seat": pa.array(np.tile(np.arange(p), n), pa.int8()),
        "strategy": pa.array(ids[seat_strategy.reshape(-1)].tolist(), pa.string()),
        **records,
    }
    return pa.table(columns)


# --- the run


def open_spec(path: str | Path) -> RunSpec:
    """A spec file, or the directory of an earlier run (its stored spec), checked against the engine."""
    path = Path(path)
    if path.is_dir():
        if not (path / "spec.toml").exists():
            raise SpecError(f"{path} is a directory without spec.toml (not a run directory)")
        return load_spec(path / "spec.toml")
    return load_spec(path)


def check_jobs(jobs: int) -> None:
    """``--jobs``: a positive number of local workers, or -1 for one per core."""
    if jobs == 0 or jobs < -1:
        raise BgsimError(f"--jobs must be a positive number of workers or -1 (one per core), not {jobs}")


def run(spec: RunSpec, out: str | Path = "runs", jobs: int = 1, resume: bool = False, scheduler: str | None = None,
        on_progress: ProgressCallback | None = None, run_dir: Path | None = None,
        checked: ChunkCheck | None = None) -> RunReport:
    """Play every missing chunk of ``spec`` into ``out/<run id>/`` (or ``run_dir``).

    ``jobs``: local worker processes (-1 = one per core); ``scheduler``: the address of a Dask
    scheduler instead; ``checked``: the chunks of ``run_dir`` as a study has just verified them, so
    that each is hashed once. Everything that can be wrong with the input fails before any file is
    written.
    """
    started = time.perf_counter()
    check_spec(spec)
    check_jobs(jobs)
    blocks = spec.blocks()
    built = [build_block(spec, block) for block in blocks]  # bad ids and data fail here
    tiers = {block.n_players: choose_tier(g, s, spec.tier) for block, (g, s, _) in zip(blocks, built, strict=True)}
    client = _dask_client(scheduler) if scheduler else None
    try:
        run_dir = Path(run_dir) if run_dir else Path(out) / spec.run_id
        chunks = spec.chunks()
        meta = _prepare_dir(spec, run_dir, resume, blocks, built)
        done, repaired = _keep_intact_chunks(run_dir, meta, _expected_rows(spec), checked)
        pending = [c for c in chunks if c.index not in done]
        games_done = sum(c.stop - c.start for c in chunks if c.index in done)
        data_texts = {name: (run_dir / "data" / f"{name}.toml").read_text(encoding="utf-8") for name in spec.data}
        backend = "dask" if client else "loky" if jobs != 1 else "inline"
        session = begin_session(meta, jobs=jobs, backend=backend, chunks_skipped=len(done), chunks_repaired=repaired)
        write_json(run_dir / "meta.json", meta)
        if on_progress:
            on_progress(games_done, spec.total_games)
        played = 0
        try:
            for result in _execute(spec, data_texts, pending, jobs, client):
                digest = write_chunk(run_dir, result.index, _with_chunk_meta(result))
                meta["chunks"][str(result.index)] = _chunk_info(result) | digest
                write_json(run_dir / "meta.json", meta)  # the hash on disk as soon as its chunk
                games = result.table.num_rows // blocks[chunks[result.index].block].n_players
                games_done, played = games_done + games, played + games
                if on_progress:
                    on_progress(games_done, spec.total_games)
        except BaseException:
            end_session(meta, session, "interrupted", played, time.perf_counter() - started)
            write_json(run_dir / "meta.json", meta)
            raise
    finally:
        if client is not None:
            client.close()
    seconds = time.perf_counter() - started
    end_session(meta, session, "complete", played, seconds)
    session["games_per_second"] = round(played / seconds, 1) if seconds > 0 else None
    write_json(run_dir / "meta.json", meta)
    return RunReport(run_dir, spec.total_games, played, len(done), seconds, tiers, repaired)


def play_study_run(spec: RunSpec, run_dir: Path, jobs: int, resume: bool, on_progress: ProgressCallback | None,
                   offset: int = 0, total: int = 0) -> int:
    """One run of a study into ``run_dir``, skipped when it is complete and every chunk matches its
    hash (otherwise resumed: damaged chunks are played again, missing hashes recorded); returns the
    games played now. Progress is reported as ``offset`` + the run's games done, out of ``total``."""
    def progress(done: int, _total: int) -> None:
        if on_progress:
            on_progress(offset + done, total)

    run_dir = Path(run_dir)
    check = _check_complete(spec, run_dir) if (run_dir / "meta.json").exists() else None
    if check is not None and not check.damaged and not check.unhashed and \
            check.intact.keys() == _expected_rows(spec).keys():
        progress(spec.total_games, total)
        return 0
    report = run(spec, jobs=jobs, resume=resume or run_dir.exists(), on_progress=progress, run_dir=run_dir,
                 checked=check)
    return report.games_played


def _check_complete(spec: RunSpec, run_dir: Path) -> ChunkCheck | None:
    """The chunks of a run marked complete, each checked against its hash (None for a run not complete:
    ``run`` checks its chunks as it resumes)."""
    meta = read_meta(run_dir)
    return verify_chunks(run_dir, meta, _expected_rows(spec)) if meta.get("status") == "complete" else None


def _expected_rows(spec: RunSpec) -> dict[int, int]:
    """Rows of every chunk of the plan (one per game and seat), by chunk number."""
    blocks = spec.blocks()
    return {c.index: (c.stop - c.start) * blocks[c.block].n_players for c in spec.chunks()}


def _keep_intact_chunks(run_dir: Path, meta: dict, expected_rows: dict[int, int],
                        checked: ChunkCheck | None = None) -> tuple[set[int], int]:
    """(chunks to keep, chunks found damaged) of a run directory about to be played into: damaged
    chunks are deleted (to be played again) and noted in ``meta``; chunks without a hash, once read
    in full, get their hash (and their timings, from their own record, if meta.json lacks them).
    ``checked``: the same check, made already."""
    check = checked or verify_chunks(run_dir, meta, expected_rows)
    notes = meta.setdefault("notes", [])
    if check.damaged:
        for index in check.damaged:
            chunk_path(run_dir, index).unlink(missing_ok=True)
        listed = ", ".join(f"{chunk_path(run_dir, i).name} ({why})" for i, why in sorted(check.damaged.items()))
        notes.append(f"{now()}: {len(check.damaged)} damaged chunk(s) deleted (or gone), played again: {listed}")
    for index, digest in sorted(check.unhashed.items()):
        info = meta["chunks"].get(str(index)) or _stored_chunk_info(run_dir, index)
        meta["chunks"][str(index)] = info | digest
    if check.unhashed:
        notes.append(f"{now()}: hashes recorded for {len(check.unhashed)} chunk(s) written without one, "
                     f"each read in full first")
    if not notes:
        del meta["notes"]
    return set(check.intact), len(check.damaged)


def _chunk_info(result: ChunkResult) -> dict:
    return {"seconds": round(result.seconds, 4), "host": result.host, "pid": result.pid, "tier": result.tier}


def _with_chunk_meta(result: ChunkResult) -> pa.Table:
    """The chunk's rows with its timing, host and tier in the Parquet schema metadata."""
    return result.table.replace_schema_metadata({b"bgsim.chunk": json.dumps(_chunk_info(result)).encode()})


def _stored_chunk_info(run_dir: Path, index: int) -> dict:
    """The timings a chunk carries in its own schema (a chunk finished just before a kill may be
    missing from meta.json)."""
    schema_meta = pq.read_schema(chunk_path(run_dir, index)).metadata or {}
    return json.loads(schema_meta.get(b"bgsim.chunk", b"{}"))


def _execute(spec: RunSpec, data_texts: dict, chunks: list[Chunk], jobs: int, client) -> Iterator[ChunkResult]:
    """Results of ``chunks`` as they finish: in this process, on local workers, or on a Dask cluster."""
    if not chunks:
        return
    if client is None and jobs == 1:
        for chunk in chunks:
            yield play_chunk(spec, data_texts, chunk)
        return
    from joblib import Parallel, delayed, parallel_config

    tasks = (delayed(play_chunk)(spec, data_texts, chunk) for chunk in chunks)
    if client is not None:
        with parallel_config(backend="dask"):
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(tasks)
        return
    with parallel_config(backend="loky", inner_max_num_threads=1), warnings.catch_warnings():
        # loky replaces a worker whose memory grew past its limit (one holding several compiled
        # engines, in a long study) and says so with this warning; the replacement plays the chunks
        # the old one had pending, each seeded by its index, so nothing is lost or changed.
        warnings.filterwarnings("ignore", message="A worker stopped while some jobs were given to the executor",
                                category=UserWarning)
        yield from Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks)


def _dask_client(address: str):
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - a declared dependency
        raise BgsimError("--scheduler needs dask.distributed (pip install 'dask[distributed]')") from None
    if not address.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise BgsimError(f"--scheduler {address!r} is not an address like tcp://HOST:PORT")
    try:
        return Client(address, timeout="10s")
    except OSError as exc:
        raise BgsimError(f"cannot reach the Dask scheduler at {address}: {str(exc).splitlines()[0]}") from None


# --- the run directory


def _prepare_dir(spec: RunSpec, run_dir: Path, resume: bool, blocks, built) -> dict:
    if run_dir.exists() and any(run_dir.iterdir()):
        if not resume:
            raise RunStoreError(f"{run_dir} already holds this run; add --resume to finish it, "
                                f"or delete the directory to play it again")
        meta = read_meta(run_dir)
        if meta.get("run_id") != spec.run_id:
            raise RunStoreError(f"{run_dir} holds run {meta.get('run_id')!r}, not {spec.run_id!r}")
        probe_write(run_dir)  # a read-only directory fails now, not after the first chunk's games
        removed = remove_partial_files(run_dir)
        if removed:
            meta.setdefault("notes", []).append(f"{now()}: removed {removed} partial file(s) on resume")
        meta.setdefault("chunks", {})
        return meta
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunStoreError(f"cannot write to {run_dir}: {exc.strerror or exc}") from None
    probe_write(run_dir)
    stored = spec
    if spec.data:  # keep the overrides with the results, so the run replays anywhere
        (run_dir / "data").mkdir(exist_ok=True)
        for name, path in spec.data.items():
            (run_dir / "data" / f"{name}.toml").write_bytes(Path(path).read_bytes())
        stored = replace(spec, data={name: f"data/{name}.toml" for name in spec.data})
    write_toml(run_dir / "spec.toml", stored.to_dict())
    meta = _new_meta(spec, blocks, built)
    write_json(run_dir / "meta.json", meta)
    return meta


def _new_meta(spec: RunSpec, blocks, built) -> dict:
    return {
        "run_id": spec.run_id,
        "name": spec.name,
        "created": now(),
        "status": "running",
        "versions": package_versions(),
        "git": git_state(),
        "host": {"hostname": socket.gethostname(), "platform": platform.platform(), "cpus": os.cpu_count()},
        "seeds": {"seed": spec.seed, "scheme": SEED_SCHEME,
                  "block_keys": {str(b.n_players): str(block_key(spec.seed, b.n_players)) for b in blocks}},
        "games_total": spec.total_games,
        "chunks_total": len(spec.chunks()),
        "profile": run_profile([game for game, _, _ in built]),
        "blocks": [
            {
                "n_players": block.n_players,
                "game_id": game.id,
                "rules_version": game.version,
                "data_hash": game.data_hash,
                "data_files": game.data_files,
                "first_game_index": block.offset,
                "games": block.games,
                "seatings": [list(s) for s in block.seatings],
                "strategies": [s.id for s in strategies],
            }
            for block, (game, strategies, _) in zip(blocks, built, strict=True)
        ],
        "chunks": {},
    }


def run_profile(games) -> dict:
    """The profile every report of the run reads (``sim.profile``), as JSON: the first player
    count's, with the result columns of every player count played (a solo block adds some)."""
    doc = games[0].profile.to_json()
    for game in games[1:]:
        doc["records"] = {**doc["records"], **game.profile.to_json()["records"]}
    return doc


def package_versions() -> dict:
    """Python's and the key packages' versions, for a run's or a study's record."""
    out = {"python": platform.python_version()}
    for package in ("bgsim", "numpy", "numba", "polars", "pyarrow", "joblib"):
        try:
            out[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            out[package] = None
    return out


def git_state() -> dict:
    """The commit bgsim runs from and whether tracked files differ from it (None outside a checkout)."""
    root = Path(__file__).resolve().parent.parent
    try:
        sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return {"sha": None, "dirty": None}
    if sha.returncode != 0:
        return {"sha": None, "dirty": None}
    return {"sha": sha.stdout.strip(), "dirty": bool(dirty.stdout.strip())}


# --- finding one game again


def locate_game(spec: RunSpec, game_index: int) -> tuple[Block, int, int, int]:
    """(block, chunk number, deal, seating) of run-wide game ``game_index``."""
    for b, block in enumerate(spec.blocks()):
        if block.offset <= game_index < block.offset + block.games:
            local = game_index - block.offset
            chunk = next(c.index for c in spec.chunks() if c.block == b and c.start <= local < c.stop)
            deal, seating = divmod(local, len(block.seatings))
            return block, chunk, deal, seating
    raise BgsimError(f"game index {game_index} is outside this run (0..{spec.total_games - 1})")
