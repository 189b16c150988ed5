"""The report of a component-value study: per component its choice value (what taking it is worth
against the other components on offer, or alone on offer against the average component, on the same
chance), the payout at which it would be even, that payout checked within its tolerance on fresh
games, what replacing it changes at the table (the ablation, ``reports.component_ablation``), and the
comparison with an association table.

Every word about the components comes from the game's attribution and choice declaration
(``sim.profile``): no game's components are named here.
"""

from dataclasses import dataclass, field

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from bgsim.reports.charts import MAX_FIGURE_WIDTH_IN
from bgsim.reports.component_ablation import ablation_answer, ablation_failures, ablation_method, ablation_sections
from bgsim.reports.extras import NO_EXTRAS, ReportExtras
from bgsim.reports.provenance import header
from bgsim.reports.report_builder import Report
from bgsim.sim.profile import GameProfile
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.stats.choice_value import AVERAGE
from bgsim.sim.stats.equivalence import to_tell
from scipy import stats

__all__ = ["ComponentValueStudy", "build_component_value_report"]

ALPHA = 0.05
MAX_NAMED = 4  # components named in the Answers per player count


@dataclass
class ComponentValueStudy:
    meta: dict  # the study's marker (component_value.json)
    spec: dict  # its spec, as stored
    profile: GameProfile
    values: pd.DataFrame  # choice_values.csv: per player count and component
    payouts: pd.DataFrame  # payouts.csv: per solved component
    association: pd.DataFrame | None  # an association table to compare with (n_players, id, win_diff), or None
    played: dict  # label -> value lines of what was played
    ablation: pd.DataFrame = field(default_factory=pd.DataFrame)  # ablation.csv: per player count and component


def build_component_value_report(study: ComponentValueStudy, done: int, planned: int, finish: str) -> Report:
    """The report; an unfinished study (``done`` of ``planned`` source games and ablation deals) under a warning
    naming ``finish``."""
    a = study.profile.attribution(study.profile.choice().attribution)
    sample = study.spec["sample"]
    complete = study.meta.get("status") == "complete"
    rep = Report(f"What {a.label} are worth: {study.spec['name']}",
                 subtitle=f"{study.profile.title}: each {a.singular}'s choice value (taking it against the other "
                          f"{a.label} on offer, on the same chance) and the payout at which it would be even",
                 meta={"study": study.meta["study_id"], "seed": str(sample["seed"]),
                       "population": ", ".join(study.spec["population"]["strategies"]),
                       "source games": f"{sample['games'] * len(study.spec['game']['players']):,}",
                       "rollouts per alternative": str(sample["rollouts"])} | _ablation_meta(study.spec) | study.played)
    if not complete:
        rep.warning(f"This study is unfinished ({done:,} of {planned:,} source games and ablation deals, status "
                    f"{study.meta.get('status')}); run `{finish}` to finish it. Values below are from what is done.")
    values = _with_payouts(study.values, study.payouts)
    _answers(rep, study, values)
    _value_sections(rep, study, values)
    if not study.ablation.empty:
        ablation_sections(rep, study.ablation, a, study.profile.choice(), study.profile.score_unit)
    if study.association is not None:
        _association_section(rep, study, values)
    _method(rep, study)
    return rep


def _ablation_meta(spec: dict) -> dict:
    """The ablation's deals for the header, if the study has one."""
    ablation, players = spec.get("ablation", {}), len(spec["game"]["players"])
    if not ablation.get("deals"):
        return {}
    fresh = ablation.get("fresh_deals", 0)
    return {"ablation deals": f"{ablation['deals'] * players:,}" + (f", and {fresh * players:,} fresh" if fresh
                                                                     else "")}


def _with_payouts(values: pd.DataFrame, payouts: pd.DataFrame) -> pd.DataFrame:
    keep = ["n_players", "component", "payout_now", "payout", "payout_low", "payout_high", "reachable", "tolerance",
            "fresh_games", "fresh_win", "fresh_win_low", "fresh_win_high", "fresh_outcome", "fresh_games_to_tell"]
    if payouts.empty or "fresh_outcome" not in payouts:
        return values.assign(**{column: np.nan for column in keep[2:]})
    return values.merge(payouts[keep], on=["n_players", "component"], how="left")


