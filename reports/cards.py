"""Scoring-card spreads: what each Carpe Diem scoring card pays when it is triggered, and whether
the seats that trigger it win more often than seats in the same position without it.

Pure functions over stored result rows (polars LazyFrame / DataFrame or pandas in, pandas out);
they import no engine code. The card metadata comes from the scoring-card data file itself
(``card_catalogue``), read with ``tomllib``.

Input rows are the runner's columns, one row per (game, seat): ``run_id``, ``n_players``,
``game_index``, ``seat`` (0-based), ``won`` (exactly one winner per game), ``board_cards`` (the card
index on each of the 12 slots, -1 = empty, the same for every seat of a game) and ``cards`` (a list
per seat of the cards it triggered: ``pass, card, k, b, vp, coins, bread, steps, penalty``). A game
is (``run_id``, ``game_index``). In a pass scoring every seat places a disc and triggers the two cards
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
- Win effect: the seats that triggered a card against the seats in the same position (same player
  count) in games where the card was not on the board, stratified by seat (Mantel–Haenszel). For an
  adjacent pair the control is every other seat-game in the same position. It is an association,
  not a causal effect: strategies choose which cards to trigger, and a seat that is already ahead
  can afford the better cards.
- Every table is per player count (column ``n_players``); rows of several runs are pooled.
- Wilson and t intervals and the tests treat games as independent; paired seatings of one deal are
  not, so close calls deserve a larger run. A card or pair with fewer than ``MIN_TRIGGERS`` (30)
  triggering seat-games gets no win effect, is never flagged and is noted "too few games" (a card
  with fewer than 30 seat-games without it: "no games without the card"); its payoff means are
  still shown, with their wide intervals. q-values are Benjamini–Hochberg over the tested cards (or
  pairs) of one player count.
"""

import math
import tomllib
import warnings
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
from bgsim.reports.intervals import t_bounds, wilson
from scipy import stats
from statsmodels.stats.contingency_tables import StratifiedTable
from statsmodels.stats.multitest import multipletests

__all__ = ["DECKS", "DEFAULT_CONVERSION", "MIN_TRIGGERS", "card_catalogue", "card_spreads", "conversion_note",
           "deck_summary", "pair_effects", "triggers"]

DECKS = ("A", "B", "C", "D")

# VP-equivalent of one unit of each payout kind (see the module docstring for the rule).
DEFAULT_CONVERSION: dict[str, float] = {"vp": 1.0, "coins": 0.5, "bread": 0.5, "goods": 0.5, "steps": 1.0}

# Fewest triggering seat-games (and seat-games without the card) for a win effect and a flag.
MIN_TRIGGERS = 30

TOO_FEW = "too few games"
NEVER = "never on the board"
NO_CONTROL = "no games without the card"

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
    path = Path(__file__).resolve().parents[1] / "sim" / "games" / "carpe_diem" / "data" / "scoring_cards.toml"
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


def _collect(rows, columns: tuple[str, ...]) -> pl.DataFrame:
    """The needed columns of ``rows`` (polars or pandas) as a polars DataFrame, with ``run_id`` as a
    categorical and an Int64 ``game`` key (run code * 2^40 + game_index): grouping by one integer
    instead of a string and an integer is what keeps millions of triggers fast."""
    frame = pl.from_pandas(rows[list(columns)]) if isinstance(rows, pd.DataFrame) else rows.lazy().select(columns)
    run = pl.col("run_id").cast(pl.String).cast(pl.Categorical)
    game = run.to_physical().cast(pl.Int64) * (1 << 40) + pl.col("game_index").cast(pl.Int64)
    return frame.lazy().with_columns(run.alias("run_id"), game.alias("game")).collect()


