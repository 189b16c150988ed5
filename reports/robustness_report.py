"""Robustness report: which seat-order and attribution conclusions hold under each component variant.

Each study (the baseline and one per variant) is reduced to named *conclusions*: the best and the
worst seat (per player count, population and start vector, marked when not significant), the
verdict on the rulebook's largest seat value, the balancing start vector, and each component the
baseline flags. A variant's conclusion *holds* when it equals the baseline's (a seat: the same seat;
a component: flagged in the same direction); a balancing vector holds when every seat's value lies in
the baseline's bootstrap interval, and is marked where its own confirmation did not show it even
within the tolerance. Significance follows the seat and attribution tables
(Benjamini–Hochberg). ``bgsim.report`` loads the studies; this module only compares and renders.
"""

import textwrap
from collections.abc import Iterable

import numpy as np
import pandas as pd
import polars as pl
from bgsim.reports.attribution_report import study_spreads
from bgsim.reports.charts import LEGEND_FONT_PT, MAX_FIGURE_WIDTH_IN, MIN_FONT_PT, fit_titles, population_colours
from bgsim.reports.extras import NO_EXTRAS, ReportExtras
from bgsim.reports.progress import progress_warning
from bgsim.reports.provenance import side_by_side
from bgsim.reports.report_builder import Report, fmt_p
from bgsim.reports.seat_charts import seat_win_chart
from bgsim.reports.seat_report import (
    SeatStudy,
    confirmation_outcome,
    final_column,
    largest_rulebook_value,
    seat_study,
)
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.stats.equivalence import HELD, OFF, equivalence
from bgsim.sim.stats.lazy import is_empty
from bgsim.sim.stats.seats import change_findings, paired_change, seat_table
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

__all__ = ["build_robustness_report", "compare", "conclusions", "robustness_chart"]


