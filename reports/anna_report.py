"""The difficulty report on the solo automa Anna: plain answers first, then how each rung fares
against the base setting, where Anna's VP come from, how far each knob moves the win rate, and the
difficulty levels with their fresh-deal check; every rate with its 95 % interval.

``build_difficulty_report(study_dir)`` reads only the stored study (difficulty.json and its runs).
"""

from pathlib import Path

import pandas as pd
from bgsim.experiments.difficulty import (
    KNOBS,
    at_the_table,
    knob_doc,
    load_rows,
    read_study,
    rulebook_value,
    study_progress,
)
from bgsim.reports import anna_charts
from bgsim.reports.progress import progress_banner, runs_done
from bgsim.reports.report_builder import Report, fmt_mean, fmt_rate
from bgsim.sim.results.store import RunStoreError, study_resume_command
from bgsim.sim.stats.difficulty import ANNA_SOURCES, levels_table, outcome_table, source_table

__all__ = ["build_difficulty_report"]

_OUTCOME_COLUMNS = {"rung": "rung", "games": "games", "win_rate": "human wins [95 % CI]",
                    "tie_rate": "VP ties [95 % CI]", "mean_margin": "mean margin [95 % CI]",
                    "margin_p10": "p10", "margin_p25": "p25", "margin_p50": "median", "margin_p75": "p75",
                    "margin_p90": "p90", "mean_final_vp": "human VP [95 % CI]", "mean_anna_vp": "Anna VP [95 % CI]"}
_MEANS = ("mean_margin", "mean_final_vp", "mean_anna_vp")


def build_difficulty_report(study_dir: str | Path) -> Report:
    study_dir = Path(study_dir)
    meta = read_study(study_dir, partial=True)
    base = load_rows(study_dir, "base")
    if base.is_empty():
        raise RunStoreError(f"{study_dir}: no base run is finished yet; run `{study_resume_command(study_dir)}` "
                            f"to play them")
    order = [rung for rung in meta["ladder"] if rung in set(base["rung"])]  # an unfinished study: those played
    games = base.group_by("rung").len()["len"]
    runs, planned = study_progress(study_dir)
    done = runs_done(runs)
    complete = meta.get("status") == "complete"
    rep = Report(f"Difficulty of Automa Anna: {meta['name']}",
                 subtitle="Carpe Diem solo: the human's win rate against Anna per rung of a strategy ladder, "
                          "the difficulty knobs, and the setting of each difficulty level",
                 meta={"study": meta["study_id"], "seed": str(meta.get("seed", "-")),
                       "games per rung": f"{games.min():,}" + (f" to {games.max():,}" if games.max() > games.min()
                                                               else ""),
                       "setting": _setting_name(meta),
                       "games": f"{done:,}" + ("" if complete else f" of about {planned:,} planned (incomplete)")})
    if not complete:
        progress_banner(rep, done, planned, study_resume_command(study_dir) or "--resume", "study", estimate=True)
    outcomes = outcome_table(base)
    levels = levels_table(meta["levels"])
    _answers(rep, meta, order, outcomes, levels)
    _outcome_section(rep, meta, order, base, outcomes)
    _source_section(rep, order, base)
    sweep = load_rows(study_dir, "sweep")
    _knob_section(rep, meta, sweep)
    _level_section(rep, meta, order, levels, load_rows(study_dir, "calibrate"))
    _method(rep, meta)
    return rep


def _setting_name(meta: dict) -> str:
    params = meta.get("params") or {}
    if not params:
        return "the rulebook's"
    return "base: " + ", ".join(f"{k} = {v}" for k, v in sorted(params.items()))


def _against(meta: dict) -> str:
    return "the rulebook Anna" if not meta.get("params") else "Anna at the base setting"


# --- answers


