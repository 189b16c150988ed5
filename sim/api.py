"""The common game / strategy interface every game and every strategy implements.

A game is a state machine over one flat int32 state array (see ``sim.layout``). At every
decision the game offers a :class:`CandidateTable`: one row per legal action, with named
integer feature columns that heuristics weigh, and the action itself in named integer columns.
A strategy picks a row. Chance is resolved inside the game from its chance seed, so the same
seeds and the same choices always give the same game.
"""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np
from bgsim.sim.seeding import GameSeeds

if TYPE_CHECKING:
    from bgsim.sim.profile import GameProfile

__all__ = [
    "CandidateTable",
    "CompiledPlay",
    "CompiledPolicy",
    "ComponentAblation",
    "ComponentChoices",
    "Determinisation",
    "Game",
    "GameMeasures",
    "GameResult",
    "LockstepBatches",
    "Observation",
    "Stepping",
    "Strategy",
    "supports",
    "POLICY_WEIGHTS",
    "POLICY_RANDOM",
]

# Policy kinds that a game's compiled play loop evaluates without calling back into Python.
POLICY_WEIGHTS = 0  # argmax over rows of features @ weights; the first row wins ties
POLICY_RANDOM = 1  # uniform row from the seat's strategy stream (sim.rng.below)


@dataclass(frozen=True)
class CompiledPolicy:
    """A strategy the compiled loop can run: a policy kind and (F,) int64 feature weights."""

    kind: int
    weights: np.ndarray


@dataclass(frozen=True)
class Observation:
    """What one seat may see of a state: ``view`` is a (STATE_SIZE,) int32 copy of the state with
    everything hidden from ``seat`` replaced by a canonical arrangement (``Game.observe``), so two
    states that differ only in what the seat cannot see give equal views. Search players turn it
    back into full states through the game's ``determinise``."""

    seat: int
    view: np.ndarray

    def __eq__(self, other) -> bool:
        return (isinstance(other, Observation) and self.seat == other.seat
                and np.array_equal(self.view, other.view))

    __hash__ = None


@dataclass
class CandidateTable:
    """The legal actions of one pending decision.

    ``features``: (n, F) int32, one row per legal action, columns named by ``feature_names``.
    ``actions``: (n, A) int32, the action of each row, columns named by ``action_fields``.
    Rows come in the game's documented candidate order, so "first best row" is deterministic.
    ``observation``: what the deciding seat may see (``Game.observe``), for strategies that look
    beyond the table (search players); never the live state, which holds hidden information.
    It is computed on first access from ``observe`` (most strategies never look), so like the
    arrays it is valid until the next call on the game; None once the game is over.
    """

    kind: int
    kind_name: str
    seat: int
    features: np.ndarray
    actions: np.ndarray
    feature_names: tuple[str, ...]
    action_fields: tuple[str, ...]
    observe: Callable[[], Observation] | None = field(default=None, repr=False)
    _observation: Observation | None = field(default=None, init=False, repr=False)

    @property
    def observation(self) -> Observation | None:
        if self._observation is None and self.observe is not None:
            self._observation = self.observe()
        return self._observation

    def __len__(self) -> int:
        return int(self.features.shape[0])

    def column(self, name: str) -> np.ndarray:
        """One feature column, (n,) int32."""
        return self.features[:, self.feature_names.index(name)]

    def to_pandas(self):
        """The table as a DataFrame (action columns first), for inspection and notebooks."""
        import pandas as pd

        frame = pd.DataFrame(self.actions, columns=list(self.action_fields))
        feats = pd.DataFrame(self.features, columns=list(self.feature_names))
        return pd.concat([frame, feats], axis=1)


@dataclass
class GameResult:
    """Per-seat outcome of a finished game; ``categories`` maps a category name to (P,) ints.

    P counts every seat that scores: the players', then an automa's (a solo game against an
    automa has P = 2 with ``n_players`` = 1)."""

    final_score: np.ndarray  # (P,) int; the final score (in the profile's score_unit)
    rank: np.ndarray  # (P,) int; 1 = winner, after the game's tie-break
    categories: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def winner(self) -> int:
        return int(np.argmin(self.rank))


@runtime_checkable
class Game(Protocol):
    """What every game has: the play loop, the runner, the studies and the tests rely on these.

    Optional capabilities are the protocols below; code asks ``isinstance(game, CompiledPlay)``
    (``supports``), never ``hasattr``. ``sim.games.base.GameBase`` implements the shared parts.
    """

    name: str  # registry name, e.g. "my_game"
    id: str  # canonical id with every non-default parameter, e.g. "my_game(n_players=3)"
    version: str  # rules version; bumped whenever a rules change alters games
    n_players: int
    feature_names: tuple[str, ...]
    feature_docs: dict[str, str]  # one line per feature, for ``bgsim features``
    action_fields: tuple[str, ...]
    decision_names: tuple[str, ...]
    max_rows: int  # most rows one candidate table can have
    state_size: int  # int32 entries of one state
    profile: "GameProfile"  # what studies and reports may know (sim.profile)
    data_hash: str  # each component data file in use by its digest (sim.digest; "" for a game without data files)
    data_files: dict  # data file name -> {"path", "sha256", ...} of the files in use

    def new_state(self, seeds: GameSeeds) -> np.ndarray: ...

    def new_log(self) -> np.ndarray | None: ...

    def is_over(self, state: np.ndarray) -> bool: ...

    def decision(self, state: np.ndarray) -> CandidateTable: ...

    def apply(self, state: np.ndarray, action: np.ndarray, log: np.ndarray | None = None,
              validate: bool = False) -> None: ...

    def observe(self, state: np.ndarray, seat: int) -> Observation: ...

    def result(self, state: np.ndarray) -> GameResult: ...

    def records(self, states: np.ndarray) -> dict: ...

    def trace_text(self, state, log, seeds: GameSeeds, strategy_ids, summary: bool = False) -> str: ...

    def trace_json(self, state, log, seeds: GameSeeds, strategy_ids) -> dict: ...


