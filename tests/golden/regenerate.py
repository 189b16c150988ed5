"""Write golden playthroughs after an intended rules or trace change:
``python -m tests.golden.regenerate GAME [GAME ...]`` (``make golden`` passes every game).

A changed golden file means changed games: bump the game's RULES_VERSION when rules changed.
Name the games whose files should change; the others stay as they are.
"""

import sys

from tests.golden.playthroughs import cases, path_for, render

if __name__ == "__main__":
    games = set(sys.argv[1:]) or {name for name, _ in cases()}
    for name, n in cases():
        if name in games:
            path_for(name, n).write_text(render(name, n), encoding="utf-8")
            print(f"wrote {path_for(name, n)}")
