"""Scoring-card spreads on synthetic result rows with planted answers, and the card charts.

The flag compares a card with the other cards of its own deck; the planted scenarios are in
``tests.reports.attribution_synthetic``: single strong and weak cards and a strong adjacent pair
(``PLANTED``), decks that are strong or weak as a whole with one card strong within its weak deck
(``DECKS_PLANTED``), and a card that is only triggered in the last pass, when its whole deck wins
more (``LATE_PLANTED``).
"""

import math

import numpy as np
import pandas as pd
import polars as pl
import pytest
from bgsim.reports.attribution_charts import group_chart, pair_heatmap, payoff_forest
from bgsim.reports.carpe_diem import valuation_note
from bgsim.sim.stats import attribution as stats
from bgsim.sim.stats import clustered
from bgsim.sim.stats.attribution import (
    NEVER,
    PAIR_WORDS,
    TOO_FEW,
    _PairExcess,
    _within_effects,
)
from matplotlib.figure import Figure

from tests.reports.attribution_synthetic import (
    ATTRIBUTION,
    DECKS_PLANTED,
    FIXED,
    HIDDEN,
    LATE,
    LATE_PLANTED,
    NEUTRAL,
    NEVER_CARD,
    PAIR,
    PLANTED,
    RARE,
    RED_FIXED,
    STRONG,
    VALUATION,
    WEAK,
    synthetic,
)


@pytest.fixture(scope="module")
def planted():
    return synthetic(**PLANTED)


@pytest.fixture(scope="module")
def catalogue():
    return stats.catalogue_frame(ATTRIBUTION)


@pytest.fixture(scope="module")
def spreads(planted, catalogue):
    return stats.spreads(planted[0], ATTRIBUTION, VALUATION)


@pytest.fixture(scope="module")
def deck_spreads(catalogue):
    return stats.spreads(synthetic(**DECKS_PLANTED)[0], ATTRIBUTION, VALUATION)


def _card(spreads: pd.DataFrame, card: int, n: int) -> pd.Series:
    return spreads[(spreads["item"] == card) & (spreads["n_players"] == n)].iloc[0]


# --- catalogue


def test_catalogue_holds_the_60_cards_in_deck_order(catalogue):
    assert len(catalogue) == 60
    assert catalogue["item"].tolist() == list(range(60))
    assert catalogue.groupby("group").size().to_dict() == {"A": 12, "B": 11, "C": 10, "D": 27}
    assert catalogue["group"].is_monotonic_increasing
    a05 = catalogue.loc[RED_FIXED]
    assert (a05["id"], a05["colour"], a05["give_units"], a05["pay_vp"]) == ("A05", "red", 2, 4)
    assert a05["payout"] == "4 VP" and a05["requirement"] == "give 2 herb"
    assert (catalogue.loc[catalogue["colour"] == "green", "give_units"] == 0).all()


def test_conversion_note_states_the_rule():
    note = valuation_note()
    assert "CD-END-3" in note and "CD-END-4" in note and "0.5" in note
    assert dict(VALUATION.weights) == {"vp": 1.0, "coins": 0.5, "bread": 0.5, "steps": 1.0}


# --- per card


def test_one_row_per_card_and_player_count(spreads, planted):
    assert len(spreads) == 3 * 60
    assert sorted(spreads["n_players"].unique()) == [2, 3, 4]
    on_board = spreads.groupby("item")["on_board"].sum().to_numpy()
    assert (on_board == planted[1]["on_board"]).all()
    games = spreads.groupby("n_players")["games"].first().sum()
    assert games == 4000


def test_planted_strong_card_is_flagged_as_paying_too_much(spreads):
    for n in (2, 3, 4):
        row = _card(spreads, STRONG, n)
        assert row["flagged"] and row["direction"] == "pays too much"
        assert row["win_diff"] > 0.1 and row["diff_low"] > 0
        assert row["win_diff"] == pytest.approx(row["win_rate"] - row["group_rate"])
        assert row["q_value"] < 0.05 and row["note"] == ""


