"""Fingerprints of played games: one hash per scenario that changes whenever any game changes.

Performance work on the kernels must leave every game bit-identical. The scenarios cover the
compiled loop (``play_into_states`` and ``play_to_end``) with the greedy weights, uniform random
choice, random small integer weights (many ties, every feature weighed) and mixed seats, for
2, 3 and 4 players and for parameter variants that change candidate generation; the
per-decision table path (every candidate table of a game is hashed, not only the final
state); and event logs.

    python -m tests.engine_fingerprint           # print the hashes
    python -m tests.engine_fingerprint --write   # store them in engine_fingerprint.json

``tests/test_engine_fingerprint.py`` compares against the stored hashes.
"""

import argparse
import hashlib
import json
from pathlib import Path

import numpy as np
from bgsim.sim import make_game
from bgsim.sim.api import POLICY_RANDOM, POLICY_WEIGHTS, CompiledPolicy
from bgsim.sim.seeding import GameSeeds
from bgsim.strategies import make_strategy

STORED = Path(__file__).with_name("engine_fingerprint.json")

# Only the state fields that existed when the hashes were recorded are hashed, so fields added
# later (caches, scratch) do not change the fingerprint. Likewise for feature columns: random
# weights are drawn for the first N_BASE_FEATURES columns as before (later columns weigh 0), and
# tables hash those columns only; the ``*_all`` scenarios draw weights for every column.
BASE_STATE_SIZE = 3494

PARAM_VARIANTS = {
    "bread_then_step": {"bread_target_must_have_tiles": False},
    "full_loop_bread": {"full_loop": "bread_else_stay"},
    "first_tile_store": {"first_tile_may_be_stored": True},
    "craftsman_optional_no_store": {"craftsman_optional": True, "craftsman_tile_may_be_stored": False},
    "landscape_limits": {"landscape_max_tiles": 3, "landscape_reward_cap": 2},
    "overflow_admin_physical": {"track_overflow_vp": "administrator_only", "supply_limits": "physical",
                                "banner_track_last": 12},
    "straddle_one_task": {"frame_line_mode": "straddle", "feature_scores_one_task_only": True},
    "fixed_order_after_reveal": {"reward_order": "fixed", "patrician_placement": "after_reveal"},
}


def _digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str(a.dtype).encode() + str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:20]


