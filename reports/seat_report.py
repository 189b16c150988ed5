"""The seat-order report: plain answers first, then seat tables, start vectors, score categories, the
compensating start vector, and the components outcomes are attributed to; every rate with its 95 % interval.

``build_seat_order_report`` renders a study that ``bgsim.report`` has loaded (``SeatStudy``); every
word about the game (its title, score unit, compensation parameter and rulebook vectors, categories)
comes from the game's profile as stored with the study's runs.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import polars as pl
from bgsim.reports import seat_charts
from bgsim.reports.attribution_report import (
    add_attribution_sections,
    attribution_answers,
    attribution_method,
    study_spreads,
)
from bgsim.reports.charts import population_colours
from bgsim.reports.extras import NO_EXTRAS, ReportExtras
from bgsim.reports.method_text import shared_wins_sentence
from bgsim.reports.progress import progress_warning
from bgsim.reports.provenance import header
from bgsim.reports.report_builder import Report, fmt_p, fmt_rate
from bgsim.reports.seat_skill import add_skill_section
from bgsim.sim.profile import GameProfile
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.stats.distribution import value_counts
from bgsim.sim.stats.equivalence import CANNOT_TELL, HELD, OFF, Tolerance, equivalence, to_tell
from bgsim.sim.stats.lazy import collect, is_empty, lazy
from bgsim.sim.stats.seats import (
    GROUP,
    ONE_SIDED,
    category_table,
    imbalance_table,
    one_sided_tables,
    seat_table,
    start_effect,
    verdicts,
)

__all__ = ["SeatStudy", "add_seat_sections", "build_seat_order_report", "largest_value_answer",
           "largest_rulebook_value"]


@dataclass(frozen=True)
class SeatStudy:
    """A seat-order study as loaded for its report.

    ``rows``: the cells' result rows, labelled ``population`` and ``start``, as a LazyFrame over the
    chunks (a polars DataFrame works too); every table is aggregated from it lazily; ``compensation``: the
    solver's table (compensation.csv; empty if none); ``confirm``: the confirmation runs' rows (None
    or empty if none), labelled ``start`` by the vector each played; ``rounds``: one row per vector
    played on fresh deals (rounds.csv; empty for studies without it); ``profile``: the game's;
    ``extras``: the game's report additions (``reports.extras.ReportExtras``)."""

    rows: pl.LazyFrame
    compensation: pd.DataFrame
    confirm: pl.LazyFrame | None
    profile: GameProfile
    extras: ReportExtras = NO_EXTRAS
    played: dict = field(default_factory=dict)  # what the runs played (reports.provenance), for the header
    rounds: pd.DataFrame = field(default_factory=pd.DataFrame)
    tolerance: Tolerance = field(default_factory=Tolerance)  # the spec's: a seat is even within seat_pp


def _words(profile: GameProfile) -> tuple[str, str]:
    """(what a start vector sets, e.g. the compensation's label; the score unit)."""
    comp = profile.compensation
    return (comp.label if comp else "start vector"), profile.score_unit


def _seat_columns(profile: GameProfile) -> dict[str, str]:
    label, unit = _words(profile)
    return {"n_players": "players", "population": "population", "start": label, "seat": "seat",
            "games": "games", "start_value": f"{label} of the seat", "win_rate": "win rate [95 % CI]",
            "gap_pp": "gap to fair (pp)", "q": "q (BH)", "mean_score": f"mean {unit} [95 % CI]",
            "mean_rank": "mean rank [95 % CI]"}


def build_seat_order_report(meta: dict, study: SeatStudy, done: int, planned: int,
                            finish: str) -> tuple[Report, pd.DataFrame]:
    """The study's report from its marker (``meta``) and rows; an unfinished study (``done`` of
    ``planned`` games) is reported from the games it has so far, under a warning naming ``finish``."""
    games = [c["games"] for c in meta["cells"]]
    in_runs = sum(games)
    total = f"{done:,}" + ("" if done >= planned else f" of {planned:,} planned (incomplete)")
    if done > in_runs:  # the compensation's rounds and confirmations played fresh deals beside the runs
        total += f": {in_runs:,} in the runs, {done - in_runs:,} on fresh deals"
    label, _ = _words(study.profile)
    rep = Report(f"Seat order: {meta['name']}",
                 subtitle=f"{study.profile.title} seat balance per player count, strategy population and {label}",
                 meta={"study": meta["study_id"], "runs": str(len(games)),
                       "games per run": f"{min(games):,}" + (f" to {max(games):,}" if max(games) > min(games) else ""),
                       "games": total, "seed": str(meta.get("seed", "-"))} | study.played)
    progress_warning(rep, done, planned, finish, "study")
    seats = add_seat_sections(rep, study, complete=meta.get("status") == "complete")
    _method(rep, meta, study)
    return rep, seats


