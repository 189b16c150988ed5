"""``bgsim report DIR``: find out what DIR holds, load it, and write its report to DIR/report/ (or ``out_dir``).

The top layer: it loads runs and studies through the experiments' loaders and hands the report
modules plain data (frames, the study's marker, the game profile stored with the runs, progress
numbers), so that reports only render and never load a study themselves. Extras a game adds to
its reports are the ``ReportExtras`` its entry declares (``parts.reports``).
"""

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from bgsim.experiments import component_value as component_study
from bgsim.experiments import difficulty as difficulty_study
from bgsim.experiments import robustness as robustness_study
from bgsim.experiments import seat_order as seat_study
from bgsim.reports.extras import NO_EXTRAS, ReportExtras
from bgsim.reports.provenance import header
from bgsim.sim.errors import BgsimError
from bgsim.sim.profile import GameProfile
from bgsim.sim.registry import available_games
from bgsim.sim.results.played import played_by
from bgsim.sim.results.progress import run_progress, runs_done
from bgsim.sim.results.store import RunStoreError, load, read_meta, read_profile, study_resume_command
from bgsim.sim.stats.lazy import is_empty

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
    if (directory / robustness_study.MARKER).exists():
        report, seats = _robustness(directory)
    elif (directory / difficulty_study.MARKER).exists():
        report, seats = _difficulty(directory), None
    elif (directory / component_study.MARKER).exists():
        report, seats = _component_value(directory), None
    elif (directory / "balance.json").exists():
        report, seats = _balance(directory), None
    elif (directory / seat_study.MARKER).exists():
        report, seats = _seat_order(directory)
    elif (directory / "meta.json").exists():
        report, seats = _run(directory)
    elif (directory / "tournament.json").exists():
        raise BgsimError(f"{directory} is a tournament: its report comes from `bgsim tournament SPEC --report DIR`")
    elif not directory.is_dir():
        raise RunStoreError(f"{directory} does not exist")
    else:
        raise RunStoreError(f"{directory} is not a run, seat-order, robustness, difficulty, component-value or "
                            f"balance directory (no meta.json, {seat_study.MARKER}, {robustness_study.MARKER}, "
                            f"{difficulty_study.MARKER}, {component_study.MARKER} or balance.json)")
    return report, seats


def report_extras(profile: GameProfile) -> ReportExtras:
    """The game's own report additions, as its entry declares them (``NO_EXTRAS`` for a game without,
    or a game no longer registered)."""
    entry = available_games(unlisted=True).get(profile.game)
    return (entry.parts.load("reports") if entry else None) or NO_EXTRAS


# --- runs


def _run(run_dir: Path):
    from bgsim.reports.run_report import build_run_report

    profile = read_profile(run_dir)
    spec = tomllib.loads((run_dir / "spec.toml").read_text(encoding="utf-8"))
    report, seats = build_run_report(load(run_dir), read_meta(run_dir), spec, run_progress(run_dir), profile,
                                     finish=f"bgsim run {run_dir} --resume")
    report.provenance = played_by([run_dir], run_dir / "spec.toml")
    return report, seats


# --- seat-order and robustness studies


def _study_profile(run_dirs: list[Path], where: Path) -> GameProfile:
    for run_dir in run_dirs:
        if (run_dir / "meta.json").is_file():
            return read_profile(run_dir)
    raise RunStoreError(f"{where}: no run of the study has begun; run `{study_resume_command(where)}` to play them")


def seat_study_data(study_dir: Path, partial: bool):
    """A seat-order study as the seat report reads it (``reports.seat_report.SeatStudy``)."""
    from bgsim.reports.seat_report import SeatStudy

    run_dirs = seat_study.study_run_dirs(study_dir)
    profile = _study_profile(run_dirs, study_dir)
    rows = seat_study.load_study_rows(study_dir, partial=partial)
    path = study_dir / "compensation.csv"
    compensation = pd.read_csv(path) if path.exists() else pd.DataFrame()
    confirm = seat_study.load_study_rows(study_dir, "confirm", partial=partial) if not compensation.empty else None
    rounds_path = study_dir / "rounds.csv"
    rounds = pd.read_csv(rounds_path, dtype={"vector": str}) if rounds_path.exists() else pd.DataFrame()
    tolerance = seat_study.load_seat_order(study_dir / "seat_order.toml").tolerance
    return SeatStudy(rows=rows, compensation=compensation, confirm=confirm, profile=profile, rounds=rounds,
                     extras=report_extras(profile), played=header(_cells_played(study_dir)), tolerance=tolerance)


def _cells_played(study_dir: Path) -> dict:
    """What a seat-order study's cells played (``sim.results.played``); its confirmation runs of
    compensating vectors are left out: the report has their section."""
    cells = [d for d in seat_study.study_run_dirs(study_dir) if d.parent.name == "cells"]
    return played_by(cells, study_dir / "seat_order.toml")


