"""``bgsim new-game NAME``: a new game package, copied from the template with its names replaced.

The template (``sim/games/_template/`` and ``strategies/_template/``) is a complete small game. The
copy is the game ``NAME``, unlisted (its entry says ``listed=False``): it builds and plays, but
``bgsim games`` omits it and the default test suites leave it out until ``tests/games/NAME/`` holds
a rules test; the conformance suite then runs it, and its entry can say ``listed=True``.
Registered on the main command line (bgsim/cli/).
"""

import keyword
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from bgsim.cli.common import app, out
from bgsim.sim.errors import BgsimError

__all__ = ["copy_template", "new_game", "renamed"]

TEMPLATE = "_template"
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]*")  # a registry name: a lowercase identifier
COPIED_SUFFIXES = (".py", ".md", ".toml")  # the files whose text names the template
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc")


def repository() -> Path:
    """The folder holding ``sim/`` and ``strategies/`` of the bgsim that runs (a checkout, with ``tests/``)."""
    from bgsim.sim.numba_cache import ROOT

    return ROOT


def renamed(text: str, name: str) -> str:
    """The template's names in ``text`` replaced by the game's: ``_template`` and ``template`` by
    ``name``, ``Template`` by its title-case form (``TemplateGame`` becomes ``<Name>Game``)."""
    title = "".join(part.capitalize() for part in name.split("_"))
    return text.replace("_template", name).replace("template", name).replace("Template", title)


def check_name(name: str, root: Path) -> None:
    """A one-line BgsimError unless ``name`` can name a new game in the repository at ``root``."""
    from bgsim.sim.registry import available_games

    if not NAME_PATTERN.fullmatch(name) or keyword.iskeyword(name):
        raise BgsimError(f"game name {name!r} is not a lowercase identifier (letters, digits and _, a letter first)")
    if name in available_games(unlisted=True):
        raise BgsimError(f"a game named {name!r} exists already")
    for folder in _targets(root, name):
        if folder.exists():
            raise BgsimError(f"{folder} exists already")
    missing = [path for path in (root / "sim" / "games" / TEMPLATE, root / "strategies" / TEMPLATE, root / "tests")
               if not path.is_dir()]
    if missing:
        raise BgsimError(f"{root} is no bgsim checkout with the template and tests: {missing[0]} is missing")


def _targets(root: Path, name: str) -> tuple[Path, Path, Path]:
    """The game's package, its strategies and its test folder."""
    return root / "sim" / "games" / name, root / "strategies" / name, root / "tests" / "games" / name


def copy_template(root: Path, name: str) -> tuple[Path, Path, Path]:
    """Copy the template's packages under ``name`` with every name replaced, and make the game's empty
    test folder; the three folders made."""
    rules, strategies, tests = _targets(root, name)
    for source, target in ((root / "sim" / "games" / TEMPLATE, rules), (root / "strategies" / TEMPLATE, strategies)):
        shutil.copytree(source, target, ignore=SKIP)
        for path in target.rglob("*"):
            if path.suffix in COPIED_SUFFIXES:
                path.write_text(renamed(path.read_text(encoding="utf-8"), name), encoding="utf-8")
    tests.mkdir(parents=True)
    (tests / "__init__.py").write_text("", encoding="utf-8")
    return rules, strategies, tests


def _sort_imports(folders: tuple[Path, ...]) -> bool:
    """Sort the renamed imports again (the new name sorts elsewhere than ``_template``), when the
    project's linter is installed; False when it is not."""
    try:
        done = subprocess.run([sys.executable, "-m", "ruff", "check", "--fix", "--select", "I", "--quiet",
                               *map(str, folders)], capture_output=True, text=True)
    except OSError:
        return False
    return done.returncode == 0


@app.command("new-game")
def new_game(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The new game's registry name, a lowercase identifier.")],
    root: Annotated[Path | None, typer.Option(help="The bgsim checkout to add it to (default: the one running).",
                                              show_default=False)] = None,
) -> None:
    """Start a new game as a copy of the template, unlisted until its rules tests exist."""
    root = repository() if root is None else root.resolve()
    check_name(name, root)
    folders = copy_template(root, name)
    sorted_again = _sort_imports(folders[:2])
    out.print(f"made game {name} (unlisted), a copy of the template:", highlight=False)
    for folder in folders:
        out.print(f"  {folder}", highlight=False)
    # one step a line pair, each line under 80 columns with a name of up to 20 characters
    steps = [("the rules: every place marked FILL IN", f"sim/games/{name}/README.md lists every step"),
             ("its rules tests, one per rule id, named after it", f"tests/games/{name}/test_XX_TURN_2_...py"),
             ("its golden playthroughs", f"python -m tests.golden.regenerate {name}"),
             ("then listed=True in its ENTRY shows it in `bgsim games`", f"sim/games/{name}/__init__.py")]
    if not sorted_again:
        steps.insert(0, ("the renamed imports, sorted again", f"ruff check --fix sim/games/{name} strategies/{name}"))
    out.print("next:", highlight=False)
    for what, where in steps:
        out.print(f"  {what}:\n      {where}", highlight=False)
