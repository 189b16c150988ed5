"""Charts of the seat-order report: one function per chart, each returning a matplotlib Figure.

Every rate is drawn with its 95 % interval; the fair share 1/n is a dashed line.
"""

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

__all__ = ["category_chart", "compensation_chart", "seat_win_chart", "vp_distribution_chart"]


def _panels(count: int, width: float = 4.2, height: float = 3.6, rows: int = 1) -> tuple[Figure, list]:
    fig = Figure(figsize=(max(width * count / rows, 5), height * rows), layout="constrained")
    axes = fig.subplots(rows, count // rows, squeeze=False).ravel().tolist()
    return fig, axes


def seat_win_chart(seats: pd.DataFrame, title: str = "Seat win rates") -> Figure:
    """Win rate per seat with Wilson intervals: one panel per player count, one bar group per
    population, colours for the start vectors; the fair share as a dashed line."""
    counts = sorted(seats["n_players"].unique())
    fig, axes = _panels(len(counts))
    starts = list(dict.fromkeys(seats["start"]))
    pops = list(dict.fromkeys(seats["population"]))
    for ax, n in zip(axes, counts, strict=True):
        part = seats[seats["n_players"] == n]
        width = 0.8 / max(1, len(pops) * len(starts))
        for i, (pop, start) in enumerate((p, s) for p in pops for s in starts):
            rows = part[(part["population"] == pop) & (part["start"] == start)].sort_values("seat")
            if rows.empty:
                continue
            x = rows["seat"].to_numpy() + 1 + (i - (len(pops) * len(starts) - 1) / 2) * width
            rate = 100 * rows["win_rate"].to_numpy()
            err = [rate - 100 * rows["win_rate_low"].to_numpy(), 100 * rows["win_rate_high"].to_numpy() - rate]
            ax.bar(x, rate, width, yerr=err, capsize=2, label=f"{pop}, {start}", alpha=0.85)
        ax.axhline(100 / n, color="black", linestyle="--", linewidth=1, label="fair share")
        ax.set_title(f"{n} players")
        ax.set_xlabel("seat (1 = start player)")
        ax.set_ylabel("win rate (%), 95 % interval")
        ax.set_xticks(range(1, n + 1))
    axes[-1].legend(fontsize=7, loc="upper right")
    fig.suptitle(title)
    return fig


def vp_distribution_chart(rows: pd.DataFrame, title: str = "Final VP per seat") -> Figure:
    """Box plots of final VP per seat (whiskers 5-95 %), one panel per player count and population,
    for the rulebook start vector (or the first one present)."""
    start = "rulebook" if "rulebook" in set(rows["start"]) else rows["start"].iloc[0]
    rows = rows[rows["start"] == start]
    keys = sorted({(int(n), p) for n, p in zip(rows["n_players"], rows["population"], strict=True)})
    fig, axes = _panels(len(keys), width=3.4)
    for ax, (n, pop) in zip(axes, keys, strict=True):
        part = rows[(rows["n_players"] == n) & (rows["population"] == pop)]
        data = [part.loc[part["seat"] == s, "final_vp"].to_numpy() for s in range(n)]
        ax.boxplot(data, whis=(5, 95), showfliers=False, tick_labels=[str(s + 1) for s in range(n)])
        means = [d.mean() if len(d) else np.nan for d in data]
        ax.plot(range(1, n + 1), means, "o", color="tab:red", markersize=4, label="mean")
        ax.set_title(f"{n} players, {pop}", fontsize=9)
        ax.set_xlabel("seat")
        ax.set_ylabel("final VP")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"{title} (start VP: {start}; boxes 25-75 %, whiskers 5-95 %)")
    return fig


def category_chart(categories: pd.DataFrame, title: str = "VP by category and seat") -> Figure:
    """Mean VP per category and seat with t intervals: one panel per player count (the first
    population and the rulebook start vector, or the first present)."""
    start = "rulebook" if "rulebook" in set(categories["start"]) else categories["start"].iloc[0]
    pop = categories["population"].iloc[0]
    part_all = categories[(categories["start"] == start) & (categories["population"] == pop)]
    counts = sorted(part_all["n_players"].unique())
    fig, axes = _panels(len(counts), width=5.0)
    for ax, n in zip(axes, counts, strict=True):
        part = part_all[part_all["n_players"] == n]
        cats = list(dict.fromkeys(part["category"]))
        width = 0.8 / n
        for seat in range(n):
            rows = part[part["seat"] == seat].set_index("category").reindex(cats)
            x = np.arange(len(cats)) + (seat - (n - 1) / 2) * width
            mean = rows["mean"].to_numpy()
            ax.bar(x, mean, width, yerr=[mean - rows["mean_low"].to_numpy(), rows["mean_high"].to_numpy() - mean],
                   capsize=2, label=f"seat {seat + 1}")
        ax.set_xticks(range(len(cats)), [c.removeprefix("vp_").replace("_", " ") for c in cats], rotation=30,
                      ha="right", fontsize=8)
        ax.set_ylabel("mean VP, 95 % interval")
        ax.set_xlabel("category")
        ax.set_title(f"{n} players")
        ax.legend(fontsize=7)
    fig.suptitle(f"{title} ({pop}, start VP {start})")
    return fig


def compensation_chart(solutions: pd.DataFrame, title: str = "Compensating start VP") -> Figure:
    """Left: rulebook and solved start VP per seat, the solution's bootstrap interval as a bar.
    Right: seat win rates under the rulebook vector, under the solved vector on the stored games,
    and confirmed on fresh deals (when present), all with Wilson intervals."""
    keys = sorted({(int(n), p) for n, p in zip(solutions["n_players"], solutions["population"], strict=True)})
    fig, axes = _panels(2 * len(keys), width=4.5, height=3.2, rows=len(keys))
    for k, (n, pop) in enumerate(keys):
        part = solutions[(solutions["n_players"] == n) & (solutions["population"] == pop)].sort_values("seat")
        seats = part["seat"].to_numpy() + 1
        ax = axes[2 * k]
        ax.plot(seats, part["rulebook"], "s", color="grey", label="rulebook")
        solved = part["solved"].to_numpy()
        ax.errorbar(seats, solved, yerr=[solved - part["low"].to_numpy(), part["high"].to_numpy() - solved],
                    fmt="o", color="tab:blue", capsize=3, label="solved (bootstrap 95 %)")
        ax.set_xticks(seats)
        ax.set_xlabel("seat")
        ax.set_ylabel("start VP")
        ax.set_title(f"{n} players, {pop}", fontsize=9)
        ax.legend(fontsize=7)
        ax = axes[2 * k + 1]
        series = [("rate_rulebook", "rulebook", -0.25), ("rate_solved", "solved, stored games", 0.0),
                  ("rate_confirmed", "solved, fresh deals", 0.25)]
        for column, label, shift in series:
            if column not in part or part[column].isna().all():
                continue
            rate = 100 * part[column].to_numpy()
            err = [rate - 100 * part[f"{column}_low"].to_numpy(), 100 * part[f"{column}_high"].to_numpy() - rate]
            ax.errorbar(seats + shift, rate, yerr=err, fmt="o", capsize=3, label=label)
        ax.axhline(100 / n, color="black", linestyle="--", linewidth=1)
        ax.set_xticks(seats)
        ax.set_xlabel("seat")
        ax.set_ylabel("win rate (%), 95 % interval")
        ax.legend(fontsize=7)
    fig.suptitle(title)
    return fig
