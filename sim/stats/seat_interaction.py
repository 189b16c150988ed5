"""Does the winning seat depend on who plays? A population-by-seat interaction test.

A seat-order study plays several *populations* (self-play of one strategy, or a mixed table) under
one start vector. H0: the distribution of the winning seat is the same in every population. The
data are a populations x seats table of win counts, each game one win (a shared win split equally
among its k winners, so counts may be fractional).

**The statistic** is Pearson's chi-square of homogeneity on that table,

    X2 = sum_p N_p sum_s (r_ps - r_s)^2 / r_s

with N_p the population's games, r_ps its seat win rates and r_s the pooled ones (games-weighted).
Pearson rather than the likelihood-ratio G: both have the same asymptotics, but X2 is exactly a
quadratic form in the seat rates, which is what the correction below needs (the correction of G
goes through the same quadratic approximation), it takes fractional counts and empty cells as they
are, and it is the form whose design-based correction is the standard one (Rao and Scott 1981,
1984). A seat no population won is left out (it adds nothing); nominal df = (P - 1)(S - 1).

**Why not the plain chi-square.** Its chi-square law assumes every game independent. A mixed table
plays each deal in every seating, and those games are not independent: a deal that favours a seat
favours it in every seating (the counts spread more than multinomial), while a strong strategy
that rotates through the seats wins each seat about once per deal (they spread less). And the
populations of one study are played on the same deals (one seed): deal ``d`` of every population
is the same deal, so the populations' tables are correlated too.

**The correction (second-order Rao-Scott).** Under H0, X2 is asymptotically sum_k lambda_k chi2_1,
the lambda_k the eigenvalues of B = Omega^(1/2) A Omega^(1/2), where A is the covariance of the
populations' deviations from the pooled profile, Omega = diag(N_p / r_s). A is computed from the
covariance of all populations' seat rates *clustered by deal across populations*: the deal is the
cluster, whichever populations played it and in however many seatings (``sim.stats.clustered``'s
variance, with the populations' residual sums of a deal stacked into one vector). So the
within-deal dependence of a mixed table and the dependence between populations sharing a deal both
enter A, whatever their sign. X2 is then read as c * chi2_nu with c = tr(B^2) / tr(B) and
nu = tr(B)^2 / tr(B^2) (Satterthwaite: the first two moments match, as ``sim.stats.imbalance``
reads its squared distance); the statistic reported is X2 / c on nu (effective) df. For
independent games B is a projection of rank (P - 1)(S - 1): c = 1, nu = df, the plain test.

Shared deals make the test more powerful, not less valid: a deal's luck that moves every
population's seats alike cancels from their differences, and A (so B, so c) is smaller by as
much. Counted as independent (no correction), that positive dependence between populations, and
the negative dependence of rotating seatings, only make the plain test conservative; the positive
dependence of a mixed table's seatings of one deal makes it reject too often, the case the
correction exists for. On planted studies (tests/stats/test_seat_interaction.py: three populations
on shared deals, one playing each deal in 6 seatings, 2,000 replicates each) the corrected test
rejected a true H0 in 5.4 % and 5.1 % of them at the 5 % level; the plain test in 2.9 % (a strong
strategy rotating through the seats) and 11.8 % (a deal's luck moving its seatings together).

No p-value below ``MIN_DEALS`` deals in a population: the covariance behind c and nu is estimated
from the deals, and the lab gives no verdict on fewer (``sim.stats.equivalence.MIN_GAMES``).

The sums over deals (``DealSums``) add up, so rows can be read in slices of whole deals and memory
follows the table, not the number of games (``interaction_table``).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.errors import BgsimError
from bgsim.sim.stats.clustered import cluster_keys, deal_slices
from bgsim.sim.stats.equivalence import MIN_GAMES
from bgsim.sim.stats.lazy import collect, column_names, lazy
from bgsim.sim.stats.wins import win_column
from scipy import stats
from statsmodels.stats.multitest import multipletests

__all__ = ["MIN_DEALS", "DealSums", "Interaction", "SeatInteractionError", "deal_sums", "interaction_table",
           "interaction_test", "seat_interaction"]

MIN_DEALS = MIN_GAMES  # fewest deals per population a p-value is given on


class SeatInteractionError(BgsimError):
    """Win counts the interaction test cannot read (shapes, negative or missing values, too few populations)."""


@dataclass(frozen=True)
class DealSums:
    """Sums over deals that the test needs, for P populations and S seats; two of them add up (slices
    of whole deals). ``w_d`` is a deal's (P * S,) win shares flattened population by population,
    ``n_d`` its (P,) games.

    wins: (P, S) float64 win shares per population and seat; games: (P,) float64 games;
    deals: (P,) int64 deals each population played; clusters: deals played by any population;
    cross: (P * S, P * S) float64 sum_d w_d w_d'; mixed: (P, P * S) float64 sum_d n_d w_d';
    games2: (P, P) float64 sum_d n_d n_d'."""

    wins: np.ndarray
    games: np.ndarray
    deals: np.ndarray
    clusters: int
    cross: np.ndarray
    mixed: np.ndarray
    games2: np.ndarray

    def __add__(self, other: "DealSums") -> "DealSums":
        if self.wins.shape != other.wins.shape:
            raise SeatInteractionError(f"cannot add sums of {self.wins.shape} and {other.wins.shape} "
                                       "populations x seats")
        return DealSums(self.wins + other.wins, self.games + other.games, self.deals + other.deals,
                        self.clusters + other.clusters, self.cross + other.cross, self.mixed + other.mixed,
                        self.games2 + other.games2)


