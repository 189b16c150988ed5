"""The seat-order report: plain answers first, then seat tables, start vectors, VP categories, the
compensating start vector, and the scoring cards; every rate with its 95 % interval.

``write_seat_order_report(study_dir)`` writes ``<study_dir>/report/`` (index.html, index.md, figures,
tables as CSV) from the stored results alone.
"""

from pathlib import Path

import pandas as pd
import polars as pl
from bgsim.experiments.seat_order import MARKER, load_seat_order, load_study_rows, study_run_dirs
from bgsim.reports import seat_charts
from bgsim.reports.card_report import CARD_METHOD, add_card_sections, card_answers, study_spreads
from bgsim.reports.progress import progress_banner, runs_done
from bgsim.reports.report_builder import Report, fmt_p, fmt_rate
from bgsim.sim.results.store import RunStoreError, read_meta, study_resume_command
from bgsim.sim.stats.seats import category_table, seat_table, start_effect, verdicts

__all__ = ["add_seat_sections", "build_seat_order_report", "thirteen_answer",
           "write_seat_order_report"]

_SEAT_COLUMNS = {"n_players": "players", "population": "population", "start": "start VP", "seat": "seat",
                 "games": "games", "start_vp": "start VP of the seat", "win_rate": "win rate [95 % CI]",
                 "gap_pp": "gap to fair (pp)", "q": "q (BH)", "mean_vp": "mean VP [95 % CI]",
                 "mean_rank": "mean rank [95 % CI]"}


def write_seat_order_report(study_dir: str | Path, out: str | Path | None = None) -> tuple[Path, pd.DataFrame]:
    """Write the study's report (default ``<study_dir>/report/``); returns its directory and the seat table."""
    study_dir = Path(study_dir)
    report, seats = build_seat_order_report(study_dir)
    return report.write(Path(out) if out else study_dir / "report"), seats


def build_seat_order_report(study_dir: Path) -> tuple[Report, pd.DataFrame]:
    """The study's report; an unfinished study is reported from the games it has so far, under a banner."""
    meta = read_meta(study_dir, MARKER, "seat-order")
    complete = meta.get("status") == "complete"
    rows = load_study_rows(study_dir, partial=not complete)
    if rows.is_empty():
        raise RunStoreError(f"{study_dir}: no games played yet; run `{study_resume_command(study_dir)}` to play them")
    games = [c["games"] for c in meta["cells"]]
    done = runs_done(study_run_dirs(study_dir))
    planned = load_seat_order(study_dir / "seat_order.toml").total_games  # cells and confirmation runs
    rep = Report(f"Seat order: {meta['name']}",
                 subtitle="Carpe Diem seat balance per player count, strategy population and start VP",
                 meta={"study": meta["study_id"], "runs": str(len(games)),
                       "games per run": f"{min(games):,}" + (f" to {max(games):,}" if max(games) > min(games) else ""),
                       "games": f"{done:,}" + ("" if done >= planned else f" of {planned:,} planned (incomplete)"),
                       "seed": str(meta.get("seed", "-"))})
    progress_banner(rep, done, planned, study_resume_command(study_dir) or "--resume", "study")
    seats = add_seat_sections(rep, rows, _compensation(study_dir, partial=not complete))
    _method(rep, meta)
    return rep, seats


def add_seat_sections(rep: Report, rows: pl.DataFrame, compensation: pd.DataFrame) -> pd.DataFrame:
    """Answers, seat tables, start vectors, categories, compensation and cards; returns the seat table."""
    frame = rows.drop("board_cards", "cards").to_pandas()
    seats = seat_table(rows)
    spreads = study_spreads(rows)
    _answers(rep, seats, compensation, card_answers(spreads))
    _seat_section(rep, seats, frame)
    if "equal" in set(frame["start"]) and frame["start"].nunique() > 1:
        _start_section(rep, start_effect(rows))
    _category_section(rep, category_table(rows))
    if not compensation.empty:
        _compensation_section(rep, compensation)
    add_card_sections(rep, rows, spreads)
    return seats


# --- answers


def thirteen_answer(seats: pd.DataFrame, compensation: pd.DataFrame, population: str) -> str | None:
    """Is the 13 start VP of seat 3 at 3 players justified, for one population? None without data."""
    three = seats[(seats["n_players"] == 3) & (seats["population"] == population)]
    rule = three[(three["start"] == "rulebook") & (three["seat"] == 2)]
    if rule.empty:
        return None
    r = rule.iloc[0]
    parts = [f"with 8/9/13, seat 3 wins {fmt_rate(r.win_rate, r.win_rate_low, r.win_rate_high)} "
             f"against the fair 33.3 %"]
    equal = three[(three["start"] == "equal") & (three["seat"] == 2)]
    if not equal.empty:
        e = equal.iloc[0]
        parts.append(f"with equal start VP {fmt_rate(e.win_rate, e.win_rate_low, e.win_rate_high)}")
    comp = compensation[(compensation["n_players"] == 3) & (compensation["population"] == population)
                        & (compensation["seat"] == 2)] if not compensation.empty else compensation
    if not comp.empty:
        c = comp.iloc[0]
        parts.append(f"the balancing value for seat 3 is {c.solved} (bootstrap 95 % interval {c.low}-{c.high})")
    if r.favoured > 0:
        verdict = "**No: 13 over-compensates** — seat 3 wins significantly more than its share"
    elif r.favoured < 0:
        verdict = "**No: 13 is not enough** — seat 3 still wins significantly less than its share"
    elif r.detectable_pp > 2.5:
        verdict = (f"**These games cannot tell**: seat 3 is not detectably off its share, but only gaps above about "
                   f"{r.detectable_pp:.0f} pp would have shown")
    else:
        verdict = (f"**Yes, within what these games can tell**: seat 3's win rate is not detectably off its share "
                   f"(a gap of about {r.detectable_pp:.1f} pp would have shown)")
    return f"{verdict} ({'; '.join(parts)})."


