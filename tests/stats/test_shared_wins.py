"""Shared wins counted as shares (sim/stats/wins.py): where the rules share a tied win, each of the
k winners counts 1/k of the game in every seat and strategy rate, the rates of a table add up to one
game per game, and the compensation solver re-scores with the same counting."""

import numpy as np
import polars as pl
import pytest
from bgsim.experiments.runner import run
from bgsim.experiments.simulate import seat_table as summary_table
from bgsim.sim import make_game
from bgsim.sim.games.base import win_shares
from bgsim.sim.results.spec import RunSpec
from bgsim.sim.results.store import load
from bgsim.sim.stats.compensation import GameScores, _scan, win_rates
from bgsim.sim.stats.intervals import wilson
from bgsim.sim.stats.ratings import standings
from bgsim.sim.stats.seats import seat_table
from bgsim.sim.stats.strategy_stats import strategy_table
from bgsim.sim.stats.wins import effective_games, share_interval

# Sealed Bids with equal start points and shared final ties: random bidders tie on the highest
# total in a good share of games, so shared wins are common.
SHARED = {"final_tie": "shared", "start_points": "equal"}


@pytest.fixture(scope="module")
def shared_rows(tmp_path_factory):
    spec = RunSpec(name="shared", game="sealed_bids", players=(3,), strategies=("random",), games=3000,
                   chunk_size=1000, seed=11, params=SHARED)
    report = run(spec, out=tmp_path_factory.mktemp("runs"), jobs=1)
    return load(report.run_dir).collect()


def test_sb_tie_2_shared_mode_profile_says_the_rules_share_wins():
    assert make_game("sealed_bids", **SHARED).profile.shared_wins
    assert not make_game("sealed_bids").profile.shared_wins  # the tie-break decides by default
    assert make_game("capitol").profile.shared_wins == "CAP-END-2"
    assert not make_game("capitol(final_tiebreak=stones)").profile.shared_wins


def test_win_shares_split_each_game_among_its_rank_1_seats():
    rank = np.array([[1, 1, 3], [2, 1, 3], [1, 1, 1]])
    assert np.allclose(win_shares(rank), [[0.5, 0.5, 0], [0, 1, 0], [1 / 3, 1 / 3, 1 / 3]])


def test_shared_wins_are_common_and_each_game_sums_to_exactly_one(shared_rows):
    per_game = shared_rows.group_by("game_index").agg(
        pl.col("win_share").sum().alias("total"), (pl.col("rank") == 1).sum().alias("winners"),
        pl.col("won").sum().alias("won"))
    assert (per_game["total"] == 1.0).all()  # 1/2 + 1/2 and 1/3 + 1/3 + 1/3 are exactly 1 in float64
    assert (per_game["won"] == 1).all()  # the tie-break column keeps one winner per game
    shared = per_game.filter(pl.col("winners") > 1).height
    assert shared > 0.05 * per_game.height, shared  # the test needs shared wins to be common


def test_equal_winners_get_equal_shares(shared_rows):
    winners = shared_rows.filter(pl.col("rank") == 1)
    spread = winners.group_by("game_index").agg((pl.col("win_share").max() - pl.col("win_share").min()).alias("d"))
    assert (spread["d"] == 0).all()
    k = winners.group_by("game_index").agg(pl.len().alias("k"), pl.col("win_share").first().alias("share"))
    assert np.allclose(k["share"].to_numpy(), 1 / k["k"].to_numpy())


def test_seat_rates_sum_to_one_per_game_in_every_table(shared_rows):
    seats = seat_table(shared_rows, "final_points")
    assert seats["win_rate"].sum() == pytest.approx(1.0, abs=1e-12)
    assert seats["wins"].sum() == pytest.approx(3000, abs=1e-6)
    summary = summary_table(shared_rows, "final_points")
    assert summary["win_rate"].sum() == pytest.approx(1.0, abs=1e-12)
    strategies = strategy_table(shared_rows, "final_points")  # one strategy holding every seat: 1/n
    assert strategies["win_rate"].iloc[0] == pytest.approx(1 / 3, abs=1e-12)
    # the tie-break reading differs where wins were shared: seat rates by ``won`` are not the shares
    by_won = shared_rows.group_by("seat").agg(pl.col("won").mean()).sort("seat")["won"].to_numpy()
    assert not np.allclose(by_won, seats.sort_values("seat")["win_rate"].to_numpy())


def test_share_intervals_are_wilson_for_wins_and_narrower_for_shares():
    wins, games = np.array([30.0, 0.0, 50.0]), np.array([100.0, 100.0, 100.0])
    low, high = share_interval(wins, wins, games)  # 0/1 outcomes: squares == sums
    w_low, w_high = wilson(wins, games)
    assert np.allclose(low, w_low) and np.allclose(high, w_high)
    # 100 games of half a win each: the same rate, less variance, more effective games
    assert effective_games(np.array([50.0]), np.array([25.0]), np.array([100.0]))[0] == pytest.approx(100.0)
    halves = effective_games(np.array([50.0]), np.array([40.0]), np.array([100.0]))[0]  # 20 halves, 40 wins
    assert halves > 100
    s_low, s_high = share_interval(np.array([50.0]), np.array([40.0]), np.array([100.0]))
    assert s_high - s_low < w_high[2] - w_low[2]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rescoring_with_shared_wins_matches_a_direct_count(n):
    rng = np.random.default_rng(n)
    base = rng.integers(0, 8, (400, n))
    tiebreak = np.argsort(rng.random((400, n)), axis=1) + 1
    scores = GameScores(base, tiebreak, np.arange(400), np.zeros(n, dtype=np.int64), shared=True)
    vector = rng.integers(-2, 3, n)
    weights = rng.integers(0, 3, 400).astype(float)
    for seat in range(1, n):
        scanned = _scan(scores, vector.copy(), seat, -4, 5, weights)
        for i, value in enumerate(range(-4, 6)):
            trial = vector.copy()
            trial[seat] = value
            totals = base + trial
            top = totals == totals.max(axis=1, keepdims=True)
            direct = (weights[:, None] * top / top.sum(axis=1, keepdims=True)).sum(axis=0) / weights.sum()
            assert np.allclose(scanned[i], direct) and np.allclose(win_rates(scores, trial, weights), direct)
    assert win_rates(scores, vector).sum() == pytest.approx(1.0)


def test_tournament_standings_count_shares(shared_rows):
    # each seat labelled as its own strategy: the standings become seat rates
    rows = shared_rows.with_columns(pl.format("seat{}", pl.col("seat")).alias("strategy"),
                                    pl.col("final_points").alias("final_score"))
    table = standings(rows).sort_values("strategy")
    seats = seat_table(shared_rows, "final_points").sort_values("seat")
    assert np.allclose(table["win_rate"].to_numpy(), seats["win_rate"].to_numpy())
    assert table["win_rate"].sum() == pytest.approx(1.0, abs=1e-12)
    assert np.allclose(table["win_low"].to_numpy(), seats["win_rate_low"].to_numpy())
