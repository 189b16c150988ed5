"""``bgsim train``: an expert player fitted to the search and chosen by games played (experiments.train).
Registered on the main command line (bgsim/cli/)."""

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from bgsim.cli.common import JobsOpt, OutOpt, QuietOpt, _games_progress, app, err, out
from bgsim.cli.studies import ResumeOpt


@app.command()
def train(
    spec_path: Annotated[str, typer.Argument(metavar="SPEC", help="Training spec TOML file.")],
    jobs: JobsOpt = 1,
    out_dir: OutOpt = "runs",
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Fit an expert to the search's decisions, round by round with the best expert inside the
    search, each candidate chosen by games on shared deals; writes DIR/expert.toml, a weights file
    a study names as expert(file='DIR/expert.toml')."""
    from bgsim.experiments.destinations import check_writable
    from bgsim.experiments.runner import check_jobs
    from bgsim.experiments.train import run_train
    from bgsim.experiments.train_spec import load_train

    spec = load_train(spec_path)
    check_jobs(jobs)
    check_writable(Path(out_dir) / spec.train_id, "training directory")
    with _games_progress(spec.train_id, 0, quiet, "training", spec.game) as update:
        result = run_train(spec, out_dir, jobs, resume, on_progress=update,
                           on_stage=None if quiet else lambda text: err.print(text, highlight=False))
    _print_rounds(result.rounds)
    out.print(f"{result.directory}: {result.games_played:,} search games now in {result.seconds:.0f} s",
              highlight=False)
    out.print(f"expert: {result.directory / 'expert.toml'}", highlight=False)


def _print_rounds(rounds: list[dict]) -> None:
    table = Table(title="Candidates per round: win rate in %, 95 % interval", title_justify="left")
    for name in ("round", "fit", "vs best so far", "vs start", "kept"):
        table.add_column(name, no_wrap=True)
    for summary in rounds:
        for row in summary["candidates"]:
            table.add_row(str(summary["round"]), row["label"], _rate(row["against_best"]), _rate(row["against_start"]),
                          "yes" if row["label"] == summary["kept"] else "")
    out.print(table)


def _rate(match: dict) -> str:
    return f"{100 * match['win_rate']:.1f} [{100 * match['low']:.1f}, {100 * match['high']:.1f}]"
