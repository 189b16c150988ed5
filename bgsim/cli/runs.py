"""The commands that build games and play runs: ``games``, ``strategies``, ``features``, ``data``,
``play``, ``run``, ``simulate``, ``tune``, ``replay`` and ``tournament``."""

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich import box
from rich.table import Table

from bgsim.cli.common import (
    COMPILING,
    GameArg,
    JobsOpt,
    OutOpt,
    PlayersOpt,
    QuietOpt,
    SchedulerOpt,
    SeedOpt,
    StrategiesOpt,
    _game,
    _games_progress,
    _strategy_ids,
    app,
    default_game,
    err,
    out,
)
from bgsim.experiments.destinations import check_writable
from bgsim.sim.digest import short_digest
from bgsim.sim.errors import BgsimError, RunawayGameError
from bgsim.sim.numba_cache import cache_is_cold
from bgsim.sim.registry import available_games, make_game, parameter_defaults, parameter_names, parse_id, player_counts


@app.command()
def games(name: Annotated[str | None, typer.Argument(help="One game's name: only that game.",
                                                    show_default=False)] = None) -> None:
    """List the games, their player counts and their parameters with what each one sets."""
    import textwrap

    from rich.markup import escape

    width = max(40, out.width - 6)  # a parameter's doc goes below it, indented and wrapped to the terminal
    shown = available_games()
    if name is not None:
        player_counts(name)  # an unknown name: a one-line error with "did you mean"
        shown = {name: available_games(unlisted=True)[name]}
    for name, entry in shown.items():
        out.print(f"[bold]{name}[/bold]: {escape(entry.summary)}", highlight=False)
        out.print(f"  players: {', '.join(map(str, player_counts(name)))}", highlight=False)
        for line in _component_lines(name, width):
            out.print(f"  {escape(line)}", highlight=False)
        docs, defaults = entry.parameter_docs or {}, parameter_defaults(name)
        for param in parameter_names(name):
            default = f" = {defaults[param]!r}" if param in defaults else ""
            out.print(f"  {param}{escape(default)}", highlight=False)
            for line in textwrap.wrap(docs.get(param, ""), width):
                out.print(f"      [dim]{escape(line)}[/dim]", highlight=False)


def _component_lines(name: str, width: int) -> list[str]:
    """The components a spec may name by id (a balance lever's ``component``, a component-value
    study's ``solver.components``), wrapped; none for a game that declares no component choice."""
    import textwrap

    profile = make_game(name).profile
    rows = profile.choice_catalogue()
    if not rows:
        return []
    text = f"components a spec may pay, by id: {', '.join(row['id'] for row in rows)}"
    return textwrap.wrap(text, width + 4, subsequent_indent="    ")


@app.command()
def strategies(game_id: GameArg) -> None:
    """List the strategies available for a game: description and non-zero feature weights."""
    from bgsim.strategies import strategy_rows

    table = Table("strategy", "description", "weights (non-zero)", show_lines=True)
    for name, summary, weights in strategy_rows(make_game(game_id)):
        table.add_row(name, summary, "  ".join(f"{k}={v}" for k, v in weights.items()) or "-")
    out.print(table)


@app.command()
def features(game_id: GameArg) -> None:
    """List the feature columns of a game's candidate tables (what strategies can weigh)."""
    game = make_game(game_id)
    for name in game.feature_names:
        out.print(f"  {name:<22} {game.feature_docs.get(name, '')}", highlight=False)


@app.command()
def data(
    game_id: GameArg,
    data_dir: Annotated[str | None, typer.Option(help="Directory with replacement data files to check.")] = None,
) -> None:
    """Validate a game's component data files and show their status and source."""
    overrides = {} if data_dir is None else {"data_dir": data_dir}
    game = make_game(game_id, **overrides)
    if not game.data_files:
        out.print(f"{game.name} has no data files")
        return
    table = Table("file", "status", "source", "digest")
    for info in game.data_files.values():
        table.add_row(info["path"], info.get("status", ""), info.get("source", ""), short_digest(info["sha256"]))
    out.print(table)
    out.print("all data files are valid")


