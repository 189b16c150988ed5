"""The run directory: Parquet chunks written atomically, ``spec.toml``, ``meta.json``, loading.

Layout of ``runs/<run-id>/``::

    spec.toml             the resolved spec (data overrides point into data/)
    meta.json             versions, git sha, data hashes, seeds, host, timings, progress
    data/<name>.toml      copies of the component-data overrides, if any
    chunk-000012.parquet  one row per (game, seat) of chunk 12

A chunk is written under a temporary name and renamed once complete, so a file named
``chunk-*.parquet`` is always a whole chunk; a run killed at any moment leaves at most a
temporary file, which ``--resume`` deletes.

Each chunk's size and SHA-256 go into ``meta.json`` right after the chunk, so a chunk changed
later (a bad disk, a copy cut short, a stray write) never goes unnoticed: ``load`` and ``--resume``
compare every chunk with its hash (size first). ``load`` names every damaged chunk in one error;
``--resume`` deletes them and plays them again. A chunk without a hash (a run from before hashes
were kept, or a chunk finished just before a kill) is read in full instead, and ``--resume``
records its hash.
"""

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import tomli_w
from bgsim.sim.errors import BgsimError

__all__ = ["ChunkCheck", "RunStoreError", "begin_session", "chunk_differs", "chunk_path", "end_session",
           "file_digest", "load", "now", "probe_write", "raise_if_damaged", "read_meta", "read_profile",
           "remove_partial_files", "scan_chunks", "verify_chunks", "verify_runs", "write_atomic", "write_chunk",
           "write_json", "write_probe", "write_toml"]

CHUNK_GLOB = "chunk-*.parquet"
_TMP_PREFIX = ".tmp-"
_UMASK = os.umask(0)
os.umask(_UMASK)


class RunStoreError(BgsimError):
    """A run directory that cannot be written, or holds damaged or foreign files."""


def chunk_path(run_dir: Path, index: int) -> Path:
    return Path(run_dir) / f"chunk-{index:06d}.parquet"


def write_atomic(path: Path, write) -> None:
    """Call ``write(tmp_path)``, flush it to disk, then rename onto ``path`` (never half a file)."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=_TMP_PREFIX + path.name + ".", dir=path.parent)
    os.close(fd)
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp creates 0600; results are meant to be shared
        write(tmp)
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_chunk(run_dir: Path, index: int, table: pa.Table) -> dict:
    """Write chunk ``index`` atomically; returns its ``file_digest`` (for meta.json), taken from
    the very bytes that are renamed into place."""
    digest = {}

    def write(tmp: str) -> None:
        pq.write_table(table, tmp, compression="zstd")
        digest.update(file_digest(tmp))

    write_atomic(chunk_path(run_dir, index), write)
    return digest


def file_digest(path: str | Path) -> dict:
    """``{"size": bytes, "sha256": hex digest}`` of the file at ``path``."""
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        return {"size": size, "sha256": hashlib.file_digest(handle, "sha256").hexdigest()}


def write_probe(directory: Path) -> None:
    """Create and remove a file in ``directory``; an OSError if it cannot be written. A real file:
    the permission bits say nothing for root, and a read-only mount only shows when one writes."""
    fd, probe = tempfile.mkstemp(prefix=_TMP_PREFIX + "write-test.", dir=directory)
    os.close(fd)
    os.unlink(probe)


def probe_write(directory: Path) -> None:
    """A one-line RunStoreError unless a file can be created in ``directory`` (``write_probe``)."""
    try:
        write_probe(directory)
    except OSError as exc:
        raise RunStoreError(f"cannot write to {directory}: {exc.strerror or exc}") from None


def write_json(path: Path, doc: dict) -> None:
    write_atomic(path, lambda tmp: Path(tmp).write_text(json.dumps(doc, indent=2, default=str) + "\n"))


def write_toml(path: Path, doc: dict) -> None:
    write_atomic(path, lambda tmp: Path(tmp).write_bytes(tomli_w.dumps(doc).encode()))


def read_meta(run_dir: Path, name: str = "meta.json", kind: str = "run") -> dict:
    """The JSON file ``name`` that marks ``run_dir`` as a ``kind`` directory; one-line
    RunStoreError if it is missing or damaged."""
    path = Path(run_dir) / name
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise RunStoreError(f"{run_dir} is not a {kind} directory (no {name})") from None
    except (OSError, ValueError) as exc:
        raise RunStoreError(f"{path}: damaged ({exc})") from None


def read_profile(run_dir: Path):
    """The profile of the game a run played (``sim.profile.GameProfile``), as the runner stored it
    in ``meta.json``. A run from before profiles were stored gets a one-line error."""
    from bgsim.sim.profile import GameProfile

    doc = read_meta(Path(run_dir)).get("profile")
    if doc is None:
        raise RunStoreError(f"{run_dir}: meta.json holds no game profile (written by an older bgsim); "
                            f"play the run again to report it")
    try:
        return GameProfile.from_json(doc)
    except (KeyError, TypeError, ValueError) as exc:
        raise RunStoreError(f"{run_dir}/meta.json: the game profile is damaged ({exc})") from None


def now() -> str:
    """The time stamps of markers, sessions and notes: UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def begin_session(meta: dict, **facts) -> dict:
    """A new session of a run or study (``meta``: its meta.json or marker), last in its ``sessions``:
    when it started and ``facts`` (the workers, the backend, ...). ``end_session`` closes it."""
    session = {"started": now(), **facts}
    meta.setdefault("sessions", []).append(session)
    return session


