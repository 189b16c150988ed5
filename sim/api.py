"""The common game / strategy interface every game and every strategy implements.

A game is a state machine over one flat int32 state array (see ``sim.layout``). At every
decision the game offers a :class:`CandidateTable`: one row per legal action, with named
integer feature columns that heuristics weigh, and the action itself in named integer columns.
A strategy picks a row. Chance is resolved inside the game from its chance seed, so the same
seeds and the same choices always give the same game.
"""

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
from bgsim.sim.seeding import GameSeeds

__all__ = [
    "CandidateTable",
    "CompiledPolicy",
    "Game",
    "GameResult",
    "Strategy",
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


@dataclass
class CandidateTable:
    """The legal actions of one pending decision.

    ``features``: (n, F) int32, one row per legal action, columns named by ``feature_names``.
    ``actions``: (n, A) int32, the action of each row, columns named by ``action_fields``.
    Rows come in the game's documented candidate order, so "first best row" is deterministic.
    ``state``: the game's live state array, for search strategies; read it, copy it, never
    change it. It holds hidden information too: a fair player sees it only through the game's
    ``determinise`` (or ``rollout_values``), which hides what the deciding seat cannot see.
    """

    kind: int
    kind_name: str
    seat: int
    features: np.ndarray
    actions: np.ndarray
    feature_names: tuple[str, ...]
    action_fields: tuple[str, ...]
    state: np.ndarray | None = None

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

    final_vp: np.ndarray  # (P,) int; final victory points
    rank: np.ndarray  # (P,) int; 1 = winner, after the game's tie-break
    categories: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def winner(self) -> int:
        return int(np.argmin(self.rank))


@runtime_checkable
class Game(Protocol):
    """What the play loop, the runner and the tests need from a game."""

    name: str  # registry name, e.g. "carpe_diem"
    id: str  # canonical id with every non-default parameter, e.g. "carpe_diem(n_players=3)"
    version: str  # rules version; bumped whenever a rules change alters games
    n_players: int
    feature_names: tuple[str, ...]
    action_fields: tuple[str, ...]
    decision_names: tuple[str, ...]

    def new_state(self, seeds: GameSeeds) -> np.ndarray: ...

    def is_over(self, state: np.ndarray) -> bool: ...

    def decision(self, state: np.ndarray) -> CandidateTable: ...

    def apply(self, state: np.ndarray, action: np.ndarray, log: np.ndarray | None = None,
              validate: bool = False) -> None: ...

    def result(self, state: np.ndarray) -> GameResult: ...


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
