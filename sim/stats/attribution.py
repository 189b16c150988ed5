"""Component attribution: what each component outcomes are attributed to (a game's cards, auction
items, buildings) pays when a seat scores with it, and whether the seats that score with it win more
often than the seats that score with the other components of its group.

Pure functions over stored result rows (polars LazyFrame / DataFrame or pandas in, pandas out); they
import no engine code. The rows are never collected: every table is a lazy query over them (the
events exploded from their lists), aggregated on polars' streaming engine before anything is
materialised. What needs each deal or game on its own (the clustered variances, distinct games) is
read in slices of whole deals, one at a time (``deal_slices``, ``_within_by_slices``,
``_pairs_by_slices``), so that memory follows the slice and the catalogue, not the number of games.

What a component is comes from the game's profile as stored with the run
(``sim.profile.Attribution``): ``catalogue_frame`` turns its catalogue into a table, so a run with
its own data overrides is described by its own data.

Input rows are the runner's columns, one row per (game, seat): ``run_id``, ``n_players``,
``game_index``, ``seat`` (0-based), ``won`` (exactly one winner per game), the attribution's
``board_column`` (the component index on each place, -1 = empty, the same for every seat of a game)
and ``events_column`` (a list per seat of structs, one per time it scored with a component, with at
least the attribution's ``id_field`` and ``payoff_field``); used when present: ``deal`` (games of one
deal share their board) and ``strategy``. A game is (``run_id``, ``game_index``).

Conventions, stated once:

- Item index ``i`` is the ``i``-th row of the catalogue, which is the index the game stores.
- ``payoff`` of an event is its amounts valued in score units (``Valuation``: by default the
  attribution's ``payoff_field`` at 1 and nothing else); ``net_payoff`` also subtracts what was
  handed in for it (``Valuation.costs``).
- Win effect, the flag: an item is compared with the other items of its own group
  (``_GroupWithin``), because groups may differ as a whole. The events of the item are set against
  the events of the group's other items by the same seat, strategy and run (and, if the valuation
  names a ``stratum_field``, the same value of it: e.g. the same round), the difference of win rates
  standardised to the item's events; its variance is clustered by deal (``deal`` column, else by
  game), because the seats of one game share one winner, a seat can score several items of a group,
  and games of one deal share their board. The same comparison of ``net_payoff`` gives what the item
  pays against its group. A pair of items scored together in one stratum is judged against what its
  two items predict (``_PairExcess``). It is an association, not a causal effect: strategies choose
  which items to score with.
- The raw effect (``raw_*`` columns, descriptive): the seats that scored with an item against the same
  seats (same player count) in games without the item on the board, standardised over seats.
- Every table is per player count (column ``n_players``); rows of several runs are pooled.
  q-values are Benjamini–Hochberg over every tested item (or pair) of every player count.
- An item with fewer than ``MIN_TRIGGERS`` (30) scoring seat-games gets no win effect, is never
  flagged and is noted "too few games"; one whose group has fewer than 30 comparable events of
  other items: "no other item of its group to compare"; payoff means are still shown, with their
  wide intervals.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.profile import Attribution
from bgsim.sim.stats.clustered import deal_slices
from bgsim.sim.stats.intervals import t_bounds, wilson
from bgsim.sim.stats.lazy import collect, column_names, lazy
from scipy import stats
from statsmodels.stats.multitest import multipletests

__all__ = ["MIN_TRIGGERS", "PAIR_WORDS", "Valuation", "catalogue_frame", "deal_slices", "group_summary",
           "component_pair_effects", "spreads", "triggers"]

# Fewest scoring seat-games (and comparable events of the group's other items) for a win effect and a flag.
MIN_TRIGGERS = 30

TOO_FEW = "too few games"
NEVER = "never on the board"
NO_GROUP = "no other item of its group to compare"


@dataclass(frozen=True)
class Valuation:
    """How a game's events are valued and compared (plain data; a game's report extras may give one).

    ``weights``: event field -> score units per unit (the payoff, summed in this order); empty: the
    attribution's ``payoff_field`` at 1. ``costs``: (event field, catalogue column or None, score
    units) triples subtracted for the net payoff: field x column value (1 without) x units.
    ``stratum_field``: an event field (small non-negative integers, e.g. a round) the comparison within
    a group also holds fixed; pairs are the two items of one seat in one stratum (None: no pairs).
    ``penalty_field``: an event field marking a penalty (counted and rated), or None."""

    weights: Mapping[str, float] = field(default_factory=dict)
    costs: tuple[tuple[str, str | None, float], ...] = ()
    stratum_field: str | None = None
    penalty_field: str | None = None


def _weights(valuation: Valuation, attribution: Attribution) -> dict[str, float]:
    return dict(valuation.weights) or {attribution.payoff_field: 1.0}


# --- catalogue


def catalogue_frame(attribution: Attribution) -> pd.DataFrame:
    """The attribution's catalogue as a table in index order: ``item`` (the index stored in the board
    and event columns), ``id``, ``group`` and every other field of the catalogue rows."""
    rows = [dict(row) for row in attribution.catalogue]
    frame = pd.DataFrame(rows)
    if frame.empty:
        return pd.DataFrame(columns=["item", "id", "group"])
    frame = frame.drop(columns=[c for c in ("item",) if c in frame.columns])
    frame.insert(0, "item", np.arange(len(frame)))
    if "group" not in frame.columns:
        frame["group"] = ""
    return frame


def label_columns(catalogue: pd.DataFrame) -> list[str]:
    """The catalogue's text columns that describe an item (every string column but id and group)."""
    return [c for c in catalogue.columns
            if c not in ("item", "id", "group") and not pd.api.types.is_numeric_dtype(catalogue[c])]


# --- rows

# The columns the event tables need (the attribution's events column is called ``events`` here).
_EVENT_COLUMNS = ("run_id", "n_players", "game_index", "seat", "won", "events")


def _keyed(rows, columns: tuple[str, ...], attribution: Attribution) -> pl.LazyFrame:
    """The needed columns of ``rows`` (a polars LazyFrame or DataFrame, or pandas) as a lazy query,
    the attribution's board and events columns renamed ``board`` and ``events``, with ``run_id`` as a
    categorical and three Int64 keys: ``game`` (run code * 2^40 + game_index: grouping by one integer
    instead of a string and an integer is what keeps millions of events fast), ``cluster`` (the deal
    if there is a ``deal`` column, since the games of one deal share their board; else the game) and
    ``seat_key`` (run, strategy if there is a ``strategy`` column, seat). Nothing is read here but
    the run and strategy names (``_codes``): every table is an aggregation of this query, collected
    on the streaming engine."""
    names = {"board": attribution.board_column, "events": attribution.events_column}
    columns = tuple(names.get(c, c) for c in columns)
    present = column_names(rows)
    wanted = [*columns, *(c for c in ("deal", "strategy") if c in present and c not in columns)]
    frame = lazy(rows[wanted]) if isinstance(rows, pd.DataFrame) else lazy(rows).select(wanted)
    frame = frame.rename({v: k for k, v in names.items() if v in wanted})
    wanted = [{v: k for k, v in names.items()}.get(c, c) for c in wanted]
    coded = [c for c in ("run_id", "strategy") if c in wanted]
    code = dict(zip(coded, _codes(frame, coded), strict=True))
    game = code["run_id"] * (1 << 40) + pl.col("game_index").cast(pl.Int64)
    cluster = pl.col("deal").cast(pl.Int64) if "deal" in wanted else game
    strategy = code.get("strategy", pl.lit(0, pl.Int64))
    seat_key = (code["run_id"] * (1 << 20) + strategy) * 16 + pl.col("seat").cast(pl.Int64)
    run = pl.col("run_id").cast(pl.String).cast(pl.Categorical)
    return frame.with_columns(run.alias("run_id"), game.alias("game"), cluster.alias("cluster"),
                              seat_key.alias("seat_key"))


