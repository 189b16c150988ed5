"""Seat-order balance: per seat win rate, score, rank and score by category, with intervals and tests.

Pure functions over stored result rows (a LazyFrame over the chunks, or a polars or pandas frame in;
pandas out); no engine code. Every table is a lazy aggregation per group and seat, so memory follows
the size of the table, not the number of games (``sim.stats.lazy``). The rows
are the runner's columns plus two labels the seat-order experiment adds: ``population`` (which
strategies sat at the table) and ``start`` (which start vector of the game's compensation parameter
the games used). Groups are
(``n_players``, ``population``, ``start``); a missing label column counts as one group.

Statistics, stated once:

- win rates: Wilson 95 % intervals (statsmodels); a seat is *favoured* or *disfavoured* when an
  exact binomial test against the fair share 1/n rejects after Benjamini–Hochberg over every seat
  of the table (q < alpha). Otherwise the table says that no difference was detected and how
  large a difference the games could have detected. Where the rules share a tied win, a seat's
  win counts its share (``sim.stats.wins``), and interval and test use the effective number of games.
- means (score, rank, score per category): Student t intervals (scipy).
- start vectors compared on the same deals (``start_effect``): the paired difference of a seat's
  win indicator in the same game under two start vectors, with a paired t interval.
"""

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.stats.clustered import (
    clustered_means,
    clustered_moments,
    clustered_rates,
    clustered_variance,
    seat_covariances,
)
from bgsim.sim.stats.equivalence import CANNOT_TELL, HELD, OFF, Tolerance, equivalence, seat_tests, to_tell
from bgsim.sim.stats.imbalance import seat_imbalance
from bgsim.sim.stats.intervals import fmt_p, t_bounds
from bgsim.sim.stats.lazy import collect, column_names, lazy
from bgsim.sim.stats.wins import win_column
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import samplesize_confint_proportion

__all__ = ["GROUP", "ONE_SIDED", "category_table", "change_findings", "detectable_gap", "games_needed",
           "imbalance_table", "one_sided_tables", "paired_change", "paired_t", "q_text", "seat_equivalence",
           "seat_table", "start_effect", "tolerance_sentence", "verdicts"]

GROUP = ("n_players", "population", "start")
_Z = stats.norm.ppf(0.975)


def _labelled(rows) -> pl.LazyFrame:
    """``rows`` as a LazyFrame with both group labels (a missing one is the single group "all")."""
    frame = lazy(rows)
    present = column_names(frame)
    return frame.with_columns(pl.lit("all").alias(label) for label in ("population", "start") if label not in present)


