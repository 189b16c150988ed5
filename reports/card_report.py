"""The scoring-card part of the seat-order report: the "Scoring cards" section, its lines in the
Answers and its paragraph of the Method.

A card is judged against the other cards of its own deck (``reports.cards``): the decks differ as a
whole, so a comparison with every seat flags decks, not cards. ``add_card_sections`` writes the
section (text, figures, tables) and returns the per-card table; ``card_answers`` turns that table
into the few Answers lines; ``CARD_METHOD`` is the method in one paragraph.
"""

import pandas as pd
import polars as pl
from bgsim.reports.card_charts import card_deck_chart, card_pair_heatmap, card_payoff_forest
from bgsim.reports.report_builder import Report, fmt_p
from bgsim.sim.stats import cards as card_stats

__all__ = ["CARD_METHOD", "MAX_NAMED", "add_card_sections", "card_answers", "played_rows", "study_spreads"]

MAX_NAMED = 4  # cards named in the Answers: the ones that stand out most, both directions if both occur
ALPHA = 0.05

CARD_METHOD = (
    "Scoring cards are judged against the other cards of their own deck, because the decks differ as a "
    "whole. The triggers of a card are set against the triggers of the deck's other cards in the same "
    "stratum (run, strategy, seat and pass), and the difference of the two win rates is standardised to the "
    "card's triggers. The seats of a game share one winner, a seat triggers eight cards a game, and the games "
    "of one deal share their board, so the 95 % interval and the z test use a variance clustered by deal. A "
    "card is flagged when its Benjamini–Hochberg q over every card and player count is below 0.05; *pays too "
    "much (little)* then means that its triggering seats win more (less) often than those of the rest of its "
    "deck. A card far off its deck shifts the comparison of the deck's other cards a little the other way. "
    "The same comparison of the net payoff gives what a card pays against its deck. An adjacent pair is "
    "judged by how much more often its seat wins than a linear model of stratum plus its two cards predicts. "
    "All of this is association: the strategies choose which cards to trigger.")

_RED_GREEN = ({"A", "B"}, {"C", "D"})  # CD-CARD-1: A/B cards are red ("give"), C/D green ("have")


def played_rows(rows: pl.DataFrame) -> pl.DataFrame:
    """The rows the card sections analyse: the rulebook start vector (else the first one present)
    and no population of random players."""
    if rows.height and "start" in rows.columns:
        starts = set(rows["start"])
        rows = rows.filter(pl.col("start") == ("rulebook" if "rulebook" in starts else rows["start"][0]))
    if "population" in rows.columns:
        rows = rows.filter(~pl.col("population").is_in(["random"]))
    return rows


def study_spreads(rows: pl.DataFrame) -> pd.DataFrame:
    """``card_spreads`` of ``played_rows(rows)``: what ``add_card_sections`` shows and ``card_answers`` reads."""
    return card_stats.card_spreads(played_rows(rows), card_stats.card_catalogue())


# --- answers


def card_answers(spreads: pd.DataFrame) -> list[str]:
    """Markdown bullet lines for the report's Answers: the few cards that stand out within their deck,
    by how much (pp with 95 % interval, q), or plainly that no card differs from its deck detectably;
    and one line on the raw deck effect when whole decks lean one way.

    ``spreads``: as ``reports.cards.card_spreads``.
    """
    tested = spreads[spreads["p_value"].notna()]
    if tested.empty:
        return ["- **Scoring cards**: too few games to compare any card with the other cards of its deck."]
    flagged = tested[tested["flagged"]]
    if flagged.empty:
        lines = [f"- **Scoring cards**: no card differs detectably from the other cards of its deck: in none of "
                 f"the {len(tested):,} card × player-count comparisons do its triggering seats win more or less "
                 f"often than those of the rest of the deck (Benjamini–Hochberg, q < {ALPHA:g})."]
    else:
        per_count = "; ".join(f"{_count_phrase(part, tested[tested['n_players'] == n])} at {n} players"
                              for n, part in flagged.groupby("n_players", sort=True))
        lines = [f"- **Scoring cards that stand out within their deck**: {per_count} (q < {ALPHA:g}). "
                 f"Those that stand out most:"]
        requirement = card_stats.card_catalogue().set_index("id")["requirement"]
        lines += [_card_line(rows.assign(requirement=rows["id"].map(requirement))) for rows in _standouts(flagged)]
    deck = _deck_sentence(spreads)
    if deck:
        lines.append(f"- {deck}")
    return lines


