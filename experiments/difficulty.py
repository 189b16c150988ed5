"""The difficulty study of a game's automa: how hard it is for each rung of a strategy ladder,
how far each difficulty knob moves that, and which knob setting gives each difficulty level's
target win rate, confirmed on fresh deals.

Everything game-specific comes from the game's profile (``profile.automa``: the player count it
plays at, its knobs with their rulebook values and table texts, its score and margin columns, the
default calibration knob); a game without an automa has no difficulty study.

A spec (``experiments/configs/`` has one per automa) names the ladder (rung name = strategy id, weakest
first), the rule parameters, a knob sweep and the calibration. The study plays ordinary runs at the
automa's player count (one row per game, the human's, with the automa's score by source) under
``<dir>/``:

- ``base/<run-id>/``: every rung at the base setting (the rulebook's, unless ``[game.params]``
  changes it): the difficulty experiment;
- ``sweep/<run-id>/``: the sweep's rungs at each listed value of each knob;
- ``calibrate/<run-id>/``: every rung at the values of the calibration knob the solver asks for
  (``sim/stats/calibration.py``: bisection, then outwards while the target stays inside the
  measured interval); the levels of a rung share these runs;
- ``verify/<run-id>/``: every rung at each level's solved value, on fresh deals (seed + 1).

Every run except the verification shares the seed, so game ``i`` is the same deal under every
setting (common random numbers). ``difficulty.json`` records the runs, the levels and the status;
``--resume`` finishes an interrupted study without replaying a finished run, and the solver, being
deterministic, asks again for exactly the runs it asked for before.
"""

from collections.abc import Callable
from pathlib import Path

import polars as pl
from bgsim.experiments.difficulty_spec import (
    DifficultySpec,
    Setting,
    at_the_table,
    automa_of_knob,
    check_settings,
    difficulty_from_dict,
    game_automa,
    load_difficulty,
    search_range,
)
from bgsim.experiments.runner import check_jobs
from bgsim.experiments.studies import resume_command, study_named, study_resume
from bgsim.experiments.study import Session, StudyResult, open_session
from bgsim.sim.profile import AutomaProfile, GameProfile
from bgsim.sim.registry import available_games, parse_id
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.results.played import played_by
from bgsim.sim.results.progress import runs_done
from bgsim.sim.results.store import RunStoreError, load, read_meta, read_profile, scan_chunks, verify_runs
from bgsim.sim.stats.calibration import slope_near, solve_level
from bgsim.sim.stats.lazy import is_empty

__all__ = ["STUDY", "DifficultySpec", "at_the_table", "contents", "difficulty_from_dict", "game_automa", "knob_doc",
           "load_difficulty", "load_rows", "read", "read_study", "row_columns", "run_difficulty", "search_range",
           "study_automa"]

STUDY = study_named("difficulty")
ProgressCallback = Callable[[int, int], None]


def study_automa(directory: str | Path) -> AutomaProfile:
    """The automa of a difficulty study, from the profile its first run stored."""
    return study_profile(directory).automa


def study_profile(directory: str | Path) -> GameProfile:
    """The game profile of a difficulty study, as its first run stored it (``meta.json``)."""
    directory = Path(directory)
    meta = read_study(directory, partial=True)
    if not meta.get("runs"):
        raise RunStoreError(f"{directory.name}: no run of the study is finished yet")
    return read_profile(directory / meta["runs"][0]["dir"])


# --- running


