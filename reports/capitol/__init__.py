"""Capitol's additions to the generic reports (``EXTRAS``, declared in the game's entry): how an
auction item's payoff is valued, the consul schedule, what each kind of item costs and brings, and
the game measures a robustness study compares (how strong the catch-up rule is). Everything else in
Capitol's reports comes from its profile.

``rows`` is a LazyFrame over a study's chunks (or a polars or pandas DataFrame): every table is
aggregated from it lazily, so only per-value counts and per-game sums are ever held.
"""

import numpy as np
import pandas as pd
import polars as pl
from bgsim.reports.extras import EventWords, ReportExtras, share_measure
from bgsim.sim.stats.attribution import Valuation, deal_slices
from bgsim.sim.stats.lazy import collect, column_names, lazy
from scipy import stats

__all__ = ["ATTRIBUTION_METHOD", "EXTRAS", "VALUATION", "add_study_sections", "consul_schedule", "item_values",
           "study_answers", "study_measures"]

VALUATION = Valuation(weights={"points": 1.0})
ROUNDS = 4
KINDS = {1: "fountain", 2: "amphitheatre", 3: "temple"}
Z = float(stats.norm.ppf(0.975))

ATTRIBUTION_METHOD = (
    "Auction items are judged against the other items of their kind (the fountains of the twelve auctions against "
    "each other, the two amphitheatres, the two temples), because the kinds pay differently. An item's winners "
    "are set against the winners of the other items of its kind by the same seat, strategy and run, and the "
    "difference of the two win rates is standardised to the item's winners; the 95 % interval and the z test use "
    "a variance clustered by deal. Its payoff is the points it brought its winner in the scorings after it was "
    "placed (a fountain 1 per scoring in which the winner placed first or second there, doubled by a temple; a "
    "temple the doubled half of the winner's points there); an amphitheatre pays draws, not points. A win effect "
    "is an association: strategies choose what to bid for.")


def consul_schedule(n_players: int) -> list[int]:
    """Seat (from 1) holding the consul in rounds 1..4 (CAP-SETUP-11, CAP-DRAW-10)."""
    return [r % n_players + 1 for r in range(ROUNDS)]


def _rules_rows(rows) -> pl.LazyFrame:
    """The games played by the rules' start vector, when the study varied it, as a lazy query."""
    frame = lazy(rows)
    if "start" in column_names(frame) and collect(frame.select((pl.col("start") == "rulebook").any())).item():
        return frame.filter(pl.col("start") == "rulebook")
    return frame


def _player_counts(rows) -> list[int]:
    return sorted(collect(lazy(rows).select(pl.col("n_players").unique()))["n_players"].to_list())


def _ratio_interval(price: np.ndarray, points: np.ndarray, counts: np.ndarray) -> tuple[float, float, float]:
    """sum(price) / sum(points) and its delta-method 95 % interval over the (price, points) pairs, given
    as distinct pairs ``price``, ``points`` (K,) float64 that occur ``counts`` (K,) int64 times."""
    n = int(counts.sum())
    if n < 2 or points @ counts == 0:
        return float("nan"), float("nan"), float("nan")
    ratio = (price @ counts) / (points @ counts)
    resid = price - ratio * points
    variance = counts @ (resid - (resid @ counts) / n) ** 2 / (n - 1)
    half = Z * np.sqrt(variance / n) / ((points @ counts) / n)
    return float(ratio), float(ratio - half), float(ratio + half)


def _has(kind: int) -> pl.Expr:
    """Whether a seat row won an item of ``kind``."""
    return pl.col("items").list.eval(pl.element().struct.field("kind") == kind).list.any().fill_null(False)


