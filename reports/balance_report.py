"""The report of a balance search: answers first (the best design, or the Pareto set, against the
rulebook's design on fresh deals: whether each meets its targets within the tolerance and beats the
rulebook), then the search (objective against games spent), which levers mattered, the finalists'
measures and the method. Sizes stated as answers come from the fresh deals; the search's own are
labelled as the discovery estimates they are.

Words about the game come from its profile (score unit, the choice's payout, the compensation's
label); lever names are the spec's.
"""

from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from bgsim.reports.charts import MAX_FIGURE_WIDTH_IN
from bgsim.reports.extras import NO_EXTRAS, ReportExtras
from bgsim.reports.provenance import header
from bgsim.reports.report_builder import Report
from bgsim.sim.profile import GameProfile
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.stats.equivalence import to_tell

__all__ = ["BalanceStudy", "build_balance_report", "finalist_measures", "lever_words", "measure_text"]


@dataclass
class BalanceStudy:
    meta: dict  # balance.json
    spec: dict  # balance.toml as stored
    profile: GameProfile
    finalists: pd.DataFrame  # finalists.csv: the rulebook's row first
    best: dict  # best.json ({} for a pareto search)
    importances: pd.DataFrame  # importances.csv
    played: dict  # label -> value lines of what was played


def lever_words(name: str, profile: GameProfile) -> str:
    """A parameter of the search in words: ``start_points@3p.seat2`` -> "start points, seat 2 at 3
    players"; ``payout:<id>`` -> "<id>'s <the choice's payout>"."""
    if name.startswith("payout:"):
        return _payout_words(name[7:], profile)
    if "@" in name:
        param, rest = name.split("@", 1)
        players, seat = rest.split(".seat")
        label = profile.compensation.label if profile.compensation else param
        return f"{label}, seat {seat} at {players.rstrip('p')} players"
    return name


def _payout_words(component: str, profile: GameProfile) -> str:
    """A component's payout as a short label: "D10's VP per fulfilment" where the game words its
    payout in four words or fewer, else the component's id, its label and the unit ("monastery
    (Kloster, no. 7) gold"), never the sentence that explains the payout."""
    choice = profile.choice()
    if choice is None:
        return f"{component}'s payout"
    what = choice.payout.split(" (")[0]
    if len(what.split()) <= 4:
        return f"{component}'s {what}"
    label = (profile.attribution(choice.attribution).component(component) or {}).get("label")
    return f"{component} ({label}) {choice.payout_unit}" if label else f"{component} {choice.payout_unit}"


def _fmt(value) -> str:
    if isinstance(value, float) and not float(value).is_integer():
        return f"{value:.3g}"
    if isinstance(value, float):
        return str(int(value))
    return str(value)


def build_balance_report(study: BalanceStudy, finish: str) -> Report:
    spec, meta = study.spec, study.meta
    search = spec["search"]
    complete = meta.get("status") == "complete"
    rep = Report(f"Balance search: {spec['name']}",
                 subtitle=f"{study.profile.title}: the design of {len(spec['lever'])} lever(s) that best meets "
                          f"{len(spec['measure'])} measure(s), searched on paired deals and confirmed on fresh ones",
                 meta={"study": meta["study_id"], "seed": str(search["seed"]), "sampler": search["sampler"],
                       "population": ", ".join(spec["population"]["strategies"]),
                       "games played": f"{meta.get('games', 0):,} of a budget of {search['budget']:,}",
                       "trials": str(len(meta.get("trials", {})))} | study.played)
    if not complete:
        rep.warning(f"This search is unfinished (status {meta.get('status')}); run `{finish}` to finish it.")
    _answers(rep, study)
    _search_section(rep, study)
    _importance_section(rep, study)
    _finalist_section(rep, study)
    _method(rep, study)
    return rep


def _changed_levers(row: pd.Series, rulebook: pd.Series) -> list[str]:
    """The lever columns where ``row`` differs from the rulebook's design."""
    return [c for c in row.index if c.startswith("lever:") and row[c] != rulebook[c]]


