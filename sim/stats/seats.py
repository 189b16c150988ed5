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
from bgsim.sim.stats.intervals import fmt_p, t_bounds
from bgsim.sim.stats.lazy import collect, column_names, lazy
from bgsim.sim.stats.wins import effective_games, share_interval, win_column
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import samplesize_confint_proportion

__all__ = ["GROUP", "category_table", "detectable_gap", "games_needed", "paired_change", "q_text", "seat_table",
           "start_effect", "verdicts"]

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
    Columns: games, wins, win_rate with win_rate_low/high (Wilson), fair (1/n), gap_pp (win rate -
    fair, percentage points), p (exact binomial test against fair), q (Benjamini–Hochberg over all
    rows), favoured (+1 / -1 / 0), detectable_pp (the gap these games detect half the time, see
    ``detectable_gap``), mean_score (of ``score``), mean_rank, each mean with _low/_high (t), and with a
    ``start_column`` the seat's mean value of it, ``start_value``.
    """
    start = [pl.col(start_column).mean().alias("start_value")] if start_column else []
    frame = _labelled(rows)
    win = win_column(column_names(frame))
    agg = collect(frame.group_by([*GROUP, "seat"])
                  .agg(pl.len().alias("games"), win.sum().alias("wins"), (win * win).sum().alias("win_squares"),
                       pl.col(score).mean().alias("mean_score"), pl.col(score).std().alias("sd_score"),
                       pl.col("rank").mean().alias("mean_rank"), pl.col("rank").std().alias("sd_rank"), *start)
                  .sort([*GROUP, "seat"])).to_pandas()
    games, wins, squares = agg["games"].to_numpy(), agg["wins"].to_numpy(), agg["win_squares"].to_numpy()
    agg["win_rate"] = wins / games
    agg["win_rate_low"], agg["win_rate_high"] = share_interval(wins, squares, games, confidence)
    agg["fair"] = 1.0 / agg["n_players"].astype(float)
    agg["gap_pp"] = 100 * (agg["win_rate"] - agg["fair"])
    agg["p"] = _binomial_p(wins, squares, games, agg["fair"].to_numpy())
    agg["q"] = multipletests(agg["p"], method="fdr_bh")[1] if len(agg) else []
    agg["favoured"] = np.where(agg["q"] < alpha, np.sign(agg["gap_pp"]), 0).astype(int)
    agg["detectable_pp"] = [detectable_gap(int(n), float(f)) for n, f in zip(games, agg["fair"], strict=True)]
    for name in ("score", "rank"):
        agg[f"mean_{name}_low"], agg[f"mean_{name}_high"] = t_bounds(agg[f"mean_{name}"], agg[f"sd_{name}"],
                                                                     games, confidence)
    return agg.drop(columns=["sd_score", "sd_rank", "win_squares"])


def _binomial_p(wins: np.ndarray, squares: np.ndarray, games: np.ndarray, fair: np.ndarray) -> list[float]:
    """Exact binomial p-values against ``fair`` (K,), on the effective games where wins are shares
    (the plain test for 0/1 outcomes)."""
    n = effective_games(wins, squares, games)
    k = np.where(games > 0, wins / np.maximum(games, 1), 0.0) * n
    return [stats.binomtest(int(round(x)), max(int(round(m)), int(round(x)), 1), float(f)).pvalue
            for x, m, f in zip(k, n, fair, strict=True)]


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
    same seating. Columns: n_players, population, start, seat, pairs, diff_pp (win-rate change in
    percentage points) with diff_low/diff_high (paired t) and p (paired t test); NaN where a pair
    never differs.
    """
    frame = _labelled(rows)
    keys = ["n_players", "population", "start", "seat"]
    win = win_column(column_names(frame))
    base = frame.filter(pl.col("start") == baseline).select(
        "n_players", "population", "game_index", "seat", win.alias("won_base"))
    other = frame.filter(pl.col("start") != baseline).select(
        "n_players", "population", "start", "game_index", "seat", win.alias("won"))
    diff = pl.col("won") - pl.col("won_base")
    # a paired difference lies in -1..1 (shares of a shared win between): count, sum and sum of
    # squares give the paired t test
    sums = collect(other.join(base, on=["n_players", "population", "game_index", "seat"], how="inner")
                   .group_by(keys).agg(pl.len().alias("pairs"), diff.sum().alias("sum"),
                                       (diff * diff).sum().alias("squares"))).to_pandas()
    columns = [*keys, "baseline", "pairs", "diff_pp", "diff_low", "diff_high", "p"]
    if sums.empty:
        return pd.DataFrame(columns=columns)
    sums["baseline"] = baseline
    sums["diff_pp"], sums["diff_low"], sums["diff_high"], sums["p"] = _paired_t(
        sums["pairs"].to_numpy(), sums["sum"].to_numpy(), sums["squares"].to_numpy(), confidence)
    return sums[columns].sort_values(keys, ignore_index=True)


