"""The seat-order report's first question after its answers: does the answer hold across skill?

Per player count, each population's named answers (best seat, worst seat, compensating start
vector) side by side, a verdict on whether they are identical in every population, and the
population-by-seat interaction test (``sim.stats.seat_interaction``) per start vector. "The same"
is said of the named answers only; whether seat profiles differ beyond chance is the test's to say,
and a test that detects nothing is reported as that, with the largest deviation, never as "held".
"""

import pandas as pd
from bgsim.reports.report_builder import Report, fmt_p
from bgsim.sim.stats.equivalence import OUTCOME_WORDS
from bgsim.sim.stats.lazy import collect, lazy
from bgsim.sim.stats.seat_interaction import MIN_DEALS, interaction_table

__all__ = ["HEADING", "add_skill_section", "skill_answers"]

HEADING = "Does the answer hold across skill?"
OUTCOME = {key: f"{words} on fresh deals" for key, words in OUTCOME_WORDS.items()}
NOT_SIGNIFICANT = " (not significant)"  # a best or worst seat no seat test singles out (as the robustness report)


def add_skill_section(rep: Report, rows, seats: pd.DataFrame, vectors: pd.DataFrame, label: str,
                      left_out: frozenset = frozenset(), alpha: float = 0.05) -> None:
    """The section, for a study of 2 or more populations. ``seats``: the seat table (``seat_table``);
    ``vectors``: one row per (n_players, population) with the compensating ``vector`` ("8/9/12") and
    its ``outcome`` on fresh deals (held / off / cannot tell, or None where not played there), empty
    without compensation; ``label``: what a start vector sets; ``left_out``: (n_players, population)
    of one-sided tables, left out of the comparison and the test."""
    kept = seats[[(n, p) not in left_out for n, p in zip(seats["n_players"], seats["population"], strict=True)]]
    order = collect(lazy(rows).select("population").unique(maintain_order=True))["population"].to_list()
    kept = kept.assign(order_=kept["population"].map(order.index)).sort_values(
        ["n_players", "order_", "start", "seat"], kind="stable").drop(columns="order_")
    answers = skill_answers(kept, vectors)
    tests = interaction_table(rows, exclude=sorted(left_out), alpha=alpha)
    answers = _with_deviations(answers, tests)
    rep.heading(HEADING)
    rep.text(_intro(label, alpha) + _left_out_words(left_out))
    single = set(kept["start"]) <= {"all"}  # a study without start vectors: no "with ... start" words
    lines = [_player_line(int(n), part, tests[tests["n_players"] == n], label, single)
             for n, part in answers.groupby("n_players", sort=True)]
    rep.text("\n".join(lines) if lines else "No player count has two populations to compare.")
    _tables(rep, answers, tests, label)


def _intro(label: str, alpha: float) -> str:
    return ("Per player count, each population's best seat (highest win rate on these games), worst seat (lowest) "
            f"and compensating {label} (where the study solved one). *Same for all populations* means the named "
            "answer is identical in every population; a best or worst seat is named from these games' rates, and "
            "marked *not significant* where the seat test does not single it out. Whether the populations' seat "
            "profiles differ beyond chance is the interaction test: Pearson's chi-square of homogeneity on the "
            "populations x seats table of wins, corrected (second-order Rao–Scott) for games that are not "
            "independent (a mixed table plays each deal in every seating, and every population plays the same "
            "deals: the covariance is clustered by deal), on its effective degrees of freedom, with "
            f"Benjamini–Hochberg over every player count and start vector (q < {alpha:g}). A test that detects no "
            "difference does not show that the answer holds across skill: it says no difference was detected at "
            "these games, beside the largest deviation of a population's seat from the pooled seat profile. No "
            f"test is run on fewer than {MIN_DEALS} deals per population.")


def _left_out_words(left_out: frozenset) -> str:
    if not left_out:
        return ""
    tables = ", ".join(f"{n} players {pop}" for n, pop in sorted(left_out))
    return f" Left out as one-sided (one strategy wins nearly every game): {tables}."