def _seat_order(study_dir: Path):
    from bgsim.reports.seat_report import build_seat_order_report

    meta = read_meta(study_dir, seat_study.MARKER, "seat-order")
    study = seat_study_data(study_dir, partial=meta.get("status") != "complete")
    if is_empty(study.rows):
        raise RunStoreError(f"{study_dir}: no games played yet; run `{study_resume_command(study_dir)}` to play them")
    done = runs_done(seat_study.study_run_dirs(study_dir))
    planned = seat_study.planned_games(seat_study.load_seat_order(study_dir / "seat_order.toml"), meta)
    report, seats = build_seat_order_report(meta, study, done, planned, study_resume_command(study_dir) or "--resume")
    report.provenance = _cells_played(study_dir)
    return report, seats


def _robustness(directory: Path):
    from bgsim.reports.robustness_report import build_robustness_report

    meta = read_meta(directory, robustness_study.MARKER, "robustness")
    studies = {s["variant"]: directory / s["dir"] for s in meta.get("studies", [])}  # the finished ones
    if "baseline" not in studies:
        raise RunStoreError(f"{directory.name}: the robustness study is {meta.get('status')} and its baseline is "
                            f"not finished yet; run `{study_resume_command(directory)}` to finish it")

    def each() -> Iterator:  # one study at a time: a study's rows can be large
        for name, path in studies.items():
            yield name, seat_study_data(path, partial=False)

    planned_variants = len(meta.get("variants", [])) or len(studies) - 1
    done = sum(runs_done(seat_study.study_run_dirs(study)) for study in (directory / "studies").iterdir()
               if (study / seat_study.MARKER).is_file())
    # every variant study plans as many games as the baseline (one component replaced, same cells)
    planned = seat_study.load_seat_order(studies["baseline"] / "seat_order.toml").total_games * (1 + planned_variants)
    report, seats = build_robustness_report(meta, each(), done, planned, study_resume_command(directory) or "--resume")
    report.provenance = {"variants": {name: _cells_played(path) for name, path in studies.items()}}
    return report, seats


# --- difficulty studies


def _difficulty(study_dir: Path):
    from bgsim.reports.difficulty_report import DifficultyStudy, build_difficulty_report

    meta = difficulty_study.read_study(study_dir, partial=True)
    base = difficulty_study.load_rows(study_dir, "base")
    if is_empty(base):
        raise RunStoreError(f"{study_dir}: no base run is finished yet; run `{study_resume_command(study_dir)}` "
                            f"to play them")
    profile = read_profile(study_dir / meta["runs"][0]["dir"])
    runs, planned = difficulty_study.study_progress(study_dir)
    docs = {k.parameter: difficulty_study.knob_doc(k.parameter, profile.game) for k in profile.automa.knobs}
    # the game as the base runs played it: the sweep and the calibration change only the knobs the report names
    played = played_by([study_dir / r["dir"] for r in meta["runs"] if r["kind"] == "base"],
                       study_dir / difficulty_study.SPEC_FILE)
    study = DifficultyStudy(meta=meta, base=base, sweep=difficulty_study.load_rows(study_dir, "sweep"),
                            calibrate=difficulty_study.load_rows(study_dir, "calibrate"), profile=profile,
                            knob_docs=docs, extras=report_extras(profile), played=header(played))
    report = build_difficulty_report(study, runs_done(runs), planned, study_resume_command(study_dir) or "--resume")
    report.provenance = played
    return report


# --- component-value studies


def _component_value(study_dir: Path):
    from bgsim.reports.component_value_report import ComponentValueStudy, build_component_value_report

    meta = component_study.read_study(study_dir)
    spec = tomllib.loads((study_dir / component_study.SPEC_FILE).read_text(encoding="utf-8"))
    values = _csv(study_dir / "choice_values.csv")
    if values.empty:
        values = component_study.values_table_of(study_dir, spec)
    if values.empty:
        raise RunStoreError(f"{study_dir}: no decision points sampled yet; run `{study_resume_command(study_dir)}` "
                            f"to sample them")
    profile = GameProfile.from_json(next(iter(meta["profile"].values())))
    study = ComponentValueStudy(meta=meta, spec=spec, profile=profile, values=values,
                                payouts=_csv(study_dir / "payouts.csv"),
                                association=component_study.association_table(spec, study_dir),
                                played=header(meta.get("played") or {}),
                                ablation=_csv(study_dir / "ablation.csv"))
    done, planned = component_study.progress(study_dir, spec, meta)
    report = build_component_value_report(study, done, planned, study_resume_command(study_dir) or "--resume")
    report.provenance = meta.get("played")
    return report


def _balance(study_dir: Path):
    from bgsim.experiments.balance import read_finalists, read_study
    from bgsim.reports.balance_report import BalanceStudy, build_balance_report

    meta = read_study(study_dir)
    spec = tomllib.loads((study_dir / "balance.toml").read_text(encoding="utf-8"))
    profile = GameProfile.from_json(next(iter(meta["profile"].values())))
    best = study_dir / "best.json"
    study = BalanceStudy(meta=meta, spec=spec, profile=profile, finalists=read_finalists(study_dir),
                         best=json.loads(best.read_text()) if best.exists() else {},
                         importances=_csv(study_dir / "importances.csv"), played=header(meta.get("played") or {}))
    report = build_balance_report(study, study_resume_command(study_dir) or "--resume")
    report.provenance = meta.get("played")
    return report


def _csv(path: Path) -> pd.DataFrame:
    try:
        return pd.read_csv(path)
    except (FileNotFoundError, pd.errors.EmptyDataError):
        return pd.DataFrame()