def _seats(rows: pl.LazyFrame, profile: GameProfile) -> pd.DataFrame:
    comp = profile.compensation
    return seat_table(rows, profile.score_column, comp.column if comp else None)


def _score_counts(rows: pl.LazyFrame, profile: GameProfile) -> pd.DataFrame:
    """Games per final score, cell and seat (``value_counts``), the populations and start vectors in
    their order in the study (the order the charts colour them in)."""
    score = profile.score_column
    counts = value_counts(rows, [*GROUP, "seat"], score).to_pandas()
    cells = collect(lazy(rows).select("population", "start").unique(maintain_order=True))
    order = {name: {v: i for i, v in enumerate(dict.fromkeys(cells[name]))} for name in ("population", "start")}
    ranks = [counts[name].map(order[name]).rename(f"{name}_order") for name in order]
    return (pd.concat([counts, *ranks], axis=1)
            .sort_values(["population_order", "start_order", "n_players", "seat", score], kind="stable")
            .drop(columns=["population_order", "start_order"]).reset_index(drop=True))


def add_seat_sections(rep: Report, study: SeatStudy, complete: bool = True) -> pd.DataFrame:
    """Answers, seat tables, start vectors, categories, compensation and attribution; returns the seat table.
    ``complete``: whether the study has finished (so runs it lacks were skipped, not pending)."""
    rows, profile = study.rows, study.profile
    seats = _seats(rows, profile)
    compensation = _compensation(study)
    attribution = profile.attribution()
    spreads = study_spreads(rows, profile, study.extras) if attribution else None
    lines = attribution_answers(spreads, profile, study.extras) if attribution else []
    lines += study.extras.study_answers(rows, profile)
    one_sided = one_sided_tables(rows)
    if seats["population"].nunique() >= 2:  # said first: whether the answers are the same across skill
        add_skill_section(rep, rows, seats, _vectors(compensation), _words(profile)[0], _one_sided_pairs(one_sided),
                          study.tolerance.alpha)
    _answers(rep, seats, compensation, lines, profile, study.rounds, study.tolerance, one_sided)
    score_counts = _score_counts(rows, profile)
    colours = population_colours(score_counts["population"])  # one colour per population in every chart
    _seat_section(rep, seats, score_counts, profile, colours)
    _imbalance_section(rep, imbalance_table(rows), profile, colours)
    if "equal" in set(seats["start"]) and seats["start"].nunique() > 1:
        _start_section(rep, start_effect(rows), profile)
    _category_section(rep, category_table(rows, profile.category_columns, profile.score_column), profile, colours)
    study.extras.add_study_sections(rep, rows, profile)
    if not compensation.empty:
        _compensation_section(rep, compensation, profile, complete, study.rounds, colours, study.tolerance)
    if attribution:
        add_attribution_sections(rep, rows, profile, study.extras, spreads)
    return seats


# --- answers


def largest_rulebook_value(profile: GameProfile) -> tuple[int, int, tuple[int, ...]] | None:
    """(player count, seat (0-based), rulebook vector) of the largest value any rulebook vector of the
    game's compensation gives a seat (the first such seat), or None without compensation or when every
    rulebook vector treats the seats alike. It is the
    value a designer most wants checked: the largest head start the rulebook grants."""
    comp = profile.compensation
    if comp is None or not comp.rulebook or all(min(v) == max(v) for v in comp.rulebook.values()):
        return None  # no rulebook vector grants a head start
    n, vector = max(sorted(comp.rulebook.items()), key=lambda item: max(item[1]))
    return n, vector.index(max(vector)), vector


OUTCOME_TEXT = {HELD: "held within the tolerance", OFF: "off by more than the tolerance",
                CANNOT_TELL: "cannot tell with these games"}


def balancing_answers(compensation: pd.DataFrame, profile: GameProfile, rounds: pd.DataFrame | None = None,
                      tolerance: Tolerance | None = None) -> list[str]:
    """One line per population: per player count the final start vector and its verdict on deals no
    round played (held within the tolerance, off by more, or cannot tell, with the seat furthest from
    its fair share there), what the rounds tried, or that it was never played on fresh deals."""
    comp = profile.compensation
    tolerance = tolerance or Tolerance()
    lines = []
    for pop, part in compensation.groupby("population", sort=False):
        cells = [_balancing_cell(int(n), cell.sort_values("seat"), rounds, tolerance)
                 for n, cell in part.groupby("n_players")]
        label = comp.label[0].upper() + comp.label[1:]
        lines.append(f"- {label} that balance the seats within ±{tolerance.seat_pp:g} pp (seat 1 holds "
                     f"{comp.fixed_first}), *{pop}*: {'; '.join(cells)}.")
    return lines


