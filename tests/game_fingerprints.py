"""Fingerprints of Arkadia's and Capitol's games: one hash per scenario, which changes whenever any
of its games changes (``tests/engine_fingerprint.py`` does the same for Carpe Diem).

Performance work on a game's kernels must leave every game bit-identical, under every parameter. The
scenarios go through the generic game interface: every candidate table (kind, seat, features,
actions) of games played a decision at a time, and the final state and event log of games played by
the compiled loop (``play_compiled``), for each player count under the greedy weights, uniform random
choice, random small integer weights (many ties) and mixed seats; then the same for every value other
than the default of every choice and flag parameter of the game's table, at its most players; and for
the parameters that change only what a seat sees (``VIEW_VARIANTS``), the observation at every
decision and a determinisation of it.

    python -m tests.game_fingerprints           # print the hashes
    python -m tests.game_fingerprints --write   # store them in game_fingerprints.json

``tests/test_engine_fingerprint.py`` compares against the stored hashes.
"""

import hashlib
from pathlib import Path

import numpy as np
from bgsim.sim import make_game
from bgsim.sim.api import POLICY_RANDOM, POLICY_WEIGHTS, CompiledPolicy
from bgsim.sim.errors import GameIdError
from bgsim.sim.registry import available_games
from bgsim.sim.rng import below
from bgsim.sim.seeding import GameSeeds
from bgsim.strategies import make_strategy

from tests.engine_fingerprint import _digest, cli, play_hashing_tables

STORED = Path(__file__).with_name("game_fingerprints.json")
GAMES = ("arkadia", "capitol")
MODES = ("greedy", "random", "mixed", "small_weights")
# Feature columns when the hashes were recorded: random weights are drawn for these as before (later
# columns weigh 0) and tables hash these only, so that a column added later changes no hash; the
# ``small_weights_all`` scenarios draw weights for every column and hash every column.
BASE_FEATURES = {"arkadia": 30}
# Parameters the choice and flag rows do not reach: seats, texts, numbers and start values that change play.
EXTRA_VARIANTS = {
    "arkadia": {"castle_placement=chosen": {"castle_placement": "chosen"}, "start_seat=1": {"start_seat": 1},
                "min_workers_in_b=0": {"min_workers_in_b": 0},
                "neutral_supply=0": {"neutral_supply": 0}, "start_gold=equal": {"start_gold": "equal"},
                "building_points=0/0/0/0/0/0/3": {"building_points": "0/0/0/0/0/0/3"}},
    "capitol": {"start_seat=1": {"start_seat": 1}, "hand_limit=5": {"hand_limit": 5},
                "start_points=equal": {"start_points": "equal"},
                "item_points=0/0/0/0/0/0/0/0/-2/0/0/0": {"item_points": "0/0/0/0/0/0/0/0/-2/0/0/0"}},
}
# Parameters that change only what a seat sees (its observation and determinisations), which the
# played games above cannot show: their views are hashed too, under each reading.
VIEW_VARIANTS = {
    "arkadia": {"screen_view=recall": {}, "screen_view=hidden": {"screen_view": "hidden"},
                "screen_view=hidden,seal_supply=physical_88": {"screen_view": "hidden", "seal_supply": "physical_88"}},
}