def seat_summary(seats: pd.DataFrame, start: str = "rulebook") -> list[str]:
    """Per player count: each seat detectably off its share in how many populations, by how much."""
    lines = []
    part_all = seats[seats["start"] == start]
    for n, part in part_all.groupby("n_players", sort=True):
        pops = part["population"].nunique()
        found = []
        for seat, rows in part.groupby("seat", sort=True):
            for sign, word in ((1, "favoured"), (-1, "disfavoured")):
                hit = rows[rows["favoured"] == sign]
                if len(hit):
                    low, high = hit["gap_pp"].min(), hit["gap_pp"].max()
                    span = f"{low:+.1f} pp" if len(hit) == 1 else f"{low:+.1f} to {high:+.1f} pp"
                    found.append(f"seat {seat + 1} {word} in {len(hit)} of {pops} ({', '.join(hit['population'])}; "
                                 f"{span})")
        lines.append(f"- **{n} players**, start VP {start}: " + ("; ".join(found) if found else
                                                                  "no seat detectably off its share") + ".")
    return lines


def _answers(rep: Report, seats: pd.DataFrame, compensation: pd.DataFrame, card_lines: list[str]) -> None:
    rep.heading("Answers")
    lines = seat_summary(seats)
    for pop in dict.fromkeys(seats["population"]):
        answer = thirteen_answer(seats, compensation, pop)
        if answer:
            lines.append(f"- Is the 3-player 13 justified? *{pop}*: {answer}")
    lines += card_lines
    rep.text("\n".join(lines) if lines else "No games.")
    rep.text("Seats are numbered from the start player (seat 1). A seat is called favoured or disfavoured only "
             "when an exact binomial test against the fair share rejects after the Benjamini–Hochberg correction "
             "over every seat of every table (q < 0.05); otherwise the line says that these games cannot tell.")
    rep.heading("Every table", level=3)
    rep.table(verdicts(seats), "verdicts", "The verdict on the seats of every (player count, population, start "
              "vector).", columns={"n_players": "players", "start": "start VP"})


# --- sections


def _shown(seats: pd.DataFrame) -> pd.DataFrame:
    shown = seats.copy()
    shown["seat"] = shown["seat"] + 1
    return shown


def _seat_section(rep: Report, seats: pd.DataFrame, frame: pd.DataFrame) -> None:
    rep.heading("Seat win rates")
    rep.figure(seat_charts.seat_win_chart(seats), "seat_win_rates",
               "Win rate per seat with its 95 % Wilson interval; dashed: the fair share 1/n.")
    rep.table(_shown(seats), "seats", "Per seat: win rate (Wilson 95 %), gap to the fair share, Benjamini–Hochberg "
              "q of the exact binomial test against it, mean VP and mean rank (t 95 %).",
              columns=_SEAT_COLUMNS, rates=["win_rate"], means=["mean_vp", "mean_rank"],
              show=list(_SEAT_COLUMNS), formats={"gap_pp": "+.1f", "q": fmt_p, "games": ",d", "start_vp": ".0f",
                                                 "mean_rank": ".2f"})
    rep.figure(seat_charts.vp_distribution_chart(frame), "vp_distributions",
               "Final VP per seat: box 25-75 %, whiskers 5-95 %, dot the mean; one colour per population.")


def _start_section(rep: Report, effect: pd.DataFrame) -> None:
    rep.heading("What the start VP changes")
    shown = effect.copy()
    shown["seat"] += 1
    shown["diff"] = shown["diff_pp"]
    rep.text("Each game under a start vector is paired with the same deal and seating under equal start VP "
             "(every seat 8); the difference is the change of the seat's win rate in percentage points, with a "
             "paired t interval. An interval that contains 0 means the games cannot tell a change.")
    rep.table(shown.rename(columns={"diff_low": "diff_low", "diff_high": "diff_high"}), "start_effect",
              "Win-rate change per seat against equal start VP, paired by deal (pp, 95 % paired t interval).",
              columns={"n_players": "players", "population": "population", "start": "start VP", "seat": "seat",
                       "pairs": "paired games", "diff": "change (pp) [95 % CI]", "p": "p"},
              means=["diff"], show=["n_players", "population", "start", "seat", "pairs", "diff", "p"],
              formats={"pairs": ",d", "p": fmt_p})


