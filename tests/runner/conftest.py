"""Small specs and helpers shared by the runner tests."""

import textwrap
from pathlib import Path

import polars as pl
import pytest

from bgsim.cli import main


def write_spec(directory: Path, name: str = "small", **run) -> Path:
    """A small spec over 2 and 3 players: greedy rotated through every seat against random
    players (paired deals), so both the compiled policies and the seatings are exercised."""
    values = {"games": 12, "chunk_size": 5, "seed": 11, "tier": "auto", "players": [2, 3]} | run
    path = directory / f"{name}.toml"
    path.write_text(textwrap.dedent(f"""\
        name = "{name}"
        [game]
        id = "carpe_diem"
        players = {values['players']}
        [seats]
        mode = "rotate"
        focus = "{values.get('focus', 'greedy')}"
        others = ["{values.get('others', 'random')}"]
        [run]
        games = {values['games']}
        chunk_size = {values['chunk_size']}
        seed = {values['seed']}
        tier = "{values['tier']}"
        """))
    return path


def results(run_dir: Path) -> pl.DataFrame:
    """Every stored row, in game and seat order, without the bookkeeping columns that legitimately
    depend on how the run was cut up (``chunk``)."""
    from bgsim.sim.results.store import load

    return load(run_dir).collect().drop("chunk").sort("game_index", "seat")


def cli(capsys, *args) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    return info.value.code, captured.out, captured.err