def paired_change(baseline, variant, score: str, confidence: float = 0.95) -> pd.DataFrame:
    """How a changed rule or component moves each seat, game by game against the baseline on the same deals.

    ``baseline`` and ``variant``: rows of two studies played with the same seed, so game ``i`` of a
    (n_players, population, start) is the same deal and seating in both (up to what the change itself
    deals differently). Columns: n_players, population, start, seat, pairs, win_pp with win_low/win_high
    and win_p (the paired change of the seat's win, shares counted, in percentage points: paired t), and
    score_diff with score_low/score_high and score_p (the paired change of ``score``)."""
    keys = ["n_players", "population", "start", "seat"]
    frames = []
    for rows, suffix in ((baseline, "_base"), (variant, "")):
        frame = _labelled(rows)
        win = win_column(column_names(frame))
        frames.append(frame.select(*keys, "game_index", win.alias(f"win{suffix}"),
                                   pl.col(score).cast(pl.Float64).alias(f"score{suffix}")))
    pairs = frames[1].join(frames[0], on=[*keys, "game_index"], how="inner")
    sums = collect(pairs.group_by(keys).agg(
        pl.len().alias("pairs"),
        *(expr for name in ("win", "score") for expr in (
            (pl.col(name) - pl.col(f"{name}_base")).sum().alias(f"{name}_sum"),
            ((pl.col(name) - pl.col(f"{name}_base")) ** 2).sum().alias(f"{name}_squares"))))
        .sort(keys)).to_pandas()
    columns = [*keys, "pairs", "win_pp", "win_low", "win_high", "win_p", "score_diff", "score_low", "score_high",
               "score_p"]
    if sums.empty:
        return pd.DataFrame(columns=columns)
    for name, out in (("win", "win_pp"), ("score", "score_diff")):
        mean, low, high, p = _paired_t(sums["pairs"].to_numpy(), sums[f"{name}_sum"].to_numpy(),
                                       sums[f"{name}_squares"].to_numpy(), confidence)
        scale = 1 if name == "win" else 0.01  # _paired_t answers in percentage points
        sums[out], sums[f"{name}_low"], sums[f"{name}_high"], sums[f"{name}_p"] = (
            mean * scale, low * scale, high * scale, p)
    return sums[columns]


def _paired_t(n: np.ndarray, total: np.ndarray, squares: np.ndarray, confidence: float) -> tuple[np.ndarray, ...]:
    """Mean paired difference in pp with its paired t interval and p, from (K,) int64 counts, sums
    and sums of squares of the differences; where the differences never vary (or n < 2) the interval
    is the point and p is NaN."""
    n, total, squares = (np.asarray(v, dtype=np.float64) for v in (n, total, squares))
    mean = total / n
    spread = squares - total * mean  # sum of squared deviations
    varies = (n > 1) & (spread > 0)
    low, high, p = mean.copy(), mean.copy(), np.full(mean.shape, np.nan)
    if varies.any():
        df = n[varies] - 1
        se = np.sqrt(spread[varies] / df / n[varies])
        t = mean[varies] / se
        p[varies] = 2 * stats.t.sf(np.abs(t), df)
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


def verdicts(seats: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """One plain sentence per (n_players, population, start): which seat is favoured, by how much,
    or that the games cannot tell (with the gap they could have detected)."""
    out = []
    for key, part in seats.groupby(list(GROUP), sort=True):
        out.append(dict(zip(GROUP, key, strict=True), verdict=_sentence(part, alpha)))
    return pd.DataFrame(out, columns=[*GROUP, "verdict"])


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

