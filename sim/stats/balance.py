"""Balance measures from played games: seat imbalance, the first seat's rate, score spread, game
length, the matchup matrix between strategies and a game's own measures, each re-computable under
another start vector (re-scoring, as the compensation solver does). Pure numpy on the arrays of
``Outcomes``: no game, no registry.

Every measure is an estimate that is unbiased at its target, with its sampling variance clustered by
deal (a deal's games, population and matchup alike, share its chance) and a 95 % interval
(``measure_estimate``):

- ``seat_imbalance``: the seats' mean squared gap to the fair share less its sampling noise
  (``sim.stats.imbalance``): about 0 for a perfectly balanced design, where "best seat minus worst"
  read 1.6 pp on 4,000 deals of a fair game; its interval inverts a noncentral chi-square and
  starts at 0 when the design cannot be told from perfect balance;
- rates and means (``first_seat``, ``score_spread``, ``length``, declared measures, each cell of a
  ``matchup``): the mean with a t interval.

A search minimises losses that are unbiased at their target too (``measure_loss``): the squared
distance to a target less the estimate's variance (its expectation is the true squared distance),
the measure itself for "min", and for "rulebook" the relative excess over the rulebook's value, cut
at 0 and less what noise alone would add there.
"""

from dataclasses import dataclass, field

import numpy as np
from bgsim.sim.stats.imbalance import quadratic_distance
from scipy import stats

__all__ = ["Estimate", "Outcomes", "bootstrap", "clustered_mean", "deal_members", "difference_variance",
           "matchup_matrix", "measure_estimate", "measure_loss", "measure_value", "per_game", "population",
           "seat_covariance", "shares_under"]

POPULATION = -1  # ``Outcomes.pair`` of a population game; a matchup game holds its pair's index


@dataclass(frozen=True)
class Outcomes:
    """The finished games of one design at one player count.

    deal: (G,) int64 deal number (games of one deal share its chance); pair: (G,) int64 POPULATION or
    the index of the matchup pair (a, b) whose strategies alternate in the seats; rotation: (G,) int64
    0 or 1, which of the two sits in seat 0 (a at 0: rotation 0); seat_strategy: (G, P) int64 index
    of each seat's strategy in the spec's list; base: (G, P) int64 final score minus the start value
    it was played with; start: (P,) int64 that start vector; tiebreak: (G, P) int64 place in the
    tie-break order (1 wins a score tie); length: (G,) int64 decisions of the game; shared: the
    rules share a tied win (then the tie-break is not used); declared: the game's own measures
    (``sim.api.GameMeasures``), name -> (G,) float64.
    """

    deal: np.ndarray
    pair: np.ndarray
    rotation: np.ndarray
    seat_strategy: np.ndarray
    base: np.ndarray
    start: np.ndarray
    tiebreak: np.ndarray
    length: np.ndarray
    shared: bool = False
    declared: dict = field(default_factory=dict)  # name -> (G,) float64: the game's own measures per game

    def take(self, rows: np.ndarray) -> "Outcomes":
        """The games ``rows`` ((k,) int64 indices, repeats allowed: a bootstrap sample)."""
        return Outcomes(self.deal[rows], self.pair[rows], self.rotation[rows], self.seat_strategy[rows],
                        self.base[rows], self.start, self.tiebreak[rows], self.length[rows], self.shared,
                        {name: values[rows] for name, values in self.declared.items()})


def shares_under(out: Outcomes, vector: np.ndarray | None = None) -> np.ndarray:
    """(G, P) float64 each seat's share of each game's win under start ``vector`` ((P,), default:
    as played): the highest score wins, ties by tie-break place unless the rules share them."""
    vector = out.start if vector is None else np.asarray(vector, dtype=np.int64)
    totals = out.base + vector
    if out.shared:
        top = totals == totals.max(axis=1, keepdims=True)
        return top / top.sum(axis=1, keepdims=True)
    keys = totals * (totals.shape[1] + 1) - out.tiebreak
    shares = np.zeros(totals.shape)
    shares[np.arange(len(totals)), np.argmax(keys, axis=1)] = 1.0
    return shares


def population(out: Outcomes) -> np.ndarray:
    """(k,) int64 rows of the population games."""
    return np.flatnonzero(out.pair == POPULATION)