def triggers(rows, catalogue: pd.DataFrame, conversion: Mapping[str, float] = DEFAULT_CONVERSION) -> pl.DataFrame:
    """One row per triggered card: ``run_id, n_players, game_index, game`` (an Int64 key of
    run_id and game_index), ``seat, won`` and the card-log fields ``pass, card, k, b, vp, coins,
    bread, steps, penalty``, plus ``payoff`` (payout in VP-equivalents) and ``net_payoff`` (minus
    the material handed in), both float64.

    The building block of every table here, exposed so that other reports can slice it.
    """
    c = _conversion(conversion)
    frame = rows if _is_keyed(rows) else _collect(rows, ("run_id", "n_players", "game_index", "seat", "won", "cards"))
    give = pl.DataFrame({"card": catalogue["card"].to_numpy().astype(np.int16),
                         "give_units": catalogue["give_units"].to_numpy().astype(np.float64)})
    log = (
        frame.select("run_id", "n_players", "game_index", "game", "seat", "won", "cards").explode("cards")
        .filter(pl.col("cards").is_not_null())
        .unnest("cards")
        .with_columns(pl.col("card").cast(pl.Int16))
        .join(give, on="card", how="left")
    )
    f = {kind: pl.col(kind).cast(pl.Float64) for kind in ("vp", "coins", "bread", "steps", "k", "b")}
    payoff = f["vp"] * c["vp"] + f["coins"] * c["coins"] + f["bread"] * c["bread"] + f["steps"] * c["steps"]
    handed_in = f["k"] * pl.col("give_units").fill_null(0.0) * c["goods"] + 3.0 * f["b"] * c["bread"]
    return log.with_columns(payoff.alias("payoff"), (payoff - handed_in).alias("net_payoff")).select(
        "run_id", "n_players", "game_index", "game", "seat", "won", *_CARD_FIELDS, "payoff", "net_payoff")


def _is_keyed(rows) -> bool:
    return isinstance(rows, pl.DataFrame) and "game" in rows.columns and rows.schema["game"] == pl.Int64


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


# --- intervals (vectorised)


