"""Ablation effects: what a component changes at the table, from paired deals.

Each row is one deal played twice with the same chance and the same seat streams: with the
component as dealt, and with it replaced (``sim.api.ComponentAblation``). Per component this
module gives the mean paired change (with minus without) of every seat's win share, of the score
spread (best final score minus worst) and of the lead changes (``sim.leads``), and how often the
replacement changed who won. Deals are independent, so the intervals are Student t over deals
(Wilson for the share of changed winners).

Findings are corrected as one family per test (Benjamini–Hochberg q, ``correct_family``): every
(player count, component, seat) for the seats (at two players one per component: one seat's
change is the other's, negated), every (player count, component) for the spread and for the lead
changes. A component's seat q is the smallest of its seats'.

The size of an effect found is re-measured on fresh deals (``fresh_check``): an effect picked
for being the largest of many reads larger on the deals that found it than it is (on fresh deals
the effects averaged 0.71 of it), so the fresh estimate is the answer, and the discovery estimate
is labelled as such. A found effect is *confirmed* when its fresh one-sided test in the found
direction rejects after Benjamini–Hochberg over every effect checked (seats, spread and lead changes
together), *reversed* when its fresh
interval lies wholly on the other side of 0, and *not confirmed* otherwise.
"""

import numpy as np
import pandas as pd
from bgsim.sim.stats.intervals import t_bounds, wilson
from scipy import stats
from statsmodels.stats.multitest import multipletests

__all__ = ["ABLATION_MEASURES", "CONFIRMED", "NOT_CONFIRMED", "REVERSED", "ablation_effects", "ablation_moments",
           "add_moments", "correct_family", "deal_columns", "effects_from_moments", "fresh_check"]

CONFIRMED, REVERSED, NOT_CONFIRMED = "confirmed", "reversed", "not confirmed"

# The paired measures besides the seats' win shares: name -> what it is.
ABLATION_MEASURES = {"spread": "best final score minus the worst", "leads": "lead changes in the game"}


def deal_columns(n_players: int) -> tuple[str, ...]:
    """The columns of one (deal, component) row at ``n_players`` seats."""
    seats = [f"win_{arm}_{i}" for arm in ("with", "without") for i in range(n_players)]
    return ("deal", "component", "replacement", *seats, "spread_with", "spread_without", "leads_with",
            "leads_without", "winner_changed")


def _mean_test(k: float, total: float, squares: float) -> tuple[float, float, float, float, float]:
    """Mean of ``k`` paired differences from their sum and sum of squares, its 95 % t interval,
    two-sided p (NaN with fewer than 2; 1 when they never vary and are 0, 0 when they never vary and
    are not) and standard error."""
    mean = total / k if k else float("nan")
    deviations = max(squares - total * mean, 0.0) if k else 0.0  # sum of squared deviations
    sd = float(np.sqrt(deviations / (k - 1))) if k > 1 else float("nan")
    if k > 1 and sd < 1e-12 * max(1.0, abs(mean)):
        sd = 0.0  # rounding in the sums of identical differences
    low, high = t_bounds(np.array([mean]), np.array([sd]), np.array([k]))
    if k < 2:
        p = float("nan")
    elif sd > 0:
        p = float(2 * stats.t.sf(abs(mean) / (sd / np.sqrt(k)), k - 1))
    else:
        p = 1.0 if mean == 0 else 0.0
    se = sd / np.sqrt(k) if k > 1 else float("nan")
    return mean, float(low[0]), float(high[0]), p, float(se)


def _differences(n_players: int) -> list[str]:
    return [f"seat{i}" for i in range(n_players)] + list(ABLATION_MEASURES)


