"""The scoring-card section of the seat-order report and its Answers lines, on synthetic rows."""

import re

import pandas as pd
import polars as pl
import pytest
from bgsim.reports.attribution_report import (
    MAX_NAMED,
    _pays_clause,
    _tables,
    _terms,
    _words,
    add_attribution_sections,
    attribution_answers,
    played_rows,
    study_spreads,
)
from bgsim.reports.carpe_diem import EXTRAS
from bgsim.reports.report_builder import Report
from bgsim.sim.stats import attribution as stats

from tests.reports.attribution_synthetic import (
    ATTRIBUTION,
    DECKS_PLANTED,
    PLANTED,
    PROFILE,
    STRONG,
    VALUATION,
    WEAK,
    synthetic,
)


@pytest.fixture(scope="module")
def planted_rows():
    return synthetic(**PLANTED)[0]


@pytest.fixture(scope="module")
def spreads(planted_rows):
    return stats.spreads(planted_rows, ATTRIBUTION, VALUATION)


def _card_bullets(lines: list[str]) -> list[str]:
    return [line for line in lines if re.match(r"- \*\*[A-D]\d\d\*\*", line)]


def test_answers_name_the_cards_that_stand_out_within_their_deck(spreads):
    lines = attribution_answers(spreads, PROFILE, EXTRAS)
    bullets = _card_bullets(lines)
    assert 1 <= len(bullets) <= MAX_NAMED
    strong = next(line for line in bullets if line.startswith("- **A06**"))
    weak = next(line for line in bullets if line.startswith("- **B09**"))
    assert "**pays too much** for its deck" in strong and "**pays too little** for its deck" in weak
    for n in (2, 3, 4):  # by how much, with the interval and q, at each player count
        assert re.search(rf"\+\d+\.\d pp \[\+\d+\.\d, \+\d+\.\d\] at {n} players \(q (=|<) ", strong)
        assert re.search(rf"-\d+\.\d pp \[-\d+\.\d, -\d+\.\d\] at {n} players \(q (=|<) ", weak)
    assert "A06" in spreads.loc[spreads["item"] == STRONG, "id"].iloc[0]
    assert "B09" in spreads.loc[spreads["item"] == WEAK, "id"].iloc[0]
    assert lines[0].startswith("- **Scoring cards that stand out within their deck**")


def test_answers_say_plainly_that_no_card_differs(catalogue_spreads_without_plants):
    lines = attribution_answers(catalogue_spreads_without_plants, PROFILE, EXTRAS)
    assert not catalogue_spreads_without_plants["flagged"].any()
    assert len(lines) == 1 and "no scoring card differs detectably from the other scoring cards of its deck" in lines[0]
    assert _card_bullets(lines) == []


@pytest.fixture(scope="module")
def catalogue_spreads_without_plants():
    return stats.spreads(synthetic(seed=11)[0], ATTRIBUTION, VALUATION)


def test_answers_explain_a_deck_that_leans_one_way():
    spreads = stats.spreads(synthetic(**DECKS_PLANTED)[0], ATTRIBUTION, VALUATION)
    lines = attribution_answers(spreads, PROFILE, EXTRAS)
    deck = [line for line in lines if line.startswith("- Against the same seats in games without the scoring card")]
    assert len(deck) == 1 and deck[0].count(". ") == 0  # one sentence
    assert "of deck B win significantly less" in deck[0] and "of deck D more" in deck[0]
    assert "the decks differ as a whole" in deck[0]
    assert _card_bullets(lines) and _card_bullets(lines)[0].startswith("- **B03**")


def test_red_and_green_decks_get_their_reason(spreads):
    leaning = spreads.copy()
    red = leaning["group"].isin(["A", "B"])
    leaning["raw_q"] = 0.001
    leaning["raw_diff"] = leaning["raw_diff"].abs().where(~red, -leaning["raw_diff"].abs())
    deck = attribution_answers(leaning, PROFILE, EXTRAS)[-1]
    assert "decks A/B win significantly less" in deck and "decks C/D more" in deck
    assert "red A/B cards take goods" in deck and "CD-SCORING-2" in deck