def test_planted_weak_card_is_flagged_as_paying_too_little(spreads):
    for n in (2, 3, 4):
        row = _card(spreads, WEAK, n)
        assert row["flagged"] and row["direction"] == "pays too little"
        assert row["diff_high"] < 0


def test_neutral_card_is_not_flagged(spreads):
    for n in (2, 3, 4):
        row = _card(spreads, NEUTRAL, n)
        assert not row["flagged"] and row["direction"] == ""
        assert row["diff_low"] < 0 < row["diff_high"]
        assert row["trigger_seats"] >= 30 and row["group_triggers"] > 10 * row["compared_triggers"]


def test_card_strong_within_its_weak_deck_is_flagged(deck_spreads):
    # deck B wins less as a whole, HIDDEN (a B card) wins more than the rest of B; against every seat
    # it looks ordinary
    for n in (2, 3, 4):
        row = _card(deck_spreads, HIDDEN, n)
        assert row["flagged"] and row["direction"] == "pays too much"
        assert row["diff_low"] > 0.03


def test_deck_strong_as_a_whole_flags_none_of_its_cards(deck_spreads):
    deck_d = deck_spreads[deck_spreads["group"] == "D"]
    assert deck_d["p_value"].notna().sum() >= 3 * 20
    assert not deck_d["flagged"].any() and (deck_d["direction"] == "").all()
    assert not deck_spreads[deck_spreads["group"].isin(["A", "C"])]["flagged"].any()
    # the raw effect does see the decks: D cards above 0, B cards below
    decks = stats.group_summary(deck_spreads).set_index(["n_players", "group"])
    for n in (2, 3, 4):
        assert decks.loc[(n, "D"), "raw_more"] >= 3 and decks.loc[(n, "D"), "raw_less"] == 0
        assert decks.loc[(n, "B"), "raw_less"] >= 3 and decks.loc[(n, "D"), "raw_diff"] > 0.02
        assert decks.loc[(n, "D"), "flagged"] == 0


def test_neutral_card_of_a_strong_deck_is_not_flagged(deck_spreads):
    for n in (2, 3, 4):
        row = _card(deck_spreads, NEUTRAL, n)
        assert not row["flagged"] and row["diff_low"] < 0 < row["diff_high"]


def test_winning_in_the_last_pass_is_not_a_card_effect(catalogue):
    # LATE is triggered in pass 4 only, when every card of its deck wins more: within its deck and
    # pass it is ordinary, though its seats win more often than seats without it
    rows, _ = synthetic(**LATE_PLANTED)
    t = stats.triggers(rows, ATTRIBUTION, VALUATION)
    assert set(t.filter(pl.col("item") == LATE)["pass"].unique().to_list()) == {4}
    spreads = stats.spreads(rows, ATTRIBUTION, VALUATION)
    for n in (2, 3, 4):
        row = _card(spreads, LATE, n)
        assert not row["flagged"] and row["diff_low"] < 0 < row["diff_high"]
        assert row["raw_diff"] > 0.1


def test_base_rate_is_the_seat_baseline(spreads):
    # the raw effect: a card whose seats win as usual compares with the usual win rate of those seats
    for n in (2, 3, 4):
        row = _card(spreads, NEUTRAL, n)
        assert abs(row["base_rate"] - 1 / n) < 0.12
        assert row["raw_low"] < row["raw_diff"] < row["raw_high"]


def test_net_payoff_against_the_deck(spreads):
    # FIXED nets 3.5; the other D cards pay 3 VP per k (k = 1 or 2), 0.5 per coin, bread and step
    # (each 0 or 1) and -4 in 10 % of triggers: 0.9 * 5.5 - 0.4 = 4.55 on average
    for n in (2, 3, 4):
        row = _card(spreads, FIXED, n)
        assert row["net_vs_group"] == pytest.approx(3.5 - 4.55, abs=0.3)
        assert row["net_vs_group_low"] < row["net_vs_group"] < row["net_vs_group_high"] < 0


