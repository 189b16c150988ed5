"""The expert of each game (``bgsim train``'s weights file in the game's strategies) and the strong
player built on it: provenance, listing, and the strong player's search. That the expert plays the
same games in every tier is a conformance test (tests/test_conformance.py)."""

import tomllib
from pathlib import Path

import pytest
from bgsim.sim import make_game
from bgsim.sim.play import play_game
from bgsim.sim.seeding import game_seeds
from bgsim.strategies import available_strategies, make_strategy, strategy_rows
from bgsim.strategies.weights import STRONG

from tests.runner.conftest import cli

EXPERT_GAMES = ["capitol", "carpe_diem"]  # Arkadia: no fit has beaten its planner yet (strategies/README.md)
ROOT = Path(__file__).resolve().parents[2]


def _provenance(name: str) -> dict:
    return tomllib.loads((ROOT / "strategies" / name / "weights" / "expert.toml").read_text())["provenance"]


@pytest.mark.parametrize("name", EXPERT_GAMES)
def test_the_expert_carries_its_provenance_and_is_listed_with_it(name, capsys):
    provenance = _provenance(name)
    game = make_game(name, n_players=provenance["players"])
    assert provenance["game"] == game.id and provenance["rules_version"] == game.version
    assert provenance["decisions"] > 1000 and provenance["rounds"] >= 1
    assert provenance["check_low"] > 0.5  # ahead of its start policy on deals no round saw
    rows = {row[0]: row for row in strategy_rows(game)}
    assert rows["expert"][1].startswith("fitted to the search") and len(rows["expert"][2]) > 5
    out = _listing(capsys, name)
    assert "expert" in out and "fitted to" in out and "strong" in out


def _listing(capsys, name: str) -> str:
    code, out, _ = cli(capsys, "strategies", name)
    assert code == 0
    return " ".join(out.split())  # the table wraps its cells


def test_strong_is_the_search_with_the_expert_inside_at_a_small_budget():
    game = make_game("capitol", n_players=2)
    strong = make_strategy("strong", game)
    assert strong.id == "capitol/strong" and strong.policy.id == "capitol/expert"
    assert (strong.width, strong.rollouts) == (STRONG["width"], STRONG["rollouts"])
    assert make_strategy("strong(rollouts=3)", game).id == "capitol/strong(rollouts=3)"
    planner = make_strategy("planner", game)
    a = play_game(game, [strong, planner], game_seeds(8))
    b = play_game(game, [strong, planner], game_seeds(8))
    assert (a.state == b.state).all() and game.is_over(a.state)
    assert {"expert", "strong"} <= {e.name for e in available_strategies(game.name)}