def _ratio(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return np.divide(a, b, out=np.full(a.shape, np.nan), where=b > 0)


# --- win effect


_EFFECT_COLUMNS = ("win_rate", "base_rate", "win_diff", "diff_low", "diff_high", "odds_ratio", "or_low", "or_high",
                   "p_value")


def _stratified_effect(n1: np.ndarray, w1: np.ndarray, n0: np.ndarray, w0: np.ndarray,
                       z: float) -> dict[str, float]:
    """Win effect of one card (or pair) from per-seat counts, each (n_players,) int64: treated
    seat-games ``n1`` with ``w1`` wins, control seat-games ``n0`` with ``w0`` wins.

    Mantel–Haenszel over the seats (statsmodels ``StratifiedTable``): pooled odds ratio with its
    interval and the test of a common odds ratio of 1. ``win_diff`` is the treated win rate minus
    the control win rate standardised to the treated seats (per-seat control rates weighted by the
    treated seat-games), with a normal interval from the per-seat binomial variances; it says how
    many percentage points more often a triggering seat wins than a seat in its position usually
    does. ``z``: the two-sided normal quantile of the confidence level (computed once by the caller).
    """
    keep = (n1 > 0) & (n0 > 0)
    n1, w1, n0, w0 = (np.asarray(x, dtype=np.float64)[keep] for x in (n1, w1, n0, w0))
    p1, p0 = w1 / n1, w0 / n0
    weight = n1 / n1.sum()
    base = float(weight @ p0)
    rate = float(w1.sum() / n1.sum())
    diff = rate - base
    se = math.sqrt(float(weight**2 @ (p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0)))
    tables = np.stack([np.stack([w1, n1 - w1]), np.stack([w0, n0 - w0])])  # (2, 2, seats)
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        table = StratifiedTable(tables)
        odds = float(table.oddsratio_pooled)
        log_se = float(table.logodds_pooled_se)  # Robins–Breslow–Greenland, as oddsratio_pooled_confint uses
        or_low, or_high = odds * math.exp(-z * log_se), odds * math.exp(z * log_se)
        p = float(table.test_null_odds(correction=False).pvalue)
    return {"win_rate": rate, "base_rate": base, "win_diff": diff, "diff_low": diff - z * se,
            "diff_high": diff + z * se, "odds_ratio": odds, "or_low": or_low, "or_high": or_high, "p_value": p}


def _effects(n1: np.ndarray, w1: np.ndarray, n0: np.ndarray, w0: np.ndarray, enough: np.ndarray,
             confidence: float, alpha: float) -> pd.DataFrame:
    """Effects, q-values, flags and directions for M items of one player count.

    ``n1, w1, n0, w0``: (M, n_players) int64 per-seat counts; ``enough``: (M,) bool, the items with
    data enough to test (the others get NaN and are left out of the Benjamini–Hochberg set).
    """
    blank = dict.fromkeys(_EFFECT_COLUMNS, math.nan)
    z = float(stats.norm.ppf(0.5 + confidence / 2))
    out = pd.DataFrame([_stratified_effect(n1[i], w1[i], n0[i], w0[i], z) if enough[i] else blank
                        for i in range(len(enough))], columns=list(_EFFECT_COLUMNS), dtype=np.float64)
    out["q_value"] = np.nan
    tested = enough & out["p_value"].notna().to_numpy()
    if tested.any():
        out.loc[tested, "q_value"] = multipletests(out.loc[tested, "p_value"], alpha=alpha, method="fdr_bh")[1]
    out["flagged"] = (out["q_value"] < alpha).fillna(False).astype(bool)
    out["direction"] = np.where(~out["flagged"], "",
                                np.where(out["odds_ratio"] > 1, "pays too much", "pays too little"))
    return out


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
      ``mean_vp, mean_coins, mean_bread, mean_steps`` raw means per trigger (vp net of penalties);
    - ``penalties`` (-4 VP penalties), ``penalty_rate`` per trigger with ``penalty_low/high``;
    - ``trigger_seats`` seat-games that triggered the card (the treated group of the win effect),
      ``control_seats`` seat-games in games without the card;
    - ``win_rate`` of the triggering seats, ``base_rate`` the control rate standardised to their
      seats, ``win_diff`` = win_rate - base_rate with ``diff_low/high``; ``odds_ratio`` (Mantel–Haenszel
      over seats) with ``or_low/high``, ``p_value`` (test of a common odds ratio 1), ``q_value``
      (Benjamini–Hochberg over the tested cards of the player count), ``flagged`` (q < alpha),
      ``direction`` ("pays too much" / "pays too little" for flagged cards, else "");
    - ``note``: "" or why there is no effect ("never on the board", "too few games" when fewer than
      ``min_triggers`` triggering seat-games, "no games without the card").
    """
    frame = _collect(rows, ("run_id", "n_players", "game_index", "seat", "won", "board_cards", "cards"))
    games = _games(frame)
    t = triggers(frame, catalogue, conversion)
    counts = sorted(int(n) for n in frame["n_players"].unique().to_list())
    board = (games.explode("board_cards").rename({"board_cards": "card"}).filter(pl.col("card") >= 0)
             .with_columns(pl.col("card").cast(pl.Int16)))
    moments = _pooled_moments(t, ["n_players", "card"]).to_pandas()
    seats = _seat_counts(t, ["card"])
    tables = [_spreads_for(n, games, board, moments, seats, catalogue, confidence, alpha, min_triggers)
              for n in counts]
    if not tables:
        return pd.DataFrame(columns=list(_SPREAD_COLUMNS))
    return pd.concat(tables, ignore_index=True)


def _spreads_for(n: int, games: pl.DataFrame, board: pl.DataFrame, moments: pd.DataFrame, seats: pd.DataFrame,
                 catalogue: pd.DataFrame, confidence: float, alpha: float, min_triggers: int) -> pd.DataFrame:
    """The rows of player count ``n``; ``moments`` and ``seats`` hold every player count."""
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
    n0 = np.repeat(n_games - table["on_board"].to_numpy()[:, None], n, axis=1)  # every game seats all n
    w0 = seat_wins[None, :] - on_wins
    table["trigger_seats"] = n1.sum(axis=1)
    table["control_seats"] = n0.sum(axis=1)
    enough = (table["trigger_seats"] >= min_triggers).to_numpy() & (table["control_seats"] >= min_triggers).to_numpy()
    effects = _effects(n1, w1, n0, w0, enough, confidence, alpha)
    table = pd.concat([table, effects], axis=1)
    table["note"] = np.select(
        [table["on_board"] == 0, table["trigger_seats"] < min_triggers, table["control_seats"] < min_triggers],
        [NEVER, TOO_FEW, NO_CONTROL], default="")
    return table[list(_SPREAD_COLUMNS)]


_SPREAD_COLUMNS = (
    "n_players", "card", "id", "deck", "colour", "payout", "games", "on_board", "on_board_rate", "on_board_low",
    "on_board_high", "triggered", "triggered_games", "trigger_rate", "trigger_low", "trigger_high",
    "triggers_per_game", "payoff", "payoff_sd", "payoff_low", "payoff_high", "net_payoff", "net_sd", "net_low",
    "net_high", "mean_vp", "mean_coins", "mean_bread", "mean_steps", "penalties", "penalty_rate", "penalty_low",
    "penalty_high", "trigger_seats", "control_seats", *_EFFECT_COLUMNS, "q_value", "flagged", "direction", "note",
)


# --- adjacent pairs


def pair_effects(rows, catalogue: pd.DataFrame, min_count: int = MIN_TRIGGERS,
                 conversion: Mapping[str, float] = DEFAULT_CONVERSION, confidence: float = 0.95,
                 alpha: float = 0.05) -> pd.DataFrame:
    """One row per (player count, unordered pair of cards triggered together), pairs seen at least once.

    The two cards a seat triggers in one pass scoring lie on the two slots beside its disc, so they
    are an adjacent pair; this asks whether a pair pays or wins more than its cards suggest.
    Columns: ``n_players, card_a, card_b`` (card_a < card_b), ``id_a, id_b, deck_a, deck_b``;
    ``count`` seat-pass triggers; ``payoff`` mean combined payout of the two cards in VP-equivalents
    with ``payoff_sd, payoff_low/high`` (t), ``net_payoff, net_sd, net_low/high`` the same minus the
    material handed in; ``payoff_excess`` = payoff minus the two cards' own mean payoffs over all
    their triggers of that player count (positive: the pair feeds itself, e.g. bread from the first
    card pays the second); ``trigger_seats`` seat-games that triggered the pair, ``win_rate`` with
    ``win_low/high`` (Wilson); the win effect against every other seat-game in the same position
    (seats that did not trigger the pair; same player count), stratified by seat as in
    ``card_spreads``: ``base_rate, win_diff, diff_low/high, odds_ratio, or_low/high, p_value``,
    ``q_value`` (Benjamini–Hochberg over the pairs with at least ``min_count`` triggering
    seat-games), ``flagged``, ``direction``, ``note`` ("too few games" below ``min_count``).
    """
    frame = _collect(rows, ("run_id", "n_players", "game_index", "seat", "won", "cards"))
    games = _games(frame)
    t = triggers(frame, catalogue, conversion)
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
        tables.append(_pair_table(n, table, seats, games, min_count, confidence, alpha))
    if not tables:
        return pd.DataFrame(columns=list(_PAIR_COLUMNS))
    table = pd.concat(tables, ignore_index=True)
    meta = catalogue.set_index("card")
    for side in ("a", "b"):
        cards = table[f"card_{side}"]
        table[f"id_{side}"] = cards.map(meta["id"])
        table[f"deck_{side}"] = cards.map(meta["deck"])
    return table[list(_PAIR_COLUMNS)]


def _passes(t: pl.DataFrame) -> pl.DataFrame:
    """One row per (game, seat, pass) with exactly two triggered cards: ``n_players, game, seat,
    won, card_a, card_b`` (card_a < card_b) and the summed ``payoff, net_payoff``.

    The entries of one seat's card list are contiguous after the explode, so the triggers of one
    pass are a run of equal (game, seat, pass); finding runs with numpy avoids a group-by over
    millions of rows.
    """
    if t.height == 0:
        schema = {"n_players": pl.Int8, "game": pl.Int64, "seat": pl.Int8, "won": pl.Boolean, "card_a": pl.Int16,
                  "card_b": pl.Int16, "payoff": pl.Float64, "net_payoff": pl.Float64}
        return pl.DataFrame(schema=schema)
    key = (t["game"].to_numpy() * 64 + t["seat"].to_numpy().astype(np.int64) * 8
           + t["pass"].to_numpy().astype(np.int64))  # (T,) int64, seat < 8 and pass < 8
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    lengths = np.diff(np.r_[starts, len(key)])
    first = starts[lengths == 2]
    second = first + 1
    card = t["card"].to_numpy()
    columns = {name: t[name].to_numpy()[first] for name in ("n_players", "game", "seat", "won")}
    columns["card_a"] = np.minimum(card[first], card[second])
    columns["card_b"] = np.maximum(card[first], card[second])
    for name in ("payoff", "net_payoff"):
        values = t[name].to_numpy()
        columns[name] = values[first] + values[second]
    return pl.DataFrame(columns).filter(pl.col("card_a") != pl.col("card_b"))


def _pair_table(n: int, table: pd.DataFrame, seats: pd.DataFrame, games: pl.DataFrame, min_count: int,
                confidence: float, alpha: float) -> pd.DataFrame:
    """Intervals and win effects of the pairs of one player count (``table``: their moments)."""
    keys = ["card_a", "card_b"]
    n_games, seat_wins = _seat_totals(games, n)
    n1, w1 = _treated_counts(seats, keys, table, n)
    table["payoff_low"], table["payoff_high"] = t_bounds(table["payoff"], table["payoff_sd"], table["count"],
                                                         confidence)
    table["net_low"], table["net_high"] = t_bounds(table["net_payoff"], table["net_sd"], table["count"], confidence)
    table["trigger_seats"] = n1.sum(axis=1)
    wins = w1.sum(axis=1)
    table["win_low"], table["win_high"] = wilson(wins, table["trigger_seats"], confidence)
    enough = (table["trigger_seats"] >= min_count).to_numpy()
    effects = _effects(n1, w1, n_games - n1, seat_wins[None, :] - w1, enough, confidence, alpha)
    effects["win_rate"] = _ratio(wins, table["trigger_seats"])  # descriptive even below min_count
    table = pd.concat([table, effects], axis=1)
    table["note"] = np.where(enough, "", TOO_FEW)
    return table


_PAIR_COLUMNS = (
    "n_players", "card_a", "card_b", "id_a", "id_b", "deck_a", "deck_b", "count", "payoff", "payoff_sd",
    "payoff_low", "payoff_high", "net_payoff", "net_sd", "net_low", "net_high", "payoff_excess", "trigger_seats",
    "win_rate", "win_low", "win_high", "base_rate", "win_diff", "diff_low", "diff_high", "odds_ratio", "or_low",
    "or_high", "p_value", "q_value", "flagged", "direction", "note",
)


# --- decks


def deck_summary(spreads: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """One row per (player count, deck), pooled from the per-card counts of ``card_spreads`` (the
    pooled means and rates of all triggers of the deck's cards, not averages of card averages).

    Columns: ``n_players, deck, cards``; ``cards_seen`` (triggered at least once); ``on_board``
    card-games; ``triggered``; ``trigger_rate`` = on-board card-games with a trigger / on-board
    card-games with ``trigger_low/high``; ``payoff`` and ``net_payoff`` pooled means per trigger with
    ``payoff_low/high``, ``net_low/high`` (t, pooled sd); ``penalty_rate`` per trigger with
    ``penalty_low/high``; ``flagged`` cards, of them ``too_much`` and ``too_little``.
    """
    rows = []
    for (n, deck), g in spreads.groupby(["n_players", "deck"], sort=True):
        row = {"n_players": int(n), "deck": deck, "cards": len(g), "cards_seen": int((g["triggered"] > 0).sum()),
               "on_board": int(g["on_board"].sum()), "triggered": int(g["triggered"].sum()),
               "triggered_games": int(g["triggered_games"].sum()), "penalties": int(g["penalties"].sum())}
        for column, sd in (("payoff", "payoff_sd"), ("net_payoff", "net_sd")):
            row[column], row[f"_{column}_sd"] = _pooled(g["triggered"].to_numpy(), g[column].to_numpy(),
                                                        g[sd].to_numpy())
        row["flagged"] = int(g["flagged"].sum())
        row["too_much"] = int((g["direction"] == "pays too much").sum())
        row["too_little"] = int((g["direction"] == "pays too little").sum())
        rows.append(row)
    columns = ["n_players", "deck", "cards", "cards_seen", "on_board", "triggered", "trigger_rate", "trigger_low",
               "trigger_high", "payoff", "payoff_low", "payoff_high", "net_payoff", "net_low", "net_high",
               "penalty_rate", "penalty_low", "penalty_high", "flagged", "too_much", "too_little"]
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
