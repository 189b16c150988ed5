"""``bgsim seat-order``, ``bgsim robustness``, ``bgsim report`` and ``bgsim plan``: the designer
studies and their reports. Registered on the main command line (bgsim/cli/)."""

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from bgsim.cli.common import JobsOpt, OutOpt, QuietOpt, _games_progress, app, err, out
from bgsim.experiments.destinations import check_writable
from bgsim.experiments.studies import STUDIES
from bgsim.sim.errors import BgsimError

ResumeOpt = Annotated[bool, typer.Option("--resume", help="Keep every finished chunk and run only what is missing.")]
NoReportOpt = Annotated[bool, typer.Option("--no-report", help="Do not write the report at the end.")]


@app.command("seat-order")
def seat_order(
    spec_path: Annotated[str, typer.Argument(metavar="SPEC", help="Seat-order spec TOML file.")],
    jobs: JobsOpt = 1,
    out_dir: OutOpt = "runs",
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
    no_report: NoReportOpt = False,
) -> None:
    """Seat balance per player count, population and start vector; the compensating start vector,
    confirmed on fresh deals; then the report (DIR/report/index.html)."""
    run_study("seat_order", spec_path, out_dir, jobs, resume, quiet, no_report)


@app.command()
def robustness(
    spec_path: Annotated[str, typer.Argument(metavar="SPEC", help="Robustness spec TOML file.")],
    jobs: JobsOpt = 1,
    out_dir: OutOpt = "runs",
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
    no_report: NoReportOpt = False,
) -> None:
    """The seat-order study again under each reconstructed-component variant; the report says which
    conclusions hold and which flip."""
    run_study("robustness", spec_path, out_dir, jobs, resume, quiet, no_report)


@app.command()
def report(
    run_dir: Annotated[str, typer.Argument(metavar="RUN_DIR", help="A run, or a study: " + ", ".join(
        s.noun for s in STUDIES) + ".")],
    out_dir: Annotated[str | None, typer.Option("--out", help="Report directory (default RUN_DIR/report).")] = None,
) -> None:
    """Write RUN_DIR/report/: index.html (self-contained), index.md, figures and the tables as CSV."""
    if Path(run_dir).is_dir():  # otherwise the report says what RUN_DIR is not
        check_writable(out_dir or Path(run_dir) / "report", "report directory")
    _write_report(Path(run_dir), out_dir)


@app.command()
def plan(
    players: Annotated[int, typer.Option("--players", "-p", help="Player count.")] = 4,
    precision: Annotated[float, typer.Option("--precision", help="Half-width of the 95 % interval, in "
                                                                 "percentage points.")] = 1.0,
    rate: Annotated[float | None, typer.Option("--rate", help="Expected win rate in percent, e.g. 25 (default: "
                                                              "the fair share 100/players).")] = None,
    tolerance: Annotated[float | None, typer.Option("--tolerance", help="Also: games for every seat to be shown "
                                                                        "within +-TOLERANCE pp of its fair share "
                                                                        "(two one-sided tests, all seats at once).")]
    = None,
    power: Annotated[float, typer.Option("--power", help="With --tolerance: the chance that seats truly even are "
                                                         "shown so.")] = 0.8,
    design_effect: Annotated[float, typer.Option("--design-effect", help="With --tolerance: how much a deal's "
                                                                         "games move together (1 for self-play; a "
                                                                         "mixed table's seat report shows games "
                                                                         "over effective games).")] = 1.0,
) -> None:
    """Games needed for a 95 % interval of +-PRECISION pp on one seat's win rate; with --tolerance, the
    games a seat-order confirmation plans to show every seat within it."""
    from bgsim.sim.stats.seats import games_needed

    if rate is not None and not 0 < rate < 100:
        raise BgsimError(f"--rate is a win rate in percent between 0 and 100 (25 = 25 %), not {rate:g}")
    p = 1 / players if rate is None else rate / 100
    try:
        games = games_needed(players, precision, p)
        worst = games_needed(players, precision, 0.5)
    except ValueError as exc:
        raise BgsimError(str(exc)) from None
    out.print(f"{games:,} games for +-{precision:g} pp on a seat win rate near {100 * p:.3g} % at {players} players "
              f"(95 % interval); {worst:,} if the rate could be as far off as 50 %.", highlight=False)
    if rate is not None and rate < 1:
        out.print(f"(--rate is in percent: {rate:g} means {rate:g} %, not {100 * rate:g} %)", highlight=False)
    if tolerance is not None:
        from bgsim.sim.stats.equivalence import Tolerance, plan_seat_games

        if not tolerance > 0 or not 0.5 <= power < 1:
            raise BgsimError(f"--tolerance must be a positive number of percentage points and --power at least 0.5 "
                             f"and below 1, not {tolerance:g} and {power:g}")
        wanted = Tolerance(seat_pp=tolerance, power=power)
        if design_effect < 1:
            raise BgsimError(f"--design-effect is at least 1, not {design_effect:g}")
        games = plan_seat_games(players, wanted, design_effect)
        effect = f", design effect {design_effect:g}" if design_effect > 1 else ""
        out.print(f"{games:,} games for every seat to be shown within +-{tolerance:g} pp of its fair share at "
                  f"{players} players, with {100 * power:.0f} % power when the seats are even (two one-sided tests "
                  f"at 5 %, all seats at once{effect}).", highlight=False)