def _count_phrase(flagged: pd.DataFrame, tested: pd.DataFrame) -> str:
    much = int((flagged["direction"] == "pays too much").sum())
    return f"{len(flagged)} of {len(tested)} cards ({much} pay too much, {len(flagged) - much} too little)"


def _standouts(flagged: pd.DataFrame) -> list[pd.DataFrame]:
    """The flagged rows of at most ``MAX_NAMED`` cards, largest within-deck difference first; both
    directions get half of the places when both occur."""
    size = flagged.assign(size=flagged["win_diff"].abs()).groupby("id")["size"].max()
    sign = flagged.groupby("id")["win_diff"].max() > 0
    ranked = {side: size[sign == side].sort_values(ascending=False).index.tolist() for side in (True, False)}
    half = MAX_NAMED // 2
    chosen = ranked[True][:half] + ranked[False][:half]
    rest = ranked[True][half:] + ranked[False][half:]
    chosen += sorted(rest, key=lambda card: -size[card])[:MAX_NAMED - len(chosen)]
    chosen.sort(key=lambda card: -size[card])
    return [flagged[flagged["id"] == card].sort_values("n_players") for card in chosen]


def _card_line(rows: pd.DataFrame) -> str:
    """One card's bullet: its direction, the within-deck difference at each flagged player count and
    what it pays against its deck where the difference is largest."""
    first = rows.iloc[0]
    effects = ", ".join(f"{_pp(r.win_diff, r.diff_low, r.diff_high)} at {r.n_players} players (q {_q(r.q_value)})"
                        for r in rows.itertuples())
    top = rows.loc[rows["win_diff"].abs().idxmax()]
    pays = ""
    if pd.notna(top["net_vs_deck"]):
        pays = (f"; per trigger it pays {top['net_vs_deck']:+.1f} VP-equivalents "
                f"[{top['net_vs_deck_low']:+.1f}, {top['net_vs_deck_high']:+.1f}] against them "
                f"({top['n_players']} players)")
    what = f"{first['requirement']} → {first['payout']}" if "requirement" in rows else first["payout"]
    return (f"- **{first['id']}** (deck {first['deck']}: {what} per fulfilment) **{first['direction']}** for its "
            f"deck: its triggering seats' win rate against the deck's other cards is {effects}{pays}.")


def _pp(value: float, low: float, high: float) -> str:
    return f"{100 * value:+.1f} pp [{100 * low:+.1f}, {100 * high:+.1f}]"


def _q(q: float) -> str:
    """``= 0.0012`` or ``< 1e-16``: a q-value as it reads after "q"."""
    text = fmt_p(q)
    return text if text.startswith("<") else f"= {text}"


def _deck_sentence(spreads: pd.DataFrame) -> str | None:
    """One sentence on the raw effect when whole decks lean one way, else None. A deck leans low (high)
    when at least a quarter of its card rows (pooled over player counts) are significantly below
    (above) 0 and at least four times as many as on the other side."""
    raw = spreads[spreads["raw_q"].notna()]
    significant = raw["raw_q"] < ALPHA
    totals = pd.DataFrame({"rows": raw.groupby("deck").size(),
                           "more": (significant & (raw["raw_diff"] > 0)).groupby(raw["deck"]).sum(),
                           "less": (significant & (raw["raw_diff"] < 0)).groupby(raw["deck"]).sum()})
    low = sorted(d for d, r in totals.iterrows() if r.less >= max(1, r.rows / 4, 4 * r.more))
    high = sorted(d for d, r in totals.iterrows() if r.more >= max(1, r.rows / 4, 4 * r.less))
    if not low or not high:
        return None
    why = ("red A/B cards take goods while green C/D cards pay for what a seat already owns, and which of them a "
           "seat can take depends on when it scores (CD-SCORING-2); the cards themselves lie on random slots "
           "(CD-SETUP-7)" if (set(low), set(high)) == _RED_GREEN else "the decks differ as a whole")
    return (f"Against the same seats in games without the card instead, {int(totals.loc[low, 'less'].sum())} of "
            f"{int(totals.loc[low, 'rows'].sum())} card × player-count rows of {_decks(low)} win significantly less "
            f"and {int(totals.loc[high, 'more'].sum())} of {int(totals.loc[high, 'rows'].sum())} of {_decks(high)} "
            f"more: that split belongs to the decks, not to single cards — {why}.")


def _decks(decks: list[str]) -> str:
    return f"deck{'s' if len(decks) > 1 else ''} {'/'.join(decks)}"


# --- section


