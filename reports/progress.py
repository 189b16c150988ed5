"""The warning a report of unfinished results carries at its top (the counting is ``sim.results.progress``)."""

from bgsim.reports.report_builder import Report

__all__ = ["progress_warning"]


def progress_warning(rep: Report, done: int, planned: int, finish: str, what: str = "run",
                     estimate: bool = False) -> None:
    """The warning at the top of the report of an unfinished run or study; nothing once it is finished.
    ``estimate``: the planned games are an estimate (a study whose later runs depend on its answers)."""
    if done >= planned and not estimate:
        return
    share = f" ({done / planned:.0%})" if planned and done < planned else ""
    of = f"about {planned:,}" if estimate else f"{planned:,}"
    rep.warning(f"These results are incomplete: {done:,} of {of} planned games{share} are played. Every figure "
                f"below comes from the games played so far. Finish the {what} with `{finish}`, then write this "
                f"report again.")
