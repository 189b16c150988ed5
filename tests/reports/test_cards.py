"""Scoring-card spreads on synthetic result rows with planted answers, and the two card charts."""

import math

import numpy as np
import pandas as pd
import polars as pl
import pytest
from bgsim.reports.card_charts import card_pair_heatmap, card_payoff_forest
from bgsim.reports.cards import (
    DEFAULT_CONVERSION,
    NEVER,
    TOO_FEW,
    card_catalogue,
    card_spreads,
    conversion_note,
    deck_summary,
    pair_effects,
    triggers,
)
from matplotlib.figure import Figure

STRONG = 5  # A06: its triggering seat wins far more often
WEAK = 20  # B09: its triggering seat rarely wins
NEUTRAL = 40  # D08: no effect on the winner
PAIR = (30, 31)  # C08 + C09: placed side by side in slots 0 and 1 in many games; the pair wins
FIXED = 45  # D13: always pays 2 VP, 1 coin, 3 bread, 1 step with k = 1, b = 1
RED_FIXED = 4  # A05 (give 2 herb): always k = 2, b = 0, 4 VP
RARE = 58  # D26: on the board of 10 games only
NEVER_CARD = 59  # D27: never on the board
N_SLOTS = 12


def _synthetic(games: int = 4000, seed: int = 1) -> tuple[pl.DataFrame, dict]:
    """Result rows with planted effects, and the true counts the tables must reproduce.

    Each seat triggers, in each of 4 passes, the cards on a random pair of neighbouring slots.
    The winner is drawn with seat weights (seat 0 a little ahead) multiplied by 15 per trigger of
    STRONG and per pass with the planted PAIR, and by 0.1 per trigger of WEAK.
    """
    rng = np.random.default_rng(seed)
    pool = np.array([c for c in range(60) if c not in (RARE, NEVER_CARD, *PAIR)])
    n_players = rng.choice([2, 3, 4], games)
    board = pool[rng.random((games, len(pool))).argsort(axis=1)[:, :N_SLOTS]]  # (G, 12)
    planted = rng.random(games) < 0.4
    board[planted, :2] = PAIR
    board[~planted & (rng.random(games) < 0.1), 0] = PAIR[0]
    board[:10, N_SLOTS - 1] = RARE
    game = np.repeat(np.arange(games), n_players)  # (S,) one entry per seat row
    seat = np.arange(len(game)) - np.repeat(np.cumsum(n_players) - n_players, n_players)
    slot = rng.integers(0, N_SLOTS - 1, (len(game), 4))  # (S, passes)
    cards = np.stack([board[game[:, None], slot], board[game[:, None], slot + 1]], axis=2)  # (S, passes, 2)
    pair = (cards.min(axis=2) == PAIR[0]) & (cards.max(axis=2) == PAIR[1])
    log_weight = (np.log([1.3, 1.0, 0.9, 0.8])[seat] + np.log(15) * ((cards == STRONG).sum(axis=(1, 2)) + pair.sum(1))
                  + np.log(0.1) * (cards == WEAK).sum(axis=(1, 2)))
    keys = np.full((games, 4), -np.inf)
    keys[game, seat] = log_weight + rng.gumbel(size=len(game))  # Gumbel-max: a draw proportional to weight
    won = keys.argmax(axis=1)[game] == seat
    rows = pl.DataFrame({"game_index": game, "n_players": n_players[game].astype(np.int8),
                         "seat": seat.astype(np.int8), "won": won,
                         "board_cards": board[game].astype(np.int16)})
    log = pl.DataFrame({"game_index": np.repeat(game, 8), "seat": np.repeat(seat, 8).astype(np.int8),
                        "pass": np.tile(np.repeat(np.arange(1, 5), 2), len(game)).astype(np.int8),
                        "card": cards.reshape(-1).astype(np.int16), **_outcomes(rng, cards.reshape(-1))})
    fields = ["pass", "card", "k", "b", "vp", "coins", "bread", "steps", "penalty"]
    lists = log.group_by("game_index", "seat", maintain_order=True).agg(pl.struct(fields).alias("cards"))
    rows = (rows.join(lists, on=["game_index", "seat"], how="left")
            .with_columns(pl.lit("synthetic").alias("run_id"), (pl.col("game_index") % 97).alias("deal"),
                          pl.lit("greedy").alias("strategy"), pl.lit(0, pl.Int16).alias("final_vp")))
    truth = {"on_board": np.bincount(board.reshape(-1), minlength=60), "pair": int(pair.sum())}
    return rows, truth