def test_q_values_of_zero_print_as_below_1e_16(spreads):
    zero = spreads.copy()
    zero.loc[zero["flagged"], "q_value"] = 0.0
    zero.loc[zero["raw_q"].notna(), "raw_q"] = 0.0
    lines = attribution_answers(zero, PROFILE, EXTRAS)
    assert any("(q < 1e-16)" in line for line in lines)
    assert not any(re.search(r"q = 0(?![.\d])", line) for line in lines)
    rep = Report("cards")
    _tables(rep, zero, stats.group_summary(zero), _words(PROFILE), _terms(PROFILE, EXTRAS))
    markdown = rep.markdown()
    for table in ("scoring_cards_flags", "scoring_cards"):
        rows = _table_rows(markdown, table)
        q = rows[0].index("q")
        cells = [row[q].replace("\\<", "<") for row in rows[1:]]
        assert "< 1e-16" in cells and "0" not in cells and "0.0" not in cells


def _table_rows(markdown: str, name: str) -> list[list[str]]:
    """The header and body cells of the pipe table that precedes the link to tables/<name>.csv."""
    block = markdown[:markdown.index(f"(tables/{name}.csv)")].rsplit("\n\n", 2)[-2]
    lines = [line for line in block.splitlines() if line.startswith("|") and not line.startswith("|---")]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines]


@pytest.fixture(scope="module")
def section(planted_rows, tmp_path_factory):
    rep = Report("cards")
    returned = add_attribution_sections(rep, planted_rows, PROFILE, EXTRAS)
    markdown = rep.markdown()
    return returned, markdown, rep.write(tmp_path_factory.mktemp("cards") / "report").parent


def test_card_section_writes_its_figures_and_tables(section, spreads):
    returned, markdown, directory = section
    pd.testing.assert_frame_equal(returned, spreads)
    for figure in ("scoring_cards_payoff_forest", "scoring_cards_group_effects", "scoring_cards_pair_heatmap"):
        assert (directory / "figures" / f"{figure}.png").exists()
    cards = pd.read_csv(directory / "tables" / "scoring_cards.csv")
    assert len(cards) == 180 and {"win_diff", "group_rate", "net_vs_group", "raw_diff", "flagged"} <= set(cards)
    flags = pd.read_csv(directory / "tables" / "scoring_cards_flags.csv")
    assert len(flags) == int(spreads["flagged"].sum()) and set(flags["id"]) >= {"A06", "B09"}
    assert (directory / "tables" / "scoring_cards_groups.csv").exists()
    assert (directory / "tables" / "scoring_cards_pairs.csv").exists()
    assert "## Scoring cards" in markdown and "### Pairs scored together" in markdown
    assert "(see Method)" in markdown and "clustered by deal" in EXTRAS.attribution_method


def test_card_section_speaks_of_triggers_and_vp_equivalents(section):
    """Carpe Diem's own words come from its extras: cards are triggered, payoffs are VP-equivalents and
    a failed card's -4 has its column."""
    _, markdown, _ = section
    assert "the seats that triggered it won more (less) often than the seats that triggered the deck's" in markdown
    assert "payoff per trigger (VP-equivalents), -4 rate;" in markdown
    assert "| triggers |" in markdown and "(tables/scoring_cards_flags.csv)" in markdown


def test_a_payoff_clause_that_only_says_zero_is_left_out():
    terms = _terms(PROFILE, EXTRAS)
    row = pd.Series({"net_vs_group": 0.01, "net_vs_group_low": -0.04, "net_vs_group_high": 0.04, "n_players": 3},
                    dtype=object)
    assert _pays_clause(row, terms) == ""
    row["net_vs_group_low"] = -0.6
    assert _pays_clause(row, terms) == "; per trigger it pays +0.0 VP-equivalents [-0.6, +0.0] against them (3 players)"


