"""The run directory: Parquet chunks written atomically, ``spec.toml``, ``meta.json``, loading.

Layout of ``runs/<run-id>/``::

    spec.toml             the resolved spec (data overrides point into data/)
    meta.json             versions, git sha, data hashes, seeds, host, timings, progress
    data/<name>.toml      copies of the component-data overrides, if any
    chunk-000012.parquet  one row per (game, seat) of chunk 12

A chunk is written under a temporary name and renamed once complete, so a file named
``chunk-*.parquet`` is always a whole chunk; a run killed at any moment leaves at most a
temporary file, which ``--resume`` deletes.
"""

import json
import os
import tempfile
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import tomli_w
from bgsim.sim.errors import BgsimError

__all__ = ["RunStoreError", "chunk_path", "finished_chunks", "load", "read_meta", "remove_partial_files",
           "write_atomic", "write_chunk", "write_json", "write_toml"]

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


def write_chunk(run_dir: Path, index: int, table: pa.Table) -> Path:
    path = chunk_path(run_dir, index)
    write_atomic(path, lambda tmp: pq.write_table(table, tmp, compression="zstd"))
    return path


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


def finished_chunks(run_dir: Path, expected_rows: dict[int, int]) -> set[int]:
    """Chunk numbers already on disk, each checked to be a readable Parquet file with the
    expected number of rows (``expected_rows[index]``); a damaged one is a RunStoreError."""
    done = set()
    for path in sorted(Path(run_dir).glob(CHUNK_GLOB)):
        try:
            index = int(path.stem.split("-")[1])
        except (IndexError, ValueError):
            raise RunStoreError(f"unexpected file {path.name} in {run_dir}") from None
        if index not in expected_rows:
            raise RunStoreError(f"{path}: chunk {index} is not part of this run's plan")
        try:
            rows = pq.read_metadata(path).num_rows
        except Exception as exc:  # pyarrow raises several types for damaged files
            raise RunStoreError(f"damaged chunk {path}: {_one_line(exc)} (delete it, then resume)") from None
        if rows != expected_rows[index]:
            raise RunStoreError(f"damaged chunk {path}: {rows} rows, expected {expected_rows[index]} "
                                f"(delete it, then resume)")
        done.add(index)
    return done


def load(run_dir: str | Path) -> pl.LazyFrame:
    """Every stored (game, seat) row of a run as a polars LazyFrame over its Parquet chunks."""
    run_dir = Path(run_dir)
    read_meta(run_dir)
    files = sorted(run_dir.glob(CHUNK_GLOB))
    if not files:
        raise RunStoreError(f"{run_dir} holds no finished chunks yet")
    for path in files:
        try:
            pq.read_metadata(path)
        except Exception as exc:
            raise RunStoreError(f"damaged chunk {path}: {_one_line(exc)}") from None
    return pl.scan_parquet([str(p) for p in files])


def _one_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
