"""The report of one ordinary run (``bgsim report runs/<run-id>``): what the run was for first.

A run plays strategies against each other, so the report leads with how each strategy did: win rate
against the fair share, mean score and rank, and head-to-head shares, every one with its 95 % interval.
Seat verdicts appear only for player counts where every seat held the same strategy (self-play):
only there do seats differ by nothing but their position. Questions of the designer studies (start
vectors, compensation, component attribution) belong to those studies' reports, not here.
"""

import pandas as pd
import polars as pl
from bgsim.reports import run_charts, seat_charts
from bgsim.reports.method_text import shared_wins_sentence
from bgsim.reports.progress import progress_warning
from bgsim.reports.provenance import provenance
from bgsim.reports.report_builder import Report, fmt_mean, fmt_p, fmt_rate
from bgsim.sim.profile import GameProfile
from bgsim.sim.results.progress import RunProgress
from bgsim.sim.stats.seats import category_table, seat_table, verdicts
from bgsim.sim.stats.strategy_stats import head_to_head, seat_by_strategy, strategy_table

__all__ = ["build_run_report"]

def _seat_columns(unit: str) -> dict[str, str]:
    return {"n_players": "players", "population": "strategy", "seat": "seat", "games": "games",
            "win_rate": "win rate [95 % CI]", "gap_pp": "gap to fair (pp)", "q": "q (BH)",
            "mean_score": f"mean {unit} [95 % CI]", "mean_rank": "mean rank [95 % CI]"}


def build_run_report(rows: pl.LazyFrame, meta: dict, spec: dict, progress: RunProgress, profile: GameProfile,
                     finish: str) -> tuple[Report, pd.DataFrame | None]:
    """The report of one run, and its seat table where it has seat verdicts (self-play), else None.

    ``rows``: the run's result rows; ``meta``: its meta.json; ``spec``: its spec.toml as a dict;
    ``progress``: games on disk against planned; ``profile``: the game's, as stored with the run;
    ``finish``: the command that finishes an unfinished run."""
    strategies = strategy_table(rows, profile.score_column)
    rep = Report(f"Run: {meta.get('name', meta.get('run_id', '-'))}", subtitle=spec.get("description") or None,
                 meta=_header(meta, spec, progress))
    progress_warning(rep, progress.games_done, progress.games_planned, finish)
    self_play = sorted(int(n) for n, k in strategies.groupby("n_players")["strategy"].nunique().items() if k == 1)
    own_rows = rows.filter(pl.col("n_players").is_in(self_play)) if self_play else None
    seats = _self_play_seats(own_rows, profile) if own_rows is not None else None
    pairs = head_to_head(rows) if len(strategies) > len(self_play) else None
    unit = profile.score_unit
    _answers(rep, strategies, pairs, seats, spec, unit)
    _strategy_section(rep, strategies, unit)
    if pairs is not None:
        _head_to_head_section(rep, pairs)
    _seat_section(rep, rows, seats, self_play, strategies, profile)
    _category_section(rep, rows, profile)
    _method(rep, meta, spec, profile)
    return rep, seats


# --- header and answers


def _header(meta: dict, spec: dict, progress: RunProgress) -> dict[str, str]:
    seats = spec.get("seats", {})
    mode = seats.get("mode", "fixed")
    if mode == "rotate":
        seating = f"rotate: {seats.get('focus')} through every seat, others {', '.join(seats.get('others', []))}"
    else:
        seating = f"{mode}: {', '.join(seats.get('strategies', []))}"
    counts = ", ".join(f"{done:,}" + ("" if done == progress.planned_by_players[n] else
                                      f" of {progress.planned_by_players[n]:,}") + f" at {n} players"
                       for n, done in progress.done_by_players.items())
    games = f"{progress.games_done:,}" if progress.complete else \
        f"{progress.games_done:,} of {progress.games_planned:,} planned (incomplete)"
    header = {"run": meta.get("run_id", "-"), "game": spec.get("game", {}).get("id", "-"), "seating": seating,
              "games": f"{games} ({counts})", "seed": str(spec.get("run", {}).get("seed", "-"))}
    played = {k: v for k, v in provenance(meta, spec).items() if k != "description"}  # the subtitle has it
    return header | played  # the game as played: parameters, data, versions


def _focus(spec: dict, names: list[str]) -> str | None:
    """The stored id of a rotated run's focus strategy (stored ids carry the game's prefix)."""
    seats = spec.get("seats", {})
    focus = seats.get("focus") if seats.get("mode") == "rotate" else None
    if not focus:
        return None
    hits = [s for s in names if s == focus or s.endswith("/" + focus)]
    return hits[0] if len(hits) == 1 else None