def _levers_changed(row: pd.Series, rulebook: pd.Series, profile: GameProfile) -> str:
    changed = [f"{lever_words(c[6:], profile)} {_fmt(row[c])} instead of {_fmt(rulebook[c])}"
               for c in _changed_levers(row, rulebook)]
    total = sum(c.startswith("lever:") for c in row.index)
    return f"changes {len(changed)} of {total} lever values: " + "; ".join(changed) if changed else \
        "the rulebook's own values"


OUTCOME_WORDS = {"held": "meets its targets within the tolerance", "off": "misses a target by more than the tolerance",
                 "cannot tell": "cannot tell with these deals whether it meets its targets"}


def _outcome(r: pd.Series) -> str | None:
    value = r.get("outcome")
    return None if value is None or pd.isna(value) else str(value)


def _better(r: pd.Series) -> bool:
    return str(r.get("better")) == "True"


def _deals_played(study: BalanceStudy) -> float | None:
    deals = study.meta.get("confirm_deals") or study.spec["confirm"]["deals"]
    return float(deals) if isinstance(deals, int) else None


def _confirm_deals(study: BalanceStudy) -> str:
    """The fresh deals per player count, as played (the rulebook's rows count them)."""
    deals = study.meta.get("confirm_deals") or study.spec["confirm"]["deals"]
    return f"{deals:,}" if isinstance(deals, int) else str(deals)


def _answers(rep: Report, study: BalanceStudy) -> None:
    rep.heading("Answers")
    rows = study.finalists
    if rows.empty:
        rep.text("No finalist yet: the search has not finished a trial.")
        return
    rulebook = rows.iloc[0]
    finalists = rows.iloc[1:]
    deals = _confirm_deals(study)
    if study.best.get("is_rulebook"):
        rep.note(f"**The rulebook's own design was the best of the {study.best['designs']} designs the search played "
                 f"on all its {study.best['deals']:,} deals** (the others were pruned on fewer): none of these levers' "
                 "values met the objective better. The "
                 "finalists below are the next best, played on fresh deals to check that they are not better after "
                 "all.")
    short = finalists[[_outcome(r) not in (None, "held") for _, r in finalists.iterrows()]]
    if len(short):
        said = "; ".join(f"{r['design']}: {OUTCOME_WORDS[_outcome(r)]}" for _, r in short.iterrows())
        rep.note(f"**{len(short)} of {len(finalists)} finalists were not shown to meet their targets within the "
                 f"tolerance on {deals} fresh deals per player count:** {said}.")
    worse = finalists[[not _better(r) for _, r in finalists.iterrows()]]
    if len(worse):
        rep.note(f"**{len(worse)} of {len(finalists)} finalists were not shown better than the rulebook on the fresh "
                 f"deals** ({', '.join(worse['design'])}): the paired interval of their objective minus the "
                 "rulebook's reaches 0, so the search's advantage may be the luck of its own deals.")
    lines = []
    for _, r in finalists.iterrows():
        verdict = OUTCOME_WORDS.get(_outcome(r) or "", "no measure has a tolerance")
        if _outcome(r) == "cannot tell":
            more = r.get("deals_to_tell")
            verdict += f" ({to_tell(more if pd.notna(more) else None, _deals_played(study), 'deals per player count')})"
        better = "better than the rulebook" if _better(r) else "not shown better than the rulebook"
        lines.append(f"- **{r['design']}** ({verdict}; {better}): {_levers_changed(r, rulebook, study.profile)}. On "
                     f"fresh deals {_measure_words(r, rulebook)}; its objective is {r['objective']:.3g} against the "
                     f"rulebook's {rulebook['objective']:.3g} ({r['vs_rulebook']:+.3g} [{r['vs_rulebook_low']:+.3g}, "
                     f"{r['vs_rulebook_high']:+.3g}]). The search's own estimate, the discovery, was "
                     f"{r['search_objective']:.3g}: the best of many designs on the search's own deals looks better "
                     "there than it is, so the fresh figures are the answer.")
    if study.best:
        parts = []
        for name, value in study.best["ranges"].items():
            numeric = len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            span = f"{value[0]}..{value[1]}" if numeric else "one of " + ", ".join(str(v) for v in value)
            parts.append(f"{lever_words(name, study.profile)} {span}")
        lines.append(f"- **The discovery's interval:** {len(study.best['indistinguishable'])} design(s) the search's "
                     f"{study.best['deals']:,} deals cannot tell from the best (their objective minus the best's has "
                     f"a bootstrap interval reaching 0) span {'; '.join(parts)}. It is read on the search's own "
                     "deals; the finalists above are what the fresh deals confirm.")
    rep.text("\n".join(lines))