def _pp(value: float) -> str:
    return f"{100 * value:+.1f} pp"


def _interval_pp(low: float, high: float) -> str:
    return f"[{100 * low:+.1f}, {100 * high:+.1f}]"


# --- answers


def _answers(rep: Report, study: ComponentValueStudy, values: pd.DataFrame) -> None:
    choice = study.profile.choice()
    a = study.profile.attribution(choice.attribution)
    rep.heading("Answers")
    checked = values[values["fresh_outcome"].notna()] if "fresh_outcome" in values else values.iloc[:0]
    short = checked[checked["fresh_outcome"] != "held"]
    steps = study.spec.get("tolerance", {}).get("payout_steps", 0.5)
    if len(short):
        names = ", ".join(f"{r.id} at {r.n_players} players ({r.fresh_outcome})" for r in short.itertuples())
        rep.note(f"**{len(short)} of the {len(checked)} suggested payouts checked were not shown even within "
                 f"±{steps:g} payout step on fresh games:** {names}. Their suggestion was even on the states it was "
                 "solved on; on fresh source games, played under the new payout, the seats take the component at "
                 "other moments and the states where it is still on offer differ. *Off* means its fresh value lies "
                 "beyond the tolerance for sure; *cannot tell* that the fresh games were too few to decide (the "
                 "table gives the games that would). Treat these payouts as a direction, not a number.")
    failed_ablation = ablation_failures(study.ablation, study.spec.get("ablation", {}).get("fresh_deals", 0))
    if failed_ablation:
        rep.note(failed_ablation)
    lines = []
    for n, part in values.groupby("n_players", sort=True):
        off = part[part["q"] < ALPHA].assign(size=lambda f: f["win"].abs()).sort_values("size", ascending=False)
        tested = int(part["q"].notna().sum())
        if off.empty:
            lines.append(f"- **{n} players:** no {a.singular} is worth more or less than the others on offer at "
                         f"q < {ALPHA} ({tested} tested).")
            continue
        named = [_answer_line(r, choice) for r in off.head(MAX_NAMED).itertuples()]
        more = f" ({len(off) - MAX_NAMED} more in the table)" if len(off) > MAX_NAMED else ""
        lines.append(f"- **{n} players:** {_group_words(part, a)}{len(off)} of {tested} {a.label} are off{more}. "
                     + " ".join(named))
    for n, part in study.ablation.groupby("n_players", sort=True) if not study.ablation.empty else ():
        lines.append(ablation_answer(n, part, a, study.profile.score_unit))
    rep.text("\n".join(lines))


def _group_words(part: pd.DataFrame, a) -> str:
    """"by <group label>, the mean over its <components>: <group> +9.0 pp, ... " when the components
    come in more than one group."""
    groups = part.groupby("group")["win"].mean().sort_values(ascending=False)
    if len(groups) < 2:
        return ""
    return (f"by {a.group_label}, the mean over its {a.label}: "
            + ", ".join(f"{group} {_pp(value)}" for group, value in groups.items()) + ". ")


def _answer_line(r, choice) -> str:
    text = f"{r.id} is worth {_pp(r.win)} {_interval_pp(r.win_low, r.win_high)} against {_reference(r)}"
    if pd.notna(r.payout) and r.reachable and r.payout != r.payout_now:
        text += (f"; at {int(r.payout)} {choice.payout_unit} instead of {int(r.payout_now)} it would be even"
                 + _fresh_words(r))
    elif pd.notna(r.payout) and r.reachable:  # the best whole step is no step
        text += (f"; no whole-{choice.payout_unit} change of its payout ({int(r.payout_now)}) brings it closer to "
                 "even on the solver's points")
    elif pd.notna(r.payout) and not r.reachable:
        text += (f"; no {choice.payout} from {choice.payout_range[0]} to {choice.payout_range[1]} makes it even "
                 f"(its value at {_closest(r)} {choice.payout_unit} is the closest)")
    return text + "."


def _closest(r) -> str:
    return str(int(r.payout)) if pd.notna(r.payout) else "-"