def add_card_sections(rep: Report, rows: pl.DataFrame, spreads: pd.DataFrame | None = None) -> pd.DataFrame:
    """The "Scoring cards" section: what each card pays and wins against the other cards of its
    deck (text, figures, tables), the decks as a whole, and the adjacent pairs. ``rows``: the
    study's rows (``played_rows`` picks the games); ``spreads``: ``study_spreads(rows)`` if already
    computed (e.g. for ``card_answers``). Returns the spreads."""
    rep.heading("Scoring cards")
    played = played_rows(rows)
    catalogue = card_stats.card_catalogue()
    if spreads is None:
        spreads = card_stats.card_spreads(played, catalogue)
    if played.height == 0 or spreads.empty:
        rep.text("No games with scoring cards to analyse.")
        return spreads
    pairs = card_stats.pair_effects(played, catalogue, alpha=ALPHA)
    decks = card_stats.deck_summary(spreads, alpha=ALPHA)
    rep.text(f"All populations pooled (rulebook start VP, random players left out). {card_stats.conversion_note()}")
    rep.text("Each card is judged against the other cards of its own deck (see Method): *pays too much (too "
             "little)* means that the seats that triggered it won more (less) often than the seats that triggered "
             "the deck's other cards in the same pass. That is an association, not a measured cause; read a flag "
             "as *look at this card*, and check it with a run that changes the card.")
    rep.text("\n".join(_flag_counts(spreads)))
    rep.figure(card_payoff_forest(spreads), "card_payoff_forest",
               "Every card against the other cards of its deck: how much more often its triggering seats win "
               "(percentage points, 95 % interval clustered by deal), one panel per player count; filled: flagged "
               "after Benjamini–Hochberg.")
    rep.figure(card_deck_chart(spreads), "card_deck_effects",
               "The raw effect, for reference: each card's triggering seats against the same seats in games "
               "without the card (dots), and the deck mean (bars). Whole decks lean one way: that is the deck.")
    _card_tables(rep, spreads, decks)
    _pair_section(rep, pairs)
    return spreads


def _flag_counts(spreads: pd.DataFrame) -> list[str]:
    lines = []
    for n, part in spreads.groupby("n_players", sort=True):
        tested = part[part["p_value"].notna()]
        flagged = tested[tested["flagged"]]
        if tested.empty:
            lines.append(f"- {n} players: too few games to compare the cards with their decks.")
        elif flagged.empty:
            lines.append(f"- {n} players: no card differs detectably from its deck ({len(tested)} tested).")
        else:
            lines.append(f"- {n} players: {_count_phrase(flagged, tested)} differ from their deck.")
    return lines


def _bounds(frame: pd.DataFrame, pairs: dict, scale: float = 1.0) -> pd.DataFrame:
    """Copy ``frame`` with ``<col>``, ``<col>_low`` and ``<col>_high`` for each shown column ``col`` ->
    (value, low, high) source columns, scaled (e.g. 100 for percentage points)."""
    out = frame.copy()
    for col, (value, low, high) in pairs.items():
        out[col], out[f"{col}_low"], out[f"{col}_high"] = (scale * frame[value], scale * frame[low],
                                                           scale * frame[high])
    return out


_CARD_LABELS = {"n_players": "players", "id": "card", "deck": "deck", "payout": "payout", "board": "on the board",
                "trig": "triggered when there", "triggered": "triggers", "pay": "payoff",
                "net_deck": "net payoff vs deck", "pen": "-4 rate", "effect_pp": "win vs deck (pp)",
                "q_value": "q", "direction": "within its deck", "raw_pp": "raw win effect (pp)", "note": "note"}


