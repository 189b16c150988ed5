"""Package list for setuptools, found on disk so that a new game's packages need no line here.

The repository's top-level folders install under one import name: ``sim/`` as ``bgsim.sim``,
``strategies/`` as ``bgsim.strategies`` and so on (pyproject.toml has the rest of the metadata).
Every folder below them with an ``__init__.py`` is a subpackage.
"""

from pathlib import Path

from setuptools import find_packages, setup

ROOT = Path(__file__).resolve().parent
PACKAGE_DIRS = {"bgsim": "bgsim", "bgsim.sim": "sim", "bgsim.strategies": "strategies",
                "bgsim.experiments": "experiments", "bgsim.reports": "reports"}


def bgsim_packages() -> list[str]:
    """Every package of the distribution, by its installed name."""
    names = []
    for package, folder in PACKAGE_DIRS.items():
        names.append(package)
        names.extend(f"{package}.{sub}" for sub in find_packages(str(ROOT / folder)))
    return sorted(names)


if __name__ == "__main__":
    setup(package_dir=PACKAGE_DIRS, packages=bgsim_packages())
