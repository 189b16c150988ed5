"""A search player: determinised Monte Carlo rollouts over the compiled state (per-game tier).

At each decision the player ranks the legal rows with its rollout policy, keeps the ``width``
best, and plays them to the end on up to ``rollouts`` determinisations each (what its seat
cannot see rearranged at random, ``game.determinise``), with the rollout policy in every seat.
Every row still in the race is played on the same determinisations (common random numbers), so
their comparison is not swamped by the luck of the deal.

With ``race`` above 0 the rows race: determinisations come in rounds of ``ROUND``, and after
each round a row leaves when its mean outcome trails the leader's by more than ``race`` standard
errors of their paired difference, so clearly worse rows stop costing rollouts and the race ends
as soon as one row is left. By default (``race=0``) every row is played on every
determinisation. The player picks the row with the best mean outcome (wins, then VP margin);
ties go to the row the policy prefers.

The player sees the game only through the table's ``observation`` (``Game.observe``): what its
seat may see, with everything hidden in a canonical arrangement, so it cannot use hidden
information. Any game that supports ``Determinisation`` can be searched. Its only randomness is
its seat stream: the same stream gives the same choices.
"""

import functools
from dataclasses import dataclass, field

import numpy as np
from bgsim.sim.api import CandidateTable, Determinisation, Game, supports
from bgsim.sim.errors import StrategyError
from bgsim.sim.policy import best_rows
from bgsim.sim.rng import next_u64

__all__ = ["RolloutSearch", "SearchedRows", "make_search", "race", "race_rows"]

DEFAULTS = {"width": 6, "rollouts": 8, "margin": 100, "race": 0.0}
ROUND = 2  # determinisations per racing round (two give the first paired standard error)
SE_FLOOR = 0.02  # smallest standard error a race trusts: rows that tie on few rollouts stay in


@dataclass(frozen=True)
class RolloutSearch:
    id: str
    game: Game = field(repr=False)
    policy: object  # a strategy with a compiled policy: plays every seat in the rollouts
    width: int  # candidate rows searched per decision, best by the policy first
    rollouts: int  # determinisations per decision at most (each one rollout per row still racing)
    margin: float  # VP margin that counts as much as a win; breaks ties between win rates
    race: float  # a row leaves the race when it trails the leader by this many standard errors; 0: never
    description: str = ""

    def choose(self, table: CandidateTable, stream: np.ndarray) -> int:
        if len(table) == 1:
            return 0
        return self.search(table, stream).chosen

    def search(self, table: CandidateTable, stream: np.ndarray) -> "SearchedRows":
        """The rows searched at this decision, their mean outcomes and the row chosen: what ``choose``
        returns, with the values behind it (a record to fit an expert to). ``stream`` advanced as
        ``choose`` advances it."""
        observation = table.observation
        if observation is None:
            raise StrategyError(f"{self.id} needs the seat's observation with each decision (a per-game table)")
        rows = self._best_rows(table.features)
        rng = np.array([next_u64(stream, 0)], dtype=np.uint64)
        policies = self._rollout_policies
        actions = table.actions[rows]

        if self.race == 0 and len(rows) > 1:  # every row on every determinisation: one compiled call
            outcomes = self._all_outcomes(observation, actions, rng, policies)
            means = _means(outcomes, self.rollouts)  # as the race sums them: the same choice, ties included
            best, samples = int(np.argmax(means)), np.full(len(rows), self.rollouts, dtype=np.int64)
        else:
            def one_determinisation(alive: np.ndarray) -> np.ndarray:  # every row in ``alive``
                return self.game.rollout_values(observation, actions[alive], 1, rng, policies, self.margin)

            best, means, samples = race(len(rows), self.rollouts, self.race, one_determinisation)
        return SearchedRows(rows=rows, means=means, samples=samples, chosen=int(rows[best]))

    def _all_outcomes(self, observation, actions: np.ndarray, rng: np.ndarray, policies) -> np.ndarray:
        """(k, rollouts) float64: each row's outcome on each determinisation, as ``rollout_values``
        gives them one determinisation at a time (a determinisation draws the same from ``rng``
        whether it is played alone or after others)."""
        shares, margins = self.game.rollout_outcomes(observation, actions, self.rollouts, rng, policies)
        return (shares > 0) + margins / float(self.margin)

    @functools.cached_property
    def _rollout_policies(self) -> tuple:
        """The rollout policy in every seat: one tuple for every decision, so the game keeps its arrays."""
        return (self.policy.compiled_policy(self.game),) * self.game.n_players

    def _best_rows(self, features: np.ndarray) -> np.ndarray:
        """(k,) int64: the ``width`` rows the policy values most ((n, F) int32 features), best first,
        ties in table order; a random policy values every row alike, so its first rows."""
        weights = getattr(self.policy, "weights", None)
        if weights is None:
            return np.arange(min(self.width, features.shape[0]), dtype=np.int64)
        return best_rows(features, weights, self.width)

    def compiled_policy(self, game):
        return None  # per-game tier only


