"""``bgsim report DIR``: find out what DIR holds, gather it, and write its report to DIR/report/ (or ``out_dir``).

The top layer: a study's module gathers what its report reads (``StudyContents``), the study's report
module renders it, and the registry of studies (``experiments.studies``) names both; a plain run is
read here. Extras a game adds to its reports are the ``ReportExtras`` its entry declares
(``parts.reports``).
"""

import tomllib
from pathlib import Path

import pandas as pd

from bgsim.experiments.studies import STUDIES, study_at
from bgsim.reports.extras import NO_EXTRAS, ReportExtras
from bgsim.sim.profile import GameProfile
from bgsim.sim.registry import available_games
from bgsim.sim.results.played import played_by
from bgsim.sim.results.progress import run_progress
from bgsim.sim.results.store import RunStoreError, load, read_meta, read_profile

__all__ = ["build_report", "report_extras", "write_report"]


def write_report(directory: str | Path, out_dir: str | Path | None = None) -> tuple[Path, pd.DataFrame | None]:
    """Write the report of a run or study directory; returns the report's directory and, for seat
    analyses, the seat table (for a short summary), else None."""
    directory = Path(directory)
    report, seats = build_report(directory)
    return report.write(Path(out_dir) if out_dir else directory / "report"), seats


def build_report(directory: str | Path):
    """The report (``reports.report_builder.Report``) of a run or study directory, not yet written, and
    for seat analyses the seat table, else None."""
    directory = Path(directory)
    study = study_at(directory)
    if study is not None:
        contents = study.part("contents")(directory)
        return study.part("report")(contents, report_extras(contents.profile))
    if (directory / "meta.json").exists():
        return _run(directory)
    if not directory.is_dir():
        raise RunStoreError(f"{directory} does not exist")
    *others, last = ["meta.json", *(s.marker for s in STUDIES)]
    raise RunStoreError(f"{directory} is not a run or study directory (no {', '.join(others)} or {last})")


def report_extras(profile: GameProfile) -> ReportExtras:
    """The game's own report additions, as its entry declares them (``NO_EXTRAS`` for a game without,
    or a game no longer registered)."""
    entry = available_games(unlisted=True).get(profile.game)
    return (entry.parts.load("reports") if entry else None) or NO_EXTRAS


def _run(run_dir: Path):
    from bgsim.reports.run_report import build_run_report

    profile = read_profile(run_dir)
    spec = tomllib.loads((run_dir / "spec.toml").read_text(encoding="utf-8"))
    report, seats = build_run_report(load(run_dir), read_meta(run_dir), spec, run_progress(run_dir), profile,
                                     finish=f"bgsim run {run_dir} --resume")
    report.provenance = played_by([run_dir], run_dir / "spec.toml")
    return report, seats