def _outcomes(rng: np.random.Generator, cards: np.ndarray) -> dict[str, np.ndarray]:
    """Card-log fields of the triggers of ``cards`` (T,) int: 10 % penalties, else k = 1 or 2
    for 3 VP each and 0 or 1 coin, bread and step; FIXED and RED_FIXED pay fixed amounts."""
    t = len(cards)
    penalty = rng.random(t) < 0.1
    k = np.where(penalty, 0, rng.integers(1, 3, t))
    out = {"k": k, "b": np.zeros(t, dtype=np.int64), "vp": np.where(penalty, -4, 3 * k)}
    for kind in ("coins", "bread", "steps"):
        out[kind] = np.where(penalty, 0, rng.integers(0, 2, t))
    fixed = {FIXED: (1, 1, 2, 1, 3, 1), RED_FIXED: (2, 0, 4, 0, 0, 0)}
    for card, values in fixed.items():
        for kind, value in zip(("k", "b", "vp", "coins", "bread", "steps"), values, strict=True):
            out[kind] = np.where(cards == card, value, out[kind])
    penalty &= ~np.isin(cards, list(fixed))
    dtypes = {"k": np.int8, "b": np.int8}
    columns = {kind: values.astype(dtypes.get(kind, np.int16)) for kind, values in out.items()}
    return {**columns, "penalty": penalty}


@pytest.fixture(scope="module")
def synthetic():
    return _synthetic()


@pytest.fixture(scope="module")
def catalogue():
    return card_catalogue()


@pytest.fixture(scope="module")
def spreads(synthetic, catalogue):
    return card_spreads(synthetic[0], catalogue)


def _card(spreads: pd.DataFrame, card: int, n: int) -> pd.Series:
    return spreads[(spreads["card"] == card) & (spreads["n_players"] == n)].iloc[0]


# --- catalogue


def test_catalogue_holds_the_60_cards_in_deck_order(catalogue):
    assert len(catalogue) == 60
    assert catalogue["card"].tolist() == list(range(60))
    assert catalogue.groupby("deck").size().to_dict() == {"A": 12, "B": 11, "C": 10, "D": 27}
    assert catalogue["deck"].is_monotonic_increasing
    a05 = catalogue.loc[RED_FIXED]
    assert (a05["id"], a05["colour"], a05["give_units"], a05["pay_vp"]) == ("A05", "red", 2, 4)
    assert a05["payout"] == "4 VP" and a05["requirement"] == "give 2 herb"
    assert (catalogue.loc[catalogue["colour"] == "green", "give_units"] == 0).all()


def test_conversion_note_states_the_rule():
    note = conversion_note()
    assert "CD-END-3" in note and "CD-END-4" in note and "0.5" in note
    assert DEFAULT_CONVERSION == {"vp": 1.0, "coins": 0.5, "bread": 0.5, "goods": 0.5, "steps": 1.0}


# --- per card


def test_one_row_per_card_and_player_count(spreads, synthetic):
    assert len(spreads) == 3 * 60
    assert sorted(spreads["n_players"].unique()) == [2, 3, 4]
    on_board = spreads.groupby("card")["on_board"].sum().to_numpy()
    assert (on_board == synthetic[1]["on_board"]).all()
    games = spreads.groupby("n_players")["games"].first().sum()
    assert games == 4000


def test_planted_strong_card_is_flagged_as_paying_too_much(spreads):
    for n in (2, 3, 4):
        row = _card(spreads, STRONG, n)
        assert row["flagged"] and row["direction"] == "pays too much"
        assert row["odds_ratio"] > 1 and row["or_low"] > 1
        assert row["win_diff"] > 0.1 and row["diff_low"] > 0
        assert row["q_value"] < 0.05 and row["note"] == ""


def test_planted_weak_card_is_flagged_as_paying_too_little(spreads):
    for n in (2, 3, 4):
        row = _card(spreads, WEAK, n)
        assert row["flagged"] and row["direction"] == "pays too little"
        assert row["or_high"] < 1 and row["diff_high"] < 0


def test_neutral_card_is_not_flagged(spreads):
    for n in (2, 3, 4):
        row = _card(spreads, NEUTRAL, n)
        assert not row["flagged"] and row["direction"] == ""
        assert row["or_low"] < 1 < row["or_high"]
        assert row["diff_low"] < 0 < row["diff_high"]
        assert row["trigger_seats"] >= 30


def test_base_rate_is_the_seat_baseline(spreads):
    # a card whose seats win as usual compares with the usual win rate of those seats: about 1/n
    for n in (2, 3, 4):
        assert abs(_card(spreads, NEUTRAL, n)["base_rate"] - 1 / n) < 0.12