def item_values(rows) -> pd.DataFrame:
    """Per player count and item kind: items won per game, mean price and points (or draws) with t
    intervals, card value paid per point, and the win rate of seats that won one against seats that did not.

    Prices, points and draws are small integers: the seat rows are summed to counts per player count
    (and kind), and the events to counts per distinct (price, gain) pair, lazily."""
    rows = _rules_rows(rows)
    gain = pl.when(pl.col("kind") == 2).then(pl.col("draws")).otherwise(pl.col("points")).alias("gain")
    seats, pairs = (collect(query) for query in (
        rows.group_by("n_players").agg(
            pl.len().alias("rows"), pl.col("won").sum().alias("wins"),
            *(_has(kind).sum().alias(f"has_{kind}") for kind in KINDS),
            *((_has(kind) & pl.col("won")).sum().alias(f"wins_{kind}") for kind in KINDS)),
        rows.select("n_players", "items").explode("items").drop_nulls("items").unnest("items")
        .group_by("n_players", "kind", "price", gain).agg(pl.len().alias("count"))
        .sort("n_players", "kind", "price", "gain")))
    out = []
    for seat in seats.sort("n_players").iter_rows(named=True):
        n = seat["n_players"]
        games = seat["rows"] // n
        for kind, name in KINDS.items():
            ev = pairs.filter((pl.col("n_players") == n) & (pl.col("kind") == kind))
            price, gain, counts = (ev[c].to_numpy().astype(float) for c in ("price", "gain", "count"))
            counts = counts.astype(np.int64)
            n1, w1 = seat[f"has_{kind}"], seat[f"wins_{kind}"]
            n0, w0 = seat["rows"] - n1, seat["wins"] - w1
            p1 = w1 / n1 if n1 else np.nan
            p0 = w0 / n0 if n0 else np.nan
            diff = p1 - p0
            half = Z * np.sqrt(p1 * (1 - p1) / max(n1, 1) + p0 * (1 - p0) / max(n0, 1))
            ratio, r_low, r_high = _ratio_interval(price, gain, counts) if kind != 2 else (np.nan, np.nan, np.nan)
            out.append({
                "n_players": n, "item": name, "won_per_game": int(counts.sum()) / games if games else np.nan,
                "price": _mean(price, counts)[0], "price_low": _mean(price, counts)[1],
                "price_high": _mean(price, counts)[2],
                "gain": _mean(gain, counts)[0], "gain_low": _mean(gain, counts)[1], "gain_high": _mean(gain, counts)[2],
                "gain_unit": "draws" if kind == 2 else "points",
                "price_per_point": ratio, "ppp_low": r_low, "ppp_high": r_high,
                "win_with": p1, "win_without": p0, "win_difference": diff,
                "difference_low": diff - half, "difference_high": diff + half, "seats_with": int(n1)})
    return pd.DataFrame(out)


def _mean(values: np.ndarray, counts: np.ndarray) -> tuple[float, float, float]:
    """Mean and t 95 % interval of the data that holds each of ``values`` (K,) float64 ``counts`` (K,)
    int64 times."""
    n = int(counts.sum())
    if n < 2:
        return (float(values @ counts / n) if n else np.nan), np.nan, np.nan
    m = (values @ counts) / n
    se = np.sqrt(counts @ (values - m) ** 2 / (n - 1)) / np.sqrt(n)
    t = stats.t.ppf(0.975, n - 1)
    return float(m), float(m - t * se), float(m + t * se)


def study_answers(rows, profile) -> list[str]:
    """Answer lines: the consul schedule, what each item kind costs and brings, the catch-up rule."""
    del profile
    lines = []
    counts = _player_counts(rows)
    schedules = "; ".join(f"{n} players: seats {', '.join(map(str, consul_schedule(n)))}" for n in counts)
    lines.append(f"- The consul (the start player) in rounds 1-4: {schedules}"
                 + (" — at 3 players seat 1 starts twice" if 3 in counts else "") + ".")
    values = item_values(rows)
    for name in ("fountain", "temple"):
        part = values[values["item"] == name]
        text = "; ".join(f"{r.n_players} players {r.price:.1f} card value for {r.gain:.2f} points, "
                         f"{r.price_per_point:.1f} [{r.ppp_low:.1f}, {r.ppp_high:.1f}] per point"
                         for r in part.itertuples() if np.isfinite(r.price_per_point))
        if text:
            lines.append(f"- A {name} costs its winner (mean price, points it brought, card value per point): {text}.")
    part = values[values["item"] == "amphitheatre"]
    text = "; ".join(f"{r.n_players} players {r.price:.1f} [{r.price_low:.1f}, {r.price_high:.1f}] card value for "
                     f"{r.gain:.1f} extra draws" for r in part.itertuples() if np.isfinite(r.price))
    if text:
        lines.append(f"- An amphitheatre: {text}.")
    for name in KINDS.values():
        part = values[values["item"] == name]
        text = "; ".join(f"{_how_often(r.win_difference, r.difference_low, r.difference_high)} at {r.n_players} "
                         f"players" for r in part.itertuples() if np.isfinite(r.win_difference))
        if text:
            article = "an" if name[0] in "aeiou" else "a"
            lines.append(f"- Seats that won {article} {name} won the game, against seats that did not: {text} "
                         f"(an association: strategies choose what to bid for).")
    measures = study_measures(rows, None)
    tie = measures[measures["measure"] == "auctions decided by the catch-up rule"]
    if not tie.empty:
        lines.append("- The catch-up rule (a tied highest bid goes to the lower score, CAP-AUCTION-7) decided "
                     + "; ".join(f"{r.text} of the auctions at {r.n_players} players" for r in tie.itertuples()) + ".")
    return lines


def _how_often(diff: float, low: float, high: float) -> str:
    """A win-rate difference in words: "15.6 pp less often [-40.6, +9.5]" (the interval keeps its signs)."""
    size = f"{100 * abs(diff):.1f}"
    if size == "0.0":
        return f"as often [{100 * low:+.1f}, {100 * high:+.1f}]"
    return f"{size} pp {'more' if diff > 0 else 'less'} often [{100 * low:+.1f}, {100 * high:+.1f}]"


