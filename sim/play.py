"""Play one game between strategies: the compiled loop when every seat allows it, else per decision."""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from bgsim.sim.api import CompiledPlay, Game, GameResult, Stepping, Strategy, supports
from bgsim.sim.errors import IllegalActionError, RunawayGameError, StrategyError
from bgsim.sim.seeding import GameSeeds, strategy_streams

__all__ = ["PlayedGame", "play_game"]


@dataclass
class PlayedGame:
    game: Game
    seeds: GameSeeds
    strategies: tuple[str, ...]  # strategy id per seat
    state: np.ndarray  # final state
    result: GameResult
    log: np.ndarray | None  # event log, if requested


def play_game(game: Game, strategies: Sequence[Strategy], seeds: GameSeeds, *, log: bool = False,
              validate: bool = False, compiled: bool = True) -> PlayedGame:
    """Play a whole game; ``strategies[i]`` sits in seat i (seat 0 starts).

    ``validate`` checks every action against the legal set (the debug path); ``compiled=False``
    forces the per-decision Python loop even for strategies that could run compiled. A game not over
    after the game's ``max_decisions`` decisions raises a RunawayGameError naming its chance seed.
    """
    if len(strategies) != game.n_players:
        raise StrategyError(f"{game.id} needs {game.n_players} strategies, got {len(strategies)}")
    state = game.new_state(seeds)
    streams = strategy_streams(seeds, game.n_players)
    events = game.new_log() if log else None
    policies = [s.compiled_policy(game) for s in strategies]
    if compiled and not validate and all(p is not None for p in policies) and supports(game, CompiledPlay):
        try:
            game.play_compiled(state, policies, streams, events)
        except RunawayGameError as exc:
            raise exc.of_game(1, f"chance {seeds.chance}") from None
    else:
        _play_per_decision(game, strategies, state, streams, events, validate, seeds)
    return PlayedGame(game, seeds, tuple(s.id for s in strategies), state, game.result(state), events)


def _play_per_decision(game, strategies, state, streams, events, validate, seeds) -> None:
    """Ask the seat's strategy at every decision. Games that support ``Stepping`` apply the chosen row and
    build the next table in one call; ``validate`` takes the checked path through ``apply``."""
    stepping = supports(game, Stepping) and not validate
    table = game.decision(state)
    limit = getattr(game, "max_decisions", 0) or None  # a game without compiled loops may declare none
    decisions = 0
    while not game.is_over(state):
        if decisions == limit:
            raise RunawayGameError(game.id, limit).of_game(1, f"chance {seeds.chance}")
        decisions += 1
        seat = table.seat
        row = strategies[seat].choose(table, streams[seat: seat + 1])
        if not 0 <= row < len(table):
            raise IllegalActionError(f"game seeds {seeds}: strategy {strategies[seat].id} chose row {row} "
                                     f"of {len(table)}")
        if stepping:
            table = game.step(state, row, events)
            continue
        try:
            game.apply(state, table.actions[row], events, validate=validate)
        except IllegalActionError as exc:
            raise IllegalActionError(f"game seeds {seeds}: {exc}") from None
        table = game.decision(state)