def _balancing_cell(n: int, cell: pd.DataFrame, rounds: pd.DataFrame | None, tolerance: Tolerance) -> str:
    vector = "/".join(str(int(v)) for v in cell[final_column(cell)])
    outcome = confirmation_outcome(cell)
    ranges = _value_ranges(cell)
    if outcome is None or "rate_confirmed" not in cell:
        return f"{n} players {vector} (on the stored games only: not played on fresh deals{ranges})"
    where = _furthest(cell, tolerance)
    played = _rounds_played(n, cell, rounds)
    tried = (f"; the rounds tried {', '.join(played)} on their own deals" if len(played) > 1 else "") + ranges
    games = int(cell["confirm_games"].iloc[0]) if "confirm_games" in cell else None
    on = f"on {games:,} games of fresh deals" if games else "on fresh deals"
    if outcome == HELD:
        return f"{n} players {vector} (**held within ±{tolerance.seat_pp:g} pp** {on}: furthest {where}{tried})"
    if outcome == OFF:
        return (f"{n} players: **none found that holds** — {vector} is **off by more than ±{tolerance.seat_pp:g} pp** "
                f"{on}: {where}{tried}")
    more = cell["games_to_tell"].iloc[0] if "games_to_tell" in cell else np.nan
    need = "; " + to_tell(more if pd.notna(more) else None, games)
    return (f"{n} players {vector}: **cannot tell with these games** whether it holds within "
            f"±{tolerance.seat_pp:g} pp {on} (furthest {where}{need}{tried})")


def _value_ranges(cell: pd.DataFrame) -> str:
    """"; re-scored ..., seat 2 3 to 5, seat 3 5 to 7 (bootstrap 95 %)": how far each value but seat 1's
    could lie, so that one vector is not read as the only answer ("" without the bootstrap columns)."""
    if not {"low", "high", "seat"} <= set(cell.columns):
        return ""
    parts = [f"seat {int(r.seat) + 1} {int(r.low)}" + (f" to {int(r.high)}" if int(r.high) != int(r.low) else "")
             for r in cell.sort_values("seat").itertuples() if int(r.seat) > 0 and pd.notna(r.low)]
    return f"; re-scored on the stored games, {', '.join(parts)} (bootstrap 95 %)" if parts else ""


def _furthest(cell: pd.DataFrame, tolerance: Tolerance) -> str:
    """The seat furthest from its fair share on the confirmation's games, with its simultaneous interval."""
    n = len(cell)
    gap = (cell["rate_confirmed"] - 1 / n).abs()
    worst = cell.loc[gap.idxmax()]
    return (f"seat {int(worst['seat']) + 1} at "
            f"{fmt_rate(worst.rate_confirmed, worst.rate_confirmed_low, worst.rate_confirmed_high)} "
            f"against the fair {100 / n:.1f} %")


def _rounds_played(n: int, cell: pd.DataFrame, rounds: pd.DataFrame | None) -> list[str]:
    """The vectors one (player count, population)'s refinement rounds played, in round order (rounds.csv)."""
    if rounds is None or rounds.empty:
        return []
    mine = rounds[(rounds["n_players"] == n) & (rounds["population"] == cell["population"].iloc[0])]
    if "kind" in mine:
        mine = mine[mine["kind"] == "round"]
    return list(mine["vector"])


def final_column(table: pd.DataFrame) -> str:
    """The column of the vector a study settled on: ``final`` (confirmed on fresh deals), or ``solved``
    for a study that skips fresh deals."""
    return "final" if "final" in table and table["final"].notna().all() else "solved"


def confirmation_outcome(cell: pd.DataFrame) -> str | None:
    """One (player count, population)'s confirmation verdict (held, off, cannot tell); None when its
    vector was not played on fresh deals."""
    if "outcome" not in cell or not cell["outcome"].notna().all():
        return None
    return str(cell["outcome"].iloc[0])


