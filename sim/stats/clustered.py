"""Means whose games are not independent: variances clustered by deal.

A study plays one deal more than once wherever it compares like with like: a mixed table seats its
strategies in every order of one deal, a start vector or a changed rule replays the same deals. The
games of one deal share its luck, so a seat's (or a strategy's) outcomes in them move together, and
an interval that counts them as independent games is too narrow (a mixed table's seat rates covered
their truth in about 77 % of cases at a nominal 95 %). Every mean here gets the variance clustered by
deal instead: the sum over deals of the squared residual sums,

    V = g / (g - 1) * sum_d (S_d - n_d * mean)^2 / n^2

with g deals, S_d the deal's sum of the outcome and n_d its games (rows). Where every deal is one
game (self-play), this is the ordinary variance of a mean.

The sums are read in slices of whole deals (``deal_slices``), each slice aggregated per deal and
then per group, so that memory follows one slice, not the number of games. Sums over slices add up,
so the result is the same whatever the slicing. Where a group holds one row of each deal (a seat in
self-play), the deal's sums are the row's values and one pass over the rows gives them.

Inputs: result rows (any form ``sim.stats.lazy.lazy`` takes) with a ``deal`` column (a deal is
``(n_players, deal)``, ``cluster_keys``; without a deal column, each game is its own deal).
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import polars as pl
from bgsim.sim.stats.lazy import collect, column_names, lazy
from bgsim.sim.stats.wins import effective_games

__all__ = ["MOMENTS", "SeatCovariance", "cluster_keys", "clustered_means", "clustered_moments", "clustered_rates",
           "clustered_variance", "deal_slices", "effective_trials", "seat_covariances"]

MOMENTS = ("n", "sum", "squares", "s2", "sn", "n2", "clusters")
_SLICE_ROWS = 200_000  # rows per slice of whole deals: the most one pass of a clustered variance reads at once


def cluster_keys(rows) -> list[str]:
    """The columns that name a deal in ``rows``: ``n_players`` (where present) and ``deal``; without a
    deal column, the game (``run_id`` where present, ``game_index``). Runs with one seed deal the same
    deals, so a deal's games in several runs (a tournament's matchups) are one cluster; runs with
    other seeds that share a deal number are then clustered together too, which costs the variance a
    little precision, not its validity."""
    names = column_names(rows)
    players = ["n_players"] if "n_players" in names else []
    if "deal" in names:
        return players + ["deal"]
    return players + (["run_id"] if "run_id" in names else []) + ["game_index"]


def deal_slices(rows) -> list[pl.Expr]:
    """Filters that cut result rows into slices of whole deals, each of about ``_SLICE_ROWS`` rows or
    fewer (more only where one value holds more): ranges of the deal, else of the game index (a game
    lies in one). Two small queries read that column: its range and how many rows each of at most
    4096 buckets of it holds; a filter on a stored column lets the scan skip chunks outside the range."""
    frame = lazy(rows)
    column = "deal" if "deal" in column_names(frame) else "game_index"
    low, high, count = collect(frame.select(pl.col(column).min().alias("low"), pl.col(column).max().alias("high"),
                                            pl.len())).row(0)
    if count <= _SLICE_ROWS or low is None:
        return [pl.lit(True)]
    width = -(-(high - low + 1) // 4096)
    buckets = collect(frame.group_by(((pl.col(column) - low) // width).alias("bucket")).agg(pl.len()).sort("bucket"))
    bounds, held = [low], 0
    for bucket, n in buckets.iter_rows():
        if held and held + n > _SLICE_ROWS:
            bounds.append(low + bucket * width)
            held = 0
        held += n
    bounds.append(high + 1)
    return [pl.col(column).is_between(a, b - 1) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def clustered_moments(rows, keys: list[str], values: dict[str, pl.Expr],
                      transform: Callable[[pl.LazyFrame], pl.LazyFrame] | None = None) -> pl.DataFrame:
    """Per group of ``keys`` and per outcome of ``values`` (name -> Float64 expression per row): the
    sums a clustered variance needs, added up over slices of whole deals. Columns: the keys, then per
    outcome ``<name>|n`` (rows), ``|sum``, ``|squares`` (sum of squared values), ``|s2`` (sum over
    deals of the squared deal sum), ``|sn`` (deal sum times deal rows), ``|n2`` (squared deal rows),
    ``|clusters`` (deals). Rows whose outcome is null are left out of that outcome.

    ``transform``: what to make of each slice of ``rows`` before it is aggregated (a self-join that
    pairs the seats of a game, say), so that the slices cut the rows, not what the transform makes
    of them."""
    frame = lazy(rows)
    deal = [c for c in cluster_keys(frame) if c not in keys]
    if transform is None and "seat" in keys and _one_game_per_deal(frame):
        return _singleton_moments(frame, keys, values)  # self-play: a seat's deal is one game, one row
    parts = []
    for cut in deal_slices(frame):
        part = frame.filter(cut)
        part = transform(part) if transform is not None else part
        per_deal = part.group_by([*keys, *deal]).agg(
            *(e for name, expr in values.items() for e in (
                expr.is_not_null().sum().cast(pl.Float64).alias(f"{name}|n"),
                expr.sum().cast(pl.Float64).alias(f"{name}|sum"),
                (expr * expr).sum().cast(pl.Float64).alias(f"{name}|squares"))))
        sums = []
        for name in values:
            n, s = pl.col(f"{name}|n"), pl.col(f"{name}|sum")
            sums += [n.sum().alias(f"{name}|n"), s.sum().alias(f"{name}|sum"),
                     pl.col(f"{name}|squares").sum().alias(f"{name}|squares"), (s * s).sum().alias(f"{name}|s2"),
                     (s * n).sum().alias(f"{name}|sn"), (n * n).sum().alias(f"{name}|n2"),
                     (n > 0).sum().cast(pl.Float64).alias(f"{name}|clusters")]
        parts.append(collect(per_deal.group_by(keys).agg(*sums)))
    table = pl.concat(parts) if parts else pl.DataFrame()
    if table.is_empty():
        return table
    return table.group_by(keys).agg(pl.exclude(keys).sum()).sort(keys)


def _one_game_per_deal(frame: pl.LazyFrame) -> bool:
    """Whether every deal of ``frame`` is one game: its ``seating`` column (the runner's index of a deal's
    seating) is 0 throughout. Without the column nothing is assumed. With ``seat`` among the keys, a
    group then holds one row of each deal."""
    if "seating" not in column_names(frame):
        return False
    return collect(frame.select(pl.col("seating").max())).item() in (0, None)


def _singleton_moments(frame: pl.LazyFrame, keys: list[str], values: dict[str, pl.Expr]) -> pl.DataFrame:
    """``clustered_moments`` where every deal is one row of a group (one game, one row per seat): a
    deal's sum is the row's value, so one pass of plain sums gives every column."""
    sums = []
    for name, expr in values.items():
        n = expr.is_not_null().sum().cast(pl.Float64)
        total, squares = expr.sum().cast(pl.Float64), (expr * expr).sum().cast(pl.Float64)
        sums += [n.alias(f"{name}|n"), total.alias(f"{name}|sum"), squares.alias(f"{name}|squares"),
                 squares.alias(f"{name}|s2"), total.alias(f"{name}|sn"), n.alias(f"{name}|n2"),
                 n.alias(f"{name}|clusters")]
    table = collect(frame.group_by(keys).agg(*sums))
    return table.sort(keys) if not table.is_empty() else table


def clustered_variance(table, name: str) -> tuple[np.ndarray, np.ndarray]:
    """(mean, variance of the mean clustered by deal), each (G,) float64, of outcome ``name`` from
    ``clustered_moments``' table (polars or pandas); NaN variance with fewer than two deals."""
    get = (lambda c: table[c].to_numpy().astype(np.float64)) if isinstance(table, pl.DataFrame) else (
        lambda c: table[c].to_numpy(dtype=np.float64))
    n, total, s2, sn, n2, g = (get(f"{name}|{m}") for m in ("n", "sum", "s2", "sn", "n2", "clusters"))
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = total / n
        residual = np.maximum(s2 - 2 * mean * sn + mean * mean * n2, 0.0)
        variance = np.where(g > 1, g / (g - 1) * residual / (n * n), np.nan)
    return mean, variance