def run_study(kind: str, spec, out_dir: str, jobs: int, resume: bool, quiet: bool, no_report: bool,
              summary=None, **options) -> None:
    """Run the registered study of ``kind`` (``experiments.studies``) from ``spec`` (a spec, or the path
    of its file) under a progress bar, after checking where it writes; then ``summary(directory)`` if
    given, a line of what this session played, and the report. ``options`` go to the study's run."""
    from bgsim.experiments.studies import study_named

    study = study_named(kind)
    if isinstance(spec, str | Path):
        spec = study.part("spec")(spec)
    check_study_destinations(Path(out_dir) / spec.study_id, no_report)
    with _games_progress(spec.study_id, spec.total_games, quiet, "study", spec.game) as update:
        result = study.part("run")(spec, out=out_dir, jobs=jobs, resume=resume, on_progress=update,
                                   on_stage=None if quiet else lambda text: err.print(text, highlight=False),
                                   **options)
    if summary is not None:
        summary(result.directory)
    out.print(f"{result.directory}: {result.games_played:,} {study.done} now in {result.seconds:.0f} s",
              highlight=False)
    if not no_report:
        _write_report(result.directory, None)


def check_study_destinations(directory: Path, no_report: bool) -> None:
    """A study's folder and, unless ``no_report``, its report folder inside it must be writable."""
    check_writable(directory, "study directory")
    if not no_report:
        check_writable(directory / "report", "report directory")


def _write_report(directory: Path, out_dir: str | None) -> None:
    from bgsim.report import write_report

    with err.status(f"writing the report of {directory.name} ..."):
        path, seats = write_report(directory, out_dir)
    if seats is not None:
        _print_seats(seats)
    out.print(f"report: {path}", highlight=False)


def _print_seats(seats) -> None:
    """A short seat table: one row per player count, population and start vector, a seat a line."""
    from bgsim.reports.report_builder import fmt_rate  # loaded already: the report was just written

    table = Table(title="Seat win rates in %, 95 % intervals (seat 1 = start player)")
    for col in ("players", "population", "start"):
        table.add_column(col)
    table.add_column("seat: win rate [95 % CI]", no_wrap=True)  # one seat a line: an interval is never split
    table.add_column("off its share", no_wrap=True)  # above or below it (q < 0.05), beside its seat
    for (n, pop, start), part in seats.groupby(["n_players", "population", "start"], sort=True):
        part = part.sort_values("seat")
        rates = "\n".join(f"{r.seat + 1}: {fmt_rate(r.win_rate, r.win_rate_low, r.win_rate_high).replace(' %', '')}"
                           for r in part.itertuples())
        off = "\n".join("above" if r.favoured > 0 else "below" if r.favoured < 0 else "" for r in part.itertuples())
        table.add_row(str(n), pop, start, rates, off)
    out.print(table)