def _reference(r) -> str:
    """What a component's value is measured against (``sim.stats.choice_value``)."""
    return "the average of the others" if getattr(r, "reference", "") == AVERAGE else "the others on offer"


def _fresh_words(r) -> str:
    if pd.isna(r.fresh_outcome):
        return ""
    verdict = {"held": "held within the tolerance", "off": "off by more than the tolerance",
               "cannot tell": "cannot tell with these games"}[r.fresh_outcome]
    more = ("; " + to_tell(r.fresh_games_to_tell if pd.notna(r.fresh_games_to_tell) else None, r.fresh_games,
                           "source games") if r.fresh_outcome == "cannot tell" else "")
    return (f" ({verdict} on {int(r.fresh_games)} fresh games: {_pp(r.fresh_win)} "
            f"{_interval_pp(r.fresh_win_low, r.fresh_win_high)}, tolerance ±{100 * r.tolerance:.1f} pp{more})")


# --- per player count


def _value_sections(rep: Report, study: ComponentValueStudy, values: pd.DataFrame) -> None:
    choice = study.profile.choice()
    a = study.profile.attribution(choice.attribution)
    for n, part in values.groupby("n_players", sort=True):
        part = part.sort_values("win", ascending=False)
        rep.heading(f"{n} players")
        rep.figure(_forest(part, a), f"choice_values_{n}p",
                   caption=f"Choice value of each {a.singular} at {n} players with enough points for an "
                           f"interval: win share when a seat takes it minus the mean of the other {a.label} on offer "
                           f"(alone on offer: minus the average {a.singular}'s value over letting it go), with 95 % "
                           f"intervals clustered by source game; filled: q < {ALPHA}.")
        table = part.assign(win_pp=100 * part["win"], win_pp_low=100 * part["win_low"],
                            win_pp_high=100 * part["win_high"])
        show = ["id", "group", "points", "games", "win_pp", "margin", "q", "payout_now", "payout", "payout_low",
                "payout_high", "fresh_win", "fresh_outcome"]
        rep.table(table, f"choice_values_{n}p", caption=f"{n} players: per {a.singular}, the decision points where "
                  f"it was on offer and their source games, its choice value in percentage points of win share and "
                  f"in {study.profile.score_unit} margin, q over the {a.label} tested, and for those solved: its "
                  f"{choice.payout} now, the payout at which it is even and the payouts whose interval contains 0, "
                  f"and the value at that payout on fresh games with its verdict within the tolerance.",
                  columns={"win_pp": "value, pp", "margin": f"margin, {study.profile.score_unit}",
                           "payout_now": "payout now", "payout": "even at", "payout_low": "even from",
                           "payout_high": "even to", "fresh_win": "fresh value", "fresh_outcome": "fresh verdict"},
                  means=["win_pp", "margin"], show=show,
                  formats={"q": _fmt_q, "fresh_win": lambda v: "-" if pd.isna(v) else f"{100 * v:+.1f} pp",
                           **{c: _fmt_int for c in ("payout_now", "payout", "payout_low", "payout_high")}})


def _fmt_q(q) -> str:
    return "-" if pd.isna(q) else (f"{q:.2g}" if q >= 0.001 else "< 0.001")


def _fmt_int(v) -> str:
    return "-" if pd.isna(v) else f"{int(v)}"


def _forest(part: pd.DataFrame, a) -> plt.Figure:
    tested = part[part["win_low"].notna()]
    part = (tested if len(tested) else part).sort_values("win")  # the others have too few points to show
    height = max(2.5, 0.18 * len(part) + 1)
    fig, ax = plt.subplots(figsize=(min(MAX_FIGURE_WIDTH_IN, 7.5), height))
    groups = sorted(part["group"].astype(str).unique())
    colours = dict(zip(groups, plt.cm.tab10.colors, strict=False))
    y = np.arange(len(part))
    for i, r in enumerate(part.itertuples()):
        colour = colours[str(r.group)]
        if pd.notna(r.win_low):
            ax.plot([100 * r.win_low, 100 * r.win_high], [i, i], color=colour, lw=1.2)
        filled = pd.notna(r.q) and r.q < ALPHA
        ax.plot(100 * r.win, i, "o", color=colour, mfc=colour if filled else "white", ms=4.5)
    ax.axvline(0, color="0.4", lw=0.8)
    ax.set_yticks(y, part["id"].astype(str), fontsize=7 if len(part) > 30 else 8)
    ax.set_ylim(-1, len(part))
    ax.set_xlabel("choice value: win share against the others on offer, pp")
    for group, colour in colours.items():
        ax.plot([], [], "o", color=colour, label=f"{a.group_label} {group}")
    ax.legend(fontsize=7, loc="lower right", frameon=False)
    ax.grid(axis="x", color="0.9")
    fig.tight_layout()
    return fig


