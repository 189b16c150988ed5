"""What every game shares, so a game package writes only its rules: ``GameBase``.

A game subclasses ``GameBase`` and declares what it is made of: names (features, action fields,
decisions), its state layout, its compiled kernels and its renderer. Its name comes from its
parameter table; where the phase and seat sit in the state, the decision kind of a finished game
and the most rows of a table come from its kernels' ``RULES`` (``sim.kernel_binding.RulesKernels``),
where the shared loops read them too, so each is declared once. The base turns these into the
common interface: the canonical id, the data hash, the candidate tables, checked ``apply``,
``result`` from the score sheet, named state fields, traces. The optional capabilities come from
the mixins in ``sim.games.capabilities``. See ``sim/games/_template/`` for a complete small game.

What a game writes itself: ``new_state(seeds)``, ``records(states)``, ``score_sheet(state)``,
``profile``, ``data_files`` for a game with data files, and ``__init__`` setting ``rules_args``.

Kernels (compiled, ``@njit``) live in the game's ``kernels/`` package; ``kernels`` is its
``kernels/loops.py``, which declares the game's rules kernels to the loops every game shares
(``sim.kernel_binding.RulesKernels``) and binds them (``sim.loops``: play to the end, batches,
lockstep, the per-decision step, rollouts). Every game's kernels take the same arguments:

- ``candidates(state, *rules, feats, acts) -> n`` and ``apply_action(state, *rules, action, log)``,
  ``rules`` being ``rules_args`` (component tables, parameter array ...);
- ``deal_into(state, *deal, chance_seed, log)``, ``deal`` being ``deal_args`` (``rules_args``
  unless the game sets it);
- ``observe(state, seat, view_out)`` and ``determinise(state, seat, rng)`` for the hidden information;
- ``log``: the event log (``sim.event_log``) of ``event_capacity`` events of ``event_width``
  columns; a game played without a log passes a disabled one, so every kernel takes one.
"""

import copy
import dataclasses
import functools
from pathlib import Path
from types import ModuleType

import numpy as np
from bgsim.sim import event_log
from bgsim.sim.api import CandidateTable, CompiledPolicy, GameResult, Observation
from bgsim.sim.digest import data_digests
from bgsim.sim.errors import IllegalActionError

__all__ = ["GameBase", "id_literal", "win_shares"]


