"""Scoring-card spreads: what each Carpe Diem scoring card pays when it is triggered, and whether
the seats that trigger it win more often than the seats that trigger the other cards of its deck.

Pure functions over stored result rows (polars LazyFrame / DataFrame or pandas in, pandas out);
they import no engine code. The card metadata comes from the scoring-card data file itself
(``card_catalogue``), read with ``tomllib``.

Input rows are the runner's columns, one row per (game, seat): ``run_id``, ``n_players``,
``game_index``, ``seat`` (0-based), ``won`` (exactly one winner per game), ``board_cards`` (the card
index on each of the 12 slots, -1 = empty, the same for every seat of a game) and ``cards`` (a list
per seat of the cards it triggered: ``pass, card, k, b, vp, coins, bread, steps, penalty``); used
when present: ``deal`` (games of one deal share their board) and ``strategy``. A game is
(``run_id``, ``game_index``). In a pass scoring every seat places a disc and triggers the two cards
on the slots beside it (CD-SCORING-3/4), so a seat triggers 2 cards in each of the 4 passes.

Conventions, stated once:

- Card index ``i`` is the ``i``-th card of the data file after a stable sort by deck (A, B, C, D),
  which is the order the engine uses.
- ``vp`` of a trigger is net: a -4 penalty (no fulfilment, CD-CARD-6) is included in it and marked
  by ``penalty``.
- Payoff in VP-equivalents (``DEFAULT_CONVERSION``): 1 VP = 1; coins, bread and goods = 0.5 VP each,
  because at the end leftover material scores floor(total / 2) VP (CD-END-3); a banner step = 1 VP,
  because the final banner position is scored as VP (CD-END-4) and steps beyond the track end pay
  VP directly. ``payoff`` is what the card pays out; ``net_payoff`` also subtracts what was handed in
  for it: the goods (or coins in their place) of the ``k`` normal fulfilments of a red card, valued
  at the goods rate, and 3 bread per bread fulfilment ``b``.
- Win effect, the flag: a card is compared with the other cards of its own deck (``_within_effects``).
  The decks differ as a whole (A/B cards are red and take goods, C/D cards are green and pay for
  what a seat already owns; they are triggered in different passes), so a card compared with every
  seat would mostly show its deck. The triggers of the card are set against the triggers of the
  deck's other cards by the same seat, strategy, run and pass (strata), the difference of win rates
  standardised to the card's triggers; its variance is clustered by deal (``deal`` column, else by
  game), because the seats of one game share one winner, a seat can trigger several cards of a deck,
  and games of one deal share their board. The same comparison of ``net_payoff`` gives what the card
  pays against its deck. An adjacent pair is judged against what its two cards predict
  (``_pair_excess``). It is an association, not a causal effect: strategies choose which cards to trigger.
- The raw effect (``raw_*`` columns, descriptive): the seats that triggered a card against the same
  seats (same player count) in games without the card on the board, standardised over seats. It
  mostly shows the deck.
- Every table is per player count (column ``n_players``); rows of several runs are pooled.
  q-values are Benjamini–Hochberg over every tested card (or pair) of every player count.
- A card with fewer than ``MIN_TRIGGERS`` (30) triggering seat-games gets no win effect, is never
  flagged and is noted "too few games"; one whose deck has fewer than 30 comparable triggers of
  other cards: "no other card of its deck to compare"; payoff means are still shown, with their
  wide intervals.
"""

import math
import tomllib
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.stats.intervals import t_bounds, wilson
from scipy import stats
from statsmodels.stats.multitest import multipletests

__all__ = ["DECKS", "DEFAULT_CONVERSION", "MIN_TRIGGERS", "PAIR_WORDS", "card_catalogue", "card_spreads",
           "conversion_note", "deck_summary", "pair_effects", "triggers"]

DECKS = ("A", "B", "C", "D")

