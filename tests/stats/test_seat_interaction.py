"""The population-by-seat interaction test (``sim.stats.seat_interaction``): its false rate under H0 on
planted studies whose populations share deals and include a mixed-table-like population (each deal
played in every seating), its power against a planted interaction, the plain chi-square it
reduces to, the rows it reads, and bad input."""

import numpy as np
import polars as pl
import pytest
from bgsim.sim.errors import BgsimError
from bgsim.sim.stats import clustered
from bgsim.sim.stats.seat_interaction import (
    MIN_DEALS,
    SeatInteractionError,
    deal_sums,
    interaction_table,
    seat_interaction,
)
from scipy import stats

BASE = np.array([0.40, 0.33, 0.27])  # the seat profile every population shares under H0
SEATINGS = 6  # a 3-player mixed table: 3! seatings of each deal
REPLICATES = 2000
# 0.05 +- 3.09 binomial standard errors over the replicates (the calibration suite's band: a sound
# test falls outside it by chance once in a thousand)
BAND = 3.09 * np.sqrt(0.05 * 0.95 / REPLICATES)


def _draw(rng, profile: np.ndarray) -> np.ndarray:
    """One winning seat per row of ``profile`` (..., S)."""
    u = rng.random(profile.shape[:-1])[..., None]
    return np.minimum((u > np.cumsum(profile, axis=-1)).sum(axis=-1), profile.shape[-1] - 1)


def _shares(rng, winner: np.ndarray, seats: int, tie: float) -> np.ndarray:
    """(..., S) win shares: the winner's game, shared half-half with another seat with chance ``tie``."""
    shares = np.eye(seats)[winner]
    other = (winner + rng.integers(1, seats, winner.shape)) % seats
    tied = rng.random(winner.shape) < tie
    return np.where(tied[..., None], 0.5 * shares + 0.5 * np.eye(seats)[other], shares)


def planted_study(rng, deals: int = 480, mixed_deals: int = 80, deal_sd: float = 0.6, strong: float = 0.5,
                  tie: float = 0.1, second: np.ndarray = BASE) -> tuple[np.ndarray, np.ndarray]:
    """(wins (D, 3, 3), games (D, 3)) of three populations on the same deals: two self-play (one game a
    deal; the second's profile ``second``), and a mixed table that plays its first ``mixed_deals``
    deals in 6 seatings. A deal moves every population's seat profile alike (log-normal noise of
    ``deal_sd``); in the mixed table a strong strategy rotates through the seats (each twice per deal)
    and wins ``strong`` of the games wherever it sits, so that table's seatings of a deal move
    against each other as well as together. Self-play wins the same mixture, so under H0 every
    population has the same seat profile. ``tie``: chance a game's win is shared with another seat."""
    seats = len(BASE)
    noise = np.exp(rng.normal(0, deal_sd, (deals, seats)))

    def profile(base):
        q = base * noise
        return strong / seats + (1 - strong) * q / q.sum(axis=1, keepdims=True)

    wins, games = np.zeros((deals, 3, seats)), np.zeros((deals, 3))
    for p, base in enumerate((BASE, second)):
        wins[:, p] = _shares(rng, _draw(rng, profile(base)), seats, tie)
        games[:, p] = 1
    q = BASE * noise[:mixed_deals]
    q = q / q.sum(axis=1, keepdims=True)
    other = _draw(rng, np.repeat(q[:, None, :], SEATINGS, axis=1))  # (M, 6)
    rotating = np.tile(np.arange(SEATINGS) % seats, (mixed_deals, 1))
    winner = np.where(rng.random((mixed_deals, SEATINGS)) < strong, rotating, other)
    wins[:mixed_deals, 2] = _shares(rng, winner, seats, tie).sum(axis=1)
    games[:mixed_deals, 2] = SEATINGS
    return wins, games


def _rejections(seed: int, **planted) -> tuple[float, float]:
    """Share of replicates rejected at 0.05 by the test, and by the plain chi-square on the same tables."""
    rng = np.random.default_rng(seed)
    test, plain = 0, 0
    for _ in range(REPLICATES):
        found = seat_interaction(*planted_study(rng, **planted), ["first", "second", "mixed"])
        test += found.p < 0.05
        plain += stats.chi2.sf(found.pearson, found.nominal_df) < 0.05
    return test / REPLICATES, plain / REPLICATES


def test_false_rate_under_h0_with_shared_deals_and_a_mixed_table():
    rate, _ = _rejections(1)
    assert abs(rate - 0.05) <= BAND, f"rejected {rate:.2%} of H0 studies"


def test_the_plain_chi_square_rejects_too_often_where_a_deals_seatings_move_together():
    """Without the strong strategy a mixed table's seatings of a deal share its luck: counted as
    independent games the plain test rejects a true H0 far beyond 5 %; the correction keeps it."""
    rate, plain = _rejections(2, strong=0.0, deal_sd=1.5, tie=0.0)
    assert abs(rate - 0.05) <= BAND, f"rejected {rate:.2%} of H0 studies"
    assert plain > 0.05 + BAND, f"the plain test rejected {plain:.2%}"


def test_a_planted_interaction_is_rejected_nearly_always():
    rng = np.random.default_rng(3)
    found = [seat_interaction(*planted_study(rng, deals=960, strong=0.2, second=BASE[::-1]),
                              ["first", "second", "mixed"]) for _ in range(100)]
    assert np.mean([f.p < 0.05 for f in found]) >= 0.95
    assert all(f.deviation_seat[1] in (0, 2) for f in found)  # the reversed population's outer seats
    assert np.median([abs(f.deviation_pp[1]) for f in found]) > 3


