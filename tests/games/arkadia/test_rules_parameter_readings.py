"""Rules under the parameters' other readings: the turn after a chosen castle site (AMB-10), and
games in which action B may place no worker (AMB-2's what-if, ``min_workers_in_b = 0``): the stall
rule's reading of such a turn ends them, and a game that still never ends stops at the loops'
bound with a one-line error instead of hanging."""

import numpy as np
import pytest
from bgsim.sim import make_game
from bgsim.sim.batch import play_batch
from bgsim.sim.errors import BgsimError, RunawayGameError
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.play import play_game
from bgsim.sim.seeding import game_seeds, strategy_streams
from bgsim.strategies import make_strategy

from tests.runner.conftest import cli


def _decisions(game_id: str, seed: int, players: int, count: int) -> list[str]:
    """The first ``count`` decision kinds of the game, every seat by planner."""
    game = make_game(game_id, n_players=players)
    planner = make_strategy("planner", game)
    seeds = game_seeds(seed)
    state = game.new_state(seeds)
    streams = strategy_streams(seeds, players)
    table = game.decision(state)
    kinds = [table.kind_name]
    while len(kinds) < count and not game.is_over(state):
        table = game.step(state, planner.choose(table, streams[table.seat:table.seat + 1]))
        kinds.append(table.kind_name)
    return kinds


def test_ark_turn_2_after_a_chosen_castle_site_the_first_turn_starts_with_part_1():
    kinds = _decisions("arkadia(castle_placement=chosen)", 1478, 2, 2)
    assert kinds == ["castle_site", "part1"]


def test_ark_turn_3_a_chosen_castle_site_leaves_the_start_player_to_take_part_1():
    game = make_game("arkadia(castle_placement=chosen)", n_players=2)
    seeds = game_seeds(1478)
    state = game.new_state(seeds)
    start = game.decision(state).seat
    table = game.step(state, 0)
    assert table.kind == d.PART1 and table.seat == start
    assert d.DO_SKIP not in set(table.actions[:, d.A_KIND].tolist())  # a legal A or B is there: no pass


def _play(game_id: str, seed: int, players: int = 2):
    game = make_game(game_id, n_players=players)
    return play_game(game, [make_strategy("planner", game)] * players, game_seeds(seed))


def test_amb_2_a_b_without_workers_is_an_idle_turn_so_passing_seats_end_the_game():
    played = _play("arkadia(min_workers_in_b=0)", 1082)
    assert played.game.is_over(played.state)


def test_amb_2_empty_b_turn_action_lets_passing_seats_play_on_until_the_bound_stops_them():
    with pytest.raises(RunawayGameError) as info:
        _play("arkadia(empty_b_turn=action,min_workers_in_b=0)", 1082)
    message = str(info.value)
    assert "\n" not in message and isinstance(info.value, BgsimError)
    assert message.startswith("arkadia(") and "min_workers_in_b=0" in message and "empty_b_turn=action" in message
    assert message.endswith("game 1 (seed chance " + str(game_seeds(1082).chance) + ") did not end within 5000 "
                            "decisions")


def test_amb_2_a_runaway_game_is_one_line_and_exit_status_2_on_the_command_line(capsys):
    code, out, err = cli(capsys, "play", "arkadia(min_workers_in_b=0,empty_b_turn=action)", "--players", "2",
                         "--seed", "1082", "--strategies", "planner")
    assert code == 2 and out == ""
    lines = [line for line in err.splitlines() if line.startswith("bgsim: error:")]
    assert len(lines) == 1
    assert lines[0].endswith("game 1 (seed 1082) did not end within 5000 decisions")


def test_amb_5_a_runaway_game_stops_at_the_bound_in_the_per_decision_loop_too():
    game = make_game("arkadia(min_workers_in_b=0,empty_b_turn=action)", n_players=2)
    game.max_decisions = 40  # a tiny bound: the first default-rule game would end far later
    planner = make_strategy("planner", game)
    with pytest.raises(RunawayGameError, match=r"game 1 \(seed chance \d+\) did not end within 40 decisions$"):
        play_game(game, [planner, planner], game_seeds(7), compiled=False)


def test_amb_5_a_runaway_game_in_a_batch_names_its_place_and_chance_seed():
    game = make_game("arkadia(min_workers_in_b=0,empty_b_turn=action)", n_players=2)
    planner = make_strategy("planner", game)
    seeds = game_seeds(1082)
    streams = strategy_streams(seeds, 2)[None, :].repeat(2, axis=0)
    chance = np.array([seeds.chance, seeds.chance], dtype=np.uint64)
    with pytest.raises(RunawayGameError, match=rf"game 1 \(seed chance {seeds.chance}\) did not end within 5000"):
        game.play_states(chance, streams, np.zeros((2, 2), dtype=np.int64), [planner.compiled_policy(game)])


def test_amb_5_a_runaway_game_stops_at_the_bound_in_lockstep_batches_too():
    game = make_game("arkadia(min_workers_in_b=0,empty_b_turn=action)", n_players=2)
    greedy = make_strategy("greedy", game)
    chance = np.array([11, 12, 13], dtype=np.uint64)
    seat_strategy = np.zeros((3, 2), dtype=np.int64)
    finished = play_batch(game, [greedy], seat_strategy, chance, chance + 100, tier="vectorised")
    assert all(game.is_over(state) for state in finished)  # under the bound every game ends as it would
    game.max_decisions = 40  # a tiny bound that every game passes
    with pytest.raises(RunawayGameError, match=r"game 1 \(seed chance 11\) did not end within 40 decisions$"):
        play_batch(game, [greedy], seat_strategy, chance, chance + 100, tier="vectorised")