SUFFIXES = ("low", "high", "noise", "at_target", "outcome")  # what follows a measure's column: its interval, ...
UNIT_WORDS = {"pp2": "pp²", "pct": "%"}  # a win-rate measure's unit, named in its column (seat_imbalance_pp2@3p)
DESIGN_MEASURES = ("changes",)  # measures of the design itself: one exact column, not one per player count


def _stem(column: str) -> str:
    """A measure column's stem: ``seat_imbalance_pp2@3p`` of ``seat_imbalance_pp2@3p_low``, and
    ``matchup_pct@4p`` of a matchup cell ``matchup_pct@4p[greedy vs random]_high``."""
    key, _, at = column.partition("@")
    players = at.split("[")[0].split("_")[0]
    return f"{key}@{players}"


def _measure_columns(rows: pd.DataFrame) -> list[str]:
    """The finalists' measures, one stem per measure and player count (``name@<n>p``), in column order."""
    stems = [_stem(c) for c in rows.columns if "@" in c and not c.startswith("lever:")]
    return list(dict.fromkeys(stems))


def _design_columns(rows: pd.DataFrame) -> list[str]:
    """The columns of measures of the design itself (``changes``, ``changes:2``)."""
    return [c for c in rows.columns if c.split(":")[0] in DESIGN_MEASURES]


def _name_and_unit(column: str) -> tuple[str, str]:
    """(the measure's key, its unit) of a column: ("first_seat", "pct") of ``first_seat_pct@4p``,
    ("first_seat:2", "pct") of ``first_seat_pct:2@4p``, ("length", "") of ``length@3p``."""
    key = column.split("@")[0]
    name, colon, number = key.partition(":")
    for unit in UNIT_WORDS:
        if name.endswith(f"_{unit}"):
            return name[: -len(unit) - 1] + colon + number, unit
    return key, ""


def _cells(rows: pd.DataFrame, stem: str) -> list[str]:
    """The value columns of a matchup's cells (``stem[row vs column]``), row by row."""
    return [c for c in rows.columns if c.startswith(f"{stem}[") and c.endswith("]")]


def _label(stem: str) -> str:
    """A measure's label in a table: "seat imbalance at 3 players"."""
    name, players = _name_and_unit(stem)[0], stem.rsplit("@", 1)[1]
    return f"{name.replace('_', ' ')} at {players[:-1]} players"


def _is_imbalance(column: str) -> bool:
    return _name_and_unit(column)[0].split(":")[0] == "seat_imbalance"


def measure_text(column: str, value: float, low: float, high: float) -> str:
    """A measure's value and interval in its unit: seat imbalance in pp² with the largest root-mean-square
    seat gap its interval allows (pp), a win rate in %, anything else as it is."""
    unit = _name_and_unit(column)[1]
    if unit == "pp2":
        return f"{value:.2g} pp² [{low:.2g}, {high:.2g}] (seats' RMS gap at most {np.sqrt(max(high, 0)):.1f} pp)"
    if unit == "pct":
        return f"{value:.1f} % [{low:.1f}, {high:.1f}]"
    return f"{value:.3g} [{low:.3g}, {high:.3g}]"


