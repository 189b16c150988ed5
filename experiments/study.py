"""What a study is, and the one lifecycle every study runs through.

A *study* is a designer's question answered by many runs: a seat-order study, a robustness study,
a difficulty study, a component-value study, a balance search, a tournament. Each kind declares
itself as a ``Study`` in the registry (``experiments/studies.py``): the spec file it reads, the
marker file that tells its directory, and the module functions that run it, read its rows and
build its report. Nothing outside a study's own module knows how it lays out its directory.

``open_session`` is the lifecycle they share: it creates the directory (or reopens it to resume,
checked to hold the same study), keeps the marker's ``status`` (running, then complete or
interrupted), records each session (when it ended, the workers, the games played and the wall
time), reports progress and stages, and on any interruption (Ctrl-C, an error, a kill between
runs) leaves the marker saying so before the exception goes on. Runs inside a study are ordinary
runs (``experiments.runner``), so a finished chunk is never lost.
"""

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any

import pandas as pd
from bgsim.sim.results.spec import RunSpec
from bgsim.sim.results.store import begin_session, end_session, now, open_study_dir, write_json

__all__ = ["Session", "Study", "StudyResult", "csv_or_empty", "open_session"]

ProgressCallback = Callable[[int, int], None]  # (games done, games planned)
StageCallback = Callable[[str], None]  # a line saying what the study does next


def csv_or_empty(path: Path) -> pd.DataFrame:
    """A table a study wrote, or an empty frame when it has not written it (yet)."""
    try:
        return pd.read_csv(path)
    except (FileNotFoundError, pd.errors.EmptyDataError):
        return pd.DataFrame()


@dataclass(frozen=True)
class Study:
    """One kind of study, as the registry lists it. The five callables are ``"module:function"``
    names, imported on use (a study's module plays games, which reading a plain run does without):

    - ``spec``: ``spec(path) -> spec``, read and check a spec file (one-line ``SpecError``); the spec
      has ``study_id``, ``total_games`` and ``game``;
    - ``run``: ``run(spec, out=, jobs=, resume=, on_progress=, on_stage=) -> StudyResult``;
    - ``read``: ``read(directory) -> polars.LazyFrame``, every row of a finished study, each row
      labelled with the run it belongs to (what ``bgsim.load`` returns);
    - ``contents``: ``contents(directory) -> sim.results.contents.StudyContents``, what the report
      reads, finished or not;
    - ``report`` (in ``reports``): ``report(contents, extras) -> (Report, seat table or None)``.
    """

    kind: str  # the registry's key and the marker's "kind"
    command: str  # `bgsim COMMAND SPEC` runs it
    noun: str  # how messages name it: "seat-order study"
    marker: str  # the file whose presence tells a directory holds such a study
    spec_file: str  # the resolved spec, stored in the study's directory
    spec: str
    run: str
    read: str
    contents: str
    report: str
    id_key: str = "study_id"  # the marker's key of the study's id
    resumes_from_copy: bool = True  # its stored spec_file runs it again (False: the user's own spec is needed)
    done: str = "games played"  # what the games a session played are, in the closing line

    def part(self, name: str) -> Callable[..., Any]:
        """The function ``name`` (spec, run, read, contents or report) names, imported."""
        module, _, function = getattr(self, name).partition(":")
        return getattr(import_module(module), function)

    def holds(self, directory: Path) -> bool:
        """Whether ``directory`` holds a study of this kind (its marker is there)."""
        return (Path(directory) / self.marker).is_file()


@dataclass(frozen=True)
class StudyResult:
    """What ``run`` returns: where the study is, and what this session played."""

    directory: Path
    games_played: int  # in this session; the rest were on disk already
    seconds: float


class Session:
    """A study being played now: its ``meta`` (the marker's contents, written by ``save``), the games
    it has played this session, and its progress (``done`` of ``total`` planned games, ``total``
    free to grow as the study learns what it still has to play)."""

    def __init__(self, study: Study, directory: Path, meta: dict, jobs: int, resume: bool, total: int,
                 on_progress: ProgressCallback | None, on_stage: StageCallback | None):
        self.study, self.directory, self.meta = study, directory, meta
        self.jobs, self.resume, self.total = jobs, resume, total
        self.done = 0  # games of the runs finished (played now or found on disk)
        self.played = 0  # games played in this session
        self._on_progress, self._on_stage = on_progress, on_stage
        self._started = time.perf_counter()
        self._record = begin_session(meta, jobs=jobs)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self._started

    def save(self) -> None:
        """Write the marker as ``meta`` holds it now."""
        write_json(self.directory / self.study.marker, self.meta)

    def stage(self, text: str) -> None:
        if self._on_stage:
            self._on_stage(text)

    def progress(self, done: int | None = None) -> None:
        """Report ``done`` (default: the finished runs' games) of the planned total."""
        done = self.done if done is None else done
        if self._on_progress:
            self._on_progress(done, max(self.total, done))

    def play(self, spec: RunSpec, subdir: str) -> int:
        """Play one run of the study into ``subdir`` (or find it complete and intact); returns the games
        played now."""
        from bgsim.experiments.runner import play_study_run

        played = play_study_run(spec, self.directory / subdir, self.jobs, self.resume,
                                lambda done, _total: self.progress(done), self.done, self.total)
        self.played += played
        self.done += spec.total_games
        return played

    def count(self, played: int, done: int | None = None) -> None:
        """Count games a study played without ``play`` (its own chunks): ``played`` now, and ``done`` of
        the total so far (default: the games counted so far)."""
        self.played += played
        self.done = self.done + played if done is None else done
        self.progress()

    def result(self) -> StudyResult:
        return StudyResult(self.directory, self.played, self.seconds)

    def close(self, status: str) -> None:
        """End this session as ``status`` (complete or interrupted) and write the marker."""
        end_session(self.meta, self._record, status, self.played, self.seconds)
        self.save()


@contextlib.contextmanager
def open_session(study: Study, study_id: str, spec_doc: dict, directory: Path, resume: bool, jobs: int = 1,
                 total: int = 0, fresh: Callable[[], dict] | None = None,
                 on_progress: ProgressCallback | None = None,
                 on_stage: StageCallback | None = None) -> Iterator[Session]:
    """The study ``study_id`` in ``directory``, open to play into: a fresh directory gets the spec file
    (``spec_doc``) and a marker of ``kind``, id, creation time and whatever ``fresh()`` adds; with
    ``resume``, a directory of the same study is reopened (any other is a one-line error). On leaving,
    the marker's status is complete, or interrupted when an exception leaves the block, and the session
    is recorded either way."""
    meta = open_study_dir(directory, study.marker, study.noun, study.id_key, study_id, resume, study.spec_file,
                          spec_doc)
    if meta is None:
        meta = {"kind": study.kind, study.id_key: study_id, "created": now(), **(fresh() if fresh else {})}
    meta["status"] = "running"
    session = Session(study, Path(directory), meta, jobs, resume, total, on_progress, on_stage)
    session.save()
    try:
        yield session
    except BaseException:
        session.close("interrupted")
        raise
    session.close("complete")