def _answers(rep: Report, strategies: pd.DataFrame, pairs: pd.DataFrame | None, seats: pd.DataFrame | None,
             spec: dict, unit: str) -> None:
    rep.heading("Answers")
    lines = []
    focus = _focus(spec, list(strategies["strategy"].unique()))
    for n, part in strategies.groupby("n_players", sort=True):
        if len(part) == 1:
            continue  # self-play: the seat verdicts below answer it
        if focus is not None and focus in set(part["strategy"]):
            lines.append(_focus_line(int(n), part, pairs, focus, unit))
        else:
            lines.append(_mixed_line(int(n), part))
    if seats is not None:
        for row in verdicts(seats).itertuples():
            lines.append(f"- **{row.n_players} players**, *{row.population}* in every seat: {row.verdict}; seats even: "
                         f"{row.tolerance}.")
    rep.text("\n".join(lines) if lines else "No games.")
    rep.text("Win rates count seat-games against the fair share 1/n (Wilson 95 % intervals, clustered by deal); "
             "*ahead of* is the "
             "share of games, among those where both sat at the table, in which the first strategy finished "
             "before the second (the game's tie-break decides equal scores).")


def _focus_line(n: int, part: pd.DataFrame, pairs: pd.DataFrame | None, focus: str, unit: str) -> str:
    me = part[part["strategy"] == focus].iloc[0]
    others = part[part["strategy"] != focus]
    against = ", ".join(others["strategy"])
    line = (f"- **{n} players**: {focus} wins {fmt_rate(me.win_rate, me.win_rate_low, me.win_rate_high)} of its "
            f"{int(me.seat_games):,} games against {against} (fair share {100 * me.fair:.1f} %, "
            f"{me.gap_pp:+.1f} pp)")
    if pairs is not None:
        for row in pairs[(pairs["n_players"] == n) & (pairs["a"] == focus)].itertuples():
            line += (f"; it finishes ahead of {row.b} in {fmt_rate(row.share, row.share_low, row.share_high)} of "
                     f"{int(row.pairs):,} pairings")
    means = "; ".join(f"{r.strategy} {fmt_mean(r.mean_score, r.mean_score_low, r.mean_score_high)}"
                      for r in part.itertuples())
    return f"{line}. Mean {unit}: {means}."


def _mixed_line(n: int, part: pd.DataFrame) -> str:
    ranked = part.sort_values("win_rate", ascending=False)
    rates = "; ".join(f"{r.strategy} {fmt_rate(r.win_rate, r.win_rate_low, r.win_rate_high)}"
                      for r in ranked.itertuples())
    best = ranked.iloc[0]
    clear = len(ranked) > 1 and best.win_rate_low > ranked.iloc[1].win_rate_high
    lead = (f"{best.strategy} is ahead (its interval lies above every other)" if clear
            else "the best two cannot be told apart with these games")
    return f"- **{n} players** (fair share {100 / n:.1f} %): {rates}; {lead}."


def _self_play_seats(rows: pl.LazyFrame, profile: GameProfile) -> pd.DataFrame:
    labelled = rows.with_columns(pl.col("strategy").alias("population"), pl.lit("-").alias("start"))
    return seat_table(labelled, profile.score_column)


# --- sections


def _strategy_section(rep: Report, strategies: pd.DataFrame, unit: str) -> None:
    rep.heading("Strategies")
    rep.figure(run_charts.strategy_win_chart(strategies), "strategy_win_rates",
               "Win rate per strategy and player count with its 95 % Wilson interval; dashed: the fair share 1/n.")
    rep.table(strategies, "strategies", "Per strategy: seat-games played, win rate against the fair share, "
              f"mean {unit} and mean rank (t 95 %).",
              columns={"n_players": "players", "seat_games": "seat-games", "seats_per_game": "seats per game",
                       "win_rate": "win rate [95 % CI]", "gap_pp": "gap to fair (pp)",
                       "mean_score": f"mean {unit} [95 % CI]", "mean_rank": "mean rank [95 % CI]"},
              rates=["win_rate"], means=["mean_score", "mean_rank"],
              show=["n_players", "strategy", "seat_games", "seats_per_game", "win_rate", "gap_pp", "mean_score",
                    "mean_rank"],
              formats={"seat_games": ",d", "seats_per_game": ".2g", "gap_pp": "+.1f", "mean_rank": ".2f"})


def _head_to_head_section(rep: Report, pairs: pd.DataFrame) -> None:
    rep.heading("Head to head")
    rep.text("For every two seats of one game held by different strategies: how often the first finished ahead "
             "of the second (Wilson 95 %). Each pair appears in both orders; the two shares add up to 100 %.")
    rep.table(pairs, "head_to_head", "Share of pairings in which the strategy finished ahead of the other.",
              columns={"n_players": "players", "a": "strategy", "b": "against", "pairs": "pairings",
                       "share": "finished ahead [95 % CI]"},
              rates=["share"], show=["n_players", "a", "b", "pairs", "share"], formats={"pairs": ",d"})


