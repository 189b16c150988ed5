"""The index constants of every game's compiled parameter array (``sim/games/<game>/param_slots.py``),
written from the game's ``ParamTable`` so that a parameter is declared in one place:

    python -m tests.param_slots     # rewrite them after a change to a params.py

``tests/test_conformance.py`` fails while a game's module differs from its table.

Each params.py is read on its own: importing a game package runs its kernels' imports, which fail
while they name an index the module does not have yet (a row just added or renamed), so the
packages above it are stood in for by bare ones that only say where their modules lie.
"""

import importlib
import sys
import types
from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parents[1] / "sim" / "games"
GAMES_PACKAGE = "bgsim.sim.games"
SLOTS_MODULE = "param_slots.py"  # as bgsim.sim.games.parameters.SLOTS_MODULE, which importing would load every game


def _bare_package(name: str, folder: Path) -> None:
    """``name`` in ``sys.modules`` as a package of ``folder`` whose ``__init__`` never runs."""
    package = types.ModuleType(name)
    package.__path__ = [str(folder)]
    sys.modules[name] = package


def table_alone(folder: Path):
    """The ParamTable of the game package ``folder`` (the template included), from its params.py alone.
    Run in a process of its own: the bare packages stay in ``sys.modules``."""
    if GAMES_PACKAGE not in sys.modules:
        _bare_package(GAMES_PACKAGE, GAMES_DIR)
    _bare_package(f"{GAMES_PACKAGE}.{folder.name}", folder)
    return importlib.import_module(f"{GAMES_PACKAGE}.{folder.name}.params").TABLE


def game_folders() -> list[Path]:
    """Every game package with a parameter table: each registered game's and the template's."""
    return sorted(path.parent for path in GAMES_DIR.glob("*/params.py"))


def main() -> None:
    for folder in game_folders():
        path = folder / SLOTS_MODULE
        text = table_alone(folder).slots_source()
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(GAMES_DIR.parents[1])}")


if __name__ == "__main__":
    main()
