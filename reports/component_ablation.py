"""The ablation part of a component-value report: what replacing a component changes at the table.

Reads ``ablation.csv`` (``sim.stats.ablation.ablation_effects`` over every player count, with ids
and, where the study checks them, the fresh deals' estimates): per component the share of deals
whose winner changed, each seat's win-rate change, the score spread and the lead changes with and
without it. An effect found is stated by its fresh estimate where there is one (the size found on
the deals that picked it reads larger than it is) and its discovery estimate is labelled as such.
Words about the components come from the game's profile (its attribution and the choice's
``ablation``), none from this module.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from bgsim.reports.charts import MAX_FIGURE_WIDTH_IN
from bgsim.reports.report_builder import Report

__all__ = ["ablation_answer", "ablation_failures", "ablation_method", "ablation_sections"]
TESTS = {"seat": "seat effect", "spread": "score-spread effect", "leads": "lead-change effect"}

ALPHA = 0.05
MAX_NAMED = 3  # components named per measure in the Answers


def _pp(value: float) -> str:
    return f"{100 * value:+.1f} pp"


def _mean_change(r, measure: str) -> str:
    return f"{getattr(r, measure):+.2f} [{getattr(r, measure + '_low'):+.2f}, {getattr(r, measure + '_high'):+.2f}]"


def _shifts(part: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The components whose mean change of ``measure`` is off 0 at q < ALPHA, largest first."""
    off = part[part[f"{measure}_q"] < ALPHA]
    return off.reindex(off[measure].abs().sort_values(ascending=False).index)


def _effect_words(r, test: str, fmt, bound) -> str:
    """An effect found, by its fresh estimate where checked (the answer), its discovery estimate
    labelled: ``fmt`` writes a value with its unit, ``bound`` an interval's end without."""
    column = "seat_effect" if test == "seat" else test
    found = f"{fmt(getattr(r, column))} [{bound(getattr(r, column + '_low'))}, {bound(getattr(r, column + '_high'))}]"
    fresh = getattr(r, f"{test}_fresh", np.nan)
    if pd.isna(fresh):
        return found
    outcome = getattr(r, f"{test}_outcome", "")
    return (f"{fmt(fresh)} [{bound(getattr(r, test + '_fresh_low'))}, {bound(getattr(r, test + '_fresh_high'))}] on "
            f"fresh deals, {outcome}; {fmt(getattr(r, column))} where found")


def _pp_bound(value: float) -> str:
    return f"{100 * value:+.1f}"


def ablation_answer(n: int, part: pd.DataFrame, a, unit: str) -> str:
    """One Answers bullet for ``n`` players from its rows of ``ablation.csv``."""
    decisive = part.sort_values("changed", ascending=False)
    text = (f"- **{n} players, without each {a.singular}:** replacing it changes who wins in "
            f"{100 * part['changed'].min():.0f}–{100 * part['changed'].max():.0f} % of the deals that hold it "
            f"(median {100 * part['changed'].median():.0f} %); most often for "
            + ", ".join(f"{r.id} ({100 * r.changed:.0f} %)" for r in decisive.head(MAX_NAMED).itertuples()) + ". ")
    seats = part.reindex(part["seat_effect"].abs().sort_values(ascending=False).index)
    seats = seats[seats["seat_q"] < ALPHA]
    if len(seats):
        text += ("Seat balance moves with " + ", ".join(
            f"{r.id} (seat {int(r.seat_effect_seat) + 1} {_effect_words(r, 'seat', _pp, _pp_bound)} with it)"
            for r in seats.head(MAX_NAMED).itertuples()) + f" at q < {ALPHA}. ")
    else:
        text += f"No {a.singular} moves a seat's win rate at q < {ALPHA}. "
    for measure, words in (("spread", f"the score spread ({unit}, best minus worst)"), ("leads", "the lead changes")):
        off = _shifts(part, measure)
        if len(off):
            named = ", ".join(f"{r.id} {_effect_words(r, measure, '{:+.2f}'.format, '{:+.2f}'.format)}"
                              for r in off.head(MAX_NAMED).itertuples())
            more = f" and {len(off) - MAX_NAMED} more" if len(off) > MAX_NAMED else ""
            text += f"{words[0].upper()}{words[1:]} with it minus without (q < {ALPHA}): {named}{more}. "
        else:
            text += f"No {a.singular} changes {words} at q < {ALPHA}. "
    if "seat_confirmed" in part:
        counts = [f"{int(np.nansum(part[f'{t}_confirmed']))} of {int(part[f'{t}_confirmed'].notna().sum())} "
                  f"{words}s" for t, words in TESTS.items()]
        text += f"On fresh deals (another seed) {', '.join(counts[:-1])} and {counts[-1]} were confirmed. "
    return text.rstrip()