def _measure_words(r: pd.Series, rulebook: pd.Series) -> str:
    """"seat_imbalance at 3 players 0.5 pp² [0, 2.9] ... (rulebook ...), ..." for the numeric measures,
    saying where a design cannot be told from perfect balance."""
    parts = []
    for column in _measure_columns(r.to_frame().T):
        if f"{column}_low" not in r.index or pd.isna(r[f"{column}_low"]):
            continue
        name, players = _name_and_unit(column)[0], column.rsplit("@", 1)[1]
        value = measure_text(column, r[column], r[f"{column}_low"], r[f"{column}_high"])
        text = f"{name} at {players[:-1]} players is {value}"
        if _is_imbalance(column) and str(r.get(f"{column}_at_target")) == "True":
            text += ", which cannot be told from perfect balance"
        outcome = r.get(f"{column}_outcome")
        if outcome is not None and not pd.isna(outcome):
            text += f" (within the tolerance: {outcome})"
        theirs = measure_text(column, rulebook[column], rulebook[f"{column}_low"], rulebook[f"{column}_high"])
        parts.append(text + f" (rulebook {theirs.split(' (')[0]})")
    parts += [f"{column} is {_fmt(float(r[column]))} (rulebook {_fmt(float(rulebook[column]))})"
              for column in _design_columns(r.to_frame().T)]
    return "; ".join(parts) if parts else "its measures are in the table below"


def _search_section(rep: Report, study: BalanceStudy) -> None:
    trials = study.meta.get("trials", {})
    if not trials:
        return
    rep.heading("The search")
    rows = []
    spent = 0
    for number, record in sorted(trials.items(), key=lambda kv: int(kv[0])):
        spent += record.get("games", 0)
        last = record["rungs"][-1]
        rows.append({"trial": int(number), "games": spent, "state": record.get("state", ""), "deals": last["deals"],
                     "objective": last["objective"][0], "objective2": last["objective"][-1],
                     "objectives": len(last["objective"])})
    frame = pd.DataFrame(rows)
    if study.spec["search"]["objective"] == "pareto" and frame["objectives"].iloc[0] > 1:
        fig = _pareto_chart(frame, study)
        caption = ("The first two objectives of every trial (lower is better); filled: complete trials, ringed: the "
                   "finalists.")
    else:
        by_games = frame["games"].iloc[-1] > frame["games"].iloc[0]
        fig = _progress_chart(frame, "games" if by_games else "trial")
        caption = ("Objective of every trial at the last rung of deals it reached, against "
                   + ("the games spent so far (re-scored designs spend none)" if by_games else
                      "the trial number (every trial was re-scored from the same games: none spent any)")
                   + "; hollow: pruned after a smaller rung; the line: the best complete trial so far.")
    rep.figure(fig, "search", caption=caption)


def _progress_chart(frame: pd.DataFrame, x: str) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(min(MAX_FIGURE_WIDTH_IN, 7.5), 3.6))
    done = frame[frame["state"] == "complete"]
    pruned = frame[frame["state"] != "complete"]
    ax.plot(pruned[x], pruned["objective"], "o", mfc="white", color="#8c8c8c", ms=4, label="pruned")
    ax.plot(done[x], done["objective"], "o", color="#4c72b0", ms=4, label="complete")
    best = done["objective"].cummin()
    ax.step(done[x], best, where="post", color="#c44e52", lw=1.4, label="best so far")
    ax.set_xlabel("games spent" if x == "games" else "trial")
    ax.set_ylabel("objective (lower is better)")
    ax.legend(fontsize=8, frameon=False)
    ax.grid(color="0.9")
    fig.tight_layout()
    return fig


