"""``bgsim difficulty`` and ``bgsim calibrate``: how hard a game's automa is, and the knob setting
that gives a chosen win rate. Registered on the main command line (bgsim/cli/)."""

from typing import Annotated

import typer
from rich.table import Table

from bgsim.cli.common import JobsOpt, OutOpt, QuietOpt, SeedOpt, app, default_game, out
from bgsim.cli.studies import NoReportOpt, ResumeOpt, run_study
from bgsim.sim.errors import BgsimError


@app.command()
def difficulty(
    spec_path: Annotated[str, typer.Argument(metavar="SPEC", help="Difficulty spec TOML file.")],
    jobs: JobsOpt = 1,
    out_dir: OutOpt = "runs",
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
    no_report: NoReportOpt = False,
) -> None:
    """Against the game's automa: each rung of a strategy ladder at the base setting, a sweep of the
    difficulty knobs, and the knob value of every difficulty level, confirmed on fresh deals;
    then the report (DIR/report/index.html)."""
    _run_and_print(spec_path, out_dir, jobs, resume, quiet, no_report)


@app.command()
def calibrate(
    strategy: Annotated[str, typer.Argument(help="Strategy id of the human, e.g. planner.")],
    target: Annotated[float, typer.Option("--target", help="Target win rate of the human, in percent.")] = 50.0,
    knob: Annotated[str | None, typer.Option("--knob", help="Difficulty knob of the game's automa (default: its "
                                                            "calibration knob; `bgsim games` lists them).")] = None,
    low: Annotated[int | None, typer.Option("--low", help="Lowest knob value to try (default by knob).")] = None,
    high: Annotated[int | None, typer.Option("--high", help="Highest knob value to try (default by knob).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per knob value tried.", min=1)] = 10000,
    game_id: Annotated[str | None, typer.Option("--game", help="Game id with rule parameters, of a game with an "
                                                               "automa (default: the first game `bgsim games` "
                                                               "lists).")] = None,
    verify_games: Annotated[int, typer.Option("--verify-games", help="Games on fresh deals at the solution "
                                              "(0 = no check).", min=0)] = 10000,
    seed: SeedOpt = 1,
    jobs: JobsOpt = 1,
    out_dir: OutOpt = "runs",
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """The value of one difficulty knob at which STRATEGY wins TARGET % of its games against the
    game's automa, with the interval of values that fit, checked on fresh deals."""
    from bgsim.experiments.difficulty import DifficultySpec, game_automa, search_range
    from bgsim.sim.registry import parse_id
    from bgsim.sim.results.spec import SpecError

    if not 0 < target < 100:
        raise BgsimError(f"--target is a win rate in percent between 0 and 100, not {target:g}")
    name, params = parse_id(game_id or default_game())
    params.pop("n_players", None)
    automa = game_automa(name)
    knobs = [k.parameter for k in automa.knobs]
    knob = knob or automa.calibration_knob or knobs[0]
    if knob not in knobs:
        raise BgsimError(f"--knob must be one of {', '.join(knobs)}, not {knob!r}")
    default_low, default_high = search_range(automa.knob(knob))
    try:
        spec = DifficultySpec(name="calibrate", game=name, ladder={strategy: strategy}, games=games, seed=seed,
                              chunk_size=min(1000, games), knob=knob,
                              low=default_low if low is None else low, high=default_high if high is None else high,
                              calibration_games=games, verify_games=verify_games,
                              levels={f"{target:g} %": target / 100}, params=params)
    except SpecError as exc:
        raise BgsimError(str(exc).replace("calibration.low and high", "--low and --high")) from None
    _run_and_print(spec, out_dir, jobs, resume, quiet, no_report=True)




def _run_and_print(spec, out_dir: str, jobs: int, resume: bool, quiet: bool, no_report: bool) -> None:
    run_study("difficulty", spec, out_dir, jobs, resume, quiet, no_report, summary=_print_levels)


def _print_levels(directory) -> None:
    from bgsim.experiments.difficulty import at_the_table, read_study, study_automa
    from bgsim.sim.stats.difficulty import levels_table

    meta = read_study(directory)
    automa = study_automa(directory)
    from bgsim.reports.difficulty_report import level_tolerance

    levels = levels_table(meta["levels"], tolerance=level_tolerance(meta))
    table = Table(title=f"Difficulty levels: {meta['knob']} (win rates in %, 95 % intervals)")
    for col in ("rung", "level", "target", "value [interval]", "at the table", "win rate", "fresh deals"):
        table.add_column(col)
    for r in levels.itertuples():
        span = f"[{r.value_low:+d}, {r.value_high:+d}]" + ("" if r.reachable else " out of range")
        fresh = "-"
        if "verify_rate" in levels:
            fresh = (f"{100 * r.verify_rate:.1f} [{100 * r.verify_rate_low:.1f}, {100 * r.verify_rate_high:.1f}]"
                     + ("" if r.outcome == "held" else f" {r.outcome}"))
        table.add_row(r.rung, r.level, f"{100 * r.target:.0f}", f"{r.value:+d} {span}",
                      at_the_table(meta["knob"], int(r.value), automa),
                      f"{100 * r.rate:.1f} [{100 * r.rate_low:.1f}, {100 * r.rate_high:.1f}]", fresh)
    out.print(table)
