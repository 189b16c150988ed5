"""``bgsim balance``: the rule and component values that best meet a designer's objective, found by
a seeded Optuna search on paired deals and confirmed on fresh ones. Registered on the main command
line (bgsim/cli/)."""

from pathlib import Path
from typing import Annotated

import pandas as pd
import typer
from rich.table import Table

from bgsim.cli.common import JobsOpt, OutOpt, QuietOpt, SchedulerOpt, app, out
from bgsim.cli.studies import NoReportOpt, ResumeOpt, run_study


@app.command()
def balance(
    spec_path: Annotated[str, typer.Argument(metavar="SPEC", help="Balance spec TOML file.")],
    jobs: JobsOpt = 1,
    out_dir: OutOpt = "runs",
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
    no_report: NoReportOpt = False,
    scheduler: SchedulerOpt = None,
) -> None:
    """Search the spec's levers for the design that best meets its measures' targets, on the same
    deals for every candidate; confirm the finalists on fresh deals; then the report."""
    from bgsim.experiments.balance_spec import load_balance
    from bgsim.experiments.runner import _dask_client

    spec = load_balance(spec_path)
    client = _dask_client(scheduler) if scheduler else None
    try:
        run_study("balance", spec, out_dir, jobs, resume, quiet, no_report, summary=_print_finalists, client=client)
    finally:
        if client is not None:
            client.close()


def _print_finalists(directory: Path) -> None:
    """The rulebook and each finalist on fresh deals: objective, against the rulebook, whether it meets
    its targets within the tolerance and how many lever values it changes; then each design's levers
    and its measures in the report's units (win rates in %, seat imbalance in pp²)."""
    from bgsim.experiments.balance_results import read_finalists
    from bgsim.reports.balance_report import finalist_measures

    rows = read_finalists(directory)
    if rows.empty:
        return
    table = Table(title="Finalists on fresh deals (objective: lower is better)")
    for col in ("design", "objective", "vs rulebook [95 %]", "targets", "changes"):
        table.add_column(col)
    levers = [c for c in rows.columns if c.startswith("lever:")]
    rulebook = rows.iloc[0]
    for r in rows.to_dict(orient="records"):
        diff = "-" if r["design"] == "rulebook" else (f"{r['vs_rulebook']:+.3g} [{r['vs_rulebook_low']:+.3g}, "
                                                      f"{r['vs_rulebook_high']:+.3g}]")
        outcome = r.get("outcome")
        changes = sum(r[c] != rulebook[c] for c in levers)
        table.add_row(r["design"], f"{r['objective']:.3g}", diff, "-" if pd.isna(outcome) else str(outcome),
                      str(changes))
    out.print(table)
    for (_, row), r in zip(rows.iterrows(), rows.to_dict(orient="records"), strict=True):
        # the levers and measures below: a design has too many for a column
        out.print(f"{r['design']}: " + ", ".join(f"{c[6:]} = {r[c]}" for c in levers), highlight=False)
        out.print("  " + "; ".join(f"{label} {text}" for label, text in finalist_measures(row)), highlight=False)