def effective_trials(table, name: str) -> np.ndarray:
    """(G,) float64 the number of independent 0/1 trials whose binomial variance equals the clustered
    variance of outcome ``name``'s mean: what a Wilson interval and a binomial test count.

    Where every deal is one row (self-play), it is the effective number of games of outcomes that
    may be shares (``sim.stats.wins.effective_games``: exactly the games for 0/1 outcomes); where
    deals repeat, p(1-p) / V, fewer games than were played when a deal's games move together."""
    get = (lambda c: table[c].to_numpy().astype(np.float64)) if isinstance(table, pl.DataFrame) else (
        lambda c: table[c].to_numpy(dtype=np.float64))
    n, total, squares, n2 = (get(f"{name}|{m}") for m in ("n", "sum", "squares", "n2"))
    plain = effective_games(total, squares, n)
    mean, variance = clustered_variance(table, name)
    with np.errstate(divide="ignore", invalid="ignore"):
        clustered = np.where(variance > 0, mean * (1 - mean) / variance, plain)
    singletons = n2 <= n  # every deal one row: the plain form, exact for 0/1 outcomes
    return np.where(singletons, plain, np.nan_to_num(clustered, nan=1.0, posinf=1.0).clip(min=1.0))


def clustered_rates(table, name: str, confidence: float = 0.95) -> tuple[np.ndarray, ...]:
    """(rate, low, high, effective trials), each (G,) float64, of outcome ``name`` (0/1 or shares of
    a win) from ``clustered_moments``' table: Wilson intervals on the effective trials."""
    from bgsim.sim.stats.intervals import wilson

    rate = clustered_variance(table, name)[0]
    n_eff = effective_trials(table, name)
    low, high = wilson(np.nan_to_num(rate) * n_eff, n_eff, confidence)
    return rate, low, high, n_eff