@dataclass(frozen=True)
class SearchedRows:
    """One decision's search: ``rows`` (k,) int64 the table rows searched (the policy's best first),
    ``means`` (k,) float64 each one's mean outcome over its ``samples`` (k,) int64 rollouts (fewer
    for a row that left a race; NaN for a lone row, never rolled out), and ``chosen`` the table row
    played."""

    rows: np.ndarray
    means: np.ndarray
    samples: np.ndarray
    chosen: int


def race_rows(n_rows: int, max_samples: int, z: float, outcomes) -> int:
    """Index of the best of ``n_rows`` rows by a race of paired samples (``race``)."""
    return race(n_rows, max_samples, z, outcomes)[0]


def race(n_rows: int, max_samples: int, z: float, outcomes) -> tuple[int, np.ndarray, np.ndarray]:
    """Index of the best of ``n_rows`` rows (ties: the lowest index) by a race of paired samples,
    with each row's mean outcome (n_rows,) float64 and its samples (n_rows,) int64.

    ``outcomes(alive)`` returns one sample, (len(alive),) float64, for each row index in ``alive``
    ((k,) int64), the same draw for all of them. Samples come in rounds of ``ROUND``, at most
    ``max_samples`` per row; after each round a row leaves when its mean plus ``z`` standard
    errors of its difference to the leader (at least ``SE_FLOOR``) is below the leader's mean.
    """
    samples = np.zeros((n_rows, max_samples))
    taken = np.zeros(n_rows, dtype=np.int64)  # each row's samples: one per round of the race it was in
    alive = np.arange(n_rows)
    n = 0
    while n < max_samples and len(alive) > 1:
        for _ in range(min(ROUND, max_samples - n)):
            samples[alive, n] = outcomes(alive)
            taken[alive] += 1
            n += 1
        means = _means(samples[alive], n)
        leader = int(np.argmax(means))  # first maximum: the lowest index
        if z > 0 and n >= 2:
            gaps = samples[alive, :n] - samples[alive[leader], :n]  # paired differences to the leader
            se = np.maximum(gaps.std(axis=1, ddof=1) / np.sqrt(n), SE_FLOOR)
            keep = means + z * se >= means[leader]
            keep[leader] = True
            alive = alive[keep]
    means = np.array([_means(samples[i: i + 1], int(taken[i]))[0] if taken[i] else np.nan for i in range(n_rows)])
    return int(alive[int(np.argmax(_means(samples[alive], max(n, 1))))]), means, taken


def _means(samples: np.ndarray, n: int) -> np.ndarray:
    """Mean of the first ``n`` columns of ``samples`` (k, N), summed in column order, so that equal
    sums stay equal whatever the number of rows."""
    total = np.zeros(samples.shape[0])
    for j in range(n):
        total += samples[:, j]
    return total / n


def make_search(game, policy_factory, default_policy: str, **params) -> RolloutSearch:
    """``search(width=6, rollouts=8, race=0, policy=default_policy, margin=100)``;
    ``policy_factory(id, game)`` builds the rollout policy (a strategy with a compiled policy)."""
    if not supports(game, Determinisation):
        raise StrategyError(f"search needs determinisations and rollouts, which {game.name} does not offer")
    policy_id = params.pop("policy", default_policy)
    unknown = set(params) - set(DEFAULTS)
    if unknown:
        raise StrategyError(f"search: unknown parameter {sorted(unknown)[0]!r} "
                            f"(known: policy, {', '.join(DEFAULTS)})")
    values = DEFAULTS | params
    for name, value in values.items():
        if name == "race":
            if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value < float("inf"):
                raise StrategyError(f"search: race must be a number of standard errors >= 0, got {value!r}")
        elif not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise StrategyError(f"search: {name} must be a positive integer, got {value!r}")
    if not isinstance(policy_id, str):
        raise StrategyError(f"search: policy must be a strategy id, got {policy_id!r}")
    policy = policy_factory(policy_id, game)
    if policy.compiled_policy(game) is None:
        raise StrategyError(f"search: rollout policy {policy_id!r} has no compiled form")
    changed = {k: v for k, v in params.items() if v != DEFAULTS[k]}
    args = [f"policy={policy_id!r}"] if policy_id != default_policy else []
    args += [f"{k}={v}" for k, v in sorted(changed.items())]
    suffix = f"({', '.join(args)})" if args else ""
    race = float(values["race"])
    racing = f", rows racing at {race:g} standard errors" if race > 0 else ""
    return RolloutSearch(f"{game.name}/search{suffix}", game, policy, values["width"], values["rollouts"],
                         float(values["margin"]), race,
                         f"rollouts: {values['width']} best rows x up to {values['rollouts']} determinisations{racing}")