def ablation_moments(rows: pd.DataFrame, n_players: int) -> pd.DataFrame:
    """Per component of ``rows`` (``deal_columns``), indexed by it: the deals, the sums and sums of
    squares of every paired difference (each seat's win share, spread, leads), the sums with and
    without of spread and leads, and the deals whose winners changed. Moments of chunks add up
    (``add_moments``), so effects come from chunk after chunk, never all rows at once."""
    frame = pd.DataFrame({"component": rows["component"].to_numpy(np.int64), "deals": 1.0,
                          "changed": rows["winner_changed"].to_numpy(np.float64)})
    for i in range(n_players):
        frame[f"seat{i}"] = rows[f"win_with_{i}"].to_numpy(np.float64) - rows[f"win_without_{i}"].to_numpy(np.float64)
    for measure in ABLATION_MEASURES:
        for arm in ("with", "without"):
            frame[f"{measure}_{arm}"] = rows[f"{measure}_{arm}"].to_numpy(np.float64)
        frame[measure] = frame[f"{measure}_with"] - frame[f"{measure}_without"]
    for column in _differences(n_players):
        frame[f"{column}_sq"] = frame[column] ** 2
    return frame.groupby("component", sort=True).sum()


def add_moments(a: pd.DataFrame, b: pd.DataFrame) -> pd.DataFrame:
    return a.add(b, fill_value=0.0)


def ablation_effects(rows: pd.DataFrame, n_players: int) -> pd.DataFrame:
    """``effects_from_moments`` of ``rows`` (``deal_columns``) in one go."""
    return effects_from_moments(ablation_moments(rows, n_players), n_players)


def effects_from_moments(moments: pd.DataFrame, n_players: int) -> pd.DataFrame:
    """Per component: deals, each seat's win-share change ``seat<i>`` with ``seat<i>_low/high``
    (fractions), ``_p`` and ``_se``, the largest of them (``seat_effect``, its ``seat_effect_seat`` and
    interval; of equal ones the gain) with ``seat_q``; ``spread`` and ``leads``: mean with and
    without, their change, its interval, p, standard error and q; ``changed``: the share of deals
    whose winners differ. The q-values correct over this table's family (``correct_family``)."""
    out = []
    for component, m in moments.sort_index().iterrows():
        k = float(m["deals"])
        row = {"component": int(component), "n_players": n_players, "deals": int(k)}
        for i in range(n_players):
            mean, low, high, p, se = _mean_test(k, m[f"seat{i}"], m[f"seat{i}_sq"])
            row |= {f"seat{i}": mean, f"seat{i}_low": low, f"seat{i}_high": high, f"seat{i}_p": p, f"seat{i}_se": se}
        # the seat it moves most; of equal moves the seat that gains (at 2 seats one gains what the other loses)
        top = max(range(n_players), key=lambda i: (abs(row[f"seat{i}"]), row[f"seat{i}"] > 0, -i))
        row |= {"seat_effect": row[f"seat{top}"], "seat_effect_seat": top, "seat_effect_low": row[f"seat{top}_low"],
                "seat_effect_high": row[f"seat{top}_high"], "seat_effect_se": row[f"seat{top}_se"]}
        for measure in ABLATION_MEASURES:
            mean, low, high, p, se = _mean_test(k, m[measure], m[f"{measure}_sq"])
            row |= {f"{measure}_with": m[f"{measure}_with"] / k, f"{measure}_without": m[f"{measure}_without"] / k,
                    measure: mean, f"{measure}_low": low, f"{measure}_high": high, f"{measure}_p": p,
                    f"{measure}_se": se}
        changed = int(round(m["changed"]))
        low, high = wilson(np.array([changed]), np.array([k]))
        row |= {"changed": changed / k, "changed_low": float(low[0]), "changed_high": float(high[0])}
        out.append(row)
    table = pd.DataFrame(out)
    return correct_family(table) if len(table) else table


def _seats(n_players: int) -> range:
    """The seats whose changes are findings of their own: one at two players (the other mirrors it)."""
    return range(1 if n_players == 2 else n_players)


