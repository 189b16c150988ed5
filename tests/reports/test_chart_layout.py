"""Every report chart follows the layout rules of reports.charts at the size of a large study and at the
narrowest (one player count, one knob, long names): at most the content width, no text below MIN_FONT_PT,
no legend over the axes, no text cut at the figure's edge and no titles running into each other; and the
rule check itself can fail."""

import numpy as np
import pandas as pd
import pytest
from bgsim.reports import difficulty_charts, run_charts, seat_charts
from bgsim.reports.charts import (
    MAX_FIGURE_WIDTH_IN,
    MIN_FONT_PT,
    fit_titles,
    legend_below,
    pairwise_heatmap,
    panel_grid,
    ratings_chart,
    readability_problems,
)
from bgsim.reports.robustness_report import robustness_chart
from bgsim.sim.stats.distribution import value_counts
from matplotlib.figure import Figure

RNG = np.random.default_rng(3)
COUNTS = (2, 3, 4)
POPS = ("greedy", "planner", "mixed")
STARTS = ("rulebook", "equal")
VARIANTS = ("baseline", "villa_table_alternative", "frame_line_straddle", "tiles_villas_plus25",
            "tiles_villas_minus25", "tiles_landscapes_plus25", "tiles_landscapes_minus25", "tiles_lodgings_plus25",
            "tiles_lodgings_minus25")


def _with_interval(frame: pd.DataFrame, column: str, half: float) -> pd.DataFrame:
    return frame.assign(**{f"{column}_low": frame[column] - half, f"{column}_high": frame[column] + half})


def _seats(pops=POPS, counts=COUNTS) -> pd.DataFrame:
    rows = [dict(n_players=n, population=p, start=s, seat=seat, win_rate=1 / n + RNG.normal(0, 0.02))
            for n in counts for p in pops for s in STARTS for seat in range(n)]
    return _with_interval(pd.DataFrame(rows), "win_rate", 0.01)


def _games(pops=POPS, counts=COUNTS) -> pd.DataFrame:
    rows = [pd.DataFrame({"n_players": n, "population": p, "start": s, "seat": seat,
                          "final_vp": RNG.normal(100, 15, 200).round().astype(int)})
            for n in counts for p in pops for s in STARTS for seat in range(n)]
    return pd.concat(rows, ignore_index=True)


def _score_counts(pops=POPS, counts=COUNTS) -> pd.DataFrame:
    return value_counts(_games(pops, counts), ["n_players", "population", "start", "seat"], "final_vp").to_pandas()


def _categories(pops=POPS, counts=COUNTS) -> pd.DataFrame:
    cats = ("vp_banner", "vp_cards", "vp_fountain_cards", "vp_frame_tasks", "vp_leftovers", "vp_villas")
    rows = [dict(n_players=n, population=p, start=s, seat=seat, category=c, mean=RNG.uniform(1, 30))
            for n in counts for p in pops for s in STARTS for seat in range(n) for c in cats]
    return _with_interval(pd.DataFrame(rows), "mean", 0.4)


def _compensation(pops=POPS, counts=COUNTS) -> pd.DataFrame:
    rows = []
    for n in counts:
        for p in pops:
            for seat in range(n):
                solved = 8 + seat + int(RNG.integers(-1, 2))
                rows.append(dict(n_players=n, population=p, seat=seat, rulebook=(8, 9, 13, 11)[seat] if n == 3 or
                                 seat < 2 else 8 + seat, solved=solved, low=solved - 1, high=solved + 1,
                                 rate_rulebook=1 / n + 0.03, rate_solved=1 / n, rate_confirmed=1 / n - 0.01))
    frame = pd.DataFrame(rows)
    for column in ("rate_rulebook", "rate_solved", "rate_confirmed"):
        frame = _with_interval(frame, column, 0.01)
    return frame


def _robustness() -> pd.DataFrame:
    keys = [(f"{n}p greedy, start {s}: {side} seat", "seat", "seat 1 (not significant)")
            for n in COUNTS for s in STARTS for side in ("best", "worst")]
    keys += [("3p greedy: the 13 of seat 3", "thirteen", "13 over-compensates")]
    keys += [(f"{n}p greedy: balancing start VP", "vector", "8/9/10/11"[:2 * n + 1]) for n in COUNTS]
    keys += [(f"{n}p: card A{c:02d}", "card", "+") for n in COUNTS for c in range(1, 18)]
    rows = [dict(key=k, kind=kind, value=value, variant=v, value_variant=value if RNG.random() < 0.8 else "seat 2",
                 holds=bool(RNG.random() < 0.8)) for v in VARIANTS[1:] for k, kind, value in keys]
    return pd.DataFrame(rows)