class _Study:
    """The running study: plays its settings through the session and keeps each run in the marker."""

    def __init__(self, spec: DifficultySpec, session: Session):
        self.spec, self.session = spec, session
        self.runs = {entry["dir"]: entry for entry in session.meta.get("runs", [])}

    def play(self, setting: Setting) -> tuple[int, int]:
        """Play ``setting`` (or find it complete); returns the human's (wins, games)."""
        session = self.session
        session.play(setting.spec, setting.directory)
        session.total = max(session.total, session.done)
        if setting.directory not in self.runs:
            self.runs[setting.directory] = setting.entry()
            session.meta["runs"] = list(self.runs.values())
            session.save()
        won = load(session.directory / setting.directory).select(
            pl.col("won").sum().alias("wins"), pl.len().alias("games")).collect(engine="streaming")
        return int(won["wins"][0]), int(won["games"][0])

    def calibrate(self, rung: str) -> list[dict]:
        """Solve every level of ``rung`` over the calibration knob (shared runs), then confirm each
        solved value on fresh deals."""
        spec = self.spec
        estimate = spec.calibration_estimate(rung)
        started = self.session.done
        cache: dict[int, tuple[int, int]] = {}

        def evaluate(value: int) -> tuple[int, int]:
            if value not in cache:
                cache[value] = self.play(spec.setting("calibrate", rung, spec.knob, value))
            return cache[value]

        levels = []
        for level, target in spec.levels.items():
            solved = solve_level(evaluate, spec.knob_values(rung), float(target))
            entry = {"rung": rung, "strategy": spec.ladder[rung], "level": level, "target": float(target),
                     "knob": spec.knob, "value": solved.knob, "value_low": solved.knob_low,
                     "value_high": solved.knob_high, "reachable": solved.reachable, "wins": None, "games": None,
                     "rate": solved.rate, "rate_low": solved.rate_low, "rate_high": solved.rate_high,
                     "slope": slope_near(solved), "step": spec.step_for.get(rung, spec.step)}
            row = solved.measured[solved.measured["knob"] == solved.knob].iloc[0]
            entry["wins"], entry["games"] = int(row["wins"]), int(row["games"])
            levels.append(entry)
        self.session.total += (self.session.done - started) - estimate  # the estimate replaced by what it took
        if spec.verify_games:
            for entry in levels:
                setting = spec.setting("verify", rung, spec.knob, entry["value"], level=entry["level"])
                wins, games = self.play(setting)
                entry.update(verify_dir=setting.directory, verify_wins=wins, verify_games=games)
        return levels


def run_difficulty(spec: DifficultySpec, out: str | Path = "runs", jobs: int = 1, resume: bool = False,
                   on_progress: ProgressCallback | None = None, on_stage: Callable[[str], None] | None = None,
                   directory: Path | None = None) -> StudyResult:
    """Play the base, sweep, calibration and verification runs into ``out/<study id>/``."""
    check_jobs(jobs)
    check_settings(spec)
    directory = Path(directory) if directory else Path(out) / spec.study_id
    with open_session(STUDY, spec.study_id, spec.to_dict(), directory, resume, jobs, spec.total_games,
                      lambda: _fresh_meta(spec), on_progress, on_stage) as session:
        session.meta["tolerance"] = {"rate_pp": spec.tolerance.rate_pp}
        study = _Study(spec, session)
        session.stage(f"difficulty: {len(spec.ladder)} rungs against {spec.automa.name} at the base setting")
        for setting in spec.base_settings():
            study.play(setting)
        if spec.sweep_settings():
            session.stage(f"sweep: {', '.join(spec.sweep_values)} for {', '.join(spec.sweep_rungs)}")
            for setting in spec.sweep_settings():
                study.play(setting)
        levels = []
        for rung in spec.ladder:
            session.stage(f"calibration: {spec.knob} for {rung}, levels {', '.join(spec.levels)}"
                          + (", each confirmed on fresh deals" if spec.verify_games else ""))
            levels += study.calibrate(rung)
            session.meta["levels"] = levels
            session.save()
    return session.result()


def _fresh_meta(spec: DifficultySpec) -> dict:
    return {"name": spec.name, "seed": spec.seed, "ladder": dict(spec.ladder), "knob": spec.knob,
            "levels_wanted": dict(spec.levels), "params": dict(spec.params), "runs": [], "levels": []}


# --- reading results


def read_study(directory: str | Path, partial: bool = False) -> dict:
    """The marker of a finished study (a one-line RunStoreError otherwise); with ``partial``, of an
    unfinished one too (its ``runs`` list the runs finished so far)."""
    directory = Path(directory)
    meta = read_meta(directory, STUDY.marker, STUDY.noun)
    if meta.get("status") != "complete" and not partial:
        raise RunStoreError(f"{directory.name}: the difficulty study is {meta.get('status')}; finish it with --resume")
    return meta


