"""Arkadia's additions to the generic reports (``EXTRAS``, declared in the game's entry): the final
round (does the seat that triggers the end, and so moves last, win more often?), banner timing (gold
per cashing by the round it happens in), and the game measures a robustness study compares.
Everything else in Arkadia's reports comes from its profile.

``rows`` is a LazyFrame over a study's chunks (or a polars or pandas DataFrame): every table is
aggregated from it lazily, so only per-value counts and sums are ever held. Wins are counted by
shares (``win_share``: a win shared by k seats counts 1/k to each, ARK-END-5).
"""

import numpy as np
import pandas as pd
import polars as pl
from bgsim.reports.extras import EventWords, ReportExtras, share_measure
from bgsim.sim.stats.attribution import Valuation
from bgsim.sim.stats.intervals import wilson
from bgsim.sim.stats.lazy import collect, column_names, lazy
from scipy import stats

__all__ = ["ATTRIBUTION_METHOD", "EXTRAS", "add_study_sections", "banner_timing", "final_round",
           "study_answers", "study_measures"]

VALUATION = Valuation(weights={"gold": 1.0})
Z = float(stats.norm.ppf(0.975))
ROUND_BUCKETS = ((1, 3), (4, 6), (7, 9), (10, 12), (13, 99))  # rounds of the game a cashing falls in

ATTRIBUTION_METHOD = (
    "A building shape and a seal family are credited to the seat that placed a building of them. The payoff is the "
    "seals the building paid that seat (its own workers' payout, and the building's seal when the seat completed "
    "it), valued at the castle's final values in gold: a proxy, since seals cashed with a banner earlier paid the "
    "values of their day. Shapes are judged against the other shapes, families against the other families: the "
    "seats that placed one are set against the seats that placed the others by the same seat, strategy and run, "
    "and the difference of the two win rates is standardised to the component's placements; the 95 % interval and "
    "the z test use a variance clustered by deal. A win effect is an association: strategies choose which cards "
    "to play.")


def _rules_rows(rows) -> pl.LazyFrame:
    """The games played by the rules' start gold, when the study varied it, as a lazy query."""
    frame = lazy(rows)
    if "start" in column_names(frame) and collect(frame.select((pl.col("start") == "rulebook").any())).item():
        return frame.filter(pl.col("start") == "rulebook")
    return frame


def final_round(rows) -> pd.DataFrame:
    """Per player count (and population, where a study has several): games with a trigger, the
    trigger seat's win share and the other seats' (each with its Wilson interval), the fair share 1/n."""
    frame = _rules_rows(rows)
    keys = ["n_players"] + (["population"] if "population" in column_names(frame) else [])
    table = collect(frame.filter(~pl.col("ended_by_stall")).group_by(*keys, "triggered_end").agg(
        pl.len().alias("rows"), pl.col("win_share").sum().alias("wins")))
    out = []
    for key, part in table.group_by(keys, maintain_order=False):
        trig = part.filter(pl.col("triggered_end"))
        other = part.filter(~pl.col("triggered_end"))
        if trig.is_empty() or other.is_empty():
            continue
        n = int(key[0])
        t_rows, t_wins = int(trig["rows"][0]), float(trig["wins"][0])
        o_rows, o_wins = int(other["rows"][0]), float(other["wins"][0])
        t_low, t_high = wilson(np.array([t_wins]), np.array([t_rows]))
        o_low, o_high = wilson(np.array([o_wins]), np.array([o_rows]))
        out.append({"n_players": n, "population": key[1] if len(key) > 1 else "", "games": t_rows, "fair": 1 / n,
                    "trigger": t_wins / t_rows, "trigger_low": float(t_low[0]), "trigger_high": float(t_high[0]),
                    "others": o_wins / o_rows, "others_low": float(o_low[0]), "others_high": float(o_high[0])})
    frame_out = pd.DataFrame(out)
    return frame_out.sort_values(["population", "n_players"], ignore_index=True) if out else frame_out


def banner_timing(rows) -> pd.DataFrame:
    """Per player count and span of rounds: cashings made, the mean gold and seals per cashing (t 95 %
    intervals) and gold per seal. Banners raised without a seal (for their two workers) count apart."""
    frame = _rules_rows(rows).select("n_players", "cashings").explode("cashings").drop_nulls("cashings")
    frame = frame.unnest("cashings")
    bucket = pl.lit(None, pl.String)
    for low, high in reversed(ROUND_BUCKETS):
        label = f"rounds {low}-{high}" if high < 99 else f"rounds {low}+"
        bucket = pl.when(pl.col("round").is_between(low, high)).then(pl.lit(label)).otherwise(bucket)
    stats_ = collect(frame.with_columns(bucket.alias("span"), (pl.col("seals") > 0).alias("cashed"))
                     .group_by("n_players", "span").agg(
                         pl.len().alias("banners"), pl.col("cashed").sum().alias("with_seals"),
                         pl.col("gold").filter(pl.col("cashed")).mean().alias("gold"),
                         pl.col("gold").filter(pl.col("cashed")).std().alias("gold_sd"),
                         pl.col("seals").filter(pl.col("cashed")).mean().alias("seals"),
                         pl.col("round").min().alias("first_round")).sort("n_players", "first_round"))
    out = stats_.to_pandas()
    if out.empty:
        return out
    k = out["with_seals"].clip(lower=1)
    half = stats.t.ppf(0.975, (k - 1).clip(lower=1)) * out["gold_sd"] / np.sqrt(k)
    out["gold_low"], out["gold_high"] = out["gold"] - half, out["gold"] + half
    out["gold_per_seal"] = out["gold"] / out["seals"]
    return out.drop(columns=["first_round"])