def ablation_failures(ablation: pd.DataFrame, fresh_deals: int) -> str | None:
    """The note above the Answers when effects the ablation found were not confirmed on fresh deals,
    with how much the confirmed ones shrank there (the winner's curse)."""
    if "seat_confirmed" not in ablation:
        return None
    failed = [f"{r['id']}'s {words} at {r['n_players']} players ({r[f'{t}_outcome']})"
              for r in ablation.to_dict(orient="records") for t, words in TESTS.items() if r[f"{t}_confirmed"] == 0]
    if not failed:
        return None
    ratio = _shrinkage(ablation)
    return (f"**{len(failed)} effect{'s' if len(failed) != 1 else ''} of replacing a component "
            f"{'was' if len(failed) == 1 else 'were'} not confirmed on {fresh_deals:,} fresh deals per player count** "
            f"(the fresh one-sided test in the direction found does not reject after Benjamini–Hochberg, or the "
            f"fresh interval lies on the other side): {', '.join(failed)}. Read those as not shown."
            + (f" Over every effect found, the fresh estimate is {ratio:.2f} of the discovery's on average: effects "
               "are stated by their fresh estimates." if np.isfinite(ratio) else ""))


def _shrinkage(ablation: pd.DataFrame) -> float:
    """The mean ratio of fresh to discovery estimate over the effects found and checked."""
    ratios = []
    for t in TESTS:
        column = "seat_effect" if t == "seat" else t
        checked = ablation[ablation[f"{t}_confirmed"].notna()]
        found = checked[column].to_numpy(np.float64)
        ratios += list(checked[f"{t}_fresh"].to_numpy(np.float64)[found != 0] / found[found != 0])
    return float(np.mean(ratios)) if ratios else float("nan")


def ablation_sections(rep: Report, ablation: pd.DataFrame, a, choice, unit: str) -> None:
    """Per player count: a chart of the winner changes and seat effects, and the table."""
    for n, part in ablation.groupby("n_players", sort=True):
        part = part.sort_values("changed", ascending=False)
        rep.heading(f"{n} players: with and without each {a.singular}")
        rep.figure(_chart(part), f"ablation_{n}p",
                   caption=f"{n} players, each deal played as dealt and again with one {a.singular} replaced "
                           f"({choice.ablation}). Left: the share of deals whose winner changed, with 95 % Wilson "
                           f"intervals. Right: the seat whose win rate the {a.singular} moves most, with it minus "
                           f"without it, with 95 % t intervals; filled: q < {ALPHA} over the {a.label}.")
        table = part.assign(changed_pct=100 * part["changed"], seat_pp=100 * part["seat_effect"],
                            seat=part["seat_effect_seat"] + 1)
        rep.table(table, f"ablation_{n}p",
                  caption=f"{n} players: per {a.singular}, the deals that held it, the share whose winner changed "
                          f"when it was replaced, the seat it moves most and by how much (pp of win rate, with it "
                          f"minus without), q of that seat test over the {a.label}, and the mean score spread "
                          f"({unit}) and lead changes per game with it and without it (every seat's change is in "
                          f"tables/ablation_{n}p.csv).",
                  columns={"changed_pct": "winner changed, %", "seat_pp": "seat effect, pp", "seat_q": "q",
                           "spread_with": "spread with", "spread_without": "spread without",
                           "leads_with": "lead changes with", "leads_without": "lead changes without"},
                  show=["id", "group", "deals", "changed_pct", "seat", "seat_pp", "seat_q", "spread_with",
                        "spread_without", "leads_with", "leads_without"],
                  formats={"seat_q": lambda q: "-" if pd.isna(q) else (f"{q:.2g}" if q >= 0.001 else "< 0.001"),
                           "changed_pct": "{:.1f}".format, "seat_pp": "{:+.1f}".format,
                           **{c: "{:.2f}".format for c in ("spread_with", "spread_without", "leads_with",
                                                           "leads_without")}})


