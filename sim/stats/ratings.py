"""Tournament statistics: standings, the pairwise win matrix and Bradley–Terry ratings.

Pure functions over result rows (a LazyFrame over the chunks, or a polars or pandas frame in;
pandas out); they import no engine code, so a report can be rebuilt anywhere from stored Parquet
files. Every table is a lazy aggregation, so memory follows the size of the table, not the number
of games: the pairs of seats of a game (``comparisons``) are counted part by part (``pair_counts``:
a list of parts, each holding whole games, e.g. a few chunks of a run), and the bootstrap draws its
resamples a batch of replicates at a time.

Input rows are the runner's columns, one row per (game, seat): ``run_id``, ``n_players``,
``game_index``, ``deal``, ``strategy``, ``rank``, ``won``, ``tie``, ``final_score``. A game is
(``run_id``, ``game_index``); a deal is (``n_players``, ``deal``) and is shared by every run with
the same seed, which is what the bootstrap resamples.

Conventions, stated once:

- A win is rank 1 as the game's rules decide it. A game whose tie-break settles every equal score
  has no shared places and no half wins; ``tie`` only marks a seat whose score equalled another
  seat's, and ``tie_break_wins`` counts the wins that the tie-break decided. Where the rules share
  a tied win, standings count each winner's share (a ``win_share`` column, ``sim.stats.wins``).
- "A ahead of B" compares the ranks of two seats of one game. Equal ranks (only possible in a
  game whose rules allow shared places) count as ``level`` and are left out of the shares, the
  tests and the ratings (the sign-test convention).
- Standings' Wilson and t intervals are clustered by deal (``sim.stats.clustered``); the pairwise
  shares' intervals and binomial tests count their effective comparisons, clustered by deal too, and
  the rating intervals come from a bootstrap over deals.
"""

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.stats.clustered import clustered_means, clustered_moments, clustered_rates, effective_trials
from bgsim.sim.stats.intervals import wilson
from bgsim.sim.stats.lazy import collect, lazy
from bgsim.sim.stats.wins import win_column
from scipy import optimize, sparse, special, stats
from scipy.sparse.csgraph import connected_components

__all__ = ["ELO", "PairCounts", "Ratings", "TournamentSummary", "bootstrap_bradley_terry", "bradley_terry_ratings",
           "comparisons", "deal_win_counts", "fit_bradley_terry", "neighbours", "pair_counts", "pairwise",
           "resample_deals", "standings", "t_interval", "wilson_interval"]

ELO = 400 / math.log(10)  # Elo points per unit of natural-log strength: P(A beats B) = 1 / (1 + 10^(-d/400))


# --- intervals


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion (scipy); NaNs for zero trials."""
    if trials == 0:
        return math.nan, math.nan
    ci = stats.binomtest(int(successes), int(trials)).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def t_interval(mean: float, sd: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Student t interval of a mean from its sample sd; a point when there is no spread to measure."""
    if n < 2 or not sd > 0:
        return float(mean), float(mean)
    low, high = stats.t.interval(confidence, n - 1, loc=mean, scale=sd / math.sqrt(n))
    return float(low), float(high)


def _parts(results) -> list[pl.LazyFrame]:
    """``results`` as a list of LazyFrames: a list or tuple of parts, or one part (any form ``lazy`` takes)."""
    return [lazy(part) for part in results] if isinstance(results, list | tuple) else [lazy(results)]


def _rows(results) -> pl.LazyFrame:
    """``results`` (rows, or a list of parts) as one LazyFrame."""
    parts = _parts(results)
    return parts[0] if len(parts) == 1 else pl.concat(parts)


def _order(present: Iterable[str], order: Sequence[str] | None) -> list[str]:
    """The strategies ``present``: those of ``order`` in its order, then the others sorted."""
    present = set(present)
    if order is None:
        return sorted(present)
    return [s for s in order if s in present] + sorted(present - set(order))


# --- per strategy