def clustered_means(table, name: str, confidence: float = 0.95) -> tuple[np.ndarray, ...]:
    """(mean, low, high), each (G,) float64, of outcome ``name`` from ``clustered_moments``' table:
    Student t intervals with the variance clustered by deal (deals - 1 degrees of freedom); NaN
    bounds with fewer than two deals, the point where nothing varies."""
    from scipy import stats

    mean, variance = clustered_variance(table, name)
    get = (lambda c: table[c].to_numpy().astype(np.float64)) if isinstance(table, pl.DataFrame) else (
        lambda c: table[c].to_numpy(dtype=np.float64))
    clusters = get(f"{name}|clusters")
    low, high = np.full(mean.shape, np.nan), np.full(mean.shape, np.nan)
    ok = (clusters >= 2) & np.isfinite(variance)
    half = stats.t.ppf(0.5 + confidence / 2, np.maximum(clusters[ok] - 1, 1)) * np.sqrt(variance[ok])
    low[ok], high[ok] = mean[ok] - half, mean[ok] + half
    return mean, low, high


@dataclass(frozen=True)
class SeatCovariance:
    """The seats' mean outcomes of one group and their covariance, clustered by deal.

    rates: (P,) float64 each seat's mean outcome (its win rate); covariance: (P, P) float64 the
    covariance of the (P,) estimate, clustered by deal (seats of one game share one winner, and
    games of one deal share its luck); games: games of the group; deals: distinct deals."""

    rates: np.ndarray
    covariance: np.ndarray
    games: int
    deals: int

    @property
    def variances(self) -> np.ndarray:
        return np.diag(self.covariance).copy()


def seat_covariances(rows, keys: list[str], value: pl.Expr, seats: int | None = None) -> dict[tuple, SeatCovariance]:
    """Per group of ``keys`` (each group's games have every seat): the seats' means of ``value`` (a
    Float64 expression per row) and their covariance clustered by deal, read in slices of whole
    deals. ``seats``: the most seats of any group (default: read from the rows)."""
    frame = lazy(rows)
    deal = [c for c in cluster_keys(frame) if c not in keys]
    if seats is None:
        seats = int(collect(frame.select(pl.col("seat").max())).item()) + 1
    sums: dict[tuple, dict] = {}
    for cut in deal_slices(frame):
        per_deal = collect(frame.filter(cut).group_by([*keys, *deal]).agg(
            pl.len().alias("rows"), pl.col("seat").max().alias("top"),
            *(value.filter(pl.col("seat") == s).sum().cast(pl.Float64).alias(f"s{s}") for s in range(seats))))
        for key, part in per_deal.group_by(keys, maintain_order=True):
            key = tuple(key)
            p = int(part["top"].max()) + 1
            s = part.select([f"s{i}" for i in range(p)]).to_numpy()  # (D, P) deal sums
            n = part["rows"].to_numpy().astype(np.float64) / p  # (D,) games per deal
            acc = sums.setdefault(key, {"games": 0.0, "deals": 0, "sum": np.zeros(p), "cross": np.zeros((p, p)),
                                        "weighted": np.zeros(p), "n2": 0.0})
            acc["games"] += n.sum()
            acc["deals"] += len(n)
            acc["sum"] += s.sum(axis=0)
            acc["cross"] += s.T @ s
            acc["weighted"] += n @ s
            acc["n2"] += float(n @ n)
    out = {}
    for key, acc in sorted(sums.items()):
        games, g = acc["games"], acc["deals"]
        rates = acc["sum"] / games
        # sum_d R_d R_d' with R_d = S_d - n_d * rates, expanded into the sums kept
        residual = (acc["cross"] - np.outer(rates, acc["weighted"]) - np.outer(acc["weighted"], rates)
                    + np.outer(rates, rates) * acc["n2"])
        cov = residual * (g / (g - 1)) / games ** 2 if g > 1 else np.full(residual.shape, np.nan)
        out[key] = SeatCovariance(rates=rates, covariance=cov, games=int(round(games)), deals=g)
    return out