def _pareto_chart(frame: pd.DataFrame, study: BalanceStudy) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(min(MAX_FIGURE_WIDTH_IN, 6.5), 4.2))
    done = frame[frame["state"] == "complete"]
    ax.plot(done["objective"], done["objective2"], "o", color="#4c72b0", ms=4)
    chosen = [int(d.split()[1]) for d in study.finalists["design"] if d != "rulebook"]
    marked = done[done["trial"].isin(chosen)]
    ax.plot(marked["objective"], marked["objective2"], "o", mfc="none", mec="#c44e52", ms=10, mew=1.5)
    names = [m["name"] for m in study.spec["measure"]]
    ax.set_xlabel(f"objective 1: {names[0]}")
    ax.set_ylabel(f"objective 2: {names[1] if len(names) > 1 else ''}")
    ax.grid(color="0.9")
    fig.tight_layout()
    return fig


def _importance_section(rep: Report, study: BalanceStudy) -> None:
    table = study.importances
    if table.empty:
        return
    rep.heading("Which levers matter")
    part = table[table["objective"] == 0].sort_values("importance", ascending=False)
    rep.text("Optuna's PED-ANOVA importance of each lever over the complete trials: how much of the objective's "
             "spread among the good trials each lever accounts for (they add up to 1). "
             + ", ".join(f"{lever_words(r.parameter, study.profile)} {r.importance:.2f}" for r in part.itertuples())
             + ".")
    rep.table(table.assign(lever=[lever_words(p, study.profile) for p in table["parameter"]]), "importances",
              caption="Importance of each lever per objective.", show=["objective", "lever", "importance"],
              formats={"importance": "{:.3f}".format})


def _finalist_section(rep: Report, study: BalanceStudy) -> None:
    rows = study.finalists
    if rows.empty:
        return
    rep.heading("Finalists on fresh deals")
    rulebook = rows.iloc[0]
    levers = pd.DataFrame({"design": rows["design"]})
    moved = [_changed_levers(r, rulebook) for _, r in rows.iterrows()]
    levers["levers changed"] = [len(m) for m in moved]
    levers["which"] = ["; ".join(lever_words(c[6:], study.profile) for c in m) or None for m in moved]
    for column in rows.columns:
        if column.startswith("lever:"):
            levers[lever_words(column[6:], study.profile)] = rows[column].map(_fmt)
    rep.table(levers, "finalist_levers", caption="The lever values of each finalist and of the rulebook's design, "
              "and which of them differ from the rulebook's (a start vector counts each seat).")
    table, labels, means, formats = _finalist_table(rows, [len(m) for m in moved])
    rep.table(table, "finalists", columns=labels, means=means, formats=formats, show=list(labels),
              caption=f"Each finalist and the rulebook's design on {_confirm_deals(study)} fresh deals per player "
              "count: how many lever values it changes, every measure with its 95 % interval (win rates in %, seat "
              "imbalance in pp², a matchup matrix row by row: the row's win rate against each column's, in %), "
              "whether it meets its target within the tolerance (two one-sided tests), the objective on the fresh "
              "deals and as the search found it, and whether the design meets its targets and beats the rulebook.")


