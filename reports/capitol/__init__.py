"""Capitol's additions to the generic reports, found by ``bgsim.report.report_extras`` by the game's
name: how an auction item's payoff is valued, the consul schedule, what each kind of item costs and
brings, and the game measures a robustness study compares (how strong the catch-up rule is).
Everything else in Capitol's reports comes from its profile.

The hooks the generic reports call when a game's extras define them: ``study_answers(rows,
profile)`` (answer lines of a seat-order report), ``add_study_sections(rep, rows, profile)`` (its
game sections), ``study_measures(rows, profile)`` (one table row per measure and player count,
compared across the variants of a robustness report) and ``measure_answers(table)``.
"""

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.stats.attribution import Valuation
from bgsim.sim.stats.intervals import wilson
from scipy import stats

__all__ = ["ATTRIBUTION_METHOD", "VALUATION", "add_study_sections", "consul_schedule", "item_values",
           "measure_answers", "study_answers", "study_measures"]

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


def _rules_rows(rows: pl.DataFrame) -> pl.DataFrame:
    """The games played by the rules' start vector, when the study varied it."""
    if "start" in rows.columns and (rows["start"] == "rulebook").any():
        return rows.filter(pl.col("start") == "rulebook")
    return rows


def _ratio_interval(price: np.ndarray, points: np.ndarray) -> tuple[float, float, float]:
    """sum(price) / sum(points) and its delta-method 95 % interval over the (price, points) pairs."""
    n = len(price)
    if n < 2 or points.sum() == 0:
        return float("nan"), float("nan"), float("nan")
    ratio = price.sum() / points.sum()
    resid = price - ratio * points
    half = Z * np.sqrt(resid.var(ddof=1) / n) / points.mean()
    return float(ratio), float(ratio - half), float(ratio + half)


def item_values(rows: pl.DataFrame) -> pd.DataFrame:
    """Per player count and item kind: items won per game, mean price and points (or draws) with t
    intervals, card value paid per point, and the win rate of seats that won one against seats that did not."""
    rows = _rules_rows(rows)
    out = []
    for n in sorted(rows["n_players"].unique().to_list()):
        part = rows.filter(pl.col("n_players") == n)
        games = part.height // n
        events = part.select("won", pl.col("items")).with_row_index("row").explode("items").drop_nulls("items")
        events = events.unnest("items")
        for kind, name in KINDS.items():
            ev = events.filter(pl.col("kind") == kind)
            price = ev["price"].to_numpy().astype(float)
            gain = (ev["draws"] if kind == 2 else ev["points"]).to_numpy().astype(float)
            holders = set(ev["row"].to_list())
            won = part["won"].to_numpy()
            has = np.zeros(part.height, dtype=bool)
            has[list(holders)] = True
            p1, n1 = (won[has].mean(), has.sum()) if has.any() else (np.nan, 0)
            p0, n0 = (won[~has].mean(), (~has).sum()) if (~has).any() else (np.nan, 0)
            diff = p1 - p0
            half = Z * np.sqrt(p1 * (1 - p1) / max(n1, 1) + p0 * (1 - p0) / max(n0, 1))
            ratio, r_low, r_high = _ratio_interval(price, gain) if kind != 2 else (np.nan, np.nan, np.nan)
            out.append({
                "n_players": n, "item": name, "won_per_game": len(ev) / games if games else np.nan,
                "price": _mean(price)[0], "price_low": _mean(price)[1], "price_high": _mean(price)[2],
                "gain": _mean(gain)[0], "gain_low": _mean(gain)[1], "gain_high": _mean(gain)[2],
                "gain_unit": "draws" if kind == 2 else "points",
                "price_per_point": ratio, "ppp_low": r_low, "ppp_high": r_high,
                "win_with": p1, "win_without": p0, "win_difference": diff,
                "difference_low": diff - half, "difference_high": diff + half, "seats_with": int(n1)})
    return pd.DataFrame(out)


