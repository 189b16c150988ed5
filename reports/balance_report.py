"""The report of a balance search: answers first (the best design, or the Pareto set, against the
rulebook's design on fresh deals, and whether it held), then the search (objective against games
spent), which levers mattered, the finalists' measures and the method.

Words about the game come from its profile (score unit, the choice's payout, the compensation's
label); lever names are the spec's.
"""

import json
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from bgsim.reports.charts import MAX_FIGURE_WIDTH_IN
from bgsim.reports.report_builder import Report
from bgsim.sim.profile import GameProfile

__all__ = ["BalanceStudy", "build_balance_report", "lever_words"]


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
        choice = profile.choice()
        what = choice.payout.split(" (")[0] if choice else "payout"
        return f"{name[7:]}'s {what}"
    if "@" in name:
        param, rest = name.split("@", 1)
        players, seat = rest.split(".seat")
        label = profile.compensation.label if profile.compensation else param
        return f"{label}, seat {seat} at {players.rstrip('p')} players"
    return name


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


def _levers_changed(row: pd.Series, rulebook: pd.Series, profile: GameProfile) -> str:
    changed = [f"{lever_words(c[6:], profile)} {_fmt(row[c])} instead of {_fmt(rulebook[c])}"
               for c in row.index if c.startswith("lever:") and row[c] != rulebook[c]]
    return "; ".join(changed) if changed else "the rulebook's own values"


def _answers(rep: Report, study: BalanceStudy) -> None:
    rep.heading("Answers")
    rows = study.finalists
    if rows.empty:
        rep.text("No finalist yet: the search has not finished a trial.")
        return
    rulebook = rows.iloc[0]
    finalists = rows.iloc[1:]
    held = finalists[finalists["held"].astype(str) == "True"]
    confirm = study.spec["confirm"]["deals"]
    if study.best.get("is_rulebook"):
        rep.note(f"**The rulebook's own design was the best of the {study.best['designs']} designs the search played "
                 f"on all its {study.best['deals']:,} deals** (the others were pruned on fewer): none of these levers' "
                 "values met the objective better. The "
                 "finalists below are the next best, played on fresh deals to check that they are not better after "
                 "all.")
    if len(held) < len(finalists):
        failed = ", ".join(finalists[finalists["held"].astype(str) != "True"]["design"])
        rep.note(f"**{len(finalists) - len(held)} of {len(finalists)} finalists did not hold on {confirm:,} fresh "
                 f"deals per player count:** {failed}. On those deals their objective was not better than the "
                 "rulebook's with 95 % confidence (the paired interval of the difference reaches 0), so the search's "
                 "advantage may be luck of its deals.")
    lines = []
    for _, r in finalists.iterrows():
        verdict = "held" if str(r["held"]) == "True" else "did not hold"
        lines.append(f"- **{r['design']}** ({verdict}): {_levers_changed(r, rulebook, study.profile)}. On fresh "
                     f"deals {_measure_words(r, rulebook)}; its objective is {r['objective']:.4f} against the "
                     f"rulebook's {rulebook['objective']:.4f} ({r['vs_rulebook']:+.4f} [{r['vs_rulebook_low']:+.4f}, "
                     f"{r['vs_rulebook_high']:+.4f}]). In the search it was {r['search_objective']:.4f}: the best "
                     "of many designs on the search's own deals looks better there than it is.")
    if study.best:
        parts = []
        for name, value in study.best["ranges"].items():
            numeric = len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            span = f"{value[0]}..{value[1]}" if numeric else "one of " + ", ".join(str(v) for v in value)
            parts.append(f"{lever_words(name, study.profile)} {span}")
        lines.append(f"- **The answer's interval:** {len(study.best['indistinguishable'])} design(s) the search's "
                     f"{study.best['deals']:,} deals cannot tell from the best (their objective minus the best's has "
                     f"a bootstrap interval reaching 0) span {'; '.join(parts)}.")
    rep.text("\n".join(lines))


def _measure_columns(rows: pd.DataFrame) -> list[str]:
    """The finalists' measure columns (``name@<n>p``), without their interval columns."""
    return [c for c in rows.columns if "@" in c and not c.startswith("lever:") and not c.endswith(("_low", "_high"))]


def _measure_words(r: pd.Series, rulebook: pd.Series) -> str:
    """"seat_spread at 3 players 0.0358 [0.0214, 0.0645] (rulebook 0.0388), ..." for the numeric measures."""
    parts = []
    for column in _measure_columns(r.to_frame().T):
        if f"{column}_low" not in r.index or pd.isna(r[f"{column}_low"]):
            continue
        name, players = column.rsplit("@", 1)
        parts.append(f"{name} at {players[:-1]} players is {r[column]:.3g} [{r[f'{column}_low']:.3g}, "
                     f"{r[f'{column}_high']:.3g}] (rulebook {rulebook[column]:.3g})")
    return ", ".join(parts) if parts else "its measures are in the table below"


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
    levers = pd.DataFrame({"design": rows["design"]})
    for column in rows.columns:
        if column.startswith("lever:"):
            levers[lever_words(column[6:], study.profile)] = rows[column].map(_fmt)
    rep.table(levers, "finalist_levers", caption="The lever values of each finalist and of the rulebook's design.")
    shown = pd.DataFrame({"design": rows["design"]})
    for column in _measure_columns(rows):
        name, players = column.rsplit("@", 1)
        label = f"{name} at {players[:-1]} players"
        if f"{column}_low" in rows:
            shown[label] = [f"{v:.3g} [{lo:.3g}, {hi:.3g}]" for v, lo, hi in
                            zip(rows[column], rows[f"{column}_low"], rows[f"{column}_high"], strict=True)]
        else:
            shown[label] = rows[column].map(lambda v: _matrix_text(v))
    shown["objective"] = rows["objective"].map("{:.4f}".format)
    shown["held"] = rows["held"].map(lambda v: "-" if pd.isna(v) else ("yes" if str(v) == "True" else "no"))
    rep.table(shown, "finalists", caption=f"Each finalist and the rulebook's design on "
              f"{study.spec['confirm']['deals']:,} fresh deals per player count: every measure with its 95 % "
              f"bootstrap interval over deals (a matchup matrix row by row), the objective, and whether it held.")


def _matrix_text(value) -> str:
    try:
        matrix = np.asarray(json.loads(value))
    except (TypeError, ValueError):
        return str(value)
    return " / ".join(" ".join(f"{v:.2f}" for v in row) for row in matrix)


def _method(rep: Report, study: BalanceStudy) -> None:
    spec = study.spec
    search = spec["search"]
    measures = "; ".join(f"{m['name']} (target {m['target']}, weight {m['weight']}, at {m['players']} players)"
                         for m in spec["measure"])
    rep.heading("Method")
    rep.text(
        f"**Levers and measures.** {len(spec['lever'])} lever(s); measures: {measures}. A measure's loss is its "
        "distance from the target (its value for 'min', from 1/n for 'fair', the relative excess over the rulebook's "
        "design on the same deals for 'rulebook', the mean over the cells for a matchup matrix), averaged over its "
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
        f"**Confirmation.** The finalists and the rulebook's design are played on {spec['confirm']['deals']:,} fresh "
        "deals per player count (another seed). A finalist holds when its objective there is better than the "
        "rulebook's with the paired bootstrap interval of the difference (over deals) below 0. Measure intervals are "
        "bootstrap percentiles over deals.")
