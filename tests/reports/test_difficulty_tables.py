"""The difficulty tables as lazy aggregations: the margin quantiles from per-margin counts equal polars'
linear quantile to the last bit, means and sds from exact sums equal polars' (the sds to rounding),
and a LazyFrame gives the same table, in the same row and column order, as the eager computation
over the rows that the tables replaced."""

import numpy as np
import pandas as pd
import polars as pl
import pytest
from bgsim.sim.stats.difficulty import QUANTILES, count_quantiles, outcome_table, source_table
from bgsim.sim.stats.moments import mean_sd, moment_aggs
from hypothesis import given, settings
from hypothesis import strategies as st
from pandas.testing import assert_frame_equal

MARGINS = st.lists(st.integers(-300, 300), min_size=1, max_size=400)
QS = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=8)


@settings(max_examples=300, deadline=None)
@given(MARGINS, QS)
def test_quantiles_from_counts_are_polars_linear_quantiles(margins, qs):
    values, counts = np.unique(margins, return_counts=True)
    got = count_quantiles(values, counts, qs)
    series = pl.Series(margins)
    assert got.tolist() == [series.quantile(q, "linear") for q in qs]  # exact, not approximate


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from("abc"), st.integers(-60, 60)), min_size=1, max_size=300))
def test_outcome_quantiles_equal_polars_group_quantiles(games):
    rows = pl.DataFrame({"rung": [g for g, _ in games], "margin": [m for _, m in games]}).with_columns(
        pl.col("margin").gt(0).alias("won"), pl.col("margin").eq(0).alias("tie"), final_vp=pl.col("margin") + 100,
        automa=pl.lit(100))
    table = outcome_table(rows.lazy(), score="final_vp", automa_score="automa")
    expected = rows.group_by("rung", maintain_order=True).agg(
        pl.col("margin").quantile(q, "linear").alias(f"margin_p{round(100 * q)}") for q in QUANTILES)
    assert table["rung"].tolist() == expected["rung"].to_list()  # groups in their order of appearance
    for q in QUANTILES:
        assert table[f"margin_p{round(100 * q)}"].tolist() == expected[f"margin_p{round(100 * q)}"].to_list()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-(2 ** 15), 2 ** 15), min_size=0, max_size=200))
def test_exact_moments_give_polars_mean_and_its_sd_to_rounding(values):
    frame = pl.DataFrame({"x": values}, schema={"x": pl.Int64})
    mean, sd = mean_sd(frame.select(moment_aggs("x", pl.Int64)), "x")
    expected_mean, expected_sd = frame.select(pl.col("x").mean().alias("mean"), pl.col("x").std().alias("sd")).row(0)
    assert (np.isnan(mean[0]) and expected_mean is None) or mean[0] == expected_mean
    if expected_sd is None:
        assert np.isnan(sd[0])
    else:
        assert sd[0] == pytest.approx(expected_sd, rel=1e-14, abs=1e-12)


def test_float_columns_keep_polars_mean_and_sd():
    frame = pl.DataFrame({"g": [1, 1, 2], "x": [0.5, 1.25, 3.0]})
    agg = frame.group_by("g", maintain_order=True).agg(moment_aggs("x", pl.Float64))
    mean, sd = mean_sd(agg, "x")
    assert mean.tolist() == [0.875, 3.0] and sd[0] == frame.filter(pl.col("g") == 1)["x"].std() and np.isnan(sd[1])


def _rows(games: int = 3000, seed: int = 4) -> pl.DataFrame:
    """Study-like rows: three runs of a rung each, then sweep values, in the order a study stores them."""
    rng = np.random.default_rng(seed)
    rung = np.repeat(["weak", "random", "average"], games // 3)
    value = rng.choice([-10, 0, 10], games)
    sources = {f"anna_vp_{s}": rng.integers(0, 40, games) for s in ("start", "banner", "villa")}
    automa = sum(sources.values())
    human = rng.integers(20, 140, games)
    margin = human - automa
    return pl.DataFrame({"game_index": np.arange(games), "rung": rung, "value": value, "final_vp": human,
                         "anna_vp": automa, "margin": margin, "won": margin > 0, "tie": margin == 0, **sources})


def _eager_outcomes(rows: pl.DataFrame, by: tuple[str, ...]) -> pd.DataFrame:
    """The table as it was computed before: an eager group_by over every row."""
    names = {"margin": "margin", "score": "final_vp", "automa": "anna_vp"}
    return (rows.group_by(list(by), maintain_order=True)
            .agg(pl.len().alias("games"), pl.col("won").sum().alias("wins"), pl.col("tie").sum().alias("ties"),
                 *[pl.col(c).mean().alias(f"mean_{n}") for n, c in names.items()],
                 *[pl.col(c).std().alias(f"sd_{n}") for n, c in names.items()],
                 *[pl.col("margin").quantile(q, "linear").alias(f"margin_p{round(100 * q)}") for q in QUANTILES])
            .to_pandas())


@pytest.mark.parametrize("by", [("rung",), ("rung", "value")])
def test_outcome_table_of_a_lazy_frame_is_the_eager_table(by):
    rows = _rows()
    lazy = outcome_table(rows.lazy(), by, "final_vp", "anna_vp", "margin")
    assert_frame_equal(outcome_table(rows, by, "final_vp", "anna_vp", "margin"), lazy, check_exact=True)
    eager = _eager_outcomes(rows, by)
    assert list(lazy.columns[:len(by) + 11]) == [c for c in eager.columns if not c.startswith("sd_")]
    shared = [c for c in eager.columns if not c.startswith("sd_")]
    assert_frame_equal(lazy[shared], eager[shared], check_exact=True)  # counts, means and quantiles: every bit


def test_source_table_of_a_lazy_frame_is_the_unpivoted_table():
    rows = _rows()
    sources = {"anna_vp_villa": "villas", "anna_vp_start": "start", "anna_vp_banner": "banner"}
    table = source_table(rows.lazy(), sources, "anna_vp", by=("rung",))
    long = rows.select("rung", "anna_vp", *sources).unpivot(index=["rung", "anna_vp"], on=list(sources),
                                                              variable_name="column", value_name="vp")
    expected = (long.group_by(["rung", "column"], maintain_order=True)
                .agg(pl.len().alias("games"), pl.col("vp").mean().alias("mean"), pl.col("vp").std().alias("sd"),
                     (pl.col("vp").sum() / pl.col("anna_vp").sum()).alias("share")).to_pandas())
    expected.insert(1, "source", expected["column"].map(sources))
    assert list(table.columns) == ["rung", "source", "column", "games", "mean", "share", "mean_low", "mean_high"]
    assert_frame_equal(table[["rung", "source", "column", "games", "mean", "share"]],
                       expected[["rung", "source", "column", "games", "mean", "share"]], check_exact=True)
    assert table["mean_low"].lt(table["mean"]).all() and table["mean_high"].gt(table["mean"]).all()


def test_float_scores_keep_polars_means_in_the_outcome_table():
    rows = _rows().with_columns(pl.col("final_vp").cast(pl.Float64) + 0.25)
    table = outcome_table(rows.lazy(), ("rung", "value"), "final_vp", "anna_vp", "margin")
    eager = rows.group_by("rung", "value", maintain_order=True).agg(pl.col("final_vp").mean()).to_pandas()
    assert table[["rung", "value"]].equals(eager[["rung", "value"]])
    assert table["mean_score"].tolist() == pytest.approx(eager["final_vp"].tolist(), rel=1e-15)