# --- the association table


def _association_section(rep: Report, study: ComponentValueStudy, values: pd.DataFrame) -> None:
    a = study.profile.attribution(study.profile.choice().attribution)
    rep.heading("Against the association table")
    merged = values.merge(study.association, on=["n_players", "id"], how="inner")
    if merged.empty:
        rep.text("The association table shares no player count and no component with this study.")
        return
    raw = "raw_diff" in merged.columns
    rows, lines = [], []
    for n, part in merged.groupby("n_players", sort=True):
        part = part.assign(rank_value=part["win"].rank(ascending=False),
                           rank_association=part["win_diff"].rank(ascending=False))
        rows.append(part)
        within = ", ".join(f"{group} {_rho(g['win'], g['win_diff'])}" for group, g in part.groupby("group"))
        against = f"against games without it {_rho(part['win'], part['raw_diff'])}; " if raw else ""
        apart = part.reindex((part["rank_value"] - part["rank_association"]).abs()
                             .sort_values(ascending=False).index).head(3)
        named = "; ".join(f"{r.id} ({int(r.rank_value)} by choice value, {int(r.rank_association)} by association "
                          f"within its {a.group_label})" for r in apart.itertuples())
        lines.append(f"- **{n} players:** rank correlation with the association {against}within each "
                     f"{a.group_label}: {within}. Furthest apart: {named}.")
    rep.text(f"The association table compares seats that scored with a {a.singular} with seats that did not: "
             "it mixes what the component does with who takes it. Its main column compares a component with the "
             f"others of its {a.group_label}, so what a whole {a.group_label} is worth is taken out of it"
             + (", while the choice value keeps it; its raw column compares with games without the component"
                if raw else ", while the choice value keeps it")
             + ". The choice value holds the position fixed and changes only the choice: where the two rank a "
             "component far apart, the association is carried by the positions it is taken from.\n\n"
             + "\n".join(lines))
    table = pd.concat(rows, ignore_index=True).sort_values(["n_players", "rank_value"])
    table = table.assign(value_pp=100 * table["win"], association_pp=100 * table["win_diff"],
                         raw_pp=100 * table["raw_diff"] if raw else np.nan)
    rep.table(table, "value_vs_association", caption=f"Per player count and {a.singular}: the choice value and "
              f"the association's win-rate difference within its {a.group_label}"
              + (" and against games without it" if raw else "") + ", in percentage points, and the ranks of "
              "the first two (1 = most favourable).",
              columns={"value_pp": "choice value, pp", "association_pp": f"association in {a.group_label}, pp",
                       "raw_pp": "association, raw, pp", "rank_value": "rank by value",
                       "rank_association": "rank by association"},
              show=["n_players", "id", "group", "value_pp", "association_pp", *(["raw_pp"] if raw else []),
                    "rank_value", "rank_association"],
              formats={"value_pp": "+.1f", "association_pp": "+.1f", "raw_pp": "+.1f", "rank_value": ".0f",
                       "rank_association": ".0f"})


def _rho(x: pd.Series, y: pd.Series) -> str:
    """Spearman's rank correlation, or "-" with fewer than 3 pairs."""
    ok = x.notna() & y.notna()
    return f"{stats.spearmanr(x[ok], y[ok]).statistic:+.2f}" if ok.sum() > 2 else "-"


# --- method