class GameBase:
    version: str = "1"
    feature_names: tuple[str, ...] = ()
    feature_docs: dict[str, str] = {}
    action_fields: tuple[str, ...] = ()
    decision_names: tuple[str, ...] = ()
    max_rows: int = 0  # most rows of a candidate table (from kernels.RULES)
    state_size: int = 0
    over_kind: int = -1  # decision kind of a finished game (from kernels.RULES)
    max_decisions: int = 0  # decisions after which a game not over is a runaway (from kernels.RULES)
    # Decision kinds whose choices the other seats do not see, and the state entry that changes when
    # they are revealed (the auction or round number of sealed bids; None: never revealed). Until
    # then nothing the other seats observe may depend on those choices (tests/test_conformance.py
    # plays two such histories and compares).
    sealed_decisions: tuple[str, ...] = ()
    sealed_round_index: int | None = None
    params = None  # the game's parameter dataclass, with ``non_default()`` and ``n_players``
    data_files: dict = {}  # data file name -> {"path", "sha256"} (empty for a game without data)
    state_layout = None  # the game's ``sim.layout.Layout``: gives ``state_size`` and ``field``
    phase_index: int = 0  # state entry holding the pending decision kind, over_kind once over (from kernels.RULES)
    seat_index: int = 0  # state entry holding the seat to decide (from kernels.RULES)
    decisions_index: int | None = None  # state entry counting decisions made, if the game counts them
    kernels: ModuleType | None = None  # the game's kernels/loops.py: its kernels and the shared loops bound to them
    event_capacity: int = 0  # events one game can log (0: the game logs no events)
    event_width: int = 2  # columns of an event: code, seat, then the game's values
    renderer: ModuleType | None = None  # the game's render.py: trace_text(game, ...), trace_json(game, ...)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.state_layout is not None:
            cls.state_size = cls.state_layout.size
        if cls.kernels is not None:  # what the shared loops read, read from the same declaration
            rules = cls.kernels.RULES
            cls.max_rows, cls.over_kind = rules.max_rows, rules.over
            cls.phase_index, cls.seat_index = rules.phase, rules.seat
            cls.max_decisions = rules.max_decisions

    def __init__(self, params):
        self.params = params
        self.n_players = params.n_players
        self._feats = np.zeros((max(self.max_rows, 1), len(self.feature_names)), dtype=np.int32)
        self._acts = np.zeros((max(self.max_rows, 1), len(self.action_fields)), dtype=np.int32)
        self.rules_args: tuple = ()  # set by the game: see the module docstring
        self._no_log = event_log.new_log(self.event_capacity, self.event_width, enabled=False)

    @property
    def deal_args(self) -> tuple:
        """What the dealing kernels take first; ``rules_args`` unless the game needs more."""
        return self.rules_args

    def with_params(self, **changes) -> "GameBase":
        """The same game built again with some parameters changed (checked as a game id's are; a
        refused value raises its one-line GameIdError)."""
        return type(self)(type(self.params).from_dict({**dataclasses.asdict(self.params), **changes}))

    def rebound(self, *rules_args) -> "GameBase":
        """A copy of this game whose kernels take ``rules_args`` (e.g. a component table with one payout
        changed): same parameters, identity and profile, its own table buffers."""
        game = copy.copy(self)
        game.__dict__.pop("_search_buffers", None)  # cached rollout buffers stay with their game
        game._feats, game._acts = np.zeros_like(self._feats), np.zeros_like(self._acts)
        game.rules_args = tuple(rules_args)
        return game

    def _log(self, log: np.ndarray | None) -> np.ndarray:
        """The event log a kernel writes: ``log``, or a disabled one for a game played without."""
        return self._no_log if log is None else log

    # --- identity

    @property
    def name(self) -> str:
        """The registry name, as the game's parameter table spells it."""
        return self.params.table.game

    @property
    def id(self) -> str:
        """``name(n_players=3, key=value, ...)`` with every parameter that differs from its default.
        Replaced data files are named by content, not by path: ``data=components:35935f0617a8`` gives
        each file a path parameter put in the game's own place, by the digest every report shows for
        it (``sim.digest``), so a run's id is the same wherever its files lie (a worker's copies
        included) and names the same data by the same hash as the report's header."""
        changed = {k: v for k, v in self.params.non_default().items() if k != "n_players"}
        files = {k: v for k, v in changed.items() if self.params.table.by_name[k].kind == "path"}
        args = [f"n_players={self.n_players}"]
        args += [f"{k}={id_literal(v)}" for k, v in sorted(changed.items()) if k not in files]
        replaced = self._replaced_data(files.values())
        if replaced:
            args.append(f"data={data_digests(replaced)}")
        return f"{self.name}({', '.join(args)})"

    def _replaced_data(self, paths) -> dict:
        """The data files in use (name -> info) that come from ``paths``: a file given itself, or one
        read from a folder given (``data_dir``); a folder's absent files are the game's own."""
        given = {Path(p).resolve() for p in paths}
        return {name: info for name, info in self.data_files.items()
                if not given.isdisjoint({Path(info["path"]).resolve(), Path(info["path"]).resolve().parent})}

    @property
    def data_hash(self) -> str:
        """Every component data file in use by its digest, as ids and reports show them
        (``components:35935f0617a8``, several joined by "+"); "" without data."""
        return data_digests(self.data_files)

    # --- decisions

    def is_over(self, state: np.ndarray) -> bool:
        return self._kind(state) == self.over_kind

    def new_log(self) -> np.ndarray | None:
        """An empty event log for ``apply`` and ``play_compiled``; None for a game without one."""
        if not self.event_capacity:
            return None
        return event_log.new_log(self.event_capacity, self.event_width)

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

    def _kind(self, state: np.ndarray) -> int:
        return int(state[self.phase_index])

    def _seat(self, state: np.ndarray) -> int:
        return int(state[self.seat_index])

    def _decision_index(self, state: np.ndarray) -> int | None:
        """Decisions applied so far, for error messages; None for a game that does not count them."""
        return None if self.decisions_index is None else int(state[self.decisions_index])

    def _candidates(self, state: np.ndarray, feats: np.ndarray, acts: np.ndarray) -> int:
        """Fill the first n rows of ``feats`` (R, F) / ``acts`` (R, A) int32 with the pending table."""
        return self.kernels.candidates(state, *self.rules_args, feats, acts)

    def _apply(self, state: np.ndarray, action: np.ndarray, log: np.ndarray | None) -> None:
        """Apply one action row ((A,) int32) without checks."""
        self.kernels.apply_action(state, *self.rules_args, action, self._log(log))

    def observe(self, state: np.ndarray, seat: int) -> Observation:
        """What ``seat`` may see: a copy of ``state`` with every hidden part in a canonical arrangement."""
        view = np.empty_like(state)
        self.kernels.observe(state, seat, view)
        return Observation(seat, view)

    # --- results and traces

    def field(self, state: np.ndarray, name: str) -> np.ndarray:
        """A named state field with its declared shape (see the game's ``state.py``)."""
        return self.state_layout.view(state, name)

    def trace_text(self, state, log, seeds, strategy_ids, summary: bool = False) -> str:
        """The readable trace of a played game (``log`` from ``new_log``)."""
        return self.renderer.trace_text(self, state, log, seeds, strategy_ids, summary=summary)

    def trace_json(self, state, log, seeds, strategy_ids) -> dict:
        """The played game as JSON-ready events and a score sheet."""
        return self.renderer.trace_json(self, state, log, seeds, strategy_ids)

    def result(self, state: np.ndarray) -> GameResult:
        """The outcome from ``score_sheet``: per seat (P,) arrays of every category, "total" and "rank"."""
        sheet = self.score_sheet(state)
        return GameResult(final_score=sheet["total"], rank=sheet["rank"],
                          categories={k: v for k, v in sheet.items() if k not in ("total", "rank")})

    def final_standings(self, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Final scores and ranks, (G, P) int32 each, of finished games ((G, S) int32 states)."""
        rules = self.kernels.RULES
        seats = int(states[0, rules.n_players]) if len(states) else self.n_players
        return states[:, rules.final_score: rules.final_score + seats], states[:, rules.rank: rules.rank + seats]

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


def win_shares(rank: np.ndarray) -> np.ndarray:
    """(G, P) float64 share of each game's win: 1/k to each of the k seats with ``rank`` (G, P) == 1 (float64:
    the shares of a game add up to 1 without a rounding error a table of millions would show)."""
    first = rank == 1
    return first / np.maximum(first.sum(axis=1, keepdims=True), 1)