def _codes(frame: pl.LazyFrame, columns: list[str]) -> list[pl.Expr]:
    """Per column: an Int64 expression of each value's place in the order the values first occur in
    ``frame`` (one small query reads them). Keys built from it, and with them the order of strata and
    of the sums over them, do not depend on what else the process has cast to a categorical."""
    if not columns:
        return []
    found = collect(frame.select(pl.col(c).cast(pl.String).unique(maintain_order=True).implode() for c in columns))
    # an Enum of the values in that order numbers them by a cast, row by row on the streaming engine
    return [pl.col(c).cast(pl.String).cast(pl.Enum(found[c][0].to_list())).to_physical().cast(pl.Int64)
            for c in columns]


def _collect_all(*queries: pl.LazyFrame, shared: bool = False) -> list[pl.DataFrame]:
    """The aggregated tables of ``queries``, run together on the streaming engine. ``shared``: read
    their common part once, for queries over one slice (``deal_slices``): a shared part is buffered for
    whichever query reads it more slowly, which over all the rows could grow with the games."""
    return pl.collect_all(queries, engine="streaming", optimizations=pl.QueryOptFlags(comm_subplan_elim=shared))


_STRATA = 256  # stratum field values per seat: the stratum key is seat_key * _STRATA + value


def triggers(rows, attribution: Attribution, valuation: Valuation | None = None) -> pl.DataFrame | pl.LazyFrame:
    """One row per event (a seat scoring with an item): ``run_id, n_players, game_index, game`` (an
    Int64 key of run_id and game_index), ``seat, won``, ``item`` (the event's id field) and the
    event's other fields, plus ``payoff`` (its amounts valued in score units) and ``net_payoff``
    (minus what was handed in), both float64.

    The building block of every table here, exposed so that other reports can slice it: a lazy query
    when ``rows`` is a LazyFrame (the events of millions of games are many more rows than the games;
    aggregate before collecting), else a DataFrame.
    """
    keyed = _keyed(rows, _EVENT_COLUMNS, attribution)
    t = _triggers(keyed, attribution, valuation or Valuation()).drop("cluster", "stratum")
    return t if isinstance(rows, pl.LazyFrame) else collect(t)


def _triggers(frame: pl.LazyFrame, attribution: Attribution, valuation: Valuation) -> pl.LazyFrame:
    """``triggers`` of the ``_keyed`` rows ``frame``, plus the Int64 ``cluster`` and ``stratum`` (run,
    strategy, seat and the valuation's stratum field) keys of the within-group comparison."""
    keys = ("run_id", "n_players", "game_index", "game", "cluster", "seat_key", "seat", "won")
    log = (frame.select(*keys, "events").explode("events").filter(pl.col("events").is_not_null())
           .unnest("events").rename({attribution.id_field: "item"}))
    fields = [c for c in log.collect_schema().names() if c not in keys]
    stratum = pl.col("seat_key") * _STRATA
    if valuation.stratum_field:
        stratum = stratum + pl.col(valuation.stratum_field).cast(pl.Int64)
    log = log.with_columns(pl.col("item").cast(pl.Int16), stratum.alias("stratum"))
    payoff, net = _values(attribution, valuation, pl.col, "item")
    return log.with_columns(payoff.alias("payoff"), net.alias("net_payoff")).select(
        "run_id", "n_players", "game_index", "game", "seat", "won", *fields, "payoff", "net_payoff", "cluster",
        "stratum")


def _values(attribution: Attribution, valuation: Valuation, get, item: str) -> tuple[pl.Expr, pl.Expr]:
    """(payoff, net payoff) of an event as float64 expressions, row by row: ``get(name)`` is the
    event field ``name`` (``pl.col`` after an explode, a struct field inside ``list.eval``) and
    ``item`` the name of the field that holds its item index."""
    payoff = None
    for name, weight in _weights(valuation, attribution).items():
        term = get(name).cast(pl.Float64) * weight
        payoff = term if payoff is None else payoff + term
    catalogue = catalogue_frame(attribution)
    handed_in = None
    for name, column, units in valuation.costs:
        term = get(name).cast(pl.Float64)
        if column:  # the item's catalogue value, 0 for an index outside the catalogue
            term = term * _lookup(get(item), catalogue["item"].to_numpy(),
                                  catalogue[column].to_numpy().astype(np.float64))
        term = term * units
        handed_in = term if handed_in is None else handed_in + term
    return payoff, (payoff - handed_in if handed_in is not None else payoff)


def _lookup(item: pl.Expr, items: np.ndarray, values: np.ndarray) -> pl.Expr:
    """``values[i]`` where ``item`` is ``items[i]``, 0 for an item not in ``items`` (both (M,)), as a
    chain of row-wise conditions, one per distinct value: unlike a replace or a join it keeps the
    order of the rows and runs on the streaming engine batch by batch."""
    out = pl.lit(0.0, pl.Float64)
    for value in pd.unique(values):
        chosen = np.isnan(values) if np.isnan(value) else values == value
        out = pl.when(item.is_in(items[chosen].tolist())).then(pl.lit(value, pl.Float64)).otherwise(out)
    return out


def _seat_totals(wins: pl.DataFrame, n: int) -> tuple[int, np.ndarray]:
    """Games of player count ``n`` and wins per seat: (n,) int64, from ``wins`` (``n_players, winner,
    games``: games per winning seat; a game is found through its single winner)."""
    sub = wins.filter(pl.col("n_players") == n)
    seat_wins = np.bincount(sub["winner"].to_numpy().astype(np.int64), sub["games"].to_numpy().astype(np.float64),
                            minlength=n)[:n]
    return int(sub["games"].sum()), seat_wins.astype(np.int64)


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return np.divide(a, b, out=np.full(a.shape, np.nan), where=b > 0)