def largest_value_answer(seats: pd.DataFrame, compensation: pd.DataFrame, population: str,
                         profile: GameProfile, tolerance: Tolerance | None = None) -> str | None:
    """Is the rulebook's largest seat value justified, for one population? Within the tolerance of the
    seat's fair share by two one-sided tests (held), off by more, or the games cannot tell; with the
    difference test beside it. None without data."""
    found = largest_rulebook_value(profile)
    if found is None:
        return None
    tolerance = tolerance or Tolerance()
    n, seat, vector = found
    value, label = vector[seat], profile.compensation.label
    table = seats[(seats["n_players"] == n) & (seats["population"] == population)]
    rule = table[(table["start"] == "rulebook") & (table["seat"] == seat)]
    if rule.empty:
        return None
    r = rule.iloc[0]
    parts = [f"with {'/'.join(map(str, vector))}, seat {seat + 1} wins "
             f"{fmt_rate(r.win_rate, r.win_rate_low, r.win_rate_high)} against the fair {100 / n:.1f} %"]
    equal = table[(table["start"] == "equal") & (table["seat"] == seat)]
    if not equal.empty:
        e = equal.iloc[0]
        parts.append(f"with equal {label} {fmt_rate(e.win_rate, e.win_rate_low, e.win_rate_high)}")
    comp = compensation[(compensation["n_players"] == n) & (compensation["population"] == population)
                        & (compensation["seat"] == seat)] if not compensation.empty else compensation
    if not comp.empty:
        c = comp.iloc[0]
        parts.append(_balancing_value(seat, compensation[(compensation["n_players"] == n)
                                                         & (compensation["population"] == population)], c))
    verdict = equivalence(r.win_rate - r.fair, r.win_se, tolerance.seat_pp / 100, float(r.games), tolerance.alpha, k=1)
    tol = f"±{tolerance.seat_pp:g} pp"
    low, high = verdict.bounds
    gap = f"{r.gap_pp:+.1f} pp [{100 * low[0]:+.1f}, {100 * high[0]:+.1f}] from its share"
    detected = (f"; it is detectably {'above' if r.favoured > 0 else 'below'} its share, by less than {tol}"
                if r.favoured and verdict.outcome == HELD else "")
    if verdict.outcome == HELD:
        head = f"**Yes, within {tol}**: seat {seat + 1} is {gap}{detected}"
    elif verdict.outcome == OFF and r.gap_pp > 0:
        head = f"**No: {value} over-compensates** by more than {tol}: seat {seat + 1} is {gap}"
    elif verdict.outcome == OFF:
        head = f"**No: {value} is not enough**, by more than {tol}: seat {seat + 1} is {gap}"
    else:
        need = "; " + to_tell(verdict.games_to_tell, float(r.games))
        head = f"**These games cannot tell** whether seat {seat + 1} is within {tol} of its share: it is {gap}{need}"
    return f"{head} ({'; '.join(parts)})."


def _balancing_value(seat: int, cell: pd.DataFrame, c) -> str:
    """What the study found for the seat's value: the re-scored solution with its interval, and how
    the vector it settled on did on fresh deals."""
    text = f"re-scoring the stored games gives seat {seat + 1} {c.solved} (bootstrap 95 % interval {c.low}-{c.high})"
    outcome = confirmation_outcome(cell.sort_values("seat"))
    if outcome is None:
        return text + ", not played on fresh deals"
    vector = "/".join(str(int(v)) for v in cell.sort_values("seat")[final_column(cell)])
    return text + f"; the final vector {vector}, on fresh deals: {OUTCOME_TEXT[outcome]}"


def seat_summary(seats: pd.DataFrame, start: str = "rulebook", label: str = "start vector") -> list[str]:
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
        lines.append(f"- **{n} players**, {label} {start}: " + ("; ".join(found) if found else
                                                                  "no seat detectably off its share") + ".")
    return lines


def _answers(rep: Report, seats: pd.DataFrame, compensation: pd.DataFrame, attribution_lines: list[str],
             profile: GameProfile, rounds: pd.DataFrame | None = None, tolerance: Tolerance | None = None,
             one_sided: pd.DataFrame | None = None) -> None:
    rep.heading("Answers")
    tolerance = tolerance or Tolerance()
    label, _ = _words(profile)
    seats, compensation = _withhold_one_sided(rep, seats, compensation, one_sided)
    _unconfirmed_note(rep, compensation, profile, tolerance)
    lines = seat_summary(seats, label=label)
    largest = largest_rulebook_value(profile)
    for pop in dict.fromkeys(seats["population"]):
        answer = largest_value_answer(seats, compensation, pop, profile, tolerance)
        if answer:
            n, seat, vector = largest
            lines.append(f"- Is the {n}-player {vector[seat]} justified? *{pop}*: {answer}")
    if not compensation.empty:
        lines += balancing_answers(compensation, profile, rounds, tolerance)
    lines += attribution_lines
    rep.text("\n".join(lines) if lines else "No games.")
    rep.text("Seats are numbered from the start player (seat 1). A seat is called favoured or disfavoured only "
             "when an exact binomial test against the fair share rejects after the Benjamini–Hochberg correction "
             "over every seat of every table (q < 0.05). Whether seats are *even* is a separate claim, within a "
             f"tolerance of ±{tolerance.seat_pp:g} pp per seat (the spec's `[tolerance] seat_pp`): two one-sided "
             "tests over all seats at once say *held within the tolerance*, *off by more than the tolerance*, or "
             "*cannot tell with these games*. Intervals are clustered by deal where a deal is played more than once.")
    rep.heading("Every table", level=3)
    tol = f"±{tolerance.seat_pp:g} pp"
    rep.table(verdicts(seats, tolerance=tolerance), "verdicts", "The verdict on the seats of every (player count, "
              f"population, start vector): the difference tests, and whether every seat is within {tol} of its "
              "share.", columns={"n_players": "players", "start": label,
                                           "tolerance": f"within ±{tolerance.seat_pp:g} pp"})


