"""Rewrite the golden playthroughs (``make golden``) after an intended rules or trace change.

A changed golden file means changed games: bump the game's RULES_VERSION when rules changed.
"""

from tests.golden.playthroughs import path_for, render

if __name__ == "__main__":
    for n in (1, 2, 3, 4):
        path_for(n).write_text(render(n), encoding="utf-8")
        print(f"wrote {path_for(n)}")
