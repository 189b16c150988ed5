"""Rules under the parameters' other readings: the turn after a chosen castle site (AMB-10)."""

from bgsim.sim import make_game
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.seeding import game_seeds, strategy_streams
from bgsim.strategies import make_strategy


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
