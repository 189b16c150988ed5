"""Compensation solver: the start vector that makes the seats' win rates as equal as possible.

A game's compensation parameter (``sim.profile.Compensation``) gives each seat a starting value
that only adds to its final score, and no strategy of the weight family reads score totals, so a
stored game can be re-scored under any start vector: subtract the stored start values, add the
candidate's, and rank again by score with the stored tie-break place. The solved vector is then
confirmed by a fresh simulation (experiments/seat_order.py), because a strategy that does look at
the score (the search player) may play differently.

Objective: the sum over seats of (win rate - 1/n)^2. Seat 1 (the start player) keeps its fixed value
(``first``: the profile's ``fixed_first``, by default the value it was played with); the other
seats range over ``low .. high``. Search: coordinate descent (each seat in turn scanned over its
whole range) from the rulebook and from the equal vector, repeated until nothing improves; among
equal objectives the vector closest to the rulebook wins. With 2 players that is an exhaustive
scan. The interval comes from a bootstrap over deals (every seating of a deal goes together),
each replicate solved from the point solution.
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
import polars as pl
from bgsim.sim.stats.intervals import wilson
from bgsim.sim.stats.lazy import collect, column_names, lazy

__all__ = ["GameScores", "Solution", "game_scores", "imbalance", "solve", "solve_with_bootstrap", "win_rates"]


BATCH_GAMES = 1 << 17  # games per pass of the re-scoring: bounds its (batch, P) int64 temporaries


@dataclass(frozen=True)
class GameScores:
    """Stored games of one player count, ready for re-scoring.

    base: (G, P) int32 final score minus start value; tiebreak: (G, P) int32 place in the game's
    tie-break order (1 wins a score tie); deal: (G,) int64 deal number (the bootstrap's unit); start: (P,) int64 the
    start vector the games were played with. (int64 base and tiebreak work too; they are re-scored in int64.)
    shared: the rules share a tied win (the profile's ``shared_wins``): every seat with the highest
    score gets 1/k of the game, and the tie-break place is not used.
    """

    base: np.ndarray
    tiebreak: np.ndarray
    deal: np.ndarray
    start: np.ndarray
    shared: bool = False

    @property
    def n_players(self) -> int:
        return self.base.shape[1]


@dataclass(frozen=True)
class Solution:
    vector: tuple[int, ...]
    rates: np.ndarray  # (P,) float64 win rates under ``vector`` on the stored games
    objective: float


def game_scores(rows, start_column: str, score_column: str, tiebreak_column: str,
                shared: bool = False) -> GameScores:
    """GameScores from the rows of one (n_players, population, start) group of a run: a polars LazyFrame
    (only the needed columns are read, streamed), a polars or a pandas DataFrame. The columns are the profile's
    (``compensation.column``, ``score_column``, ``compensation.tiebreak_column``); ``shared``: the
    profile's ``shared_wins`` is set."""
    frame = _sorted_rows(rows, start_column, score_column, tiebreak_column)
    n = int(frame["n_players"][0])
    if frame["n_players"].n_unique() != 1 or frame.height % n:
        raise ValueError("game_scores needs the complete games of one player count")
    start = frame["start"].to_numpy().reshape(-1, n)
    if not (start == start[0]).all():
        raise ValueError("game_scores needs games played with one start vector")
    return GameScores(base=frame["base"].to_numpy().astype(np.int32, copy=False).reshape(-1, n),
                      tiebreak=frame["tiebreak"].to_numpy().astype(np.int32, copy=False).reshape(-1, n),
                      deal=frame["deal"].gather_every(n).to_numpy().astype(np.int64, copy=False),
                      start=start[0].astype(np.int64), shared=shared)


def _sorted_rows(rows, start_column: str, score_column: str, tiebreak_column: str) -> pl.DataFrame:
    """(G * P) rows in (run, game, seat) order with n_players, deal, start, base (score - start, Int32) and
    tiebreak (Int32): only the needed columns are read, and the sort keys leave the result."""
    frame = lazy(rows)
    keys = ["run_id", "game_index", "seat"] if "run_id" in column_names(frame) else ["game_index", "seat"]
    start = pl.col(start_column)
    # Strict casts: a score outside int32 fails here instead of wrapping round.
    return collect(frame.select(*keys, "n_players", "deal", start_column, score_column, tiebreak_column).sort(keys)
                   .select("n_players", "deal", start.alias("start"),
                           (pl.col(score_column).cast(pl.Int64) - start.cast(pl.Int64)).cast(pl.Int32).alias("base"),
                           pl.col(tiebreak_column).cast(pl.Int32).alias("tiebreak")))


def _batches(games: int, batch: int | None) -> list[slice]:
    """Slices of at most ``batch`` (default ``BATCH_GAMES``) consecutive games out of ``games``."""
    step = batch or BATCH_GAMES
    return [slice(i, i + step) for i in range(0, games, step)]


def _keys(scores: GameScores, games: slice, vector: np.ndarray) -> np.ndarray:
    """(B, P) int64 ranking keys of a batch of games under start ``vector`` (P,) int64: higher ranks first."""
    return (scores.base[games].astype(np.int64) + vector) * (scores.n_players + 1) - scores.tiebreak[games]


def winners(scores: GameScores, vector, batch: int | None = None) -> np.ndarray:
    """(G,) int64 winning seat of every game under start ``vector`` (P,): highest score, then tie-break place."""
    vector = np.asarray(vector, dtype=np.int64)
    found = np.empty(len(scores.base), dtype=np.int64)
    for games in _batches(len(scores.base), batch):
        found[games] = np.argmax(_keys(scores, games, vector), axis=1)
    return found


def win_rates(scores: GameScores, vector, weights: np.ndarray | None = None, batch: int | None = None) -> np.ndarray:
    """(P,) float64 seat win rates under ``vector``; ``weights`` (G,) float64 weights games (bootstrap). The
    per-batch counts add up exactly where they are whole numbers (the bootstrap's weights are counts);
    shared wins add their shares."""
    vector = np.asarray(vector, dtype=np.int64)
    counts = np.zeros(scores.n_players)
    for games in _batches(len(scores.base), batch):
        w = None if weights is None else weights[games]
        if scores.shared:
            shares = _shares(scores.base[games].astype(np.int64) + vector)
            counts += shares.sum(axis=0) if w is None else w @ shares
        else:
            counts += np.bincount(np.argmax(_keys(scores, games, vector), axis=1), weights=w,
                                  minlength=scores.n_players)
    return counts / (len(scores.base) if weights is None else weights.sum())


def _shares(totals: np.ndarray) -> np.ndarray:
    """(B, P) float64 share of each game's win: 1/k to each of the k seats with the highest of ``totals`` (B, P)."""
    top = totals == totals.max(axis=1, keepdims=True)
    return top / top.sum(axis=1, keepdims=True)


def imbalance(rates: np.ndarray) -> float:
    """Sum of squared deviations of the (P,) win rates from the fair share 1/P."""
    return float(((rates - 1.0 / len(rates)) ** 2).sum())


def solve(scores: GameScores, low: int = 0, high: int = 30, weights: np.ndarray | None = None,
          starts: list | None = None, first: int | None = None, batch: int | None = None) -> Solution:
    """The most balanced integer start vector with seat 1 at ``first`` (default: the value it was
    played with) and the others in ``low .. high``; ``batch`` games per pass (default ``BATCH_GAMES``)."""
    rulebook = scores.start
    first = int(rulebook[0]) if first is None else int(first)
    if starts is None:
        starts = [rulebook, np.full(scores.n_players, first)]
    best = None
    for start in starts:
        found = _descend(scores, np.clip(np.asarray(start, dtype=np.int64), low, high), low, high, weights, rulebook,
                         first, batch)
        if best is None or _key(found, rulebook) < _key(best, rulebook):
            best = found
    return best


def _key(solution: Solution, rulebook: np.ndarray) -> tuple:
    return round(solution.objective, 12), int(np.abs(np.array(solution.vector) - rulebook).sum()), solution.vector


def _descend(scores, vector, low, high, weights, rulebook, first: int, batch: int | None) -> Solution:
    vector = vector.copy()
    vector[0] = first
    rates = win_rates(scores, vector, weights, batch)
    current = Solution(tuple(int(v) for v in vector), rates, imbalance(rates))
    values = np.arange(low, high + 1)
    improved = True
    while improved:
        improved = False
        for seat in range(1, scores.n_players):
            all_rates = _scan(scores, np.array(current.vector), seat, low, high, weights, batch)  # (R, P)
            for value, rates in zip(values, all_rates, strict=True):
                trial = list(current.vector)
                trial[seat] = int(value)
                candidate = Solution(tuple(trial), rates, imbalance(rates))
                if _key(candidate, rulebook) < _key(current, rulebook):
                    current, improved = candidate, True
    return current


def _scan(scores: GameScores, vector: np.ndarray, seat: int, low: int, high: int,
          weights: np.ndarray | None, batch: int | None = None) -> np.ndarray:
    """(R, P) float64 win rates for every value ``low .. high`` of ``seat``'s start value, the other
    seats held at ``vector`` (P,) int64: one pass over the games instead of R re-scorings.

    A game goes to ``seat`` from a threshold value on; below it, to the best of the others. ``found``
    (P, R + 1) counts the games by that other and the threshold's bin, added up batch by batch.
    """
    if scores.shared:
        return _scan_shared(scores, vector, seat, low, high, weights, batch)
    n, r = scores.n_players, high - low + 1
    found = np.zeros((n, r + 1))
    for games in _batches(len(scores.base), batch):
        bins, other_winner = _thresholds(scores, games, vector, seat, low, r)
        found += np.bincount(other_winner * (r + 1) + bins, weights=None if weights is None else weights[games],
                             minlength=n * (r + 1)).reshape(n, r + 1)
    wins = found.sum(axis=1) - np.cumsum(found[:, :r], axis=1).T  # (R, P): the others keep the games not yet lost
    wins[:, seat] = np.cumsum(found.sum(axis=0)[:r])
    return wins / (len(scores.base) if weights is None else weights.sum())


def _thresholds(scores: GameScores, games: slice, vector: np.ndarray, seat: int, low: int,
                r: int) -> tuple[np.ndarray, np.ndarray]:
    """(B,) int64 bin of ``seat``'s threshold value (r = never within ``low .. low + r - 1``) and (B,) int64 best
    other seat, for a batch of games."""
    mult = scores.n_players + 1
    key = _keys(scores, games, vector)
    key[:, seat] = np.iinfo(np.int64).min
    other_best, other_winner = key.max(axis=1), key.argmax(axis=1)
    need = other_best + scores.tiebreak[games, seat] - scores.base[games, seat].astype(np.int64) * mult
    threshold = np.floor_divide(need, mult) + 1  # smallest start value with which ``seat`` wins
    return np.clip(threshold - low, 0, r), other_winner


def _scan_shared(scores: GameScores, vector: np.ndarray, seat: int, low: int, high: int,
                 weights: np.ndarray | None, batch: int | None = None) -> np.ndarray:
    """``_scan`` where ties share the win: at its threshold value ``seat`` ties the best of the others
    and shares the game with them; below they share it among themselves, above it is ``seat``'s.

    Per game, ``bin`` = threshold - low + 1 clipped to 0 .. r + 1 (0: ``seat`` always wins, r + 1:
    never reaches a tie); ``below`` (P, r + 2) sums the others' shares while ``seat`` is behind,
    ``tied`` (P, r + 2) every seat's share at the tie.
    """
    n, r = scores.n_players, high - low + 1
    below, tied = np.zeros((n, r + 2)), np.zeros((n, r + 2))
    for games in _batches(len(scores.base), batch):
        totals = scores.base[games].astype(np.int64) + vector
        totals[:, seat] = np.iinfo(np.int64).min
        best = totals.max(axis=1)
        at_best = (totals == best[:, None]).astype(np.float64)  # (B, P): the others sharing the lead
        count = at_best.sum(axis=1)
        threshold = best - scores.base[games, seat].astype(np.int64)  # ``seat``'s value that ties the lead
        bins = np.clip(threshold - low + 1, 0, r + 1)
        w = np.ones(len(bins)) if weights is None else weights[games]
        lead = at_best / count[:, None] * w[:, None]  # (B, P) the others' shares while ``seat`` is behind
        at_tie = at_best / (count + 1)[:, None] * w[:, None]
        at_tie[:, seat] = w / (count + 1)
        for j in range(n):
            below[j] += np.bincount(bins, weights=lead[:, j], minlength=r + 2)
            tied[j] += np.bincount(bins, weights=at_tie[:, j], minlength=r + 2)
        below[seat] += np.bincount(bins, weights=w, minlength=r + 2)  # games ``seat`` wins once past the tie
    index = np.arange(r) + 1  # the bin of value low + i
    ahead_of = np.cumsum(below[:, ::-1], axis=1)[:, ::-1]  # (P, r + 2): sums over bins >= b
    wins = (ahead_of[:, index + 1] + tied[:, index]).T  # (R, P): the others lead in bins above, tie in its bin
    wins[:, seat] = np.cumsum(below[seat])[index - 1] + tied[seat, index]  # bins below: ``seat`` leads
    return wins / (len(scores.base) if weights is None else weights.sum())


def solve_with_bootstrap(scores: GameScores, replicates: int = 200, seed: int = 0, low: int = 0, high: int = 30,
                         confidence: float = 0.95, first: int | None = None) -> tuple[Solution, pd.DataFrame]:
    """The solution and one row per seat: rulebook, solved, low/high (percentile interval of the
    bootstrap solutions), agreement (share of replicates that found the same value), and the
    predicted win rates under the rulebook and the solved vectors with Wilson intervals."""
    point = solve(scores, low, high, first=first)
    deals = np.unique(scores.deal)
    inverse = np.searchsorted(deals, scores.deal)  # (G,) int64 as return_inverse, without its (G,) temporaries
    rng = np.random.default_rng(seed)
    found = np.empty((replicates, scores.n_players), dtype=np.int64)
    for r in range(replicates):
        deal_weights = rng.multinomial(len(deals), np.full(len(deals), 1.0 / len(deals))).astype(np.float64)
        found[r] = solve(scores, low, high, weights=deal_weights[inverse], starts=[point.vector], first=first).vector
    tail = 100 * (1 - confidence) / 2
    games = len(scores.base)
    before = win_rates(scores, scores.start)
    rows = []
    for seat in range(scores.n_players):
        b_low, b_high = wilson(np.array([round(before[seat] * games)]), np.array([games]), confidence)
        a_low, a_high = wilson(np.array([round(point.rates[seat] * games)]), np.array([games]), confidence)
        rows.append(dict(
            seat=seat, rulebook=int(scores.start[seat]), solved=point.vector[seat],
            low=int(np.floor(np.percentile(found[:, seat], tail))),
            high=int(np.ceil(np.percentile(found[:, seat], 100 - tail))),
            agreement=float((found[:, seat] == point.vector[seat]).mean()),
            rate_rulebook=before[seat], rate_rulebook_low=b_low[0], rate_rulebook_high=b_high[0],
            rate_solved=point.rates[seat], rate_solved_low=a_low[0], rate_solved_high=a_high[0],
        ))
    table = pd.DataFrame(rows)
    table["imbalance_rulebook"] = imbalance(before)
    table["imbalance_solved"] = point.objective
    table["games"] = games
    table["replicates"] = replicates
    return point, table
