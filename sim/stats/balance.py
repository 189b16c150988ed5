"""Balance measures from played games: seat win rates and their spread, the first seat's rate,
score spread, game length and the matchup matrix between strategies, each re-computable under
another start vector (re-scoring, as the compensation solver does) and with bootstrap intervals
over deals. Pure numpy on the arrays of ``Outcomes``: no game, no registry.
"""

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Outcomes", "bootstrap", "deal_members", "matchup_matrix", "measure_value", "population", "shares_under"]

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


def measure_value(name: str, out: Outcomes, vector: np.ndarray | None = None, pairs=None, strategies=None):
    """The value of measure ``name`` (``experiments.balance_spec.MEASURES``) on ``out`` under start
    ``vector``: a float, or the (k, k) matrix of a matchup."""
    if name == "matchup":
        return matchup_matrix(out, shares_under(out, vector), pairs, strategies)
    rows = population(out)
    if name in out.declared:  # a measure the game declares: its mean per population game
        return float(out.declared[name][rows].mean())
    if name == "length":
        return float(out.length[rows].mean())
    if name == "score_spread":
        totals = out.base[rows] + (out.start if vector is None else np.asarray(vector, dtype=np.int64))
        return float((totals.max(axis=1) - totals.min(axis=1)).mean())
    rates = shares_under(out.take(rows), vector).mean(axis=0)
    if name == "seat_spread":
        return float(rates.max() - rates.min())
    if name == "first_seat":
        return float(rates[0])
    raise ValueError(f"no measure {name!r}")


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
