"""One colour per population across every chart of a report (issue: each chart coloured the populations in
its own order, so one population changed colour from chart to chart), and the category chart of the
seat-order report shows every population, not only the first."""

import re
import textwrap

import pandas as pd
import pytest
from bgsim.experiments.seat_order import load_seat_order, run_seat_order
from bgsim.reports import report_builder, seat_charts
from bgsim.reports.charts import MAX_FIGURE_WIDTH_IN, chart_colours, population_colours, readability_problems
from matplotlib.colors import rgb_to_hsv, to_hex, to_rgb
from matplotlib.container import BarContainer, ErrorbarContainer
from matplotlib.figure import Figure

from bgsim.report import write_report
from tests.reports.test_chart_layout import _categories, _compensation, _score_counts, _seats

DECLARED = ("random", "greedy", "mixed")  # a study's populations in the order its spec lists them


def _hue(colour) -> float:
    """Shading a colour towards white or black keeps its hue: the seats of a population share it."""
    return round(float(rgb_to_hsv(to_rgb(colour))[0]), 3)


def _seat_win_colours(fig: Figure) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for ax in fig.axes:
        for bars in ax.containers:
            if isinstance(bars, BarContainer):
                found.setdefault(bars.get_label().split(", ")[0], set()).add(to_hex(bars.patches[0].get_facecolor()))
    return found


def _score_colours(fig: Figure) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for ax in fig.axes:
        for line in ax.get_lines():
            if not line.get_label().startswith("_"):
                found.setdefault(line.get_label(), set()).add(to_hex(line.get_color()))
    return found


def _compensation_colours(fig: Figure) -> dict[str, set[str]]:
    """The solutions' colours: labelled by population in the top row, by the panel title below."""
    found: dict[str, set[str]] = {}
    for ax in fig.axes:
        below = re.fullmatch(r"\d+ players, (.+): win rate", ax.get_title().replace("\n", " "))
        for bars in ax.containers:
            label = bars.get_label()
            top = re.fullmatch(r"solved, (.+) \(bootstrap 95 %\)", label)
            pop = top.group(1) if top else below.group(1) if below and label.startswith("solved") else None
            if isinstance(bars, ErrorbarContainer) and pop:
                found.setdefault(pop, set()).add(to_hex(bars.lines[0].get_color()))
    return found


def _category_panels(fig: Figure) -> dict[str, list[set[float]]]:
    """Per population (from the panel titles), the hues of each of its panels' bars."""
    found: dict[str, list[set[float]]] = {}
    for ax in fig.axes:
        pop = ax.get_title().replace("\n", " ").rsplit(": ", 1)[0]
        found.setdefault(pop, []).append({_hue(bar.get_facecolor()) for bar in ax.patches})
    return found


def _category_legend(fig: Figure) -> dict[str, str]:
    legend = fig.legends[0]
    return {text.get_text(): to_hex(handle.get_facecolor())
            for text, handle in zip(legend.get_texts(), legend.legend_handles, strict=True)}


def _study_tables() -> dict[str, pd.DataFrame]:
    """One study's tables as the report hands them to the charts: the seat table sorted by population (as
    ``seat_table`` sorts), the score counts in the declared order, the compensation of one population only."""
    seats = _seats(pops=DECLARED).sort_values(["n_players", "population", "start", "seat"], kind="stable")
    declared = {pop: i for i, pop in enumerate(DECLARED)}
    scores = _score_counts(pops=DECLARED).sort_values("population", key=lambda p: p.map(declared), kind="stable")
    return {"seats": seats, "scores": scores, "categories": _categories(pops=DECLARED),
            "compensation": _compensation(pops=("mixed",))}


def test_every_chart_of_a_report_draws_a_population_in_the_report_colour():
    tables = _study_tables()
    colours = population_colours(DECLARED)
    drawn = [_seat_win_colours(seat_charts.seat_win_chart(tables["seats"], colours=colours)),
             _score_colours(seat_charts.score_distribution_chart(tables["scores"], "final_vp", colours=colours)),
             _compensation_colours(seat_charts.compensation_chart(tables["compensation"], colours=colours))]
    for found in drawn:
        assert found and all(shades == {to_hex(colours[pop])} for pop, shades in found.items()), (found, colours)
    assert set(drawn[0]) == set(drawn[1]) == set(DECLARED) and set(drawn[2]) == {"mixed"}
    category = seat_charts.category_chart(tables["categories"], colours=colours)
    legend = _category_legend(category)
    assert {pop: legend[pop] for pop in DECLARED} == {pop: to_hex(colours[pop]) for pop in DECLARED}
    for pop, panels in _category_panels(category).items():
        assert all(hues == {_hue(colours[pop])} for hues in panels), pop