def read(directory: str | Path) -> pl.LazyFrame:
    """Every run of a finished study (``bgsim.load``), one row per game, labelled ``kind``, ``rung``,
    ``knob``, ``value`` and ``level``."""
    read_study(directory)  # a one-line error unless the study is finished
    return load_rows(directory, None)


def contents(directory: str | Path) -> StudyContents:
    """What the difficulty report reads (``reports.difficulty_report.report``): the rows of the base,
    sweep and calibration runs, and each knob's one-line description."""
    directory = Path(directory)
    meta = read_study(directory, partial=True)
    command = resume_command(directory)
    base = load_rows(directory, "base")
    if is_empty(base):
        raise RunStoreError(f"{directory}: no base run is finished yet; run `{command}` to play them")
    profile = read_profile(directory / meta["runs"][0]["dir"])
    runs, planned = study_progress(directory)
    docs = {k.parameter: knob_doc(k.parameter, profile.game) for k in profile.automa.knobs}
    # the game as the base runs played it: the sweep and the calibration change only the knobs the report names
    played = played_by([directory / r["dir"] for r in meta["runs"] if r["kind"] == "base"],
                       directory / STUDY.spec_file)
    parts = {"base": base, "sweep": load_rows(directory, "sweep"), "calibrate": load_rows(directory, "calibrate"),
             "knob_docs": docs}
    return StudyContents(STUDY.kind, meta, profile, runs_done(runs), planned, command, played, parts)


def study_progress(directory: str | Path) -> tuple[list[Path], int]:
    """(every run directory begun so far, the games the study plans: an estimate, since the calibration's
    share depends on where the levels lie)."""
    directory = Path(directory)
    started = sorted(p.parent for p in directory.glob("*/*/spec.toml"))
    return started, load_difficulty(directory / STUDY.spec_file).total_games


def load_rows(directory: str | Path, kind: str | None) -> pl.LazyFrame:
    """Rows of every run of ``kind`` (base, sweep, calibrate or verify), labelled with rung, knob,
    value and level; one row per game (the human's, with the automa's score by source). ``kind``
    None: the runs of every kind, each row labelled with its ``kind`` too (``bgsim.load``). A
    LazyFrame over the runs' chunks (no column, if the study has no such run yet): the tables
    aggregate it without ever holding the rows. Every run of the study is checked against its chunk
    hashes first, so one error names every damaged chunk."""
    directory = Path(directory)
    meta = read_study(directory, partial=True)
    every = [entry["dir"] for entry in meta["runs"]]
    files = dict(zip(every, verify_runs((directory / d for d in every), study_resume(directory)),
                     strict=True))
    frames = []
    for entry in meta["runs"]:
        if kind is not None and entry["kind"] != kind:
            continue
        columns = row_columns(read_profile(directory / entry["dir"]))
        frame = scan_chunks(directory / entry["dir"], files[entry["dir"]]).select(columns)
        labels = [pl.lit(entry["rung"]).alias("rung"), pl.lit(entry["knob"], pl.Utf8).alias("knob"),
                  pl.lit(entry["value"], pl.Int64).alias("value"), pl.lit(entry["level"], pl.Utf8).alias("level")]
        if kind is None:
            labels.append(pl.lit(entry["kind"]).alias("kind"))
        frames.append(frame.with_columns(*labels))
    if not frames:
        return pl.LazyFrame()
    return pl.concat(frames, how="vertical_relaxed")


def row_columns(profile: GameProfile) -> tuple[str, ...]:
    """The columns of a difficulty row: the human's outcome, the automa's score, margin and score by
    source, the human's score by category and, if the game has one, its compensation value."""
    automa = profile.automa
    comp = (profile.compensation.column,) if profile.compensation else ()
    return ("game_index", "strategy", profile.score_column, "won", "tie", automa.score_column,
            automa.margin_column, *automa.category_columns.values(), *profile.category_columns, *comp)


def knob_doc(knob: str, game: str | None = None) -> str:
    """The knob's one-line description (the registry's parameter docs of ``game``, by default the
    listed game whose automa has the knob), without a 'difficulty knob:' prefix."""
    name = parse_id(game)[0] if game else automa_of_knob(knob)[0]
    docs = available_games(unlisted=True)[name].parameter_docs or {}
    return docs.get(knob, game_automa(name).knob(knob).label).removeprefix("difficulty knob: ")
