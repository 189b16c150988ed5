"""Write golden playthroughs after an intended rules or trace change, into each game's
``tests/games/<game>/golden/``: ``python -m tests.golden.regenerate GAME [GAME ...]`` (``make golden``
names none: every game of the suites).

A changed golden file means changed games: bump the game's RULES_VERSION when rules changed.
Name the games whose files should change; the others stay as they are. A game outside the suites
(unlisted, without a rules test yet: ``tests.suite``) has none to write.
"""

import sys

from tests.golden.playthroughs import cases, path_for, render

if __name__ == "__main__":
    named = set(sys.argv[1:])
    games = named or {name for name, _ in cases()}
    missing = named - {name for name, _ in cases()}
    if missing:
        sys.exit(f"no golden playthroughs for {', '.join(sorted(missing))}: not a game of the suites "
                 "(an unlisted game joins them with its first rules test in tests/games/<game>/)")
    for name, n in cases():
        if name in games:
            path = path_for(name, n)
            path.parent.mkdir(exist_ok=True)
            path.write_text(render(name, n), encoding="utf-8")
            print(f"wrote {path}")