def study_answers(rows, profile) -> list[str]:
    """Answer lines: the final round's effect, and when a banner's cashing pays most."""
    del profile
    lines = []
    table = final_round(rows)
    for population, part in table.groupby("population", sort=False) if not table.empty else ():
        text = "; ".join(f"{r.n_players} players {100 * r.trigger:.1f} % [{100 * r.trigger_low:.1f}, "
                         f"{100 * r.trigger_high:.1f}] against {100 * r.others:.1f} % for each other seat "
                         f"(fair {100 * r.fair:.1f} %)" for r in part.itertuples())
        who = f", *{population}*" if population else ""
        lines.append(f"- **The final round{who}.** The seat that triggers the end (it moves last, ARK-END-2) wins "
                     f"{text}. Triggering goes with a strong position (it completes buildings), so this is an "
                     "association, not the effect of moving last alone.")
    timing = banner_timing(rows)
    cashed = timing[timing["with_seals"] >= 30] if not timing.empty else timing
    for n, part in cashed.groupby("n_players"):
        best = part.loc[part["gold_per_seal"].idxmax()]
        spans = "; ".join(f"{r.span} {r.gold:.1f} [{r.gold_low:.1f}, {r.gold_high:.1f}]" for r in part.itertuples())
        lines.append(f"- **Banner timing, {n} players** (every population pooled). Gold per cashing with seals: "
                     f"{spans}; a seal fetched most in {best['span']} ({best['gold_per_seal']:.2f} gold).")
    return lines


def study_measures(rows, profile) -> pd.DataFrame:
    """Per player count: the trigger seat's win share, games ended by the stall safeguard, and the
    mean number of turns; each with its interval."""
    del profile
    frame = _rules_rows(rows)
    games = collect(frame.filter(pl.col("seat") == 0).group_by("n_players").agg(
        pl.len().alias("games"), pl.col("ended_by_stall").sum().alias("stalls"),
        pl.col("turns").mean().alias("turns"), pl.col("turns").std().alias("turns_sd")).sort("n_players"))
    trig = final_round(rows)
    out = []
    for r in games.iter_rows(named=True):
        n = r["n_players"]
        part = trig[trig["n_players"] == n] if not trig.empty else trig
        if not part.empty:  # every population pooled
            hits = float((part["trigger"] * part["games"]).sum())
            out.append(share_measure("the trigger seat wins", n, hits, int(part["games"].sum())))
        out.append(share_measure("games ended by the stall safeguard", n, r["stalls"], r["games"]))
        half = Z * (r["turns_sd"] or 0.0) / np.sqrt(max(r["games"], 1))
        out.append({"measure": "turns per game", "n_players": n, "value": r["turns"], "low": r["turns"] - half,
                    "high": r["turns"] + half, "trials": r["games"],
                    "text": f"{r['turns']:.1f} [{r['turns'] - half:.1f}, {r['turns'] + half:.1f}]"})
    return pd.DataFrame(out)


def add_study_sections(rep, rows, profile) -> None:
    """The final round and banner timing, as tables."""
    del profile
    rep.heading("Arkadia: the final round and banner timing")
    rep.table(final_round(rows), "final_round", "Games that ended by a full level 2, with the rules' start gold: the "
              "win share of the seat that triggered the end (it moves last in the final round, ARK-END-2, -3) and of "
              "each other seat, with Wilson 95 % intervals, against the fair share 1/n. An association: triggering "
              "goes with completing buildings.",
              rates=["trigger", "others"], show=["n_players", "population", "games", "fair", "trigger", "others"],
              columns={"n_players": "players", "fair": "fair share", "trigger": "trigger seat wins [95 % CI]",
                       "others": "each other seat wins [95 % CI]"}, formats={"fair": lambda v: f"{100 * v:.1f} %"})
    rep.table(banner_timing(rows), "banner_timing", "Banners by the rounds they were raised in: banners raised, "
              "those that cashed seals, the mean gold per cashing with seals (t 95 % interval), the mean seals "
              "cashed and gold per seal. A banner raised without seals brings only its two workers.",
              means=["gold"], show=["n_players", "span", "banners", "with_seals", "gold", "seals", "gold_per_seal"],
              columns={"n_players": "players", "with_seals": "with seals", "gold": "gold per cashing [95 % CI]",
                       "seals": "seals per cashing", "gold_per_seal": "gold per seal"},
              formats={"seals": ".2f", "gold_per_seal": ".2f"})
    rep.table(study_measures(rows, None), "game_measures", "The game's course: how often the trigger seat wins (every "
              "population pooled), the "
              "games the stall safeguard ended (AMB-5), turns per game (95 % intervals).",
              show=["measure", "n_players", "text", "trials"],
              columns={"n_players": "players", "text": "value [95 % CI]"})


EXTRAS = ReportExtras(valuation=VALUATION, attribution_method=ATTRIBUTION_METHOD,
                      event_words=EventWords(verb="placed", noun="building", plural="buildings"),
                      study_answers=study_answers, add_study_sections=add_study_sections,
                      study_measures=study_measures)
