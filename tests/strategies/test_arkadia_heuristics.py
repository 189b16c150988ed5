"""The Arkadia personalities: they load with a one-line description, weigh the rows of every
decision kind they meet, each does what its name says, and the planner beats greedy."""

import json
from pathlib import Path

import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import features as f
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.kernels.board import put_worker
from bgsim.sim.games.arkadia.kernels.castle import place_stone
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.strategies import make_strategy
from bgsim.strategies.arkadia import BEST_HEURISTIC, personalities

from tests.games.arkadia.helpers import COLS, NO_LOG, act, placement, table

PERSONALITIES = ["builder", "worker_investor", "castle_steerer", "planner"]
# The decision kinds default games ask with more than one row (castle_site and tents need other params).
PLAYED_KINDS = {"part1", "put_worker", "stone", "refill", "banner", "cash"}
CLOTH, SPICE, CARPENTER, SILVERSMITH = range(4)


def test_the_personalities_exist_with_one_line_descriptions_and_the_planner_is_the_best():
    assert set(PERSONALITIES) | {"greedy"} <= set(personalities())
    game = make_game("arkadia", n_players=2)
    for name in PERSONALITIES:
        strategy = make_strategy(name, game)
        assert strategy.description.startswith(name.replace("_", " ")) and "\n" not in strategy.description
    assert BEST_HEURISTIC == "planner"


def _tables_by_kind(name: str, games: int = 3) -> dict[str, list]:
    """(features, chosen row) of every table with >= 2 rows, by kind, from 2-player games the
    strategy plays in both seats."""
    game = make_game("arkadia", n_players=2)
    strategy = make_strategy(name, game)
    seen: dict[str, list] = {}
    for seed in range(games):
        state = game.new_state(game_seeds(seed))
        while not game.is_over(state):
            table = game.decision(state)
            row = strategy.choose(table, None)
            if len(table) >= 2:
                seen.setdefault(table.kind_name, []).append((table.features.copy(), row))
            game.apply(state, table.actions[row])
    return seen


@pytest.fixture(scope="module", params=PERSONALITIES)
def played(request):
    return request.param, _tables_by_kind(request.param)


def test_every_personality_scores_the_rows_of_every_kind_it_meets_apart(played):
    name, seen = played
    strategy = make_strategy(name, make_game("arkadia", n_players=2))
    assert PLAYED_KINDS <= set(seen), f"{name}: kinds never asked: {PLAYED_KINDS - set(seen)}"
    for kind in sorted(seen):
        assert any(np.ptp(strategy.score(feats)) > 0 for feats, _ in seen[kind]), f"{name}: every {kind} row ties"


def _part1_share(name: str, column: str, games: int = 3) -> float:
    """The share of part-1 turns, among those that offer a row with ``column``, in which the
    personality takes such a row (2 players, it plays both seats)."""
    seen = _tables_by_kind(name, games)
    j = f.FEATURE_NAMES.index(column)
    could = [(feats, row) for feats, row in seen["part1"] if feats[:, j].any()]
    return sum(int(feats[row, j]) for feats, row in could) / len(could)


def test_the_builder_builds_almost_every_turn_it_can_and_the_investor_places_workers_more():
    builds = _part1_share("builder", "build")
    assert builds >= 0.9
    assert _part1_share("worker_investor", "workers") > 1 - builds


def _game(n_players=2):
    """Arkadia's kernels on a dealt game with the castle at rows 4-6, columns 6-9 (cloth printed
    on fields 0 and 9, spice on 1 and 8, fields 4 and 5 blank)."""
    game = make_game("arkadia", n_players=n_players)
    p = Params.from_dict({"n_players": n_players, "castle_placement": "4,6,wide"}).to_array()
    return game.table, p, new_game(game.table, p, np.uint64(11), NO_LOG)


def _choice(name, s, t, p):
    """The row the personality takes (the first best, as ``WeightStrategy.choose``)."""
    feats, acts = table(s, t, p)
    strategy = make_strategy(name, make_game("arkadia", n_players=2))
    return feats, acts, int(np.argmax(strategy.score(feats)))


def test_the_worker_investor_closes_a_building_with_its_own_worker_where_it_is_paid():
    """Seat 0 placed a cloth residence at (3, 6)(3, 7) on the castle's edge and a spice residence
    at (2, 8)(2, 9); 2 of the cloth residence's 4 free cells are taken. Seat 1, with own and neutral
    workers, takes action B around it: its first worker goes on (2, 7), next to both buildings
    (two payouts to come), as an own worker; the second, an own worker again, completes it."""
    t, p, s = _game()
    cloth, spice = 0, next(c for c in range(40) if t[st.T_CARD + 2 * c] == 0 and t[st.T_CARD + 2 * c + 1] == SPICE)
    for card, cells in ((cloth, [(3, 6), (3, 7)]), (spice, [(2, 8), (2, 9)])):
        if s[st.CARD_LOC + card] != st.IN_HAND:
            s[st.CARD_LOC + card] = st.IN_HAND
            s[st.HAND_N] += 1
        s[st.SEAT] = 0
        act(s, t, p, d.DO_BUILD, card=card, placement=placement(t, 0, cells))
        act(s, t, p, d.DO_TAKE, slot=-1)
        act(s, t, p, d.DO_BANNER, count=0)
    for r, c in ((3, 5), (3, 8)):
        put_worker(s, r * COLS + c, st.NEUTRAL)
    s[st.NEUTRAL_SCREEN + 1] = 2
    act(s, t, p, d.DO_WORKERS, building=0)
    feats, acts, row = _choice("worker_investor", s, t, p)
    assert acts[row, d.A_KIND] == d.DO_PUT and acts[row, d.A_NEUTRAL] == 0 and acts[row, d.A_CELL] == 2 * COLS + 7
    act(s, t, p, d.DO_PUT, cell=2 * COLS + 7, neutral=0)
    feats, acts, row = _choice("worker_investor", s, t, p)
    assert acts[row, d.A_KIND] == d.DO_PUT and acts[row, d.A_NEUTRAL] == 0 and feats[row, f.F_MY_PAYOUT] == 3