def matchup_matrix(out: Outcomes, shares: np.ndarray, pairs: list[tuple[int, int]],
                   strategies: list[int]) -> np.ndarray:
    """(k, k) float64 win rate of each strategy of ``strategies`` (indices into the spec's list)
    against each other: over the games of pair (a, b), both rotations of every deal, the mean of a's
    seats' summed win share; averaging the two rotations makes 0.5 the even value at any player
    count. Diagonal 0.5; NaN for a pair with no games."""
    k = len(strategies)
    matrix = np.full((k, k), np.nan)
    np.fill_diagonal(matrix, 0.5)
    for p, (a, b) in enumerate(pairs):
        rows = out.pair == p
        if not rows.any() or a not in strategies or b not in strategies:
            continue
        mine = (shares[rows] * (out.seat_strategy[rows] == a)).sum(axis=1).mean()
        i, j = strategies.index(a), strategies.index(b)
        matrix[i, j], matrix[j, i] = mine, 1 - mine
    return matrix


@dataclass(frozen=True)
class Estimate:
    """A measure on played games: ``value`` (a float, or a (k, k) matrix for a matchup), its sampling
    ``variance`` (same shape, clustered by deal), its 95 % interval ``low``/``high`` (same shape),
    and for seat imbalance the ``noise`` (what the plain mean squared gap reads at perfect balance)
    and ``at_target`` (the interval reaches 0: cannot be told from perfect balance)."""

    value: object
    variance: object
    low: object
    high: object
    noise: float = float("nan")
    at_target: bool = False