def skill_answers(seats: pd.DataFrame, vectors: pd.DataFrame) -> pd.DataFrame:
    """One row per (n_players, start, population) of the seat table: best_seat and worst_seat (1-based,
    "1, 2" where rates tie) with best_rate/worst_rate and their Wilson bounds, best_sure/worst_sure
    (the seat test singles the seat out), and the population's compensating vector and outcome."""
    out = []
    for (n, start, pop), part in seats.groupby(["n_players", "start", "population"], sort=False):
        row = dict(n_players=n, start=start, population=pop, games=int(part["games"].min()))
        for side, pick, sign in (("best", part["win_rate"].max(), 1), ("worst", part["win_rate"].min(), -1)):
            at = part[(part["win_rate"] - pick).abs() < 1e-12].sort_values("seat")
            first = at.iloc[0]
            row |= {f"{side}_seat": ", ".join(str(int(s) + 1) for s in at["seat"]), f"{side}_rate": first.win_rate,
                    f"{side}_rate_low": first.win_rate_low, f"{side}_rate_high": first.win_rate_high,
                    f"{side}_sure": bool(len(at) == 1 and first.favoured == sign)}
        out.append(row)
    answers = pd.DataFrame(out)
    if answers.empty:
        return answers
    if vectors.empty:
        return answers.assign(vector=None, outcome=None)
    return answers.merge(vectors[["n_players", "population", "vector", "outcome"]], on=["n_players", "population"],
                         how="left")


def _with_deviations(answers: pd.DataFrame, tests: pd.DataFrame) -> pd.DataFrame:
    """Each population's seat furthest from the pooled seat profile (1-based) and its deviation (pp)."""
    keys = ["n_players", "start", "population"]
    found = tests[[*keys, "deviation_seat", "deviation_pp"]].assign(deviation_seat=tests["deviation_seat"] + 1)
    return answers.merge(found, on=keys, how="left") if not answers.empty else answers


def _start_words(start: str, label: str, single: bool) -> str:
    """" with rulebook start VP", " with start VP 8/9/12", or "" for a study without start vectors."""
    if single:
        return ""
    return f" with {start} {label}" if "/" not in str(start) else f" with {label} {start}"


def _player_line(n: int, part: pd.DataFrame, tests: pd.DataFrame, label: str, single: bool) -> str:
    """One player count: whether every named answer is the same in every population, then each test."""
    if part["population"].nunique() < 2:
        return f"- **{n} players**: one population only (the others' tables are one-sided): nothing to compare."
    same, differ = [], []
    for start, cell in part.groupby("start", sort=False):
        for side in ("best", "worst"):
            item = f"{side} seat{_start_words(start, label, single)}"
            _compare(item, cell, lambda r, side=side: _seat_name(r[f"{side}_seat"]), same, differ)
    solved = part.drop_duplicates("population")
    solved = solved[solved["vector"].notna()]
    if len(solved) >= 2:
        _compare(f"compensating {label}", solved, lambda r: str(r["vector"]), same, differ)
    elif len(solved) == 1:
        same.append(f"compensating {label} solved for *{solved['population'].iloc[0]}* only: "
                    f"{solved['vector'].iloc[0]}")
    if differ:
        head = (f"- **{n} players**: **not the same for all populations**. " + " ".join(differ)
                + (f" The same in every population: {'; '.join(same)}." if same else ""))
    else:
        head = f"- **{n} players**: **same for all populations**: {'; '.join(same)}."
    tested = [_test_words(t, label, single) for _, t in tests.groupby("start", sort=False)]
    return head + "".join(f" {t}" for t in tested)


def _seat_name(seats: str) -> str:
    """"seat 1", or "seats 1, 2" where rates tie."""
    return f"seat{'s' if ',' in seats else ''} {seats}"


def _seat_words(row, side: str) -> str:
    """The seat's name, with " (not significant)" where the seat test does not single it out."""
    return _seat_name(row[f"{side}_seat"]) + ("" if row[f"{side}_sure"] else NOT_SIGNIFICANT)


def _compare(item: str, cell: pd.DataFrame, answer_of, same: list[str], differ: list[str]) -> None:
    """Adds "item: answer" to ``same`` where every population of ``cell`` names one answer
    (``answer_of(row)``), else "Item: answer in *a*, *b*; other in *c*." to ``differ``."""
    named = {pop: answer_of(r) for pop, r in zip(cell["population"], cell.to_dict("records"), strict=True)}
    if len(set(named.values())) == 1:
        same.append(f"{item}: {next(iter(named.values()))}")
        return
    groups: dict[str, list[str]] = {}
    for pop, answer in named.items():
        groups.setdefault(answer, []).append(f"*{pop}*")
    text = "; ".join(f"{answer} in {', '.join(pops)}" for answer, pops in groups.items())
    differ.append(f"{item[0].upper()}{item[1:]}: {text}.")