def test_within_interval_is_clustered():
    # counting every unit twice within its cluster adds no information: same estimate, same interval
    rng = np.random.default_rng(3)
    units = 4000
    group = np.zeros(units, dtype=np.int64)
    item = rng.integers(0, 4, units)
    cluster = rng.integers(0, 500, units)
    stratum = rng.integers(0, 6, units)
    won = (rng.random(units) < 0.3 + 0.1 * (item == 0)).astype(np.float64)
    once = _within_effects(group, item, cluster, stratum, {"won": won}, 1.96, 30).set_index("item")
    twice = _within_effects(*(np.tile(x, 2) for x in (group, item, cluster, stratum)), {"won": np.tile(won, 2)},
                            1.96, 30).set_index("item")
    assert np.allclose(once["won_diff"], twice["won_diff"])
    assert np.allclose(once["won_se"], twice["won_se"])
    assert once.loc[0, "won_low"] > 0 > once.loc[1, "won_low"]


def test_payoff_conversion_gives_the_known_number(spreads):
    row = _card(spreads, FIXED, 4)
    assert row["payoff"] == pytest.approx(2 + 0.5 + 1.5 + 1)  # 2 VP, 1 coin, 3 bread, 1 step
    assert row["net_payoff"] == pytest.approx(5.0 - 1.5)  # 3 bread handed in for b = 1
    assert row["payoff_low"] == row["payoff_high"] == pytest.approx(5.0)  # no spread
    assert (row["mean_vp"], row["mean_coins"], row["mean_bread"], row["mean_steps"]) == (2, 1, 3, 1)
    red = _card(spreads, RED_FIXED, 4)
    assert red["payoff"] == pytest.approx(4.0) and red["net_payoff"] == pytest.approx(4.0 - 2 * 2 * 0.5)


def test_the_valuation_can_be_changed(planted):
    valuation = stats.Valuation(weights={"vp": 1.0, "coins": 0.5, "bread": 1.0, "steps": 0.0},
                                stratum_field="pass", penalty_field="penalty")
    spreads = stats.spreads(planted[0], ATTRIBUTION, valuation)
    assert _card(spreads, FIXED, 3)["payoff"] == pytest.approx(2 + 0.5 + 3.0 + 0)
    plain = stats.spreads(planted[0], ATTRIBUTION)  # by default the payoff field alone, at 1
    assert _card(plain, FIXED, 3)["payoff"] == pytest.approx(2)


def test_penalties_are_counted(spreads):
    row = _card(spreads, NEUTRAL, 4)
    assert 0 < row["penalties"] < row["triggered"]
    assert row["penalty_low"] < row["penalty_rate"] < row["penalty_high"]
    assert 0.03 < row["penalty_rate"] < 0.2  # planted at 10 %
    assert _card(spreads, FIXED, 4)["penalties"] == 0


def test_card_never_on_the_board(spreads):
    rows = spreads[spreads["item"] == NEVER_CARD]
    assert (rows["on_board"] == 0).all() and (rows["triggered"] == 0).all()
    assert rows["payoff"].isna().all() and rows["win_diff"].isna().all() and rows["trigger_rate"].isna().all()
    assert rows["raw_diff"].isna().all() and rows["q_value"].isna().all()
    assert (rows["on_board_rate"] == 0).all()
    assert not rows["flagged"].any() and (rows["note"] == NEVER).all()


def test_too_few_games_are_not_tested(spreads):
    rows = spreads[spreads["item"] == RARE]
    assert rows["on_board"].sum() == 10
    assert (rows["trigger_seats"] < 30).all()
    assert rows["win_diff"].isna().all() and rows["q_value"].isna().all() and rows["raw_q"].isna().all()
    assert not rows["flagged"].any() and (rows["note"] == TOO_FEW).all()


