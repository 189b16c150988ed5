"""The difficulty report on an automa opponent: plain answers first, then how each rung fares
against the base setting, where the automa's points come from, how far each knob moves the win rate,
and the difficulty levels with their fresh-deal check; every rate with its 95 % interval.

``build_difficulty_report`` renders a study that ``bgsim.report`` has loaded (``DifficultyStudy``);
the automa's name, knobs, table texts and score columns come from ``profile.automa`` as stored with
the study's runs. A game's report extras (``reports.extras.ReportExtras``) may add ``difficulty_texts``:
paragraphs with the rule references of its automa ("outcomes", "sources", "method").
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import polars as pl
from bgsim.reports import difficulty_charts
from bgsim.reports.extras import NO_EXTRAS, ReportExtras
from bgsim.reports.progress import progress_warning
from bgsim.reports.provenance import header
from bgsim.reports.report_builder import Report, fmt_mean, fmt_rate
from bgsim.sim.profile import GameProfile
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.stats.difficulty import levels_table, outcome_table, source_table
from bgsim.sim.stats.distribution import value_counts
from bgsim.sim.stats.equivalence import Tolerance
from bgsim.sim.stats.lazy import is_empty

__all__ = ["DifficultyStudy", "build_difficulty_report"]

_MEANS = ("mean_margin", "mean_score", "mean_automa")


@dataclass(frozen=True)
class DifficultyStudy:
    """A difficulty study as loaded for its report: its marker (``meta``), the rows of its base, sweep
    and calibration runs (one row per game, labelled rung, knob, value, level; LazyFrames over the
    chunks, which the tables aggregate, or frames), the game's profile, each knob's one-line
    description (``knob_docs``), the game's report extras and what the base runs played
    (``reports.provenance`` header lines)."""

    meta: dict
    base: pl.LazyFrame | pl.DataFrame
    sweep: pl.LazyFrame | pl.DataFrame
    calibrate: pl.LazyFrame | pl.DataFrame
    profile: GameProfile
    knob_docs: dict[str, str]
    extras: ReportExtras = NO_EXTRAS
    played: dict = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.profile.automa.name

    def text(self, key: str, default: str) -> str:
        return self.extras.difficulty_texts.get(key, default)

    def doc(self, knob: str) -> str:
        return self.knob_docs.get(knob) or self.profile.automa.knob(knob).label

    def at_the_table(self, knob: str, value: int) -> str:
        return self.profile.automa.knob(knob).at_the_table(value)

    def rulebook(self, knob: str) -> int:
        return self.profile.automa.knob(knob).rulebook

    def outcomes(self, rows: pl.LazyFrame | pl.DataFrame, by: tuple[str, ...] = ("rung",)) -> pd.DataFrame:
        automa = self.profile.automa
        return outcome_table(rows, by, self.profile.score_column, automa.score_column, automa.margin_column)


def _outcome_columns(study: DifficultyStudy) -> dict[str, str]:
    unit, name = study.profile.score_unit, study.name
    return {"rung": "rung", "games": "games", "win_rate": "human wins [95 % CI]",
            "tie_rate": f"{unit} ties [95 % CI]", "mean_margin": "mean margin [95 % CI]",
            "margin_p10": "p10", "margin_p25": "p25", "margin_p50": "median", "margin_p75": "p75",
            "margin_p90": "p90", "mean_score": f"human {unit} [95 % CI]", "mean_automa": f"{name} {unit} [95 % CI]"}


def build_difficulty_report(study: DifficultyStudy, done: int, planned: int, finish: str) -> Report:
    """The report; an unfinished study (``done`` of about ``planned`` games) under a warning naming ``finish``."""
    meta = study.meta
    outcomes = study.outcomes(study.base)
    order = [rung for rung in meta["ladder"] if rung in set(outcomes["rung"])]  # an unfinished study: those played
    games = outcomes["games"].astype(int)
    complete = meta.get("status") == "complete"
    solo = "solo" if study.profile.automa.player_counts == (1,) else "against the automa"
    rep = Report(f"Difficulty of the automa {study.name}: {meta['name']}",
                 subtitle=f"{study.profile.title} {solo}: the human's win rate against {study.name} per rung of a "
                          "strategy ladder, the difficulty knobs, and the setting of each difficulty level",
                 meta={"study": meta["study_id"], "seed": str(meta.get("seed", "-")),
                       "games per rung": f"{games.min():,}" + (f" to {games.max():,}" if games.max() > games.min()
                                                               else ""),
                       "setting": _setting_name(meta),
                       "games": f"{done:,}" + ("" if complete else f" of about {planned:,} planned (incomplete)")}
                 | study.played)
    if not complete:
        progress_warning(rep, done, planned, finish, "study", estimate=True)
    levels = levels_table(meta["levels"], tolerance=level_tolerance(meta))
    _answers(rep, study, order, outcomes, levels)
    _outcome_section(rep, study, order, outcomes)
    _source_section(rep, study, order)
    _knob_section(rep, study)
    _level_section(rep, study, order, levels)
    _method(rep, study)
    return rep


def _setting_name(meta: dict) -> str:
    params = meta.get("params") or {}
    if not params:
        return "the rulebook's"
    return "base: " + ", ".join(f"{k} = {v}" for k, v in sorted(params.items()))


def _against(study: DifficultyStudy) -> str:
    return f"the rulebook {study.name}" if not study.meta.get("params") else f"{study.name} at the base setting"


# --- answers


def _answers(rep: Report, study: DifficultyStudy, order: list[str], outcomes: pd.DataFrame,
             levels: pd.DataFrame) -> None:
    meta = study.meta
    rep.heading("Answers")
    lines = []
    by_rung = outcomes.set_index("rung")
    for rung in order:
        r = by_rung.loc[rung]
        line = (f"- **{rung}** (`{meta['ladder'][rung]}`) beats {_against(study)} in "
                f"{fmt_rate(r.win_rate, r.win_rate_low, r.win_rate_high)} of games; mean "
                f"{study.profile.score_unit} margin "
                f"{fmt_mean(r.mean_margin, r.mean_margin_low, r.mean_margin_high)}, median {r.margin_p50:+.0f}.")
        solved = levels[levels["rung"] == rung] if not levels.empty else levels
        if not solved.empty:
            parts = [f"{s.level} {_signed(s.value)}" + ("" if s.reachable else " (target out of range)")
                     for s in solved.itertuples()]
            line += f" Levels by {meta['knob']}: {', '.join(parts)}."
        lines.append(line)
    rep.text("\n".join(lines))
    rep.text(f"A level is a value of the calibration knob `{meta['knob']}`, {study.doc(meta['knob'])}, at which the "
             f"human wins the level's share of games: "
             + ", ".join(f"{name} {100 * t:.0f} %" for name, t in meta["levels_wanted"].items())
             + ". " + (_unchecked(study, levels) or "Each was played again on fresh deals.") + " "
             + _rulebook_levels(study, order, outcomes))
    if not levels.empty and "outcome" in levels:
        rep.text(_fresh_summary(levels))
        odd = levels[~levels["consistent"]]
        if not odd.empty:
            rep.note("On fresh deals " + ", ".join(f"{m.rung}/{m.level}" for m in odd.itertuples())
                     + " won detectably more or less often than on the calibration deals at the same setting "
                       "(two-proportion test, Benjamini–Hochberg): the calibration deals were not typical there; "
                       "more calibration games would settle it.")


def _unchecked(study: DifficultyStudy, levels: pd.DataFrame) -> str | None:
    """Why the levels have no fresh-deal check (``calibration.verify_games = 0`` skips it, or the
    study has not reached it yet), or None when they have one."""
    if "outcome" in levels:
        return None
    if study.meta.get("status") == "complete":
        return "None was played again on fresh deals: the study skips that check (`calibration.verify_games = 0`)."
    return "Each is to be played again on fresh deals, which the study has not reached yet."


def level_tolerance(meta: dict) -> Tolerance:
    """The tolerance a study judges its levels by (its marker's; the default for older studies)."""
    return Tolerance(rate_pp=float(meta.get("tolerance", {}).get("rate_pp", Tolerance().rate_pp)))


def _fresh_summary(levels: pd.DataFrame) -> str:
    """One sentence on the fresh-deal check of every level: held within the tolerance, off by more,
    or the fresh games cannot tell."""
    tol = f"±{levels['tolerance_pp'].iloc[0]:g} pp"
    counts = levels["outcome"].value_counts()
    text = (f"On fresh deals {counts.get('held', 0)} of {len(levels)} levels held within {tol} of their target win "
            f"rate (two one-sided tests)")
    off = levels[levels["outcome"] == "off"]
    unsure = levels[levels["outcome"] == "cannot tell"]
    if len(off):
        worst = off.loc[off["off_pp"].abs().idxmax()]
        step = int(worst.get("step", 1) if "step" in off else 1)
        text += (f"; {len(off)} {'is' if len(off) == 1 else 'are'} off by more than {tol} (the furthest "
                 f"{worst.rung}/{worst.level}, "
                 f"{worst.off_pp:+.1f} pp on {int(worst.verify_games):,} games" + (f", knob step {step}" if step > 1
                                                                                  else "") + ")")
    if len(unsure):
        most = int(np.nanmax(unsure["games_to_tell"]))
        text += f"; for {len(unsure)} the fresh games cannot tell (about {most:,} games would)"
    knob = levels["knob"].iloc[0]
    return (text + f". A knob in whole units cannot do better than half a step (one unit of `{knob}` moves the win "
            f"rate by about {levels['slope_pp'].median():.1f} pp): a tolerance below that can be off at every "
            "setting.")


def _rulebook_levels(study: DifficultyStudy, order: list[str], outcomes: pd.DataFrame) -> str:
    meta = study.meta
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
    return f"Measured on these levels, {_against(study)} is for " + "; ".join(parts) + "."


def _signed(value: int) -> str:
    return f"{value:+d}"


# --- the base setting


def _outcome_section(rep: Report, study: DifficultyStudy, order: list[str], outcomes: pd.DataFrame) -> None:
    unit, name = study.profile.score_unit, study.name
    rep.heading(f"Against {_against(study)}")
    rep.text(study.text("outcomes", f"The human's win rate (ties broken by the game's tie-break), the {unit} margin "
                                    f"(human - {name}) and both final scores, per rung of the ladder (weakest "
                                    f"first)."))
    rep.figure(difficulty_charts.win_rate_chart(outcomes, order, name), "win_rates",
               f"Human win rate against {name} per rung, with Wilson 95 % intervals.")
    shown = outcomes.set_index("rung").loc[order].reset_index()
    columns = _outcome_columns(study)
    rep.table(shown, "outcomes", f"Per rung: win rate and {unit}-tie rate (Wilson 95 %), mean margin and final "
              f"{unit} (t 95 %), and the margin's quantiles (p10 ... p90).", columns=columns,
              rates=["win_rate", "tie_rate"], means=list(_MEANS), show=list(columns),
              formats={f"margin_p{q}": "+.0f" for q in (10, 25, 50, 75, 90)})
    margin = study.profile.automa.margin_column  # games per (rung, margin): the chart never holds the games
    margins = value_counts(study.base, ["rung"], margin).rename({margin: "margin"}).to_pandas()
    rep.figure(difficulty_charts.margin_chart(margins, order, name, unit), "margins",
               f"Distribution of the {unit} margin per game, per rung; the red line is the median.")


def _source_section(rep: Report, study: DifficultyStudy, order: list[str]) -> None:
    automa, unit, name = study.profile.automa, study.profile.score_unit, study.name
    labels = {column: label for label, column in automa.category_columns.items()}
    if not labels:
        return
    rep.heading(f"Where {name}'s {unit} come from")
    sources = source_table(study.base, labels, automa.score_column)
    rep.text(study.text("sources", f"{name}'s final {unit} by source: " + ", ".join(labels.values()) + "."))
    rep.figure(difficulty_charts.source_chart(sources, order, name, unit), "automa_sources",
               f"{name}'s mean {unit} by source per rung of the human.")
    sources["order"] = sources["rung"].map({r: i for i, r in enumerate(order)})
    sources["source_order"] = sources["column"].map({c: i for i, c in enumerate(labels)})
    shown = sources.sort_values(["order", "source_order"]).drop(columns=["order", "source_order", "column"])
    rep.table(shown, "automa_sources", f"{name}'s mean {unit} per source (t 95 %) and the source's share of the "
              f"final {unit}.",
              columns={"rung": "rung", "source": "source", "games": "games", "mean": f"mean {unit} [95 % CI]",
                       "share": "share"}, means=["mean"], formats={"share": lambda x: f"{100 * x:.1f} %"},
              show=["rung", "source", "games", "mean", "share"])


# --- knobs


def _knob_section(rep: Report, study: DifficultyStudy) -> None:
    knobs = study.profile.automa.knobs
    sweep = study.sweep
    rep.heading("Difficulty knobs")
    example = knobs[0]
    rep.text(f"{len(knobs)} rule parameter{'s' if len(knobs) != 1 else ''} a player can apply at the table make "
             f"{study.name} harder or easier (`game.params` of a spec, or `bgsim play "
             f"'{study.profile.game}({example.parameter}={example.rulebook + 1})'`):\n"
             + "\n".join(f"- `{k.parameter}`: {study.doc(k.parameter)}; e.g. "
                         f"*{k.at_the_table(k.rulebook + (2 if k.harder > 0 else 1))}*." for k in knobs))
    if is_empty(sweep):
        rep.text("This study swept no knob.")
        return
    table = study.outcomes(sweep, by=("rung", "knob", "value")).sort_values(["knob", "rung", "value"], kind="stable")
    rep.text("Every listed value of each knob, on the same deals as the base runs (common random numbers), so "
             "neighbouring values differ by the knob alone.")
    rep.figure(difficulty_charts.sweep_chart(table, {k.parameter: k.rulebook for k in knobs},
                                             study.meta["levels_wanted"]),
               "knob_sweep", "Human win rate against each knob's value, per rung, with Wilson 95 % bands.")
    rep.table(table, "knob_sweep", "Per rung, knob and value: win rate (Wilson 95 %) and mean margin (t 95 %).",
              columns={"knob": "knob", "rung": "rung", "value": "value", "games": "games",
                       "win_rate": "human wins [95 % CI]", "mean_margin": "mean margin [95 % CI]"},
              rates=["win_rate"], means=["mean_margin"],
              show=["knob", "rung", "value", "games", "win_rate", "mean_margin"])


# --- levels


def _level_section(rep: Report, study: DifficultyStudy, order: list[str], levels: pd.DataFrame) -> None:
    meta, tried = study.meta, study.calibrate
    knob = meta["knob"]
    rep.heading("Difficulty levels")
    if levels.empty:
        rep.text("This study solved no level.")
        return
    rep.text(f"For each rung and level, the value of `{knob}` at which the human's win rate is closest to the "
             f"target, found by bisection over the knob on the same deals; the interval lists the knob values whose "
             f"Wilson 95 % interval still contains the target. "
             + (_unchecked(study, levels) or "Each solution was then played on fresh deals (seed + 1)."))
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
    rep.table(card, "levels_card", f"`{knob}` per rung and level (rulebook {study.rulebook(knob)}), with the "
              f"interval of values that fit the target.")
    shown = levels.copy()
    shown["order"] = shown["rung"].map({r: i for i, r in enumerate(order)})
    shown["at the table"] = [study.at_the_table(knob, int(v)) for v in shown["value"]]
    shown = shown.sort_values(["order", "target"], ascending=[True, False]).drop(columns=["order"])
    checked = "verify_rate" in shown  # no fresh-deal columns when calibration.verify_games = 0
    rates = ["rate"] + (["verify_rate"] if checked else [])
    show = ["rung", "level", "target", "value", "value_low", "value_high", "at the table", "games", "rate",
            "slope_pp"]
    if checked:
        show += ["verify_games", "verify_rate", "off_pp", "outcome", "consistent"]
    labels = {"target": "target", "value": "value", "value_low": "from", "value_high": "to", "games": "games",
              "rate": "win rate [95 % CI]", "verify_games": "fresh games", "slope_pp": "pp per unit",
              "verify_rate": "fresh deals [95 % CI]", "off_pp": "off (pp)", "outcome": "within the tolerance",
              "consistent": "as calibrated"}
    formats = {"target": lambda x: f"{100 * x:.0f} %", "slope_pp": ".2f", "off_pp": "+.1f"}
    rep.table(shown, "levels", "Solved levels: the knob value and its interval, the win rate measured there on the "
              "calibration deals and how much one unit of the knob moves it there"
              + (", and the win rate on fresh deals (both Wilson 95 %), its distance from the target, whether it "
                 "is within the tolerance of the target (held, off, or cannot tell), and whether it agrees with the "
                 "calibration games at the same setting (two-proportion test, Benjamini–Hochberg)." if checked
                 else " (Wilson 95 %)."),
              columns={c: text for c, text in labels.items() if c in shown}, rates=rates,
              formats={c: f for c, f in formats.items() if c in shown}, show=show)
    points = study.outcomes(tried, by=("rung", "value")) if not is_empty(tried) else pd.DataFrame()
    if not points.empty:
        rep.figure(difficulty_charts.calibration_chart(points, levels, order, knob), "calibration",
                   "Win rate at every knob value the solver tried (blue)"
                   + (" and each solved level on fresh deals (red)." if checked else "."))
    unreachable = levels[~levels["reachable"]]
    if not unreachable.empty:
        rep.note("Out of the knob's range (the closest end is shown): "
                 + ", ".join(f"{u.rung}/{u.level}" for u in unreachable.itertuples())
                 + ". Widen `calibration.low`/`high` to reach these targets.")


def _method(rep: Report, study: DifficultyStudy) -> None:
    meta = study.meta
    rep.heading("Method")
    sessions = meta.get("sessions", [])
    wall = sum(s.get("wall_seconds", 0) for s in sessions)
    rep.text("- " + study.text("method", f"Every game is a game of the rules engine against {study.name}: the rung "
                                         f"plays the human, the automa follows its rules; its chance comes from the "
                                         f"game's chance stream.") + "\n"
             f"- Base, sweep and calibration runs share the seed {meta.get('seed')}, so game *i* is the same deal "
             "under every setting (common random numbers); the fresh-deal check uses the next seed.\n"
             "- Win rates: Wilson 95 % intervals (statsmodels); means: Student t (scipy); margin quantiles are "
             "descriptive.\n"
             "- The calibration (sim/stats/calibration.py) assumes the win rate moves one way with the knob; it "
             "brackets the target by bisection and walks outwards while a knob value's interval contains it.\n"
             f"- Study directory: `{meta['study_id']}`; {len(meta.get('runs', []))} runs"
             + (f", {wall / 60:.1f} min of wall time over {len(sessions)} session(s)." if sessions else "."))


def report(contents: StudyContents, extras: ReportExtras = NO_EXTRAS) -> tuple[Report, None]:
    """The difficulty report from what the study gathered (``experiments.difficulty.contents``); it has
    no seat table."""
    parts = contents.parts
    study = DifficultyStudy(meta=contents.meta, base=parts["base"], sweep=parts["sweep"], calibrate=parts["calibrate"],
                            profile=contents.profile, knob_docs=parts["knob_docs"], extras=extras,
                            played=header(contents.played))
    rep = build_difficulty_report(study, contents.done, contents.planned, contents.command)
    rep.provenance = contents.played
    return rep, None