# VP-equivalent of one unit of each payout kind (see the module docstring for the rule).
DEFAULT_CONVERSION: dict[str, float] = {"vp": 1.0, "coins": 0.5, "bread": 0.5, "goods": 0.5, "steps": 1.0}

# Fewest triggering seat-games (and comparable triggers of the deck's other cards) for a win effect and a flag.
MIN_TRIGGERS = 30

TOO_FEW = "too few games"
NEVER = "never on the board"
NO_DECK = "no other card of its deck to compare"

_PAYOUT_KINDS = ("vp", "coins", "bread", "steps")
_CARD_FIELDS = ("pass", "card", "k", "b", "vp", "coins", "bread", "steps", "penalty")


def conversion_note(conversion: Mapping[str, float] = DEFAULT_CONVERSION) -> str:
    """One paragraph for a report: how payouts are turned into VP-equivalents."""
    c = _conversion(conversion)
    return (f"Payoffs are in VP-equivalents: 1 VP = {c['vp']:g}; 1 coin = {c['coins']:g}, 1 bread = {c['bread']:g} "
            f"and 1 good = {c['goods']:g} VP, since leftover material scores floor(total / 2) VP at the end "
            f"(CD-END-3); 1 banner step = {c['steps']:g} VP, since the final banner position is scored as VP "
            "(CD-END-4). Penalties (-4 VP when a card is not fulfilled) are included. The net payoff also "
            "subtracts what was handed in: the goods or coins of a red card's fulfilments (at the goods rate) "
            "and 3 bread per bread fulfilment.")


def _conversion(conversion: Mapping[str, float]) -> dict[str, float]:
    unknown = set(conversion) - set(DEFAULT_CONVERSION)
    if unknown:
        raise ValueError(f"unknown conversion keys {sorted(unknown)}; known: {sorted(DEFAULT_CONVERSION)}")
    return {**DEFAULT_CONVERSION, **{k: float(v) for k, v in conversion.items()}}


# --- card metadata


def _default_card_file() -> Path:
    """The engine's scoring_cards.toml, found beside this package without importing the engine."""
    path = Path(__file__).resolve().parents[1] / "games" / "carpe_diem" / "data" / "scoring_cards.toml"
    if not path.is_file():
        raise FileNotFoundError("scoring_cards.toml not found; pass its path")
    return path


def _describe(amounts: Mapping[str, int]) -> str:
    names = {"vp": "VP", "coins": "coin", "bread": "bread", "steps": "step"}
    parts = []
    for kind, qty in amounts.items():
        name = names.get(kind, kind)
        plural = qty != 1 and name in ("coin", "step")
        parts.append(f"{qty} {name}{'s' if plural else ''}")
    return " + ".join(parts)


def card_catalogue(path: str | Path | None = None) -> pd.DataFrame:
    """The 60 scoring cards in engine index order, one row each.

    Columns: ``card`` (index stored in ``board_cards`` and ``cards``), ``id`` (A01..D27), ``deck``
    (A–D), ``colour`` (red / green), ``requirement`` (e.g. "give 2 herb", "have 3 chimneys"),
    ``payout`` (per fulfilment, e.g. "3 VP", "1 coin + 1 step"), ``give_units`` (goods handed in per
    normal fulfilment; 0 for green cards) and ``pay_vp, pay_coins, pay_bread, pay_steps`` (payout per
    fulfilment). ``path``: a replacement data file (default: the package's own).
    """
    path = Path(path) if path is not None else _default_card_file()
    with path.open("rb") as f:
        entries = tomllib.load(f)["card"]
    entries = sorted(entries, key=lambda e: DECKS.index(e["deck"]))  # stable: the engine's order
    rows = []
    for i, e in enumerate(entries):
        needs = e.get("give") or e.get("have") or {}
        verb = "give" if "give" in e else "have"
        payout = e.get("payout", {})
        rows.append({
            "card": i, "id": e["id"], "deck": e["deck"], "colour": e.get("colour", ""),
            "requirement": f"{verb} " + " + ".join(f"{q} {name}" for name, q in needs.items()),
            "payout": _describe(payout),
            "give_units": int(sum(e.get("give", {}).values())),
            **{f"pay_{kind}": int(payout.get(kind, 0)) for kind in _PAYOUT_KINDS},
        })
    return pd.DataFrame(rows)


