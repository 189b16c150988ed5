"""A search player: determinised Monte Carlo rollouts over the compiled state (per-game tier).

At each decision the player ranks the legal rows with its rollout policy, keeps the ``width``
best, and plays each of them to the end ``rollouts`` times, every time on a fresh
determinisation (what its seat cannot see rearranged at random, ``game.determinise``) with
the rollout policy in every seat. The same determinisations serve every candidate (common
random numbers), so their comparison is not swamped by the luck of the deal. It picks the
row with the best mean outcome (wins, then VP margin); ties go to the row the policy prefers.

The player sees the game only through the table's ``observation`` (``Game.observe``): what its
seat may see, with everything hidden in a canonical arrangement, so it cannot use hidden
information. Any game that supports ``Determinisation`` can be searched. Its only randomness is
its seat stream: the same stream gives the same choices.
"""

from dataclasses import dataclass, field

import numpy as np
from bgsim.sim.api import CandidateTable, Determinisation, Game, supports
from bgsim.sim.errors import StrategyError
from bgsim.sim.rng import next_u64

__all__ = ["RolloutSearch", "make_search"]

DEFAULTS = {"width": 6, "rollouts": 8, "margin": 100}


@dataclass(frozen=True)
class RolloutSearch:
    id: str
    game: Game = field(repr=False)
    policy: object  # a strategy with a compiled policy: plays every seat in the rollouts
    width: int  # candidate rows searched per decision, best by the policy first
    rollouts: int  # determinisations (each one rollout per candidate) per decision
    margin: float  # VP margin that counts as much as a win; breaks ties between win rates
    description: str = ""

    def choose(self, table: CandidateTable, stream: np.ndarray) -> int:
        if len(table) == 1:
            return 0
        observation = table.observation
        if observation is None:
            raise StrategyError(f"{self.id} needs the seat's observation with each decision (a per-game table)")
        prior = self._prior(table.features)
        rows = np.argsort(-prior, kind="stable")[: self.width]
        rng = np.array([next_u64(stream, 0)], dtype=np.uint64)
        policies = [self.policy.compiled_policy(self.game)] * self.game.n_players
        values = self.game.rollout_values(observation, table.actions[rows], self.rollouts, rng, policies,
                                          self.margin)
        return int(rows[int(np.argmax(values))])  # first maximum: the policy's preferred row

    def _prior(self, features: np.ndarray) -> np.ndarray:
        """The policy's row values, (n,) float64 ((n, F) int32 features); 0 for a random policy."""
        score = getattr(self.policy, "score", None)
        if score is None:
            return np.zeros(features.shape[0])
        return np.asarray(score(features), dtype=np.float64)

    def compiled_policy(self, game):
        return None  # per-game tier only


def make_search(game, policy_factory, default_policy: str, **params) -> RolloutSearch:
    """``search(width=6, rollouts=8, policy=default_policy, margin=100)``; ``policy_factory(id,
    game)`` builds the rollout policy (a strategy with a compiled policy)."""
    if not supports(game, Determinisation):
        raise StrategyError(f"search needs determinisations and rollouts, which {game.name} does not offer")
    policy_id = params.pop("policy", default_policy)
    unknown = set(params) - set(DEFAULTS)
    if unknown:
        raise StrategyError(f"search: unknown parameter {sorted(unknown)[0]!r} "
                            f"(known: policy, {', '.join(DEFAULTS)})")
    values = DEFAULTS | params
    for name, value in values.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
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
    return RolloutSearch(f"{game.name}/search{suffix}", game, policy, values["width"], values["rollouts"],
                         float(values["margin"]),
                         f"rollouts: {values['width']} best rows x {values['rollouts']} determinisations")