def _anna_outcomes(order: list[str]) -> pd.DataFrame:
    frame = pd.DataFrame({"rung": order, "win_rate": np.linspace(0.01, 0.95, len(order))})
    return _with_interval(frame, "win_rate", 0.01)


RUNGS = ["random", "greedy", "planner", "search"]
KNOBS = {"anna_convert_at": 3, "anna_extra_steps": 0, "anna_majority_vp": 10, "anna_start_vp": 0}


def _sweep() -> pd.DataFrame:
    rows = [dict(knob=k, rung=r, value=v, win_rate=RNG.uniform(0.1, 0.9))
            for k, base in KNOBS.items() for r in RUNGS for v in range(base - 4, base + 5, 2)]
    return _with_interval(pd.DataFrame(rows), "win_rate", 0.02)


def _levels() -> tuple[pd.DataFrame, pd.DataFrame]:
    levels = pd.DataFrame([dict(rung=r, target=t, value=v, value_low=v - 1, value_high=v + 1, verify_rate=t)
                           for r in RUNGS for t, v in ((0.7, -20), (0.5, -5), (0.3, 10), (0.15, 25))])
    points = pd.DataFrame([dict(rung=r, value=v, win_rate=min(0.99, max(0.01, 0.5 - v / 60)))
                           for r in RUNGS for v in range(-40, 41, 4)])
    return _with_interval(levels, "verify_rate", 0.02), _with_interval(points, "win_rate", 0.02)


def _ratings() -> tuple[pd.DataFrame, pd.DataFrame]:
    names = ["random", "greedy", "planner", "frame_hunter", "trader", "search"]
    ratings = pd.DataFrame([dict(n_players=n, strategy=s, rating=RNG.normal(0, 50)) for n in COUNTS for s in names])
    ratings = ratings.assign(low=ratings["rating"] - 20, high=ratings["rating"] + 20)
    pairwise = pd.DataFrame([dict(n_players=n, a=a, b=b, share=RNG.uniform()) for n in COUNTS for a in names
                             for b in names if a != b])
    return ratings, pairwise


def _strategies() -> pd.DataFrame:
    names = ["carpe_diem/greedy", "random", "planner(horizon=3)"]
    frame = pd.DataFrame([dict(n_players=n, strategy=s, win_rate=RNG.uniform(0.05, 0.9))
                          for n in COUNTS for s in names])
    return _with_interval(frame, "win_rate", 0.02)


def _strategy_categories() -> pd.DataFrame:
    cats = ("banner", "scoring cards", "fountain cards", "frame tasks", "leftovers", "villas")
    return pd.DataFrame([dict(n_players=n, strategy=s, category=c, mean=RNG.uniform(-20, 40)) for n in COUNTS
                         for s in ("carpe_diem/greedy", "random") for c in cats])


CHARTS = {
    "seat_win": lambda: seat_charts.seat_win_chart(_seats()),
    "seat_win_one_player_count": lambda: seat_charts.seat_win_chart(_seats(counts=(3,))),
    "seat_win_by_variant": lambda: seat_charts.seat_win_chart(_seats(pops=VARIANTS)),
    "score_distribution": lambda: seat_charts.score_distribution_chart(_score_counts(), "final_vp"),
    "score_distribution_one_player_count": lambda: seat_charts.score_distribution_chart(
        _score_counts(pops=("greedy",), counts=(2,)), "final_vp"),  # its title used to be cut on both sides
    "categories": lambda: seat_charts.category_chart(_categories()),
    "categories_one_player_count": lambda: seat_charts.category_chart(_categories(counts=(4,))),
    "categories_one_population": lambda: seat_charts.category_chart(_categories(pops=("greedy",))),
    "categories_long_names": lambda: seat_charts.category_chart(_categories(pops=VARIANTS[1:5])),
    "compensation": lambda: seat_charts.compensation_chart(_compensation()),
    "compensation_one": lambda: seat_charts.compensation_chart(_compensation(pops=("greedy",), counts=(3,))),
    "compensation_long_names": lambda: seat_charts.compensation_chart(_compensation(pops=VARIANTS[1:4])),
    "robustness": lambda: robustness_chart(_robustness(), list(VARIANTS[1:])),
    "robustness_two_variants": lambda: robustness_chart(_robustness()[lambda t: t["variant"].isin(VARIANTS[1:3])],
                                                        list(VARIANTS[1:3])),
    "anna_win_rates": lambda: difficulty_charts.win_rate_chart(_anna_outcomes(RUNGS), RUNGS),
    "anna_margins": lambda: difficulty_charts.margin_chart(
        pd.DataFrame({"rung": np.repeat(RUNGS, 300), "margin": RNG.normal(0, 30, 300 * len(RUNGS))}), RUNGS),
    "anna_sources": lambda: difficulty_charts.source_chart(pd.DataFrame(
        [dict(rung=r, source=s, mean=RNG.uniform(0, 40)) for r in RUNGS
         for s in ("start VP", "banner", "villa track", "majorities", "fountain cards")]), RUNGS),
    "anna_sweep": lambda: difficulty_charts.sweep_chart(_sweep(), KNOBS, {"easy": 0.7, "normal": 0.5, "hard": 0.3}),
    "anna_sweep_one_knob": lambda: difficulty_charts.sweep_chart(
        _sweep()[lambda t: t["knob"] == "anna_start_vp"], KNOBS, {"normal": 0.5}),
    "anna_calibration": lambda: difficulty_charts.calibration_chart(_levels()[1], _levels()[0], RUNGS, "anna_start_vp"),
    "anna_calibration_one_rung": lambda: difficulty_charts.calibration_chart(
        _levels()[1][lambda t: t["rung"] == "planner"], _levels()[0][lambda t: t["rung"] == "planner"], ["planner"],
        "anna_start_vp"),
    "run_strategy_wins": lambda: run_charts.strategy_win_chart(_strategies()),
    "run_categories": lambda: run_charts.category_chart(_strategy_categories(), "VP"),
    "ratings": lambda: ratings_chart(_ratings()[0]),
    "pairwise": lambda: pairwise_heatmap(_ratings()[1]),
}