def _card_tables(rep: Report, spreads: pd.DataFrame, decks: pd.DataFrame) -> None:
    shown = _bounds(spreads, {"board": ("on_board_rate", "on_board_low", "on_board_high"),
                              "trig": ("trigger_rate", "trigger_low", "trigger_high"),
                              "pen": ("penalty_rate", "penalty_low", "penalty_high"),
                              "pay": ("payoff", "payoff_low", "payoff_high"),
                              "net_deck": ("net_vs_deck", "net_vs_deck_low", "net_vs_deck_high")})
    shown = _bounds(shown, {"effect_pp": ("win_diff", "diff_low", "diff_high"),
                            "raw_pp": ("raw_diff", "raw_low", "raw_high")}, scale=100)
    pp = {"effect_pp": "+.1f", "raw_pp": "+.1f", "net_deck": "+.1f"}
    flagged = shown[shown["flagged"]].sort_values(["n_players", "win_diff"], ascending=[True, False])
    if len(flagged):
        rep.table(flagged, "card_flags", "Cards flagged against their deck, per player count from the largest "
                  "positive to the largest negative difference: win rate of the triggering seats minus the deck's "
                  "other cards (pp, 95 % interval), q after Benjamini–Hochberg over every card and player count, "
                  "and the net payoff per trigger minus the deck's other cards (VP-equivalents).",
                  means=["effect_pp", "net_deck"], formats={**pp, "q_value": fmt_p}, columns=_CARD_LABELS,
                  show=["n_players", "id", "payout", "effect_pp", "q_value", "direction", "net_deck"])
    deck_shown = _bounds(decks, {"pay": ("payoff", "payoff_low", "payoff_high"),
                                 "trig": ("trigger_rate", "trigger_low", "trigger_high"),
                                 "pen": ("penalty_rate", "penalty_low", "penalty_high")})
    deck_shown["raw_pp"] = 100 * deck_shown["raw_diff"]
    rep.table(deck_shown, "card_decks", "Decks A–D: share of on-board games in which the deck's cards were "
              "triggered, payoff per trigger (VP-equivalents), -4 rate; the raw win effect (mean over the deck's "
              "cards, pp) with the cards significantly above and below 0; the cards flagged against their deck.",
              rates=["trig", "pen"], means=["pay"],
              show=["n_players", "deck", "cards", "triggered", "trig", "pay", "pen", "raw_pp", "raw_more", "raw_less",
                    "flagged", "too_much", "too_little"],
              columns={"n_players": "players", "trig": "triggered when on the board", "pay": "payoff per trigger",
                       "pen": "-4 rate", "raw_pp": "raw win effect (pp)", "raw_more": "raw above 0",
                       "raw_less": "raw below 0", "flagged": "flagged vs deck", "too_much": "too much",
                       "too_little": "too little"},
              formats={"triggered": ",d", "raw_pp": "+.1f"})
    rep.table(shown, "cards", "Every card: share of games on the board, share of those in which it was triggered, "
              "payoff per trigger and net payoff against the deck's other cards (VP-equivalents), -4 rate, the "
              "triggering seats' win rate against the deck's other cards (pp) with its q after Benjamini–Hochberg, "
              "and, for reference, the raw win effect against the same seats in games without the card (pp).",
              rates=["board", "trig", "pen"], means=["pay", "net_deck", "effect_pp", "raw_pp"],
              show=["n_players", "id", "payout", "board", "trig", "triggered", "pay", "net_deck", "pen", "effect_pp",
                    "q_value", "direction", "raw_pp", "note"],
              columns=_CARD_LABELS, formats={**pp, "triggered": ",d", "q_value": fmt_p})


def _pair_section(rep: Report, pairs: pd.DataFrame) -> None:
    rep.heading("Adjacent pairs", level=3)
    tested = pairs[pairs["q_value"].notna()].sort_values(["q_value", "n_players"])
    flagged = int(tested["flagged"].sum())
    rep.text(f"The two cards beside one disc are triggered together. A pair is judged by how much more often its "
             f"seat wins than its two cards predict (see Method), and by its payoff excess over the two cards' own "
             f"payoffs. {flagged:,} of {len(tested):,} pairs with enough games are flagged (q < {ALPHA:g}).")
    rep.figure(card_pair_heatmap(pairs), "card_pair_heatmap",
               "Adjacent pairs, one panel per player count: win rate minus what the pair's two cards predict "
               "(pp; colours saturate beyond the 95th percentile); grey: never seen or too few games; dots: flagged.")
    shown = _bounds(tested, {"excess_pp": ("win_diff", "diff_low", "diff_high")}, scale=100)
    shown = _bounds(shown, {"pay": ("payoff", "payoff_low", "payoff_high")})
    rep.table(shown, "card_pairs", "Adjacent pairs with enough games, smallest q first: combined payoff and its "
              "excess over the two cards' own payoffs (VP-equivalents), win excess over what the two cards predict "
              "(pp, 95 % interval), q after Benjamini–Hochberg over every pair and player count.", head=40,
              means=["pay", "excess_pp"],
              show=["n_players", "id_a", "id_b", "count", "pay", "payoff_excess", "excess_pp", "q_value", "direction"],
              columns={"n_players": "players", "id_a": "card", "id_b": "beside", "count": "triggers",
                       "pay": "payoff", "payoff_excess": "payoff excess", "excess_pp": "win excess (pp)",
                       "q_value": "q"},
              formats={"count": ",d", "q_value": fmt_p, "payoff_excess": "+.1f", "excess_pp": "+.1f"})
