"""The generated parts of every game's spec page (``sim/games/<game>/README.md``): its parameter
table, written from the game's ``ParamTable`` so that a parameter is declared in one place.

    python -m tests.spec_pages     # rewrite the tables after a change to a params.py

``tests/test_conformance.py`` fails while a page's table differs from its game's table.
"""

import importlib
import importlib.util
from pathlib import Path

from bgsim.sim.registry import available_games

GAMES_DIR = Path(__file__).resolve().parents[1] / "sim" / "games"


def _template_table():
    """The template's ParamTable, read from its params.py without importing the template package
    (which nothing outside a copy of it may load: tests/test_registry.py)."""
    spec = importlib.util.spec_from_file_location("template_params", GAMES_DIR / "_template" / "params.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.TABLE


def parameter_tables(games: list[str] | None = None) -> dict[Path, object]:
    """Spec page -> the ParamTable of its game, for ``games`` (default: every registered game) and the
    template."""
    names = list(available_games(unlisted=True)) if games is None else games
    tables = {GAMES_DIR / name / "README.md": importlib.import_module(f"bgsim.sim.games.{name}.params").TABLE
              for name in names}
    tables[GAMES_DIR / "_template" / "README.md"] = _template_table()
    return tables


def main() -> None:
    for page, table in parameter_tables().items():
        text = page.read_text(encoding="utf-8")
        new = table.on_page(text)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"rewrote the parameter table of {page.relative_to(GAMES_DIR.parents[1])}")


if __name__ == "__main__":
    main()
