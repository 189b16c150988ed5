"""The template is a game: made by ``bgsim new-game`` under a new name, with one rules test added and
nothing registered by hand, it plays, simulates, runs a seat-order study and its report, and passes
the conformance suite and its golden playthroughs. The copy lives in a private tree
(``tests/private_tree.py``).
"""

import json
import re

import pytest
from bgsim.sim.registry import available_games

from tests.private_tree import ROOT, private_tree

NAME = "copied"  # the new game: no registered game's name contains it

SEAT_ORDER = f"""
name = "copied_seat_order"
[game]
id = "{NAME}"
players = [2, 3]
[populations]
greedy = ["greedy"]
mixed = ["greedy", "patient", "random"]
[start]
vectors = ["rulebook", "equal"]
[run]
games = 48
chunk_size = 24
seed = 1
[compensation]
confirm_games = 24
bootstrap = 20
low = 0
high = 10
"""


RULES_TEST = f'''"""{NAME}'s rules tests, named by rule id."""

from bgsim.sim import game_seeds, make_game


def test_XX_SETUP_2_each_seat_is_dealt_three_cards():
    game = make_game("{NAME}", n_players=3)
    state = game.new_state(game_seeds(1))
    assert game.field(state, "hand_n")[:3].tolist() == [3, 3, 3]
'''


@pytest.mark.slow
def test_a_copy_of_the_template_is_a_complete_game(tmp_path):
    assert NAME not in available_games(unlisted=True) and "template" not in available_games(unlisted=True)
    tree = private_tree(tmp_path)
    work, repo = tree.work, tree.repo

    made = tree.run(["-m", "bgsim", "new-game", NAME])
    assert f"made game {NAME} (unlisted)" in made
    where = tree.run(["-c", "import bgsim, bgsim.sim.games as g, bgsim.strategies as s; "
                            "print(bgsim.__file__, g.__file__, s.__file__); print(*(e.name for e in g.BUILTIN))"]
                     ).splitlines()
    assert all(file.startswith(str(tree.pkg)) for file in where[0].split()), where  # the copy, not the install
    assert NAME in where[1].split()

    copies = [str(repo / "sim" / "games" / NAME), str(repo / "strategies" / NAME)]
    tree.run(["-m", "ruff", "check", "--config", str(ROOT / "pyproject.toml"), *copies])  # sorted by new-game

    (repo / "tests" / "games" / NAME / "test_rules.py").write_text(RULES_TEST, encoding="utf-8")
    entry = repo / "sim" / "games" / NAME / "__init__.py"
    entry.write_text(entry.read_text(encoding="utf-8").replace("listed=False", "listed=True"), encoding="utf-8")
    assert NAME in tree.run(["-m", "bgsim", "games"])
    trace = tree.run(["-m", "bgsim", "play", NAME, "--players", "3", "--validate", "-s",
                      "greedy,patient,search(rollouts=2, width=2)"])
    assert "== Final scoring ==" in trace and f"{NAME}/patient" in trace
    played = json.loads(tree.run(["-m", "bgsim", "play", NAME, "--players", "2", "--json"]))
    assert played["game"] == f"{NAME}(n_players=2)" and played["events"]
    table = tree.run(["-m", "bgsim", "simulate", NAME, "--players", "2", "--games", "200", "-s", "greedy,random",
                      "--out", str(work / "runs"), "--quiet"])
    assert "greedy" in table

    spec = work / "seat_order.toml"
    spec.write_text(SEAT_ORDER)
    tree.run(["-m", "bgsim", "seat-order", str(spec), "--out", str(work / "studies"), "--quiet"])
    (study,) = (work / "studies").iterdir()
    assert (study / "compensation.csv").exists()
    tree.run(["-m", "bgsim", "report", str(study)])
    assert (study / "report" / "index.html").exists()

    tree.run(["-m", "tests.golden.regenerate", NAME], cwd=repo)
    assert len(list((repo / "tests" / "games" / NAME / "golden").glob(f"{NAME}_*p_seed7.txt"))) == 3
    summary = tree.run(["-m", "pytest", "tests/test_conformance.py", "tests/golden/test_golden.py",
                        f"tests/games/{NAME}", "-k", NAME, "-q", "-p", "no:cacheprovider", "-o", "addopts="],
                       cwd=repo)
    counts = dict((word, int(n)) for n, word in re.findall(r"(\d+) (passed|failed|skipped|error)", summary))
    assert counts.get("passed", 0) >= 30 and set(counts) == {"passed"}, summary[-2000:]