def _seat_section(rep: Report, rows: pl.LazyFrame, seats: pd.DataFrame | None, self_play: list[int],
                  strategies: pd.DataFrame, profile: GameProfile) -> None:
    unit = profile.score_unit
    rep.heading("Seats")
    if seats is not None:
        rep.text(f"At {', '.join(map(str, self_play))} players every seat held the same strategy, so the seats "
                 f"differ only by their position. A seat is called favoured or disfavoured only when an exact "
                 f"binomial test against the fair share rejects after Benjamini–Hochberg over every seat (q < "
                 f"0.05). Seats are numbered from the start player (seat 1).")
        rep.figure(seat_charts.seat_win_chart(seats), "seat_win_rates",
                   "Win rate per seat with its 95 % Wilson interval; dashed: the fair share 1/n.")
        shown = seats.copy()
        shown["seat"] = shown["seat"] + 1
        rep.table(shown, "seats", "Per seat in self-play: win rate (Wilson 95 %), gap to the fair share, q of the "
                  f"exact binomial test, mean {unit} and mean rank (t 95 %).",
                  columns=_seat_columns(unit),
                  rates=["win_rate"], means=["mean_score", "mean_rank"], show=list(_seat_columns(unit)),
                  formats={"gap_pp": "+.1f", "q": fmt_p, "games": ",d", "mean_rank": ".2f"})
    mixed = sorted(set(int(n) for n in strategies["n_players"]) - set(self_play))
    if mixed:
        rep.text(f"At {', '.join(map(str, mixed))} players the seats held different strategies, so a seat's results "
                 f"are mostly its strategy's: no seat verdict is drawn there. The table shows how each strategy "
                 f"did from each seat (seat 1 = start player); seat order itself is the subject of "
                 f"`bgsim seat-order`.")
        by_seat = seat_by_strategy(rows.filter(pl.col("n_players").is_in(mixed)), profile.score_column)
        by_seat["seat"] += 1
        rep.table(by_seat, "strategy_by_seat", f"Win rate and mean {unit} of each strategy by seat.",
                  columns={"n_players": "players", "seat_games": "seat-games", "win_rate": "win rate [95 % CI]",
                           "mean_score": f"mean {unit} [95 % CI]"},
                  rates=["win_rate"], means=["mean_score"],
                  show=["n_players", "strategy", "seat", "seat_games", "win_rate", "mean_score"],
                  formats={"seat_games": ",d"})


def _category_section(rep: Report, rows: pl.LazyFrame, profile: GameProfile) -> None:
    """Mean score of every stored category per strategy: where each strategy's points come from."""
    present = [c for c in profile.category_columns if c in rows.collect_schema().names()]
    if not present:
        return
    score, unit = profile.score_column, profile.score_unit
    long = category_table(rows, tuple(present), score, by=("n_players", "strategy"))
    long["category"] = long["category"].map(profile.category_label)
    rep.heading(f"{unit[0].upper()}{unit[1:]} by category")
    rep.figure(run_charts.category_chart(long, unit), "score_categories",
               f"Mean {unit} per score category and strategy; categories below 0 (penalties) stack to the left.")
    rep.table(long, "score_categories", f"Mean {unit} per score category and strategy (t 95 %), and the category's "
              f"share of the strategy's final {unit}.", columns={"n_players": "players", "games": "seat-games",
                                                                 "mean": f"mean {unit} [95 % CI]"},
              means=["mean"], show=["n_players", "strategy", "category", "games", "mean", "share"],
              formats={"games": ",d", "share": ".1%"})


def _method(rep: Report, meta: dict, spec: dict, profile: GameProfile) -> None:
    rep.heading("Method")
    run = spec.get("run", {})
    git = meta.get("git", {})
    versions = meta.get("versions", {})
    rep.text(f"Seed {run.get('seed')}, {run.get('games', 0):,} games per player count in chunks of "
             f"{run.get('chunk_size', 0):,}; game *i* of a player count is deal *i* // seatings in seating *i* % "
             f"seatings, so every deal is played in every seating (paired deals). "
             f"{meta.get('seeds', {}).get('scheme', '')}."
             f" Engine: bgsim {versions.get('bgsim', '-')}, git {str(git.get('sha') or '-')[:12]}"
             f"{' (uncommitted changes)' if git.get('dirty') else ''}.")
    rep.text("Win rates: Wilson 95 % intervals on the effective games; means: Student t; every variance clustered by "
             "deal, because the seats a strategy holds in one game, and its games in the seatings of one deal, move "
             "together. " + shared_wins_sentence(profile))