def test_rates_and_intervals_are_consistent(spreads):
    seen = spreads[spreads["triggered"] > 1]
    assert (seen["trigger_low"] <= seen["trigger_rate"]).all() and (seen["trigger_rate"] <= seen["trigger_high"]).all()
    assert (seen["payoff_low"] <= seen["payoff"]).all() and (seen["payoff"] <= seen["payoff_high"]).all()
    assert (seen["trigger_rate"] <= 1).all()
    tested = spreads[spreads["note"] == ""]
    assert len(tested) > 150 and tested["q_value"].notna().all()
    assert (tested["diff_low"] <= tested["win_diff"]).all() and (tested["win_diff"] <= tested["diff_high"]).all()
    assert (tested["q_value"] >= tested["p_value"]).all()
    assert np.allclose(tested["win_rate"] - tested["group_rate"], tested["win_diff"])


def test_pandas_and_lazy_input_give_the_same_table(planted, catalogue, spreads):
    lazy = stats.spreads(planted[0].lazy(), ATTRIBUTION, VALUATION)
    pd.testing.assert_frame_equal(lazy, spreads)
    small = planted[0].filter(pl.col("game_index") < 300)
    from_pandas = stats.spreads(small.to_pandas(), ATTRIBUTION, VALUATION)
    pd.testing.assert_frame_equal(from_pandas, stats.spreads(small, ATTRIBUTION, VALUATION))


def test_lazy_rows_give_the_same_pairs_and_lazy_triggers(planted, pairs):
    pd.testing.assert_frame_equal(stats.component_pair_effects(planted[0].lazy(), ATTRIBUTION, VALUATION), pairs)
    t = stats.triggers(planted[0].lazy(), ATTRIBUTION, VALUATION)
    assert isinstance(t, pl.LazyFrame)
    assert t.collect().equals(stats.triggers(planted[0], ATTRIBUTION, VALUATION))


def test_clusters_read_in_slices_give_the_same_tables(planted, spreads, pairs, monkeypatch):
    # a slice of whole deals at a time: the same effects and intervals, the sums added in another order
    monkeypatch.setattr(clustered, "_SLICE_ROWS", 1000)
    assert len(stats.deal_slices(planted[0])) > 5
    pd.testing.assert_frame_equal(stats.spreads(planted[0].lazy(), ATTRIBUTION, VALUATION), spreads, rtol=1e-12)
    pd.testing.assert_frame_equal(stats.component_pair_effects(planted[0].lazy(), ATTRIBUTION, VALUATION), pairs,
                                  rtol=1e-12)


def test_triggers_hold_two_cards_per_seat_and_pass(planted, catalogue):
    t = stats.triggers(planted[0], ATTRIBUTION, VALUATION)
    per_pass = t.group_by("game_index", "seat", "pass").len()
    assert (per_pass["len"] == 2).all()
    assert t.height == 8 * planted[0].height


# --- pairs


@pytest.fixture(scope="module")
def pairs(planted, catalogue):
    return stats.component_pair_effects(planted[0], ATTRIBUTION, VALUATION)


def test_planted_pair_is_found(pairs, planted):
    rows = pairs[(pairs["item_a"] == PAIR[0]) & (pairs["item_b"] == PAIR[1])]
    assert rows["count"].sum() == planted[1]["pair"]
    assert sorted(rows["n_players"]) == [2, 3, 4]
    for row in rows.itertuples():
        assert row.flagged and row.direction == PAIR_WORDS[0]
        assert row.diff_low > 0 and row.win_low > 1 / row.n_players
        assert (row.id_a, row.id_b, row.group_a, row.group_b) == ("C08", "C09", "C", "C")