def study_measures(rows, profile) -> pd.DataFrame:
    """Per player count: how often the leader after round 2 wins, the share of auctions decided by the
    catch-up rule, and the share of items that left the game unsold; each with its interval."""
    del profile
    rows = _rules_rows(rows)
    run = (pl.col("run_id").cast(pl.String).cast(pl.Categorical).to_physical().cast(pl.Int64)
           if "run_id" in column_names(rows) else pl.lit(0, pl.Int64))
    seats, board = (collect(query) for query in (
        rows.group_by("n_players").agg(pl.len().alias("rows"), pl.col("tie_bid_wins").sum().alias("ties")),
        rows.filter(pl.col("seat") == 0).select("n_players", "board_items").explode("board_items")
        .group_by("n_players").agg((pl.col("board_items") < 0).sum().alias("unsold"))))
    game = run * (1 << 40) + pl.col("game_index").cast(pl.Int64)
    leaders = pl.concat([collect(_leaders(rows.filter(where), game)) for where in deal_slices(rows)])
    out = []
    for seat in seats.sort("n_players").iter_rows(named=True):
        n = seat["n_players"]
        games = seat["rows"] // n
        leader = leaders.filter(pl.col("n_players") == n)
        out.append(share_measure("leader after round 2 wins the game", n, int(leader["leader_won"].sum()),
                          int(leader["unique"].sum())))
        out.append(share_measure("auctions decided by the catch-up rule", n, int(seat["ties"]), 12 * games))
        unsold = board.filter(pl.col("n_players") == n)["unsold"].sum()
        out.append(share_measure("items that left the game unsold", n, int(unsold), 12 * games))
    return pd.DataFrame(out)


def _leaders(rows: pl.LazyFrame, game: pl.Expr) -> pl.LazyFrame:
    """Per player count: ``unique`` games (one seat leads after round 2; ``game``: an Int64 key of
    the game) and ``leader_won`` (of them, those that seat won), as a lazy query. The leader is found
    among a game's seat rows, so the query keeps one running entry per game: give it a slice of whole
    games (``deal_slices``), so that what it holds does not grow with the games.

    Only maxima are taken per game, which stream: the largest score with the seat (and its win) in
    the low bits, once preferring high seats and once low ones; the leader is unique if both name
    the same seat."""
    mid = (pl.col("start_points") + pl.col("points_round1") + pl.col("points_round2")).cast(pl.Int64)
    seat = pl.col("seat").cast(pl.Int64)
    top = pl.col("top") * 32
    high_seat, low_seat = (pl.col("high") - top) // 2, 15 - (pl.col("low") - top) // 2
    return (rows.group_by(game.alias("game"))
            .agg(pl.col("n_players").first(), mid.max().alias("top"),
                 (mid * 32 + seat * 2 + pl.col("won").cast(pl.Int64)).max().alias("high"),
                 (mid * 32 + (15 - seat) * 2).max().alias("low"))
            .select("n_players", (high_seat == low_seat).alias("unique"),
                    ((high_seat == low_seat) & ((pl.col("high") - top) % 2 == 1)).alias("leader_won"))
            .group_by("n_players").agg(pl.col("unique").sum(), pl.col("leader_won").sum()))


def add_study_sections(rep, rows, profile) -> None:
    """The consul schedule and the value of the auction items, as tables."""
    del profile
    counts = _player_counts(rows)
    rep.heading("Capitol: consul and auction items")
    schedule = pd.DataFrame([{"players": n, **{f"round {r + 1}": s for r, s in enumerate(consul_schedule(n))}}
                             for n in counts])
    rep.table(schedule, "consul_schedule", "Seat holding the consul (start player of the build and draw phases) in "
              "each round: it moves one seat left after every draw phase (CAP-DRAW-10).")
    values = item_values(rows)
    rep.table(values, "item_values", "Per item kind, games with the rules' start vector: items won per game, mean "
              "price (card value paid) and what the item brought its winner afterwards (points; draws for an "
              "amphitheatre), card value paid per point (delta-method 95 % interval), and the win rate of seats "
              "that won such an item against seats that did not (Wald 95 % interval of the difference).",
              show=["n_players", "item", "won_per_game", "price", "price_low", "price_high", "gain", "gain_low",
                    "gain_high", "gain_unit", "price_per_point", "ppp_low", "ppp_high", "win_with", "win_without",
                    "win_difference", "difference_low", "difference_high"])
    measures = study_measures(rows, None)
    rep.table(measures, "game_measures", "The catch-up rule and the game's course: how often the leader after "
              "round 2 wins, the share of auctions a tied bid gave to the lower score, the share of items unsold "
              "(Wilson 95 % intervals).", show=["measure", "n_players", "text", "trials"],
              columns={"n_players": "players", "text": "share [95 % CI]"})


EXTRAS = ReportExtras(valuation=VALUATION, attribution_method=ATTRIBUTION_METHOD,
                      event_words=EventWords(verb="bought", noun="purchase", plural="purchases"),
                      study_answers=study_answers,
                      add_study_sections=add_study_sections, study_measures=study_measures)
