"""``bgsim.load`` on a study directory: one frame over every run of the study, each row naming its run
(issue: ``bgsim.load`` read a run but stopped at a study with "no meta.json")."""

import textwrap
import tomllib

import polars as pl
import pytest
from bgsim.experiments.seat_order import run_seat_order, seat_order_from_dict
from bgsim.sim.results.store import RunStoreError

import bgsim
from tests.reports.test_seat_order import TINY


def _spec(directory):
    """The seat-order tests' tiny study, smaller: a few games, the solver for one population."""
    doc = tomllib.loads(textwrap.dedent(TINY))
    doc["name"] = "tiny_load"
    doc["run"] = {"games": 12, "chunk_size": 6, "seed": 4, "games_for": {"greedy": 6}}
    doc["compensation"] = {"population": ["greedy"], "confirm_games": 6, "bootstrap": 5}
    return seat_order_from_dict(doc, directory)


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    root = tmp_path_factory.mktemp("load_study")
    return run_seat_order(_spec(root), out=root / "runs").directory


def test_a_seat_order_study_loads_as_one_frame_naming_each_cell(study):
    frame = bgsim.load(study)
    assert isinstance(frame, pl.LazyFrame)  # as for a run
    rows = frame.collect()
    assert {"population", "n_players", "start", "kind", "seat", "final_vp"} <= set(rows.columns)
    cells = rows.filter(pl.col("kind") == "cell")
    counts = {(r["population"], r["n_players"], r["start"]): r["len"]
              for r in cells.group_by("population", "n_players", "start").len().to_dicts()}
    games = {"greedy": 6, "mixed": 12}
    assert counts == {(pop, n, start): games[pop] * n for pop in games for n in (2, 3)
                      for start in ("rulebook", "equal")}
    assert cells.filter(pl.col("population") == "mixed").select("run_id", "game_index").n_unique() == 12 * 4


def test_the_confirmation_runs_are_labelled_with_their_solved_vector(study):
    confirm = bgsim.load(study).filter(pl.col("kind") == "confirm").collect()
    assert set(confirm["population"]) == {"greedy"} and sorted(set(confirm["n_players"])) == [2, 3]
    assert confirm.height == 6 * (2 + 3) and all(s.startswith("8/") for s in confirm["start"])


def test_a_damaged_study_is_one_line_naming_the_chunk(study, tmp_path):
    import shutil

    copy = tmp_path / "damaged"
    shutil.copytree(study, copy)
    chunk = sorted((copy / "cells").glob("*/chunk-*.parquet"))[0]
    chunk.write_bytes(b"not parquet")
    with pytest.raises(RunStoreError) as info:
        bgsim.load(copy)
    assert "\n" not in str(info.value) and "1 damaged chunk" in str(info.value)
    assert f"{chunk.parent.name}/{chunk.name}" in str(info.value) and "--resume" in str(info.value)


def test_an_unfinished_study_is_one_line(tmp_path):
    def stop(done, total):
        if done >= 24:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_seat_order(_spec(tmp_path), out=tmp_path / "runs", on_progress=stop)
    (directory,) = (tmp_path / "runs").iterdir()
    with pytest.raises(RunStoreError, match=r"^\S+: the study is interrupted; finish it with --resume$"):
        bgsim.load(directory)


def test_a_directory_that_is_neither_is_one_line(tmp_path):
    with pytest.raises(RunStoreError, match="is not a run or study directory .no meta.json, seat_order.json"):
        bgsim.load(tmp_path)
    with pytest.raises(RunStoreError, match="does not exist"):
        bgsim.load(tmp_path / "nowhere")


def test_printing_what_bgsim_load_returns_is_a_short_summary_not_a_query_plan(study):
    """It used to print the LazyFrame's plan: hundreds of lines for a study of many runs."""
    frame = bgsim.load(study)
    text = str(frame)
    assert text == repr(frame) and len(text.splitlines()) <= 5
    assert text.splitlines()[0] == f"bgsim.load: seat_order {study.name}"
    rows = frame.select(pl.len()).collect().item()
    assert f"rows     {rows:,} from " in text and "labels   kind, population, start" in text
    assert "SCAN" not in text and "UNION" not in text