def _test_words(t: pd.DataFrame, label: str, single: bool) -> str:
    """The interaction test of one (player count, start vector) in words, with the largest deviation."""
    first = t.iloc[0]
    far = t.loc[t["deviation_pp"].abs().idxmax()]
    largest = (f"largest deviation from the pooled seat profile: *{far.population}* seat "
               f"{int(far.deviation_seat) + 1}, {far.deviation_pp:+.1f} pp")
    where = f"Seat profiles{_start_words(first.start, label, single)}"
    if first.too_few:
        low = t.loc[t["deals"].idxmin()]
        return (f"{where}: not tested, *{low.population}* played {int(low.deals):,} deals, fewer than the "
                f"{MIN_DEALS} per population the test needs ({largest}).")
    if pd.isna(first.p):
        return f"{where}: not tested, nothing varies from deal to deal ({largest})."
    stat = (f"χ² = {first.statistic:.1f} on {first.df:.1f} df (Rao–Scott; Pearson {first.pearson:.1f} on "
            f"{int(first.nominal_df)} df), {_value('p', first.p)}, {_value('q', first.q)}")
    if first.differs:
        return f"{where}: {stat}: **the populations' seat profiles differ beyond chance**; {largest}."
    return f"{where}: {stat}: no difference detected at these games; {largest}."


def _value(name: str, value: float) -> str:
    """"p = 0.032", or "p < 1e-16" where the value is too small to print."""
    text = fmt_p(value)
    return f"{name} {text}" if text.startswith("<") else f"{name} = {text}"


def _tables(rep: Report, answers: pd.DataFrame, tests: pd.DataFrame, label: str) -> None:
    if answers.empty:
        return
    shown = answers.copy()
    for side in ("best", "worst"):  # the seat with its mark; the CSV keeps best_seat and best_sure apart too
        shown[f"{side}_shown"] = [_seat_words(r, side) for r in shown.to_dict("records")]
    shown["vector_shown"] = [None if pd.isna(v) else f"{v} ({OUTCOME.get(o, 'not played on fresh deals')})"
                             for v, o in zip(shown["vector"], shown["outcome"], strict=True)]
    rep.table(shown, "skill",
              "Per population: the best and the worst seat with its win rate (Wilson 95 %, clustered by deal), the "
              f"compensating {label} with its verdict on fresh deals, and the seat furthest from the pooled seat "
              "profile of its player count and start vector.",
              columns={"start": label, "best_shown": "best seat", "best_rate": "best seat's win rate [95 % CI]",
                       "worst_shown": "worst seat", "worst_rate": "worst seat's win rate [95 % CI]",
                       "vector_shown": f"compensating {label}", "deviation_seat": "seat furthest from pooled",
                       "deviation_pp": "its deviation, pp"},
              rates=["best_rate", "worst_rate"],
              show=["n_players", "start", "population", "games", "best_shown", "best_rate", "worst_shown",
                    "worst_rate", "vector_shown", "deviation_seat", "deviation_pp"],
              formats={"games": ",d", "deviation_pp": "+.1f", "deviation_seat": ".0f"})
    if tests.empty:
        return
    per = tests.drop_duplicates(["n_players", "start"]).drop(
        columns=["population", "games", "deals", "deviation_seat", "deviation_pp"]).reset_index(drop=True)
    rep.table(per, "seat_interaction", "The population-by-seat interaction test per player count and start vector: "
              "Rao–Scott chi-square on its effective df, p, Benjamini–Hochberg q, the plain Pearson chi-square on "
              "(populations - 1)(seats - 1) df, and the mean design effect of the games' dependence.",
              columns={"start": label, "statistic": "χ² (Rao–Scott)", "df": "effective df", "q": "q (BH)",
                       "pearson": "Pearson χ²", "nominal_df": "df", "design_effect": "design effect",
                       "too_few": "too few deals", "differs": "differ beyond chance"},
              formats={"statistic": ".1f", "df": ".1f", "p": fmt_p, "q": fmt_p, "pearson": ".1f",
                       "design_effect": ".2f"})