def seat_table(rows, score: str, start_column: str | None = None, confidence: float = 0.95,
               alpha: float = 0.05) -> pd.DataFrame:
    """One row per (n_players, population, start, seat).

    ``score``: the final-score column (the profile's ``score_column``); ``start_column``: the seat's
    compensation value (``profile.compensation.column``), None for a game without.
    Columns: games, deals (distinct deals: fewer than games where a mixed table plays each deal in
    every seating), win_rate with win_rate_low/high (Wilson on the effective games, ``effective_games``:
    the variance clustered by deal), win_se (its clustered standard error), fair (1/n), gap_pp (win rate
    - fair, percentage points), p (exact binomial test against fair on the effective games), q
    (Benjamini–Hochberg over all rows), favoured (+1 / -1 / 0), detectable_pp (the gap these games
    detect half the time, see ``detectable_gap``), mean_score (of ``score``), mean_rank, each mean with
    _low/_high (t, clustered by deal), and with a ``start_column`` the seat's mean value of it,
    ``start_value``.
    """
    frame = _labelled(rows)
    win = win_column(column_names(frame))
    keys = [*GROUP, "seat"]
    values = {"win": win, "score": pl.col(score).cast(pl.Float64), "rank": pl.col("rank").cast(pl.Float64)}
    if start_column:
        values["start"] = pl.col(start_column).cast(pl.Float64)
    moments = clustered_moments(frame, keys, values)
    agg = moments.select(keys).to_pandas()
    if agg.empty:
        return pd.DataFrame(columns=[*keys, "games", "deals", "win_rate", "win_rate_low", "win_rate_high", "fair",
                                     "gap_pp", "p", "q", "favoured", "detectable_pp"])
    games = moments["win|n"].to_numpy().astype(np.int64)
    agg["games"] = games
    agg["deals"] = moments["win|clusters"].to_numpy().astype(np.int64)
    agg["wins"] = moments["win|sum"].to_numpy()
    rate, agg["win_rate_low"], agg["win_rate_high"], n_eff = clustered_rates(moments, "win", confidence)
    agg["effective_games"] = n_eff
    agg["win_rate"] = rate
    agg["win_se"] = np.sqrt(rate * (1 - rate) / n_eff)
    agg["fair"] = 1.0 / agg["n_players"].astype(float)
    agg["gap_pp"] = 100 * (agg["win_rate"] - agg["fair"])
    agg["p"] = _binomial_p(rate, n_eff, agg["fair"].to_numpy())
    agg["q"] = multipletests(agg["p"], method="fdr_bh")[1] if len(agg) else []
    agg["favoured"] = np.where(agg["q"] < alpha, np.sign(agg["gap_pp"]), 0).astype(int)
    agg["detectable_pp"] = [detectable_gap(float(n), float(f)) for n, f in zip(n_eff, agg["fair"], strict=True)]
    for name in ("score", "rank"):
        agg[f"mean_{name}"], agg[f"mean_{name}_low"], agg[f"mean_{name}_high"] = clustered_means(moments, name,
                                                                                               confidence)
    if start_column:
        agg["start_value"] = clustered_variance(moments, "start")[0]
    return agg


def _binomial_p(rate: np.ndarray, n_eff: np.ndarray, fair: np.ndarray) -> list[float]:
    """Exact binomial p-values of (K,) rates against ``fair`` (K,) on the (K,) effective games (the
    plain test for 0/1 outcomes of independent games)."""
    k = np.nan_to_num(rate) * n_eff
    return [stats.binomtest(int(round(x)), max(int(round(m)), int(round(x)), 1), float(f)).pvalue
            for x, m, f in zip(k, n_eff, fair, strict=True)]


def category_table(rows, categories: tuple[str, ...], score: str, confidence: float = 0.95,
                   by: tuple[str, ...] = (*GROUP, "seat")) -> pd.DataFrame:
    """Score by category per ``by`` (default: n_players, population, start, seat): long format with
    columns category (the column name), games, mean, mean_low, mean_high (t intervals), and share (the
    category's part of the group's final score). ``categories``: the profile's category columns; those
    missing from ``rows`` are left out."""
    frame = _labelled(rows)
    names = column_names(frame)
    present = [c for c in categories if c in names]
    total = pl.col(score).sum()
    # one pass, every category a column of sums; the long table is reshaped from the small result
    wide = collect(frame.group_by(list(by)).agg(
        pl.len().alias("games"),
        *(pl.col(c).mean().alias(f"mean|{c}") for c in present),
        *(pl.col(c).std().alias(f"sd|{c}") for c in present),
        *((pl.col(c).sum() / total).alias(f"share|{c}") for c in present)))
    long = [wide.select(*by, pl.lit(c).alias("category"), "games", pl.col(f"mean|{c}").cast(pl.Float64).alias("mean"),
                        pl.col(f"sd|{c}").cast(pl.Float64).alias("sd"),
                        pl.col(f"share|{c}").cast(pl.Float64).alias("share")) for c in present]
    columns = [*by, "category", "games", "mean", "sd", "share"]
    agg = (pl.concat(long).sort([*by, "category"]).to_pandas() if long
           else pd.DataFrame({c: [] for c in columns}))
    agg["mean_low"], agg["mean_high"] = t_bounds(agg["mean"], agg["sd"], agg["games"], confidence)
    return agg.drop(columns=["sd"])