def _z(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence``."""
    return float(stats.norm.ppf(0.5 + confidence / 2))


def _two_sided_p(diff: np.ndarray, se: np.ndarray) -> np.ndarray:
    """Normal two-sided p-values of differences with standard errors, (M,) float64; a difference
    without spread is 1 if it is 0, else 0; NaN stays NaN."""
    diff = np.asarray(diff, dtype=np.float64)
    se = np.asarray(se, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * stats.norm.sf(np.abs(diff) / se)
    return np.where(se > 0, p, np.where(diff == 0, 1.0, np.where(np.isnan(diff), np.nan, 0.0)))


def _bh(p: np.ndarray, tested: np.ndarray, alpha: float) -> np.ndarray:
    """Benjamini–Hochberg q-values of the ``tested`` (M,) bool entries of ``p`` (M,); NaN elsewhere."""
    q = np.full(len(p), np.nan)
    tested = tested & ~np.isnan(p)
    if tested.any():
        q[tested] = multipletests(p[tested], alpha=alpha, method="fdr_bh")[1]
    return q


# --- within-group comparison


class _GroupWithin:
    """Each item of one group (one player count) against the group's other items, stratified and
    clustered, in two passes over summed cells so that no pass holds more than a slice of the
    clusters: the constructor takes the group's units summed per (item, stratum), ``add`` a slice
    of whole clusters summed per (item, stratum, cluster), and ``table`` gives the rows.

    For item c the treated units are c's and the comparison units are the other items' units of the
    group. In every stratum with both, the comparison mean is taken; weighted by c's units it gives
    the comparison standardised to c, and the difference is mean(c) - that. Its variance is the
    cluster sandwich of the linearised estimator (residuals from each stratum's treated and
    comparison means), times G / (G - 1) for G clusters: units of one cluster may depend on each
    other in any way. A cell's residuals add up to its sum minus its count times the mean, so each
    cluster's sum comes from its cells; only the squares of those sums are kept, over the slices.
    Items with fewer than ``min_count`` units in strata with a comparison, or fewer than
    ``min_count`` comparison units there, get NaN (and are not worth the arithmetic)."""

    def __init__(self, item: np.ndarray, stratum: np.ndarray, count: np.ndarray, sums: Mapping[str, np.ndarray],
                 min_count: int) -> None:
        """``item``, ``stratum`` (P,) int64 and ``count`` (P,) float64: the group's units summed per
        (item, stratum); ``sums``: value name -> (P,) float64, the value summed the same way."""
        self.items, it = np.unique(item, return_inverse=True)
        self.strata, st = np.unique(stratum, return_inverse=True)
        shape = (len(self.items), len(self.strata))
        self.n1 = _cross(it, st, count, shape)  # (K, S) units of item k in stratum s
        self.n0 = self.n1.sum(axis=0) - self.n1  # (K, S) the group's other units there
        self.keep = (self.n1 > 0) & (self.n0 > 0)
        self.weight = np.where(self.keep, self.n1 / np.maximum(self.n0, 1), 0.0)  # comparison unit weight
        self.treated = np.where(self.keep, self.n1, 0).sum(axis=1).astype(np.int64)
        self.compared = np.where(self.keep, self.n0, 0).sum(axis=1).astype(np.int64)
        self.tested = (self.treated >= max(min_count, 1)) & (self.compared >= max(min_count, 1))
        self.p1, self.p0, self.rate, self.comp = {}, {}, {}, {}
        treated = np.where(self.tested, self.treated, 1)  # untested items get NaN in ``table``
        for name, v in sums.items():
            s1 = _cross(it, st, v, shape)
            self.p1[name] = np.divide(s1, self.n1, out=np.zeros(shape), where=self.n1 > 0)
            self.p0[name] = np.divide(s1.sum(axis=0) - s1, self.n0, out=np.zeros(shape), where=self.n0 > 0)
            self.rate[name] = np.array([s1[k][self.keep[k]].sum() for k in range(shape[0])]) / treated
            self.comp[name] = np.array([(self.n1 * self.p0[name])[k][self.keep[k]].sum()
                                        for k in range(shape[0])]) / treated
        self.squares = {name: np.zeros(shape[0]) for name in sums}  # (K,) sums over clusters of squared sums
        self.clusters = 0

    def add(self, item: np.ndarray, stratum: np.ndarray, cluster: np.ndarray, count: np.ndarray,
            sums: Mapping[str, np.ndarray]) -> None:
        """A slice of whole clusters: the group's units summed per (item, stratum, cluster), (U,) each
        (``item``, ``stratum``, ``cluster`` int64, ``count`` float64, ``sums`` name -> float64), in
        any order (they are sorted, so that the sums are added in one order every time)."""
        if not len(item):
            return
        order = np.lexsort((item, stratum, cluster))
        item, stratum, cluster, count = item[order], stratum[order], cluster[order], count[order]
        sums = {name: v[order] for name, v in sums.items()}
        it, st = np.searchsorted(self.items, item), np.searchsorted(self.strata, stratum)
        _, cl = np.unique(cluster, return_inverse=True)
        n_clusters = int(cl.max()) + 1
        self.clusters += n_clusters
        for k in np.flatnonzero(self.tested):
            mine = it == k
            for name, v in sums.items():
                influence = -self.weight[k, st] * (v - count * self.p0[name][k, st])  # each cell's summed residuals
                influence[mine] = self.keep[k, st[mine]] * (v[mine] - count[mine] * self.p1[name][k, st[mine]])
                per_cluster = np.bincount(cl, influence, minlength=n_clusters)
                self.squares[name][k] += per_cluster @ per_cluster

    def table(self, z: float) -> pd.DataFrame:
        """One row per item: ``item``, ``treated`` and ``compared`` (unit counts in strata with both),
        and per value name v: ``v_rate`` (the item's mean), ``v_comp`` (the standardised comparison),
        ``v_diff``, ``v_low``, ``v_high`` (normal interval at the quantile ``z``) and ``v_se``."""
        table = pd.DataFrame({"item": self.items, "treated": self.treated, "compared": self.compared})
        scale = self.clusters / (self.clusters - 1) if self.clusters > 1 else math.nan
        for name in self.squares:
            diff = self.rate[name] - self.comp[name]
            se = np.sqrt(self.squares[name] * scale) / np.maximum(self.treated, 1)
            for suffix, column in (("rate", self.rate[name]), ("comp", self.comp[name]), ("diff", diff),
                                   ("low", diff - z * se), ("high", diff + z * se), ("se", se)):
                table[f"{name}_{suffix}"] = np.where(self.tested, column, math.nan)
        return table


def _cross(row: np.ndarray, column: np.ndarray, weights: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """``weights`` (P,) summed into a (R, C) float64 table at (``row``, ``column``), (P,) int64 each."""
    return np.bincount(row * shape[1] + column, weights, minlength=shape[0] * shape[1]).reshape(shape)


def _within_effects(group: np.ndarray, item: np.ndarray, cluster: np.ndarray, stratum: np.ndarray,
                    values: Mapping[str, np.ndarray], z: float, min_count: int,
                    count: np.ndarray | None = None) -> pd.DataFrame:
    """``_GroupWithin`` of every group of cells held in memory, one row per item (the columns of
    ``_GroupWithin.table``). Cells, each (U,): ``group``, ``item`` (an item lies in one group),
    ``cluster`` and ``stratum``, all int64; ``count``: units in the cell (None: one each);
    ``values``: name -> (U,) float64 sum of the outcome over the cell's units."""
    count = np.ones(len(item)) if count is None else np.asarray(count, dtype=np.float64)
    values = {name: np.asarray(v, dtype=np.float64) for name, v in values.items()}
    tables = []
    for g in np.unique(group):
        sel = group == g
        keys, index = np.unique(np.stack([item[sel], stratum[sel]]), axis=1, return_inverse=True)
        summed = {name: np.bincount(index.ravel(), v[sel]) for name, v in values.items()}
        within = _GroupWithin(keys[0], keys[1], np.bincount(index.ravel(), count[sel]), summed, min_count)
        within.add(item[sel], stratum[sel], cluster[sel], count[sel], {name: v[sel] for name, v in values.items()})
        tables.append(within.table(z))
    columns = ["item", "treated", "compared"] + [f"{v}_{s}" for v in values
                                                 for s in ("rate", "comp", "diff", "low", "high", "se")]
    return pd.concat(tables, ignore_index=True)[columns] if tables else pd.DataFrame(columns=columns)


# --- raw win effect (against games without the item)


def _raw_effect(n1: np.ndarray, w1: np.ndarray, n0: np.ndarray, w0: np.ndarray) -> tuple[float, float, float]:
    """(base rate, difference, its standard error) of one item from per-seat counts, each
    (n_players,) int64: treated seat-games ``n1`` with ``w1`` wins, control seat-games ``n0`` with
    ``w0`` wins. The difference is the treated win rate minus the control rate standardised to the
    treated seats (per-seat control rates weighted by the treated seat-games), its variance from the
    per-seat binomial variances, games taken as independent (descriptive)."""
    keep = (n1 > 0) & (n0 > 0)
    n1, w1, n0, w0 = (np.asarray(x, dtype=np.float64)[keep] for x in (n1, w1, n0, w0))
    p1, p0 = w1 / n1, w0 / n0
    weight = n1 / n1.sum()
    base = float(weight @ p0)
    diff = float(w1.sum() / n1.sum()) - base
    se = math.sqrt(float(weight**2 @ (p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)))
    return base, diff, se


def _item_seats(frame: pl.LazyFrame, attribution: Attribution) -> pl.LazyFrame:
    """Treated seat-games ``n1`` and their wins ``w1`` per (``n_players``, item, seat) of the ``_keyed``
    rows ``frame``, as a lazy query. A seat row is one seat-game, so it counts once per distinct item
    of its events (a seat that triggers an item twice in one game counts once), found within the row."""
    items = pl.col("events").list.eval(pl.element().struct.field(attribution.id_field)).list.unique()
    return (frame.select("n_players", "seat", "won", items.alias("item")).explode("item").drop_nulls("item")
            .with_columns(pl.col("item").cast(pl.Int16))
            .group_by("n_players", "item", "seat").agg(pl.len().alias("n1"), pl.col("won").sum().alias("w1")))


def _treated_counts(counts: pd.DataFrame, keys: list[str], index: pd.DataFrame, n: int) -> tuple[np.ndarray, ...]:
    """Per-seat treated seat-games and wins, (M, n) int64 each, for the M items of ``index``
    (columns ``keys``) from ``counts`` (``n_players``, keys, ``seat, n1, w1``)."""
    counts = counts[counts["n_players"] == n]
    position = pd.Series(np.arange(len(index)), index=pd.MultiIndex.from_frame(index[keys]))
    rows = position.reindex(pd.MultiIndex.from_frame(counts[keys])).to_numpy()
    n1 = np.zeros((len(index), n), dtype=np.int64)
    w1 = np.zeros((len(index), n), dtype=np.int64)
    ok = ~np.isnan(rows)
    r, s = rows[ok].astype(np.int64), counts["seat"].to_numpy()[ok].astype(np.int64)
    np.add.at(n1, (r, s), counts["n1"].to_numpy()[ok])
    np.add.at(w1, (r, s), counts["w1"].to_numpy()[ok])
    return n1, w1


def _flag(table: pd.DataFrame, alpha: float, effect: str = "win_diff",
          words: tuple[str, str] = ("pays too much", "pays too little")) -> pd.DataFrame:
    """``q_value`` (Benjamini–Hochberg over every row with a ``p_value``), ``flagged`` (q < alpha)
    and ``direction`` (``words`` for a positive and a negative ``effect`` of a flagged row, else "")."""
    p = table["p_value"].to_numpy(dtype=np.float64)
    table["q_value"] = _bh(p, ~np.isnan(p), alpha)
    table["flagged"] = (table["q_value"] < alpha).fillna(False).astype(bool)
    table["direction"] = np.where(~table["flagged"], "", np.where(table[effect] > 0, *words))
    return table


# --- per item


def _pooled_moments(t: pl.LazyFrame, keys: list[str], attribution: Attribution,
                    valuation: Valuation) -> pl.LazyFrame:
    """Per ``keys`` of the triggers ``t``, as a lazy query: ``triggered``, payoff and net payoff mean
    and sd, the means of the amounts and ``penalties`` (``triggered_games`` is counted by slices)."""
    penalty = (pl.col(valuation.penalty_field).cast(pl.Int64).sum() if valuation.penalty_field
               else pl.lit(0, pl.Int64))
    amounts = attribution.payoff_fields or tuple(_weights(valuation, attribution))
    return t.group_by(*keys).agg(
        pl.len().alias("triggered"),
        pl.col("payoff").mean().alias("payoff"), pl.col("payoff").std().alias("payoff_sd"),
        pl.col("net_payoff").mean().alias("net_payoff"), pl.col("net_payoff").std().alias("net_sd"),
        *(pl.col(k).cast(pl.Float64).mean().alias(f"mean_{k}") for k in amounts),
        penalty.alias("penalties"),
    )


def spreads(rows, attribution: Attribution, valuation: Valuation | None = None, confidence: float = 0.95,
            alpha: float = 0.05, min_triggers: int = MIN_TRIGGERS) -> pd.DataFrame:
    """One row per (player count, item), every item of the attribution's catalogue even if never seen.
    An item is triggered by a seat when an event credits it; payoffs are in the game's score units.

    Columns:

    - ``n_players, item, id, group`` and the catalogue's text columns; ``games`` (games of that player count);
    - ``on_board`` games with the item in play, ``on_board_rate`` with ``on_board_low/high``;
    - ``triggered`` seat-triggers; ``triggered_games`` on-board games in which some seat triggered it,
      ``trigger_rate`` = triggered_games / on_board with ``trigger_low/high``; ``triggers_per_game``
      = triggered / on_board (an item can be triggered by more than one seat);
    - ``payoff`` mean payout per trigger in score units (``Valuation.weights``), ``payoff_sd``,
      ``payoff_low/high`` (t); ``net_payoff``, ``net_sd``, ``net_low/high`` the same minus the costs;
      ``net_vs_group`` with ``net_vs_group_low/high``: net payoff per trigger minus that of the other
      items of its group in the same strata (``_GroupWithin``); ``mean_<field>`` the raw mean per
      trigger of every payoff field (``Attribution.payoff_fields``, e.g. ``mean_points``);
    - ``penalties`` (events ``Valuation.penalty_field`` marks), ``penalty_rate`` per trigger with ``penalty_low/high``;
    - the flag, within the group (``_GroupWithin``): ``trigger_seats`` seat-games that triggered the
      item; ``compared_triggers`` its triggers in strata where other items of its group were
      triggered, ``group_triggers`` those other items' triggers there; ``win_rate`` share of the
      compared triggers whose seat won, ``group_rate`` the group's other items' rate standardised to
      them, ``win_diff`` = win_rate - group_rate with ``diff_low/high``, ``p_value``, ``q_value``
      (Benjamini–Hochberg over every tested item of every player count), ``flagged`` (q < alpha),
      ``direction`` ("pays too much" / "pays too little" for flagged items, else "");
    - the raw effect, descriptive: ``control_seats`` seat-games in games without the item,
      ``base_rate`` their win rate standardised to the triggering seats, ``raw_diff`` = the triggering
      seat-games' win rate - base_rate with ``raw_low/high``, ``raw_q`` (Benjamini–Hochberg as above);
    - ``note``: "" or why there is no win effect ("never on the board", "too few games" when fewer
      than ``min_triggers`` triggering seat-games, or the group has no other item to compare).
    """
    valuation = valuation or Valuation()
    catalogue = catalogue_frame(attribution)
    frame = _keyed(rows, (*_EVENT_COLUMNS, "board"), attribution)
    t = _triggers(frame, attribution, valuation)
    winners = frame.filter(pl.col("won")).select("n_players", pl.col("seat").alias("winner"), "board")
    board = (winners.explode("board").rename({"board": "item"}).filter(pl.col("item") >= 0)
             .with_columns(pl.col("item").cast(pl.Int16)))
    counts, wins, on_board, moments, seats, strata = _collect_all(
        frame.select(pl.col("n_players").unique()),
        winners.group_by("n_players", "winner").agg(pl.len().alias("games")),
        board.group_by("n_players", "item", "winner").agg(pl.len().alias("g")),
        _pooled_moments(t, ["n_players", "item"], attribution, valuation),
        _item_seats(frame, attribution),
        t.group_by("n_players", "item", "stratum").agg(*_UNIT_SUMS))
    plans, games = _within_by_slices(frame, strata, attribution, valuation, catalogue, min_triggers)
    moments = moments.join(games, on=["n_players", "item"], how="left").to_pandas()
    seats = seats.to_pandas()
    z = _z(confidence)
    tables = [_spreads_for(n, wins, on_board, _item_within(plans, n, z), moments, seats, catalogue, confidence, z,
                           min_triggers)
              for n in sorted(int(n) for n in counts["n_players"].to_list())]
    if not tables:
        return pd.DataFrame(columns=[*_SPREAD_HEAD, *label_columns(catalogue), *_SPREAD_BODY, *_SPREAD_TAIL])
    table = _flag(pd.concat(tables, ignore_index=True), alpha)
    raw_p = _two_sided_p(table["raw_diff"], table["_raw_se"])
    table["raw_q"] = _bh(raw_p, table["_raw_tested"].to_numpy(dtype=bool), alpha)
    means = [c for c in table.columns if c.startswith("mean_")]
    return table[[*_SPREAD_HEAD, *label_columns(catalogue), *_SPREAD_BODY, *means, *_SPREAD_TAIL]]


def _spreads_for(n: int, wins: pl.DataFrame, on_board: pl.DataFrame, within: pd.DataFrame, moments: pd.DataFrame,
                 seats: pd.DataFrame, catalogue: pd.DataFrame, confidence: float, z: float,
                 min_triggers: int) -> pd.DataFrame:
    """The rows of player count ``n``: ``within`` is its ``_item_within``; the aggregated tables hold
    every player count: ``wins`` (``_seat_totals``), ``on_board`` (``n_players, item, winner, g``:
    on-board games per winning seat), ``moments`` (``_pooled_moments`` with ``triggered_games``) and
    ``seats`` (``_item_seats``)."""
    n_games, seat_wins = _seat_totals(wins, n)
    table = catalogue[["item", "id", "group", *label_columns(catalogue)]].copy()
    table.insert(0, "n_players", n)
    table["games"] = n_games
    on_board = on_board.filter(pl.col("n_players") == n).to_pandas()
    on_wins = np.zeros((len(table), n), dtype=np.int64)  # (items, seats) on-board games won by seat
    position = pd.Series(np.arange(len(table)), index=table["item"].to_numpy())
    rows = position.reindex(on_board["item"].to_numpy()).to_numpy()
    ok = ~np.isnan(rows)
    np.add.at(on_wins, (rows[ok].astype(np.int64), on_board["winner"].to_numpy()[ok].astype(np.int64)),
              on_board["g"].to_numpy()[ok])
    table["on_board"] = on_wins.sum(axis=1)
    table["on_board_rate"] = _ratio(table["on_board"], table["games"])
    table["on_board_low"], table["on_board_high"] = wilson(table["on_board"], table["games"], confidence)

    table = table.merge(moments[moments["n_players"] == n].drop(columns="n_players"), on="item", how="left")
    for column in ("triggered", "triggered_games", "penalties"):
        table[column] = table[column].fillna(0).astype(np.int64)
    table["trigger_rate"] = _ratio(table["triggered_games"], table["on_board"])
    table["trigger_low"], table["trigger_high"] = wilson(table["triggered_games"], table["on_board"], confidence)
    table["triggers_per_game"] = _ratio(table["triggered"], table["on_board"])
    table["payoff_low"], table["payoff_high"] = t_bounds(table["payoff"], table["payoff_sd"], table["triggered"],
                                                         confidence)
    table["net_low"], table["net_high"] = t_bounds(table["net_payoff"], table["net_sd"], table["triggered"], confidence)
    table["penalty_rate"] = _ratio(table["penalties"], table["triggered"])
    table["penalty_low"], table["penalty_high"] = wilson(table["penalties"], table["triggered"], confidence)

    n1, w1 = _treated_counts(seats, ["item"], table, n)
    table["trigger_seats"] = n1.sum(axis=1)
    table = table.merge(within, on="item", how="left")
    table["compared_triggers"] = table["compared_triggers"].fillna(0).astype(np.int64)
    table["group_triggers"] = table["group_triggers"].fillna(0).astype(np.int64)
    enough = (table["trigger_seats"] >= min_triggers).to_numpy()
    table.loc[~enough, ["win_rate", "group_rate", "win_diff", "diff_low", "diff_high", "p_value"]] = math.nan

    n0 = np.repeat(n_games - table["on_board"].to_numpy()[:, None], n, axis=1)  # every game seats all n
    w0 = seat_wins[None, :] - on_wins
    table["control_seats"] = n0.sum(axis=1)
    raw_tested = enough & (table["control_seats"] >= min_triggers).to_numpy()
    raw = np.array([_raw_effect(n1[i], w1[i], n0[i], w0[i]) if raw_tested[i] else (math.nan,) * 3
                    for i in range(len(table))], dtype=np.float64).reshape(len(table), 3)
    table["base_rate"], table["raw_diff"], table["_raw_se"] = raw[:, 0], raw[:, 1], raw[:, 2]
    table["raw_low"], table["raw_high"] = raw[:, 1] - z * raw[:, 2], raw[:, 1] + z * raw[:, 2]
    table["_raw_tested"] = raw_tested
    table["note"] = np.select(
        [table["on_board"] == 0, table["trigger_seats"] < min_triggers, table["p_value"].isna()],
        [NEVER, TOO_FEW, NO_GROUP], default="")
    return table


_UNIT_SUMS = (pl.len().alias("count"), pl.col("won").sum().alias("won"), pl.col("net_payoff").sum().alias("net"))


def _within_by_slices(frame: pl.LazyFrame, strata: pl.DataFrame, attribution: Attribution, valuation: Valuation,
                      catalogue: pd.DataFrame, min_triggers: int) -> tuple[dict, pl.DataFrame]:
    """The within-group comparisons of the ``_keyed`` rows ``frame``, by (player count, group index):
    ``_GroupWithin`` built from ``strata`` (the triggers summed per player count, item and stratum:
    ``_UNIT_SUMS``) and fed the clusters slice by slice (``deal_slices``); and ``triggered_games`` per
    (player count, item), counted slice by slice too (a game lies in one slice).

    A clustered variance needs each cluster's sum, and the clusters are the deals, which every run
    of a study shares, so no order of the rows finishes one before the end; a slice of whole deals
    does. So each slice is read on its own and summed per (player count, item, stratum, cluster),
    the least its clusters' sums come from (about a row per trigger), and only the squares of those
    sums are kept: what is held grows with the slice, not with the games."""
    group_of = _group_index(catalogue)
    plans = {}
    for (n, g), part in _with_group(strata, group_of).partition_by("n_players", "group", as_dict=True).items():
        plans[n, g] = _GroupWithin(part["item"].to_numpy().astype(np.int64), part["stratum"].to_numpy(),
                                   part["count"].to_numpy().astype(np.float64), _sums(part), min_triggers)
    games = []
    for where in deal_slices(frame):
        t = _triggers(frame.filter(where), attribution, valuation)
        cells, hit = _collect_all(
            t.group_by("n_players", "item", "stratum", "cluster").agg(*_UNIT_SUMS),
            t.group_by("n_players", "item").agg(pl.col("game").n_unique().alias("triggered_games")), shared=True)
        games.append(hit)
        cells = _with_group(cells, group_of)
        for (n, g), part in cells.partition_by("n_players", "group", as_dict=True).items():
            plans[n, g].add(part["item"].to_numpy().astype(np.int64), part["stratum"].to_numpy(),
                            part["cluster"].to_numpy(), part["count"].to_numpy().astype(np.float64), _sums(part))
    games = pl.concat(games).group_by("n_players", "item").agg(pl.col("triggered_games").sum())
    return plans, games


def _group_index(catalogue: pd.DataFrame) -> np.ndarray:
    """The index of each item's group (in catalogue order), by item index: (M,) int64."""
    groups = list(dict.fromkeys(catalogue["group"]))
    group_of = np.zeros(int(catalogue["item"].max()) + 1 if len(catalogue) else 0, dtype=np.int64)
    group_of[catalogue["item"].to_numpy()] = [groups.index(g) for g in catalogue["group"]]
    return group_of


def _with_group(cells: pl.DataFrame, group_of: np.ndarray) -> pl.DataFrame:
    return cells.with_columns(pl.Series("group", group_of[cells["item"].to_numpy().astype(np.int64)]))


def _sums(cells: pl.DataFrame) -> dict[str, np.ndarray]:
    """The outcomes the within-group comparison sets against the group: wins and net payoff."""
    return {"won": cells["won"].to_numpy().astype(np.float64), "net": cells["net"].to_numpy().astype(np.float64)}


def _item_within(plans: dict, n: int, z: float) -> pd.DataFrame:
    """Within-group win and net-payoff comparison of every item scored at player count ``n`` (from
    ``_within_by_slices``)."""
    columns = ["item", "compared_triggers", "group_triggers", "win_rate", "group_rate", "win_diff", "diff_low",
               "diff_high", "p_value", "net_vs_group", "net_vs_group_low", "net_vs_group_high"]
    tables = [plan.table(z) for (count, _), plan in sorted(plans.items()) if count == n]
    if not tables:
        return pd.DataFrame(columns=columns)
    within = pd.concat(tables, ignore_index=True)
    return pd.DataFrame({
        "item": within["item"], "compared_triggers": within["treated"], "group_triggers": within["compared"],
        "win_rate": within["won_rate"], "group_rate": within["won_comp"], "win_diff": within["won_diff"],
        "diff_low": within["won_low"], "diff_high": within["won_high"],
        "p_value": _two_sided_p(within["won_diff"], within["won_se"]),
        "net_vs_group": within["net_diff"], "net_vs_group_low": within["net_low"],
        "net_vs_group_high": within["net_high"]})[columns]


_SPREAD_HEAD = ("n_players", "item", "id", "group")
_SPREAD_BODY = (
    "games", "on_board", "on_board_rate", "on_board_low", "on_board_high", "triggered", "triggered_games",
    "trigger_rate", "trigger_low", "trigger_high", "triggers_per_game", "payoff", "payoff_sd", "payoff_low",
    "payoff_high", "net_payoff", "net_sd", "net_low", "net_high", "net_vs_group", "net_vs_group_low",
    "net_vs_group_high")
_SPREAD_TAIL = (
    "penalties", "penalty_rate", "penalty_low", "penalty_high", "trigger_seats", "compared_triggers",
    "group_triggers", "win_rate", "group_rate", "win_diff", "diff_low", "diff_high", "p_value", "q_value", "flagged",
    "direction", "control_seats", "base_rate", "raw_diff", "raw_low", "raw_high", "raw_q", "note",
)


# --- pairs: two components a seat scores with in one stratum


PAIR_WORDS = ("wins more than its items", "wins less than its items")
_PAIR_KEY = 1 << 16  # a pair's key: item_a * _PAIR_KEY + item_b


def component_pair_effects(rows, attribution: Attribution, valuation: Valuation | None = None,
                           min_count: int = MIN_TRIGGERS, confidence: float = 0.95,
                           alpha: float = 0.05) -> pd.DataFrame:
    """One row per (player count, unordered pair of components triggered together), pairs seen at least once.

    A pair is the two components one seat triggers in one stratum (``Valuation.stratum_field``, e.g.
    a scoring round), when it triggers exactly two there; this asks whether a pair pays or wins more
    than its two components suggest. Columns: ``n_players, item_a, item_b`` (item_a < item_b),
    ``id_a, id_b, group_a, group_b``; ``count`` triggers of the pair (seat-strata); ``payoff`` mean
    combined payout of the two components in score units with ``payoff_sd, payoff_low/high`` (t),
    ``net_payoff, net_sd, net_low/high`` the same minus the costs; ``payoff_excess`` = payoff minus
    the two components' own mean payoffs over all their triggers of that player count (positive: the
    pair feeds itself, one component's payout paying for the other); ``trigger_seats`` seat-games
    that triggered the pair, ``win_rate`` their share of wins with ``win_low/high`` (Wilson);
    ``win_diff`` with ``diff_low/high``: how much more often the seat wins than its two components
    and its stratum predict (``_PairExcess``), ``p_value``,
    ``q_value`` (Benjamini–Hochberg over every tested pair of every player count), ``flagged``,
    ``direction`` (``PAIR_WORDS``), ``note`` ("too few games" below ``min_count`` triggering seat-games).
    """
    valuation = valuation or Valuation()
    catalogue = catalogue_frame(attribution)
    if not valuation.stratum_field:  # no stratum, no pairs
        return pd.DataFrame(columns=list(_PAIR_COLUMNS))
    frame = _keyed(rows, _EVENT_COLUMNS, attribution)
    pairs = _stratum_pairs(frame, attribution, valuation)
    keys = ["item_a", "item_b"]
    singles, moments, strata = _collect_all(
        _triggers(frame, attribution, valuation).group_by("n_players", "item")
        .agg(pl.col("payoff").mean().alias("single")),
        pairs.group_by("n_players", *keys)
        .agg(pl.len().alias("count"), pl.col("payoff").mean(), pl.col("payoff").std().alias("payoff_sd"),
             pl.col("net_payoff").mean(), pl.col("net_payoff").std().alias("net_sd")),
        pairs.group_by("n_players", "stratum", *keys).agg(pl.len().alias("count"), pl.col("won").sum()))
    excess, seats = _pairs_by_slices(frame, strata, attribution, valuation)
    moments = (
        moments
        .join(singles.rename({"item": "item_a", "single": "single_a"}), on=["n_players", "item_a"], how="left")
        .join(singles.rename({"item": "item_b", "single": "single_b"}), on=["n_players", "item_b"], how="left")
        .with_columns((pl.col("payoff") - pl.col("single_a") - pl.col("single_b")).alias("payoff_excess"))
        .drop("single_a", "single_b")
        .sort("n_players", *keys)
    )
    tables = []
    for n in sorted(int(x) for x in moments["n_players"].unique().to_list()):
        table = moments.filter(pl.col("n_players") == n).to_pandas()
        tables.append(_pair_table(n, table, seats, excess[n].table(_z(confidence)), min_count, confidence))
    if not tables:
        return pd.DataFrame(columns=list(_PAIR_COLUMNS))
    table = _flag(pd.concat(tables, ignore_index=True), alpha, "win_diff", PAIR_WORDS)
    meta = catalogue.set_index("item")
    for side in ("a", "b"):
        items = table[f"item_{side}"]
        table[f"id_{side}"] = items.map(meta["id"])
        table[f"group_{side}"] = items.map(meta["group"])
    return table[list(_PAIR_COLUMNS)]


def _pairs_by_slices(frame: pl.LazyFrame, strata: pl.DataFrame, attribution: Attribution,
                     valuation: Valuation) -> tuple[dict[int, "_PairExcess"], pd.DataFrame]:
    """Per player count the ``_PairExcess`` of the ``_keyed`` rows ``frame``, from ``strata`` (the
    seat-strata summed per player count, stratum and pair: ``count``, ``won``) and then the clusters
    slice by slice (``deal_slices``, as ``_within_by_slices``); and the seat-games per (player count,
    pair, seat), ``n1`` with ``w1`` won, counted slice by slice (a seat-game lies in one slice)."""
    excess = {n: _PairExcess(part["stratum"].to_numpy(), part["item_a"].to_numpy().astype(np.int64),
                             part["item_b"].to_numpy().astype(np.int64), part["count"].to_numpy().astype(np.float64),
                             part["won"].to_numpy().astype(np.float64))
              for (n,), part in strata.partition_by("n_players", as_dict=True).items()}
    seats = []
    for where in deal_slices(frame):
        pairs = _stratum_pairs(frame.filter(where), attribution, valuation)
        cells, counted = _collect_all(
            pairs.group_by("n_players", "item_a", "item_b", "stratum", "cluster")
            .agg(pl.len().alias("count"), pl.col("won").sum()),
            pairs.group_by("n_players", "item_a", "item_b", "seat")
            .agg(pl.col("game").n_unique().alias("n1"), pl.col("game").filter(pl.col("won")).n_unique().alias("w1")),
            shared=True)
        seats.append(counted)
        for (n,), part in cells.partition_by("n_players", as_dict=True).items():
            excess[n].add(part["stratum"].to_numpy(), part["item_a"].to_numpy().astype(np.int64),
                          part["item_b"].to_numpy().astype(np.int64), part["cluster"].to_numpy(),
                          part["count"].to_numpy().astype(np.float64), part["won"].to_numpy().astype(np.float64))
    seats = (pl.concat(seats).group_by("n_players", "item_a", "item_b", "seat").agg(pl.col("n1", "w1").sum())
             .to_pandas())
    return excess, seats


class _PairExcess:
    """How much more often the seat of a pair wins than its two components predict (one player count),
    in two passes over seat-strata summed into cells: the constructor takes them per (stratum, pair),
    ``add`` a slice of whole clusters per (stratum, pair, cluster), ``table`` gives the rows.

    A linear model of winning over every seat-stratum (a seat's triggers in one stratum value), a term
    per stratum (run, strategy, seat and stratum value) plus a term per component, so a seat-stratum
    with components a and b is predicted stratum + a + b, gives each seat-stratum its residual; a
    pair's excess is the mean residual of its seat-strata: how much more often its seat wins than its
    two components predict. Its variance is clustered by deal (CR1), from each cluster's sum of the
    pair's residuals about that mean, of which only the squares are kept; the model's own estimation
    error is left out (each component term rests on many more seat-strata than one pair)."""

    def __init__(self, stratum: np.ndarray, a: np.ndarray, b: np.ndarray, count: np.ndarray,
                 wins: np.ndarray) -> None:
        """(P,) each: ``stratum``, ``a``, ``b`` (item_a < item_b) int64, ``count`` seat-strata and
        ``wins`` their wins (float64) per (stratum, pair), in any order (they are sorted, so that the
        residuals are summed in one order every time)."""
        order = np.lexsort((b, a, stratum))
        stratum, a, b, count, wins = (x[order] for x in (stratum, a, b, count, wins))
        self.strata, st = np.unique(stratum, return_inverse=True)
        self.coef = _additive_coef(st, a, b, wins, count)
        self.pairs, index = np.unique(a * _PAIR_KEY + b, return_inverse=True)
        self.n = np.bincount(index, count)
        self.mean = np.bincount(index, wins - count * self._fit(st, a, b)) / self.n
        self.squares = np.zeros(len(self.pairs))  # (P,) sums over clusters of squared residual sums
        self.clusters = np.zeros(len(self.pairs))  # (P,) clusters with the pair

    def _fit(self, st: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        n_strata = len(self.strata)
        return self.coef[st] + self.coef[n_strata + a] + self.coef[n_strata + b]

    def add(self, stratum: np.ndarray, a: np.ndarray, b: np.ndarray, cluster: np.ndarray, count: np.ndarray,
            wins: np.ndarray) -> None:
        """A slice of whole clusters: seat-strata and wins per (stratum, pair, cluster), (U,) each, in any
        order (they are sorted, so that the sums are added in one order every time)."""
        order = np.lexsort((stratum, b, a, cluster))
        stratum, a, b, cluster, count, wins = (x[order] for x in (stratum, a, b, cluster, count, wins))
        index = np.searchsorted(self.pairs, a * _PAIR_KEY + b)
        residual = wins - count * self._fit(np.searchsorted(self.strata, stratum), a, b)  # each cell's sum
        _, cl = np.unique(cluster, return_inverse=True)
        cells, cell_index = np.unique(index * (int(cl.max()) + 1) + cl, return_inverse=True)
        cell_pair = cells // (int(cl.max()) + 1)  # (C,) pair of each (pair, cluster) cell
        deviation = np.bincount(cell_index, residual - count * self.mean[index])  # (C,) cluster sums about the mean
        self.squares += np.bincount(cell_pair, deviation**2, minlength=len(self.pairs))
        self.clusters += np.bincount(cell_pair, minlength=len(self.pairs))

    def table(self, z: float) -> pd.DataFrame:
        """Per pair: ``item`` (item_a * _PAIR_KEY + item_b), ``win_excess``, ``excess_low/high`` (normal
        interval at the quantile ``z``) and ``excess_se``."""
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = np.where(self.clusters > 1, self.clusters / (self.clusters - 1), np.nan)
            se = np.sqrt(self.squares * scale) / self.n
        return pd.DataFrame({"item": self.pairs, "win_excess": self.mean, "excess_low": self.mean - z * se,
                             "excess_high": self.mean + z * se, "excess_se": se})


def _additive_coef(stratum: np.ndarray, a: np.ndarray, b: np.ndarray, y: np.ndarray,
                   count: np.ndarray) -> np.ndarray:
    """Least-squares coefficients of y ~ stratum + component a + component b, (S + components,) float64
    (the strata first), from cells of ``count`` (U,) units with (U,) int64 ``stratum`` (0..S-1), ``a``
    and ``b`` (component indices, a != b) and (U,) float64 ``y``, the cell's sum of the outcome. The
    normal equations are small (S + components unknowns) and built from counts; the one redundant
    direction (a constant moved between strata and components) leaves the fitted values unique."""
    n_strata, n_items = int(stratum.max()) + 1, int(max(a.max(), b.max())) + 1
    size = n_strata + n_items
    cols = np.stack([stratum, n_strata + a, n_strata + b], axis=1)  # (U, 3) the three ones of each row
    pairs = (cols[:, :, None] * size + cols[:, None, :]).reshape(-1)
    gram = np.bincount(pairs, np.repeat(count, 9), minlength=size * size).reshape(size, size)
    moment = np.bincount(cols.reshape(-1), np.repeat(y, 3), minlength=size)
    return np.linalg.lstsq(gram, moment, rcond=None)[0]


def _stratum_pairs(frame: pl.LazyFrame, attribution: Attribution, valuation: Valuation) -> pl.LazyFrame:
    """One row per (game, seat, stratum value) with exactly two triggered components, as a lazy query over the
    ``_keyed`` rows ``frame``: ``n_players, game, seat, won, cluster, stratum, item_a, item_b``
    (item_a < item_b) and the summed ``payoff, net_payoff``.

    A seat's triggers of one stratum value lie side by side in its event list (a run of equal stratum field
    values), so each row's list is read as plain lists of that field, the item and the two payoffs,
    each beside itself shifted by one or two places; a row-wise filter after the explode then keeps
    the first trigger of every run of exactly two. Every step is row by row: nothing is held per
    seat-stratum or per game while the rows stream past."""
    field = pl.element().struct.field
    payoff, net = _values(attribution, valuation, field, attribution.id_field)
    lists = {"phase": field(valuation.stratum_field).cast(pl.Int64), "item": field(attribution.id_field).cast(pl.Int16),
             "payoff": payoff, "net_payoff": net}
    shifted = {"phase_before": ("phase", 1), "phase_after": ("phase", -1), "phase_after_next": ("phase", -2),
               "item_next": ("item", -1), "payoff_next": ("payoff", -1), "net_next": ("net_payoff", -1)}
    item, partner, phase = pl.col("item"), pl.col("item_next"), pl.col("phase")
    first = ((phase == pl.col("phase_after")) & (phase != pl.col("phase_before")).fill_null(True)
             & (phase != pl.col("phase_after_next")).fill_null(True) & (item != partner))
    return (frame.select("n_players", "game", "seat", "won", "cluster", "seat_key",
                         *(pl.col("events").list.eval(expr).alias(name) for name, expr in lists.items()))
            .with_columns(pl.col(source).list.shift(n).alias(name) for name, (source, n) in shifted.items())
            .explode(*lists, *shifted)
            .filter(first)
            .select("n_players", "game", "seat", "won", "cluster",
                    (pl.col("seat_key") * _STRATA + phase).alias("stratum"),
                    pl.min_horizontal(item, partner).alias("item_a"), pl.max_horizontal(item, partner).alias("item_b"),
                    pl.col("payoff") + pl.col("payoff_next"), pl.col("net_payoff") + pl.col("net_next")))


def _pair_table(n: int, table: pd.DataFrame, seats: pd.DataFrame, excess: pd.DataFrame, min_count: int,
                confidence: float) -> pd.DataFrame:
    """Intervals and win excess of the pairs of one player count (``table``: their moments;
    ``excess``: ``_PairExcess.table`` of their seat-strata)."""
    keys = ["item_a", "item_b"]
    n1, w1 = _treated_counts(seats, keys, table, n)
    table["payoff_low"], table["payoff_high"] = t_bounds(table["payoff"], table["payoff_sd"], table["count"],
                                                         confidence)
    table["net_low"], table["net_high"] = t_bounds(table["net_payoff"], table["net_sd"], table["count"], confidence)
    table["trigger_seats"] = n1.sum(axis=1)
    wins = w1.sum(axis=1)
    table["win_rate"] = _ratio(wins, table["trigger_seats"])
    table["win_low"], table["win_high"] = wilson(wins, table["trigger_seats"], confidence)
    excess = excess.set_index("item").reindex(table["item_a"].to_numpy().astype(np.int64) * _PAIR_KEY
                                              + table["item_b"].to_numpy().astype(np.int64))
    enough = (table["trigger_seats"] >= min_count).to_numpy()
    for column, source in (("win_diff", "win_excess"), ("diff_low", "excess_low"), ("diff_high", "excess_high")):
        table[column] = np.where(enough, excess[source].to_numpy(dtype=np.float64), math.nan)
    table["p_value"] = np.where(enough, _two_sided_p(excess["win_excess"], excess["excess_se"]), math.nan)
    table["note"] = np.where(enough, "", TOO_FEW)
    return table


_PAIR_COLUMNS = (
    "n_players", "item_a", "item_b", "id_a", "id_b", "group_a", "group_b", "count", "payoff", "payoff_sd",
    "payoff_low", "payoff_high", "net_payoff", "net_sd", "net_low", "net_high", "payoff_excess", "trigger_seats",
    "win_rate", "win_low", "win_high", "win_diff", "diff_low", "diff_high", "p_value", "q_value", "flagged",
    "direction", "note",
)


# --- groups


def group_summary(spreads: pd.DataFrame, confidence: float = 0.95, alpha: float = 0.05) -> pd.DataFrame:
    """One row per (player count, group), pooled from the per-item counts of ``spreads`` (the
    pooled means and rates of all triggers of the group's items, not averages of item averages).

    Columns: ``n_players, group, items``; ``items_seen`` (triggered at least once); ``on_board``
    item-games; ``triggered``; ``trigger_rate`` = on-board item-games with a trigger / on-board
    item-games with ``trigger_low/high``; ``payoff`` and ``net_payoff`` pooled means per trigger with
    ``payoff_low/high``, ``net_low/high`` (t, pooled sd); ``penalty_rate`` per trigger with
    ``penalty_low/high``; the raw effect: ``raw_diff`` (the items' ``raw_diff`` weighted by their
    triggering seat-games), ``raw_more`` and ``raw_less`` (items whose raw effect is significant,
    raw_q < alpha, above or below 0); the flag within the group: ``flagged`` items, of them
    ``too_much`` and ``too_little``.
    """
    rows = []
    for (n, group), g in spreads.groupby(["n_players", "group"], sort=True):
        row = {"n_players": int(n), "group": group, "items": len(g), "items_seen": int((g["triggered"] > 0).sum()),
               "on_board": int(g["on_board"].sum()), "triggered": int(g["triggered"].sum()),
               "triggered_games": int(g["triggered_games"].sum()), "penalties": int(g["penalties"].sum())}
        for column, sd in (("payoff", "payoff_sd"), ("net_payoff", "net_sd")):
            row[column], row[f"_{column}_sd"] = _pooled(g["triggered"].to_numpy(), g[column].to_numpy(),
                                                        g[sd].to_numpy())
        raw = g[g["raw_diff"].notna()]
        seats = raw["trigger_seats"].to_numpy(dtype=np.float64)
        row["raw_diff"] = float(seats @ raw["raw_diff"].to_numpy() / seats.sum()) if seats.sum() > 0 else math.nan
        significant = raw["raw_q"] < alpha
        row["raw_more"] = int((significant & (raw["raw_diff"] > 0)).sum())
        row["raw_less"] = int((significant & (raw["raw_diff"] < 0)).sum())
        row["flagged"] = int(g["flagged"].sum())
        row["too_much"] = int((g["direction"] == "pays too much").sum())
        row["too_little"] = int((g["direction"] == "pays too little").sum())
        rows.append(row)
    columns = ["n_players", "group", "items", "items_seen", "on_board", "triggered", "trigger_rate", "trigger_low",
               "trigger_high", "payoff", "payoff_low", "payoff_high", "net_payoff", "net_low", "net_high",
               "penalty_rate", "penalty_low", "penalty_high", "raw_diff", "raw_more", "raw_less", "flagged", "too_much",
               "too_little"]
    if not rows:
        return pd.DataFrame(columns=columns)
    table = pd.DataFrame(rows)
    table["trigger_rate"] = _ratio(table["triggered_games"], table["on_board"])
    table["trigger_low"], table["trigger_high"] = wilson(table["triggered_games"], table["on_board"], confidence)
    table["payoff_low"], table["payoff_high"] = t_bounds(table["payoff"], table["_payoff_sd"], table["triggered"],
                                                         confidence)
    table["net_low"], table["net_high"] = t_bounds(table["net_payoff"], table["_net_payoff_sd"], table["triggered"],
                                                   confidence)
    table["penalty_rate"] = _ratio(table["penalties"], table["triggered"])
    table["penalty_low"], table["penalty_high"] = wilson(table["penalties"], table["triggered"], confidence)
    return table[columns]


def _pooled(n: np.ndarray, means: np.ndarray, sds: np.ndarray) -> tuple[float, float]:
    """Mean and sd of the union of groups from their sizes, means and sds: (G,) arrays.

    The law of total variance; groups of one value (sd NaN) add no within-group spread.
    """
    ok = n > 0
    n, means, sds = n[ok].astype(np.float64), means[ok], np.nan_to_num(sds[ok])
    total = n.sum()
    if total == 0:
        return math.nan, math.nan
    mean = float(n @ means / total)
    if total < 2:
        return mean, math.nan
    ss = ((n - 1) * sds**2).sum() + (n * (means - mean) ** 2).sum()
    return mean, math.sqrt(ss / (total - 1))