def test_independent_games_give_the_plain_chi_square():
    """One game per deal, no deal effects: the statistic is scipy's chi-square of homogeneity and the
    correction is about nothing (design effect 1, df the nominal ones)."""
    rng = np.random.default_rng(4)
    deals, seats = 5000, 4
    winners = rng.choice(seats, size=(deals, 3), p=[0.3, 0.25, 0.25, 0.2])
    wins = np.eye(seats)[winners]  # (D, 3, S)
    found = seat_interaction(wins, np.ones((deals, 3)), ["a", "b", "c"])
    assert found.pearson == pytest.approx(stats.chi2_contingency(wins.sum(axis=0))[0], rel=1e-10)
    assert found.nominal_df == 6 and found.df == pytest.approx(6, rel=0.05)
    assert found.design_effect == pytest.approx(1, abs=0.05)
    assert found.pooled == pytest.approx(wins.sum(axis=(0, 1)) / (3 * deals))


def test_too_few_deals_give_no_p_value_and_one_unwon_seat_is_left_out():
    rng = np.random.default_rng(5)
    wins = np.zeros((MIN_DEALS - 1, 2, 3))
    wins[:, :, :2] = np.eye(2)[rng.integers(0, 2, (MIN_DEALS - 1, 2))]  # seat 3 never wins
    found = seat_interaction(wins, np.ones((MIN_DEALS - 1, 2)), ["a", "b"])
    assert found.too_few and np.isnan(found.p) and found.nominal_df == 1


def _rows(wins: np.ndarray, games: np.ndarray, names: list[str]) -> pl.DataFrame:
    """Result rows of per-deal wins: each population's games of a deal, one row per seat, win shares
    spread over the games (the test reads only the deal's sums)."""
    out = []
    for d, p in zip(*np.nonzero(games), strict=True):
        n = int(games[d, p])
        for game in range(n):
            for seat in range(wins.shape[2]):
                out.append({"n_players": wins.shape[2], "start": "rulebook", "population": names[p], "deal": int(d),
                            "game_index": int(d) * n + game, "seat": seat, "win_share": wins[d, p, seat] / n})
    return pl.DataFrame(out)


def test_rows_read_in_slices_of_deals_give_the_same_test(monkeypatch):
    wins, games = planted_study(np.random.default_rng(6), deals=120, mixed_deals=60)
    names = ["first", "second", "mixed"]
    rows = _rows(wins, games, names)
    direct = seat_interaction(wins, games, names)
    whole = interaction_table(rows)
    monkeypatch.setattr(clustered, "_SLICE_ROWS", 400)
    sliced = interaction_table(rows)
    for table in (whole, sliced):
        assert list(table["population"]) == names
        assert table["statistic"].iloc[0] == pytest.approx(direct.statistic, rel=1e-9)
        assert table["p"].iloc[0] == pytest.approx(direct.p, rel=1e-9)
        assert list(table["deals"]) == [120, 120, 60]
    left = interaction_table(rows, exclude=[(3, "mixed")])
    assert list(left["population"]) == ["first", "second"] and left["populations"].iloc[0] == 2
    assert interaction_table(rows, exclude=[(3, "mixed"), (3, "second")]).empty  # one population: nothing to test


def test_the_sums_of_two_slices_of_deals_add_up():
    wins, games = planted_study(np.random.default_rng(7))
    whole, parts = deal_sums(wins, games), deal_sums(wins[:200], games[:200]) + deal_sums(wins[200:], games[200:])
    assert parts.clusters == whole.clusters and np.allclose(parts.cross, whole.cross)
    assert np.allclose(parts.mixed, whole.mixed) and np.allclose(parts.games2, whole.games2)


@pytest.mark.parametrize(("wins", "games", "names", "message"), [
    (np.ones((4, 2)), np.ones((4, 2)), ["a", "b"], r"must be \(deals, populations, seats\)"),
    (np.ones((4, 2, 3)) / 3, np.ones((4, 3)), ["a", "b"], r"must be \(deals, populations, seats\)"),
    (np.ones((4, 2, 1)), np.ones((4, 2)), ["a", "b"], "at least 2 seats"),
    (np.full((4, 2, 2), np.nan), np.ones((4, 2)), ["a", "b"], "finite"),
    (np.full((4, 2, 2), [-0.5, 1.5]), np.ones((4, 2)), ["a", "b"], "negative"),
    (np.ones((4, 2, 2)), np.ones((4, 2)), ["a", "b"], "one win"),
    (np.full((4, 1, 2), 0.5), np.ones((4, 1)), ["a"], "at least 2, not 1"),
    (np.full((4, 2, 2), 0.5), np.ones((4, 2)), ["a"], "1 population names for 2"),
    (np.full((4, 2, 2), [[0.5, 0.5], [0, 0]]), np.tile([1.0, 0.0], (4, 1)), ["a", "b"], "'b' played no games"),
    ([["x"]], [[1]], ["a", "b"], "must be numbers"),
])
def test_bad_input_is_a_one_line_error(wins, games, names, message):
    with pytest.raises(SeatInteractionError, match=message) as error:
        seat_interaction(wins, games, names)
    assert isinstance(error.value, BgsimError) and "\n" not in str(error.value)
