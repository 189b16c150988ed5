"""Sealed Bids through the whole lab from the command line: a run and its report, a seat-order
study (it solves the start points), a tournament. A game the generic studies know only through
its profile and its strategies package."""

import json
from pathlib import Path

import pytest

from bgsim.cli import main

RUN = """
name = "sb_run"
[game]
id = "sealed_bids"
players = [2, 3]
[seats]
mode = "rotate"
focus = "greedy"
others = ["random"]
[run]
games = 24
chunk_size = 12
seed = 3
"""

SEAT_ORDER = """
name = "sb_seat_order"
[game]
id = "sealed_bids"
players = [2, 3]
[populations]
greedy = ["greedy"]
mixed = ["greedy", "miser", "bold"]
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

TOURNAMENT = """
name = "sb_tournament"
[game]
id = "sealed_bids"
players = [2]
[tournament]
strategies = ["random", "miser", "greedy", "search(rollouts=2, width=2)"]
pairings = "all"
[run]
games = 8
chunk_size = 4
seed = 5
[run.games_for]
"search(rollouts=2, width=2)" = 4
"""


def _cli(*args: str) -> None:
    try:
        main(list(args))
    except SystemExit as exc:
        assert exc.code in (0, None), f"bgsim {' '.join(args)} exited with {exc.code}"


def _spec(directory: Path, name: str, text: str) -> Path:
    path = directory / f"{name}.toml"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("sealed_bids_lab")


def test_run_and_its_report(work):
    _cli("run", str(_spec(work, "run", RUN)), "--out", str(work / "runs"), "--quiet")
    (run_dir,) = (work / "runs").iterdir()
    meta = json.loads((run_dir / "meta.json").read_text())
    assert meta["status"] == "complete"
    _cli("report", str(run_dir))
    assert (run_dir / "report" / "index.html").exists()


def test_seat_order_study_solves_the_start_points(work):
    _cli("seat-order", str(_spec(work, "seat_order", SEAT_ORDER)), "--out", str(work / "studies"), "--quiet")
    (study,) = (work / "studies").iterdir()
    assert (study / "compensation.csv").exists()
    _cli("report", str(study))
    assert (study / "report" / "index.html").exists()


def test_tournament_with_the_search_player(work):
    _cli("tournament", str(_spec(work, "tournament", TOURNAMENT)), "--out", str(work / "tournaments"), "--quiet",
         "--report", str(work / "tournament_report"), "--bootstrap", "20")
    assert (work / "tournament_report" / "summary.json").exists()
