"""Seat statistics and the compensation solver on synthetic results with known answers."""

import numpy as np
import pandas as pd
import polars as pl
import pytest
from bgsim.sim.stats.compensation import GameScores, _scan, game_scores, solve, solve_with_bootstrap, win_rates
from bgsim.sim.stats.seats import category_table, games_needed, q_text, seat_table, start_effect, verdicts


def synthetic_rows(n_players: int, games: int, first_seat_wins: float, seed: int = 0, start: str = "rulebook",
                   population: str = "test") -> pl.DataFrame:
    """Games where seat 0 wins with probability ``first_seat_wins``, the rest share the remainder."""
    rng = np.random.default_rng(seed)
    rest = (1 - first_seat_wins) / (n_players - 1)
    winner = rng.choice(n_players, size=games, p=[first_seat_wins] + [rest] * (n_players - 1))
    seat = np.tile(np.arange(n_players), games)
    won = seat == np.repeat(winner, n_players)
    vp = rng.normal(100, 10, games * n_players).round() + 20 * won
    return pl.DataFrame({
        "run_id": "r", "n_players": n_players, "game_index": np.repeat(np.arange(games), n_players),
        "deal": np.repeat(np.arange(games), n_players), "seat": seat, "won": won, "final_vp": vp.astype(int),
        "rank": np.where(won, 1, 2), "start_vp": 8, "population": population, "start": start,
        "vp_cards": (vp // 2).astype(int), "vp_villas": (vp - vp // 2).astype(int),
    })


def test_planted_seat_advantage_is_found_with_an_interval_that_covers_it():
    seats = seat_table(synthetic_rows(2, 4000, 0.58), "final_vp")
    first = seats[seats["seat"] == 0].iloc[0]
    assert first["favoured"] == 1 and first["win_rate_low"] < 0.58 < first["win_rate_high"]
    assert first["win_rate_low"] > 0.5
    assert seats[seats["seat"] == 1].iloc[0]["favoured"] == -1
    sentence = verdicts(seats)["verdict"].iloc[0]
    assert sentence.startswith("seat 1 favoured") and "q < 1e-16" in sentence  # q underflows: never "q = 0"


def test_q_values_print_with_two_digits_or_as_below_1e_16():
    assert q_text(0.0321) == "q = 0.032"
    assert q_text(0.0) == "q < 1e-16" and q_text(3e-40) == "q < 1e-16"


def test_a_fair_table_is_not_called_unfair():
    seats = seat_table(synthetic_rows(4, 8000, 0.25, seed=3), "final_vp")
    assert (seats["favoured"] == 0).all()
    assert ((seats["win_rate_low"] < 0.25) & (seats["win_rate_high"] > 0.25)).all()
    assert "no seat differs detectably" in verdicts(seats)["verdict"].iloc[0]


def test_too_few_games_say_so_instead_of_claiming_a_difference():
    """A real 5 pp advantage in 200 games is below what they can detect: no claim, and the gap named."""
    seats = seat_table(synthetic_rows(2, 200, 0.55, seed=1), "final_vp")
    assert (seats["favoured"] == 0).all()
    sentence = verdicts(seats)["verdict"].iloc[0]
    assert "cannot be told apart from chance" in sentence
    assert seats["detectable_pp"].iloc[0] > 5


def test_means_carry_t_intervals_and_categories_sum_to_their_share():
    rows = synthetic_rows(3, 3000, 1 / 3, seed=4)
    seats = seat_table(rows, "final_vp")
    assert (seats["mean_score_low"] < seats["mean_score"]).all()
    assert (seats["mean_score"] < seats["mean_score_high"]).all()
    cats = category_table(rows, ("vp_cards", "vp_villas"), "final_vp")
    shares = cats.groupby(["seat"])["share"].sum()
    assert np.allclose(shares, 1.0)
    assert set(cats["category"]) == {"vp_cards", "vp_villas"}


def test_start_effect_pairs_games_and_finds_a_planted_change():
    """Same games under two start vectors; seat 1 wins 300 games more under 'rulebook'."""
    base = synthetic_rows(2, 3000, 0.5, seed=5, start="equal")
    won = base["won"].to_numpy().copy()
    flip = np.flatnonzero((np.arange(len(won)) % 2 == 1) & won)[:300]  # seat 2 wins that move to seat 1
    won[flip], won[flip - 1] = False, True
    other = base.with_columns(pl.Series("won", won), pl.lit("rulebook").alias("start"))
    effect = start_effect(pl.concat([base, other]))
    seat1 = effect[effect["seat"] == 0].iloc[0]
    assert seat1["pairs"] == 3000 and seat1["diff_pp"] == pytest.approx(10.0)
    assert seat1["diff_low"] > 0 and seat1["p"] < 1e-6


def test_games_needed_matches_the_normal_sample_size():
    assert games_needed(2, 1.0) == 9604  # 1.96^2 * 0.25 / 0.01^2
    assert games_needed(4, 0.5) == pytest.approx(1.959964 ** 2 * 0.1875 / 0.005 ** 2, rel=1e-3)
    with pytest.raises(ValueError):
        games_needed(1, 1.0)


# --- compensation


def planted_scores(deficits, games: int = 8000, seed: int = 0) -> GameScores:
    """Scores where seat i is ``deficits[i]`` VP behind an otherwise fair game; played with the rulebook."""
    rng = np.random.default_rng(seed)
    n = len(deficits)
    base = rng.normal(110, 15, (games, n)).round().astype(np.int64) - np.array(deficits)
    tiebreak = np.argsort(rng.random((games, n)), axis=1) + 1
    start = np.array({2: [8, 9], 3: [8, 9, 13], 4: [8, 9, 10, 11]}[n])
    return GameScores(base, tiebreak, np.arange(games), start)


def test_scan_agrees_with_rescoring_every_value():
    scores = planted_scores([0, 2, 0, 5], games=3000, seed=2)
    vector = np.array([8, 9, 10, 11])
    rates = _scan(scores, vector, 2, 0, 30, None)
    for value in range(31):
        trial = vector.copy()
        trial[2] = value
        assert np.allclose(rates[value], win_rates(scores, trial))


@pytest.mark.parametrize(("deficits", "expected"), [([0, 3], (8, 11)), ([0, 0, 5], (8, 8, 13)),
                                                   ([0, 0, 0, 6], (8, 8, 8, 14))])
def test_compensation_finds_a_planted_deficit(deficits, expected):
    point, table = solve_with_bootstrap(planted_scores(deficits), replicates=60, seed=1)
    assert point.vector == expected
    assert ((table["low"] <= table["solved"]) & (table["solved"] <= table["high"])).all()
    assert table.iloc[-1]["low"] <= expected[-1] <= table.iloc[-1]["high"]
    assert point.objective < table["imbalance_rulebook"].iloc[0]


def test_compensation_keeps_the_first_seat_at_8_and_prefers_the_rulebook_on_a_plateau():
    scores = planted_scores([0, 0], games=2000, seed=3)
    assert solve(scores).vector[0] == 8
    tiny = GameScores(np.array([[50, 10]]), np.array([[1, 2]]), np.array([0]), np.array([8, 9]))
    assert solve(tiny).vector == (8, 9)  # seat 2 would need 49 more: every value in range is as bad, keep 9


def test_game_scores_reads_stored_rows():
    rows = pd.DataFrame({"run_id": "r", "n_players": 2, "game_index": [0, 0, 1, 1], "deal": [0, 0, 1, 1],
                         "seat": [0, 1, 0, 1], "start_vp": [8, 9, 8, 9], "final_vp": [50, 40, 30, 31],
                         "tiebreak": [1, 2, 2, 1]})
    scores = game_scores(rows, "start_vp", "final_vp", "tiebreak")
    assert scores.base.tolist() == [[42, 31], [22, 22]] and scores.start.tolist() == [8, 9]
    assert win_rates(scores, [8, 9]).tolist() == [0.5, 0.5]
    assert win_rates(scores, [8, 8]).tolist() == [0.5, 0.5]  # tie 30:30 goes to seat 2 (tie-break place 1)
    assert win_rates(scores, [8, 7]).tolist() == [1.0, 0.0]


def _three_player_rows(games: int, seat3_wins: float, seed: int) -> pl.DataFrame:
    """3-player rulebook games where seat 3 wins ``seat3_wins`` of them (synthetic_rows plants seat 0)."""
    rows = synthetic_rows(3, games, seat3_wins, seed=seed)
    return rows.with_columns(((2 - pl.col("seat")) % 3).alias("seat"))  # move the planted seat 0 to seat 3


@pytest.mark.parametrize(("games", "rate", "expected"), [
    (9000, 0.37, "No: 13 over-compensates"),
    (9000, 0.29, "No: 13 is not enough"),
    (9000, 1 / 3, "Yes, within ±2 pp"),
    (60, 0.45, "These games cannot tell"),
])
def test_the_13_verdict_follows_the_seat_test_and_says_when_games_are_too_few(games, rate, expected):
    from bgsim.reports.seat_report import largest_value_answer
    from bgsim.sim.registry import make_game

    seats = seat_table(_three_player_rows(games, rate, seed=7), "final_vp")
    assert expected in largest_value_answer(seats, pd.DataFrame(), "test", make_game("carpe_diem").profile)
