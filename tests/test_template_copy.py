"""The template is a game: copied under a new name, with the names replaced as its README says and
nothing registered by hand, it plays, simulates, runs a seat-order study and its report, and
passes the conformance suite and its golden playthroughs.

The copy never enters this working tree, where parallel test processes would find it. It lives
in a private tree of its own: ``pkg/bgsim/`` is the package as setup.py maps it (``bgsim/`` with
``sim/``, ``strategies/``, ``experiments/`` and ``reports/`` below it), and ``repo/`` holds the
tests, beside ``sim/`` and ``strategies/`` as in the repository. Every step runs in a subprocess
with ``PYTHONPATH=pkg`` (a regular package on the path comes before the editable install's
finder, which sits last in ``sys.meta_path``) and a Numba cache of its own.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bgsim.sim.registry import available_games

ROOT = Path(__file__).resolve().parents[1]
NAME = "copied"  # the new game: no registered game's name contains it
TITLE = "Copied"  # its title-case form, for the class names
FOLDERS = ("sim", "strategies", "experiments", "reports")  # bgsim.<folder>, as setup.py maps them
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "examples")  # reports/examples: sample output, never read

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


def _renamed(text: str) -> str:
    """The template's names replaced by the new game's, as its README says."""
    return text.replace("_template", NAME).replace("template", NAME).replace("Template", TITLE)


def _copy_renamed(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=SKIP)
    for path in target.rglob("*"):
        if path.suffix in (".py", ".md", ".toml"):
            path.write_text(_renamed(path.read_text(encoding="utf-8")), encoding="utf-8")


def _private_tree(tmp: Path) -> tuple[Path, Path]:
    """``tmp/pkg`` (the import path: the package bgsim with the new game) and ``tmp/repo`` (the tests)."""
    package = tmp / "pkg" / "bgsim"
    shutil.copytree(ROOT / "bgsim", package, ignore=SKIP)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, package / folder, ignore=SKIP)
    _copy_renamed(ROOT / "sim" / "games" / "_template", package / "sim" / "games" / NAME)
    _copy_renamed(ROOT / "strategies" / "_template", package / "strategies" / NAME)
    repo = tmp / "repo"  # no bgsim/ here: it would shadow the package when repo is the working folder
    shutil.copytree(ROOT / "tests", repo / "tests", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")  # pytest's settings and markers
    for folder in ("sim", "strategies"):  # what the suite reads beside the tests (the template, weights)
        (repo / folder).symlink_to(package / folder, target_is_directory=True)
    return tmp / "pkg", repo


def _run(args: list[str], cwd: Path, env: dict, timeout: int = 900) -> str:
    done = subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.slow
def test_a_copy_of_the_template_is_a_complete_game(tmp_path):
    assert NAME not in available_games(unlisted=True) and "template" not in available_games(unlisted=True)
    pkg, repo = _private_tree(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items()  # not this run's pytest settings, Numba cache or switches
           if not k.startswith(("PYTEST_", "NUMBA_"))}
    env |= {"PYTHONPATH": str(pkg), "BGSIM_NUMBA_CACHE": str(tmp_path / "numba")}

    where = _run(["-c", "import bgsim, bgsim.sim.games as g, bgsim.strategies as s; "
                        "print(bgsim.__file__, g.__file__, s.__file__); print(*(e.name for e in g.BUILTIN))"],
                 work, env).splitlines()
    assert all(Path(file).is_relative_to(pkg) for file in where[0].split()), where  # the copy, not the install
    assert NAME in where[1].split()

    copies = [str(pkg / "bgsim" / "sim" / "games" / NAME), str(pkg / "bgsim" / "strategies" / NAME)]
    lint = ["-m", "ruff", "check", "--config", str(ROOT / "pyproject.toml"), *copies]
    _run([*lint, "--fix"], work, env)  # the README's first step: the renamed imports sorted again
    _run(lint, work, env)

    assert NAME in _run(["-m", "bgsim", "games"], work, env)
    trace = _run(["-m", "bgsim", "play", NAME, "--players", "3", "--validate", "-s",
                  "greedy,patient,search(rollouts=2, width=2)"], work, env)
    assert "== Final scoring ==" in trace and f"{NAME}/patient" in trace
    played = json.loads(_run(["-m", "bgsim", "play", NAME, "--players", "2", "--json"], work, env))
    assert played["game"] == f"{NAME}(n_players=2)" and played["events"]
    table = _run(["-m", "bgsim", "simulate", NAME, "--players", "2", "--games", "200", "-s", "greedy,random",
                  "--out", str(work / "runs"), "--quiet"], work, env)
    assert "greedy" in table

    spec = work / "seat_order.toml"
    spec.write_text(SEAT_ORDER)
    _run(["-m", "bgsim", "seat-order", str(spec), "--out", str(work / "studies"), "--quiet"], work, env)
    (study,) = (work / "studies").iterdir()
    assert (study / "compensation.csv").exists()
    _run(["-m", "bgsim", "report", str(study)], work, env)
    assert (study / "report" / "index.html").exists()

    _run(["-m", "tests.golden.regenerate", NAME], repo, env)
    assert len(list((repo / "tests" / "golden").glob(f"{NAME}_*p_seed7.txt"))) == 3
    summary = _run(["-m", "pytest", "tests/test_conformance.py", "tests/golden/test_golden.py", "-k", NAME, "-q",
                    "-p", "no:cacheprovider", "-o", "addopts="], repo, env)
    counts = dict((word, int(n)) for n, word in re.findall(r"(\d+) (passed|failed|skipped|error)", summary))
    assert counts.get("passed", 0) >= 30 and set(counts) == {"passed"}, summary[-2000:]