def _finalist_table(rows: pd.DataFrame, moved: list[int]) -> tuple[pd.DataFrame, dict, list, dict]:
    """The finalists' table as numbers (its CSV) with the label, interval and format of each shown
    column: a measure is shown with its interval from its ``_low`` and ``_high`` columns."""
    table = pd.DataFrame({"design": rows["design"], "levers_changed": moved})
    labels, means, formats = {"design": "design", "levers_changed": "levers changed"}, [], {}
    for stem in _measure_columns(rows):
        label = _label(stem)
        cells = _cells(rows, stem)
        if cells:  # a matchup: its cells stay numbers in the CSV, the matrix is shown as one text
            table[stem] = [_matrix_text(r, cells) for _, r in rows[cells].iterrows()]
            labels[stem] = f"{label} (%)"
            table = table.join(rows[[c for c in rows.columns if c.startswith(f"{stem}[")]])
        elif f"{stem}_low" in rows:
            table = table.join(rows[[stem, f"{stem}_low", f"{stem}_high"]])
            labels[stem], formats[stem] = label, (lambda v, lo, hi, at=stem: measure_text(at, v, lo, hi))
            means.append(stem)
        if f"{stem}_outcome" in rows:
            table[f"{stem}_outcome"] = rows[f"{stem}_outcome"]
            labels[f"{stem}_outcome"] = f"{label}: target"
    for column in _design_columns(rows):
        table[column], labels[column], formats[column] = rows[column], column, _fmt
    table["objective"], table["search_objective"] = rows["objective"], rows["search_objective"]
    labels |= {"objective": "objective (fresh)", "search_objective": "objective (search, discovery)"}
    formats |= {"objective": "{:.3g}".format, "search_objective": "{:.3g}".format}
    # a missing verdict (the rulebook against itself, a measure without tolerance) is empty in the CSV
    table["outcome"] = rows["outcome"] if "outcome" in rows else None
    table["better"] = rows["better"].map(lambda v: None if pd.isna(v) else str(v) == "True").astype(object)
    labels |= {"outcome": "targets", "better": "better than rulebook"}
    return table, labels, means, formats


def finalist_measures(row: pd.Series) -> list[tuple[str, str]]:
    """Each measure of a row of finalists.csv as (label, value in its unit with its interval), as the
    finalists' table shows it: "seat imbalance at 3 players", "0.17 pp² [0, 1.6] (...)"."""
    frame = row.to_frame().T
    out = []
    for stem in _measure_columns(frame):
        label = _label(stem)
        if cells := _cells(frame, stem):
            out.append((f"{label} (%)", _matrix_text(row, cells)))
        elif f"{stem}_low" in row.index:
            out.append((label, measure_text(stem, row[stem], row[f"{stem}_low"], row[f"{stem}_high"])))
    return out + [(column, _fmt(float(row[column]))) for column in _design_columns(frame)]


def _matrix_text(row: pd.Series, cells: list[str]) -> str:
    """A matchup matrix from its cells (``stem[a vs b]``, in %), row by row: "50 5 4 0 / 95 50 17 6"."""
    pairs = [c[c.index("[") + 1: -1].split(" vs ") for c in cells]
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    value = dict(zip(map(tuple, pairs), row[cells], strict=True))
    return " / ".join(" ".join(f"{value.get((a, b), 50.0):.0f}" for b in names) for a in names)


PERCENT_MEASURES = ("first_seat", "matchup")  # a spec states their targets in % and their tolerances in pp


def _spec_measure_words(m: dict) -> str:
    """A measure as its spec states it, with units: "first_seat (target 25 %, weight 1.0, at [4] players,
    tolerance 2 pp)"."""
    rate = m["name"] in PERCENT_MEASURES
    target = _percent_target(m["target"]) if rate else m["target"]
    words = f"target {target}{' %' if rate and not isinstance(target, str) else ''}, weight {m['weight']}"
    if "by" in m:
        words += f", by {m['by']}"
    if "players" in m:
        words += f", at {m['players']} players"
    if m.get("tolerance") is not None:
        words += f", tolerance {_number(m['tolerance'])}{' pp' if rate else ''}"
    return f"{m['name']} ({words})"


def _percent_target(target):
    """A win-rate target in %: a spec stored before targets were in percent holds fractions (a matrix
    with no cell above 1, a number below 1), shown in percent like the rest."""
    if isinstance(target, list):
        fraction = all(v <= 1 for row in target for v in row)
        return [[_number(100 * v if fraction else v) for v in row] for row in target]
    if isinstance(target, int | float) and not isinstance(target, bool):
        return _number(100 * target if 0 < target < 1 else target)
    return target


def _number(value: float):
    return int(round(value)) if abs(value - round(value)) < 1e-9 else round(value, 6)