def test_charts_drawn_without_a_mapping_still_agree_whatever_order_their_rows_come_in():
    """The seat table arrives sorted, the score counts in the study's order: each chart used to colour
    the populations in its own rows' order."""
    tables = _study_tables()
    wins = _seat_win_colours(seat_charts.seat_win_chart(tables["seats"]))
    scores = _score_colours(seat_charts.score_distribution_chart(tables["scores"], "final_vp"))
    assert wins == scores and len({min(c) for c in wins.values()}) == len(DECLARED)


def test_chart_colours_keep_the_report_order_and_give_unknown_names_a_free_colour():
    report = population_colours(["random", "greedy", "random", "mixed"])
    assert list(report) == ["random", "greedy", "mixed"] and len(set(report.values())) == 3
    assert chart_colours(["mixed", "random"], report) == {"random": report["random"], "mixed": report["mixed"]}
    extra = chart_colours(["search", "greedy"], report)
    assert extra["greedy"] == report["greedy"] and extra["search"] not in report.values()
    assert chart_colours(["b", "a"]) == chart_colours(["a", "b"]) == population_colours(["a", "b"])
    assert "tab:gray" not in population_colours(map(str, range(20))).values()  # grey marks references


STUDY = """\
    name = "colours"
    [game]
    id = "sealed_bids"
    players = [2, 3]
    [populations]
    random = ["random"]
    greedy = ["greedy"]
    [run]
    games = 48
    chunk_size = 48
    seed = 1
    [compensation]
    population = ["greedy"]
    confirm_games = 24
    bootstrap = 10
    """
READERS = {"seat_win_rates": _seat_win_colours, "score_distributions": _score_colours,
           "compensation": _compensation_colours}


def test_a_seat_order_report_draws_each_population_in_one_colour_in_every_chart(tmp_path, monkeypatch):
    """The study lists random before greedy and solves the start points of greedy alone: the compensation
    chart, which sees greedy only, used to give it the first colour, which random has everywhere else."""
    (tmp_path / "colours.toml").write_text(textwrap.dedent(STUDY))
    result = run_seat_order(load_seat_order(tmp_path / "colours.toml"), out=tmp_path / "runs")
    seen: dict[str, dict] = {}
    figure = report_builder.Report.figure

    def record(rep, fig, name, *args, **kwargs):
        if name in READERS:
            seen[name] = READERS[name](fig)
        elif name == "score_categories":
            seen[name] = {pop: {legend} for pop, legend in _category_legend(fig).items() if pop in ("random", "greedy")}
        return figure(rep, fig, name, *args, **kwargs)

    monkeypatch.setattr(report_builder.Report, "figure", record)
    write_report(result.directory)
    assert set(seen) == {*READERS, "score_categories"}
    expected = {pop: {to_hex(colour)} for pop, colour in population_colours(["random", "greedy"]).items()}
    for name, found in seen.items():
        assert found == (expected if name != "compensation" else {"greedy": expected["greedy"]}), name


# --- the category chart


@pytest.mark.parametrize(("pops", "counts"), [(DECLARED, (2, 3, 4)), (DECLARED, (3,)), (("greedy",), (2, 3, 4))])
def test_category_chart_shows_every_population_readably_at_1280_px(pops, counts):
    categories = _categories(pops=pops, counts=counts)
    fig = seat_charts.category_chart(categories)
    titles = [ax.get_title() for ax in fig.axes]
    assert sorted(titles) == sorted(f"{pop}: {n} players" for pop in pops for n in counts)
    assert set(_category_legend(fig)) >= set(pops)
    for ax in fig.axes:  # every seat of every category has its bar
        n = int(ax.get_title().split(": ")[1].split()[0])
        assert len(ax.patches) == n * categories["category"].nunique()
    assert fig.get_figwidth() <= MAX_FIGURE_WIDTH_IN
    assert readability_problems(fig) == []


def test_category_chart_panels_of_one_player_count_share_their_scale():
    fig = seat_charts.category_chart(_categories(pops=DECLARED), colours=population_colours(DECLARED))
    fig.draw_without_rendering()
    for n in (2, 3, 4):
        limits = {ax.get_ylim() for ax in fig.axes if ax.get_title().endswith(f"{n} players")}
        assert len(limits) == 1, (n, limits)