def correct_family(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` (``effects_from_moments`` rows of one or several player counts, with ``n_players``)
    with its q-values over the whole family: ``seat<i>_q`` (Benjamini–Hochberg over every tested
    (player count, component, seat), one seat per component at two players; the mirrored seat gets
    the same q), ``seat_q`` (a component's smallest), and ``spread_q``, ``leads_q``."""
    table = table.copy()
    seats = int(table["n_players"].max())
    found = []  # (row, seat, p) of every test in the family
    for r, n in enumerate(table["n_players"].astype(int)):
        for i in _seats(n):
            p = table.iloc[r][f"seat{i}_p"]
            if np.isfinite(p):
                found.append((r, i, p))
    for i in range(seats):
        table[f"seat{i}_q"] = np.nan
    if found:
        q = multipletests([p for _, _, p in found], method="fdr_bh")[1]
        for (r, i, _), value in zip(found, q, strict=True):
            table.iloc[r, table.columns.get_loc(f"seat{i}_q")] = value
            if int(table.iloc[r]["n_players"]) == 2:
                table.iloc[r, table.columns.get_loc("seat1_q")] = value
    table["seat_q"] = table[[f"seat{i}_q" for i in range(seats)]].min(axis=1, skipna=True)
    for test in ABLATION_MEASURES:
        table[f"{test}_q"] = np.nan
        tested = table[f"{test}_p"].notna()
        if tested.any():
            table.loc[tested, f"{test}_q"] = multipletests(table.loc[tested, f"{test}_p"], method="fdr_bh")[1]
    return table


def fresh_check(found: pd.DataFrame, fresh: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """``found`` (``ablation_effects`` of one or several player counts) with its check on fresh deals:
    per test (``seat``: the seat it moves most; ``spread``, ``leads``) the fresh estimate, interval and
    q (``<test>_fresh``, ``_fresh_low``, ``_fresh_high``, ``_fresh_q``: the one-sided test in the found
    direction, Benjamini–Hochberg over every effect checked, of all three tests together),
    ``<test>_outcome`` (CONFIRMED, REVERSED, NOT_CONFIRMED; empty where nothing was found) and
    ``<test>_confirmed`` (1 / 0, NaN where nothing was found), for the effects found (q < ``alpha``)."""
    keyed = fresh.set_index(["n_players", "component"])
    out = found.copy()
    parts = {}
    for test in ("seat", *ABLATION_MEASURES):
        estimates = []
        for r in found.to_dict(orient="records"):
            key = (r["n_players"], r["component"])
            column = f"seat{int(r['seat_effect_seat'])}" if test == "seat" else test
            row = keyed.loc[key] if key in keyed.index else None
            estimates.append((np.nan,) * 5 if row is None else (
                row[column], row[f"{column}_low"], row[f"{column}_high"], row.get(f"{column}_se", np.nan),
                row["deals"]))
        values = np.array(estimates, dtype=np.float64).reshape(-1, 5)
        estimate, low, high, se, deals = values.T
        out[f"{test}_fresh"], out[f"{test}_fresh_low"], out[f"{test}_fresh_high"] = estimate, low, high
        effect = found["seat_effect" if test == "seat" else test].to_numpy(np.float64)
        checked = (found[f"{test}_q"] < alpha).to_numpy() & np.isfinite(estimate)
        sign = np.sign(effect)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = sign * estimate / se
            p = np.where(se > 0, stats.t.sf(t, np.maximum(deals - 1, 1)),
                         np.where(sign * estimate > 0, 0.0, 1.0))
        reversed_ = np.where(sign > 0, high < 0, low > 0)
        parts[test] = (checked, p, reversed_)
    every = np.concatenate([p[checked] for checked, p, _ in parts.values()])
    q_all = multipletests(every, method="fdr_bh")[1] if len(every) else every
    start = 0
    for test, (checked, _, reversed_) in parts.items():
        q = np.full(len(found), np.nan)
        q[checked] = q_all[start:start + int(checked.sum())]
        start += int(checked.sum())
        outcome = np.where(~checked, "", np.where(q < alpha, CONFIRMED, np.where(reversed_, REVERSED, NOT_CONFIRMED)))
        out[f"{test}_fresh_q"] = q
        out[f"{test}_outcome"] = outcome
        out[f"{test}_confirmed"] = np.where(checked, (outcome == CONFIRMED).astype(float), np.nan)
    return out