def _method(rep: Report, study: BalanceStudy) -> None:
    spec = study.spec
    search = spec["search"]
    tolerance = spec.get("tolerance", {})
    seat_pp = tolerance.get("seat_pp", 2.0)
    measures = "; ".join(_spec_measure_words(m) for m in spec["measure"])
    rep.heading("Method")
    rep.text(
        f"**Levers and measures.** {len(spec['lever'])} lever(s); measures: {measures}. Every measure is unbiased at "
        "its target: *seat imbalance* is the seats' mean squared gap to the fair share less its sampling noise, so a "
        "perfectly balanced design reads about 0 (the best seat's rate minus the worst's read about 1.6 pp on 4,000 "
        "deals of a perfectly fair game). A measure's loss is unbiased too: the squared distance to a number, to 1/n "
        "for 'fair' or to a matchup matrix's cells, less the estimate's sampling variance; the measure itself for "
        "'min' (seat imbalance for a target of 0); for 'rulebook' the relative excess over the rulebook's design on "
        "the same deals, cut at 0, less what noise alone adds there. A win rate's loss is in pp² (squared "
        "percentage points). *changes* counts the lever values a design moves away from the rulebook's (a start "
        "vector one per seat; with `by = \"distance\"` each weighted by how far it moved, as a share of its lever's "
        "range), so that a search prefers designs that change few: it is exact, without games, and its weight says "
        "what one change must buy. Losses are averaged over the measure's "
        + ("player counts; the objective is their weighted sum." if search["objective"] == "weighted" else
           "player counts; each measure is its own objective (a Pareto search).") + "\n\n"
        f"**Search.** Optuna's {search['sampler']} sampler, asked and told here, seeded per step, on a journal in "
        "the study folder. Every design is played on the same deals (common random numbers) by the population "
        f"({', '.join(spec['population']['strategies'])}; each seat's strategy rotates from deal to deal), and, for a "
        "matchup, by every pair of its strategies in alternating seats, both ways round. Designs start on "
        f"{search['deals'][0]:,} deals per player count and only the promising reach "
        f"{', '.join(f'{d:,}' for d in search['deals'][1:]) or 'more'} (Optuna's successive halving). A start "
        "vector that only adds to the final score is not played: the games are re-scored under it. The search "
        f"stops after {search['trials']} trials or {search['budget']:,} games.\n\n"
        f"**Confirmation.** The finalists and the rulebook's design are played on {_confirm_deals(study)} fresh "
        "deals per player count (another seed); what the answers state comes from them. A measure *meets its target "
        f"within the tolerance* by two one-sided tests on simultaneous intervals: every seat within ±{seat_pp:g} pp of "
        f"its fair share for seat imbalance, the first seat's rate and every matchup cell within ±{seat_pp:g} pp of "
        "theirs (`[tolerance] seat_pp`), another measure within its own `tolerance`; a design meets its targets when "
        "every such measure does, misses one when any is off by more than its tolerance, and otherwise the deals "
        "cannot tell. A finalist is *better than the rulebook* when its objective minus the rulebook's on the same "
        "fresh deals has a paired bootstrap interval (2.5 and 97.5 percentiles over resampled deals) below 0. Rates "
        "and means have t intervals with the variance clustered by deal; seat imbalance's interval inverts a "
        "noncentral chi-square and starts at 0 where a design cannot be told from perfect balance. Each interval's "
        "coverage is measured by the calibration suite (README, statistics).")


def report(contents: StudyContents, extras: ReportExtras = NO_EXTRAS) -> tuple[Report, None]:
    """The balance report from what the search gathered (``experiments.balance.contents``)."""
    parts = contents.parts
    study = BalanceStudy(meta=contents.meta, spec=parts["spec"], profile=contents.profile,
                         finalists=parts["finalists"], best=parts["best"], importances=parts["importances"],
                         played=header(contents.played))
    rep = build_balance_report(study, contents.command)
    rep.provenance = contents.played
    return rep, None