@pytest.mark.parametrize("held", [CLOTH, SPICE, CARPENTER, SILVERSMITH])
def test_the_castle_steerer_raises_the_family_it_holds_and_lowers_one_it_does_not(held):
    t, p, s = _game()
    s[st.PHASE], s[st.SEAT], s[st.STONES_OWED] = d.STONE, 0, 1
    s[st.SEALS + held] = 4
    feats, acts, row = _choice("castle_steerer", s, t, p)
    assert acts[row, d.A_FAMILY] == held and feats[row, f.F_MY_GOLD_CHANGE] == 4
    assert feats[row, f.F_LOWERS_OTHER] == 1  # on a field printed with a family it holds no seal of


def _banner_position(level_2: bool):
    """Seat 0 holds 3 cloth seals and its turn's banner is pending. Early: an empty castle, cloth
    worth 2 and able to rise. Late: level 1 full, cloth on top of 4 fields and 4 of level 2's 10
    stones placed on other fields: cloth is worth 4 and its 4 fields are all still to be covered."""
    t, p, s = _game()
    s[st.SEALS + CLOTH] = 3
    if level_2:
        tops = [CLOTH, CLOTH, CLOTH, CLOTH, SPICE, SPICE, CARPENTER, CARPENTER, SILVERSMITH, SILVERSMITH]
        for field, family in enumerate(tops):
            place_stone(s, family, field)
        for field, family in ((4, SPICE), (5, SPICE), (6, CARPENTER), (7, SILVERSMITH)):
            place_stone(s, family, field)
        s[st.STONE_SUPPLY + 1 * 4 + CLOTH] = 0  # cloth's level-2 stones are gone: it cannot rise
    s[st.PHASE], s[st.SEAT] = d.BANNER, 0
    return t, p, s


def test_the_planner_cashes_a_high_value_that_can_only_fall_and_keeps_seals_that_can_rise():
    t, p, s = _banner_position(level_2=True)
    assert int(make_game("arkadia", n_players=2).seal_value(s, CLOTH)) == 4
    feats, acts, row = _choice("planner", s, t, p)
    assert acts[row, d.A_COUNT] == 1  # the banner
    act(s, t, p, d.DO_BANNER, count=1)
    feats, acts, row = _choice("planner", s, t, p)
    assert s[st.PHASE] == d.CASH and acts[row, d.A_COUNT] == 3
    t, p, s = _banner_position(level_2=False)
    s[st.PHASE] = d.CASH
    s[st.CASH_FAMILY] = CLOTH
    feats, acts, row = _choice("planner", s, t, p)
    assert acts[row, d.A_COUNT] == 0  # worth 2, and its stones are all still to come


def test_the_planner_beats_greedy_on_paired_deals():
    """400 games: 200 deals, each played with the planner in either seat (fixed seed)."""
    from bgsim.experiments.tune import head_to_head

    game = make_game("arkadia", n_players=2)
    match = head_to_head(game, make_strategy("planner", game), make_strategy("greedy", game), 200, seed=2024)
    low, high = match.interval()
    assert match.games == 400
    assert low > 0.5, f"planner won {match.win_rate:.1%} [{low:.1%}, {high:.1%}]"


def test_the_search_player_plays_a_game():
    from bgsim.sim.play import play_game

    game = make_game("arkadia", n_players=2)
    search = make_strategy("search(width=2, rollouts=1)", game)
    result = play_game(game, [search, make_strategy(BEST_HEURISTIC, game)], game_seeds(3))
    assert game.is_over(result.state)


def test_the_committed_ladder_shows_each_rung_significantly_above_the_one_below():
    """reports/examples/arkadia/ladder matches the ladder spec, and every step up is a significant
    head-to-head win rate above 50 %."""
    root = Path(__file__).resolve().parents[2]
    summary = json.loads((root / "reports" / "examples" / "arkadia" / "ladder" / "summary.json").read_text())
    rungs = ["random", "greedy", BEST_HEURISTIC, "search"]
    steps = [(s["lower"], s["upper"], s["low"], s["significant"]) for s in summary["neighbours"]]
    assert [(lower, upper) for lower, upper, *_ in steps] == list(zip(rungs, rungs[1:], strict=False))
    for lower, upper, low, significant in steps:
        assert significant and low > 0.5, (lower, upper)