def _answers(rep: Report, meta: dict, order: list[str], outcomes: pd.DataFrame, levels: pd.DataFrame) -> None:
    rep.heading("Answers")
    lines = []
    by_rung = outcomes.set_index("rung")
    for rung in order:
        r = by_rung.loc[rung]
        line = (f"- **{rung}** (`{meta['ladder'][rung]}`) beats {_against(meta)} in "
                f"{fmt_rate(r.win_rate, r.win_rate_low, r.win_rate_high)} of games; mean VP margin "
                f"{fmt_mean(r.mean_margin, r.mean_margin_low, r.mean_margin_high)}, median {r.margin_p50:+.0f}.")
        solved = levels[levels["rung"] == rung] if not levels.empty else levels
        if not solved.empty:
            parts = [f"{s.level} {_signed(s.value)}" + ("" if s.reachable else " (target out of range)")
                     for s in solved.itertuples()]
            line += f" Levels by {meta['knob']}: {', '.join(parts)}."
        lines.append(line)
    rep.text("\n".join(lines))
    rep.text(f"A level is a value of the calibration knob `{meta['knob']}`, {knob_doc(meta['knob'])}, at which the "
             f"human wins the level's share of games: "
             + ", ".join(f"{name} {100 * t:.0f} %" for name, t in meta["levels_wanted"].items())
             + ". Each was played again on fresh deals. " + _rulebook_levels(meta, order, outcomes))
    if not levels.empty and "holds" in levels:
        rep.text(_fresh_summary(levels))
        odd = levels[~levels["consistent"]]
        if not odd.empty:
            rep.note("On fresh deals " + ", ".join(f"{m.rung}/{m.level}" for m in odd.itertuples())
                     + " won detectably more or less often than on the calibration deals at the same setting "
                       "(two-proportion test, Benjamini–Hochberg): the calibration deals were not typical there; "
                       "more calibration games would settle it.")


def _fresh_summary(levels: pd.DataFrame) -> str:
    """One sentence on the fresh-deal check of every level."""
    held = int(levels["holds"].sum())
    text = (f"On fresh deals {held} of {len(levels)} levels have the target inside the 95 % interval of their win "
            f"rate")
    missed = levels[~levels["holds"]]
    if missed.empty:
        return text + "."
    worst = missed.loc[missed["off_pp"].abs().idxmax()]
    step = int(worst.get("step", 1) if "step" in missed else 1)
    return (text + f"; the others miss it by at most {abs(worst.off_pp):.1f} pp ({worst.rung}/{worst.level}, "
            f"{int(worst.verify_games):,} games" + (f", knob step {step}" if step > 1 else "") + "). A knob in "
            f"whole units cannot do better than half a step (one unit of `{worst.knob}` moves the win rate by about "
            f"{levels['slope_pp'].median():.1f} pp), and both the calibration and the check carry sampling error.")


def _rulebook_levels(meta: dict, order: list[str], outcomes: pd.DataFrame) -> str:
    """Where the base setting falls among the levels, per rung: 'between normal and hard' etc."""
    targets = sorted(meta["levels_wanted"].items(), key=lambda item: -item[1])  # easiest first
    rates = outcomes.set_index("rung")["win_rate"]
    parts = []
    for rung in order:
        rate = rates[rung]
        if rate >= targets[0][1]:
            where = f"easier than {targets[0][0]}"
        elif rate <= targets[-1][1]:
            where = f"harder than {targets[-1][0]}"
        else:
            upper = next(i for i, (_, t) in enumerate(targets) if t <= rate)
            where = f"between {targets[upper - 1][0]} and {targets[upper][0]}"
        parts.append(f"{rung}: {where}")
    return f"Measured on these levels, {_against(meta)} is for " + "; ".join(parts) + "."


def _signed(value: int) -> str:
    return f"{value:+d}"


# --- the base setting