def test_card_section_prints_q_with_fmt_p(section):
    _, markdown, _ = section
    flags = _table_rows(markdown, "scoring_cards_flags")
    q = flags[0].index("q")
    assert all(re.fullmatch(r"(\\< 1e-16|\d(\.\d+)?(e-\d+)?|0\.\d+)", row[q]) for row in flags[1:])
    assert "q = 0 " not in markdown and "(q = 0)" not in markdown


def test_played_rows_keep_the_rulebook_games_without_random_players(planted_rows):
    rows = pl.concat([
        planted_rows.with_columns(pl.lit("greedy").alias("population"), pl.lit("rulebook").alias("start")),
        planted_rows.with_columns(pl.lit("greedy").alias("population"), pl.lit("equal").alias("start")),
        planted_rows.with_columns(pl.lit("random").alias("population"), pl.lit("rulebook").alias("start")),
    ])
    played = played_rows(rows)
    assert played.height == planted_rows.height
    assert set(played["start"]) == {"rulebook"} and set(played["population"]) == {"greedy"}
    only_equal = rows.filter(pl.col("start") == "equal")
    assert played_rows(only_equal).height == planted_rows.height
    assert study_spreads(rows, PROFILE, EXTRAS)["triggered"].sum() == 8 * planted_rows.height


def test_lazy_rows_give_the_same_played_rows_and_section(planted_rows, tmp_path):
    # the study loader hands over a LazyFrame over the chunks: it stays a query until aggregated
    rows = pl.concat([
        planted_rows.with_columns(pl.lit("greedy").alias("population"), pl.lit("equal").alias("start")),
        planted_rows.with_columns(pl.lit("greedy").alias("population"), pl.lit("rulebook").alias("start")),
    ])
    played = played_rows(rows.lazy())
    assert isinstance(played, pl.LazyFrame)
    assert played.collect().equals(played_rows(rows))
    eager, lazy = Report("cards"), Report("cards")
    pd.testing.assert_frame_equal(add_attribution_sections(lazy, rows.lazy(), PROFILE, EXTRAS),
                                  add_attribution_sections(eager, rows, PROFILE, EXTRAS))
    assert lazy.markdown() == eager.markdown()
    empty = rows.lazy().filter(pl.col("start") == "none")
    assert "No games with scoring cards to analyse." in _section_text(empty)


def _section_text(rows) -> str:
    rep = Report("cards")
    add_attribution_sections(rep, rows, PROFILE, EXTRAS)
    return rep.markdown()


def test_no_games_no_cards(planted_rows):
    rep = Report("cards")
    spreads = add_attribution_sections(rep, planted_rows.head(0), PROFILE, EXTRAS)
    assert spreads.empty and "No games with scoring cards to analyse." in rep.markdown()
    assert attribution_answers(spreads, PROFILE, EXTRAS) == [
        "- **Scoring cards**: too few games to compare any scoring card with the other scoring cards of its deck."]


def test_the_raw_win_effect_chart_showed_three_empty_panels(planted_rows, monkeypatch, tmp_path):
    """Where every game has every item (Arkadia's shapes), there is no raw effect to draw: the report
    says so in a line instead of a chart of "no data" panels."""
    real = stats.spreads
    monkeypatch.setattr(stats, "spreads", lambda *a, **k: real(*a, **k).assign(raw_diff=float("nan")))
    rep = Report("cards")
    add_attribution_sections(rep, planted_rows, PROFILE, EXTRAS)
    directory = rep.write(tmp_path / "report").parent
    assert not (directory / "figures" / "scoring_cards_group_effects.png").exists()
    assert (directory / "figures" / "scoring_cards_payoff_forest.png").exists()
    assert "No raw effect against games without the scoring card" in rep.markdown()