def test_payoff_conversion_gives_the_known_number(spreads):
    row = _card(spreads, FIXED, 4)
    assert row["payoff"] == pytest.approx(2 + 0.5 + 1.5 + 1)  # 2 VP, 1 coin, 3 bread, 1 step
    assert row["net_payoff"] == pytest.approx(5.0 - 1.5)  # 3 bread handed in for b = 1
    assert row["payoff_low"] == row["payoff_high"] == pytest.approx(5.0)  # no spread
    assert (row["mean_vp"], row["mean_coins"], row["mean_bread"], row["mean_steps"]) == (2, 1, 3, 1)
    red = _card(spreads, RED_FIXED, 4)
    assert red["payoff"] == pytest.approx(4.0) and red["net_payoff"] == pytest.approx(4.0 - 2 * 2 * 0.5)


def test_conversion_can_be_changed(synthetic, catalogue):
    spreads = card_spreads(synthetic[0], catalogue, conversion={"steps": 0.0, "bread": 1.0})
    assert _card(spreads, FIXED, 3)["payoff"] == pytest.approx(2 + 0.5 + 3.0 + 0)
    with pytest.raises(ValueError, match="unknown conversion"):
        card_spreads(synthetic[0], catalogue, conversion={"wine": 1.0})


def test_penalties_are_counted(spreads):
    row = _card(spreads, NEUTRAL, 4)
    assert 0 < row["penalties"] < row["triggered"]
    assert row["penalty_low"] < row["penalty_rate"] < row["penalty_high"]
    assert 0.03 < row["penalty_rate"] < 0.2  # planted at 10 %
    assert _card(spreads, FIXED, 4)["penalties"] == 0


def test_card_never_on_the_board(spreads):
    rows = spreads[spreads["card"] == NEVER_CARD]
    assert (rows["on_board"] == 0).all() and (rows["triggered"] == 0).all()
    assert rows["payoff"].isna().all() and rows["win_diff"].isna().all() and rows["trigger_rate"].isna().all()
    assert (rows["on_board_rate"] == 0).all()
    assert not rows["flagged"].any() and (rows["note"] == NEVER).all()


def test_too_few_games_are_not_tested(spreads):
    rows = spreads[spreads["card"] == RARE]
    assert rows["on_board"].sum() == 10
    assert (rows["trigger_seats"] < 30).all()
    assert rows["odds_ratio"].isna().all() and rows["q_value"].isna().all()
    assert not rows["flagged"].any() and (rows["note"] == TOO_FEW).all()


def test_rates_and_intervals_are_consistent(spreads):
    seen = spreads[spreads["triggered"] > 1]
    assert (seen["trigger_low"] <= seen["trigger_rate"]).all() and (seen["trigger_rate"] <= seen["trigger_high"]).all()
    assert (seen["payoff_low"] <= seen["payoff"]).all() and (seen["payoff"] <= seen["payoff_high"]).all()
    assert (seen["trigger_rate"] <= 1).all()
    tested = spreads[spreads["note"] == ""]
    assert (tested["or_low"] <= tested["odds_ratio"]).all() and (tested["odds_ratio"] <= tested["or_high"]).all()
    assert (tested["q_value"] >= tested["p_value"]).all()


def test_pandas_and_lazy_input_give_the_same_table(synthetic, catalogue, spreads):
    lazy = card_spreads(synthetic[0].lazy(), catalogue)
    pd.testing.assert_frame_equal(lazy, spreads)
    small = synthetic[0].filter(pl.col("game_index") < 300)
    from_pandas = card_spreads(small.to_pandas(), catalogue)
    pd.testing.assert_frame_equal(from_pandas, card_spreads(small, catalogue))


def test_triggers_hold_two_cards_per_seat_and_pass(synthetic, catalogue):
    t = triggers(synthetic[0], catalogue)
    per_pass = t.group_by("game_index", "seat", "pass").len()
    assert (per_pass["len"] == 2).all()
    assert t.height == 8 * synthetic[0].height


# --- pairs


@pytest.fixture(scope="module")
def pairs(synthetic, catalogue):
    return pair_effects(synthetic[0], catalogue)


def test_planted_pair_is_found(pairs, synthetic):
    rows = pairs[(pairs["card_a"] == PAIR[0]) & (pairs["card_b"] == PAIR[1])]
    assert rows["count"].sum() == synthetic[1]["pair"]
    for row in rows.itertuples():
        assert row.flagged and row.direction == "pays too much"
        assert row.diff_low > 0 and row.or_low > 1 and row.win_low > 1 / row.n_players
        assert (row.id_a, row.id_b, row.deck_a, row.deck_b) == ("C08", "C09", "C", "C")


def test_pairs_are_unordered_and_known_payoff(pairs):
    assert (pairs["card_a"] < pairs["card_b"]).all()
    assert not pairs.duplicated(["n_players", "card_a", "card_b"]).any()
    both = pairs[(pairs["card_a"] == RED_FIXED) & (pairs["card_b"] == FIXED)]
    assert len(both) and np.allclose(both["payoff"], 4.0 + 5.0) and np.allclose(both["payoff_excess"], 0.0)


