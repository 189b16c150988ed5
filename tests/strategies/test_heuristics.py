"""The Carpe Diem personalities: they load, weigh every decision kind D01-D11, choose sensibly
where the rules say what is better, and the planner beats greedy."""

import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.games.carpe_diem.features import FEATURE_NAMES
from bgsim.strategies import make_strategy
from bgsim.strategies.carpe_diem import personalities

from tests.games.carpe_diem.helpers import TYPE, build_turn, cell, fresh, preset
from tests.games.carpe_diem.test_ambiguities import oriented

PERSONALITIES = [name for name in personalities() if name != "greedy"]
# Decision kinds of D01-D11 that games ask (REWARD_ORDER, D05, is rare: see its own test).
PLAYED_KINDS = {"patrician", "turn", "craftsman", "fountain", "disc", "card_order", "fulfil", "payment"}


def test_the_required_personalities_exist_and_greedy_is_the_ladder_rung():
    assert {"villa_builder", "trader", "lodging_collector", "frame_hunter", "planner"} <= set(PERSONALITIES)
    greedy = make_strategy("greedy", make_game("carpe_diem"))
    assert int(greedy.weights[FEATURE_NAMES.index("vp")]) == 10 and greedy.description.startswith("greedy")


def _tables_by_kind(strategy_id: str, n_players: int = 3, max_games: int = 12) -> dict[str, list]:
    """(features, chosen row) of every table with >= 2 rows, by kind, from games the strategy
    plays in every seat, until every kind of PLAYED_KINDS was asked (or max_games)."""
    game = make_game("carpe_diem", n_players=n_players)
    strategy = make_strategy(strategy_id, game)
    seen: dict[str, list] = {}
    for seed in range(max_games):
        state = game.new_state(game_seeds(seed))
        while not game.is_over(state):
            table = game.decision(state)
            row = strategy.choose(table, None)
            if len(table) >= 2:
                seen.setdefault(table.kind_name, []).append((table.features.copy(), row, table.actions.copy()))
            game.apply(state, table.actions[row])
        if PLAYED_KINDS <= set(seen):
            break
    return seen


@pytest.fixture(scope="module", params=PERSONALITIES)
def played(request):
    return request.param, _tables_by_kind(request.param)


def test_every_personality_has_a_description_and_scores_the_rows_of_every_kind_apart(played):
    name, seen = played
    game = make_game("carpe_diem", n_players=3)
    strategy = make_strategy(name, game)
    assert strategy.description and "\n" not in strategy.description
    assert PLAYED_KINDS <= set(seen), f"{name}: kinds never asked in the sample: {PLAYED_KINDS - set(seen)}"
    for kind in sorted(PLAYED_KINDS):
        spread = [np.ptp(strategy.score(feats)) > 0 for feats, _, _ in seen[kind]]
        assert any(spread), f"{name} gives every row of every {kind} table the same score"


def test_every_personality_pays_goods_before_coins(played):
    """CD-CARD-9: paying a unit with its own good is never worse than with a coin (D11)."""
    name, seen = played
    coins = FEATURE_NAMES.index("coins_paid")
    for feats, row, _ in seen["payment"]:
        assert feats[row, coins] == feats[:, coins].min(), f"{name} paid coins while it could pay goods"


def test_every_personality_moves_away_from_its_rival_at_the_start(played):
    """D01 before the tiles are revealed: only the distance to the other patricians tells spaces apart."""
    name, seen = played
    distance = FEATURE_NAMES.index("rival_distance")
    for feats, row, _ in seen["patrician"]:
        assert feats[row, distance] == feats[:, distance].max(), name


@pytest.mark.parametrize("name", PERSONALITIES)
def test_every_personality_lets_a_merchant_convert_the_goods_of_the_same_build(name):
    """D05 (CD-REWARD-11, AMB-11): a vineyard and a merchant lodging completed by one tile. The
    vineyard first turns its grape into a coin as well (CD-REWARD-2): 2 coins instead of a grape
    and a coin, and a coin pays for any good (CD-CARD-4)."""
    game = make_game("carpe_diem", n_players=4)
    state = fresh(game)
    tile, rot = oriented(game, {"merchant": "S", "vineyard": "N"})
    vine, rv = oriented(game, {"vineyard": "S"}, dark=True)
    half, rh = oriented(game, {"merchant": "N"}, dark=True)
    preset(game, state, 0, vine, cell(1, 2), rv)
    preset(game, state, 0, half, cell(3, 2), rh)
    build_turn(game, state, 0, tile, cell(2, 2), rot)
    table = game.decision(state)
    assert table.kind_name == "reward_order"
    strategy = make_strategy(name, game)
    assert np.ptp(strategy.score(table.features)) > 0
    chosen = table.actions[strategy.choose(table, None)]
    assert chosen[game.action_fields.index("count")] == TYPE["vineyard"]


def test_the_planner_plays_the_same_games_in_every_tier():
    """Its planning columns (next_scoring, frame_vp_open, ...) are summed by the compiled loop
    without tables; the per-decision tables must pick the very same rows."""
    from bgsim.sim.play import play_game

    for n_players in (2, 4):
        game = make_game("carpe_diem", n_players=n_players)
        seats = [make_strategy(sid, game) for sid in ("planner", "greedy", "trader", "frame_hunter")[:n_players]]
        for seed in range(3):
            fast = play_game(game, seats, game_seeds(seed), log=True)
            slow = play_game(game, seats, game_seeds(seed), log=True, compiled=False, validate=True)
            assert (fast.state == slow.state).all() and (fast.log == slow.log).all()


def test_the_planner_beats_greedy_on_paired_deals():
    """2,000 games: 1,000 deals, each played with the planner in either seat (fixed seed)."""
    from bgsim.experiments.tune import head_to_head

    game = make_game("carpe_diem", n_players=2)
    match = head_to_head(game, make_strategy("planner", game), make_strategy("greedy", game), 1000, seed=2024)
    low, high = match.interval()
    assert match.games == 2000
    assert low > 0.5, f"planner won {match.win_rate:.1%} [{low:.1%}, {high:.1%}]"