def conclusions(study: SeatStudy) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(conclusions, seat table) of one seat-order study. Conclusions: columns key, kind, value,
    and for balancing vectors the per-seat bootstrap bounds (low, high as '/'-joined vectors)."""
    rows, profile = study.rows, study.profile
    comp = profile.compensation
    seats = seat_table(rows, profile.score_column, comp.column if comp else None)
    largest = largest_rulebook_value(profile)
    out = []
    for (n, pop, start), part in seats.groupby(["n_players", "population", "start"], sort=True):
        ordered = part.sort_values("win_rate")
        for label, row in (("best", ordered.iloc[-1]), ("worst", ordered.iloc[0])):
            sure = "" if row.favoured else " (not significant)"
            out.append(dict(key=f"{n}p {pop}, start {start}: {label} seat", kind="seat",
                            value=f"seat {row.seat + 1}{sure}"))
        if largest and n == largest[0] and start == "rulebook":
            seat, value = largest[1], largest[2][largest[1]]
            found = part[part["seat"] == seat].iloc[0]
            out.append(dict(key=f"{n}p {pop}: the {value} of seat {seat + 1}", kind="largest",
                            value=_largest_words(found, value, study.tolerance)))
    comp_table = study.compensation
    if not comp_table.empty:
        for (n, pop), part in comp_table.groupby(["n_players", "population"], sort=True):
            part = part.sort_values("seat")
            outcome = confirmation_outcome(part)  # None: not played on fresh deals
            checked = outcome is not None
            mark = "" if outcome in (None, HELD) else f" {NOT_HELD}"
            out.append(dict(key=f"{n}p {pop}: balancing {comp.label}" + ("" if checked else f" {NOT_PLAYED}"),
                            kind="vector", value=_join(part[final_column(part)]) + mark, low=_join(part["low"]),
                            high=_join(part["high"])))
    attribution = profile.attribution()
    played = rows.filter((pl.col("start") == "rulebook") & ~pl.col("population").is_in(["random"]))
    if attribution and not is_empty(played):
        for row in study_spreads(played, profile, study.extras).itertuples():
            value = ("+" if row.win_diff > 0 else "-") if row.flagged else "not flagged"
            out.append(dict(key=f"{row.n_players}p: {attribution.singular} {row.id}", kind="card", value=value))
    return pd.DataFrame(out), seats


def _largest_words(found, value: int, tolerance) -> str:
    """The verdict on the rulebook's largest seat value, within the tolerance of the seat's fair share
    (two one-sided tests, as the seat report's answer)."""
    verdict = equivalence(found.win_rate - found.fair, found.win_se, tolerance.seat_pp / 100, float(found.games),
                          tolerance.alpha, k=1)
    if verdict.outcome == HELD:
        return f"{value} fits within ±{tolerance.seat_pp:g} pp"
    if verdict.outcome == OFF:
        return f"{value} over-compensates" if found.gap_pp > 0 else f"{value} is not enough"
    return f"{value}: cannot tell"


NOT_HELD = "(not shown to hold)"  # a balancing vector its confirmation did not show within the tolerance
NOT_PLAYED = "(re-scored only)"  # a balancing vector of a study that skips the fresh-deal runs


def _join(values) -> str:
    return "/".join(str(int(v)) for v in values)


def compare(baseline: pd.DataFrame, variant: pd.DataFrame) -> pd.DataFrame:
    """Per baseline conclusion: the variant's value and whether it holds."""
    merged = baseline.merge(variant[["key", "value"]], on="key", how="left", suffixes=("", "_variant"))
    holds = []
    for row in merged.itertuples():
        if pd.isna(row.value_variant):
            holds.append(False)
        elif row.kind == "seat":
            holds.append(row.value.split(" (")[0] == row.value_variant.split(" (")[0])
        elif row.kind == "vector":
            got = np.array(row.value_variant.split(" ")[0].split("/"), dtype=int)  # without NOT_HELD
            low, high = (np.array(v.split("/"), dtype=int) for v in (row.low, row.high))
            holds.append(bool(((low <= got) & (got <= high)).all()))
        else:
            holds.append(row.value == row.value_variant)
    merged["holds"] = holds
    return merged


def card_rows(table: pd.DataFrame, plural: str = "components") -> pd.DataFrame:
    """The per-component conclusions (kind "card") folded into one row per player count and variant:
    holds = the share of the baseline's flagged components (``plural``: the attribution's label) that
    keep their flag and direction, value_variant = 'k of m'."""
    cards = table[table["kind"] == "card"]
    if cards.empty:
        return cards
    cards = cards.assign(n=cards["key"].str.split("p:").str[0])
    folded = cards.groupby(["n", "variant"], sort=False).agg(holds=("holds", "mean"), kept=("holds", "sum"),
                                                              total=("holds", "size")).reset_index()
    return pd.DataFrame({"key": folded["n"] + f"p: flagged {plural} that keep their flag", "kind": "cards",
                         "value": folded["total"].astype(str) + " flagged", "variant": folded["variant"],
                         "value_variant": folded["kept"].astype(str) + " of " + folded["total"].astype(str),
                         "holds": folded["holds"]})


def robustness_chart(table: pd.DataFrame, variants: list[str], plural: str = "components") -> Figure:
    """Conclusions (rows) x variants (columns): green holds, red flips (cards: the share that keeps its
    flag, shaded); each cell shows the variant's value. Laid out by the rules of ``reports.charts``: at
    most the content width, cell text at ``MIN_FONT_PT`` wrapped to its column; more variants than fit
    side by side go to further grids below, each with every conclusion."""
    narrowest_column_in = 0.8  # holds "seat 1 (n.s.)" on one line

    def cell_text(row, chars: int) -> str:
        """A variant's value for one cell, wrapped to ``chars`` characters a line; '-' if missing."""
        if row is None or pd.isna(row.value_variant):
            return "-"
        return textwrap.fill(str(row.value_variant).replace(" (not significant)", " (n.s.)"), chars)

    table = pd.concat([table[table["kind"] != "card"], card_rows(table, plural)], ignore_index=True)
    keys = list(dict.fromkeys(table["key"]))
    cell = {(r.key, r.variant): r for r in table.itertuples()}
    char_in = 0.52 * MIN_FONT_PT / 72  # an average character's width
    label_in = min(3.2, 0.3 + 0.5 * LEGEND_FONT_PT / 72 * max(len(k) for k in keys))
    room = MAX_FIGURE_WIDTH_IN - label_in - 0.3
    grid_count = int(np.ceil(len(variants) / max(1, room // narrowest_column_in)))
    per_grid = int(np.ceil(len(variants) / grid_count))  # balanced: 9 variants that need two grids get 5 + 4
    column_in = min(1.4, room / per_grid)
    chars = max(6, int(column_in / char_in) - 1)
    grids = [variants[i:i + per_grid] for i in range(0, len(variants), per_grid)]
    texts = {(k, v): cell_text(cell.get((k, v)), chars) for k in keys for v in variants}
    lines = [max(t.count("\n") + 1 for (k, _), t in texts.items() if k == key) for key in keys]
    header_in = 0.2 + 0.16 * max(textwrap.fill(v.replace("_", " "), chars).count("\n") + 1 for v in variants)
    grid_in = sum(0.1 + 0.15 * n for n in lines) + header_in + 0.4
    fig = Figure(figsize=(min(MAX_FIGURE_WIDTH_IN, label_in + 0.3 + column_in * len(grids[0])),
                          grid_in * len(grids) + 0.7), layout="constrained")
    fig.suptitle("Robustness of the baseline's conclusions: green holds, red changes, shaded: the share of flagged "
                 f"{plural} kept\n(n.s. = not significant)", fontsize=LEGEND_FONT_PT + 1)
    axes = fig.subplots(len(grids), 1, squeeze=False)[:, 0]
    edges = np.concatenate([[0], np.cumsum(0.1 + 0.15 * np.array(lines))])  # rows as tall as their text
    colours = LinearSegmentedColormap.from_list("holds", ["#e8a6a6", "#f3e3a0", "#a6d8a6"])
    for ax, shown in zip(axes, grids, strict=True):
        grid = np.array([[float(cell[(k, v)].holds) if (k, v) in cell else np.nan for v in shown] for k in keys])
        ax.pcolormesh(np.arange(len(shown) + 1) - 0.5, edges, grid, cmap=colours, vmin=0, vmax=1,
                      edgecolors="white", linewidth=1)
        centres = (edges[:-1] + edges[1:]) / 2
        for i, k in enumerate(keys):
            for j, v in enumerate(shown):
                ax.text(j, centres[i], texts[(k, v)], ha="center", va="center", fontsize=MIN_FONT_PT,
                        linespacing=1.1)
        ax.set_ylim(edges[-1], 0)
        ax.set_xlim(-0.5, len(shown) - 0.5)
        ax.xaxis.tick_top()
        ax.set_xticks(range(len(shown)), [textwrap.fill(v.replace("_", " "), chars) for v in shown],
                      fontsize=LEGEND_FONT_PT)
        ax.set_yticks(centres, [textwrap.fill(k, 48) for k in keys], fontsize=LEGEND_FONT_PT)
        ax.tick_params(length=0)
        for side in ax.spines.values():
            side.set_visible(False)
    axes[-1].set_xlabel("component variant (columns) against the baseline's conclusions (rows)",
                        fontsize=LEGEND_FONT_PT)
    return fit_titles(fig)


def build_robustness_report(meta: dict, studies: Iterable[tuple[str, SeatStudy]], done: int, planned: int,
                            finish: str) -> tuple[Report, pd.DataFrame]:
    """The report from the study's marker (``meta``) and its finished seat-order studies, the baseline
    first (``studies``: (variant name, study) pairs, read once); ``done`` of ``planned`` games."""
    studies = iter(studies)
    first, baseline = next(studies)
    if first != "baseline":
        raise ValueError(f"the baseline study comes first, not {first}")
    base, base_seats = conclusions(baseline)
    base = base[(base["kind"] != "card") | (base["value"] != "not flagged")]
    tables, seat_tables, variants = [], [base_seats.assign(variant="baseline")], []
    played = {"baseline": baseline.played}
    game_measures = baseline.extras.study_measures  # the game's own measures (None for a game without)
    first = game_measures(baseline.rows, baseline.profile)
    measures = [] if first is None else [first.assign(variant="baseline")]
    changes = []
    for name, study in studies:
        found, seats = conclusions(study)
        variants.append(name)
        changes.append(paired_change(baseline.rows, study.rows, baseline.profile.score_column).assign(variant=name))
        played[name] = study.played
        tables.append(compare(base, found).assign(variant=name))
        seat_tables.append(seats.assign(variant=name))
        if measures:
            measures.append(game_measures(study.rows, study.profile).assign(variant=name))
    table = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()
    planned_variants = len(meta.get("variants", [])) or len(variants)
    title = baseline.profile.attribution()
    what = f"seat-order and {title.singular} conclusions" if title else "seat-order conclusions"
    own = [v["name"] for v in meta.get("variants", []) if v.get("what_if")]
    what_if = bool(own) and len(own) == len(meta["variants"])
    rep = Report(f"{'What if' if what_if else 'Robustness'}: {meta['name']}",
                 subtitle=f"How the designer's changes move the {what}, against the rulebook on the same deals"
                 if what_if else f"Do the {what} survive the alternatives to the reconstructed components?",
                 meta={"study": meta["study_id"],
                       "variants": f"{len(variants)}" + ("" if len(variants) >= planned_variants else
                                                         f" of {planned_variants} finished"),
                       "games": f"{done:,}" + ("" if done >= planned else f" of {planned:,} planned (incomplete)")}
                 | _played(played, meta))
    progress_warning(rep, done, planned, finish, "study")
    rep.heading("Summary")
    plural = title.label if title else "components"
    change = pd.concat(changes, ignore_index=True) if changes else pd.DataFrame()
    if not change.empty:
        rep.text("\n".join(change_answers(change, baseline.profile.score_unit)))
    _summary(rep, base, table, variants, plural)
    if not table.empty:
        rep.figure(robustness_chart(table, variants, plural), "robustness_summary",
                   "Each baseline conclusion under each variant: green holds, red changes; the cell shows the "
                   "variant's value.")
        rep.table(table, "robustness", "Every conclusion under every variant.",
                  show=["key", "value", "variant", "value_variant", "holds"],
                  columns={"key": "conclusion", "value": "baseline", "value_variant": "under the variant"})
    if not change.empty:
        _change_section(rep, change, baseline.profile.score_unit)
    if measures:
        _measures_section(rep, pd.concat(measures, ignore_index=True), baseline)
    rep.heading("Variants")
    rep.table(pd.DataFrame(meta["variants"]).drop(columns=["what_if"], errors="ignore"), "variants",
              "The variants: the game's declared alternatives to its reconstructed components"
              + (", and the spec's own what-if changes (parameters set, data files by content hash)." if own else "."))
    rep.heading("Seat win rates per variant")
    seats = pd.concat(seat_tables, ignore_index=True)
    bars = seats["variant"] if seats["population"].nunique() == 1 else seats["variant"] + " / " + seats["population"]
    rep.figure(seat_win_chart(seats.assign(population=bars), colours=population_colours(bars)),
               "seat_win_rates_by_variant", "Seat win rates (Wilson 95 %) of each study; bars are the variants.")
    shown = seats.assign(seat=seats["seat"] + 1)
    rep.table(shown, "seats_by_variant", "Seat win rates per variant.", rates=["win_rate"],
              show=["variant", "n_players", "population", "start", "seat", "games", "win_rate", "favoured"],
              formats={"games": ",d"})
    rep.heading("Method")
    rep.text("The baseline is the base seat-order spec with the overrides of the robustness spec; every variant is "
             "the same study with one reconstructed component replaced. All studies use the same seed. Seats "
             "are *off their share* when the exact binomial test against 1/n rejects after Benjamini–Hochberg; "
             "components are *flagged* when the seats that score with them win detectably more or less often "
             "than those of the other components of their group, after Benjamini–Hochberg "
             "(sim/stats/attribution.py). A changed conclusion can mean "
             "a real change or a borderline test on either side: compare the intervals in the seat table.")
    return rep, base_seats


def change_answers(change: pd.DataFrame, unit: str) -> list[str]:
    """One line per variant: the seats whose win rate the change moves on the same deals, corrected
    over the variant's family of seats, player counts, populations and start vectors
    (``sim.stats.seats.change_findings``: q < 0.05), or that it moves none; and the tables in which no
    paired game differed at all, where the strategies never met the change."""
    lines = []
    for variant, part in change_findings(change).groupby("variant", sort=False):
        idle = part[part["unchanged"]].drop_duplicates(["n_players", "population", "start"])
        idle_text = ("; no game differed in " + ", ".join(f"{r.n_players}p {r.population}" for r in idle.itertuples())
                     + ": the strategies never used this rule there, so those tables say nothing of it"
                     if len(idle) else "")
        # at 2 players one seat per table: the other's change is its mirror
        moved = part[(part["moved"] != 0) & ((part["n_players"] != 2) | (part["seat"] == 0))]
        tested = part[~part["unchanged"] & ((part["n_players"] != 2) | (part["seat"] == 0))]
        if tested.empty:
            lines.append(f"- *{variant}*: no game differed from the baseline on the same deals: the strategies never "
                         "used this rule, so these games cannot tell what it does.")
            continue
        if moved.empty:
            lines.append(f"- *{variant}* moves no seat's win rate on the same deals (q >= 0.05 for each of the "
                         f"{len(tested)} tables' seats tested together, paired 95 % intervals; the largest change "
                         f"{tested['win_pp'].abs().max():.1f} pp){idle_text}.")
            continue
        texts = [f"{r.n_players}p {r.population}, start {r.start}, seat {r.seat + 1} {r.win_pp:+.1f} pp "
                 f"[{r.win_low:+.1f}, {r.win_high:+.1f}]" for r in moved.itertuples()]
        lines.append(f"- *{variant}* moves {len(moved)} of the {len(tested)} seat findings tested on the same deals "
                     "(Benjamini–Hochberg q < 0.05 over seats, player counts, populations and start vectors together; "
                     "paired 95 % intervals): " + "; ".join(texts) + f"{idle_text}.")
    return lines


def _change_section(rep: Report, change: pd.DataFrame, unit: str) -> None:
    rep.heading("Change against the baseline, game by game")
    rep.text("Every study plays the baseline's deals (the same seed; a changed data file can deal differently). "
             "Each seat's change is the mean over games of its result under the variant minus its result in the "
             "same game of the baseline, with a paired t 95 % interval clustered by deal (a mixed table's seatings of "
             "one deal move together): far narrower than comparing two win rates side by side. q is "
             "Benjamini–Hochberg over the variant's whole family (every seat, player count, population and start "
             "vector; one seat per 2-player table, whose other seat mirrors it). A table where no paired game "
             "differed says nothing of the change: the strategies never met it there. Where the rules share a tied "
             f"win, each winner counts its share. Score changes are in {unit}.")
    shown = change_findings(change)
    shown = shown.assign(seat=shown["seat"] + 1)
    for name in ("win_pp", "score_diff"):
        prefix = name.split("_")[0]
        shown[f"{name}_low"], shown[f"{name}_high"] = shown[f"{prefix}_low"], shown[f"{prefix}_high"]
    rep.table(shown, "change_by_variant", "Per variant, player count, population, start vector and seat: the paired "
              "change of the win rate (pp) and of the final score against the baseline, the games that differed, "
              "and q over the variant's family.",
              columns={"n_players": "players", "win_pp": "win rate change, pp [95 % CI]",
                       "score_diff": f"{unit} change [95 % CI]", "pairs": "games paired",
                       "differing": "games differing", "win_q": "q (BH, family)"},
              means=["win_pp", "score_diff"],
              formats={"pairs": ",d", "differing": ",d", "win_q": fmt_p, "score_p": fmt_p},
              show=["variant", "n_players", "population", "start", "seat", "pairs", "differing", "win_pp", "win_q",
                    "score_diff", "score_p"])


def _measures_section(rep: Report, table: pd.DataFrame, baseline: SeatStudy) -> None:
    """The game's own measures (its report extras) in the baseline and under every variant."""
    rep.heading(f"{baseline.profile.title} measures per variant")
    answers = baseline.extras.measure_answers(table)
    if answers:
        rep.text("\n".join(f"- {line}" for line in answers))
    rep.table(table, "game_measures_by_variant", "The game's measures in each study (95 % intervals).",
              show=["measure", "n_players", "variant", "text", "trials"], columns={"text": "value [95 % CI]"})


def _played(played: dict[str, dict[str, str]], meta: dict) -> dict[str, str]:
    """What the baseline and each variant played (``reports.provenance.side_by_side``), under the robustness
    spec's description: each study's own repeats the base's with its variant's words, which the Variants
    table gives."""
    lines = side_by_side({name: {k: v for k, v in study.items() if k != "description"}
                          for name, study in played.items()})
    description = " ".join(str(meta.get("description") or "").split())
    return ({"description": description} if description else {}) | lines


def _summary(rep: Report, base: pd.DataFrame, table: pd.DataFrame, variants: list[str], plural: str) -> None:
    if table.empty:
        rep.text("No variants were run.")
        return
    lines = []
    for n, part in card_rows(table, plural).groupby("key", sort=False):
        shares = ", ".join(f"{r.variant}: {r.value_variant}" for r in part.itertuples())
        lines.append(f"- {n} ({part['value'].iloc[0]} in the baseline): {shares}")
    cards = table[table["kind"] == "card"]
    steady = [k.rsplit(" ", 1)[1] + f" ({k.split('p:')[0]}p)" for k, p in cards.groupby("key", sort=False)
              if p["holds"].all()]
    if len(cards):
        lines.append(f"- {plural} flagged under every variant: {', '.join(steady) if steady else 'none'}")
    for key, part in table[table["kind"] != "card"].groupby("key", sort=False):
        flips = part[~part["holds"]]
        value = part["value"].iloc[0]
        every = f"all {len(variants)} variants" if len(variants) > 1 else variants[0]
        if flips.empty:
            lines.append(f"- **holds** under {every}: {key} = {value}")
        else:
            changed = "; ".join(f"{r.variant}: {r.value_variant}" for r in flips.itertuples())
            among = f"{len(flips)} of {len(variants)}" if len(variants) > 1 else variants[0]
            lines.append(f"- **changes** under {among}: {key} = {value} -> {changed}")
    rep.text("\n".join(lines))
    rep.note("A best or worst seat marked *not significant*, or a component near the flagging threshold, can "
             "change from noise alone; a change there says little. A change of a significant seat, of the verdict "
             "on the largest rulebook value or "
             "of a balancing vector beyond its interval is the finding to read. The seat table below gives the "
             "intervals.")


def report(contents: StudyContents, extras: ReportExtras = NO_EXTRAS) -> tuple[Report, pd.DataFrame]:
    """The robustness report from what the study gathered (``experiments.robustness.contents``): its
    finished seat-order studies, the baseline first, each read only when its turn comes."""
    studies = ((name, seat_study(study, extras)) for name, study in contents.parts["studies"])
    rep, seats = build_robustness_report(contents.meta, studies, contents.done, contents.planned, contents.command)
    rep.provenance = contents.played
    return rep, seats