# --- rows


def _column_names(rows) -> list[str]:
    return rows.collect_schema().names() if isinstance(rows, pl.LazyFrame) else [str(c) for c in rows.columns]


def _collect(rows, columns: tuple[str, ...]) -> pl.DataFrame:
    """The needed columns of ``rows`` (polars or pandas) as a polars DataFrame, with ``run_id`` as a
    categorical and three Int64 keys: ``game`` (run code * 2^40 + game_index: grouping by one
    integer instead of a string and an integer is what keeps millions of triggers fast),
    ``cluster`` (the deal if there is a ``deal`` column, since the games of one deal share their
    board; else the game) and ``seat_key`` (run, strategy if there is a ``strategy`` column, seat)."""
    present = _column_names(rows)
    wanted = [*columns, *(c for c in ("deal", "strategy") if c in present and c not in columns)]
    frame = pl.from_pandas(rows[wanted]) if isinstance(rows, pd.DataFrame) else rows.lazy().select(wanted)
    run = pl.col("run_id").cast(pl.String).cast(pl.Categorical)
    code = run.to_physical().cast(pl.Int64)
    game = code * (1 << 40) + pl.col("game_index").cast(pl.Int64)
    cluster = pl.col("deal").cast(pl.Int64) if "deal" in wanted else game
    strategy = (pl.col("strategy").cast(pl.String).cast(pl.Categorical).to_physical().cast(pl.Int64)
                if "strategy" in wanted else pl.lit(0, pl.Int64))
    seat_key = (code * (1 << 20) + strategy) * 16 + pl.col("seat").cast(pl.Int64)
    return frame.lazy().with_columns(run.alias("run_id"), game.alias("game"), cluster.alias("cluster"),
                                     seat_key.alias("seat_key")).collect()


def triggers(rows, catalogue: pd.DataFrame, conversion: Mapping[str, float] = DEFAULT_CONVERSION) -> pl.DataFrame:
    """One row per triggered card: ``run_id, n_players, game_index, game`` (an Int64 key of
    run_id and game_index), ``seat, won`` and the card-log fields ``pass, card, k, b, vp, coins,
    bread, steps, penalty``, plus ``payoff`` (payout in VP-equivalents) and ``net_payoff`` (minus
    the material handed in), both float64.

    The building block of every table here, exposed so that other reports can slice it.
    """
    return _triggers(rows, catalogue, conversion).drop("cluster", "stratum")


def _triggers(rows, catalogue: pd.DataFrame, conversion: Mapping[str, float]) -> pl.DataFrame:
    """``triggers`` plus the Int64 ``cluster`` and ``stratum`` (run, strategy, seat and pass) keys
    of the within-deck comparison."""
    c = _conversion(conversion)
    frame = rows if _is_keyed(rows) else _collect(rows, ("run_id", "n_players", "game_index", "seat", "won", "cards"))
    give = pl.DataFrame({"card": catalogue["card"].to_numpy().astype(np.int16),
                         "give_units": catalogue["give_units"].to_numpy().astype(np.float64)})
    log = (
        frame.select("run_id", "n_players", "game_index", "game", "cluster", "seat_key", "seat", "won", "cards")
        .explode("cards")
        .filter(pl.col("cards").is_not_null())
        .unnest("cards")
        .with_columns(pl.col("card").cast(pl.Int16),
                      (pl.col("seat_key") * 8 + pl.col("pass").cast(pl.Int64)).alias("stratum"))
        .join(give, on="card", how="left")
    )
    f = {kind: pl.col(kind).cast(pl.Float64) for kind in ("vp", "coins", "bread", "steps", "k", "b")}
    payoff = f["vp"] * c["vp"] + f["coins"] * c["coins"] + f["bread"] * c["bread"] + f["steps"] * c["steps"]
    handed_in = f["k"] * pl.col("give_units").fill_null(0.0) * c["goods"] + 3.0 * f["b"] * c["bread"]
    return log.with_columns(payoff.alias("payoff"), (payoff - handed_in).alias("net_payoff")).select(
        "run_id", "n_players", "game_index", "game", "seat", "won", *_CARD_FIELDS, "payoff", "net_payoff", "cluster",
        "stratum")


