"""The attribution part of a seat-order report: what each component outcomes are attributed to (a
game's cards, auction items) pays and wins against the other components of its group; its section,
its lines in the Answers and its paragraph of the Method.

Every word comes from the game's attribution (``sim.profile.Attribution``: its label, singular and
group label), the catalogue from the profile stored with the runs. A game's report extras
(``reports.extras.ReportExtras``) may add how its events are valued (``valuation`` and
``valuation_note``), what an event is called (``event_words``), its own method paragraph, a label
for penalties and why whole groups differ. Tables and figures are named after the attribution
(``<name>_flags.csv``), so no game's files speak of another game's components.
"""

from dataclasses import dataclass

import pandas as pd
import polars as pl
from bgsim.reports.attribution_charts import Words, group_chart, pair_heatmap, payoff_forest
from bgsim.reports.extras import NO_EXTRAS, EventWords, ReportExtras
from bgsim.reports.report_builder import Report, fmt_p
from bgsim.sim.profile import GameProfile
from bgsim.sim.stats import attribution as stats
from bgsim.sim.stats.lazy import collect, column_names, is_empty, lazy

__all__ = ["MAX_NAMED", "add_attribution_sections", "attribution_answers", "attribution_method", "played_rows",
           "study_spreads"]

MAX_NAMED = 4  # items named in the Answers: the ones that stand out most, both directions if both occur
ALPHA = 0.05

def _words(profile: GameProfile, extras: ReportExtras = NO_EXTRAS) -> Words:
    """The charts' words: the attribution's names, the payoff unit and what an event is called."""
    a, terms = profile.attribution(), _terms(profile, extras)
    catalogue = stats.catalogue_frame(a)
    label = next((c for c in ("payout", "label", "name") if c in catalogue.columns), None)
    return Words(singular=a.singular, plural=a.label, group=a.group_label, unit=terms.unit, label_column=label,
                 event=terms.event.noun, verb=terms.event.verb)


@dataclass(frozen=True)
class _Terms:
    """The section's words beyond the charts' ``Words``: what an event is called, the unit of a
    payoff, the penalty column and the prefix of its file names."""

    event: EventWords
    unit: str  # the score unit, or "<score unit>-equivalents" when the valuation converts other amounts
    penalty: str  # the penalty column's label; "" when the game's events carry no penalty
    files: str  # the attribution's name: tables and figures are "<files>_flags" and so on


def _terms(profile: GameProfile, extras: ReportExtras) -> _Terms:
    a, valuation = profile.attribution(), extras.valuation
    plain = dict(valuation.weights) in ({}, {a.payoff_field: 1.0}) and not valuation.costs
    unit = profile.score_unit if plain else f"{profile.score_unit}-equivalents"
    penalty = extras.penalty_label if valuation.penalty_field else ""
    return _Terms(event=extras.event_words, unit=unit, penalty=penalty, files=a.name)


def attribution_method(profile: GameProfile, extras: ReportExtras = NO_EXTRAS) -> str:
    """The method in one paragraph (the game's own, if its extras give one)."""
    if extras.attribution_method:
        return extras.attribution_method
    w = _words(profile)
    return (f"{w.plural.capitalize()} are judged against the other {w.plural} of their own {w.group}, because "
            f"the {w.group}s may differ as a whole. The times a seat scored with a {w.singular} are set against "
            f"the times it scored with the {w.group}'s other {w.plural} (same run, strategy and seat), and the "
            f"difference of the two win rates is standardised to the {w.singular}'s events. The seats of a game "
            f"share one winner and the games of one deal share their board, so the 95 % interval and the z test "
            f"use a variance clustered by deal. A {w.singular} is flagged when its Benjamini–Hochberg q over every "
            f"{w.singular} and player count is below 0.05; *pays too much (little)* then means that its seats win "
            f"more (less) often than those of the rest of its {w.group}. All of this is association: the "
            f"strategies choose what to score with.")