def _one_sided_pairs(one_sided: pd.DataFrame | None) -> frozenset:
    """(n_players, population) of the tables one strategy wins nearly always."""
    if one_sided is None or one_sided.empty:
        return frozenset()
    flagged = one_sided[one_sided["one_sided"]]
    return frozenset(zip(flagged["n_players"].astype(int), flagged["population"], strict=True))


def _vectors(compensation: pd.DataFrame) -> pd.DataFrame:
    """Per (n_players, population) the compensating vector the study settled on ("8/9/12") and its
    outcome on fresh deals (None where it was not played there); empty without compensation."""
    columns = ["n_players", "population", "vector", "outcome"]
    if compensation.empty:
        return pd.DataFrame(columns=columns)
    out = [dict(n_players=n, population=pop, vector="/".join(str(int(v)) for v in cell.sort_values("seat")[
        final_column(cell)]), outcome=confirmation_outcome(cell))
        for (n, pop), cell in compensation.groupby(["n_players", "population"], sort=False)]
    return pd.DataFrame(out, columns=columns)


def _withhold_one_sided(rep: Report, seats: pd.DataFrame, compensation: pd.DataFrame,
                        one_sided: pd.DataFrame | None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Said first, and left out of the answers: the tables one strategy wins nearly always (its seat
    rates, verdicts and start vectors say nothing about the seats). Returns the rest."""
    if not _one_sided_pairs(one_sided):
        return seats, compensation
    flagged = one_sided[one_sided["one_sided"]]
    said = "; ".join(f"{r.n_players} players, {r.population}: {r.strategy} wins {100 * r.share:.1f} % of "
                     f"{r.games:,} games" for r in flagged.itertuples())
    rep.note(f"**Seat answers withheld for {len(flagged)} one-sided table(s):** {said}. One strategy wins nearly "
             f"every game (at least {100 * ONE_SIDED:.0f} %) from whichever seat it holds, so these tables' seat "
             "rates, verdicts and start vectors say nothing about the seats. They are left out of the answers and "
             "the verdicts; the seat tables further down still show their rates.")
    out = _one_sided_pairs(one_sided)

    def kept(frame: pd.DataFrame) -> pd.DataFrame:
        if frame.empty:
            return frame
        return frame[[(n, p) not in out for n, p in zip(frame["n_players"], frame["population"], strict=True)]]

    return kept(seats), kept(compensation)


def _unconfirmed_note(rep: Report, compensation: pd.DataFrame, profile: GameProfile, tolerance: Tolerance) -> None:
    """Said first: every compensating vector not shown to hold within the tolerance on fresh deals."""
    if compensation.empty or "outcome" not in compensation:
        return
    short = []
    for (n, pop), cell in compensation.groupby(["n_players", "population"], sort=True):
        outcome = confirmation_outcome(cell)
        if outcome not in (None, HELD):
            vector = "/".join(str(int(v)) for v in cell.sort_values("seat")[final_column(cell)])
            short.append(f"{n} players, {pop}: {vector} ({OUTCOME_TEXT[outcome]})")
    if short:
        rep.note(f"**{len(short)} compensating {profile.compensation.label} vector(s) were not shown to hold within "
                 f"±{tolerance.seat_pp:g} pp on fresh deals:** " + "; ".join(short) + ". Only a vector that held is "
                 "called balancing below.")


# --- sections


def _shown(seats: pd.DataFrame) -> pd.DataFrame:
    shown = seats.copy()
    shown["seat"] = shown["seat"] + 1
    return shown


def _seat_section(rep: Report, seats: pd.DataFrame, score_counts: pd.DataFrame, profile: GameProfile,
                  colours: dict[str, str]) -> None:
    _, unit = _words(profile)
    columns = _seat_columns(profile)
    show = [c for c in columns if c in seats.columns]
    rep.heading("Seat win rates")
    rep.figure(seat_charts.seat_win_chart(seats, colours=colours), "seat_win_rates",
               "Win rate per seat with its 95 % Wilson interval; dashed: the fair share 1/n.")
    rep.table(_shown(seats), "seats", "Per seat: win rate (Wilson 95 %), gap to the fair share, Benjamini–Hochberg "
              f"q of the exact binomial test against it, mean {unit} and mean rank (t 95 %).",
              columns=columns, rates=["win_rate"], means=["mean_score", "mean_rank"],
              show=show, formats={"gap_pp": "+.1f", "q": fmt_p, "games": ",d", "start_value": ".0f",
                                  "mean_rank": ".2f"})
    label, _ = _words(profile)
    rep.figure(seat_charts.score_distribution_chart(score_counts, score=profile.score_column, unit=unit,
                                                    start_label=label, colours=colours),
               "score_distributions",
               f"Final {unit} per seat: box 25-75 %, whiskers 5-95 %, dot the mean; one colour per population.")


def _start_section(rep: Report, effect: pd.DataFrame, profile: GameProfile) -> None:
    label, _ = _words(profile)
    equal = _equal_text(profile)
    rep.heading(f"What the {label} changes")
    shown = effect.copy()
    shown["seat"] += 1
    shown["diff"] = shown["diff_pp"]
    rep.text(f"Each game under a start vector is paired with the same deal and seating under equal {label} "
             f"({equal}); the difference is the change of the seat's win rate in percentage points, with a "
             "paired t interval. An interval that contains 0 means the games cannot tell a change.")
    rep.table(shown.rename(columns={"diff_low": "diff_low", "diff_high": "diff_high"}), "start_effect",
              f"Win-rate change per seat against equal {label}, paired by deal (pp, 95 % paired t interval).",
              columns={"n_players": "players", "population": "population", "start": label, "seat": "seat",
                       "pairs": "paired games", "diff": "change (pp) [95 % CI]", "p": "p"},
              means=["diff"], show=["n_players", "population", "start", "seat", "pairs", "diff", "p"],
              formats={"pairs": ",d", "p": fmt_p})


def _equal_text(profile: GameProfile) -> str:
    """How the profile describes the equal vector, e.g. "every seat starts with 8 points"."""
    comp = profile.compensation
    return comp.named.get("equal", "every seat alike") if comp else "every seat alike"


def _category_section(rep: Report, categories: pd.DataFrame, profile: GameProfile, colours: dict[str, str]) -> None:
    label, unit = _words(profile)
    categories = categories.assign(category=categories["category"].map(profile.category_label))
    rep.heading(f"{unit[0].upper()}{unit[1:]} by category")
    rep.figure(seat_charts.category_chart(categories, unit=unit, start_label=label, colours=colours),
               "score_categories", f"Mean {unit} per score category and seat, 95 % t intervals.")
    shown = categories.copy()
    shown["seat"] += 1
    rep.table(shown, "score_categories", f"Mean {unit} per category and seat (t 95 %), and the category's share of the "
              f"seat's final {unit}.", columns={"n_players": "players", "start": label,
                                                "mean": f"mean {unit} [95 % CI]"},
              means=["mean"], formats={"share": ".1%", "games": ",d"},
              show=["n_players", "population", "start", "seat", "category", "games", "mean", "share"])


def _compensation(study: SeatStudy) -> pd.DataFrame:
    """The solver's table, with the confirmation runs' seat win rates where they exist."""
    table = study.compensation
    if table.empty:
        return table
    confirm = study.confirm
    if confirm is not None and not is_empty(confirm):
        settled = final_column(table)
        final = (table.sort_values("seat").groupby(["n_players", "population"], sort=False)[settled]
                 .agg(lambda v: "/".join(str(int(x)) for x in v)).rename("start").reset_index())
        confirmed = _seats(confirm, study.profile).merge(final, on=["n_players", "population", "start"])
        confirmed = confirmed[["n_players", "population", "seat", "games", "win_rate", "win_rate_low",
                               "win_rate_high", "favoured"]]
        if "confirm_games" in table:  # the study wrote the confirmation's games beside its verdict
            confirmed = confirmed.drop(columns="games")
        confirmed = confirmed.rename(columns={"games": "confirm_games", "win_rate": "rate_confirmed",
                                              "win_rate_low": "rate_confirmed_low",
                                              "win_rate_high": "rate_confirmed_high",
                                              "favoured": "confirmed_off"})
        table = table.merge(confirmed, on=["n_players", "population", "seat"], how="left")
    return table


def _confirmation_text(confirmed: bool, complete: bool) -> str:
    """How the solved vector was checked: on fresh deals, or why not (a finished study without
    confirmation runs was told to skip them with ``compensation.confirm_games = 0``)."""
    if confirmed:
        return "then **played again on fresh deals** to confirm it."
    if complete:
        return ("and **not played again on fresh deals**: the study skips that confirmation "
                "(`compensation.confirm_games = 0`), so every win rate below is from the stored games.")
    return "then to be played again on fresh deals, which the study has not reached yet."


def _compensation_section(rep: Report, table: pd.DataFrame, profile: GameProfile, complete: bool = True,
                          rounds: pd.DataFrame | None = None, colours: dict[str, str] | None = None,
                          tolerance: Tolerance | None = None) -> None:
    tolerance = tolerance or Tolerance()
    comp = profile.compensation
    label = comp.label
    adds = (f" (as if {label} only added to the final score)" if comp.adds_to_score else "")
    confirmed = "rate_confirmed" in table and table["rate_confirmed"].notna().any()
    rep.heading(f"Compensating {label}")
    rep.text(f"The start vector (seat 1 fixed at {comp.fixed_first}) that makes the seats' win rates as equal as "
             f"possible: found by re-scoring the stored rulebook games under every candidate{adds}, with a bootstrap "
             f"over deals for its interval, {_confirmation_text(confirmed, complete)} *agreement* is the "
             "share of bootstrap replicates that found the same value. The final vector is judged on deals no run "
             f"before it played, by two one-sided tests over all seats at once: *held* when every seat lies within "
             f"±{tolerance.seat_pp:g} pp of its fair share, *off* when one lies further for sure, otherwise the games "
             f"cannot tell. The confirmation is sized for the tolerance: {100 * tolerance.power:.0f} % power to call a "
             "vector whose seats are even held." + _rounds_text(comp, rounds))
    rep.figure(seat_charts.compensation_chart(table, label=label, colours=colours, tolerance_pp=tolerance.seat_pp),
               "compensation",
               f"Top: rulebook and solved {label} per seat (bootstrap 95 % interval). Below: each seat's win rate "
               "minus the fair share (pp) under the rulebook vector"
               + (", the solved vector on the stored games, and the final vector on fresh deals" if confirmed
                  else " and the solved vector on the stored games") + f" (Wilson 95 %, clustered by deal); shaded: "
               f"the tolerance, ±{tolerance.seat_pp:g} pp.")
    shown = table.copy()
    shown["seat"] += 1
    shown["interval"] = [f"{lo}-{hi}" for lo, hi in zip(shown["low"], shown["high"], strict=True)]
    rates = ["rate_rulebook", "rate_solved"] + (["rate_confirmed"] if "rate_confirmed" in shown else [])
    labels = {"n_players": "players", "population": "population", "seat": "seat", "rulebook": "rulebook",
              "solved": "solved (stored games)", "interval": "95 % interval", "agreement": "agreement",
              "final": "final", "outcome": f"within ±{tolerance.seat_pp:g} pp on fresh deals",
              "rate_rulebook": "win rate, rulebook", "rate_solved": "win rate, solved (stored games)",
              "rate_confirmed": "win rate, final (fresh deals)"}
    labels = {c: text for c, text in labels.items() if c in shown}  # no confirmation column when it was skipped
    rep.table(shown, "compensation", f"Solved {label} per seat and the seat win rates it gives.", columns=labels,
              rates=rates, show=list(labels), formats={"agreement": ".0%"})
    notes = []
    for (n, pop), part in shown.groupby(["n_players", "population"]):
        vector = "/".join(str(v) for v in part.sort_values("seat")["solved"])
        wide = part[(part["high"] - part["low"]) >= 3]
        if not wide.empty:
            notes.append(f"{n} players, {pop}: the solution {vector} is uncertain — seat(s) "
                         f"{', '.join(str(s) for s in wide['seat'])} could be anywhere in "
                         f"{', '.join(wide['interval'])} with these games.")
    if notes:
        rep.note(" ".join(notes))
    if rounds is not None and not rounds.empty:
        _rounds_table(rep, rounds, label)


def _rounds_text(comp, rounds: pd.DataFrame | None) -> str:
    """How the vector was refined where re-scoring alone cannot be trusted."""
    if rounds is None or rounds.empty or "kind" in rounds and not (rounds["kind"] == "round").any():
        return ""
    why = (f" Here {comp.label} also change play: {comp.changes_play}; re-scoring stored games then only "
           "gives a first guess." if comp.changes_play else "")
    return (why + " So the vector was refined in rounds, each on fresh deals of its own: a round's games re-scored "
            "give the next vector (a step of a root finder on the seats' win-rate gaps), until a round's games showed "
            "it even within the tolerance, the finder came back to a vector already played, or the rounds were "
            "spent. The round with the smallest seat imbalance gave the final vector, and that vector alone was "
            "then confirmed on deals none of the rounds had seen: a round that happened to look even does not "
            "decide.")


def _rounds_table(rep: Report, rounds: pd.DataFrame, label: str) -> None:
    shown = rounds.copy()
    shown["seat furthest off"] = shown["worst_seat"] + 1
    shown["worst_rate_low"], shown["worst_rate_high"] = shown["worst_low"], shown["worst_high"]
    if "kind" not in shown:
        shown["kind"] = "round"
    shown["imbalance (pp²)"] = [f"{1e4 * v:.2g} [{1e4 * lo:.2g}, {1e4 * hi:.2g}]" for v, lo, hi in
                                zip(shown["imbalance"], shown["imbalance_low"], shown["imbalance_high"], strict=True)]
    rep.table(shown, "rounds", f"Every {label} vector played on fresh deals: the refinement rounds, each on its own "
              "seed, then the confirmation of the final vector on a seed no round used; its verdict within the "
              "tolerance, its seat imbalance (unbiased, pp², 95 % interval), and the seat furthest from its fair "
              "share with its simultaneous interval.",
              columns={"n_players": "players", "population": "population", "kind": "run", "round": "round",
                       "vector": label, "seed": "seed", "games": "games", "outcome": "verdict",
                       "seat furthest off": "seat furthest off", "worst_rate": "its win rate [simultaneous CI]"},
              rates=["worst_rate"], show=["n_players", "population", "kind", "round", "vector", "seed", "games",
                                          "outcome", "imbalance (pp²)", "seat furthest off", "worst_rate"],
              formats={"games": ",d"})


def _imbalance_section(rep: Report, table: pd.DataFrame, profile: GameProfile,
                       colours: dict[str, str] | None = None) -> None:
    if table.empty:
        return
    label, _ = _words(profile)
    rep.heading("Seat imbalance")
    even = table[table["at_target"]]
    rep.text("One number per table for how uneven its seats are: the seats' mean squared gap to the fair share, "
             "less what sampling noise alone adds (the *noise floor*), so that a perfectly balanced table reads about "
             "0, sometimes a little below (the best seat's rate minus the worst's reads well above 0 there: 1.6 pp on "
             "4,000 deals of a perfectly fair game). Its 95 % interval inverts a noncentral chi-square and starts at "
             "0 where the games cannot tell the table from perfect balance; the largest root-mean-square seat gap the "
             "interval allows is beside it. "
             + (f"{len(even)} of {len(table)} tables cannot be told from perfect balance with these games."
                if len(even) else "Every table is detectably off perfect balance."))
    rep.figure(seat_charts.imbalance_chart(table, start_label=label, colours=colours), "seat_imbalance",
               "Seat imbalance per table (pp², unbiased) with its 95 % interval; hollow: these games cannot tell the "
               "table from perfect balance; grey tick: the noise floor, what the plain mean squared gap reads there.")
    shown = table.copy()
    shown["imbalance"] = [f"{v:.2g} [{lo:.2g}, {hi:.2g}]" for v, lo, hi in
                          zip(shown["imbalance_pp2"], shown["imbalance_low_pp2"], shown["imbalance_high_pp2"],
                              strict=True)]
    shown["at_target"] = shown["at_target"].map({True: "yes", False: "no"})
    rep.table(shown, "seat_imbalance", "Seat imbalance per table (pp², unbiased) with its 95 % interval, the noise "
              "floor, the largest RMS seat gap the interval allows, and whether the table cannot be told from perfect "
              "balance.", columns={"n_players": "players", "start": label, "imbalance": "imbalance, pp² [95 % CI]",
                                   "noise_pp2": "noise floor, pp²", "rms_high_pp": "RMS gap at most, pp",
                                   "at_target": "indistinguishable from perfect balance"},
              show=["n_players", "population", "start", "games", "imbalance", "noise_pp2", "rms_high_pp", "at_target"],
              formats={"games": ",d", "noise_pp2": ".2g", "rms_high_pp": ".1f"})


def _method(rep: Report, meta: dict, study: SeatStudy) -> None:
    rep.heading("Method")
    cells = pd.DataFrame(meta["cells"])
    rep.text("Every (player count, population, start vector) is one run; all share the study's seed, so game *i* "
             "is the same deal (and, in a mixed table, the same seating) in every population and start vector. "
             "A population of one strategy is self-play; a mixed table seats its first n strategies in every "
             "order. Win rates: Wilson 95 % intervals on the effective games; means: t intervals; tests: exact "
             "binomial against the fair share, paired t for start vectors, Benjamini–Hochberg over the many "
             "comparisons. Every variance is clustered by deal: a mixed table plays each deal in every seating, and "
             "those games move together (counted as independent, a 4-player mixed table's 95 % intervals covered "
             "the truth in about half of the calibration suite's cases). The brackets beside a verdict within the "
             "tolerance are simultaneous over the seats of a table (Bonferroni): at level "
             f"{100 * (1 - 2 * study.tolerance.alpha):g} % for a seat whose gap lies inside the tolerance (the "
             f"two one-sided tests of held), at {100 * (1 - study.tolerance.alpha):g} % for one whose gap lies "
             "beyond it (off, which can be claimed on either side). "
             + shared_wins_sentence(study.profile))
    attribution = study.profile.attribution()
    if attribution:
        rep.text(attribution_method(study.profile, study.extras))
    rep.table(cells.assign(strategies=cells["strategies"].map(", ".join)), "cells", "The runs of this study.",
              formats={"games": ",d"})


# --- the study's report, from what the study gathered (``experiments.seat_order_results.contents``)


def seat_study(contents: StudyContents, extras: ReportExtras = NO_EXTRAS) -> SeatStudy:
    """A seat-order study's contents as the seat report reads them."""
    parts = contents.parts
    return SeatStudy(rows=parts["rows"], compensation=parts["compensation"], confirm=parts["confirm"],
                     profile=contents.profile, extras=extras, played=header(contents.played), rounds=parts["rounds"],
                     tolerance=parts["tolerance"])


def report(contents: StudyContents, extras: ReportExtras = NO_EXTRAS) -> tuple[Report, pd.DataFrame]:
    """The seat-order report and its seat table."""
    rep, seats = build_seat_order_report(contents.meta, seat_study(contents, extras), contents.done,
                                         contents.planned, contents.command)
    rep.provenance = contents.played
    return rep, seats