def _category_section(rep: Report, categories: pd.DataFrame) -> None:
    rep.heading("VP by category")
    rep.figure(seat_charts.category_chart(categories), "vp_categories",
               "Mean VP per scoring category and seat, 95 % t intervals.")
    shown = categories.copy()
    shown["seat"] += 1
    rep.table(shown, "vp_categories", "Mean VP per category and seat (t 95 %), and the category's share of the "
              "seat's final VP.", columns={"n_players": "players", "start": "start VP", "mean": "mean VP [95 % CI]"},
              means=["mean"], formats={"share": ".1%", "games": ",d"},
              show=["n_players", "population", "start", "seat", "category", "games", "mean", "share"])


def _compensation(study_dir: Path, partial: bool = False) -> pd.DataFrame:
    path = study_dir / "compensation.csv"
    if not path.exists():
        return pd.DataFrame()
    table = pd.read_csv(path)
    confirm = load_study_rows(study_dir, "confirm", partial=partial)
    if confirm.height:
        confirmed = seat_table(confirm)[["n_players", "population", "seat", "games", "win_rate", "win_rate_low",
                                         "win_rate_high", "favoured"]]
        confirmed = confirmed.rename(columns={"games": "confirm_games", "win_rate": "rate_confirmed",
                                              "win_rate_low": "rate_confirmed_low",
                                              "win_rate_high": "rate_confirmed_high",
                                              "favoured": "confirmed_off"})
        table = table.merge(confirmed, on=["n_players", "population", "seat"], how="left")
    return table


def _compensation_section(rep: Report, table: pd.DataFrame) -> None:
    rep.heading("Compensating start VP")
    rep.text("The start vector (seat 1 fixed at 8) that makes the seats' win rates as equal as possible: found "
             "by re-scoring the stored rulebook games under every candidate (start VP only add to the final "
             "score), with a bootstrap over deals for its interval, then **played again on fresh deals** to "
             "confirm it. *agreement* is the share of bootstrap replicates that found the same value.")
    rep.figure(seat_charts.compensation_chart(table), "compensation",
               "Top: rulebook and solved start VP per seat (bootstrap 95 % interval). Below: each seat's win rate "
               "minus the fair share (pp) under the rulebook vector, the solved vector on the stored games, and on "
               "fresh deals (Wilson 95 %).")
    shown = table.copy()
    shown["seat"] += 1
    shown["interval"] = [f"{lo}-{hi}" for lo, hi in zip(shown["low"], shown["high"], strict=True)]
    rates = ["rate_rulebook", "rate_solved"] + (["rate_confirmed"] if "rate_confirmed" in shown else [])
    labels = {"n_players": "players", "population": "population", "seat": "seat", "rulebook": "rulebook",
              "solved": "solved", "interval": "95 % interval", "agreement": "agreement",
              "rate_rulebook": "win rate, rulebook", "rate_solved": "win rate, solved (stored games)",
              "rate_confirmed": "win rate, solved (fresh deals)"}
    rep.table(shown, "compensation", "Solved start VP per seat and the seat win rates it gives.", columns=labels,
              rates=rates, show=[c for c in labels if c in shown], formats={"agreement": ".0%"})
    notes = []
    for (n, pop), part in shown.groupby(["n_players", "population"]):
        vector = "/".join(str(v) for v in part.sort_values("seat")["solved"])
        wide = part[(part["high"] - part["low"]) >= 3]
        if not wide.empty:
            notes.append(f"{n} players, {pop}: the solution {vector} is uncertain — seat(s) "
                         f"{', '.join(str(s) for s in wide['seat'])} could be anywhere in "
                         f"{', '.join(wide['interval'])} with these games.")
        if "confirmed_off" in part and (part["confirmed_off"].fillna(0) != 0).any():
            notes.append(f"{n} players, {pop}: on fresh deals, {vector} still leaves a seat detectably off its "
                         f"share.")
    if notes:
        rep.note(" ".join(notes))


def _method(rep: Report, meta: dict) -> None:
    rep.heading("Method")
    cells = pd.DataFrame(meta["cells"])
    rep.text("Every (player count, population, start vector) is one run; all share the study's seed, so game *i* "
             "is the same deal (and, in a mixed table, the same seating) in every population and start vector. "
             "A population of one strategy is self-play; a mixed table seats its first n strategies in every "
             "order. Win rates: Wilson 95 % intervals; means: t intervals; tests: exact binomial against the fair "
             "share, paired t for start vectors, Benjamini–Hochberg over the many comparisons. Seats of one game "
             "are not independent, so the per-seat tests are a little conservative for the largest gap.")
    rep.text(CARD_METHOD)
    rep.table(cells.assign(strategies=cells["strategies"].map(", ".join)), "cells", "The runs of this study.",
              formats={"games": ",d"})

