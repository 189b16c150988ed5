"""``bgsim component-value``: what each component is worth when a seat picks it, by intervention,
and the payout at which it would be even. Registered on the main command line (bgsim/cli/)."""

from pathlib import Path
from typing import Annotated

import pandas as pd
import typer
from rich.table import Table

from bgsim.cli.common import JobsOpt, OutOpt, QuietOpt, app, out
from bgsim.cli.studies import NoReportOpt, ResumeOpt, run_study

SHOWN = 8  # components per player count in the summary table


@app.command("component-value")
def component_value(
    spec_path: Annotated[str, typer.Argument(metavar="SPEC", help="Component-value spec TOML file.")],
    jobs: JobsOpt = 1,
    out_dir: OutOpt = "runs",
    resume: ResumeOpt = False,
    quiet: QuietOpt = False,
    no_report: NoReportOpt = False,
) -> None:
    """Each component's choice value (taking it against the other components on offer, on the same
    chance), the payout at which it would be even, checked within its tolerance on fresh games; then
    the report (DIR/report/index.html)."""
    run_study("component_value", spec_path, out_dir, jobs, resume, quiet, no_report, summary=_print_values)


def _print_values(directory: Path) -> None:
    """The components furthest from even per player count: value in pp with its interval, and the payout."""
    from bgsim.experiments.studies import study_named

    parts = study_named("component_value").part("contents")(directory).parts
    values, solved = parts["values"], parts["payouts"]
    table = Table(title="Choice values, pp of win share (95 % intervals); payout now -> even at")
    for col in ("players", "component", "value", "q", "payout"):
        table.add_column(col)
    values = values[values["q"].notna()]  # components with enough points for an interval
    if values.empty:
        out.print("No component was on offer at enough decision points for an interval yet: sample more games.",
                  highlight=False)
        return
    for n, part in values.groupby("n_players", sort=True):
        part = part.reindex(part["win"].abs().sort_values(ascending=False).index).head(SHOWN)
        for r in part.itertuples():
            payout = "-"
            if not solved.empty:
                hit = solved[(solved["n_players"] == n) & (solved["component"] == r.component)]
                if len(hit):
                    h = hit.iloc[0]
                    payout = f"{h.payout_now} -> {h.payout}" if h.reachable else f"{h.payout_now} -> out of range"
            interval = "" if pd.isna(r.win_low) else f" [{100 * r.win_low:+.1f}, {100 * r.win_high:+.1f}]"
            q = "-" if pd.isna(r.q) else f"{r.q:.2g}"
            table.add_row(str(n), str(r.id), f"{100 * r.win:+.1f}{interval}", q, payout)
    out.print(table)