def _method(rep: Report, study: ComponentValueStudy) -> None:
    choice = study.profile.choice()
    a = study.profile.attribution(choice.attribution)
    sample, solver = study.spec["sample"], study.spec["solver"]
    rep.heading("Method")
    rep.text(
        f"**Decision points.** {sample['games']:,} ordinary source games per player count, played by the "
        f"population ({', '.join(study.spec['population']['strategies'])}; with several strategies each seat's "
        f"strategy rotates from game to game). At every decision where {choice.doc}, and some {a.label} are taken "
        f"by some alternatives and not by others, the state is a decision point.\n\n"
        f"**Choice value.** From a point every legal alternative is played to the end {sample['rollouts']} times, "
        "every alternative on the same determinisations of what the deciding seat cannot see and with the same "
        "random streams for every seat, all seats by the population's policies (common random numbers: two "
        f"rollouts of the same index differ only by the choice). Each {a.singular} on offer is played by its best "
        "alternative, picked on the even-numbered rollouts and measured on the odd-numbered ones (picking and "
        "measuring on the same rollouts would credit the best of many alternatives with its luck), in win share (a "
        "win tied by k seats counts 1/k) and in score margin over the best other seat. Its value at the point is "
        f"that outcome minus the mean of the other {a.label} on offer, each by its own best alternative: a "
        f"reference that reads 0 for {a.label} alike in distribution however many are on offer (against the best "
        "alternative without it, alike components read -2.3 to -2.9 pp with three on offer, and most were "
        f"flagged). Where a {a.singular} is the only one on offer (taking it or letting it go), its value is its "
        f"best alternative minus the best without it, less the average of that over the {a.label}: what it is "
        f"worth over the average {a.singular}, not what taking anything is worth. A {a.singular}'s choice value is "
        "the mean over the points where it was on offer; its 95 % interval has a standard error clustered by "
        "source game (points of one game share its history, and the average is estimated from the same games), and "
        f"q is the Benjamini–Hochberg correction over the {a.label} tested.\n\n"
        f"**Payout solver.** For each {a.singular} with q below {solver['q']} (and any named in the spec), its "
        f"{choice.payout} is changed and every alternative of each point is played again on the same states with "
        f"the same determinisations, on up to {solver['points']} points, until the payout at which its value "
        "against the same reference crosses 0 is bracketed (the bisection of the difficulty calibration); the "
        "payouts whose interval contains 0 are its interval, and the one whose value is closest to 0 is "
        "suggested (on a tie, the one closest to an even score margin). "
        + (f"The payout found is then checked on fresh source games (other deals; {_fresh_games(study.spec)}), every "
           "alternative rolled out again. It *holds* when its fresh value is within the tolerance of 0 by two "
           f"one-sided tests: ±{study.spec.get('tolerance', {}).get('payout_steps', 0.5):g} payout step, one step "
           "being what one unit of payout moves the value around the solution (a whole-unit payout can miss even "
           "by half a step). It is *off* when the fresh interval lies beyond the tolerance, and otherwise the "
           "fresh games cannot tell."
           if solver.get("fresh_games") else "No fresh-game check was asked for.")
        + ("\n\n" + ablation_method(study.spec, a, choice) if not study.ablation.empty else ""))


def _fresh_games(spec: dict) -> str:
    """How many fresh source games check a payout, in words."""
    solver = spec["solver"]
    if solver.get("fresh_games") == "auto":
        power = spec.get("tolerance", {}).get("power", 0.8)
        most = solver.get("fresh_most", 2000)
        return f"as many as the tolerance needs for {100 * power:.0f} % power, at most {most:,}"
    return f"{solver['fresh_games']:,} source games"


def report(contents: StudyContents, extras: ReportExtras = NO_EXTRAS) -> tuple[Report, None]:
    """The component-value report from what the study gathered (``experiments.component_value.contents``)."""
    parts = contents.parts
    study = ComponentValueStudy(meta=contents.meta, spec=parts["spec"], profile=contents.profile,
                                values=parts["values"], payouts=parts["payouts"], association=parts["association"],
                                played=header(contents.played), ablation=parts["ablation"])
    rep = build_component_value_report(study, contents.done, contents.planned, contents.command)
    rep.provenance = contents.played
    return rep, None