def start_effect(rows, baseline: str = "equal", confidence: float = 0.95) -> pd.DataFrame:
    """How a start vector moves each seat's win rate, paired game by game against ``baseline``.

    Games pair up when they share (n_players, population, game_index): same seed, same deal and
    same seating. Columns: n_players, population, start, seat, pairs, deals, diff_pp (win-rate change
    in percentage points) with diff_low/diff_high (paired t, clustered by deal: a mixed table's
    seatings of one deal move together) and p; the interval is the point and p NaN where a pair never
    differs.
    """
    frame = _labelled(rows)
    keys = ["n_players", "population", "start", "seat"]
    win = win_column(column_names(frame))
    names = column_names(frame)
    on = ["n_players", "population", "game_index", "seat"] + [c for c in ("deal", "seating") if c in names]
    base = frame.filter(pl.col("start") == baseline).select(*on, win.alias("won_base"))
    other = frame.filter(pl.col("start") != baseline).select(*on, "start", win.alias("won"))
    pairs = other.join(base, on=on, how="inner")
    moments = clustered_moments(pairs, keys, {"diff": pl.col("won") - pl.col("won_base")})
    columns = [*keys, "baseline", "pairs", "deals", "diff_pp", "diff_low", "diff_high", "p"]
    if moments.is_empty():
        return pd.DataFrame(columns=columns)
    sums = moments.select(keys).to_pandas()
    sums["baseline"] = baseline
    sums["pairs"] = moments["diff|n"].to_numpy().astype(np.int64)
    sums["deals"] = moments["diff|clusters"].to_numpy().astype(np.int64)
    sums["diff_pp"], sums["diff_low"], sums["diff_high"], sums["p"] = paired_t(moments, "diff", confidence)
    return sums[columns].sort_values(keys, ignore_index=True)


def paired_change(baseline, variant, score: str, confidence: float = 0.95) -> pd.DataFrame:
    """How a changed rule or component moves each seat, game by game against the baseline on the same deals.

    ``baseline`` and ``variant``: rows of two studies played with the same seed, so game ``i`` of a
    (n_players, population, start) is the same deal and seating in both (up to what the change itself
    deals differently). Columns: n_players, population, start, seat, pairs, deals, differing (pairs
    whose seat result or score differs), win_pp with win_low/win_high and win_p (the paired change of
    the seat's win, shares counted, in percentage points: paired t clustered by deal), and score_diff
    with score_low/score_high and score_p (the paired change of ``score``)."""
    keys = ["n_players", "population", "start", "seat"]
    frames = []
    for rows, suffix in ((baseline, "_base"), (variant, "")):
        frame = _labelled(rows)
        names = column_names(frame)
        win = win_column(names)
        extra = [c for c in ("deal", "seating") if c in names]
        frames.append(frame.select(*keys, "game_index", *extra, win.alias(f"win{suffix}"),
                                   pl.col(score).cast(pl.Float64).alias(f"score{suffix}")))
    on = [*keys, "game_index"] + [c for c in ("deal", "seating") if c in frames[0].collect_schema().names()
                                  and c in frames[1].collect_schema().names()]
    pairs = frames[1].join(frames[0].select(*on, "win_base", "score_base"), on=on, how="inner")
    win_diff, score_diff = pl.col("win") - pl.col("win_base"), pl.col("score") - pl.col("score_base")
    moments = clustered_moments(pairs, keys, {
        "win": win_diff, "score": score_diff,
        "differs": ((win_diff != 0) | (score_diff != 0)).cast(pl.Float64)})
    columns = [*keys, "pairs", "deals", "differing", "win_pp", "win_low", "win_high", "win_p", "score_diff",
               "score_low", "score_high", "score_p"]
    if moments.is_empty():
        return pd.DataFrame(columns=columns)
    sums = moments.select(keys).to_pandas()
    sums["pairs"] = moments["win|n"].to_numpy().astype(np.int64)
    sums["deals"] = moments["win|clusters"].to_numpy().astype(np.int64)
    sums["differing"] = moments["differs|sum"].to_numpy().round().astype(np.int64)
    for name, out in (("win", "win_pp"), ("score", "score_diff")):
        mean, low, high, p = paired_t(moments, name, confidence)
        scale = 1 if name == "win" else 0.01  # paired_t answers in percentage points
        sums[out], sums[f"{name}_low"], sums[f"{name}_high"], sums[f"{name}_p"] = (
            mean * scale, low * scale, high * scale, p)
    return sums[columns]