def end_session(meta: dict, session: dict, status: str, played: int, seconds: float) -> None:
    """Close ``session`` of ``meta`` as ``status`` ("complete", or "interrupted" when an exception ended
    it), for the session and for the whole: when it ended, the games it played and its wall time."""
    session.update(ended=now(), status=status, games_played=played, wall_seconds=round(seconds, 3))
    meta["status"] = status


def open_study_dir(directory: Path, marker: str, kind: str, id_key: str, study_id: str, resume: bool,
                   spec_file: str, spec_doc: dict) -> dict | None:
    """A study directory (tournament, seat-order or robustness study) ready to play into.

    Returns the stored ``marker`` JSON of a directory to resume (checked to hold the same study), or
    None after creating a fresh directory with ``spec_file``. One-line RunStoreErrors otherwise."""
    if directory.exists() and any(directory.iterdir()):
        if not resume:
            raise RunStoreError(f"{directory} already holds this {kind}; add --resume to finish it, "
                                f"or delete the directory to play it again")
        meta = read_meta(directory, marker, kind)
        if meta.get(id_key) != study_id:
            raise RunStoreError(f"{directory} holds {kind} {meta.get(id_key)!r}, not {study_id!r}")
        probe_write(directory)  # before any game, not at the first chunk
        return meta
    try:
        directory.mkdir(parents=True, exist_ok=True)
        write_toml(directory / spec_file, spec_doc)
    except OSError as exc:
        raise RunStoreError(f"cannot write to {directory}: {exc.strerror or exc}") from None
    return None


def remove_partial_files(run_dir: Path) -> int:
    """Delete temporary files left by an interrupted run; returns how many there were."""
    partial = list(Path(run_dir).glob(_TMP_PREFIX + "*"))
    for path in partial:
        path.unlink(missing_ok=True)
    return len(partial)


@dataclass
class ChunkCheck:
    """What ``verify_chunks`` found in one run directory."""

    run_dir: Path
    intact: dict[int, Path] = field(default_factory=dict)  # chunk number -> file, content as written
    unhashed: dict[int, dict] = field(default_factory=dict)  # intact chunks meta.json has no hash for: digests now
    damaged: dict[int, str] = field(default_factory=dict)  # chunk number -> what is wrong (the file may be gone)

    def files(self) -> list[Path]:
        return [self.intact[index] for index in sorted(self.intact)]


def verify_chunks(run_dir: Path, meta: dict, expected_rows: dict[int, int] | None = None) -> ChunkCheck:
    """Compare every chunk of ``run_dir`` with the size and hash ``meta`` (its meta.json) holds for
    it: the size first, the SHA-256 only if the size agrees. A chunk without a hash is read in full
    (every column decoded) and, if ``expected_rows`` (chunk number -> rows) is given, its rows
    counted. A chunk whose hash was written but whose file is gone is damaged too. Files that are
    no chunk of this run are a RunStoreError: they are not ours to replace."""
    run_dir = Path(run_dir)
    written = {int(k): v for k, v in meta.get("chunks", {}).items() if isinstance(v, dict) and "sha256" in v}
    check = ChunkCheck(run_dir)
    for index, path in _chunk_files(run_dir, expected_rows):
        if index in written:
            problem = chunk_differs(path, written[index])
        else:
            problem, digest = _read_in_full(path, None if expected_rows is None else expected_rows[index])
            if problem is None:
                check.unhashed[index] = digest
        if problem is None:
            check.intact[index] = path
        else:
            check.damaged[index] = problem
    for index in sorted(written.keys() - check.intact.keys() - check.damaged.keys()):
        if expected_rows is None or index in expected_rows:
            check.damaged[index] = "missing, though its hash was written"
    return check


