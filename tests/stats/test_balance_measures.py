"""Balance measures (``sim.stats.balance``) on hand-made games with known answers: re-scoring under
a start vector, shared and broken ties, the matchup matrix from alternating seats."""

import numpy as np
import pytest
from bgsim.sim.stats.balance import POPULATION, Outcomes, bootstrap, matchup_matrix, measure_value, shares_under


def games(base, tiebreak=None, start=None, pair=None, strategies=None, shared=False) -> Outcomes:
    base = np.array(base, dtype=np.int64)
    g, p = base.shape
    return Outcomes(deal=np.arange(g), pair=np.full(g, POPULATION) if pair is None else np.array(pair),
                    rotation=np.zeros(g, dtype=np.int64),
                    seat_strategy=np.zeros((g, p), np.int64) if strategies is None else np.array(strategies),
                    base=base, start=np.zeros(p, np.int64) if start is None else np.array(start),
                    tiebreak=np.tile(np.arange(1, p + 1), (g, 1)) if tiebreak is None else np.array(tiebreak),
                    length=np.full(g, 10), shared=shared)


def test_a_start_vector_re_ranks_the_stored_games():
    out = games([[10, 9], [10, 12], [7, 7]])  # seat 0 wins ties (tie-break place 1)
    assert shares_under(out).tolist() == [[1, 0], [0, 1], [1, 0]]
    assert shares_under(out, np.array([0, 2])).tolist() == [[0, 1], [0, 1], [0, 1]]
    assert measure_value("first_seat", out) == pytest.approx(2 / 3)
    # seat 1 wins every game under 0/2: its gap of 1/2 each way, less the (zero) noise
    assert measure_value("seat_imbalance", out, np.array([0, 2])) == pytest.approx(0.25)
    assert measure_value("score_spread", out) == pytest.approx((1 + 2 + 0) / 3)


def test_shared_wins_split_a_tie():
    out = games([[7, 7], [8, 7]], shared=True)
    assert shares_under(out).tolist() == [[0.5, 0.5], [1, 0]]
    assert measure_value("first_seat", out) == pytest.approx(0.75)


def test_the_matchup_matrix_averages_both_seatings_so_that_even_is_one_half():
    # strategy 0 against 1 at 3 seats: rotation 0 gives 0 two seats, rotation 1 one; 0 wins every game
    strategies = [[0, 1, 0], [1, 0, 1]]
    out = games([[9, 1, 1], [1, 9, 1]], pair=[0, 0], strategies=strategies)
    matrix = matchup_matrix(out, shares_under(out), [(0, 1)], [0, 1])
    assert matrix.tolist() == [[0.5, 1.0], [0.0, 0.5]]
    assert np.isnan(matchup_matrix(out, shares_under(out), [(0, 1)], [0, 1, 2])[0, 2])


def test_a_bootstrap_resamples_whole_deals():
    out = games([[10, 9], [10, 12], [7, 7], [3, 4]])
    values = bootstrap(lambda o: measure_value("first_seat", o), out, replicates=50, seed=1)
    assert values.shape == (50,) and set(np.round(values * 4)) <= {0, 1, 2, 3, 4}
    assert 0 < values.mean() < 1