def standings(results, order: Sequence[str] | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """One row per (player count, strategy): games, wins, win rate with a Wilson interval, wins
    decided by the tie-break, mean final score and mean rank with t intervals; every interval
    clustered by deal (``sim.stats.clustered``: a deal's games in every matchup and seating move
    together).

    Pooled over every game a strategy played, so in a ladder a rate also reflects whom it met.
    """
    frame = _rows(results)
    win = win_column(frame.collect_schema().names())
    keys = ["n_players", "strategy"]
    moments = clustered_moments(frame, keys, {
        "win": win, "score": pl.col("final_score").cast(pl.Float64), "rank": pl.col("rank").cast(pl.Float64),
        "tie_break": (pl.col("won") & pl.col("tie")).cast(pl.Float64)})
    columns = ["n_players", "strategy", "games", "wins", "win_rate", "win_low", "win_high", "tie_break_wins",
               "mean_score", "score_low", "score_high", "mean_rank", "rank_low", "rank_high"]
    if moments.is_empty():
        return pd.DataFrame(columns=columns)
    table = moments.select(keys).to_pandas()
    table["n_players"] = table["n_players"].astype(int)
    table["games"] = moments["win|n"].to_numpy().astype(np.int64)
    wins = moments["win|sum"].to_numpy()
    whole = np.allclose(wins, np.round(wins))
    table["wins"] = np.round(wins).astype(np.int64) if whole else wins  # shares of shared wins
    table["win_rate"], table["win_low"], table["win_high"], _ = clustered_rates(moments, "win", confidence)
    table["tie_break_wins"] = moments["tie_break|sum"].to_numpy().round().astype(np.int64)
    table["mean_score"], table["score_low"], table["score_high"] = clustered_means(moments, "score", confidence)
    table["mean_rank"], table["rank_low"], table["rank_high"] = clustered_means(moments, "rank", confidence)
    rank_of = {s: i for i, s in enumerate(_order(table["strategy"], order))}
    table = table[columns]
    table["_order"] = table["strategy"].map(rank_of)
    return table.sort_values(["n_players", "_order"]).drop(columns="_order").reset_index(drop=True)


# --- pairs of seats


def comparisons(results):
    """Every ordered pair of seats of one game held by different strategies: columns
    ``n_players, run_id, deal, game_index, a, b, ahead, level`` (``ahead``: a's rank is better).
    A LazyFrame for a LazyFrame, else a DataFrame; it has n - 1 rows per row of an n-player game, so
    for many games count them with ``pair_counts`` instead."""
    frame = pl.from_pandas(results) if isinstance(results, pd.DataFrame) else results
    frame = frame.select("run_id", "n_players", "deal", "game_index", "seat", "strategy", "rank")
    other = frame.select("run_id", "game_index", pl.col("seat").alias("seat_b"), pl.col("strategy").alias("b"),
                         pl.col("rank").alias("rank_b"))
    return (
        frame.rename({"strategy": "a"})
        .join(other, on=["run_id", "game_index"])
        .filter((pl.col("seat") != pl.col("seat_b")) & (pl.col("a") != pl.col("b")))
        .select("n_players", "run_id", "deal", "game_index", "a", "b",
                (pl.col("rank") < pl.col("rank_b")).alias("ahead"), (pl.col("rank") == pl.col("rank_b")).alias("level"))
    )


@dataclass(frozen=True)
class PairCounts:
    """Who finished ahead of whom (``comparisons``), counted (``pair_counts``).

    ``deals``: one row per (n_players, run_id, deal, a, b) with run_id, a and b categorical and the
    counts ``games`` (the games of that run and deal in which both sat), ``ahead`` and ``level``:
    what the bootstrap over deals resamples. ``totals``: the same summed per (n_players, a, b), a and
    b strings, counts Int64. ``players``: (n_players, strategy) of every strategy that played.
    """

    deals: pl.DataFrame
    totals: pl.DataFrame
    players: pl.DataFrame


def pair_counts(results) -> PairCounts:
    """``comparisons`` of ``results``, counted per run, deal and ordered pair of strategies.

    ``results``: rows (a LazyFrame, or a polars or pandas frame), or a list of parts that each hold
    whole games (a few chunks of one run, say): the join that pairs the seats of a game is done one
    part at a time, so it never holds more than a part's rows.
    """
    keys = ["n_players", "run_id", "deal", "a", "b"]
    deals, players = [], []
    for part in _parts(results):
        counted = (comparisons(part).group_by(keys)
                   .agg(pl.len().alias("games"), pl.col("ahead").sum(), pl.col("level").sum())
                   .with_columns(pl.col("run_id", "a", "b").cast(pl.Categorical)))
        present = part.select("n_players", "strategy").unique()
        counted, present = pl.collect_all([counted, present], engine="streaming")
        deals.append(counted)
        players.append(present)
    deal_table = _merge_parts(deals, keys)
    totals = collect(deal_table.lazy().group_by("n_players", "a", "b")
                     .agg(pl.col("games", "ahead", "level").cast(pl.Int64).sum())
                     .with_columns(pl.col("a", "b").cast(pl.String)))
    return PairCounts(deal_table, totals, pl.concat(players).unique())


def _merge_parts(tables: list[pl.DataFrame], keys: list[str]) -> pl.DataFrame:
    """The counts of every part as one table, one row per ``keys``. Parts of consecutive games of a
    run share at most the deal at their border (a deal's seatings split over two chunks): only those
    rows are added up, since a group_by over every deal would take several times the table's memory.
    Parts whose deals interleave otherwise are added up whole."""
    table = pl.concat(tables, rechunk=False)
    counts = [pl.col(c).sum().cast(table.schema[c]) for c in ("games", "ahead", "level")]
    run = ["n_players", "run_id"]
    spans = (pl.concat([t.group_by(run).agg(pl.col("deal").min().alias("low"), pl.col("deal").max().alias("high"))
                        for t in tables])
             .sort(*run, "low").with_columns(pl.col("high").cum_max().shift(1).over(run).alias("before")))
    if (spans["low"] < spans["before"]).any():  # interleaved parts
        return collect(table.lazy().group_by(keys).agg(counts))
    border = spans.filter(pl.col("low") == pl.col("before")).select(*run, pl.col("low").alias("deal")).unique()
    if border.is_empty():
        return table
    shared = table.join(border, on=[*run, "deal"], how="semi").group_by(keys).agg(counts)
    return pl.concat([table.join(border, on=[*run, "deal"], how="anti"), shared.select(table.columns)])


def _pair_counts(results) -> PairCounts:
    return results if isinstance(results, PairCounts) else pair_counts(results)


def _effective_comparisons(pairs: PairCounts) -> dict[tuple, float]:
    """Per (n_players, a, b): the decided comparisons' effective number, their variance clustered by
    deal (a deal's games in every run with its seed and every seating are one cluster): what the
    Wilson interval and the binomial test of a share count."""
    per_deal = (pairs.deals.lazy().with_columns(pl.col("a", "b").cast(pl.String))
                .group_by("n_players", "deal", "a", "b")
                .agg((pl.col("games") - pl.col("level")).cast(pl.Float64).sum().alias("n"),
                     pl.col("ahead").cast(pl.Float64).sum().alias("s"))
                .filter(pl.col("n") > 0)
                .group_by("n_players", "a", "b")
                .agg(pl.col("n").sum().alias("ahead|n"), pl.col("s").sum().alias("ahead|sum"),
                     (pl.col("s") ** 2).sum().alias("ahead|s2"), (pl.col("s") * pl.col("n")).sum().alias("ahead|sn"),
                     (pl.col("n") ** 2).sum().alias("ahead|n2"), pl.len().cast(pl.Float64).alias("ahead|clusters"),
                     pl.col("s").sum().alias("ahead|squares")))
    table = collect(per_deal)
    if table.is_empty():
        return {}
    n_eff = effective_trials(table, "ahead")
    return {(int(n), a, b): float(e) for n, a, b, e in zip(table["n_players"], table["a"], table["b"], n_eff,
                                                           strict=True)}


def pairwise(results, order: Sequence[str] | None = None, confidence: float = 0.95,
             alpha: float = 0.05) -> pd.DataFrame:
    """The win matrix in long form: per player count and ordered pair (a, b), the games in which
    both sat, how often a finished ahead, behind or level, the share ``ahead / (ahead + behind)``
    with a Wilson interval, the two-sided exact binomial p-value against 50 %, the
    Benjamini–Hochberg q-value over the distinct pairs of that player count, and ``significant``
    (p < alpha). The interval and the test count the effective comparisons, clustered by deal (the
    seatings of one deal, and its games in every run with its seed, move together). In 2-player
    games the share is the head-to-head win rate. ``results``: rows, a
    list of parts (see ``pair_counts``) or their ``pair_counts``."""
    pairs = _pair_counts(results)
    counts = (pairs.totals.with_columns((pl.col("games") - pl.col("ahead") - pl.col("level")).alias("behind"))
              .to_pandas())
    effective = _effective_comparisons(pairs)
    rank_of = {s: i for i, s in enumerate(_order(pairs.players["strategy"], order))}
    rows = []
    for c in counts.itertuples():
        decisive = int(c.ahead + c.behind)
        share = c.ahead / decisive if decisive else math.nan
        n_eff = effective.get((int(c.n_players), c.a, c.b), decisive)
        low, high = (wilson(np.array([share * n_eff]), np.array([n_eff]), confidence) if decisive
                     else (np.array([math.nan]), np.array([math.nan])))
        k = int(round(share * n_eff)) if decisive else 0
        p = stats.binomtest(k, max(int(round(n_eff)), k, 1), 0.5).pvalue if decisive else math.nan
        rows.append({"n_players": int(c.n_players), "a": c.a, "b": c.b, "games": int(c.games),
                     "ahead": int(c.ahead), "behind": int(c.behind), "level": int(c.level),
                     "share": share, "low": float(low[0]), "high": float(high[0]), "p_value": float(p)})
    columns = ["n_players", "a", "b", "games", "ahead", "behind", "level", "share", "low", "high", "p_value"]
    table = pd.DataFrame(rows, columns=columns)
    table["q_value"] = np.nan
    a_rank, b_rank = table["a"].map(rank_of), table["b"].map(rank_of)
    for n in table["n_players"].unique():  # p of (a, b) equals p of (b, a): correct once per distinct pair
        mask = table["n_players"] == n
        once = table.loc[mask & (a_rank < b_rank), ["a", "b", "p_value"]].dropna()
        if len(once):
            q = dict(zip(map(frozenset, zip(once["a"], once["b"], strict=True)),
                         stats.false_discovery_control(once["p_value"].to_numpy()), strict=True))
            table.loc[mask, "q_value"] = [q.get(frozenset(pair), np.nan)
                                          for pair in zip(table.loc[mask, "a"], table.loc[mask, "b"], strict=True)]
    table["significant"] = table["p_value"] < alpha
    table["_a"], table["_b"] = a_rank, b_rank
    return table.sort_values(["n_players", "_a", "_b"]).drop(columns=["_a", "_b"]).reset_index(drop=True)


# --- Bradley–Terry


def _free_objective(wins: np.ndarray, anchor: int):
    """Negative log-likelihood per comparison, with gradient and Hessian, over the strengths other
    than ``anchor`` (per comparison, so one tolerance fits ten games and ten million)."""
    k = wins.shape[0]
    wins = wins / wins.sum()
    totals = wins + wins.T  # (K, K) comparisons per pair
    keep = np.arange(k) != anchor

    def full(x: np.ndarray) -> np.ndarray:
        theta = np.zeros(k)
        theta[keep] = x
        return theta

    def parts(x: np.ndarray):
        theta = full(x)
        diff = theta[:, None] - theta[None, :]  # (K, K)
        p = special.expit(diff)  # P(i ahead of j)
        nll = -np.sum(wins * special.log_expit(diff))
        grad = -(wins.sum(axis=1) - (totals * p).sum(axis=1))
        w = totals * p * (1 - p)
        hess = np.diag(w.sum(axis=1)) - w
        return nll, grad[keep], hess[np.ix_(keep, keep)]

    return parts, full


def fit_bradley_terry(wins: np.ndarray, prior: float = 1.0, anchor: int | None = 0,
                      compared: np.ndarray | None = None, start: np.ndarray | None = None) -> np.ndarray:
    """Maximum-likelihood Bradley–Terry strengths (natural log; ``* ELO`` for Elo points).

    ``wins``: (K, K) float64, ``wins[i, j]`` = comparisons in which i finished ahead of j.
    ``prior``: pseudo-games added to every compared pair, split half and half. It keeps the
    estimate finite when a strategy never loses (without it the likelihood grows without bound
    as its strength goes to infinity); with n real games per pair it moves a share by at most
    ``prior / (2 (n + prior))``. ``compared``: (K, K) bool, the pairs that get the prior
    (default: the pairs with games). ``anchor``: the strength fixed at 0, or None for mean 0.
    ``start``: (K,) float64 starting strengths. Returns (K,) float64.
    """
    wins = np.asarray(wins, dtype=np.float64)
    k = wins.shape[0]
    if wins.shape != (k, k) or np.any(wins < 0):
        raise ValueError("wins must be a square matrix of non-negative counts")
    if k == 1:
        return np.zeros(1)
    if compared is None:
        compared = (wins + wins.T) > 0
    n_parts, _ = connected_components(sparse.csr_matrix(compared | compared.T), directed=False)
    if n_parts > 1:
        raise ValueError("the comparisons do not connect every strategy, so their strengths are not comparable")
    padded = wins + (prior / 2) * (compared | compared.T)
    if padded.sum() == 0:  # nothing decided and no prior: every strength fits equally well
        return np.zeros(k)
    fixed = 0 if anchor is None else anchor
    parts, full = _free_objective(padded, fixed)
    x0 = np.zeros(k - 1) if start is None else np.delete(np.asarray(start, dtype=np.float64) - start[fixed], fixed)
    result = optimize.minimize(lambda x: parts(x)[:2], x0, jac=True, hess=lambda x: parts(x)[2],
                               method="trust-exact", options={"gtol": 1e-10})
    if not result.success and np.max(np.abs(parts(result.x)[1])) > 1e-8:
        raise ValueError(f"the Bradley–Terry fit did not converge: {result.message}")
    theta = full(result.x)
    return theta - theta.mean() if anchor is None else theta


def deal_win_counts(pairs, strategies: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per deal, who finished ahead of whom, and which runs played that deal.

    ``pairs``: ``comparisons()`` of one player count (``ahead`` boolean), or the ``deals`` of its
    ``pair_counts`` (``ahead`` counts). Returns ``wins`` (D, K, K) float64 (deal d:
    ``wins[d, i, j]`` comparisons i ahead of j) and ``strata`` (D,) int64, equal for deals played
    by the same set of runs (a capped pairing plays only the first deals), numbered in the order of
    their runs' ids joined by "|".
    """
    frame = lazy(pairs)
    deals, strata = _deal_strata(frame)
    k = len(strategies)
    index = {s: i for i, s in enumerate(strategies)}
    code = lambda column: pl.col(column).replace_strict(index, return_dtype=pl.Int64)  # noqa: E731
    decided = collect(frame.filter(pl.col("ahead").cast(pl.Int64) > 0)
                      .select("deal", code("a"), code("b"), pl.col("ahead").cast(pl.Float64)))
    d = np.searchsorted(deals, decided["deal"].to_numpy())
    cell = (d * k + decided["a"].to_numpy()) * k + decided["b"].to_numpy()
    # whole numbers: the sums are exact, in whatever order the rows come
    wins = np.bincount(cell, weights=decided["ahead"].to_numpy(), minlength=len(deals) * k * k)
    return wins.reshape(len(deals), k, k), strata


_RUNS_AS_BITS = 127  # runs of one player count whose sets fit the bits of an Int128


def _deal_strata(frame: pl.LazyFrame) -> tuple[np.ndarray, np.ndarray]:
    """(deals (D,) int64 sorted, strata (D,) int64): a deal's stratum is the rank of the ids of the
    runs that played it, sorted and joined by "|", among those strings (np.unique's numbering). The
    strings are built once per set of runs; a deal holds its set as the bits of an Int128 (a string of
    run numbers beyond 127 runs)."""
    played = collect(frame.select("deal", "run_id").unique())
    names = sorted(played["run_id"].cast(pl.String).unique().to_list())
    if len(names) <= _RUNS_AS_BITS:
        bit = pl.col("run_id").replace_strict({name: 1 << i for i, name in enumerate(names)}, return_dtype=pl.Int128)
        sets = collect(played.lazy().group_by("deal").agg(bit.sum().alias("runs")).sort("deal"))
        decode = lambda key: [name for i, name in enumerate(names) if key >> i & 1]  # noqa: E731
    else:
        number = pl.col("run_id").replace_strict({name: i for i, name in enumerate(names)}, return_dtype=pl.Int64)
        sets = collect(played.lazy().group_by("deal").agg(number.sort().cast(pl.String).str.join(",").alias("runs"))
                       .sort("deal"))
        decode = lambda key: [names[int(i)] for i in key.split(",")]  # noqa: E731
    distinct = sets["runs"].unique().to_list()
    _, rank = np.unique(["|".join(decode(key)) for key in distinct], return_inverse=True)
    strata = sets["runs"].replace_strict(dict(zip(distinct, rank.tolist(), strict=True)), return_dtype=pl.Int64)
    return sets["deal"].to_numpy(), strata.to_numpy()


_DRAWS_AT_ONCE = 1 << 22  # deal draws per batch of replicates: 32 MB of int64 draws, however many deals


def _deal_draws(strata: np.ndarray, replicates: int, seed: int) -> Iterator[tuple[np.ndarray, int, np.ndarray]]:
    """The bootstrap's draws, stratum by stratum: (members (m,) int64 deal numbers of the stratum,
    first replicate r, draws (b, m) int64 positions in ``members`` for replicates r .. r + b - 1).

    One generator, the strata in increasing order, each stratum's (B, m) draws in batches of
    replicates: numpy fills an array in order and the next call goes on where the last one stopped,
    so the batches hold exactly the numbers of one (B, m) call per stratum.
    """
    rng = np.random.default_rng(seed)
    for stratum in np.unique(strata):
        members = np.flatnonzero(strata == stratum)
        step = max(1, _DRAWS_AT_ONCE // len(members))
        for first in range(0, replicates, step):
            yield members, first, rng.integers(0, len(members), size=(min(step, replicates - first), len(members)))


def _draw_counts(draws: np.ndarray) -> np.ndarray:
    """How often each position was drawn in each row of ``draws`` (b, m) int64: (b, m) int64."""
    b, m = draws.shape
    return np.bincount((np.arange(b)[:, None] * m + draws).reshape(-1), minlength=b * m).reshape(b, m)


def resample_deals(strata: np.ndarray, replicates: int, seed: int = 0) -> np.ndarray:
    """How often each deal is drawn in each bootstrap replicate: (B, D) int64.

    ``strata``: (D,) int64. Deals are drawn with replacement within their stratum, so each
    replicate has as many deals per stratum (per set of pairings) as the data. Deterministic in ``seed``.
    The whole matrix, for small D; ``bootstrap_bradley_terry`` takes the same draws a batch at a time.
    """
    weights = np.zeros((replicates, len(strata)), dtype=np.int64)
    for members, first, draws in _deal_draws(strata, replicates, seed):
        weights[first:first + len(draws), members] += _draw_counts(draws)
    return weights


def _resampled_wins(deal_wins: np.ndarray, strata: np.ndarray, replicates: int, seed: int) -> np.ndarray:
    """``resample_deals(strata, replicates, seed) @ deal_wins`` without the (B, D) matrix: (B, K, K)
    float64 win counts of each replicate from ``deal_wins`` (D, K, K) float64. Every term is a whole
    number far below 2**53, so the sums are exact in any order: the same numbers as the full product."""
    d, k, _ = deal_wins.shape
    flat = deal_wins.reshape(d, k * k)
    out = np.zeros((replicates, k * k))
    for members, first, draws in _deal_draws(strata, replicates, seed):
        contiguous = members[-1] - members[0] + 1 == len(members)  # a capped pairing's deals: a view, no copy
        rows = flat[members[0]:members[-1] + 1] if contiguous else flat[members]
        out[first:first + len(draws)] += _draw_counts(draws).astype(np.float64) @ rows
    return out.reshape(replicates, k, k)


def bootstrap_bradley_terry(deal_wins: np.ndarray, strata: np.ndarray, replicates: int = 1000, seed: int = 0,
                            prior: float = 1.0, anchor: int | None = 0) -> np.ndarray:
    """Bradley–Terry strengths of ``replicates`` resamples of the deals: (B, K) float64.

    ``deal_wins``: (D, K, K) float64 per-deal win counts; ``strata``: (D,) int64 (see
    ``resample_deals``). A deal is resampled whole: all its seatings, in every pairing that played
    it, because they share the deal's chance and are not independent games. Memory: (B, K, K) and a
    batch of draws, never (B, D).
    """
    total = deal_wins.sum(axis=0)
    compared = (total + total.T) > 0
    centre = fit_bradley_terry(total, prior, anchor, compared)
    resampled = _resampled_wins(deal_wins, strata, replicates, seed)
    return np.stack([fit_bradley_terry(w, prior, anchor, compared, start=centre) for w in resampled])


@dataclass(frozen=True)
class Ratings:
    """Bradley–Terry ratings of one player count in Elo points, with their bootstrap replicates."""

    n_players: int
    strategies: tuple[str, ...]
    elo: np.ndarray  # (K,) float64
    samples: np.ndarray  # (B, K) float64, one row per bootstrap replicate
    comparisons: np.ndarray  # (K,) int64 decided comparisons each strategy took part in
    confidence: float
    anchor: str | None  # the strategy rated 0, or None for mean 0

    def interval(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Percentile interval of bootstrap ``values`` ((B,) or (B, K) float64) along the replicates;
        NaN without replicates (the bootstrap was skipped)."""
        if len(values) == 0:
            missing = np.full(values.shape[1:], np.nan)
            return missing, missing.copy()
        tail = (1 - self.confidence) / 2
        return np.quantile(values, tail, axis=0), np.quantile(values, 1 - tail, axis=0)

    def difference(self, a: str, b: str) -> tuple[float, float, float]:
        """Rating of ``b`` minus rating of ``a`` with its bootstrap interval."""
        i, j = self.strategies.index(a), self.strategies.index(b)
        low, high = self.interval(self.samples[:, j] - self.samples[:, i])
        return float(self.elo[j] - self.elo[i]), float(low), float(high)

    def table(self) -> pd.DataFrame:
        """One row per strategy: rating, interval (relative to the anchor, whose interval is a point)
        and the number of decided comparisons it took part in."""
        low, high = self.interval(self.samples)
        return pd.DataFrame({"n_players": self.n_players, "strategy": list(self.strategies), "rating": self.elo,
                             "low": low, "high": high, "comparisons": self.comparisons})


def bradley_terry_ratings(results, order: Sequence[str] | None = None, anchor: str | None = "first",
                          confidence: float = 0.95, replicates: int = 1000, seed: int = 0,
                          prior: float = 1.0) -> list[Ratings]:
    """Ratings per player count from every pair of seats of every game (an n-player game gives
    n (n - 1) / 2 comparisons), with percentile intervals from a bootstrap over deals.

    ``anchor``: "first" (the first strategy of ``order`` rated 0), "mean" (mean 0) or a strategy.
    ``results``: rows, a list of parts (see ``pair_counts``) or their ``pair_counts``.
    """
    pairs = _pair_counts(results)
    out = []
    for n in sorted(pairs.players["n_players"].unique().to_list()):
        pairs_n = pairs.deals.filter(pl.col("n_players") == n)
        names = _order(pairs.players.filter(pl.col("n_players") == n)["strategy"], order)
        anchor_name = None if anchor == "mean" else names[0] if anchor == "first" else anchor
        if anchor_name is not None and anchor_name not in names:
            raise ValueError(f"anchor {anchor_name!r} did not play at {n} players")
        fixed = None if anchor_name is None else names.index(anchor_name)
        wins, strata = deal_win_counts(pairs_n, names)
        total = wins.sum(axis=0)
        theta = fit_bradley_terry(total, prior, fixed)
        samples = bootstrap_bradley_terry(wins, strata, replicates, seed, prior, fixed) if replicates else \
            np.empty((0, len(names)))  # no replicates: no intervals
        out.append(Ratings(int(n), tuple(names), theta * ELO, samples * ELO,
                           (total + total.T).sum(axis=1).astype(np.int64), confidence, anchor_name))
    return out


# --- neighbours in the list


def neighbours(pair_table: pd.DataFrame, ratings: Sequence[Ratings], order: Sequence[str],
               alpha: float = 0.05) -> pd.DataFrame:
    """Each strategy against the one after it in ``order`` (the rungs of a ladder): games, the
    share in which the later one finished ahead with its interval and p-value, whether that differs
    from 50 % at ``alpha``, and the rating difference (later minus earlier) with its interval."""
    rows = []
    for r in ratings:
        names = [s for s in order if s in r.strategies]
        for lower, upper in zip(names, names[1:], strict=False):
            match = pair_table[(pair_table["n_players"] == r.n_players) & (pair_table["a"] == upper)
                               & (pair_table["b"] == lower)]
            diff, diff_low, diff_high = r.difference(lower, upper)
            row = {"n_players": r.n_players, "lower": lower, "upper": upper, "games": 0, "share": math.nan,
                   "low": math.nan, "high": math.nan, "p_value": math.nan, "significant": False,
                   "rating_difference": diff, "difference_low": diff_low, "difference_high": diff_high}
            if len(match):
                m = match.iloc[0]
                row.update(games=int(m["games"]), share=float(m["share"]), low=float(m["low"]),
                           high=float(m["high"]), p_value=float(m["p_value"]),
                           significant=bool(m["p_value"] < alpha))
            rows.append(row)
    return pd.DataFrame(rows, columns=["n_players", "lower", "upper", "games", "share", "low", "high", "p_value",
                                       "significant", "rating_difference", "difference_low", "difference_high"])


@dataclass(frozen=True)
class TournamentSummary:
    """Everything a tournament report says, as data."""

    name: str
    tournament_id: str
    description: str
    directory: str
    spec: dict  # the resolved spec, as in tournament.toml
    strategies: list[str]  # as listed in the spec (the order of every table; the first is the anchor)
    strategy_ids: dict[str, str]  # listed id -> canonical id in the results
    standings: pd.DataFrame  # ratings.standings
    pairwise: pd.DataFrame  # ratings.pairwise
    ratings: pd.DataFrame  # Ratings.table() of every player count
    neighbours: pd.DataFrame  # ratings.neighbours
    pairings: pd.DataFrame  # n_players, strategies, games, run_id, seconds
    provenance: dict  # distinct versions, git, rules versions and data hashes of the runs
    settings: dict = field(default_factory=dict)  # confidence, bootstrap replicates and seed, prior, anchor
    score_unit: str = "points"  # what the game's final score counts (its profile's), for the texts
    shared_wins: str = ""  # the rule by which a tied win is shared (the profile's); "" where a tie-break decides

    def to_json(self) -> dict:
        """Every number, with NaN as null."""
        frames = {key: _records(getattr(self, key))
                  for key in ("standings", "pairwise", "ratings", "neighbours", "pairings")}
        return {"name": self.name, "tournament_id": self.tournament_id, "description": self.description,
                "directory": self.directory, "strategies": self.strategies, "strategy_ids": self.strategy_ids,
                "settings": self.settings, "score_unit": self.score_unit, "shared_wins": self.shared_wins,
                "spec": self.spec, **frames,
                "provenance": self.provenance}


def _records(frame: pd.DataFrame) -> list[dict]:
    out = []
    for row in frame.to_dict(orient="records"):
        out.append({k: (None if isinstance(v, float) and math.isnan(v) else v.item() if hasattr(v, "item") else v)
                    for k, v in row.items()})
    return out
