"""Play loop: the compiled and per-decision tiers agree, the debug path catches illegal actions,
seeding is stable, and the engine runs without compilation."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.errors import IllegalActionError, StrategyError
from bgsim.sim.play import play_game
from bgsim.sim.rng import below, new_stream, next_u64, shuffle
from bgsim.sim.seeding import GameSeeds, strategy_streams
from bgsim.strategies import make_strategy


@pytest.mark.parametrize("n_players", [2, 3, 4])
@pytest.mark.parametrize("mix", [("greedy",), ("random",), ("greedy", "random")])
def test_compiled_and_per_decision_tiers_play_identical_games(n_players, mix):
    game = make_game("carpe_diem", n_players=n_players)
    seats = [make_strategy(mix[i % len(mix)], game) for i in range(n_players)]
    for seed in range(4):
        fast = play_game(game, seats, game_seeds(seed), log=True)
        slow = play_game(game, seats, game_seeds(seed), log=True, compiled=False, validate=True)
        assert (fast.state == slow.state).all()
        assert (fast.log == slow.log).all()


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_random_weights_on_every_feature_play_identical_games_in_every_tier(n_players):
    """The planning columns (next_scoring, frame_vp_open, rival_distance, planned_reward,
    fountain_open) are summed by the compiled loop without tables: same rows as the tables."""
    from bgsim.sim.games.carpe_diem.features import FEATURE_NAMES, N_BASE_FEATURES
    from bgsim.strategies.base import WeightStrategy

    game = make_game("carpe_diem", n_players=n_players)
    rng = np.random.default_rng(n_players)
    for seed in range(3):
        seats = []
        for k in range(n_players):
            weights = rng.integers(-20, 21, len(FEATURE_NAMES))
            weights[N_BASE_FEATURES:] = rng.integers(1, 40, len(FEATURE_NAMES) - N_BASE_FEATURES)
            seats.append(WeightStrategy(f"w{k}", weights))
        fast = play_game(game, seats, game_seeds(seed), log=True)
        slow = play_game(game, seats, game_seeds(seed), log=True, compiled=False, validate=True)
        assert (fast.state == slow.state).all()
        assert (fast.log == slow.log).all()


def test_an_illegal_action_raises_with_seeds_step_and_action():
    game = make_game("carpe_diem", n_players=2)

    class Cheat:
        id = "cheat"

        def choose(self, table, stream):
            return 0

        def compiled_policy(self, game):
            return None

    state = game.new_state(game_seeds(1))
    table = game.decision(state)
    bad = table.actions[0].copy()
    bad[game.action_fields.index("space")] = 99
    with pytest.raises(IllegalActionError, match=r"illegal action at decision 0 \(patrician, seat 1\)"):
        game.apply(state, bad, validate=True)
    with pytest.raises(StrategyError, match="needs 2 strategies"):
        play_game(game, [Cheat()], game_seeds(1))


def test_game_seeds_are_stable_and_distinct():
    assert game_seeds(7) == game_seeds(7)
    assert game_seeds(7) != game_seeds(8)
    a = strategy_streams(GameSeeds(1, 2), 4)
    assert a.dtype == np.uint64 and len(set(a.tolist())) == 4
    with pytest.raises(ValueError):
        game_seeds(-1)


def _splitmix_reference(state):
    mask = (1 << 64) - 1
    state = (state + 0x9E3779B97F4A7C15) & mask
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return state, z ^ (z >> 31)


def test_splitmix_stream_matches_the_reference_and_draws_stay_in_range():
    stream = new_stream(12345)
    state = 12345
    for _ in range(5):
        state, expected = _splitmix_reference(state)
        assert int(next_u64(stream, 0)) == expected
    draws = [int(below(stream, 0, 7)) for _ in range(2000)]
    assert min(draws) == 0 and max(draws) == 6
    assert abs(np.bincount(draws).std() / np.mean(np.bincount(draws))) < 0.15
    values = np.arange(20)
    shuffle(values, new_stream(3), 0)
    assert sorted(values.tolist()) == list(range(20)) and values.tolist() != list(range(20))


def test_the_engine_runs_without_compilation_and_gives_the_same_game():
    """NUMBA_DISABLE_JIT=1 is the debugging path: slow, but the same game."""
    code = (
        "import json; from bgsim.sim import make_game, game_seeds; from bgsim.sim.play import play_game; "
        "from bgsim.strategies import make_strategy; g = make_game('carpe_diem', n_players=2); "
        "p = play_game(g, [make_strategy('greedy', g)] * 2, game_seeds(3)); "
        "print(json.dumps(p.result.final_score.tolist()))"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    game = make_game("carpe_diem", n_players=2)
    compiled = play_game(game, [make_strategy("greedy", game)] * 2, game_seeds(3))
    assert json.loads(proc.stdout) == compiled.result.final_score.tolist()


class _RequiredOnly:
    """A game seen through its required members only: every optional capability is missing."""

    _CAPABILITIES = {"step", "play_compiled", "play_states", "deal_states", "pending_seats", "stack_tables",
                     "apply_best_rows", "determinise", "rollout_values", "rollout_outcomes"}

    def __init__(self, game):
        self._game = game

    def __getattr__(self, name):
        if name in self._CAPABILITIES:
            raise AttributeError(name)
        return getattr(self._game, name)


def test_a_game_without_optional_capabilities_plays_the_same_games_per_decision():
    from bgsim.sim.api import CompiledPlay, Game, LockstepBatches, Stepping, supports
    from bgsim.sim.batch import choose_tier, play_batch

    game = make_game("carpe_diem", n_players=2)
    plain = _RequiredOnly(game)
    assert isinstance(plain, Game)
    assert not any(supports(plain, c) for c in (Stepping, CompiledPlay, LockstepBatches))
    seats = [make_strategy("greedy", game), make_strategy("random", game)]
    assert choose_tier(game, seats) == "compiled" and choose_tier(plain, seats) == "per_game"
    with pytest.raises(StrategyError, match="compiled play, which carpe_diem is not"):
        choose_tier(plain, seats, "compiled")
    for seed in range(2):
        fast = play_game(game, seats, game_seeds(seed))
        slow = play_game(plain, seats, game_seeds(seed))
        assert (fast.state == slow.state).all()
    chance, streams = np.array([5, 6], dtype=np.uint64), np.array([7, 8], dtype=np.uint64)
    seat_strategy = np.array([[0, 1], [1, 0]])
    assert (play_batch(plain, seats, seat_strategy, chance, streams) ==
            play_batch(game, seats, seat_strategy, chance, streams)).all()
