"""The ``bgsim`` command line: the Typer app, the options several commands share, the progress bar
and ``main``, which turns every error into one line. The commands live beside this module.

Bad input (unknown game, parameter, strategy, player count, broken data file, bad option) and
every operating-system error (a folder that cannot be written, a file that cannot be read) print
one line ``bgsim: error: ...`` on stderr and exit with status 2. Every command checks that its
destinations can be written before it plays a single game.
"""

import contextlib
import os
import sys
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from bgsim.experiments.destinations import os_error_text
from bgsim.sim.errors import BgsimError
from bgsim.sim.numba_cache import cache_is_cold
from bgsim.sim.registry import make_game, parse_id

app = typer.Typer(
    name="bgsim",
    help="Monte Carlo balance lab for Euro board games.",
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
)


def _piped_width(environ=os.environ) -> int:
    """The width of piped output: ``COLUMNS`` when set, else 120, so tables are not wrapped at 80."""
    columns = environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else 120


out = Console(width=None if sys.stdout.isatty() else _piped_width())
err = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="Game id: a name from `bgsim games`, optionally with parameters, "
                                              "e.g. 'carpe_diem(n_players=3)'.")]
PlayersOpt = Annotated[int | None, typer.Option("--players", "-p", help="Player count (overrides the id).")]
StrategiesOpt = Annotated[
    str, typer.Option("--strategies", "-s", help="Comma-separated strategy ids, one per seat, or one for all seats.")
]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed (non-negative integer).", min=0)]


def default_game() -> str:
    """The game a command plays when none is named: the first one ``bgsim games`` lists."""
    from bgsim.sim.registry import available_games

    return next(iter(available_games()))


def _game(game_id: str, players: int | None):
    overrides = {} if players is None else {"n_players": players}
    return make_game(game_id, **overrides)


def _strategy_ids(text: str, n_players: int) -> list[str]:
    ids = [part.strip() for part in _split_top_level(text) if part.strip()]
    if len(ids) == 1:
        ids = ids * n_players
    if len(ids) != n_players:
        raise BgsimError(f"--strategies lists {len(ids)} strategies for {n_players} seats")
    return ids


JobsOpt = Annotated[int, typer.Option("--jobs", "-j", help="Worker processes (-1 = one per core).")]
OutOpt = Annotated[str, typer.Option("--out", help="Directory that holds the run directories.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
SchedulerOpt = Annotated[
    str | None, typer.Option("--scheduler", help="Run the chunks on a Dask cluster, e.g. tcp://10.0.0.5:8786.")
]


COMPILING = "compiling the engine once (a few minutes) ..."
INTERRUPTED = 130  # the exit status of a Ctrl-C (128 + SIGINT)
LOG_EVERY = 15.0  # seconds between progress lines when stderr is a log, not a terminal


@contextlib.contextmanager
def _games_progress(label: str, total: int, quiet: bool, what: str, game_id: str | None = None):
    """A Rich bar on stderr (games, games/s, ETA); yields the ``on_progress(done, total)``
    callback. Ctrl-C stops cleanly: finished chunks are on disk, ``--resume`` completes ``what``.
    A cold engine cache (of ``game_id``'s game, else of any game) is named above the bar, which would
    otherwise sit at 0 games without a word for the minute numba takes to compile."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]} games/s"), TimeElapsedColumn(), TextColumn("ETA"),
               TimeRemainingColumn())
    cold = not quiet and cache_is_cold(parse_id(game_id)[0] if game_id else None)
    if cold:
        err.print(COMPILING, highlight=False)
    # A log, or a terminal that cannot move its cursor (TERM=dumb), gets a line now and then instead
    # of a bar: there a bar never shows, and taking it down leaves a blank line above any error.
    lines = not quiet and (not err.is_terminal or err.is_dumb_terminal)
    with Progress(*columns, console=err, disable=quiet or lines, transient=True) as progress:
        task = progress.add_task(label, total=total, rate="-")
        first = {}
        last_line = {"time": time.perf_counter()}

        def update(done: int, total: int) -> None:
            if cold and "done" in first and done > first["done"] and not first.get("compiled"):
                first.update(done=done, time=time.perf_counter(), compiled=True)  # games/s without the compiling
            first.setdefault("done", done)
            first.setdefault("time", time.perf_counter())
            now = time.perf_counter()
            elapsed = now - first["time"]
            rate = (done - first["done"]) / elapsed if elapsed > 0 else 0.0
            progress.update(task, completed=done, total=total, rate=f"{rate:,.0f}" if rate else "-")
            if lines and (done >= total or now - last_line["time"] >= LOG_EVERY):
                last_line["time"] = now
                share = f" ({100 * done / total:.0f} %)" if total else ""
                speed = f", {rate:,.0f} games/s" if rate else ""
                err.print(f"{label}: {done:,} of {total:,} games{share}{speed}", highlight=False)

        try:
            yield update
        except KeyboardInterrupt:
            progress.stop()
            err.print(f"bgsim: interrupted: the finished chunks are saved; run again with --resume to complete the "
                      f"{what}", highlight=False)
            sys.exit(INTERRUPTED)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``bgsim`` script: one-line errors with exit status 2 for bad input."""
    try:
        code = app(args=argv, prog_name="bgsim", standalone_mode=False)
    except typer.TyperException as exc:  # option and argument errors of the command line
        if type(exc).__name__ == "NoArgsIsHelpError":
            sys.stdout.write(exc.format_message() + "\n")
            sys.exit(0)
        _fail(exc.format_message())
    except typer.Abort:  # end of input at a prompt
        sys.stderr.write("bgsim: aborted\n")
        sys.exit(130)
    except BgsimError as exc:
        _fail(str(exc))
    except BrokenPipeError:  # `bgsim play ... | head`: the reader has all it wants
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except OSError as exc:  # a folder that cannot be written, a file that cannot be read
        _fail(os_error_text(exc))
    if code == INTERRUPTED:  # typer turns Ctrl-C anywhere into this exit status, without a word
        sys.stderr.write("bgsim: interrupted\n")
    sys.exit(code if isinstance(code, int) else 0)


# Helpers


def _fail(message: str) -> None:
    sys.stderr.write(f"bgsim: error: {' '.join(message.split())}\n")
    sys.exit(2)


def _split_top_level(text: str) -> list[str]:
    """Split at commas outside brackets, so 'greedy(a=2,b=1),random' gives two ids."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += (ch == "(") - (ch == ")")
        current += ch
    parts.append(current)
    return parts