def _outcome_section(rep: Report, meta: dict, order: list[str], base, outcomes: pd.DataFrame) -> None:
    rep.heading(f"Against {_against(meta)}")
    rep.text("The human's win rate (ties broken by the banner discs, AMB-27), the VP margin (human - Anna) "
             "and both final scores, per rung of the ladder (weakest first).")
    rep.figure(anna_charts.win_rate_chart(outcomes, order), "win_rates",
               "Human win rate against Anna per rung, with Wilson 95 % intervals.")
    shown = outcomes.set_index("rung").loc[order].reset_index()
    rep.table(shown, "outcomes", "Per rung: win rate and VP-tie rate (Wilson 95 %), mean margin and final VP "
              "(t 95 %), and the margin's quantiles (p10 ... p90).", columns=_OUTCOME_COLUMNS,
              rates=["win_rate", "tie_rate"], means=list(_MEANS), show=list(_OUTCOME_COLUMNS),
              formats={f"margin_p{q}": "+.0f" for q in (10, 25, 50, 75, 90)})
    rep.figure(anna_charts.margin_chart(base.select("rung", "margin").to_pandas(), order), "margins",
               "Distribution of the VP margin per game, per rung; the red line is the median.")


def _source_section(rep: Report, order: list[str], base) -> None:
    rep.heading("Where Anna's VP come from")
    sources = source_table(base)
    rep.text("Anna's final VP by source (CD-ANNA-22): her start VP, banner position with overflow VP, the villa "
             "track (AMB-26), the majorities against the human (CD-ANNA-23) and her fountain cards (CD-ANNA-24). "
             "The majorities depend on what the human builds, so Anna scores differently against each rung.")
    rep.figure(anna_charts.source_chart(sources, order), "anna_sources",
               "Anna's mean VP by source per rung of the human.")
    sources["order"] = sources["rung"].map({r: i for i, r in enumerate(order)})
    sources["source_order"] = sources["column"].map({c: i for i, c in enumerate(ANNA_SOURCES)})
    shown = sources.sort_values(["order", "source_order"]).drop(columns=["order", "source_order", "column"])
    rep.table(shown, "anna_sources", "Anna's mean VP per source (t 95 %) and the source's share of her final VP.",
              columns={"rung": "rung", "source": "source", "games": "games", "mean": "mean VP [95 % CI]",
                       "share": "share"}, means=["mean"], formats={"share": lambda x: f"{100 * x:.1f} %"},
              show=["rung", "source", "games", "mean", "share"])


# --- knobs


def _knob_section(rep: Report, meta: dict, sweep) -> None:
    rep.heading("Difficulty knobs")
    rep.text("Four rule parameters a player can apply at the table make Anna harder or easier "
             "(`game.params` of a spec, or `bgsim play 'carpe_diem(anna_start_vp=10)' --solo`):\n"
             + "\n".join(f"- `{k}`: {knob_doc(k)}; e.g. "
                         f"*{at_the_table(k, rulebook_value(k) + (2 if k != 'anna_convert_at' else 1))}*."
                         for k in KNOBS))
    if sweep.is_empty():
        rep.text("This study swept no knob.")
        return
    table = outcome_table(sweep, by=("rung", "knob", "value")).sort_values(["knob", "rung", "value"], kind="stable")
    rep.text("Every listed value of each knob, on the same deals as the base runs (common random numbers), so "
             "neighbouring values differ by the knob alone.")
    rep.figure(anna_charts.sweep_chart(table, {k: rulebook_value(k) for k in KNOBS}, meta["levels_wanted"]),
               "knob_sweep", "Human win rate against each knob's value, per rung, with Wilson 95 % bands.")
    rep.table(table, "knob_sweep", "Per rung, knob and value: win rate (Wilson 95 %) and mean margin (t 95 %).",
              columns={"knob": "knob", "rung": "rung", "value": "value", "games": "games",
                       "win_rate": "human wins [95 % CI]", "mean_margin": "mean margin [95 % CI]"},
              rates=["win_rate"], means=["mean_margin"],
              show=["knob", "rung", "value", "games", "win_rate", "mean_margin"])


# --- levels