def test_pairs_are_unordered_and_known_payoff(pairs):
    assert (pairs["item_a"] < pairs["item_b"]).all()
    assert not pairs.duplicated(["n_players", "item_a", "item_b"]).any()
    both = pairs[(pairs["item_a"] == RED_FIXED) & (pairs["item_b"] == FIXED)]
    assert len(both) and np.allclose(both["payoff"], 4.0 + 5.0) and np.allclose(both["payoff_excess"], 0.0)


def test_pairs_with_few_triggers_are_not_flagged(pairs):
    few = pairs[pairs["trigger_seats"] < 30]
    assert len(few) and not few["flagged"].any() and few["q_value"].isna().all()
    assert (few["note"] == TOO_FEW).all()


def test_pair_with_a_strong_card_wins_no_more_than_its_cards(catalogue):
    # STRONG wins with every neighbour; a pair of it is judged against what its two cards predict.
    # 2-player games only, and no planted pair, so that its pairs have games enough.
    rows, _ = synthetic(games=20000, seed=4, card_weight={STRONG: 4.0, WEAK: 0.25}, players=(2,))
    pairs = stats.component_pair_effects(rows, ATTRIBUTION, VALUATION)
    strong = pairs[(pairs["note"] == "") & ((pairs["item_a"] == STRONG) | (pairs["item_b"] == STRONG))]
    assert len(strong) >= 40 and strong["win_rate"].mean() > 0.6
    assert strong["flagged"].mean() <= 0.05 and abs(strong["win_diff"].mean()) < 0.02


# --- decks


def test_group_summary_pools_the_triggers(spreads, planted, catalogue):
    decks = stats.group_summary(spreads)
    assert len(decks) == 3 * 4
    assert decks.groupby("n_players")["items"].sum().tolist() == [60, 60, 60]
    t = stats.triggers(planted[0], ATTRIBUTION, VALUATION).to_pandas()
    t["group"] = t["item"].map(catalogue.set_index("item")["group"])
    expected = t[t["n_players"] == 3].groupby("group")["payoff"].agg(["mean", "std", "size"])
    got = decks[decks["n_players"] == 3].set_index("group")
    assert np.allclose(got["payoff"], expected["mean"])
    half = 1.96 * expected["std"] / np.sqrt(expected["size"])
    assert np.allclose(got["payoff_high"] - got["payoff"], half, rtol=1e-3)
    assert (got["flagged"] >= got["too_much"] + got["too_little"]).all()
    assert got.loc["A", "too_much"] >= 1 and got.loc["B", "too_little"] >= 1
    assert (got["penalty_low"] < got["penalty_rate"]).all()


def test_empty_rows_give_empty_tables(planted, catalogue):
    empty = planted[0].head(0)
    assert stats.spreads(empty, ATTRIBUTION, VALUATION).empty
    assert stats.component_pair_effects(empty, ATTRIBUTION, VALUATION).empty
    assert stats.group_summary(stats.spreads(empty, ATTRIBUTION, VALUATION)).empty


# --- charts


def _labelled(fig: Figure) -> None:
    assert isinstance(fig, Figure)
    assert fig.get_suptitle() or any(ax.get_title() for ax in fig.axes)
    drawn = [ax for ax in fig.axes if ax.get_xlabel() or ax.get_ylabel()]
    assert drawn


def test_forest_chart(spreads):
    for measure in ("win", "payoff"):
        fig = payoff_forest(spreads, measure=measure)
        _labelled(fig)
        assert fig.get_suptitle()
        assert any(ax.get_xlabel() for ax in fig.axes)
        fig.canvas.draw()


def test_deck_chart(spreads):
    fig = group_chart(spreads)
    _labelled(fig)
    fig.canvas.draw()


def test_pair_heatmap(pairs):
    fig = pair_heatmap(pairs)
    _labelled(fig)
    fig.canvas.draw()