def played_rows(rows: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame | pl.LazyFrame:
    """The rows the attribution sections analyse: the rulebook start vector (else the first one present)
    and no population of random players; of the same kind as ``rows`` (a LazyFrame stays a query:
    only which start vectors occur is read)."""
    names = column_names(rows)
    if "start" in names:
        found = collect(lazy(rows).select((pl.col("start") == "rulebook").any().alias("rulebook"),
                                          pl.col("start").first().alias("first")))
        if found["first"][0] is not None:  # some rows
            rows = rows.filter(pl.col("start") == ("rulebook" if found["rulebook"][0] else found["first"][0]))
    if "population" in names:
        rows = rows.filter(~pl.col("population").is_in(["random"]))
    return rows


def study_spreads(rows: pl.DataFrame | pl.LazyFrame, profile: GameProfile,
                  extras: ReportExtras = NO_EXTRAS) -> pd.DataFrame:
    """``spreads`` of ``played_rows(rows)``: what ``add_attribution_sections`` shows and
    ``attribution_answers`` reads."""
    return stats.spreads(played_rows(rows), profile.attribution(), extras.valuation)


# --- answers


def attribution_answers(spreads: pd.DataFrame, profile: GameProfile, extras: ReportExtras = NO_EXTRAS) -> list[str]:
    """Markdown bullet lines for the report's Answers: the few items that stand out within their group,
    by how much (pp with 95 % interval, q), or plainly that none differs from its group detectably;
    and one line on the raw group effect when whole groups lean one way.

    ``spreads``: as ``sim.stats.attribution.spreads``.
    """
    w, terms = _words(profile, extras), _terms(profile, extras)
    title = w.plural.capitalize()
    tested = spreads[spreads["p_value"].notna()]
    if tested.empty:
        return [f"- **{title}**: too few games to compare any {w.singular} with the other {w.plural} of its "
                f"{w.group}."]
    flagged = tested[tested["flagged"]]
    if flagged.empty:
        lines = [f"- **{title}**: no {w.singular} differs detectably from the other {w.plural} of its {w.group}: in "
                 f"none of the {len(tested):,} {w.singular} × player-count comparisons do its seats win more or "
                 f"less often than those of the rest of the {w.group} (Benjamini–Hochberg, q < {ALPHA:g})."]
    else:
        per_count = "; ".join(f"{_count_phrase(part, tested[tested['n_players'] == n], w)} at {n} players"
                              for n, part in flagged.groupby("n_players", sort=True))
        lines = [f"- **{title} that stand out within their {w.group}**: {per_count} (q < {ALPHA:g}). "
                 f"Those that stand out most:"]
        catalogue = stats.catalogue_frame(profile.attribution()).set_index("id")
        requirement = catalogue["requirement"] if "requirement" in catalogue else None
        lines += [_item_line(rows.assign(requirement=rows["id"].map(requirement)) if requirement is not None
                             else rows, w, terms) for rows in _standouts(flagged)]
    split = _group_sentence(spreads, w, extras)
    if split:
        lines.append(f"- {split}")
    return lines


def _count_phrase(flagged: pd.DataFrame, tested: pd.DataFrame, w: Words) -> str:
    much = int((flagged["direction"] == "pays too much").sum())
    return (f"{len(flagged)} of {len(tested)} {w.plural} ({much} {'pays' if much == 1 else 'pay'} too much, "
            f"{len(flagged) - much} too little)")


def _standouts(flagged: pd.DataFrame) -> list[pd.DataFrame]:
    """The flagged rows of at most ``MAX_NAMED`` items, largest within-group difference first; both
    directions get half of the places when both occur."""
    size = flagged.assign(size=flagged["win_diff"].abs()).groupby("id")["size"].max()
    sign = flagged.groupby("id")["win_diff"].max() > 0
    ranked = {side: size[sign == side].sort_values(ascending=False).index.tolist() for side in (True, False)}
    half = MAX_NAMED // 2
    chosen = ranked[True][:half] + ranked[False][:half]
    rest = ranked[True][half:] + ranked[False][half:]
    chosen += sorted(rest, key=lambda item: -size[item])[:MAX_NAMED - len(chosen)]
    chosen.sort(key=lambda item: -size[item])
    return [flagged[flagged["id"] == item].sort_values("n_players") for item in chosen]


def _item_line(rows: pd.DataFrame, w: Words, terms: _Terms) -> str:
    """One item's bullet: its direction, the within-group difference at each flagged player count and
    what it pays against its group where the difference is largest."""
    first = rows.iloc[0]
    effects = ", ".join(f"{_pp(r.win_diff, r.diff_low, r.diff_high)} at {r.n_players} players (q {_q(r.q_value)})"
                        for r in rows.itertuples())
    top = rows.loc[rows["win_diff"].abs().idxmax()]
    pays = _pays_clause(top, terms)
    label = first[w.label_column] if w.label_column and w.label_column in rows else ""
    if "requirement" in rows:  # a card with a requirement pays its label per fulfilment
        what = f": {first['requirement']} → {label} per fulfilment"
    else:
        what = f": {label}" if label else ""
    return (f"- **{first['id']}** ({w.group} {first['group']}{what}) **{first['direction']}** for its "
            f"{w.group}: its seats' win rate against the {w.group}'s other {w.plural} is {effects}{pays}.")


def _pays_clause(row: pd.Series, terms: _Terms) -> str:
    """"; per trigger it pays +1.0 VP-equivalents [...] against them (3 players)", or "" when there is no
    net payoff or it and its interval all round to zero (an item that pays in something else, such as
    draws, says nothing there)."""
    net = (row["net_vs_group"], row["net_vs_group_low"], row["net_vs_group_high"])
    if pd.isna(net[0]) or all(abs(x) < 0.05 for x in net):
        return ""
    return (f"; per {terms.event.noun} it pays {net[0]:+.1f} {terms.unit} [{net[1]:+.1f}, {net[2]:+.1f}] against "
            f"them ({row['n_players']} players)")


def _pp(value: float, low: float, high: float) -> str:
    return f"{100 * value:+.1f} pp [{100 * low:+.1f}, {100 * high:+.1f}]"


def _q(q: float) -> str:
    """``= 0.0012`` or ``< 1e-16``: a q-value as it reads after "q"."""
    text = fmt_p(q)
    return text if text.startswith("<") else f"= {text}"


def _group_sentence(spreads: pd.DataFrame, w: Words, extras: ReportExtras) -> str | None:
    """One sentence on the raw effect when whole groups lean one way, else None. A group leans low (high)
    when at least a quarter of its item rows (pooled over player counts) are significantly below
    (above) 0 and at least four times as many as on the other side."""
    raw = spreads[spreads["raw_q"].notna()]
    significant = raw["raw_q"] < ALPHA
    totals = pd.DataFrame({"rows": raw.groupby("group").size(),
                           "more": (significant & (raw["raw_diff"] > 0)).groupby(raw["group"]).sum(),
                           "less": (significant & (raw["raw_diff"] < 0)).groupby(raw["group"]).sum()})
    low = sorted(d for d, r in totals.iterrows() if r.less >= max(1, r.rows / 4, 4 * r.more))
    high = sorted(d for d, r in totals.iterrows() if r.more >= max(1, r.rows / 4, 4 * r.less))
    if not low or not high:
        return None
    why = extras.group_split_reason(set(low), set(high)) or f"the {w.group}s differ as a whole"
    return (f"Against the same seats in games without the {w.singular} instead, {int(totals.loc[low, 'less'].sum())} "
            f"of {int(totals.loc[low, 'rows'].sum())} {w.singular} × player-count rows of {_groups(low, w)} win "
            f"significantly less and {int(totals.loc[high, 'more'].sum())} of {int(totals.loc[high, 'rows'].sum())} "
            f"of {_groups(high, w)} more: that split belongs to the {w.group}s, not to single {w.plural} — {why}.")


def _groups(groups: list[str], w: Words) -> str:
    return f"{w.group}{'s' if len(groups) > 1 else ''} {'/'.join(groups)}"


# --- section


def add_attribution_sections(rep: Report, rows: pl.DataFrame | pl.LazyFrame, profile: GameProfile,
                             extras: ReportExtras = NO_EXTRAS, spreads: pd.DataFrame | None = None) -> pd.DataFrame:
    """The attribution section: what each item pays and wins against the other items of its group
    (text, figures, tables), the groups as a whole, and the pairs scored together. ``rows``: the
    study's rows, a LazyFrame or a DataFrame (``played_rows`` picks the games); ``spreads``:
    ``study_spreads(rows, ...)`` if already computed (e.g. for ``attribution_answers``). Returns the
    spreads."""
    w, terms = _words(profile, extras), _terms(profile, extras)
    valuation = extras.valuation
    comp = profile.compensation
    rep.heading(w.plural.capitalize())
    played = played_rows(rows)
    if spreads is None:
        spreads = stats.spreads(played, profile.attribution(), valuation)
    if spreads.empty or is_empty(played):
        rep.text(f"No games with {w.plural} to analyse.")
        return spreads
    pairs = stats.component_pair_effects(played, profile.attribution(), valuation, alpha=ALPHA)
    groups = stats.group_summary(spreads, alpha=ALPHA)
    note = extras.valuation_note() or _payoff_note(profile, w, terms)
    start = f"rulebook {comp.label}" if comp else "the rules as written"
    verb = terms.event.verb
    rep.text(f"All populations pooled ({start}, random players left out). {note}")
    rep.text(f"Each {w.singular} is judged against the other {w.plural} of its own {w.group} (see Method): *pays too "
             f"much (too little)* means that the seats that {verb} it won more (less) often than the seats that "
             f"{verb} the {w.group}'s other {w.plural} in the same stratum. That is an association, not a "
             f"measured cause; read a flag as *look at this {w.singular}*, and check it with a run that changes the "
             f"{w.singular}.")
    rep.text("\n".join(_flag_counts(spreads, w)))
    rep.figure(payoff_forest(spreads, words=w), f"{terms.files}_payoff_forest",
               f"Every {w.singular} against the other {w.plural} of its {w.group}: by how many percentage points its "
               "seats win more (or less) often (95 % interval clustered by deal), one panel per player count; "
               "filled: flagged after Benjamini–Hochberg.")
    if "raw_diff" in spreads and spreads["raw_diff"].notna().any():
        rep.figure(group_chart(spreads, w), f"{terms.files}_group_effects",
                   f"The raw effect, for reference: each {w.singular}'s seats against the same seats in games "
                   f"without the {w.singular} (dots), and the {w.group} mean (bars). Whole {w.group}s may lean one "
                   f"way: that is the {w.group}.")
    else:  # an empty chart would only say "no data" in every panel
        rep.text(f"No raw effect against games without the {w.singular}: these runs hold no game without one to "
                 "set it against.")
    _tables(rep, spreads, groups, w, terms)
    if not pairs.empty:
        _pair_section(rep, pairs, w, terms)
    return spreads


def _payoff_note(profile: GameProfile, w: Words, terms: _Terms) -> str:
    """What a payoff is, when the game's extras do not say."""
    field = profile.attribution().payoff_field
    if terms.unit == profile.score_unit == field:
        article = "an" if w.singular[:1] in "aeiou" else "a"
        return f"Payoffs are the {field} {article} {w.singular} brought the seat that {terms.event.verb} it."
    return f"Payoffs are the {field} of each {terms.event.noun}, in {terms.unit}."


def _flag_counts(spreads: pd.DataFrame, w: Words) -> list[str]:
    lines = []
    for n, part in spreads.groupby("n_players", sort=True):
        tested = part[part["p_value"].notna()]
        flagged = tested[tested["flagged"]]
        if tested.empty:
            lines.append(f"- {n} players: too few games to compare the {w.plural} with their {w.group}s.")
        elif flagged.empty:
            lines.append(f"- {n} players: no {w.singular} differs detectably from its {w.group} ({len(tested)} "
                         f"tested).")
        else:
            lines.append(f"- {n} players: {_count_phrase(flagged, tested, w)} differ from their {w.group}.")
    return lines


def _bounds(frame: pd.DataFrame, pairs: dict, scale: float = 1.0) -> pd.DataFrame:
    """Copy ``frame`` with ``<col>``, ``<col>_low`` and ``<col>_high`` for each shown column ``col`` ->
    (value, low, high) source columns, scaled (e.g. 100 for percentage points)."""
    out = frame.copy()
    for col, (value, low, high) in pairs.items():
        out[col], out[f"{col}_low"], out[f"{col}_high"] = (scale * frame[value], scale * frame[low],
                                                           scale * frame[high])
    return out


def _tables(rep: Report, spreads: pd.DataFrame, groups: pd.DataFrame, w: Words, terms: _Terms) -> None:
    """The flagged items, the groups as a whole and every item, as tables."""
    ev = terms.event
    labels = {"n_players": "players", "id": w.singular, "group": w.group, "board": "on the board",
              "trig": f"{ev.verb} when there", "triggered": ev.plural, "pay": "payoff",
              "net_deck": f"net payoff vs {w.group}", "pen": terms.penalty, "effect_pp": f"win vs {w.group} (pp)",
              "q_value": "q", "direction": f"within its {w.group}", "raw_pp": "raw win effect (pp)", "note": "note"}
    if w.label_column:
        labels[w.label_column] = w.label_column
    shown = _bounds(spreads, {"board": ("on_board_rate", "on_board_low", "on_board_high"),
                              "trig": ("trigger_rate", "trigger_low", "trigger_high"),
                              "pen": ("penalty_rate", "penalty_low", "penalty_high"),
                              "pay": ("payoff", "payoff_low", "payoff_high"),
                              "net_deck": ("net_vs_group", "net_vs_group_low", "net_vs_group_high")})
    shown = _bounds(shown, {"effect_pp": ("win_diff", "diff_low", "diff_high"),
                            "raw_pp": ("raw_diff", "raw_low", "raw_high")}, scale=100)
    _flag_table(rep, shown, w, terms, labels)
    _group_table(rep, groups, w, terms)
    _item_table(rep, shown, w, terms, labels)


_PP = {"effect_pp": "+.1f", "raw_pp": "+.1f", "net_deck": "+.1f"}


def _penalty(terms: _Terms) -> tuple[str, list[str]]:
    """The penalty's words in a caption (", -4 rate") and its shown column, both empty without penalties."""
    return (f", {terms.penalty}", ["pen"]) if terms.penalty else ("", [])


def _flag_table(rep: Report, shown: pd.DataFrame, w: Words, terms: _Terms, labels: dict) -> None:
    flagged = shown[shown["flagged"]].sort_values(["n_players", "win_diff"], ascending=[True, False])
    if not len(flagged):
        return
    label_shown = [w.label_column] if w.label_column else []
    rep.table(flagged, f"{terms.files}_flags", f"{w.plural.capitalize()} flagged against their {w.group}, per "
              f"player count from the largest positive to the largest negative difference: win rate of the seats "
              f"that {terms.event.verb} them minus the {w.group}'s other {w.plural} (pp, 95 % interval), q after "
              f"Benjamini–Hochberg over every {w.singular} and player count, and the net payoff per "
              f"{terms.event.noun} minus the {w.group}'s other {w.plural} ({terms.unit}).",
              means=["effect_pp", "net_deck"], formats={**_PP, "q_value": fmt_p}, columns=labels,
              show=["n_players", "id", *label_shown, "effect_pp", "q_value", "direction", "net_deck"])


def _group_table(rep: Report, groups: pd.DataFrame, w: Words, terms: _Terms) -> None:
    ev = terms.event
    pen_words, pen_shown = _penalty(terms)
    shown = _bounds(groups, {"pay": ("payoff", "payoff_low", "payoff_high"),
                             "trig": ("trigger_rate", "trigger_low", "trigger_high"),
                             "pen": ("penalty_rate", "penalty_low", "penalty_high")})
    shown["raw_pp"] = 100 * shown["raw_diff"]
    names = "/".join(sorted(groups["group"].astype(str).unique()))
    rep.table(shown, f"{terms.files}_groups", f"{w.group.capitalize()}s {names}: share of on-board games in which "
              f"the {w.group}'s {w.plural} were {ev.verb}, payoff per {ev.noun} ({terms.unit}){pen_words}; the raw "
              f"win effect (mean over the {w.group}'s {w.plural}, pp) with the {w.plural} significantly above and "
              f"below 0; the {w.plural} flagged against their {w.group}.",
              rates=["trig", "pen"], means=["pay"],
              show=["n_players", "group", "items", "triggered", "trig", "pay", *pen_shown, "raw_pp", "raw_more",
                    "raw_less", "flagged", "too_much", "too_little"],
              columns={"n_players": "players", "group": w.group, "items": w.plural, "triggered": ev.plural,
                       "trig": f"{ev.verb} when on the board", "pay": f"payoff per {ev.noun}",
                       "pen": terms.penalty, "raw_pp": "raw win effect (pp)", "raw_more": "raw above 0",
                       "raw_less": "raw below 0", "flagged": f"flagged vs {w.group}", "too_much": "too much",
                       "too_little": "too little"},
              formats={"triggered": ",d", "raw_pp": "+.1f"})


def _item_table(rep: Report, shown: pd.DataFrame, w: Words, terms: _Terms, labels: dict) -> None:
    ev = terms.event
    pen_words, pen_shown = _penalty(terms)
    label_shown = [w.label_column] if w.label_column else []
    rep.table(shown, terms.files, f"Every {w.singular}: share of games on the board, share of those in which it "
              f"was {ev.verb}, payoff per {ev.noun} and net payoff against the {w.group}'s other {w.plural} "
              f"({terms.unit}){pen_words}, the win rate of the seats that {ev.verb} it against the {w.group}'s other "
              f"{w.plural} (pp) with its q after Benjamini–Hochberg, and, for reference, the raw win effect against "
              f"the same seats in games without the {w.singular} (pp).",
              rates=["board", "trig", "pen"], means=["pay", "net_deck", "effect_pp", "raw_pp"],
              show=["n_players", "id", *label_shown, "board", "trig", "triggered", "pay", "net_deck", *pen_shown,
                    "effect_pp", "q_value", "direction", "raw_pp", "note"],
              columns=labels, formats={**_PP, "triggered": ",d", "q_value": fmt_p})


def _pair_section(rep: Report, pairs: pd.DataFrame, w: Words, terms: _Terms) -> None:
    rep.heading("Pairs scored together", level=3)
    tested = pairs[pairs["q_value"].notna()].sort_values(["q_value", "n_players"])
    flagged = int(tested["flagged"].sum())
    rep.text(f"A seat may score two {w.plural} together. A pair is judged by how much more often its seat wins "
             f"than its two {w.plural} predict (see Method), and by its payoff excess over the two {w.plural}' own "
             f"payoffs. {flagged:,} of {len(tested):,} pairs with enough games are flagged (q < {ALPHA:g}).")
    rep.figure(pair_heatmap(pairs, words=w), f"{terms.files}_pair_heatmap",
               f"Pairs, one panel per player count: win rate minus what the pair's two {w.plural} predict "
               "(pp; colours saturate beyond the 95th percentile); grey: never seen or too few games; dots: flagged.")
    shown = _bounds(tested, {"excess_pp": ("win_diff", "diff_low", "diff_high")}, scale=100)
    shown = _bounds(shown, {"pay": ("payoff", "payoff_low", "payoff_high")})
    rep.table(shown, f"{terms.files}_pairs", f"Pairs with enough games, smallest q first: combined payoff and its "
              f"excess over the two {w.plural}' own payoffs ({terms.unit}), win excess over what the two {w.plural} "
              "predict (pp, 95 % interval), q after Benjamini–Hochberg over every pair and player count.", head=40,
              means=["pay", "excess_pp"],
              show=["n_players", "id_a", "id_b", "count", "pay", "payoff_excess", "excess_pp", "q_value", "direction"],
              columns={"n_players": "players", "id_a": w.singular, "id_b": "beside", "count": terms.event.plural,
                       "pay": "payoff", "payoff_excess": "payoff excess", "excess_pp": "win excess (pp)",
                       "q_value": "q"},
              formats={"count": ",d", "q_value": fmt_p, "payoff_excess": "+.1f", "excess_pp": "+.1f"})