def _chunk_files(run_dir: Path, expected_rows: dict[int, int] | None) -> list[tuple[int, Path]]:
    found = []
    for path in sorted(run_dir.glob(CHUNK_GLOB)):
        try:
            index = int(path.stem.split("-")[1])
        except (IndexError, ValueError):
            raise RunStoreError(f"unexpected file {path.name} in {run_dir}") from None
        if expected_rows is not None and index not in expected_rows:
            raise RunStoreError(f"{path}: chunk {index} is not part of this run's plan")
        found.append((index, path))
    return found


def chunk_differs(path: Path, written: dict) -> str | None:
    """Why the file at ``path`` is not the one hashed as ``written``, or None if it is."""
    size = path.stat().st_size
    if size != written.get("size"):
        return f"{size:,} bytes, {written.get('size', 0):,} when written"
    if file_digest(path)["sha256"] != written["sha256"]:
        return "content differs from the hash written with it"
    return None


def _read_in_full(path: Path, rows: int | None) -> tuple[str | None, dict | None]:
    """(problem, None) or (None, digest) for a chunk without a hash: decoded in full, rows counted."""
    try:
        table = pq.read_table(path)
        table.validate(full=True)
    except Exception as exc:  # pyarrow raises several types for damaged files
        return f"unreadable: {_one_line(exc)}", None
    if rows is not None and table.num_rows != rows:
        return f"{table.num_rows} rows, expected {rows}", None
    return None, file_digest(path)


def raise_if_damaged(checks: Iterable[ChunkCheck], study: tuple[Path, str] | None = None) -> None:
    """One one-line RunStoreError naming every damaged chunk of ``checks`` and the command that
    plays them again: ``study``'s (its directory, its resume command) for the runs of a study."""
    damaged = [(check.run_dir, index, why) for check in checks for index, why in sorted(check.damaged.items())]
    if not damaged:
        return
    run_dirs = list(dict.fromkeys(run_dir for run_dir, _, _ in damaged))
    if study:
        root, command = study
    elif len(run_dirs) == 1:
        root, command = run_dirs[0], f"bgsim run {run_dirs[0]} --resume"
    else:
        root, command = Path(os.path.commonpath(run_dirs)), "bgsim run RUN_DIR --resume"
    names = [f"{os.path.relpath(chunk_path(run_dir, index), root)} ({why})" for run_dir, index, why in damaged]
    count = "1 damaged chunk" if len(names) == 1 else f"{len(names)} damaged chunks"
    them = "it" if len(names) == 1 else "them"
    raise RunStoreError(f"{root}: {count}: {', '.join(names)}; run `{command}` to play {them} again")


def verify_runs(run_dirs: Iterable[str | Path], study: tuple[Path, str] | None = None) -> list[list[Path]]:
    """The chunk files of each run in ``run_dirs``, each checked against its hash (or read in full
    without one); one RunStoreError naming every damaged chunk of all of them, and the command that
    plays them again (``study``'s, for the runs of a study: its directory and resume command)."""
    checks = [verify_chunks(Path(run_dir), read_meta(Path(run_dir))) for run_dir in run_dirs]
    raise_if_damaged(checks, study)
    return [check.files() for check in checks]


def scan_chunks(run_dir: Path, files: list[Path]) -> pl.LazyFrame:
    """A LazyFrame over ``files``, chunks of ``run_dir`` that ``verify_runs`` returned."""
    if not files:
        raise RunStoreError(f"{run_dir} holds no finished chunks yet")
    return pl.scan_parquet([str(p) for p in files])


def load(run_dir: str | Path, study: tuple[Path, str] | None = None) -> pl.LazyFrame:
    """Every stored (game, seat) row of a run as a polars LazyFrame over its Parquet chunks, each
    chunk checked against its hash first (a damaged one names ``study``'s resume command, for a run
    of a study)."""
    run_dir = Path(run_dir)
    return scan_chunks(run_dir, verify_runs([run_dir], study)[0])


def _one_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