def _policies(game, mode: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(P,) int64 policy kinds and (P, F) int64 weights for one game of ``mode``."""
    from bgsim.sim.games.carpe_diem.features import N_BASE_FEATURES, N_FEATURES

    n = game.n_players
    greedy = np.asarray(make_strategy("greedy", game).weights, dtype=np.int64)
    kinds = np.zeros(n, dtype=np.int64)
    weights = np.zeros((n, N_FEATURES), dtype=np.int64)
    for seat in range(n):
        if mode == "greedy" or (mode == "mixed" and seat % 2 == 0):
            kinds[seat] = POLICY_WEIGHTS
            weights[seat] = greedy
        elif mode == "random" or mode == "mixed":
            kinds[seat] = POLICY_RANDOM
        elif mode == "small_weights":  # many ties; every base feature, including the movement ones
            kinds[seat] = POLICY_WEIGHTS
            weights[seat, :N_BASE_FEATURES] = rng.integers(-2, 3, N_BASE_FEATURES)
        elif mode == "large_weights":
            kinds[seat] = POLICY_WEIGHTS
            weights[seat, :N_BASE_FEATURES] = rng.integers(-50, 51, N_BASE_FEATURES)
        elif mode == "small_weights_all":
            kinds[seat] = POLICY_WEIGHTS
            weights[seat] = rng.integers(-2, 3, N_FEATURES)
        elif mode == "large_weights_all":
            kinds[seat] = POLICY_WEIGHTS
            weights[seat] = rng.integers(-50, 51, N_FEATURES)
    return kinds, weights


def compiled_fingerprint(game, mode: str, n_games: int, seed: int) -> str:
    """Hash of the final scores and ranks of a batch (``play_into_states``), and of every final
    state played by ``play_to_end``."""
    from bgsim.sim.games.carpe_diem.kernels.setup import new_game
    from bgsim.sim.games.carpe_diem.state import FIN_TOTAL, RANK

    rng = np.random.default_rng(seed)
    chance = np.random.SeedSequence(seed).generate_state(n_games, dtype=np.uint64)
    streams = np.random.SeedSequence([seed, 1]).generate_state(n_games * game.n_players, dtype=np.uint64)
    streams = streams.reshape(n_games, game.n_players)
    kinds, weights = _policies(game, mode, rng)
    seat_strategy = np.tile(np.arange(game.n_players, dtype=np.int64), (n_games, 1))  # seat i plays policy i
    states = np.empty((n_games, game.state_size), dtype=np.int32)
    game.kernels.LOOPS.play_into_states(game.deal_args, game.rules_args, chance, streams.copy(), seat_strategy,
                                        kinds, weights, game._feats, game._acts, game._no_log, states)
    n = game.n_players
    out = np.stack([states[:, FIN_TOTAL: FIN_TOTAL + n], states[:, RANK: RANK + n]], axis=2).astype(np.int32)
    h = hashlib.sha256(_digest(out).encode())
    for g in range(n_games):
        s = new_game(game.tables, game.param_array, chance[g], game.empty_slots)
        game.kernels.LOOPS.play_to_end(s, game.rules_args, kinds, weights, streams[g].copy(), game._feats,
                                       game._acts, game._no_log)
        h.update(_digest(s[:BASE_STATE_SIZE]).encode())
    return h.hexdigest()[:20]


def table_fingerprint(game, mode: str, n_games: int, seed: int) -> str:
    """Hash of every candidate table (kind, seat, features, actions) of games played per decision."""
    from bgsim.sim.games.carpe_diem.features import N_BASE_FEATURES

    columns = slice(None) if mode.endswith("_all") else slice(0, N_BASE_FEATURES)
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    for g in range(n_games):
        kinds, weights = _policies(game, mode, rng)
        seeds = GameSeeds(seed * 1000 + g, seed * 1000 + g + 500)
        state = game.new_state(seeds)
        streams = np.random.SeedSequence(seeds.strategy).generate_state(game.n_players, dtype=np.uint64)
        play_hashing_tables(game, state, streams, kinds, weights, h, columns)
        h.update(_digest(state[:BASE_STATE_SIZE]).encode())
    return h.hexdigest()[:20]


def play_hashing_tables(game, state: np.ndarray, streams: np.ndarray, kinds: np.ndarray, weights: np.ndarray, h,
                        columns: slice = slice(None)) -> None:
    """Play ``state`` to its end a decision at a time, each seat by its policy (``kinds`` (P,) int64,
    ``weights`` (P, F) int64, ``streams`` (P,) uint64), adding every candidate table (kind, seat, the
    feature ``columns``, actions) to the hash ``h``."""
    from bgsim.sim.rng import below

    while not game.is_over(state):
        table = game.decision(state)
        h.update(_digest(np.array([table.kind, table.seat]), table.features[:, columns], table.actions).encode())
        seat = table.seat
        if kinds[seat] == POLICY_RANDOM:
            row = int(below(streams, seat, len(table)))
        else:
            row = int(np.argmax(table.features.astype(np.int64) @ weights[seat]))
        game.apply(state, table.actions[row])


def log_fingerprint(game, mode: str, n_games: int, seed: int) -> str:
    """Hash of the event logs of games played by ``play_compiled``."""
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    for g in range(n_games):
        kinds, weights = _policies(game, mode, rng)
        policies = [CompiledPolicy(int(k), w) for k, w in zip(kinds, weights, strict=True)]
        seeds = GameSeeds(seed * 1000 + g, seed * 1000 + g + 500)
        state = game.new_state(seeds)
        streams = np.random.SeedSequence(seeds.strategy).generate_state(game.n_players, dtype=np.uint64)
        log = game.new_log()
        game.play_compiled(state, policies, streams, log)
        h.update(_digest(log, state[:BASE_STATE_SIZE]).encode())
    return h.hexdigest()[:20]


def fingerprints(scale: float = 1.0) -> dict[str, str]:
    """Every scenario's hash; ``scale`` < 1 plays fewer games (the hashes then differ)."""
    n = lambda k: max(1, int(k * scale))  # noqa: E731
    result = {}
    for players in (2, 3, 4):
        game = make_game("carpe_diem", n_players=players)
        for mode in ("greedy", "random", "mixed", "small_weights", "large_weights", "small_weights_all",
                     "large_weights_all"):
            result[f"compiled/{players}p/{mode}"] = compiled_fingerprint(game, mode, n(300), 10 + players)
        for mode in ("greedy", "random", "small_weights", "small_weights_all"):
            result[f"tables/{players}p/{mode}"] = table_fingerprint(game, mode, n(7), 20 + players)
        result[f"log/{players}p/mixed"] = log_fingerprint(game, "mixed", n(5), 30 + players)
    for name, params in PARAM_VARIANTS.items():
        game = make_game("carpe_diem", n_players=4, **params)
        for mode in ("greedy", "random", "small_weights", "small_weights_all"):
            result[f"variant/{name}/{mode}"] = compiled_fingerprint(game, mode, n(60), 40)
        result[f"variant/{name}/tables"] = table_fingerprint(game, "small_weights", n(2), 50)
        result[f"variant/{name}/tables_all"] = table_fingerprint(game, "small_weights_all", n(2), 50)
    return result


def main() -> None:
    cli(__doc__, STORED, fingerprints)


def cli(doc: str, stored_path: Path, compute) -> None:
    """Print every scenario's hash of ``compute()``, marking those that differ from ``stored_path``;
    with ``--write``, store them there first."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"store the hashes in {stored_path.name}")
    args = parser.parse_args()
    result = compute()
    if args.write:
        stored_path.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    stored = json.loads(stored_path.read_text()) if stored_path.exists() else {}
    width = max(map(len, result), default=0) + 1
    for key, value in result.items():
        mark = "" if stored.get(key) == value else "   <-- differs from stored"
        print(f"{key:<{width}} {value}{mark}")


if __name__ == "__main__":
    main()