@app.command()
def play(
    game_id: GameArg,
    players: PlayersOpt = None,
    seed: SeedOpt = 1,
    strategies_: StrategiesOpt = "greedy",
    as_json: Annotated[bool, typer.Option("--json", help="Print the game as JSON events.")] = False,
    summary: Annotated[bool, typer.Option("--summary", help="Leave out the turns.")] = False,
    validate: Annotated[bool, typer.Option("--validate", help="Check every action against the legal set.")] = False,
    solo: Annotated[bool, typer.Option("--solo", help="Solo against the game's automa (same as --players 1).")] = False,
) -> None:
    """Play one game and print its trace: every turn and scoring and the score sheet (solo: the
    automa's turns and decisions too)."""
    from bgsim.sim.play import play_game
    from bgsim.sim.seeding import game_seeds
    from bgsim.strategies import make_strategy

    if solo and players not in (None, 1):
        raise BgsimError(f"--solo is a 1-player game; --players {players} contradicts it")
    game = _game(game_id, 1 if solo else players)
    seats = [make_strategy(sid, game) for sid in _strategy_ids(strategies_, game.n_players)]
    seeds = game_seeds(seed)
    if cache_is_cold(game.name):
        err.print(COMPILING, highlight=False)
    try:
        played = play_game(game, seats, seeds, log=True, validate=validate)
    except RunawayGameError as exc:
        raise exc.of_game(1, seed) from None
    ids = [s.id for s in seats]
    if as_json:
        sys.stdout.write(json.dumps(game.trace_json(played.state, played.log, seeds, ids), indent=1) + "\n")
    else:
        sys.stdout.write(game.trace_text(played.state, played.log, seeds, ids, summary=summary))


@app.command()
def run(
    spec_path: Annotated[str, typer.Argument(metavar="SPEC", help="Spec TOML file, or a run directory to resume.")],
    jobs: JobsOpt = 1,
    out_dir: OutOpt = "runs",
    resume: Annotated[bool, typer.Option("--resume", help="Keep the finished chunks, play the rest.")] = False,
    quiet: QuietOpt = False,
    scheduler: SchedulerOpt = None,
) -> None:
    """Play an experiment spec into runs/<run-id>/ (Parquet chunks, spec.toml, meta.json)."""
    from bgsim.experiments.runner import open_spec

    spec = open_spec(spec_path)
    run_dir = Path(spec_path) if Path(spec_path).is_dir() else None
    check_writable(run_dir or Path(out_dir) / spec.run_id, "run directory")
    report = _run_with_progress(spec, out_dir, jobs, resume, scheduler, quiet, run_dir)

    _print_seat_table(report.run_dir, f"{spec.name} ({spec.game})", spec.games, spec.seed,
                      parse_id(spec.game)[0])
    out.print(f"{report.run_dir}: {report.games_total:,} games "
              f"({report.games_played:,} played now in {report.seconds:.1f} s{_repaired(report)})", highlight=False)


def _repaired(report) -> str:
    n = report.chunks_repaired
    return f"; {n} damaged chunk{'s' if n != 1 else ''} played again" if n else ""