def deal_sums(wins, games) -> DealSums:
    """The sums of ``wins`` (D, P, S) float64, each deal's win shares per population and seat (a
    game's shares add up to 1), and ``games`` (D, P) float64 (or int), each deal's games per
    population (0 where a population did not play the deal). Each deal is counted once, however
    many populations and seatings played it."""
    w, n = _checked(wins, games)
    flat = w.reshape(len(w), -1)  # (D, P * S)
    return DealSums(wins=w.sum(axis=0), games=n.sum(axis=0), deals=(n > 0).sum(axis=0).astype(np.int64),
                    clusters=int((n > 0).any(axis=1).sum()), cross=flat.T @ flat, mixed=n.T @ flat, games2=n.T @ n)


def _checked(wins, games) -> tuple[np.ndarray, np.ndarray]:
    try:
        w, n = np.asarray(wins, dtype=np.float64), np.asarray(games, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise SeatInteractionError(f"win counts must be numbers: {error}") from None
    if w.ndim != 3 or n.shape != w.shape[:2]:
        raise SeatInteractionError(f"wins must be (deals, populations, seats) and games (deals, populations); got "
                                   f"{w.shape} and {n.shape}")
    if w.shape[2] < 2:
        raise SeatInteractionError(f"a seat profile needs at least 2 seats, not {w.shape[2]}")
    if not (np.isfinite(w).all() and np.isfinite(n).all()):
        raise SeatInteractionError("wins and games must be finite numbers (no NaN or infinity)")
    if (w < 0).any() or (n < 0).any():
        raise SeatInteractionError("wins and games must not be negative")
    if not np.allclose(w.sum(axis=2), n, rtol=1e-9, atol=1e-6):
        raise SeatInteractionError("each game must have one win: a deal's win shares over the seats must add up to "
                                   "its games")
    return w, n


@dataclass(frozen=True)
class Interaction:
    """The test of one (player count, start vector).

    statistic: Pearson X2 / c (Rao-Scott), on ``df`` (nu, effective, may be fractional) degrees of
    freedom, with its ``p``; pearson: the plain X2, on ``nominal_df`` = (P - 1)(S - 1);
    design_effect: tr(B) / nominal_df, how much the games' dependence scales the plain statistic on
    average (1 for independent games; below 1 where a deal's seatings balance out); ``p`` is NaN
    where a population played fewer than ``MIN_DEALS`` deals (``too_few``) or nothing varies.
    rates: (P, S) float64 seat win rates; pooled: (S,) float64; games: (P,) float64; deals: (P,)
    int64; deviation_seat: (P,) int64 the seat furthest from the pooled profile (0-based);
    deviation_pp: (P,) float64 its rate minus the pooled one, in percentage points."""

    populations: tuple[str, ...]
    statistic: float
    df: float
    p: float
    pearson: float
    nominal_df: int
    design_effect: float
    rates: np.ndarray
    pooled: np.ndarray
    games: np.ndarray
    deals: np.ndarray
    deviation_seat: np.ndarray
    deviation_pp: np.ndarray
    too_few: bool


def seat_interaction(wins, games, populations) -> Interaction:
    """The test on per-deal counts: ``wins`` (D, P, S) float64 and ``games`` (D, P) as ``deal_sums``
    takes them; ``populations`` the P names."""
    return interaction_test(deal_sums(wins, games), populations)


def interaction_test(sums: DealSums, populations) -> Interaction:
    """The population-by-seat interaction test from the sums over deals (module docstring)."""
    names = tuple(str(p) for p in populations)
    n_pop, n_seats = sums.wins.shape
    if len(names) != n_pop:
        raise SeatInteractionError(f"{len(names)} population names for {n_pop} populations")
    if n_pop < 2:
        raise SeatInteractionError(f"the test compares populations: it needs at least 2, not {n_pop}")
    empty = [name for name, g in zip(names, sums.games, strict=True) if g <= 0]
    if empty:
        raise SeatInteractionError(f"population {empty[0]!r} played no games")
    rates = sums.wins / sums.games[:, None]
    pooled = sums.wins.sum(axis=0) / sums.games.sum()
    deviation = rates - pooled
    seat = np.argmax(np.abs(deviation), axis=1)
    common = dict(populations=names, rates=rates, pooled=pooled, games=sums.games, deals=sums.deals,
                  deviation_seat=seat.astype(np.int64), deviation_pp=100 * deviation[np.arange(n_pop), seat],
                  too_few=bool((sums.deals < MIN_DEALS).any()))
    won = pooled > 0  # a seat no population won adds nothing
    nominal_df = (n_pop - 1) * (int(won.sum()) - 1)
    if nominal_df == 0:  # one seat won every game of every population: the profiles are the same
        return Interaction(statistic=0.0, df=0.0, p=1.0, pearson=0.0, nominal_df=0, design_effect=float("nan"),
                           **common)
    omega = np.outer(sums.games, 1 / np.where(won, pooled, 1.0))[:, won].ravel()  # (P * S',)
    pearson = float(omega @ (deviation[:, won].ravel() ** 2))
    keep = np.tile(won, n_pop)
    a = _deviation_covariance(sums, rates)[np.ix_(keep, keep)]
    b = np.sqrt(omega)[:, None] * a * np.sqrt(omega)[None, :]
    t1, t2 = float(np.trace(b)), float(np.sum(b * b))
    if not (np.isfinite(t1) and t1 > 1e-12 and t2 > 0):  # nothing varies from deal to deal
        p = 1.0 if pearson < 1e-12 else float("nan")
        return Interaction(statistic=pearson, df=float(nominal_df), p=p, pearson=pearson, nominal_df=nominal_df,
                           design_effect=0.0, **common)
    scale, df = t2 / t1, t1 * t1 / t2
    p = float("nan") if common["too_few"] else float(stats.chi2.sf(pearson / scale, df))
    return Interaction(statistic=pearson / scale, df=df, p=p, pearson=pearson, nominal_df=nominal_df,
                       design_effect=t1 / nominal_df, **common)


def _deviation_covariance(sums: DealSums, rates: np.ndarray) -> np.ndarray:
    """(P * S, P * S) covariance of the populations' deviations from the pooled profile, clustered by
    deal across populations: V = g / (g - 1) * sum_d r_d r_d' / (N N'), r_d = w_d - n_d (x) rates,
    expanded into the sums kept; then the deviations' linear map (I - 1 w') (x) I_S applied."""
    n_pop, n_seats = rates.shape
    pi = rates.ravel()
    expand = np.repeat(np.eye(n_pop), n_seats, axis=0)  # (P * S, P): a population's games to its seats
    pe = pi[:, None] * expand  # (P * S, P): n_d -> n_d (x) rates
    residual = sums.cross - pe @ sums.mixed - sums.mixed.T @ pe.T + pe @ sums.games2 @ pe.T
    g = sums.clusters
    per = np.repeat(sums.games, n_seats)
    v = residual / np.outer(per, per) * (g / (g - 1) if g > 1 else np.nan)
    weights = sums.games / sums.games.sum()
    centre = np.kron(np.eye(n_pop) - np.outer(np.ones(n_pop), weights), np.eye(n_seats))
    return centre @ v @ centre.T


# --- from result rows


def interaction_table(rows, exclude=(), alpha: float = 0.05) -> pd.DataFrame:
    """One row per (n_players, start, population): the test of each (player count, start vector) that
    has at least 2 populations, on the rows' win shares (``win_share``, else ``won``), clustered by
    deal (``cluster_keys``). ``exclude``: (n_players, population) pairs left out (a one-sided table).

    Columns: n_players, start, population, games, deals, deviation_seat (0-based), deviation_pp (its
    rate minus the pooled one), then per test: populations (how many), statistic, df, p, q
    (Benjamini-Hochberg over every test of the table), pearson, nominal_df, design_effect, too_few,
    differs (q < ``alpha``)."""
    frame = _labelled(lazy(rows))
    left_out = [(pl.col("n_players") == int(n)) & (pl.col("population") == str(p)) for n, p in exclude]
    out = frame.filter(~pl.any_horizontal(left_out)) if left_out else frame
    order = collect(out.select("n_players", "start", "population").unique(maintain_order=True))
    groups: dict[tuple, list[str]] = {}
    for n, start, pop in order.iter_rows():
        groups.setdefault((n, start), []).append(pop)
    groups = {key: pops for key, pops in sorted(groups.items(), key=lambda item: item[0][0]) if len(pops) >= 2}
    found = _sums(out, groups)
    tests = {key: interaction_test(found[key], pops) for key, pops in groups.items() if key in found}
    return _table(tests, alpha)


def _labelled(frame: pl.LazyFrame) -> pl.LazyFrame:
    present = column_names(frame)
    return frame.with_columns(pl.lit("all").alias(c) for c in ("population", "start") if c not in present)


def _sums(frame: pl.LazyFrame, groups: dict[tuple, list[str]]) -> dict[tuple, DealSums]:
    """Per (n_players, start) of ``groups``: the ``DealSums`` of its populations, read a slice of whole
    deals at a time."""
    win = win_column(column_names(frame))
    deal = [c for c in cluster_keys(frame) if c != "n_players"]
    seats = int(collect(frame.select(pl.col("seat").max())).item()) + 1
    totals: dict[tuple, DealSums] = {}
    for cut in deal_slices(frame):
        part = collect(frame.filter(cut).group_by("n_players", "start", "population", *deal, "seat")
                       .agg(win.sum().alias("wins"), pl.len().cast(pl.Float64).alias("games")))
        for (n, start), per in part.partition_by("n_players", "start", as_dict=True).items():
            if (n, start) not in groups:
                continue
            sums = deal_sums(*_deal_arrays(per, deal, groups[(n, start)], seats))
            totals[(n, start)] = totals[(n, start)] + sums if (n, start) in totals else sums
    return totals


def _deal_arrays(per: pl.DataFrame, deal: list[str], populations: list[str], seats: int) -> tuple[np.ndarray, ...]:
    """(D, P, S) win shares and (D, P) games of one (player count, start vector) from rows summed per
    population, deal and seat (a seat's rows of a deal are that deal's games)."""
    per = per.filter(pl.col("population").is_in(populations))
    d = per.select(deal).to_pandas().groupby(deal, sort=False).ngroup().to_numpy()
    p = per["population"].replace_strict(populations, list(range(len(populations))), return_dtype=pl.Int64).to_numpy()
    s = per["seat"].to_numpy()
    wins = np.zeros((int(d.max()) + 1 if len(d) else 0, len(populations), seats))
    games = np.zeros(wins.shape[:2])
    np.add.at(wins, (d, p, s), per["wins"].to_numpy())
    games[d[s == 0], p[s == 0]] = per["games"].to_numpy()[s == 0]  # every game has a seat 0
    return wins, games


def _table(tests: dict[tuple, Interaction], alpha: float) -> pd.DataFrame:
    columns = ["n_players", "start", "population", "games", "deals", "deviation_seat", "deviation_pp", "populations",
               "statistic", "df", "p", "q", "pearson", "nominal_df", "design_effect", "too_few", "differs"]
    rows = []
    for (n, start), t in tests.items():
        for i, pop in enumerate(t.populations):
            rows.append(dict(n_players=n, start=start, population=pop, games=t.games[i], deals=int(t.deals[i]),
                             deviation_seat=int(t.deviation_seat[i]), deviation_pp=float(t.deviation_pp[i]),
                             populations=len(t.populations), statistic=t.statistic, df=t.df, p=t.p,
                             pearson=t.pearson, nominal_df=t.nominal_df, design_effect=t.design_effect,
                             too_few=t.too_few))
    table = pd.DataFrame(rows, columns=[c for c in columns if c not in ("q", "differs")])
    table["q"] = _bh(table)
    table["differs"] = table["q"] < alpha
    return table[columns]


def _bh(table: pd.DataFrame) -> pd.Series:
    """Benjamini-Hochberg q of each test (one per (player count, start vector)), repeated on its rows."""
    tests = table.drop_duplicates(["n_players", "start"])
    tests = tests[tests["p"].notna()]
    q = pd.Series(np.nan, index=table.index)
    if tests.empty:
        return q
    found = dict(zip(zip(tests["n_players"], tests["start"], strict=True),
                     multipletests(tests["p"], method="fdr_bh")[1], strict=True))
    return pd.Series([found.get(key, np.nan) for key in zip(table["n_players"], table["start"], strict=True)],
                     index=table.index)
