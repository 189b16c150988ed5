"""A private copy of bgsim for tests that add a game, so that the game never enters this working tree,
where parallel test processes would find it.

``repo/`` is a checkout: ``sim/``, ``strategies/``, ``experiments/``, ``reports/`` and ``tests/``.
``pkg/bgsim/`` is the package as setup.py maps it: ``bgsim/``'s own modules, with the four folders
linked to the checkout's, as an editable install resolves them. Every step runs in a subprocess
with ``PYTHONPATH=pkg`` (a regular package on the path comes before the editable install's finder,
which sits last in ``sys.meta_path``) and a Numba cache of its own; ``bgsim new-game`` then writes
into ``repo/``, the folder holding ``sim/`` and ``strategies/``.
"""

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("sim", "strategies", "experiments", "reports")  # bgsim.<folder>, as setup.py maps them
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "examples")  # reports/examples: sample output, never read


@dataclass(frozen=True)
class PrivateTree:
    pkg: Path  # the import path: the package bgsim
    repo: Path  # the checkout: sources and tests
    work: Path  # an empty working folder for commands that write runs
    env: dict  # the environment of every step

    def run(self, args: list[str], cwd: Path | None = None, timeout: int = 900) -> str:
        """``python *args`` in ``cwd`` (the working folder); its output, or a failure with both streams."""
        done = self.attempt(args, cwd, timeout)
        assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        return done.stdout

    def attempt(self, args: list[str], cwd: Path | None = None, timeout: int = 900) -> subprocess.CompletedProcess:
        """``python *args`` in ``cwd``, whatever its exit status."""
        return subprocess.run([sys.executable, *args], cwd=cwd or self.work, env=self.env, capture_output=True,
                              text=True, timeout=timeout)


def private_tree(tmp: Path) -> PrivateTree:
    """A copy of this checkout under ``tmp`` and its environment."""
    repo = tmp / "repo"  # no bgsim/ here: it would shadow the package when repo is the working folder
    package = tmp / "pkg" / "bgsim"
    shutil.copytree(ROOT / "bgsim", package, ignore=SKIP)
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, repo / folder, ignore=SKIP)
        (package / folder).symlink_to(repo / folder, target_is_directory=True)
    shutil.copytree(ROOT / "tests", repo / "tests", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")  # pytest's settings and markers
    work = tmp / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items()  # not this run's pytest settings, Numba cache or switches
           if not k.startswith(("PYTEST_", "NUMBA_"))}
    env |= {"PYTHONPATH": str(tmp / "pkg"), "BGSIM_NUMBA_CACHE": str(tmp / "numba")}
    return PrivateTree(tmp / "pkg", repo, work, env)