def test_charts_survive_empty_and_nan_rows(spreads, pairs):
    nan_rows = spreads.copy()
    nan_rows.loc[:, ["payoff", "payoff_low", "payoff_high", "win_diff", "diff_low", "diff_high", "raw_diff"]] = math.nan
    for fig in (payoff_forest(nan_rows), payoff_forest(spreads.iloc[0:0]), group_chart(nan_rows),
                group_chart(spreads.iloc[0:0]), pair_heatmap(pairs.iloc[0:0]),
                pair_heatmap(pairs.assign(win_diff=math.nan))):
        _labelled(fig)
        fig.canvas.draw()


# --- a tiny real run


@pytest.mark.slow
def test_tiny_real_run_matches_the_engine_records(tmp_path, catalogue):
    """The catalogue's index order is the engine's, card vp is net of penalties, and the tables
    account for every trigger and board slot of a real run."""
    import bgsim

    spec = tmp_path / "tiny.toml"
    spec.write_text('name = "tiny"\n[game]\nid = "carpe_diem"\nplayers = [3]\n[seats]\nmode = "fixed"\n'
                    'strategies = ["greedy"]\n[run]\ngames = 40\nchunk_size = 20\nseed = 5\ntier = "auto"\n')
    report = bgsim.run(bgsim.load_spec(spec), out=tmp_path / "runs")
    rows = bgsim.load(report.run_dir).collect()
    t = stats.triggers(rows, ATTRIBUTION, VALUATION).join(pl.from_pandas(catalogue[["item", "pay_vp", "pay_steps"]])
                                       .with_columns(pl.col("item").cast(pl.Int16)), on="item")
    assert t.group_by("game_index", "seat", "pass").len()["len"].to_list() == [2] * (4 * rows.height)
    paid = t.filter(~pl.col("penalty"))
    fulfilments = paid["k"].cast(pl.Int64) + paid["b"].cast(pl.Int64)
    assert (paid["vp"].cast(pl.Int64) == fulfilments * paid["pay_vp"]).all()
    assert (paid["steps"].cast(pl.Int64) == fulfilments * paid["pay_steps"]).all()
    per_seat = t.group_by("game_index", "seat").agg(pl.col("vp").cast(pl.Int64).sum().alias("logged"))
    joined = rows.join(per_seat, on=["game_index", "seat"])
    assert (joined["logged"] == joined["vp_cards"].cast(pl.Int64)).all()

    spreads = stats.spreads(rows, ATTRIBUTION, VALUATION)
    assert spreads["triggered"].sum() == 8 * rows.height
    assert spreads["penalties"].sum() == rows["penalties"].cast(pl.Int64).sum()
    boards = rows.filter(pl.col("seat") == 0)["board_cards"].to_numpy()
    assert spreads["on_board"].sum() == int((boards >= 0).sum())
    on_board = t.join(rows.select("game_index", "seat", "board_cards"), on=["game_index", "seat"])
    assert on_board.select(pl.col("board_cards").arr.contains(pl.col("item")).all()).item()


def test_pair_excess_is_bit_identical_whatever_order_the_cells_arrive_in():
    """The cells come from a group-by whose output order varies from run to run: the excess of every
    pair must not depend on it (same spec and seed, same report)."""
    rng = np.random.default_rng(5)
    stratum, a = rng.integers(0, 200, 3000), rng.integers(0, 20, 3000)
    b = a + 1 + rng.integers(0, 20, 3000)
    unique = np.unique(stratum * 10_000 + a * 100 + b, return_index=True)[1]  # one cell per (stratum, pair)
    stratum, a, b = stratum[unique], a[unique], b[unique]
    count = rng.integers(1, 9, len(stratum)).astype(np.float64)
    wins = np.floor(count * rng.random(len(stratum)))
    first = _PairExcess(stratum, a, b, count, wins).mean
    for seed in range(5):
        order = np.random.default_rng(seed).permutation(len(stratum))
        assert np.array_equal(_PairExcess(stratum[order], a[order], b[order], count[order], wins[order]).mean, first)