@app.command()
def simulate(
    game_id: GameArg,
    players: PlayersOpt = None,
    n_games: Annotated[int, typer.Option("--games", "-n", help="Number of games.", min=1)] = 1000,
    strategies_: StrategiesOpt = "greedy",
    seed: SeedOpt = 1,
    jobs: JobsOpt = 1,
    chunk_size: Annotated[int | None, typer.Option("--chunk-size", help="Games per chunk.", min=1)] = None,
    out_dir: OutOpt = "runs",
    quiet: QuietOpt = False,
    scheduler: SchedulerOpt = None,
) -> None:
    """Quick run: fixed seats, one player count; prints the per-seat table with 95 % intervals."""
    from bgsim.experiments.simulate import quick_spec

    game = _game(game_id, players)
    ids = _strategy_ids(strategies_, game.n_players)
    spec = quick_spec(game_id, game.n_players, ids, n_games, seed, chunk_size or _default_chunk(n_games, jobs))
    run_dir = Path(out_dir) / spec.run_id
    check_writable(run_dir, "run directory")
    resume = run_dir.exists()  # the same quick run again: reuse what is stored
    report = _run_with_progress(spec, out_dir, jobs, resume, scheduler, quiet, None)
    _print_seat_table(report.run_dir, game_id, n_games, seed, game.name)
    out.print(f"results: {report.run_dir}  ({report.games_played:,} games played now in {report.seconds:.1f} s"
              f"{_repaired(report)})",
              highlight=False)


@app.command()
def tune(
    base: Annotated[str, typer.Argument(metavar="BASE_WEIGHTS",
                                        help="Weights file to start from, or a weight strategy id such as greedy.")],
    out_path: Annotated[str, typer.Option("--out", help="Weights file to write the tuned weights to.")],
    against: Annotated[str, typer.Option("--against", help="Opponent strategy id, in every other seat.")] = "greedy",
    game_id: Annotated[str | None, typer.Option("--game", help="Game id (default: the first game `bgsim games` "
                                                               "lists).")] = None,
    players: Annotated[int, typer.Option("--players", "-p", help="Player count.")] = 2,
    n_games: Annotated[int, typer.Option("--games", "-n", help="Games per tried weight vector.", min=1)] = 2000,
    rounds: Annotated[int, typer.Option("--rounds", "-r", help="Rounds over every tuned feature.", min=1)] = 3,
    seed: SeedOpt = 1,
    features_: Annotated[str | None, typer.Option("--features", help="Comma-separated features to tune "
                                                  "(default: every feature).")] = None,
    min_gain: Annotated[float, typer.Option("--min-gain", help="Win-rate gain a move needs to be kept.")] = 0.0,
    validate: Annotated[int, typer.Option("--validate", help="Then play this many games on a fresh seed "
                                          "against the opponent and report the win rate.", min=0)] = 0,
    description: Annotated[str | None, typer.Option("--description", help="Description for the file.")] = None,
) -> None:
    """Tune weights against a fixed opponent (coordinate search on paired deals) and write them."""
    from bgsim.experiments.tune import run_tune

    def step(s) -> None:
        mark = "  [green]kept[/green]" if s.accepted else ""
        out.print(f"round {s.round + 1}  {s.feature:<22} {s.old:>5} -> {s.new:<5} win {s.match.win_rate:6.1%}"
                  f"  (bar {s.bar:.1%}){mark}", highlight=False)

    def done_round(r, match) -> None:
        out.print(f"[bold]round {r + 1}: win rate {match.win_rate:.1%} on its {match.games:,} tuning games, "
                  f"{match.unit} margin {match.score_margin:+.1f}[/bold]", highlight=False)

    features = [f.strip() for f in features_.split(",") if f.strip()] if features_ else None
    report = run_tune(base, against, game_id or default_game(), players, n_games, rounds, seed, features, min_gain,
                      out_path, description, validate, on_step=step, on_round=done_round)
    out.print(f"wrote {out_path}: {len(report.weights)} non-zero weights", highlight=False)
    if report.validation is not None:
        m = report.validation
        lo, hi = m.interval()
        out.print(f"validation (seed {report.validation_seed}): win rate {m.win_rate:.1%} [{lo:.1%}, {hi:.1%}] "
                  f"over {m.games:,} games against {against}, {m.unit} margin {m.score_margin:+.1f}", highlight=False)


