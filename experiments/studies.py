"""The registry of studies: every kind of study bgsim runs, as ``experiments.study.Study`` entries.

``bgsim report``, ``bgsim.load`` and the command line loop over ``STUDIES``; a new kind of study is
its own module (spec, run, read, report) and one entry here.
"""

from pathlib import Path

from bgsim.experiments.study import Study

__all__ = ["STUDIES", "resume_command", "study_at", "study_named", "study_resume"]

_M = "bgsim.experiments."
_R = "bgsim.reports."

STUDIES: tuple[Study, ...] = (
    Study("seat_order", "seat-order", "seat-order study", "seat_order.json", "seat_order.toml",
          spec=_M + "seat_order:load_seat_order", run=_M + "seat_order:run_seat_order",
          read=_M + "seat_order_results:read", contents=_M + "seat_order_results:contents",
          report=_R + "seat_report:report"),
    Study("robustness", "robustness", "robustness study", "robustness.json", "base_seat_order.toml",
          spec=_M + "robustness:load_robustness", run=_M + "robustness:run_robustness",
          read=_M + "robustness:read", contents=_M + "robustness:contents",
          report=_R + "robustness_report:report", resumes_from_copy=False),
    Study("difficulty", "difficulty", "difficulty study", "difficulty.json", "difficulty.toml",
          spec=_M + "difficulty:load_difficulty", run=_M + "difficulty:run_difficulty",
          read=_M + "difficulty:read", contents=_M + "difficulty:contents",
          report=_R + "difficulty_report:report"),
    Study("component_value", "component-value", "component-value study", "component_value.json",
          "component_value.toml", spec=_M + "component_value:load_component_value",
          run=_M + "component_value:run_component_value", read=_M + "component_value:read",
          contents=_M + "component_value:contents",
          report=_R + "component_value_report:report", done="source games and ablation deals played"),
    Study("balance", "balance", "balance study", "balance.json", "balance.toml",
          spec=_M + "balance_spec:load_balance", run=_M + "balance:run_balance",
          read=_M + "balance_results:read", contents=_M + "balance_results:contents",
          report=_R + "balance_report:report"),
    Study("tournament", "tournament", "tournament", "tournament.json", "tournament.toml",
          spec=_M + "tournament:load_tournament", run=_M + "tournament:run_tournament",
          read=_M + "tournament:load_rows", contents=_M + "tournament:contents",
          report=_R + "tournament_report:report", id_key="tournament_id"),
)


def study_named(kind: str) -> Study:
    """The registered study of ``kind``."""
    return next(s for s in STUDIES if s.kind == kind)


def study_at(directory: str | Path) -> Study | None:
    """The kind of study ``directory`` holds, by its marker; None when it holds none."""
    return next((s for s in STUDIES if s.holds(Path(directory))), None)


def study_resume(directory: str | Path) -> tuple[Path, str] | None:
    """(the study directory, the command that finishes it) of the outermost study ``directory`` is or
    belongs to: a run of a study lives in ``<study>/<kind>/<run-id>/``, a seat-order study of a
    robustness study in ``<robustness>/studies/<id>/``. None outside any study."""
    directory = Path(directory)
    found = None
    for candidate in (directory, directory.parent.parent, directory.parent.parent.parent.parent):
        command = resume_command(candidate)
        if command:
            found = candidate, command
    return found


def resume_command(directory: str | Path) -> str | None:
    """The command that finishes the study in ``directory`` (None if it holds none): its command with
    the copy of its spec the study keeps, or SPEC where that copy cannot run it."""
    directory = Path(directory)
    study = study_at(directory)
    if study is None:
        return None
    spec = directory / study.spec_file
    spec = spec if study.resumes_from_copy and spec.is_file() else "SPEC"
    return f"bgsim {study.command} {spec} --out {directory.parent} --resume"