def _is_keyed(rows) -> bool:
    return (isinstance(rows, pl.DataFrame) and {"game", "cluster", "seat_key"} <= set(rows.columns)
            and rows.schema["game"] == pl.Int64)


def _games(frame: pl.DataFrame) -> pl.DataFrame:
    """One row per game: ``n_players, game, winner`` (seat) and ``board_cards`` if ``frame`` has
    it; a game is found through its single winner."""
    extra = ["board_cards"] if "board_cards" in frame.columns else []
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


def _pooled_moments(t: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    return t.group_by(*keys).agg(
        pl.len().alias("triggered"),
        pl.col("game").n_unique().alias("triggered_games"),
        pl.col("payoff").mean().alias("payoff"), pl.col("payoff").std().alias("payoff_sd"),
        pl.col("net_payoff").mean().alias("net_payoff"), pl.col("net_payoff").std().alias("net_sd"),
        *(pl.col(k).cast(pl.Float64).mean().alias(f"mean_{k}") for k in ("vp", "coins", "bread", "steps")),
        pl.col("penalty").sum().alias("penalties"),
    )


def card_spreads(rows, catalogue: pd.DataFrame, conversion: Mapping[str, float] = DEFAULT_CONVERSION,
                 confidence: float = 0.95, alpha: float = 0.05, min_triggers: int = MIN_TRIGGERS) -> pd.DataFrame:
    """One row per (player count, card), every card of ``catalogue`` even if never seen.

    Columns:

    - ``n_players, card, id, deck, colour, payout``; ``games`` (games of that player count);
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
    frame = _collect(rows, ("run_id", "n_players", "game_index", "seat", "won", "board_cards", "cards"))
    games = _games(frame)
    t = _triggers(frame, catalogue, conversion)
    counts = sorted(int(n) for n in frame["n_players"].unique().to_list())
    board = (games.explode("board_cards").rename({"board_cards": "card"}).filter(pl.col("card") >= 0)
             .with_columns(pl.col("card").cast(pl.Int16)))
    moments = _pooled_moments(t, ["n_players", "card"]).to_pandas()
    seats = _seat_counts(t, ["card"])
    z = _z(confidence)
    tables = [_spreads_for(n, games, board, t, moments, seats, catalogue, confidence, z, min_triggers)
              for n in counts]
    if not tables:
        return pd.DataFrame(columns=list(_SPREAD_COLUMNS))
    table = _flag(pd.concat(tables, ignore_index=True), alpha)
    raw_p = _two_sided_p(table["raw_diff"], table["_raw_se"])
    table["raw_q"] = _bh(raw_p, table["_raw_tested"].to_numpy(dtype=bool), alpha)
    return table[list(_SPREAD_COLUMNS)]


def _spreads_for(n: int, games: pl.DataFrame, board: pl.DataFrame, t: pl.DataFrame, moments: pd.DataFrame,
                 seats: pd.DataFrame, catalogue: pd.DataFrame, confidence: float, z: float,
                 min_triggers: int) -> pd.DataFrame:
    """The rows of player count ``n``; ``t``, ``moments`` and ``seats`` hold every player count."""
    n_games, seat_wins = _seat_totals(games, n)
    table = catalogue[["card", "id", "deck", "colour", "payout"]].copy()
    table.insert(0, "n_players", n)
    table["games"] = n_games
    on_board = (board.filter(pl.col("n_players") == n).group_by("card", "winner").agg(pl.len().alias("g"))
                .to_pandas())
    on_wins = np.zeros((len(table), n), dtype=np.int64)  # (cards, seats) on-board games won by seat
    position = pd.Series(np.arange(len(table)), index=table["card"].to_numpy())
    rows = position.reindex(on_board["card"].to_numpy()).to_numpy()
    ok = ~np.isnan(rows)
    np.add.at(on_wins, (rows[ok].astype(np.int64), on_board["winner"].to_numpy()[ok].astype(np.int64)),
              on_board["g"].to_numpy()[ok])
    table["on_board"] = on_wins.sum(axis=1)
    table["on_board_rate"] = _ratio(table["on_board"], table["games"])
    table["on_board_low"], table["on_board_high"] = wilson(table["on_board"], table["games"], confidence)

    table = table.merge(moments[moments["n_players"] == n].drop(columns="n_players"), on="card", how="left")
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

    n1, w1 = _treated_counts(seats, ["card"], table, n)
    table["trigger_seats"] = n1.sum(axis=1)
    table = table.merge(_card_within(t.filter(pl.col("n_players") == n), catalogue, z, min_triggers), on="card",
                        how="left")
    table["compared_triggers"] = table["compared_triggers"].fillna(0).astype(np.int64)
    table["deck_triggers"] = table["deck_triggers"].fillna(0).astype(np.int64)
    enough = (table["trigger_seats"] >= min_triggers).to_numpy()
    table.loc[~enough, ["win_rate", "deck_rate", "win_diff", "diff_low", "diff_high", "p_value"]] = math.nan

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
        [NEVER, TOO_FEW, NO_DECK], default="")
    return table


def _card_within(t: pl.DataFrame, catalogue: pd.DataFrame, z: float, min_triggers: int) -> pd.DataFrame:
    """Within-deck win and net-payoff comparison of every card triggered in ``t`` (one player count)."""
    columns = ["card", "compared_triggers", "deck_triggers", "win_rate", "deck_rate", "win_diff", "diff_low",
               "diff_high", "p_value", "net_vs_deck", "net_vs_deck_low", "net_vs_deck_high"]
    if t.height == 0:
        return pd.DataFrame(columns=columns)
    deck_of = catalogue.set_index("card")["deck"].map(DECKS.index)
    card = t["card"].to_numpy().astype(np.int64)
    within = _within_effects(deck_of.reindex(card).to_numpy(dtype=np.int64), card, t["cluster"].to_numpy(),
                             t["stratum"].to_numpy(), {"won": t["won"].to_numpy().astype(np.float64),
                                                       "net": t["net_payoff"].to_numpy()}, z, min_triggers)
    return pd.DataFrame({
        "card": within["item"], "compared_triggers": within["treated"], "deck_triggers": within["compared"],
        "win_rate": within["won_rate"], "deck_rate": within["won_comp"], "win_diff": within["won_diff"],
        "diff_low": within["won_low"], "diff_high": within["won_high"],
        "p_value": _two_sided_p(within["won_diff"], within["won_se"]),
        "net_vs_deck": within["net_diff"], "net_vs_deck_low": within["net_low"],
        "net_vs_deck_high": within["net_high"]})[columns]


_SPREAD_COLUMNS = (
    "n_players", "card", "id", "deck", "colour", "payout", "games", "on_board", "on_board_rate", "on_board_low",
    "on_board_high", "triggered", "triggered_games", "trigger_rate", "trigger_low", "trigger_high",
    "triggers_per_game", "payoff", "payoff_sd", "payoff_low", "payoff_high", "net_payoff", "net_sd", "net_low",
    "net_high", "net_vs_deck", "net_vs_deck_low", "net_vs_deck_high", "mean_vp", "mean_coins", "mean_bread",
    "mean_steps", "penalties", "penalty_rate", "penalty_low", "penalty_high", "trigger_seats", "compared_triggers",
    "deck_triggers", "win_rate", "deck_rate", "win_diff", "diff_low", "diff_high", "p_value", "q_value", "flagged",
    "direction", "control_seats", "base_rate", "raw_diff", "raw_low", "raw_high", "raw_q", "note",
)


# --- adjacent pairs


PAIR_WORDS = ("wins more than its cards", "wins less than its cards")


def pair_effects(rows, catalogue: pd.DataFrame, min_count: int = MIN_TRIGGERS,
                 conversion: Mapping[str, float] = DEFAULT_CONVERSION, confidence: float = 0.95,
                 alpha: float = 0.05) -> pd.DataFrame:
    """One row per (player count, unordered pair of cards triggered together), pairs seen at least once.

    The two cards a seat triggers in one pass scoring lie on the two slots beside its disc, so they
    are an adjacent pair; this asks whether a pair pays or wins more than its two cards suggest.
    Columns: ``n_players, card_a, card_b`` (card_a < card_b), ``id_a, id_b, deck_a, deck_b``;
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
    frame = _collect(rows, ("run_id", "n_players", "game_index", "seat", "won", "cards"))
    t = _triggers(frame, catalogue, conversion)
    singles = t.group_by("n_players", "card").agg(pl.col("payoff").mean().alias("single"))
    passes = _passes(t)
    keys = ["card_a", "card_b"]
    moments = (
        passes.group_by("n_players", *keys)
        .agg(pl.len().alias("count"), pl.col("payoff").mean(), pl.col("payoff").std().alias("payoff_sd"),
             pl.col("net_payoff").mean(), pl.col("net_payoff").std().alias("net_sd"))
        .join(singles.rename({"card": "card_a", "single": "single_a"}), on=["n_players", "card_a"], how="left")
        .join(singles.rename({"card": "card_b", "single": "single_b"}), on=["n_players", "card_b"], how="left")
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
    meta = catalogue.set_index("card")
    for side in ("a", "b"):
        cards = table[f"card_{side}"]
        table[f"id_{side}"] = cards.map(meta["id"])
        table[f"deck_{side}"] = cards.map(meta["deck"])
    return table[list(_PAIR_COLUMNS)]


def _pair_excess(units: pl.DataFrame, z: float) -> pd.DataFrame:
    """Per pair of ``units`` (seat-pass triggers of one player count, as ``_passes``): ``item``
    (card_a * 64 + card_b), ``win_excess``, ``excess_low/high`` and ``excess_se``.

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
    a = units["card_a"].to_numpy().astype(np.int64)
    b = units["card_b"].to_numpy().astype(np.int64)
    y = units["won"].to_numpy().astype(np.float64)
    residual = y - _additive_fit(st, a, b, y)
    item = a * 64 + b
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
    won, cluster, stratum, card_a, card_b`` (card_a < card_b) and the summed ``payoff, net_payoff``.

    The entries of one seat's card list are contiguous after the explode, so the triggers of one
    pass are a run of equal (game, seat, pass); finding runs with numpy avoids a group-by over
    millions of rows.
    """
    if t.height == 0:
        schema = {"n_players": pl.Int8, "game": pl.Int64, "seat": pl.Int8, "won": pl.Boolean, "cluster": pl.Int64,
                  "stratum": pl.Int64, "card_a": pl.Int16, "card_b": pl.Int16, "payoff": pl.Float64,
                  "net_payoff": pl.Float64}
        return pl.DataFrame(schema=schema)
    key = (t["game"].to_numpy() * 64 + t["seat"].to_numpy().astype(np.int64) * 8
           + t["pass"].to_numpy().astype(np.int64))  # (T,) int64, seat < 8 and pass < 8
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    lengths = np.diff(np.r_[starts, len(key)])
    first = starts[lengths == 2]
    second = first + 1
    card = t["card"].to_numpy()
    columns = {name: t[name].to_numpy()[first] for name in ("n_players", "game", "seat", "won", "cluster", "stratum")}
    columns["card_a"] = np.minimum(card[first], card[second])
    columns["card_b"] = np.maximum(card[first], card[second])
    for name in ("payoff", "net_payoff"):
        values = t[name].to_numpy()
        columns[name] = values[first] + values[second]
    return pl.DataFrame(columns).filter(pl.col("card_a") != pl.col("card_b"))


def _pair_table(n: int, table: pd.DataFrame, seats: pd.DataFrame, excess: pd.DataFrame, min_count: int,
                confidence: float) -> pd.DataFrame:
    """Intervals and win excess of the pairs of one player count (``table``: their moments;
    ``excess``: ``_pair_excess`` of their seat-passes)."""
    keys = ["card_a", "card_b"]
    n1, w1 = _treated_counts(seats, keys, table, n)
    table["payoff_low"], table["payoff_high"] = t_bounds(table["payoff"], table["payoff_sd"], table["count"],
                                                         confidence)
    table["net_low"], table["net_high"] = t_bounds(table["net_payoff"], table["net_sd"], table["count"], confidence)
    table["trigger_seats"] = n1.sum(axis=1)
    wins = w1.sum(axis=1)
    table["win_rate"] = _ratio(wins, table["trigger_seats"])
    table["win_low"], table["win_high"] = wilson(wins, table["trigger_seats"], confidence)
    excess = excess.set_index("item").reindex(table["card_a"].to_numpy() * 64 + table["card_b"].to_numpy())
    enough = (table["trigger_seats"] >= min_count).to_numpy()
    for column, source in (("win_diff", "win_excess"), ("diff_low", "excess_low"), ("diff_high", "excess_high")):
        table[column] = np.where(enough, excess[source].to_numpy(dtype=np.float64), math.nan)
    table["p_value"] = np.where(enough, _two_sided_p(excess["win_excess"], excess["excess_se"]), math.nan)
    table["note"] = np.where(enough, "", TOO_FEW)
    return table


_PAIR_COLUMNS = (
    "n_players", "card_a", "card_b", "id_a", "id_b", "deck_a", "deck_b", "count", "payoff", "payoff_sd",
    "payoff_low", "payoff_high", "net_payoff", "net_sd", "net_low", "net_high", "payoff_excess", "trigger_seats",
    "win_rate", "win_low", "win_high", "win_diff", "diff_low", "diff_high", "p_value", "q_value", "flagged",
    "direction", "note",
)


# --- decks


def deck_summary(spreads: pd.DataFrame, confidence: float = 0.95, alpha: float = 0.05) -> pd.DataFrame:
    """One row per (player count, deck), pooled from the per-card counts of ``card_spreads`` (the
    pooled means and rates of all triggers of the deck's cards, not averages of card averages).

    Columns: ``n_players, deck, cards``; ``cards_seen`` (triggered at least once); ``on_board``
    card-games; ``triggered``; ``trigger_rate`` = on-board card-games with a trigger / on-board
    card-games with ``trigger_low/high``; ``payoff`` and ``net_payoff`` pooled means per trigger with
    ``payoff_low/high``, ``net_low/high`` (t, pooled sd); ``penalty_rate`` per trigger with
    ``penalty_low/high``; the raw effect: ``raw_diff`` (the cards' ``raw_diff`` weighted by their
    triggering seat-games), ``raw_more`` and ``raw_less`` (cards whose raw effect is significant,
    raw_q < alpha, above or below 0); the flag within the deck: ``flagged`` cards, of them
    ``too_much`` and ``too_little``.
    """
    rows = []
    for (n, deck), g in spreads.groupby(["n_players", "deck"], sort=True):
        row = {"n_players": int(n), "deck": deck, "cards": len(g), "cards_seen": int((g["triggered"] > 0).sum()),
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
    columns = ["n_players", "deck", "cards", "cards_seen", "on_board", "triggered", "trigger_rate", "trigger_low",
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
