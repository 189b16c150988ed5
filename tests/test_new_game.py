"""``bgsim new-game NAME``: the template copied under a new name, unlisted and outside the suites until
its first rules test; with one, it passes the conformance suite. Bad names and existing games are
one-line errors with exit status 2."""

import re
import shutil
from pathlib import Path

import pytest

from bgsim.cli.new_game import renamed
from tests.private_tree import ROOT, private_tree
from tests.runner.conftest import cli

NAME = "drafted"  # the new game: no registered game's name contains it

RULES_TEST = f'''"""{NAME}'s rules tests, named by rule id."""

from bgsim.sim import game_seeds, make_game


def test_XX_END_1_the_total_is_start_plus_card_plus_bonus_points():
    game = make_game("{NAME}(start_points='1/2/3')", n_players=3)
    state = game.new_state(game_seeds(4))
    while not game.is_over(state):
        game.apply(state, game.decision(state).actions[0])
    sheet = game.score_sheet(state)
    assert sheet["start"].tolist() == [1, 2, 3]
    assert (sheet["total"] == sheet["start"] + sheet["cards"] + sheet["bonus"]).all()
'''


@pytest.fixture
def checkout(tmp_path) -> Path:
    """A folder with what new-game reads: the template's two packages and a tests folder."""
    for folder in ("sim/games/_template", "strategies/_template"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "tests" / "games").mkdir(parents=True)
    return tmp_path


@pytest.mark.parametrize("name", ["Drafted", "two words", "3d", "_drafted", "drafted-game", "class", ""])
def test_a_name_that_is_no_lowercase_identifier_is_a_one_line_error(capsys, checkout, name):
    code, _, err = cli(capsys, "new-game", name, "--root", checkout)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"bgsim: error: game name {name!r} is not a lowercase identifier")
    assert sorted(p.name for p in (checkout / "sim" / "games").iterdir()) == ["_template"]


def test_an_existing_game_or_folder_is_a_one_line_error(capsys, checkout):
    code, _, err = cli(capsys, "new-game", "capitol", "--root", checkout)
    assert (code, err) == (2, "bgsim: error: a game named 'capitol' exists already\n")
    (checkout / "strategies" / NAME).mkdir()
    code, _, err = cli(capsys, "new-game", NAME, "--root", checkout)
    assert (code, err) == (2, f"bgsim: error: {checkout / 'strategies' / NAME} exists already\n")
    assert not (checkout / "sim" / "games" / NAME).exists()


def test_a_folder_without_the_template_is_a_one_line_error(capsys, tmp_path):
    code, _, err = cli(capsys, "new-game", NAME, "--root", tmp_path)
    assert code == 2 and "is no bgsim checkout" in err and err.count("\n") == 1


def test_the_copy_is_the_template_renamed_and_unlisted(capsys, checkout):
    code, printed, _ = cli(capsys, "new-game", NAME, "--root", checkout)
    assert code == 0 and f"made game {NAME} (unlisted)" in printed
    template, game = checkout / "sim" / "games" / "_template", checkout / "sim" / "games" / NAME
    assert sorted(p.relative_to(game) for p in game.rglob("*.py")) == sorted(
        p.relative_to(template) for p in template.rglob("*.py"))
    texts = "\n".join(p.read_text(encoding="utf-8") for p in [*game.rglob("*.*"), *(checkout / "strategies" / NAME)
                                                               .rglob("*.*")] if p.is_file())
    assert not re.search(r"[Tt]emplate", texts)  # "TEMPLATE (FILL IN ...)" in its docstring stays, to be filled in
    assert f'TABLE = ParamTable("{NAME}"' in (game / "params.py").read_text(encoding="utf-8")
    assert "class DraftedGame(" in (game / "game.py").read_text(encoding="utf-8")
    assert re.search(r"ENTRY = GameEntry\(TABLE, make, .*listed=False", (game / "__init__.py").read_text())
    assert (checkout / "tests" / "games" / NAME / "__init__.py").exists()
    assert not list((checkout / "tests" / "games" / NAME).glob("test_*.py"))  # its rules tests are to be written


def test_renaming_keeps_the_title_case_of_a_name_with_underscores():
    assert renamed("class TemplateGame: name = 'template' in sim/games/_template", "big_city") == (
        "class BigCityGame: name = 'big_city' in sim/games/big_city")


@pytest.mark.slow
def test_a_new_game_passes_the_conformance_suite_once_its_rules_tests_exist(tmp_path):
    tree = private_tree(tmp_path)
    repo = tree.repo
    assert f"made game {NAME} (unlisted)" in tree.run(["-m", "bgsim", "new-game", NAME])
    suites = ["-c", "from tests.suite import suite_games; print(*suite_games())"]
    assert NAME not in tree.run(suites, cwd=repo).split()  # unlisted, no rules test: left out
    assert NAME not in tree.run(["-m", "bgsim", "games"])

    (repo / "tests" / "games" / NAME / "test_rules.py").write_text(RULES_TEST, encoding="utf-8")
    assert NAME in tree.run(suites, cwd=repo).split()
    tree.run(["-m", "tests.golden.regenerate", NAME], cwd=repo)
    assert len(list((repo / "tests" / "games" / NAME / "golden").glob(f"{NAME}_*p_seed7.txt"))) == 3
    summary = tree.run(["-m", "pytest", "tests/test_conformance.py", "tests/golden/test_golden.py",
                        f"tests/games/{NAME}", "-k", NAME, "-q", "-p", "no:cacheprovider", "-o", "addopts="], cwd=repo)
    counts = dict((word, int(n)) for n, word in re.findall(r"(\d+) (passed|failed|skipped|error)", summary))
    assert counts.get("passed", 0) >= 30 and set(counts) == {"passed"}, summary[-2000:]