def _chart(part: pd.DataFrame) -> plt.Figure:
    part = part.sort_values("changed")
    height = max(2.5, 0.18 * len(part) + 1)
    fig, (left, right) = plt.subplots(1, 2, figsize=(min(MAX_FIGURE_WIDTH_IN, 8.5), height), sharey=True)
    y = np.arange(len(part))
    left.barh(y, 100 * part["changed"], color="#4c72b0", height=0.6)
    below = np.clip(part["changed"] - part["changed_low"], 0, None)  # Wilson bounds may round past the share
    above = np.clip(part["changed_high"] - part["changed"], 0, None)
    left.errorbar(100 * part["changed"], y, xerr=[100 * below, 100 * above], fmt="none", ecolor="0.3", lw=0.8)
    left.set_yticks(y, part["id"].astype(str), fontsize=7 if len(part) > 30 else 8)
    left.set_xlabel("winner changed, % of deals")
    for i, r in enumerate(part.itertuples()):
        filled = pd.notna(r.seat_q) and r.seat_q < ALPHA
        right.plot([100 * r.seat_effect_low, 100 * r.seat_effect_high], [i, i], color="#c44e52", lw=1.1)
        right.plot(100 * r.seat_effect, i, "o", color="#c44e52", mfc="#c44e52" if filled else "white", ms=4)
    right.axvline(0, color="0.4", lw=0.8)
    right.set_xlabel("largest seat effect, pp (with minus without)")
    for ax in (left, right):
        ax.grid(axis="x", color="0.9")
        ax.set_ylim(-1, len(part))
    fig.tight_layout()
    return fig


def ablation_method(spec: dict, a, choice) -> str:
    """The Method paragraph of the ablation."""
    deals = spec.get("ablation", {}).get("deals", 0)
    fresh = spec.get("ablation", {}).get("fresh_deals", 0)
    return (f"**Ablation.** {deals:,} deals per player count (the source games' deals), each played to the end as "
            f"dealt and again once for every {a.singular} it holds with that {a.singular} replaced: "
            f"{choice.ablation}. Both games of a pair have the same chance and the same seat streams, and every "
            "seat plays the population's policy, so they differ by the replacement alone. Per "
            f"{a.singular}, over the deals that held it: the share whose winner changed (Wilson interval); each "
            "seat's win share with it minus without it (paired t interval); the mean score spread (best final "
            "score minus the worst) and the mean lead changes with and without it (paired t intervals). Findings "
            "are corrected as one family per test over every player count (Benjamini–Hochberg): every (player "
            f"count, {a.singular}, seat) for the seats, one seat per {a.singular} at two players (one seat's change "
            f"is the other's, negated), every (player count, {a.singular}) for the spread and the lead changes. A "
            "lead change is counted when the seat alone at the top of the running score at the end of a round (or "
            "alone on the final ranks) differs from the last seat that was alone there; ties "
            f"name no leader. Replacing a {a.singular} changes what the seats do after it, so the game can take "
            "another course from there: the share of changed winners counts that divergence too, and is best read "
            f"by comparing {a.label} with each other."
            + (f" Every effect found (q < {ALPHA}) is measured again on {fresh:,} fresh deals per player count "
               "(another seed), and its fresh estimate is the answer: an effect picked for being the largest of many "
               "reads larger on the deals that found it (on fresh deals such effects averaged 0.71 of their "
               "discovery size). It is *confirmed* when the fresh one-sided test in the direction found rejects "
               "after Benjamini–Hochberg over every effect checked, *reversed* when the fresh interval lies on the "
               "other side of 0, and *not confirmed* otherwise." if fresh else ""))