def clustered_mean(values: np.ndarray, deals: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Mean of ``values`` ((G,) or (G, K) float64, one row per game) and the covariance of that mean
    clustered by ``deals`` ((G,) int64): (mean (K,), covariance (K, K), deals). NaN covariance with
    fewer than two deals."""
    x = np.asarray(values, dtype=np.float64)
    x = x[:, None] if x.ndim == 1 else x
    mean = x.mean(axis=0)
    keys, inverse = np.unique(deals, return_inverse=True)
    sums = np.zeros((len(keys), x.shape[1]))
    np.add.at(sums, inverse, x - mean)
    g = len(keys)
    cov = sums.T @ sums * (g / (g - 1)) / len(x) ** 2 if g > 1 else np.full((x.shape[1],) * 2, np.nan)
    return mean, cov, g


def _t_interval(mean, variance, deals: int) -> tuple:
    half = stats.t.ppf(0.975, max(deals - 1, 1)) * np.sqrt(np.asarray(variance, dtype=np.float64))
    return mean - half, mean + half


def seat_covariance(out: Outcomes, vector: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, int]:
    """The population games' seat win rates under start ``vector`` ((P,) float64), their covariance
    clustered by deal ((P, P)) and the deals."""
    rows = population(out)
    return clustered_mean(shares_under(out.take(rows), vector), out.deal[rows])


def measure_estimate(name: str, out: Outcomes, vector: np.ndarray | None = None, pairs=None,
                     strategies=None) -> Estimate:
    """Measure ``name`` (``experiments.balance_spec.MEASURES``, or one the game declares) on ``out``
    under start ``vector``, with its variance and interval (module docstring)."""
    if name == "matchup":
        return _matchup_estimate(out, shares_under(out, vector), pairs, strategies)
    rows = population(out)
    deals = out.deal[rows]
    if name == "seat_imbalance":
        rates, cov, _ = seat_covariance(out, vector)
        found = quadratic_distance(rates, np.full(len(rates), 1.0 / len(rates)), cov)
        # the variance of the unbiased estimate (normal approximation), for what weighs it against others
        gap = rates - 1.0 / len(rates)
        variance = (4 * gap @ cov @ gap + 2 * np.sum(cov * cov)) / len(rates) ** 2
        return Estimate(found.value, float(variance), found.low, found.high, found.noise, found.at_target)
    values = per_game(name, out, vector)
    if values is None:
        raise ValueError(f"no measure {name!r}")
    mean, cov, g = clustered_mean(values, deals)
    low, high = _t_interval(mean[0], cov[0, 0], g)
    return Estimate(float(mean[0]), float(cov[0, 0]), float(low), float(high))


def _matchup_estimate(out: Outcomes, shares: np.ndarray, pairs, strategies) -> Estimate:
    """The matchup matrix (``matchup_matrix``) with each cell's variance clustered by deal."""
    value = matchup_matrix(out, shares, pairs, strategies)
    k = len(strategies)
    variance = np.zeros((k, k))
    low, high = value.copy(), value.copy()
    for p, (a, b) in enumerate(pairs):
        rows = out.pair == p
        if not rows.any() or a not in strategies or b not in strategies:
            continue
        mine = (shares[rows] * (out.seat_strategy[rows] == a)).sum(axis=1)
        mean, cov, g = clustered_mean(mine, out.deal[rows])
        i, j = strategies.index(a), strategies.index(b)
        variance[i, j] = variance[j, i] = cov[0, 0]
        low[i, j], high[i, j] = _t_interval(mean[0], cov[0, 0], g)
        low[j, i], high[j, i] = 1 - high[i, j], 1 - low[i, j]
    variance[np.isnan(value)] = np.nan
    return Estimate(value, variance, low, high)


def per_game(name: str, out: Outcomes, vector: np.ndarray | None = None) -> np.ndarray | None:
    """(G',) float64 a mean-type measure's value in each population game (in deal order), None for a
    measure that is not a mean over games (seat imbalance, matchup)."""
    rows = population(out)
    if name in out.declared:
        return out.declared[name][rows].astype(np.float64)
    if name == "length":
        return out.length[rows].astype(np.float64)
    if name == "score_spread":
        totals = out.base[rows] + (out.start if vector is None else np.asarray(vector, dtype=np.int64))
        return (totals.max(axis=1) - totals.min(axis=1)).astype(np.float64)
    if name == "first_seat":
        return shares_under(out.take(rows), vector)[:, 0]
    return None


def difference_variance(name: str, out: Outcomes, rulebook: Outcomes, vector=None,
                        rulebook_vector=None) -> float | None:
    """The variance of a mean-type measure's difference between two designs played on the same deals
    (clustered by deal), or None where it is not a mean over games or the deals differ."""
    mine, theirs = per_game(name, out, vector), per_game(name, rulebook, rulebook_vector)
    rows, other = population(out), population(rulebook)
    if mine is None or theirs is None or not np.array_equal(out.deal[rows], rulebook.deal[other]):
        return None
    return float(clustered_mean(mine - theirs, out.deal[rows])[1][0, 0])


def measure_value(name: str, out: Outcomes, vector: np.ndarray | None = None, pairs=None, strategies=None):
    """The value of measure ``name`` on ``out`` under start ``vector``: a float, or the (k, k) matrix
    of a matchup (``measure_estimate`` without the variance)."""
    return measure_estimate(name, out, vector, pairs, strategies).value


_HINGE_NOISE = 1 / np.sqrt(2 * np.pi)  # E[max(0, X)] / sd for X ~ N(0, sd^2): what noise alone adds at a cut at 0


def measure_loss(target, estimate: Estimate, n: int, rulebook: Estimate | None = None,
                 difference_variance: float | None = None) -> float:
    """How far ``estimate`` (at ``n`` players) is from ``target``, unbiased at the target: the estimate
    itself for "min" (a measure that is already a squared distance, ``seat_imbalance``, takes "min"
    for a target of 0); the squared distance less the estimate's variance for a number, "fair" (1/n)
    or a matrix (the mean over its cells off the diagonal); for "rulebook" the relative excess over
    the rulebook's estimate, cut at 0, less what noise alone would add there: with the variance of the
    difference on the same deals (``difference_variance``) where known, else both variances."""
    value = estimate.value
    if isinstance(target, tuple):
        matrix, variance = np.asarray(value, dtype=np.float64), np.asarray(estimate.variance, dtype=np.float64)
        off = ~np.eye(len(matrix), dtype=bool)
        return float(np.nanmean(((matrix - np.asarray(target)) ** 2 - variance)[off]))
    if target == "min":
        return float(value)
    if target == "rulebook":  # (the rulebook's own design, measured for the reference: no excess)
        base = estimate if rulebook is None else rulebook
        scale = max(abs(float(base.value)), 1e-9)
        excess = (float(value) - float(base.value)) / scale
        if rulebook is None:
            both = 0.0
        elif difference_variance is not None:
            both = difference_variance
        else:
            both = float(estimate.variance) + float(rulebook.variance)
        return max(0.0, excess) - _HINGE_NOISE * np.sqrt(max(both, 0.0)) / scale
    goal = 1.0 / n if target == "fair" else float(target)
    return float((float(value) - goal) ** 2 - float(estimate.variance))


def deal_members(out: Outcomes) -> list[np.ndarray]:
    """The rows of each deal of ``out``, in deal order (every game of a deal goes together)."""
    deals, inverse = np.unique(out.deal, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(len(deals) + 1))
    return [order[bounds[d]: bounds[d + 1]] for d in range(len(deals))]


def bootstrap(function, out: Outcomes, replicates: int = 200, seed: int = 0) -> np.ndarray:
    """``function(outcomes)`` on ``replicates`` bootstrap samples of the deals (every game of a deal
    goes together): (replicates, ...) float64, for percentile intervals."""
    members = deal_members(out)
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(replicates):
        picked = rng.integers(0, len(members), len(members))
        values.append(function(out.take(np.concatenate([members[d] for d in picked]))))
    return np.array(values, dtype=np.float64)