def test_pairs_with_few_triggers_are_not_flagged(pairs):
    few = pairs[pairs["trigger_seats"] < 30]
    assert len(few) and not few["flagged"].any() and few["q_value"].isna().all()
    assert (few["note"] == TOO_FEW).all()
    neutral = pairs[(pairs["note"] == "") & ~pairs["card_a"].isin([STRONG, WEAK, *PAIR])
                    & ~pairs["card_b"].isin([STRONG, WEAK, *PAIR])]
    assert neutral["flagged"].mean() < 0.1


# --- decks


def test_deck_summary_pools_the_triggers(spreads, synthetic, catalogue):
    decks = deck_summary(spreads)
    assert len(decks) == 3 * 4
    assert decks.groupby("n_players")["cards"].sum().tolist() == [60, 60, 60]
    t = triggers(synthetic[0], catalogue).to_pandas()
    t["deck"] = t["card"].map(catalogue.set_index("card")["deck"])
    expected = t[t["n_players"] == 3].groupby("deck")["payoff"].agg(["mean", "std", "size"])
    got = decks[decks["n_players"] == 3].set_index("deck")
    assert np.allclose(got["payoff"], expected["mean"])
    half = 1.96 * expected["std"] / np.sqrt(expected["size"])
    assert np.allclose(got["payoff_high"] - got["payoff"], half, rtol=1e-3)
    assert (got["flagged"] >= got["too_much"] + got["too_little"]).all()
    assert got.loc["A", "too_much"] >= 1 and got.loc["B", "too_little"] >= 1
    assert (got["penalty_low"] < got["penalty_rate"]).all()


def test_empty_rows_give_empty_tables(synthetic, catalogue):
    empty = synthetic[0].head(0)
    assert card_spreads(empty, catalogue).empty
    assert pair_effects(empty, catalogue).empty
    assert deck_summary(card_spreads(empty, catalogue)).empty


# --- charts


def _labelled(fig: Figure) -> None:
    assert isinstance(fig, Figure)
    assert fig.get_suptitle() or any(ax.get_title() for ax in fig.axes)
    drawn = [ax for ax in fig.axes if ax.get_xlabel() or ax.get_ylabel()]
    assert drawn


def test_forest_chart(spreads):
    fig = card_payoff_forest(spreads)
    _labelled(fig)
    assert fig.get_suptitle()
    assert any(ax.get_xlabel() for ax in fig.axes)
    fig.canvas.draw()


def test_pair_heatmap(pairs):
    fig = card_pair_heatmap(pairs)
    _labelled(fig)
    fig.canvas.draw()


def test_charts_survive_empty_and_nan_rows(spreads, pairs):
    nan_rows = spreads.copy()
    nan_rows.loc[:, ["payoff", "payoff_low", "payoff_high", "win_diff", "diff_low", "diff_high"]] = math.nan
    for fig in (card_payoff_forest(nan_rows), card_payoff_forest(spreads.iloc[0:0]),
                card_pair_heatmap(pairs.iloc[0:0]), card_pair_heatmap(pairs.assign(win_diff=math.nan))):
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
    t = triggers(rows, catalogue).join(pl.from_pandas(catalogue[["card", "pay_vp", "pay_steps"]])
                                       .with_columns(pl.col("card").cast(pl.Int16)), on="card")
    assert t.group_by("game_index", "seat", "pass").len()["len"].to_list() == [2] * (4 * rows.height)
    paid = t.filter(~pl.col("penalty"))
    fulfilments = paid["k"].cast(pl.Int64) + paid["b"].cast(pl.Int64)
    assert (paid["vp"].cast(pl.Int64) == fulfilments * paid["pay_vp"]).all()
    assert (paid["steps"].cast(pl.Int64) == fulfilments * paid["pay_steps"]).all()
    per_seat = t.group_by("game_index", "seat").agg(pl.col("vp").cast(pl.Int64).sum().alias("logged"))
    joined = rows.join(per_seat, on=["game_index", "seat"])
    assert (joined["logged"] == joined["vp_cards"].cast(pl.Int64)).all()

    spreads = card_spreads(rows, catalogue)
    assert spreads["triggered"].sum() == 8 * rows.height
    assert spreads["penalties"].sum() == rows["penalties"].cast(pl.Int64).sum()
    boards = rows.filter(pl.col("seat") == 0)["board_cards"].to_numpy()
    assert spreads["on_board"].sum() == int((boards >= 0).sum())
    on_board = t.join(rows.select("game_index", "seat", "board_cards"), on=["game_index", "seat"])
    assert on_board.select(pl.col("board_cards").arr.contains(pl.col("card")).all()).item()