@pytest.mark.parametrize("name", list(CHARTS))
def test_chart_follows_the_layout_rules(name):
    fig = CHARTS[name]()
    assert readability_problems(fig) == []


def test_panels_wrap_into_rows_of_at_most_three():
    fig, axes = panel_grid(9)
    assert len(axes) == 9 and len(fig.axes) == 9
    assert {ax.get_subplotspec().get_geometry()[:2] for ax in axes} == {(3, 3)}
    fig, axes = panel_grid(4)
    assert len(fig.axes) == 4 and axes[0].get_subplotspec().get_geometry()[:2] == (2, 2)
    fig, axes = panel_grid(5)
    assert len(fig.axes) == 5 and axes[0].get_subplotspec().get_geometry()[:2] == (2, 3)  # the sixth cell removed
    fig, _ = panel_grid(12, panel_width=5.0)  # wide panels: one per row
    assert fig.get_figwidth() <= MAX_FIGURE_WIDTH_IN and fig.axes[0].get_subplotspec().get_geometry()[1] == 1


def test_one_player_count_keeps_the_legend_off_the_bars():
    """A one-player-count study: the legend used to sit in the panel, over the seat-3 bars."""
    fig = seat_charts.seat_win_chart(_seats(counts=(3,)))
    assert len(fig.legends) == 1 and all(ax.get_legend() is None for ax in fig.axes)
    fig.draw_without_rendering()  # positions are known after the layout
    legend = fig.legends[0].get_window_extent()
    assert not legend.overlaps(fig.axes[0].get_window_extent())


def _bad_chart(width: float = 6.0, font: float = 10.0, legend_inside: bool = False, title: str = "") -> Figure:
    fig = Figure(figsize=(width, 3), layout="constrained")
    ax = fig.subplots()
    ax.bar([1, 2, 3], [5, 6, 7], label="seat")
    ax.set_title("panel", fontsize=font)
    fig.suptitle(title)
    if legend_inside:
        ax.legend(loc="upper left")
    else:
        legend_below(fig)
    return fig


def _crowded_titles() -> Figure:
    fig, axes = panel_grid(3)
    for ax in axes:
        ax.set_title("a panel title far too long for a third of the page")
    return fig


def test_the_rule_check_reports_each_broken_rule():
    assert readability_problems(_bad_chart()) == []
    assert "in wide" in " ".join(readability_problems(_bad_chart(width=12)))
    small = readability_problems(_bad_chart(font=MIN_FONT_PT - 2))
    assert len(small) == 1 and f"{MIN_FONT_PT - 2:g} pt" in small[0]
    inside = readability_problems(_bad_chart(legend_inside=True))
    assert len(inside) == 1 and "legend (seat) lies over the axes of 'panel'" in inside[0]
    title = "Final points per seat (start vector: rulebook; boxes 25-75 %, whiskers 5-95 %)"
    cut = readability_problems(_bad_chart(width=5, title=title))
    assert len(cut) == 1 and cut[0].startswith("the text 'Final points per seat") and "past the figure's edge" in cut[0]
    assert readability_problems(fit_titles(_bad_chart(width=5, title=title))) == []
    crowded = readability_problems(_crowded_titles())
    assert any("run into each other" in p for p in crowded), crowded
    assert readability_problems(fit_titles(_crowded_titles())) == []