@runtime_checkable
class Stepping(Protocol):
    """Apply a row of the pending table and build the next table in one compiled call."""

    def step(self, state: np.ndarray, row: int, log: np.ndarray | None = None) -> CandidateTable: ...


@runtime_checkable
class CompiledPlay(Protocol):
    """Whole games inside compiled code for compiled policies (the ``compiled`` tier)."""

    def play_compiled(self, state: np.ndarray, policies: list[CompiledPolicy], streams: np.ndarray,
                      log: np.ndarray | None = None) -> None: ...

    def play_states(self, chance: np.ndarray, streams: np.ndarray, seat_strategy: np.ndarray,
                    policies: list[CompiledPolicy], out: np.ndarray | None = None) -> np.ndarray: ...

    def play_dealt(self, states: np.ndarray, streams: np.ndarray, seat_strategy: np.ndarray,
                   policies: list[CompiledPolicy]) -> np.ndarray: ...


@runtime_checkable
class LockstepBatches(Protocol):
    """Many games advanced together, their tables stacked for one ``score`` call (the ``vectorised`` tier)."""

    def deal_states(self, chance: np.ndarray) -> np.ndarray: ...

    def pending_seats(self, states: np.ndarray) -> np.ndarray: ...

    def stack_tables(self, states, games, feats, acts, offsets) -> int: ...

    def apply_best_rows(self, states, games, acts, offsets, values) -> None: ...


@runtime_checkable
class Determinisation(Protocol):
    """Hidden information resampled for search players: a full state consistent with an observation."""

    def determinise(self, observation: Observation, rng: np.ndarray) -> np.ndarray: ...

    def rollout_values(self, observation: Observation, actions: np.ndarray, determinisations: int,
                       rng: np.ndarray, policies: list[CompiledPolicy], margin_scale: float = 100.0) -> np.ndarray: ...

    def rollout_outcomes(self, observation: Observation, actions: np.ndarray, determinisations: int,
                         rng: np.ndarray, policies: list[CompiledPolicy]) -> tuple[np.ndarray, np.ndarray]: ...


@runtime_checkable
class ComponentChoices(Protocol):
    """Decisions where a seat picks components, and what each component pays: the engine side of
    the choice declarations of a game's profile (``GameProfile.choices``), for component-value studies.

    ``choice_components(state, table)``: (K, M) int64, the components (ids of the declared
    attribution's catalogue) that each row of ``table`` (the pending table of ``state``) takes, -1
    padding; None when the table is no declared component choice. ``payout(component)``: what the
    component pays now, in the declaration's payout unit. ``with_payout(component, value)``: a game
    that plays by the same rules except that the component pays ``value`` (rollouts from states of
    this game continue under it).
    """

    def choice_components(self, state: np.ndarray, table: CandidateTable) -> np.ndarray | None: ...

    def payout(self, component: int) -> int: ...

    def with_payout(self, component: int, value: int) -> "Game": ...


@runtime_checkable
class GameMeasures(Protocol):
    """Per-game numbers a designer may balance for, beyond scores and ranks (the profile's
    ``measures`` names them): ``game_measures(states)`` maps each name to a (G,) float64 array, one
    value per finished game of ``states`` ((G, S) int32)."""

    def game_measures(self, states: np.ndarray) -> dict[str, np.ndarray]: ...


@runtime_checkable
class ComponentAblation(Protocol):
    """Deals with a component and the same deals with it replaced (the ablation of a component-value
    study): the profile's choice names the replacement in words (``ComponentChoice.ablation``).

    ``dealt_components(states)``: (G, C) bool, the components of the choice's attribution (C of its
    catalogue) that each dealt state ((G, S) int32 from ``deal_states``) holds. ``ablate(states,
    component, picks)``: a copy of ``states`` (each holding ``component``) with the component
    replaced and nothing else changed, so that the game plays on with the same chance; and the (G,)
    int64 replacement of each (-1: removed). ``picks`` (G,) float64 in [0, 1) choose among the
    possible replacements, so that the study owns that chance too.
    """

    def dealt_components(self, states: np.ndarray) -> np.ndarray: ...

    def ablate(self, states: np.ndarray, component: int, picks: np.ndarray) -> tuple[np.ndarray, np.ndarray]: ...


def supports(game: Game, capability: type) -> bool:
    """Whether ``game`` offers an optional capability (``CompiledPlay``, ``LockstepBatches``, ...)."""
    return isinstance(game, capability)


class Strategy(Protocol):
    """A player. ``choose`` is the per-game tier; ``compiled_policy`` the compiled fast path.

    A strategy may also offer ``score(features) -> values``: (n, F) int32 rows of any number of
    stacked tables in, (n,) values out, the best row of each table wins (first on ties). The
    runner then plays its games in lockstep batches (``sim.batch``, the vectorised tier).
    """

    id: str

    def choose(self, table: CandidateTable, stream: np.ndarray) -> int:
        """Index of the chosen row; ``stream`` is this seat's (1,) uint64 SplitMix64 state."""
        ...

    def compiled_policy(self, game: Game) -> CompiledPolicy | None: ...
