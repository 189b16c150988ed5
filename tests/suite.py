"""Which games the default suites run, and a game's rules tests.

A game's tests live in ``tests/games/<game>/``: its rules tests, each a test function named after a
rule id its spec page cites (``test_XX_TURN_2_...`` for XX-TURN-2, in either case), and its golden
playthroughs in ``golden/``. The conformance suite, the golden playthroughs and the compile step
run every listed game and every unlisted one with a rules test: a game made by ``bgsim new-game``
is unlisted and joins them with its first rules test, while a game kept for the tests (Sealed
Bids) has its own. A listed game without a rules test fails the conformance suite.
"""

import ast
import inspect
import re
from pathlib import Path

from bgsim.sim.registry import available_games

TESTS_DIR = Path(__file__).resolve().parent
RULE_ID = re.compile(r"\b([A-Z]{2,4}(?:-[A-Z]+)+-\d+)\b")  # XX-TURN-2, CAP-AUCTION-7, TV-CAP-6


def game_test_folder(name: str) -> Path:
    """``tests/games/<name>/``: the game's rules tests and its golden playthroughs."""
    return TESTS_DIR / "games" / name


def spec_page(name: str) -> Path:
    """The game's spec page, the README.md beside the module of its factory."""
    return Path(inspect.getfile(available_games(unlisted=True)[name].factory)).parent / "README.md"


def rule_ids(name: str) -> set[str]:
    """The rule ids the game's spec page cites."""
    page = spec_page(name)
    return set(RULE_ID.findall(page.read_text(encoding="utf-8"))) if page.exists() else set()


def _test_functions(folder: Path) -> list[str]:
    names = []
    for path in sorted(folder.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                names.append(node.name)
    return names


def rules_tests(name: str) -> list[str]:
    """The test functions in the game's test folder named after one of its rule ids: ``test_`` then the
    id with ``_`` for ``-``, then the end of the name or ``_`` (so XX-TURN-1 is not XX-TURN-12)."""
    folder = game_test_folder(name)
    if not folder.is_dir():
        return []
    stems = [rule.replace("-", "_").lower() for rule in rule_ids(name)]
    return [test for test in _test_functions(folder)
            if any(re.fullmatch(rf"test_{stem}(_.*)?", test.lower()) for stem in stems)]


def suite_games() -> list[str]:
    """The games the default suites run, in the registry's order: listed ones, and unlisted ones with a
    rules test."""
    return [name for name, entry in available_games(unlisted=True).items() if entry.listed or rules_tests(name)]
