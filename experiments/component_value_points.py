"""The decision points of a component-value study: one player count's game, population and declared
choice (``Setup``), the points a source game passes where a seat picks a component, and the rollouts
that play each point on with every component on offer, on the same chance."""


from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
from bgsim.experiments.component_value_spec import ComponentValueSpec, Setup, _setup
from bgsim.sim.seeding import GameSeeds, block_key, deal_seeds, strategy_streams
from bgsim.sim.stats.choice_value import POINT_COLUMNS, ChoicePoint, offered, point_values

__all__ = ["ROW_COLUMNS", "Point", "point_outcomes", "sample_chunk", "source_points", "source_seeds"]

# One row per (point, component on offer): where the point is, then the paired difference.
ROW_COLUMNS = ("n_players", "point", "seat", "strategy", "alternatives", *POINT_COLUMNS)


# --- decision points of one source game


@dataclass
class Point:
    ordinal: int  # decisions of the source game before this one
    seat: int
    state: np.ndarray  # (state size,) int32, the live state (the rollouts see only the seat's observation)
    actions: np.ndarray  # (K, A) int32
    components: np.ndarray  # (K, M) int64


def source_seeds(seed: int, n: int, game_index: int) -> GameSeeds:
    """Seeds of source game ``game_index`` at ``n`` players (fresh deals: another ``seed``)."""
    chance, strategy = deal_seeds(block_key(seed, n), np.array([game_index], dtype=np.int64))
    return GameSeeds(int(chance[0]), int(strategy[0]))


def rollout_stream(seed: int, n: int, game_index: int, ordinal: int) -> np.ndarray:
    """The (1,) uint64 stream of one point's rollouts: the same for every alternative, payout and rerun."""
    key = np.random.SeedSequence(seed, spawn_key=(n, game_index, ordinal)).generate_state(1, dtype=np.uint64)
    return key.astype(np.uint64)


def seat_indices(setup: Setup, game_index: int) -> list[int]:
    """Strategy index per seat in source game ``game_index`` (the population rotates over games)."""
    m = len(setup.strategies)
    return [(seat + game_index) % m for seat in range(setup.game.n_players)]


def source_points(setup: Setup, game, seeds: GameSeeds, game_index: int,
                  wanted: set[int] | None = None) -> Iterator[Point]:
    """The component-choice points of one source game played by the population (``game`` may be a
    payout variant of ``setup.game``); only the ordinals in ``wanted`` if given (a replay), stopping
    after the last of them."""
    choice = setup.choice
    seats = seat_indices(setup, game_index)
    state = game.new_state(seeds)
    streams = strategy_streams(seeds, game.n_players)
    table = game.decision(state)
    ordinal = 0
    while not game.is_over(state):
        if table.kind_name in choice.decisions and (wanted is None or ordinal in wanted):
            comps = game.choice_components(state, table)
            if comps is not None and len(offered(comps)):
                yield Point(ordinal, table.seat, state.copy(), table.actions.copy(), comps)
        if wanted is not None and ordinal >= max(wanted, default=-1):
            return
        seat = table.seat
        row = setup.strategies[seats[seat]].choose(table, streams[seat: seat + 1])
        table = game.step(state, row)
        ordinal += 1


def point_outcomes(setup: Setup, game, point: Point, rollouts: int, seed: int, game_index: int,
                   rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Win shares and margins ((K, D) float64, int64) of the point's alternatives (only ``rows``,
    (K',) int64 indices, if given), every one on the same determinisations (the point's own rollout
    stream, so a subset of rows gets the rollouts it had among all of them)."""
    observation = game.observe(point.state, point.seat)
    actions = point.actions if rows is None else point.actions[rows]
    policies = [setup.policies[i] for i in seat_indices(setup, game_index)]
    rng = rollout_stream(seed, game.n_players, game_index, point.ordinal)
    return game.rollout_outcomes(observation, actions, rollouts, rng, policies)


# --- sampling: one chunk of source games


def sample_chunk(spec: ComponentValueSpec, n: int, start: int, stop: int) -> pa.Table:
    """The (point, component) rows of source games ``start..stop-1`` at ``n`` players."""
    setup = _setup(spec, n)
    frames = []
    for g in range(start, stop):
        for point in source_points(setup, setup.game, source_seeds(spec.seed, n, g), g):
            shares, margins = point_outcomes(setup, setup.game, point, spec.rollouts, spec.seed, g)
            values = point_values(ChoicePoint(g, point.components, shares, margins))
            values.insert(0, "alternatives", len(point.actions))
            values.insert(0, "strategy", setup.strategies[seat_indices(setup, g)[point.seat]].id)
            values.insert(0, "seat", point.seat)
            values.insert(0, "point", point.ordinal)
            values.insert(0, "n_players", n)
            frames.append(values)
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(ROW_COLUMNS))
    return pa.Table.from_pandas(frame[list(ROW_COLUMNS)].astype(_DTYPES), preserve_index=False)


_DTYPES = {"n_players": "int64", "point": "int64", "seat": "int64", "strategy": "str", "alternatives": "int64",
           "component": "int64", "game": "int64", "win": "float64", "margin": "float64", "rollouts": "int64",
           "row": "int64", "rival": "int64", "alone": "bool"}