def _policies(game, mode: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(P,) int64 policy kinds and (P, F) int64 weights of one game's seats under ``mode``."""
    greedy = np.asarray(make_strategy("greedy", game).weights, dtype=np.int64)
    kinds = np.full(game.n_players, POLICY_WEIGHTS, dtype=np.int64)
    weights = np.zeros((game.n_players, len(greedy)), dtype=np.int64)
    for seat in range(game.n_players):
        if mode == "greedy" or (mode == "mixed" and seat % 2 == 0):
            weights[seat] = greedy
        elif mode in ("random", "mixed"):
            kinds[seat] = POLICY_RANDOM
        else:  # small_weights: many ties, every (base) feature weighed
            columns = _base(game, mode)
            weights[seat, :columns] = rng.integers(-2, 3, columns)
    return kinds, weights


def _base(game, mode: str) -> int:
    """The feature columns a scenario weighs and hashes (``BASE_FEATURES``)."""
    every = len(game.feature_names)
    return every if mode.endswith("_all") else BASE_FEATURES.get(game.name, every)


def _start(game, seed: int, g: int) -> tuple[np.ndarray, np.ndarray]:
    """Game ``g`` of a scenario of ``seed``: its fresh state and its seats' (P,) uint64 strategy streams."""
    seeds = GameSeeds(seed * 1000 + g, seed * 1000 + g + 500)
    streams = np.random.SeedSequence(seeds.strategy).generate_state(game.n_players, dtype=np.uint64)
    return game.new_state(seeds), streams


def _scenario_games(game, mode: str, n_games: int, seed: int):
    """Each game of a scenario in turn: its seats' policy kinds and weights (``_policies``), its fresh
    state and its seats' strategy streams (``_start``)."""
    rng = np.random.default_rng(seed)
    for g in range(n_games):
        kinds, weights = _policies(game, mode, rng)
        yield (kinds, weights, *_start(game, seed, g))


def compiled_fingerprint(game, mode: str, n_games: int, seed: int) -> str:
    """Hash of the final state and event log of each game played by the compiled loop."""
    h = hashlib.sha256()
    for kinds, weights, state, streams in _scenario_games(game, mode, n_games, seed):
        log = game.new_log()
        game.play_compiled(state, [CompiledPolicy(int(k), w) for k, w in zip(kinds, weights, strict=True)],
                           streams, log)
        h.update(_digest(state, log).encode())
    return h.hexdigest()[:20]


def table_fingerprint(game, mode: str, n_games: int, seed: int) -> str:
    """Hash of every candidate table of games played a decision at a time, and of each final state."""
    h = hashlib.sha256()
    for kinds, weights, state, streams in _scenario_games(game, mode, n_games, seed):
        play_hashing_tables(game, state, streams, kinds, weights, h, slice(0, _base(game, mode)))
        h.update(_digest(state).encode())
    return h.hexdigest()[:20]


def view_fingerprint(game, n_games: int, seed: int) -> str:
    """Hash of the deciding seat's observation and of one determinisation of it at every decision of
    games played a decision at a time at random."""
    h = hashlib.sha256()
    for g in range(n_games):
        state, streams = _start(game, seed, g)
        rng = np.array([streams[0]], dtype=np.uint64)
        while not game.is_over(state):
            table = game.decision(state)
            observation = game.observe(state, table.seat)
            h.update(_digest(observation.view, game.determinise(observation, rng)).encode())
            game.apply(state, table.actions[int(below(rng, 0, len(table)))].copy())
    return h.hexdigest()[:20]


def parameter_variants(name: str) -> dict[str, dict]:
    """Label -> parameters: every value but the default of every choice and flag parameter, and the
    game's ``EXTRA_VARIANTS``."""
    entry = available_games(unlisted=True)[name]
    variants = {}
    for row in entry.table.params:
        if row.kind == "choice":
            values = [v for v in row.choices if v != row.default]
        elif row.kind == "flag":
            values = [not row.default]
        else:
            continue
        for value in values:
            variants[f"{row.name}={value}"] = {row.name: value}
    return variants | EXTRA_VARIANTS.get(name, {})


def fingerprints(scale: float = 1.0, games: tuple[str, ...] = GAMES) -> dict[str, str]:
    """Every scenario's hash; ``scale`` < 1 plays fewer games (the hashes then differ)."""
    n = lambda k: max(1, int(k * scale))  # noqa: E731
    result = {}
    for name in games:
        counts = available_games(unlisted=True)[name].player_counts
        for players in counts:
            game = make_game(name, n_players=players)
            for mode in MODES + (("small_weights_all",) if name in BASE_FEATURES else ()):
                result[f"{name}/compiled/{players}p/{mode}"] = compiled_fingerprint(game, mode, n(100), 10 + players)
                result[f"{name}/tables/{players}p/{mode}"] = table_fingerprint(game, mode, n(5), 20 + players)
        for label, params in parameter_variants(name).items():
            try:
                game = make_game(name, n_players=max(counts), **params)
            except GameIdError:
                continue  # a value another parameter's default rules out: nothing to play
            for mode in ("greedy", "random"):
                result[f"{name}/variant/{label}/{mode}"] = compiled_fingerprint(game, mode, n(30), 40)
            result[f"{name}/variant/{label}/tables"] = table_fingerprint(game, "small_weights", n(2), 50)
        for label, params in VIEW_VARIANTS.get(name, {}).items():
            result[f"{name}/views/{label}"] = view_fingerprint(make_game(name, n_players=max(counts), **params), n(2),
                                                               60)
    return result


def main() -> None:
    cli(__doc__, STORED, fingerprints)


if __name__ == "__main__":
    main()