def change_findings(change: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """``paired_change`` rows (of one changed design, or several in a ``variant`` column) with their
    findings corrected over the family: per variant, Benjamini–Hochberg over every (player count,
    population, start vector, seat) whose games differed (at two players one seat per table: its
    change is the other seat's, negated; the mirrored seat gets the same q). Adds ``win_q``,
    ``moved`` (+1 / -1 where q < alpha, else 0) and ``unchanged`` (no paired game differed in result
    or score: the strategies never met the change, so the table says nothing of it)."""
    out = change.copy()
    out["win_q"] = np.nan
    out["unchanged"] = out["differing"] == 0
    groups = out.groupby("variant", sort=False) if "variant" in out else [(None, out)]
    for _, part in groups:
        tested = part[(part["n_players"] != 2) | (part["seat"] == 0)]
        tested = tested[tested["win_p"].notna() & ~tested["unchanged"]]
        if tested.empty:
            continue
        q = pd.Series(multipletests(tested["win_p"], method="fdr_bh")[1], index=tested.index)
        out.loc[q.index, "win_q"] = q
        for i in q.index:  # the mirrored seat of a 2-player table
            if out.at[i, "n_players"] == 2:
                twin = part[(part["n_players"] == 2) & (part["population"] == out.at[i, "population"])
                            & (part["start"] == out.at[i, "start"]) & (part["seat"] == 1)].index
                out.loc[twin, "win_q"] = q[i]
    out["moved"] = np.where(out["win_q"] < alpha, np.sign(out["win_pp"]), 0).astype(int)
    return out


def paired_t(moments, name: str, confidence: float) -> tuple[np.ndarray, ...]:
    """Mean paired difference of outcome ``name`` in pp with its t interval and p, the variance
    clustered by deal (``clustered_moments``' table, clusters - 1 degrees of freedom); where the
    differences never vary (or fewer than 2 deals) the interval is the point and p is NaN."""
    mean, variance = clustered_variance(moments, name)
    clusters = moments[f"{name}|clusters"].to_numpy().astype(np.float64)
    varies = (clusters > 1) & np.isfinite(variance) & (variance > 1e-24)
    low, high, p = mean.copy(), mean.copy(), np.full(mean.shape, np.nan)
    if varies.any():
        df = clusters[varies] - 1
        se = np.sqrt(variance[varies])
        p[varies] = 2 * stats.t.sf(np.abs(mean[varies] / se), df)
        half = stats.t.ppf(0.5 + confidence / 2, df) * se
        low[varies], high[varies] = mean[varies] - half, mean[varies] + half
    return 100 * mean, 100 * low, 100 * high, p


def detectable_gap(games: int, fair: float, power: float = 0.5, confidence: float = 0.95) -> float:
    """Smallest gap from ``fair`` (percentage points) that ``games`` detect with probability
    ``power`` at the given confidence (normal approximation: z_conf + z_power standard errors)."""
    if games <= 0:
        return float("nan")
    z = stats.norm.ppf(1 - (1 - confidence) / 2) + stats.norm.ppf(power)
    return float(100 * z * np.sqrt(fair * (1 - fair) / games))


def games_needed(n_players: int, precision_pp: float, rate: float | None = None, confidence: float = 0.95) -> int:
    """Games for a 95 % interval of +-``precision_pp`` percentage points on one seat's win rate
    (statsmodels' sample size for a proportion's confidence interval; ``rate`` defaults to the fair
    share 1/n, the value seat win rates sit near)."""
    if not 2 <= n_players <= 16:
        raise ValueError(f"players must be 2..16, not {n_players}")
    if not 0 < precision_pp < 50:
        raise ValueError(f"precision must be between 0 and 50 percentage points, not {precision_pp}")
    p = 1.0 / n_players if rate is None else rate
    if not 0 < p < 1:
        raise ValueError(f"rate must be between 0 and 1, not {rate}")
    return int(np.ceil(samplesize_confint_proportion(p, precision_pp / 100, alpha=1 - confidence)))


def q_text(q: float) -> str:
    """``q = 0.032``, or ``q < 1e-16`` where the value is too small to print (never ``q = 0``)."""
    text = fmt_p(q)
    return f"q {text}" if text.startswith("<") else f"q = {text}"


def seat_equivalence(seats: pd.DataFrame, tolerance: Tolerance | None = None) -> pd.DataFrame:
    """Per (n_players, population, start) of a ``seat_table``: whether every seat is within the
    tolerance of its fair share, by two one-sided tests over all seats at once
    (``sim.stats.equivalence``, clustered standard errors). Columns: outcome (held / off / cannot
    tell), worst_seat (the seat furthest off; where the outcome is off, the one whose interval lies
    furthest beyond the tolerance), worst_gap_pp with worst_low_pp/worst_high_pp (its simultaneous
    interval: the off test's where the gap lies beyond the tolerance, else the held test's), tolerance_pp,
    games_to_tell (NaN where the outcome is decided)."""
    tolerance = tolerance or Tolerance()
    out = []
    for key, part in seats.groupby(list(GROUP), sort=True):
        part = part.sort_values("seat")
        n = int(part["n_players"].iloc[0])
        verdict = equivalence(part["win_rate"] - part["fair"], part["win_se"], tolerance.seat_pp / 100,
                              float(part["games"].min()), tolerance.alpha, k=seat_tests(n))
        w = verdict.decisive  # the seat named must be the one the verdict rests on
        low, high = verdict.bounds
        out.append(dict(zip(GROUP, key, strict=True), outcome=verdict.outcome, games=float(part["games"].min()),
                        worst_seat=int(part["seat"].iloc[w]),
                        worst_gap_pp=100 * verdict.estimate[w], worst_low_pp=100 * low[w],
                        worst_high_pp=100 * high[w], tolerance_pp=tolerance.seat_pp,
                        games_to_tell=verdict.games_to_tell if verdict.outcome == CANNOT_TELL else np.nan))
    return pd.DataFrame(out, columns=[*GROUP, "outcome", "games", "worst_seat", "worst_gap_pp", "worst_low_pp",
                                      "worst_high_pp", "tolerance_pp", "games_to_tell"])


ONE_SIDED = 0.9  # a table one strategy wins this share of says nothing about its seats


def one_sided_tables(rows, threshold: float = ONE_SIDED) -> pd.DataFrame:
    """Per (n_players, population) of more than one strategy: the strategy that wins most, its share of
    the games' wins and the games; ``one_sided`` where that share is at least ``threshold``. In such a
    table the strong strategy wins from every seat as it rotates through them, so each seat wins about
    its share whatever the seats do: seat rates, verdicts and start vectors there say nothing about
    the seats."""
    rows = lazy(rows)
    win = win_column(column_names(rows))
    keys = ["n_players", "population"]
    per = collect(rows.group_by([*keys, "strategy"]).agg(win.sum().alias("wins"), pl.len().alias("seat_games")))
    out = []
    for key, part in per.to_pandas().groupby(keys, sort=True):
        if len(part) < 2:
            continue
        games = part["seat_games"].sum() / int(key[0])
        best = part.loc[part["wins"].idxmax()]
        share = float(best["wins"] / games) if games else float("nan")
        out.append(dict(zip(keys, key, strict=True), strategy=best["strategy"], share=share, games=int(games),
                        one_sided=bool(share >= threshold)))
    return pd.DataFrame(out, columns=[*keys, "strategy", "share", "games", "one_sided"])


def imbalance_table(rows) -> pd.DataFrame:
    """Per (n_players, population, start): seat imbalance, the seats' mean squared gap to the fair
    share less its sampling noise (``sim.stats.imbalance``; unbiased, about 0 for a perfectly fair
    table), in pp², with its 95 % interval, the noise floor (what the plain mean squared gap reads at
    perfect balance), ``rms_high_pp`` (the largest root-mean-square seat gap the interval allows) and
    ``at_target`` (the interval reaches 0: these games cannot tell the table from perfect balance).
    Covariances of the seats' rates are clustered by deal."""
    frame = _labelled(rows)
    found = seat_covariances(frame, list(GROUP), win_column(column_names(frame)))
    out = []
    for key, seats in found.items():
        value = seat_imbalance(seats.rates, seats.covariance)
        out.append(dict(zip(GROUP, key, strict=True), games=seats.games, deals=seats.deals,
                        imbalance_pp2=1e4 * value.value, imbalance_low_pp2=1e4 * value.low,
                        imbalance_high_pp2=1e4 * value.high, noise_pp2=1e4 * value.noise,
                        rms_high_pp=100 * value.rms_high, at_target=value.at_target))
    return pd.DataFrame(out, columns=[*GROUP, "games", "deals", "imbalance_pp2", "imbalance_low_pp2",
                                      "imbalance_high_pp2", "noise_pp2", "rms_high_pp", "at_target"])


def verdicts(seats: pd.DataFrame, alpha: float = 0.05, tolerance: Tolerance | None = None) -> pd.DataFrame:
    """One plain sentence per (n_players, population, start): which seat is favoured, by how much,
    or that the games cannot tell (with the gap they could have detected); and whether every seat is
    within the tolerance of its fair share (``seat_equivalence``)."""
    within = seat_equivalence(seats, tolerance).set_index(list(GROUP))
    out = []
    for key, part in seats.groupby(list(GROUP), sort=True):
        out.append(dict(zip(GROUP, key, strict=True), verdict=_sentence(part, alpha),
                        tolerance=tolerance_sentence(within.loc[key])))
    return pd.DataFrame(out, columns=[*GROUP, "verdict", "tolerance"])


def tolerance_sentence(row) -> str:
    """One table's ``seat_equivalence`` row in words."""
    tol = f"±{row['tolerance_pp']:g} pp"
    worst = (f"seat {int(row['worst_seat']) + 1} {row['worst_gap_pp']:+.1f} pp "
             f"[{row['worst_low_pp']:+.1f}, {row['worst_high_pp']:+.1f}]")
    if row["outcome"] == HELD:
        return f"held within {tol}: every seat's simultaneous interval lies inside it (furthest {worst})"
    if row["outcome"] == OFF:
        return f"off by more than {tol}: {worst} lies wholly outside it"
    need = "; " + to_tell(row["games_to_tell"], row.get("games"))
    return f"cannot tell with these games whether every seat is within {tol} (furthest {worst}{need})"


def _sentence(part: pd.DataFrame, alpha: float) -> str:
    fair = 100 * float(part["fair"].iloc[0])
    flagged = part[part["favoured"] != 0]
    if flagged.empty:
        games = int(part["games"].min())
        return (f"no seat differs detectably from the fair {fair:.1f} % in {games:,} games "
                f"(q >= {alpha:g} for every seat; gaps below about {part['detectable_pp'].max():.1f} pp "
                f"cannot be told apart from chance with these games)")
    parts = []
    for row in flagged.sort_values("gap_pp", ascending=False).itertuples():
        word = "favoured" if row.favoured > 0 else "disfavoured"
        parts.append(f"seat {row.seat + 1} {word}: {100 * row.win_rate:.1f} % "
                     f"[{100 * row.win_rate_low:.1f}, {100 * row.win_rate_high:.1f}] against the fair {fair:.1f} % "
                     f"({row.gap_pp:+.1f} pp, {q_text(row.q)})")
    return "; ".join(parts)

