"""Component attribution: what each component outcomes are attributed to (a game's cards, auction
items, buildings) pays when a seat scores with it, and whether the seats that score with it win more
often than the seats that score with the other components of its group.

Pure functions over stored result rows (polars LazyFrame / DataFrame or pandas in, pandas out); they
import no engine code. What a component is comes from the game's profile as stored with the run
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
  (``_within_effects``), because groups may differ as a whole. The events of the item are set against
  the events of the group's other items by the same seat, strategy and run (and, if the valuation
  names a ``stratum_field``, the same value of it: e.g. the same round), the difference of win rates
  standardised to the item's events; its variance is clustered by deal (``deal`` column, else by
  game), because the seats of one game share one winner, a seat can score several items of a group,
  and games of one deal share their board. The same comparison of ``net_payoff`` gives what the item
  pays against its group. A pair of items scored together in one stratum is judged against what its
  two items predict (``_pair_excess``). It is an association, not a causal effect: strategies choose
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
from bgsim.sim.stats.intervals import t_bounds, wilson
from scipy import stats
from statsmodels.stats.multitest import multipletests

__all__ = ["MIN_TRIGGERS", "PAIR_WORDS", "Valuation", "catalogue_frame", "group_summary", "pair_effects", "spreads",
           "triggers"]

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


def _column_names(rows) -> list[str]:
    return rows.collect_schema().names() if isinstance(rows, pl.LazyFrame) else [str(c) for c in rows.columns]


def _collect(rows, columns: tuple[str, ...], attribution: Attribution) -> pl.DataFrame:
    """The needed columns of ``rows`` (polars or pandas) as a polars DataFrame, the attribution's board
    and events columns renamed ``board`` and ``events``, with ``run_id`` as a categorical and three
    Int64 keys: ``game`` (run code * 2^40 + game_index: grouping by one integer instead of a string
    and an integer is what keeps millions of events fast), ``cluster`` (the deal if there is a
    ``deal`` column, since the games of one deal share their board; else the game) and ``seat_key``
    (run, strategy if there is a ``strategy`` column, seat)."""
    names = {"board": attribution.board_column, "events": attribution.events_column}
    columns = tuple(names.get(c, c) for c in columns)
    present = _column_names(rows)
    wanted = [*columns, *(c for c in ("deal", "strategy") if c in present and c not in columns)]
    frame = pl.from_pandas(rows[wanted]) if isinstance(rows, pd.DataFrame) else rows.lazy().select(wanted)
    frame = frame.rename({v: k for k, v in names.items() if v in wanted})
    wanted = [{v: k for k, v in names.items()}.get(c, c) for c in wanted]
    run = pl.col("run_id").cast(pl.String).cast(pl.Categorical)
    code = run.to_physical().cast(pl.Int64)
    game = code * (1 << 40) + pl.col("game_index").cast(pl.Int64)
    cluster = pl.col("deal").cast(pl.Int64) if "deal" in wanted else game
    strategy = (pl.col("strategy").cast(pl.String).cast(pl.Categorical).to_physical().cast(pl.Int64)
                if "strategy" in wanted else pl.lit(0, pl.Int64))
    seat_key = (code * (1 << 20) + strategy) * 16 + pl.col("seat").cast(pl.Int64)
    return frame.lazy().with_columns(run.alias("run_id"), game.alias("game"), cluster.alias("cluster"),
                                     seat_key.alias("seat_key")).collect()


_STRATA = 256  # stratum field values per seat: the stratum key is seat_key * _STRATA + value


def triggers(rows, attribution: Attribution, valuation: Valuation | None = None) -> pl.DataFrame:
    """One row per event (a seat scoring with an item): ``run_id, n_players, game_index, game`` (an
    Int64 key of run_id and game_index), ``seat, won``, ``item`` (the event's id field) and the
    event's other fields, plus ``payoff`` (its amounts valued in score units) and ``net_payoff``
    (minus what was handed in), both float64.

    The building block of every table here, exposed so that other reports can slice it.
    """
    return _triggers(rows, attribution, valuation or Valuation()).drop("cluster", "stratum")


def _triggers(rows, attribution: Attribution, valuation: Valuation) -> pl.DataFrame:
    """``triggers`` plus the Int64 ``cluster`` and ``stratum`` (run, strategy, seat and the valuation's
    stratum field) keys of the within-group comparison."""
    frame = rows if _is_keyed(rows) else _collect(rows, ("run_id", "n_players", "game_index", "seat", "won",
                                                         "events"), attribution)
    catalogue = catalogue_frame(attribution)
    keys = ("run_id", "n_players", "game_index", "game", "cluster", "seat_key", "seat", "won")
    log = (frame.select(*keys, "events").explode("events").filter(pl.col("events").is_not_null())
           .unnest("events").rename({attribution.id_field: "item"}))
    fields = [c for c in log.columns if c not in keys]
    stratum = pl.col("seat_key") * _STRATA
    if valuation.stratum_field:
        stratum = stratum + pl.col(valuation.stratum_field).cast(pl.Int64)
    used = [column for _, column, _ in valuation.costs if column]
    log = log.with_columns(pl.col("item").cast(pl.Int16), stratum.alias("stratum"))
    if used:
        extra = pl.DataFrame({"item": catalogue["item"].to_numpy().astype(np.int16),
                              **{c: catalogue[c].to_numpy().astype(np.float64) for c in used}})
        log = log.join(extra, on="item", how="left")
    payoff = None
    for name, weight in _weights(valuation, attribution).items():
        term = pl.col(name).cast(pl.Float64) * weight
        payoff = term if payoff is None else payoff + term
    handed_in = None
    for name, column, units in valuation.costs:
        term = pl.col(name).cast(pl.Float64)
        if column:
            term = term * pl.col(column).fill_null(0.0)
        term = term * units
        handed_in = term if handed_in is None else handed_in + term
    net = payoff - handed_in if handed_in is not None else payoff
    return log.with_columns(payoff.alias("payoff"), net.alias("net_payoff")).select(
        "run_id", "n_players", "game_index", "game", "seat", "won", *fields, "payoff", "net_payoff", "cluster",
        "stratum")


def _is_keyed(rows) -> bool:
    return (isinstance(rows, pl.DataFrame) and {"game", "cluster", "seat_key"} <= set(rows.columns)
            and rows.schema["game"] == pl.Int64)


def _games(frame: pl.DataFrame) -> pl.DataFrame:
    """One row per game: ``n_players, game, winner`` (seat) and ``board`` if ``frame`` has
    it; a game is found through its single winner."""
    extra = ["board"] if "board" in frame.columns else []
    return frame.filter(pl.col("won")).select("n_players", "game", pl.col("seat").alias("winner"), *extra)


def _seat_totals(games: pl.DataFrame, n: int) -> tuple[int, np.ndarray]:
    """Games of player count ``n`` and wins per seat: (n,) int64."""
    sub = games.filter(pl.col("n_players") == n)
    wins = np.bincount(sub["winner"].to_numpy().astype(np.int64), minlength=n)[:n]
    return sub.height, wins


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


def _within_effects(group: np.ndarray, item: np.ndarray, cluster: np.ndarray, stratum: np.ndarray,
                    values: Mapping[str, np.ndarray], z: float, min_count: int) -> pd.DataFrame:
    """Each item against the other items of its group, stratified and clustered; one row per item.

    Units, each (U,): ``group``, ``item`` (an item lies in one group), ``cluster`` and ``stratum``, all
    int64; ``values``: name -> (U,) float64 outcome of each unit. For item c of group g the treated
    units are c's and the comparison units are the other items' units of g. In every stratum with
    both, the comparison mean is taken; weighted by c's units it gives the comparison standardised
    to c, and the difference is mean(c) - that. Its variance is the cluster sandwich of the
    linearised estimator (residuals from each stratum's treated and comparison means), times
    G / (G - 1) for G clusters: units of one cluster may depend on each other in any way.

    Items with fewer than ``min_count`` units in strata with a comparison, or fewer than
    ``min_count`` comparison units there, get NaN (and are not worth the arithmetic). Columns:
    ``item``, ``treated`` and ``compared`` (those unit counts), and per value name v: ``v_rate``
    (c's mean), ``v_comp`` (the standardised comparison), ``v_diff``, ``v_low``, ``v_high`` (normal
    interval at the quantile ``z``) and ``v_se``.
    """
    rows = []
    for g in np.unique(group):
        sel = np.flatnonzero(group == g)
        items = item[sel]
        _, cl = np.unique(cluster[sel], return_inverse=True)
        _, st = np.unique(stratum[sel], return_inverse=True)
        n_clusters, n_strata = int(cl.max()) + 1, int(st.max()) + 1
        vals = {name: np.asarray(v, dtype=np.float64)[sel] for name, v in values.items()}
        n_all = np.bincount(st, minlength=n_strata)
        sums = {name: np.bincount(st, v, minlength=n_strata) for name, v in vals.items()}
        for c in np.unique(items):
            rows.append(_within_one(int(c), items == c, cl, st, n_clusters, n_all, vals, sums, z, min_count))
    columns = ["item", "treated", "compared"] + [f"{v}_{s}" for v in values
                                                 for s in ("rate", "comp", "diff", "low", "high", "se")]
    return pd.DataFrame(rows, columns=columns)


def _within_one(c: int, treated: np.ndarray, cl: np.ndarray, st: np.ndarray, n_clusters: int, n_all: np.ndarray,
                vals: Mapping[str, np.ndarray], sums: Mapping[str, np.ndarray], z: float, min_count: int) -> dict:
    """One item of ``_within_effects``: ``treated`` (U,) bool marks its units among its group's;
    ``cl``, ``st`` (U,) int64 cluster and stratum indices; ``n_all`` (S,) units and ``sums`` (S,)
    value sums per stratum."""
    st1 = st[treated]
    n1 = np.bincount(st1, minlength=len(n_all))
    n0 = n_all - n1
    keep = (n1 > 0) & (n0 > 0)
    n_treated, n_compared = int(n1[keep].sum()), int(n0[keep].sum())
    row: dict = {"item": c, "treated": n_treated, "compared": n_compared}
    if n_treated < max(min_count, 1) or n_compared < max(min_count, 1):
        return row | {f"{v}_{s}": math.nan for v in vals for s in ("rate", "comp", "diff", "low", "high", "se")}
    weight = np.where(keep, n1 / np.maximum(n0, 1), 0.0)  # (S,) comparison unit weight, per treated unit
    for name, v in vals.items():
        s1 = np.bincount(st1, v[treated], minlength=len(n_all))
        p1 = np.divide(s1, n1, out=np.zeros(len(n_all)), where=n1 > 0)
        p0 = np.divide(sums[name] - s1, n0, out=np.zeros(len(n_all)), where=n0 > 0)
        rate = float(s1[keep].sum()) / n_treated
        comp = float((n1 * p0)[keep].sum()) / n_treated
        influence = -weight[st] * (v - p0[st])
        influence[treated] = keep[st1] * (v[treated] - p1[st1])
        per_cluster = np.bincount(cl, influence, minlength=n_clusters)
        scale = n_clusters / (n_clusters - 1) if n_clusters > 1 else math.nan
        se = math.sqrt(float(per_cluster @ per_cluster) * scale) / n_treated
        diff = rate - comp
        row |= {f"{name}_rate": rate, f"{name}_comp": comp, f"{name}_diff": diff, f"{name}_low": diff - z * se,
                f"{name}_high": diff + z * se, f"{name}_se": se}
    return row


# --- raw win effect (against games without the card)


def _raw_effect(n1: np.ndarray, w1: np.ndarray, n0: np.ndarray, w0: np.ndarray) -> tuple[float, float, float]:
    """(base rate, difference, its standard error) of one card from per-seat counts, each
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


def _seat_counts(t: pl.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Treated seat-games ``n1`` and their wins ``w1`` per (``n_players``, keys, seat) from ``t``
    (triggers: n_players, keys, game, seat, won). A seat that triggers an item twice in one game
    counts once."""
    return (t.group_by("n_players", *keys, "seat")
            .agg(pl.col("game").n_unique().alias("n1"), pl.col("game").filter(pl.col("won")).n_unique().alias("w1"))
            .to_pandas())


def _treated_counts(counts: pd.DataFrame, keys: list[str], index: pd.DataFrame, n: int) -> tuple[np.ndarray, ...]:
    """Per-seat treated seat-games and wins, (M, n) int64 each, for the M items of ``index``
    (columns ``keys``) from ``_seat_counts`` rows."""
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


# --- per card


def _pooled_moments(t: pl.DataFrame, keys: list[str], attribution: Attribution,
                    valuation: Valuation) -> pl.DataFrame:
    penalty = (pl.col(valuation.penalty_field).cast(pl.Int64).sum() if valuation.penalty_field
               else pl.lit(0, pl.Int64))
    amounts = attribution.payoff_fields or tuple(_weights(valuation, attribution))
    return t.group_by(*keys).agg(
        pl.len().alias("triggered"),
        pl.col("game").n_unique().alias("triggered_games"),
        pl.col("payoff").mean().alias("payoff"), pl.col("payoff").std().alias("payoff_sd"),
        pl.col("net_payoff").mean().alias("net_payoff"), pl.col("net_payoff").std().alias("net_sd"),
        *(pl.col(k).cast(pl.Float64).mean().alias(f"mean_{k}") for k in amounts),
        penalty.alias("penalties"),
    )


def spreads(rows, attribution: Attribution, valuation: Valuation | None = None, confidence: float = 0.95,
            alpha: float = 0.05, min_triggers: int = MIN_TRIGGERS) -> pd.DataFrame:
    """One row per (player count, item), every item of the attribution's catalogue even if never seen.
    Below, *card* is an item, *deck* its group, *trigger* an event, *VP* the score unit.

    Columns:

    - ``n_players, item, id, group`` and the catalogue's text columns; ``games`` (games of that player count);
    - ``on_board`` games with the card on the board, ``on_board_rate`` with ``on_board_low/high``;
    - ``triggered`` seat-triggers; ``triggered_games`` on-board games in which some seat triggered it,
      ``trigger_rate`` = triggered_games / on_board with ``trigger_low/high``; ``triggers_per_game``
      = triggered / on_board (a card can be triggered by more than one seat);
    - ``payoff`` mean payout per trigger in VP-equivalents, ``payoff_sd``, ``payoff_low/high`` (t);
      ``net_payoff``, ``net_sd``, ``net_low/high`` the same minus the material handed in;
      ``net_vs_deck`` with ``net_vs_deck_low/high``: net payoff per trigger minus that of the other
      cards of its deck in the same strata (``_within_effects``); ``mean_vp, mean_coins, mean_bread,
      mean_steps`` raw means per trigger (vp net of penalties);
    - ``penalties`` (-4 VP penalties), ``penalty_rate`` per trigger with ``penalty_low/high``;
    - the flag, within the deck (``_within_effects``): ``trigger_seats`` seat-games that triggered the
      card; ``compared_triggers`` its triggers in strata where other cards of its deck were
      triggered, ``deck_triggers`` those other cards' triggers there; ``win_rate`` share of the
      compared triggers whose seat won, ``deck_rate`` the deck's other cards' rate standardised to
      them, ``win_diff`` = win_rate - deck_rate with ``diff_low/high``, ``p_value``, ``q_value``
      (Benjamini–Hochberg over every tested card of every player count), ``flagged`` (q < alpha),
      ``direction`` ("pays too much" / "pays too little" for flagged cards, else "");
    - the raw effect, descriptive: ``control_seats`` seat-games in games without the card,
      ``base_rate`` their win rate standardised to the triggering seats, ``raw_diff`` = the triggering
      seat-games' win rate - base_rate with ``raw_low/high``, ``raw_q`` (Benjamini–Hochberg as above);
    - ``note``: "" or why there is no win effect ("never on the board", "too few games" when fewer
      than ``min_triggers`` triggering seat-games, "no other card of its deck to compare").
    """
    valuation = valuation or Valuation()
    catalogue = catalogue_frame(attribution)
    frame = _collect(rows, ("run_id", "n_players", "game_index", "seat", "won", "board", "events"), attribution)
    games = _games(frame)
    t = _triggers(frame, attribution, valuation)
    counts = sorted(int(n) for n in frame["n_players"].unique().to_list())
    board = (games.explode("board").rename({"board": "item"}).filter(pl.col("item") >= 0)
             .with_columns(pl.col("item").cast(pl.Int16)))
    moments = _pooled_moments(t, ["n_players", "item"], attribution, valuation).to_pandas()
    seats = _seat_counts(t, ["item"])
    z = _z(confidence)
    tables = [_spreads_for(n, games, board, t, moments, seats, catalogue, confidence, z, min_triggers)
              for n in counts]
    if not tables:
        return pd.DataFrame(columns=[*_SPREAD_HEAD, *label_columns(catalogue), *_SPREAD_BODY, *_SPREAD_TAIL])
    table = _flag(pd.concat(tables, ignore_index=True), alpha)
    raw_p = _two_sided_p(table["raw_diff"], table["_raw_se"])
    table["raw_q"] = _bh(raw_p, table["_raw_tested"].to_numpy(dtype=bool), alpha)
    means = [c for c in table.columns if c.startswith("mean_")]
    return table[[*_SPREAD_HEAD, *label_columns(catalogue), *_SPREAD_BODY, *means, *_SPREAD_TAIL]]


def _spreads_for(n: int, games: pl.DataFrame, board: pl.DataFrame, t: pl.DataFrame, moments: pd.DataFrame,
                 seats: pd.DataFrame, catalogue: pd.DataFrame, confidence: float, z: float,
                 min_triggers: int) -> pd.DataFrame:
    """The rows of player count ``n``; ``t``, ``moments`` and ``seats`` hold every player count."""
    n_games, seat_wins = _seat_totals(games, n)
    table = catalogue[["item", "id", "group", *label_columns(catalogue)]].copy()
    table.insert(0, "n_players", n)
    table["games"] = n_games
    on_board = (board.filter(pl.col("n_players") == n).group_by("item", "winner").agg(pl.len().alias("g"))
                .to_pandas())
    on_wins = np.zeros((len(table), n), dtype=np.int64)  # (cards, seats) on-board games won by seat
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
    table = table.merge(_item_within(t.filter(pl.col("n_players") == n), catalogue, z, min_triggers), on="item",
                        how="left")
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


def _item_within(t: pl.DataFrame, catalogue: pd.DataFrame, z: float, min_triggers: int) -> pd.DataFrame:
    """Within-group win and net-payoff comparison of every item scored in ``t`` (one player count)."""
    columns = ["item", "compared_triggers", "group_triggers", "win_rate", "group_rate", "win_diff", "diff_low",
               "diff_high", "p_value", "net_vs_group", "net_vs_group_low", "net_vs_group_high"]
    if t.height == 0:
        return pd.DataFrame(columns=columns)
    groups = list(dict.fromkeys(catalogue["group"]))  # in catalogue order
    deck_of = catalogue.set_index("item")["group"].map(groups.index)
    card = t["item"].to_numpy().astype(np.int64)
    within = _within_effects(deck_of.reindex(card).to_numpy(dtype=np.int64), card, t["cluster"].to_numpy(),
                             t["stratum"].to_numpy(), {"won": t["won"].to_numpy().astype(np.float64),
                                                       "net": t["net_payoff"].to_numpy()}, z, min_triggers)
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


# --- adjacent pairs


PAIR_WORDS = ("wins more than its items", "wins less than its items")
_PAIR_KEY = 1 << 16  # a pair's key: item_a * _PAIR_KEY + item_b


def pair_effects(rows, attribution: Attribution, valuation: Valuation | None = None, min_count: int = MIN_TRIGGERS,
                 confidence: float = 0.95, alpha: float = 0.05) -> pd.DataFrame:
    """One row per (player count, unordered pair of cards triggered together), pairs seen at least once.

    The two cards a seat triggers in one pass scoring lie on the two slots beside its disc, so they
    are an adjacent pair; this asks whether a pair pays or wins more than its two cards suggest.
    Columns: ``n_players, item_a, item_b`` (item_a < item_b), ``id_a, id_b, deck_a, deck_b``;
    ``count`` seat-pass triggers; ``payoff`` mean combined payout of the two cards in VP-equivalents
    with ``payoff_sd, payoff_low/high`` (t), ``net_payoff, net_sd, net_low/high`` the same minus the
    material handed in; ``payoff_excess`` = payoff minus the two cards' own mean payoffs over all
    their triggers of that player count (positive: the pair feeds itself, e.g. bread from the first
    card pays the second); ``trigger_seats`` seat-games that triggered the pair, ``win_rate`` their
    share of wins with ``win_low/high`` (Wilson); ``win_diff`` with ``diff_low/high``: how much
    more often the seat wins than its two cards and its stratum predict (``_pair_excess``), ``p_value``,
    ``q_value`` (Benjamini–Hochberg over every tested pair of every player count), ``flagged``,
    ``direction`` (``PAIR_WORDS``), ``note`` ("too few games" below ``min_count`` triggering seat-games).
    """
    valuation = valuation or Valuation()
    catalogue = catalogue_frame(attribution)
    if not valuation.stratum_field:  # no stratum, no pairs
        return pd.DataFrame(columns=list(_PAIR_COLUMNS))
    frame = _collect(rows, ("run_id", "n_players", "game_index", "seat", "won", "events"), attribution)
    t = _triggers(frame, attribution, valuation)
    singles = t.group_by("n_players", "item").agg(pl.col("payoff").mean().alias("single"))
    passes = _passes(t)
    keys = ["item_a", "item_b"]
    moments = (
        passes.group_by("n_players", *keys)
        .agg(pl.len().alias("count"), pl.col("payoff").mean(), pl.col("payoff").std().alias("payoff_sd"),
             pl.col("net_payoff").mean(), pl.col("net_payoff").std().alias("net_sd"))
        .join(singles.rename({"item": "item_a", "single": "single_a"}), on=["n_players", "item_a"], how="left")
        .join(singles.rename({"item": "item_b", "single": "single_b"}), on=["n_players", "item_b"], how="left")
        .with_columns((pl.col("payoff") - pl.col("single_a") - pl.col("single_b")).alias("payoff_excess"))
        .drop("single_a", "single_b")
        .sort("n_players", *keys)
    )
    seats = _seat_counts(passes, keys)
    tables = []
    for n in sorted(int(x) for x in moments["n_players"].unique().to_list()):
        table = moments.filter(pl.col("n_players") == n).to_pandas()
        excess = _pair_excess(passes.filter(pl.col("n_players") == n), _z(confidence))
        tables.append(_pair_table(n, table, seats, excess, min_count, confidence))
    if not tables:
        return pd.DataFrame(columns=list(_PAIR_COLUMNS))
    table = _flag(pd.concat(tables, ignore_index=True), alpha, "win_diff", PAIR_WORDS)
    meta = catalogue.set_index("item")
    for side in ("a", "b"):
        cards = table[f"item_{side}"]
        table[f"id_{side}"] = cards.map(meta["id"])
        table[f"group_{side}"] = cards.map(meta["group"])
    return table[list(_PAIR_COLUMNS)]


def _pair_excess(units: pl.DataFrame, z: float) -> pd.DataFrame:
    """Per pair of ``units`` (seat-pass triggers of one player count, as ``_passes``): ``item``
    (item_a * _PAIR_KEY + item_b), ``win_excess``, ``excess_low/high`` and ``excess_se``.

    A linear model of winning over every seat-pass, a term per stratum (run, strategy, seat and pass)
    plus a term per card, so a seat-pass with cards a and b is predicted stratum + a + b, gives each
    seat-pass its residual; a pair's excess is the mean residual of its seat-passes: how much more
    often its seat wins than its two cards predict. Its variance is clustered by ``cluster`` (CR1,
    normal interval at ``z``); the model's own estimation error is left out (each card term rests on
    many more seat-passes than one pair)."""
    columns = ["item", "win_excess", "excess_low", "excess_high", "excess_se"]
    if units.height == 0:
        return pd.DataFrame(columns=columns)
    _, st = np.unique(units["stratum"].to_numpy(), return_inverse=True)
    a = units["item_a"].to_numpy().astype(np.int64)
    b = units["item_b"].to_numpy().astype(np.int64)
    y = units["won"].to_numpy().astype(np.float64)
    residual = y - _additive_fit(st, a, b, y)
    item = a * _PAIR_KEY + b
    _, cl = np.unique(units["cluster"].to_numpy(), return_inverse=True)
    pairs, pair_index = np.unique(item, return_inverse=True)
    n = np.bincount(pair_index).astype(np.float64)
    mean = np.bincount(pair_index, residual) / n
    cells, cell_index = np.unique(pair_index * (int(cl.max()) + 1) + cl, return_inverse=True)
    cell_pair = cells // (int(cl.max()) + 1)  # (C,) pair of each (pair, cluster) cell
    deviation = np.bincount(cell_index, residual - mean[pair_index])  # (C,) per-cluster sums about the mean
    clusters = np.bincount(cell_pair, minlength=len(pairs)).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(clusters > 1, clusters / (clusters - 1), np.nan)
        se = np.sqrt(np.bincount(cell_pair, deviation**2, minlength=len(pairs)) * scale) / n
    return pd.DataFrame({"item": pairs, "win_excess": mean, "excess_low": mean - z * se, "excess_high": mean + z * se,
                         "excess_se": se})[columns]


def _additive_fit(stratum: np.ndarray, a: np.ndarray, b: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares fitted values of y ~ stratum + card a + card b, (U,) float64, from (U,) int64
    ``stratum`` (0..S-1), ``a`` and ``b`` (card indices, a != b) and (U,) float64 ``y``. The normal
    equations are small (S + cards unknowns) and built from counts; the one redundant direction
    (a constant moved between strata and cards) leaves the fitted values unique."""
    n_strata, n_cards = int(stratum.max()) + 1, int(max(a.max(), b.max())) + 1
    size = n_strata + n_cards
    cols = np.stack([stratum, n_strata + a, n_strata + b], axis=1)  # (U, 3) the three ones of each row
    pairs = (cols[:, :, None] * size + cols[:, None, :]).reshape(-1)
    gram = np.bincount(pairs, minlength=size * size).reshape(size, size).astype(np.float64)
    moment = np.bincount(cols.reshape(-1), np.repeat(y, 3), minlength=size)
    coef = np.linalg.lstsq(gram, moment, rcond=None)[0]
    return coef[stratum] + coef[n_strata + a] + coef[n_strata + b]


def _passes(t: pl.DataFrame) -> pl.DataFrame:
    """One row per (game, seat, pass) with exactly two triggered cards: ``n_players, game, seat,
    won, cluster, stratum, item_a, item_b`` (item_a < item_b) and the summed ``payoff, net_payoff``.

    The entries of one seat's card list are contiguous after the explode, so the triggers of one
    pass are a run of equal (game, seat, pass); finding runs with numpy avoids a group-by over
    millions of rows.
    """
    if t.height == 0:
        schema = {"n_players": pl.Int8, "game": pl.Int64, "seat": pl.Int8, "won": pl.Boolean, "cluster": pl.Int64,
                  "stratum": pl.Int64, "item_a": pl.Int16, "item_b": pl.Int16, "payoff": pl.Float64,
                  "net_payoff": pl.Float64}
        return pl.DataFrame(schema=schema)
    game, stratum = t["game"].to_numpy(), t["stratum"].to_numpy()  # (T,) int64 each; stratum holds the seat
    starts = np.flatnonzero(np.r_[True, (game[1:] != game[:-1]) | (stratum[1:] != stratum[:-1])])
    lengths = np.diff(np.r_[starts, len(game)])
    first = starts[lengths == 2]
    second = first + 1
    card = t["item"].to_numpy()
    columns = {name: t[name].to_numpy()[first] for name in ("n_players", "game", "seat", "won", "cluster", "stratum")}
    columns["item_a"] = np.minimum(card[first], card[second])
    columns["item_b"] = np.maximum(card[first], card[second])
    for name in ("payoff", "net_payoff"):
        values = t[name].to_numpy()
        columns[name] = values[first] + values[second]
    return pl.DataFrame(columns).filter(pl.col("item_a") != pl.col("item_b"))


def _pair_table(n: int, table: pd.DataFrame, seats: pd.DataFrame, excess: pd.DataFrame, min_count: int,
                confidence: float) -> pd.DataFrame:
    """Intervals and win excess of the pairs of one player count (``table``: their moments;
    ``excess``: ``_pair_excess`` of their seat-passes)."""
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


# --- decks


def group_summary(spreads: pd.DataFrame, confidence: float = 0.95, alpha: float = 0.05) -> pd.DataFrame:
    """One row per (player count, deck), pooled from the per-card counts of ``card_spreads`` (the
    pooled means and rates of all triggers of the deck's cards, not averages of card averages).

    Columns: ``n_players, group, items``; ``items_seen`` (triggered at least once); ``on_board``
    card-games; ``triggered``; ``trigger_rate`` = on-board card-games with a trigger / on-board
    card-games with ``trigger_low/high``; ``payoff`` and ``net_payoff`` pooled means per trigger with
    ``payoff_low/high``, ``net_low/high`` (t, pooled sd); ``penalty_rate`` per trigger with
    ``penalty_low/high``; the raw effect: ``raw_diff`` (the cards' ``raw_diff`` weighted by their
    triggering seat-games), ``raw_more`` and ``raw_less`` (cards whose raw effect is significant,
    raw_q < alpha, above or below 0); the flag within the deck: ``flagged`` cards, of them
    ``too_much`` and ``too_little``.
    """
    rows = []
    for (n, deck), g in spreads.groupby(["n_players", "group"], sort=True):
        row = {"n_players": int(n), "group": deck, "items": len(g), "items_seen": int((g["triggered"] > 0).sum()),
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