def _level_section(rep: Report, meta: dict, order: list[str], levels: pd.DataFrame, tried) -> None:
    knob = meta["knob"]
    rep.heading("Difficulty levels")
    if levels.empty:
        rep.text("This study solved no level.")
        return
    rep.text(f"For each rung and level, the value of `{knob}` at which the human's win rate is closest to the "
             f"target, found by bisection over the knob on the same deals; the interval lists the knob values whose "
             f"Wilson 95 % interval still contains the target. Each solution was then played on fresh deals "
             f"(seed + 1).")
    names = list(meta["levels_wanted"])
    card = pd.DataFrame({"rung": order})
    for name in names:
        target = meta["levels_wanted"][name]
        cells = []
        for rung in order:
            row = levels[(levels["rung"] == rung) & (levels["level"] == name)]
            if row.empty:
                cells.append("–")
                continue
            r = row.iloc[0]
            span = "" if r.value_low == r.value_high else f" ({_signed(r.value_low)}..{_signed(r.value_high)})"
            cells.append(f"{_signed(r.value)}{span}" + ("" if r.reachable else " out of range"))
        card[f"{name} ({100 * target:.0f} %)"] = cells
    rep.table(card, "levels_card", f"`{knob}` per rung and level (rulebook {rulebook_value(knob)}), with the "
              f"interval of values that fit the target.")
    shown = levels.copy()
    shown["order"] = shown["rung"].map({r: i for i, r in enumerate(order)})
    shown["at the table"] = [at_the_table(knob, int(v)) for v in shown["value"]]
    shown = shown.sort_values(["order", "target"], ascending=[True, False]).drop(columns=["order"])
    rates = ["rate"] + (["verify_rate"] if "verify_rate" in shown else [])
    show = ["rung", "level", "target", "value", "value_low", "value_high", "at the table", "games", "rate",
            "slope_pp"]
    if "verify_rate" in shown:
        show += ["verify_games", "verify_rate", "off_pp", "holds", "consistent"]
    rep.table(shown, "levels", "Solved levels: the knob value and its interval, the win rate measured there on the "
              "calibration deals and how much one unit of the knob moves it there, and the win rate on fresh deals "
              "(both Wilson 95 %), its distance from the target, whether its interval contains the target, and "
              "whether it agrees with the calibration games at the same setting (two-proportion test, "
              "Benjamini–Hochberg).",
              columns={"target": "target", "value": "value", "value_low": "from", "value_high": "to",
                       "games": "games", "rate": "win rate [95 % CI]", "verify_games": "fresh games",
                       "slope_pp": "pp per unit", "verify_rate": "fresh deals [95 % CI]", "off_pp": "off (pp)",
                       "holds": "target inside", "consistent": "as calibrated"},
              rates=rates, formats={"target": lambda x: f"{100 * x:.0f} %", "slope_pp": ".2f", "off_pp": "+.1f"},
              show=show)
    points = outcome_table(tried, by=("rung", "value")) if not tried.is_empty() else pd.DataFrame()
    if not points.empty:
        rep.figure(anna_charts.calibration_chart(points, levels, order, knob), "calibration",
                   "Win rate at every knob value the solver tried (blue) and each solved level on fresh deals (red).")
    unreachable = levels[~levels["reachable"]]
    if not unreachable.empty:
        rep.note("Out of the knob's range (the closest end is shown): "
                 + ", ".join(f"{u.rung}/{u.level}" for u in unreachable.itertuples())
                 + ". Widen `calibration.low`/`high` to reach these targets.")


def _method(rep: Report, meta: dict) -> None:
    rep.heading("Method")
    sessions = meta.get("sessions", [])
    wall = sum(s.get("wall_seconds", 0) for s in sessions)
    rep.text("- Every game is a solo game of the rules engine (CD-ANNA): the rung plays the human, Anna follows her "
             "automa cards; her dice and cards come from the game's chance stream.\n"
             f"- Base, sweep and calibration runs share the seed {meta.get('seed')}, so game *i* is the same deal "
             "under every setting (common random numbers); the fresh-deal check uses the next seed.\n"
             "- Win rates: Wilson 95 % intervals (statsmodels); means: Student t (scipy); margin quantiles are "
             "descriptive.\n"
             "- The calibration (experiments/calibration.py) assumes the win rate moves one way with the knob; it "
             "brackets the target by bisection and walks outwards while a knob value's interval contains it.\n"
             f"- Study directory: `{meta['study_id']}`; {len(meta.get('runs', []))} runs"
             + (f", {wall / 60:.1f} min of wall time over {len(sessions)} session(s)." if sessions else "."))
