"""Ablation effects: what a component changes at the table, from paired deals.

Each row is one deal played twice with the same chance and the same seat streams: with the
component as dealt, and with it replaced (``sim.api.ComponentAblation``). Per component this
module gives the mean paired change (with minus without) of every seat's win share, of the score
spread (best final score minus worst) and of the lead changes (``sim.leads``), and how often the
replacement changed who won. Deals are independent, so the intervals are Student t over deals
(Wilson for the share of changed winners); the seat test of a component is its smallest seat p
times the seats (Bonferroni); it and the tests of the spread and lead changes are corrected over
the components (Benjamini-Hochberg q).
"""

import numpy as np
import pandas as pd
from bgsim.sim.stats.intervals import t_bounds, wilson
from scipy import stats
from statsmodels.stats.multitest import multipletests

__all__ = ["ABLATION_MEASURES", "ablation_effects", "ablation_moments", "add_moments", "deal_columns",
           "effects_from_moments", "held_on_fresh"]

# The paired measures besides the seats' win shares: name -> what it is.
ABLATION_MEASURES = {"spread": "best final score minus the worst", "leads": "lead changes in the game"}


def deal_columns(n_players: int) -> tuple[str, ...]:
    """The columns of one (deal, component) row at ``n_players`` seats."""
    seats = [f"win_{arm}_{i}" for arm in ("with", "without") for i in range(n_players)]
    return ("deal", "component", "replacement", *seats, "spread_with", "spread_without", "leads_with",
            "leads_without", "winner_changed")


def _mean_test(k: float, total: float, squares: float) -> tuple[float, float, float, float]:
    """Mean of ``k`` paired differences from their sum and sum of squares, its 95 % t interval and
    two-sided p (NaN with fewer than 2; 1 when they never vary and are 0, 0 when they never vary and
    are not)."""
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
    return mean, float(low[0]), float(high[0]), p


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
    (fractions), the largest of them (``seat_effect``, its ``seat_effect_seat`` and interval; of
    equal ones the gain) with ``seat_q``; ``spread`` and ``leads``: mean with and without, their
    change, its interval and q; ``changed``: the share of deals whose winners differ."""
    out = []
    for component, m in moments.sort_index().iterrows():
        k = float(m["deals"])
        row = {"component": int(component), "deals": int(k)}
        seat_p = []
        for i in range(n_players):
            mean, low, high, p = _mean_test(k, m[f"seat{i}"], m[f"seat{i}_sq"])
            row |= {f"seat{i}": mean, f"seat{i}_low": low, f"seat{i}_high": high}
            seat_p.append(p)
        # the seat it moves most; of equal moves the seat that gains (at 2 seats one gains what the other loses)
        top = max(range(n_players), key=lambda i: (abs(row[f"seat{i}"]), row[f"seat{i}"] > 0, -i))
        row |= {"seat_effect": row[f"seat{top}"], "seat_effect_seat": top, "seat_effect_low": row[f"seat{top}_low"],
                "seat_effect_high": row[f"seat{top}_high"],
                "seat_p": min(1.0, np.nanmin(seat_p) * n_players) if np.isfinite(seat_p).any() else np.nan}
        for measure in ABLATION_MEASURES:
            mean, low, high, p = _mean_test(k, m[measure], m[f"{measure}_sq"])
            row |= {f"{measure}_with": m[f"{measure}_with"] / k, f"{measure}_without": m[f"{measure}_without"] / k,
                    measure: mean, f"{measure}_low": low, f"{measure}_high": high, f"{measure}_p": p}
        changed = int(round(m["changed"]))
        low, high = wilson(np.array([changed]), np.array([k]))
        row |= {"changed": changed / k, "changed_low": float(low[0]), "changed_high": float(high[0])}
        out.append(row)
    table = pd.DataFrame(out)
    if table.empty:
        return table
    for test in ("seat", *ABLATION_MEASURES):
        table[f"{test}_q"] = np.nan
        tested = table[f"{test}_p"].notna()
        if tested.any():
            table.loc[tested, f"{test}_q"] = multipletests(table.loc[tested, f"{test}_p"], method="fdr_bh")[1]
    return table


def held_on_fresh(found: pd.DataFrame, fresh: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """``found`` (``ablation_effects`` with ``n_players``) with its check on fresh deals: per test
    (``seat``: the seat it moves most; ``spread``, ``leads``) the fresh estimate and interval
    (``<test>_fresh``, ``_fresh_low``, ``_fresh_high``) and, for the effects found (q < ``alpha``),
    ``<test>_holds``: the fresh interval is on the same side of 0 (NaN where nothing was found)."""
    keyed = fresh.set_index(["n_players", "component"])
    out = found.copy()
    for test in ("seat", *ABLATION_MEASURES):
        estimates = []
        for r in found.to_dict(orient="records"):
            key = (r["n_players"], r["component"])
            column = f"seat{int(r['seat_effect_seat'])}" if test == "seat" else test
            row = keyed.loc[key] if key in keyed.index else None
            estimates.append((np.nan,) * 3 if row is None else (row[column], row[f"{column}_low"],
                                                                row[f"{column}_high"]))
        values = np.array(estimates, dtype=np.float64).reshape(-1, 3)
        out[f"{test}_fresh"], out[f"{test}_fresh_low"], out[f"{test}_fresh_high"] = values.T
        effect = found["seat_effect" if test == "seat" else test].to_numpy(np.float64)
        same_side = np.where(effect > 0, values[:, 1] > 0, values[:, 2] < 0)
        out[f"{test}_holds"] = np.where(found[f"{test}_q"] < alpha, same_side, np.nan)
    return out