@app.command()
def replay(
    run_dir: Annotated[str, typer.Argument(help="A run directory (runs/<run-id>).")],
    game_index: Annotated[int, typer.Argument(help="The game's game_index in the results.", min=0)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the game as JSON events.")] = False,
    summary: Annotated[bool, typer.Option("--summary", help="Leave out the turns.")] = False,
) -> None:
    """Replay one stored game from its seeds and print its trace (checked against the stored result)."""
    from bgsim.experiments.replay import replay_checked

    played, check = replay_checked(run_dir, game_index)
    game = played.game
    if as_json:
        doc = game.trace_json(played.state, played.log, played.seeds, list(played.strategies))
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")
        err.print(str(check), highlight=False)  # stdout stays one JSON document
    else:
        sys.stdout.write(game.trace_text(played.state, played.log, played.seeds, list(played.strategies),
                                         summary=summary))
        out.print(str(check), highlight=False)


def _print_seat_table(run_dir, name: str, games: int, seed: int, game_name: str) -> None:
    """One table per player count: per seat (from 1, as people count) and strategy the games, mean
    score (in the game's unit), win rate and mean rank. Laid out for an 80-column terminal: ids without the game's
    prefix
    (``name`` names the game), intervals never broken over lines."""
    from bgsim.experiments.simulate import seat_table
    from bgsim.sim.results.store import load, read_profile

    profile = read_profile(run_dir)
    seats = seat_table(load(run_dir), profile.score_column)
    prefix = f"{game_name}/"
    for n, part in seats.groupby("n_players", sort=True):
        players = f"{n} players" if n > 1 else "solo"
        table = Table(title=f"{name}, {players}: {games:,} games, seed {seed}", box=box.SIMPLE_HEAD,
                      show_edge=False, collapse_padding=True)
        ids = [sid.removeprefix(prefix) for sid in part["strategy"]]
        table.add_column("seat", justify="right", no_wrap=True)
        table.add_column("strategy", overflow="fold", min_width=min(10, max(map(len, ids))))  # the one to fold
        table.add_column("games", justify="right", no_wrap=True)
        table.add_column(f"mean {profile.score_unit} [95% CI]", justify="right", no_wrap=True)
        table.add_column("win % [95% CI]", justify="right", no_wrap=True)
        table.add_column("mean rank", justify="right", no_wrap=True)
        for row, sid in zip(part.itertuples(), ids, strict=True):  # stored seats count from 0
            table.add_row(str(row.seat + 1), sid, f"{row.games:,}",
                          f"{row.mean_score:.1f} [{row.score_low:.1f}, {row.score_high:.1f}]",
                          f"{100 * row.win_rate:.1f} [{100 * row.win_low:.1f}, {100 * row.win_high:.1f}]",
                          f"{row.mean_rank:.2f}")
        out.print(table)


def _default_chunk(n_games: int, jobs: int) -> int:
    """Chunks small enough for a live progress bar and balanced workers, large enough to be cheap."""
    workers = max(1, jobs if jobs > 0 else (os.cpu_count() or 1))
    return int(min(10_000, max(100, -(-n_games // (8 * workers)))))


def _run_with_progress(spec, out_dir, jobs, resume, scheduler, quiet, run_dir):
    from bgsim.experiments.runner import run as run_spec

    with _games_progress(spec.run_id, spec.total_games, quiet, "run", spec.game) as update:
        return run_spec(spec, out=out_dir, jobs=jobs, resume=resume, scheduler=scheduler,
                        on_progress=update, run_dir=run_dir)


# --- tournaments


@app.command()
def tournament(
    spec_path: Annotated[str, typer.Argument(metavar="SPEC", help="Tournament spec TOML file.")],
    jobs: JobsOpt = 1,
    out_dir: OutOpt = "runs",
    resume: Annotated[bool, typer.Option("--resume", help="Keep the finished chunks of every pairing.")] = False,
    quiet: QuietOpt = False,
    report_dir: Annotated[
        str | None, typer.Option("--report", help="Write README.md, charts, summary.json and the spec here.")
    ] = None,
    bootstrap: Annotated[int, typer.Option("--bootstrap", help="Resamples of the deals for the rating intervals "
                                           "(0 = no intervals).",
                                           min=0)] = 1000,
) -> None:
    """Play every pairing of a list of strategies on shared deals; print standings, the pairwise
    matrix and Bradley–Terry ratings with 95 % intervals."""
    from bgsim.experiments.tournament import load_tournament, summarise

    spec = load_tournament(spec_path)
    check_writable(Path(out_dir) / spec.tournament_id, "tournament directory")
    if report_dir:
        check_writable(report_dir, "--report")
    report = _tournament_with_progress(spec, out_dir, jobs, resume, quiet)
    summary = summarise(report, replicates=bootstrap)
    _print_tournament(summary)
    if report_dir:
        from bgsim.reports.tournament_report import write_report

        write_report(summary, report_dir)
        out.print(f"report: {report_dir}", highlight=False)
    out.print(f"{report.directory}: {report.games_total:,} games in {len(report.pairings)} pairings "
              f"({report.games_played:,} played now in {report.seconds:.1f} s)", highlight=False)


def _tournament_with_progress(spec, out_dir, jobs, resume, quiet):
    from bgsim.experiments.tournament import run_tournament

    with _games_progress(spec.tournament_id, spec.total_games, quiet, "tournament", spec.game) as update:
        return run_tournament(spec, out=out_dir, jobs=jobs, resume=resume, on_progress=update)


def _print_tournament(summary) -> None:
    """Standings, the pairwise matrix and the ratings as Rich tables, one set per player count."""
    def pct(x: float) -> str:
        return "-" if x != x else f"{x:.1%}"

    for n in sorted(summary.standings["n_players"].unique()):
        table = Table(title=f"{summary.name}: standings at {n} players")
        for col in ("strategy", "games", "win rate [95% CI]", "tie-break wins", f"mean {summary.score_unit} [95% CI]",
                    "mean rank [95% CI]"):
            table.add_column(col)
        for r in summary.standings[summary.standings["n_players"] == n].itertuples():
            table.add_row(r.strategy, f"{r.games:,}", f"{pct(r.win_rate)} [{pct(r.win_low)}, {pct(r.win_high)}]",
                          str(r.tie_break_wins), f"{r.mean_score:.1f} [{r.score_low:.1f}, {r.score_high:.1f}]",
                          f"{r.mean_rank:.2f} [{r.rank_low:.2f}, {r.rank_high:.2f}]")
        out.print(table)
        pairs = summary.pairwise[summary.pairwise["n_players"] == n]
        names = [s for s in summary.strategies if s in set(pairs["a"])]
        cells = {(r.a, r.b): r for r in pairs.itertuples()}
        table = Table(title=f"share of games the row finished ahead of the column (* p < 5 %, {n} players)")
        table.add_column("")
        for b in names:
            table.add_column(b)
        for a in names:
            row = [a]
            for b in names:
                r = cells.get((a, b))
                row.append("-" if a == b else "." if r is None else
                           f"{pct(r.share)}{'*' if r.significant else ''} ({r.games:,})")
            table.add_row(*row)
        out.print(table)
        table = Table(title=f"Bradley-Terry ratings at {n} players (Elo, {summary.settings['anchor'] or 'mean'} = 0)")
        for col in ("strategy", "rating", "95% interval", "comparisons"):
            table.add_column(col)
        for r in summary.ratings[summary.ratings["n_players"] == n].itertuples():
            interval = "-" if r.low != r.low else f"[{r.low:+.0f}, {r.high:+.0f}]"  # NaN: --bootstrap 0
            table.add_row(r.strategy, f"{r.rating:+.0f}", interval, f"{r.comparisons:,}")
        out.print(table)
