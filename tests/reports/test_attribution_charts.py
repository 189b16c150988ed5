"""The card charts follow the report chart rules: at most 9.6 in wide at the report's 120 dpi (shown
unshrunk in the content box), no text below 8 pt, at most three panels in a row or one panel per
player count stacked, legends outside the axes."""

import pytest
from bgsim.reports.attribution_charts import (
    MAX_WIDTH_IN,
    MIN_FONT_PT,
    Words,
    group_chart,
    pair_heatmap,
    payoff_forest,
)
from bgsim.reports.charts import cut_texts
from bgsim.sim.stats import attribution as stats
from matplotlib.figure import Figure
from matplotlib.text import Text

from tests.reports.attribution_synthetic import ATTRIBUTION, PLANTED, VALUATION, synthetic


@pytest.fixture(scope="module")
def tables():
    rows = synthetic(**PLANTED)[0]
    return stats.spreads(rows, ATTRIBUTION, VALUATION), stats.component_pair_effects(rows, ATTRIBUTION, VALUATION)


def _font_sizes(fig: Figure) -> list[float]:
    """Sizes of every visible, non-empty text of the laid-out figure."""
    fig.draw_without_rendering()
    sizes = []

    def walk(artist) -> None:
        if not artist.get_visible():
            return
        if isinstance(artist, Text) and artist.get_text().strip():
            sizes.append(float(artist.get_fontsize()))
        for child in artist.get_children():
            walk(child)

    walk(fig)
    return sizes


def _check_rules(fig: Figure) -> None:
    assert fig.get_figwidth() <= MAX_WIDTH_IN <= 9.6 + 1e-9
    assert min(_font_sizes(fig)) >= MIN_FONT_PT >= 7.5
    for legend in fig.legends:
        box = legend.get_window_extent()
        assert not any(box.overlaps(ax.get_window_extent()) for ax in fig.axes)
    assert not any(ax.get_legend() for ax in fig.axes)
    assert cut_texts(fig) == []  # no label pushed off the figure (the pair heat map's y labels were)


def _panels(fig: Figure) -> list:
    return [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]


def test_forest_follows_the_rules(tables):
    spreads, _ = tables
    for measure in ("win", "payoff"):
        fig = payoff_forest(spreads, measure=measure, words=Words(label_column="payout"))
        _check_rules(fig)
        panels = _panels(fig)
        assert len(panels) == 3 and len({round(ax.get_position().y0, 3) for ax in panels}) == 1  # one row of 3
        labels = [t.get_text() for t in panels[0].get_yticklabels()]
        assert len(labels) == 60 and labels[0].startswith("A01: ") and labels[-1].startswith("D27: ")
        assert fig.legends and "flagged (q < 0.05)" in [t.get_text() for t in fig.legends[0].get_texts()]


def test_deck_chart_follows_the_rules(tables):
    spreads, _ = tables
    fig = group_chart(spreads)
    _check_rules(fig)
    assert len(_panels(fig)) == 3


def test_pair_heatmap_stacks_one_readable_panel_per_player_count(tables):
    _, pairs = tables
    fig = pair_heatmap(pairs)
    _check_rules(fig)
    panels = [ax for ax in _panels(fig) if ax.images]
    assert [ax.get_title() for ax in panels] == ["2 players", "3 players", "4 players"]
    assert len({round(ax.get_position().x0, 3) for ax in panels}) == 1  # stacked in one column
    assert all(len(ax.get_xticklabels()) == len(ax.get_yticklabels()) >= 50 for ax in panels)


def _all_text(fig: Figure) -> str:
    return " ".join(t.get_text() for t in fig.findobj(Text))


def test_chart_words_are_the_games_own(tables):
    from bgsim.reports.attribution_report import _words
    from bgsim.sim import make_game

    from bgsim.report import report_extras

    spreads, pairs = tables
    profile = make_game("capitol").profile
    words = _words(profile, report_extras(profile))
    assert (words.event, words.verb, words.unit) == ("purchase", "bought", "points")
    charts = (payoff_forest(spreads, measure="payoff", words=words), group_chart(spreads, words=words),
              pair_heatmap(pairs, words=words))
    texts = " ".join(_all_text(chart) for chart in charts)
    assert "trigger" not in texts and "equivalents" not in texts
    assert "per purchase" in texts and "bought together" in texts
    cards = make_game("carpe_diem").profile
    assert "per trigger" in _all_text(payoff_forest(spreads, measure="payoff",
                                                    words=_words(cards, report_extras(cards))))