def _mean(values: np.ndarray) -> tuple[float, float, float]:
    if len(values) < 2:
        return (float(values.mean()) if len(values) else np.nan), np.nan, np.nan
    m, se = values.mean(), values.std(ddof=1) / np.sqrt(len(values))
    t = stats.t.ppf(0.975, len(values) - 1)
    return float(m), float(m - t * se), float(m + t * se)


def study_answers(rows: pl.DataFrame, profile) -> list[str]:
    """Answer lines: the consul schedule, what each item kind costs and brings, the catch-up rule."""
    del profile
    lines = []
    counts = sorted(rows["n_players"].unique().to_list())
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
        text = "; ".join(f"{r.n_players} players {100 * r.win_difference:+.1f} pp "
                         f"[{100 * r.difference_low:+.1f}, {100 * r.difference_high:+.1f}]"
                         for r in part.itertuples() if np.isfinite(r.win_difference))
        if text:
            article = "an" if name[0] in "aeiou" else "a"
            lines.append(f"- Seats that won {article} {name} won the game more often than seats that did not by: "
                         f"{text} (an association: strategies choose what to bid for).")
    measures = study_measures(rows, None)
    tie = measures[measures["measure"] == "auctions decided by the catch-up rule"]
    if not tie.empty:
        lines.append("- The catch-up rule (a tied highest bid goes to the lower score, CAP-AUCTION-7) decided "
                     + "; ".join(f"{r.text} at {r.n_players} players" for r in tie.itertuples()) + " of the auctions.")
    return lines


def study_measures(rows: pl.DataFrame, profile) -> pd.DataFrame:
    """Per player count: how often the leader after round 2 wins, the share of auctions decided by the
    catch-up rule, and the share of items that left the game unsold; each with its interval."""
    del profile
    rows = _rules_rows(rows)
    out = []
    for n in sorted(rows["n_players"].unique().to_list()):
        part = rows.filter(pl.col("n_players") == n).sort("run_id", "game_index", "seat") \
            if "run_id" in rows.columns else rows.filter(pl.col("n_players") == n).sort("game_index", "seat")
        games = part.height // n
        mid = (part["start_points"] + part["points_round1"] + part["points_round2"]).to_numpy().reshape(games, n)
        won = part["won"].to_numpy().reshape(games, n)
        top = mid.max(axis=1, keepdims=True)
        unique = (mid == top).sum(axis=1) == 1
        leader_won = won[unique][mid[unique] == top[unique]]
        out.append(_share("leader after round 2 wins the game", n, int(leader_won.sum()), int(unique.sum())))
        ties = int(part["tie_bid_wins"].sum())
        out.append(_share("auctions decided by the catch-up rule", n, ties, 12 * games))
        board = np.stack(part["board_items"].to_numpy())[::n]  # one row per game
        out.append(_share("items that left the game unsold", n, int((board < 0).sum()), 12 * games))
    return pd.DataFrame(out)


def _share(measure: str, n: int, hits: int, trials: int) -> dict:
    low, high = wilson(np.array([hits]), np.array([trials]))
    value = hits / trials if trials else np.nan
    text = f"{100 * value:.1f} % [{100 * low[0]:.1f}, {100 * high[0]:.1f}]"
    return {"measure": measure, "n_players": n, "value": value, "low": float(low[0]), "high": float(high[0]),
            "trials": trials, "text": text}


def measure_answers(table: pd.DataFrame) -> list[str]:
    """One line per measure: its value in the baseline and under each variant, per player count."""
    lines = []
    for (measure, n), part in table.groupby(["measure", "n_players"], sort=False):
        values = "; ".join(f"{r.variant}: {r.text}" for r in part.itertuples())
        lines.append(f"{measure} ({n} players): {values}")
    return lines


def add_study_sections(rep, rows: pl.DataFrame, profile) -> None:
    """The consul schedule and the value of the auction items, as tables."""
    del profile
    counts = sorted(rows["n_players"].unique().to_list())
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
              columns={"text": "share [95 % CI]"})
