"""``bgsim report DIR``: find out what DIR holds and write its report to DIR/report/ (or ``out``)."""

from pathlib import Path

import pandas as pd
from bgsim.sim.errors import BgsimError
from bgsim.sim.results.store import RunStoreError

__all__ = ["write_report"]


def write_report(directory: str | Path, out: str | Path | None = None) -> tuple[Path, pd.DataFrame | None]:
    """The report's directory and, for seat analyses, the seat table (for a short summary)."""
    directory = Path(directory)
    target = Path(out) if out else directory / "report"
    if (directory / "robustness.json").exists():
        from bgsim.reports.robustness_report import build_robustness_report

        report, seats = build_robustness_report(directory)
    elif (directory / "difficulty.json").exists():
        from bgsim.reports.anna_report import build_difficulty_report

        report, seats = build_difficulty_report(directory), None
    elif (directory / "seat_order.json").exists():
        from bgsim.reports.seat_report import build_seat_order_report

        report, seats = build_seat_order_report(directory)
    elif (directory / "meta.json").exists():
        from bgsim.reports.run_report import build_run_report

        report, seats = build_run_report(directory)
    elif (directory / "tournament.json").exists():
        raise BgsimError(f"{directory} is a tournament: its report comes from `bgsim tournament SPEC --report DIR`")
    elif not directory.is_dir():
        raise RunStoreError(f"{directory} does not exist")
    else:
        raise RunStoreError(f"{directory} is not a run, seat-order, robustness or difficulty directory (no "
                            f"meta.json, seat_order.json, robustness.json or difficulty.json)")
    return report.write(target), seats
