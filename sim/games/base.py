"""What every game shares, so a game package writes only its rules: ``GameBase``.

A game subclasses ``GameBase``, sets the class attributes (name, version, feature and action
names, ...) and the hooks below; the base gives it the canonical id, the data hash, checked
``apply``, ``result`` from the score sheet, the candidate-table wrapper and the policy arrays
its compiled loop reads. See ``sim/games/_template/`` for a complete small game.

Hooks a game implements (the kernels are its own compiled functions):

- ``new_state(seeds)``, ``observe(state, seat)``, ``records(states)``, ``score_sheet(state)``,
  ``trace_text``, ``trace_json``, ``profile``, and ``data_files`` for a game with data files;
- ``_candidates(state, feats, acts) -> n``: fill the first n rows of the table buffers;
- ``_apply(state, action, log)``: apply one action row (no checks);
- ``_kind(state)``, ``_seat(state)``: the pending decision kind (``over_kind`` once the game is
  over, which gives ``is_over``) and seat;
- optionally ``_decision_index(state)``: decisions made so far, named in illegal-action errors.

Optional capabilities (``sim.api``: ``Stepping``, ``CompiledPlay``, ...) are the game's own
methods; tables built by a capability method go through ``_table`` like ``decision``'s.
"""

import functools
import hashlib
import json

import numpy as np
from bgsim.sim.api import CandidateTable, CompiledPolicy, GameResult
from bgsim.sim.errors import IllegalActionError

__all__ = ["GameBase", "id_literal"]


class GameBase:
    name: str = ""
    version: str = "1"
    feature_names: tuple[str, ...] = ()
    feature_docs: dict[str, str] = {}
    action_fields: tuple[str, ...] = ()
    decision_names: tuple[str, ...] = ()
    max_rows: int = 0
    state_size: int = 0
    over_kind: int = -1  # decision kind of a finished game
    params = None  # the game's parameter dataclass, with ``non_default()`` and ``n_players``
    data_files: dict = {}  # data file name -> {"path", "sha256"} (empty for a game without data)

    def __init__(self, params):
        self.params = params
        self.n_players = params.n_players
        self._feats = np.zeros((max(self.max_rows, 1), len(self.feature_names)), dtype=np.int32)
        self._acts = np.zeros((max(self.max_rows, 1), len(self.action_fields)), dtype=np.int32)

    # --- identity

    @property
    def id(self) -> str:
        """``name(n_players=3, key=value, ...)`` with every parameter that differs from its default."""
        extra = {k: v for k, v in self.params.non_default().items() if k != "n_players"}
        args = [f"n_players={self.n_players}"] + [f"{k}={id_literal(v)}" for k, v in sorted(extra.items())]
        return f"{self.name}({', '.join(args)})"

    @property
    def data_hash(self) -> str:
        """One hash over every component data file in use (for results metadata); "" without data."""
        if not self.data_files:
            return ""
        hashes = {name: info["sha256"] for name, info in self.data_files.items()}
        return hashlib.sha256(json.dumps(hashes, sort_keys=True).encode()).hexdigest()[:16]

    # --- decisions

    def is_over(self, state: np.ndarray) -> bool:
        return self._kind(state) == self.over_kind

    def new_log(self) -> np.ndarray | None:
        """An empty event log for ``apply`` and ``play_compiled``; None for a game without one."""
        return None

    def decision(self, state: np.ndarray) -> CandidateTable:
        """The pending decision. Its arrays are views, valid until the next call on this game."""
        return self._table(state, self._candidates(state, self._feats, self._acts))

    def _table(self, state: np.ndarray, n: int) -> CandidateTable:
        """The table whose first ``n`` rows the game just wrote into the buffers. Its observation
        is made on first access only: observing at every decision would slow the per-decision
        loop for strategies that never look."""
        kind = self._kind(state)
        seat = self._seat(state)
        observe = None if kind == self.over_kind else functools.partial(self.observe, state, seat)
        return CandidateTable(kind, self.decision_names[kind], seat, self._feats[:n], self._acts[:n],
                              self.feature_names, self.action_fields, observe)

    def apply(self, state: np.ndarray, action: np.ndarray, log: np.ndarray | None = None,
              validate: bool = False) -> None:
        """Apply one action row. ``validate`` checks it against the legal set first."""
        action = np.asarray(action, dtype=np.int32)
        if validate:
            table = self.decision(state)
            if self.is_over(state) or not (table.actions == action).all(axis=1).any():
                index = self._decision_index(state)
                where = "" if index is None else f" at decision {index}"
                raise IllegalActionError(
                    f"illegal action{where} ({table.kind_name}, seat {table.seat + 1}): "
                    f"{dict(zip(self.action_fields, action.tolist(), strict=True))}")
        self._apply(state, action, log)

    def _decision_index(self, state: np.ndarray) -> int | None:
        """Decisions applied so far, for error messages; None for a game that does not count them."""
        return None

    # --- results

    def result(self, state: np.ndarray) -> GameResult:
        """The outcome from ``score_sheet``: per seat (P,) arrays of every category, "total" and "rank"."""
        sheet = self.score_sheet(state)
        return GameResult(final_vp=sheet["total"], rank=sheet["rank"],
                          categories={k: v for k, v in sheet.items() if k not in ("total", "rank")})

    # --- compiled policies

    def policy_arrays(self, policies: list[CompiledPolicy]) -> tuple[np.ndarray, np.ndarray]:
        """Policy kinds (K,) int64 and weights (K, F) int64 of compiled policies, for the kernels."""
        kinds = np.array([pol.kind for pol in policies], dtype=np.int64)
        weights = np.zeros((len(policies), len(self.feature_names)), dtype=np.int64)
        for k, pol in enumerate(policies):
            weights[k, : len(pol.weights)] = pol.weights
        return kinds, weights


def id_literal(value) -> str:
    """A parameter value as written in a game id: true/false, bare words, else Python literals."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if value.isidentifier() else repr(value)
    return repr(value)
