"""Every registered study, end to end, through the one lifecycle (``experiments.study``): run it,
interrupt it, resume it, report it and load it, on Sealed Bids (the test game), in a tiny size.

Difficulty studies need an automa and Sealed Bids has none: that study runs on Carpe Diem solo
against Anna, the smallest game with one. A study added to the registry without a tiny spec here
fails ``test_every_registered_study_has_a_tiny_spec``.
"""

import json
import textwrap

import polars as pl
import pytest
from bgsim.experiments import runner
from bgsim.experiments.loading import Loaded, load
from bgsim.experiments.studies import STUDIES, study_at, study_named
from bgsim.sim.results.store import verify_chunks

from bgsim.report import build_report

TINY = {
    "seat_order": """
        name = "tiny"
        [game]
        id = "sealed_bids"
        players = [2]
        [populations]
        greedy = ["greedy"]
        [run]
        games = 40
        chunk_size = 10
        [compensation]
        confirm_games = 20
        bootstrap = 5
        """,
    "robustness": """
        name = "tiny_what_if"
        base = "seat_order.toml"
        variants = []
        [what_if.no_tie_break]
        description = "tied bids discarded"
        params = { bid_tie = "discard" }
        """,
    "difficulty": """
        name = "tiny"
        [game]
        id = "carpe_diem"
        [ladder]
        weak = "greedy"
        [run]
        games = 20
        chunk_size = 10
        [calibration]
        knob = "anna_start_vp"
        low = -40
        high = 40
        step = 20
        games = 20
        verify_games = 0
        [calibration.levels]
        even = 0.5
        """,
    "component_value": """
        name = "tiny"
        [game]
        id = "sealed_bids"
        players = [2]
        [game.params]
        prize_offer = "pair"
        [population]
        strategies = ["greedy"]
        [sample]
        games = 20
        rollouts = 4
        chunk_size = 10
        [solver]
        q = 1.0
        points = 50
        fresh_games = 0
        """,
    "balance": """
        name = "tiny"
        [game]
        id = "sealed_bids"
        players = [2]
        [population]
        strategies = ["greedy"]
        [[lever]]
        param = "start_points"
        players = 2
        low = -2
        high = 2
        [[measure]]
        name = "first_seat"
        target = 50
        [search]
        sampler = "random"
        budget = 400
        trials = 4
        deals = [50]
        seed = 3
        [confirm]
        finalists = 1
        deals = 50
        """,
    "tournament": """
        name = "tiny"
        [game]
        id = "sealed_bids"
        players = [2]
        [tournament]
        strategies = ["random", "greedy"]
        [run]
        games = 20
        chunk_size = 10
        """,
}


class Stop(Exception):
    """Stands for Ctrl-C: raised from the progress callback once some games are done."""


def _write(tmp_path, kind: str):
    for name, text in (("seat_order", TINY["seat_order"]), (kind, TINY[kind])):
        (tmp_path / f"{name}.toml").write_text(textwrap.dedent(text))
    return tmp_path / f"{kind}.toml"


def test_every_registered_study_has_a_tiny_spec():
    assert {s.kind for s in STUDIES} == set(TINY)
    assert len({s.marker for s in STUDIES}) == len(STUDIES)  # a directory holds one kind of study


@pytest.mark.parametrize("kind", [s.kind for s in STUDIES])
def test_a_study_runs_is_interrupted_resumes_reports_and_loads(kind, tmp_path):
    study = study_named(kind)
    spec = study.part("spec")(_write(tmp_path, kind))
    out = tmp_path / "runs"

    def stop_once_begun(done, _total):
        if done > 0:
            raise Stop

    with pytest.raises(Stop):
        study.part("run")(spec, out=out, jobs=1, resume=False, on_progress=stop_once_begun)
    directory = out / spec.study_id
    assert study_at(directory) == study
    meta = json.loads((directory / study.marker).read_text())
    assert meta["status"] == "interrupted" and meta["kind"] == kind
    assert meta["sessions"][-1]["status"] == "interrupted"

    seen = []
    result = study.part("run")(spec, out=out, jobs=1, resume=True, on_progress=lambda d, t: seen.append((d, t)))
    assert result.directory == directory
    meta = json.loads((directory / study.marker).read_text())
    assert meta["status"] == "complete" and [s["status"] for s in meta["sessions"]] == ["interrupted", "complete"]
    assert all(done <= total for done, total in seen)

    report, _ = build_report(directory)
    report.write(tmp_path / "report")
    assert any((tmp_path / "report").iterdir())

    rows = load(directory)
    assert isinstance(rows, Loaded) and rows.collect().height > 0
    summary = repr(rows)
    assert summary.splitlines()[0] == f"bgsim.load: {kind} {directory.name}" and len(summary.splitlines()) <= 5
    assert type(rows.filter(pl.lit(True))) is pl.LazyFrame  # a query on it is an ordinary LazyFrame


def test_a_study_resumed_after_its_runs_finished_hashes_each_chunk_once(tmp_path, monkeypatch):
    study = study_named("seat_order")
    spec = study.part("spec")(_write(tmp_path, "seat_order"))
    study.part("run")(spec, out=tmp_path / "runs")
    directory = tmp_path / "runs" / spec.study_id
    first = next((directory / "cells").iterdir())
    (first / "chunk-00001.parquet").write_bytes(b"damaged")  # complete, with one chunk to play again
    checked = []

    def counting(run_dir, meta, expected=None):
        checked.append(run_dir)
        return verify_chunks(run_dir, meta, expected)

    monkeypatch.setattr(runner, "verify_chunks", counting)
    study.part("run")(spec, out=tmp_path / "runs", resume=True)
    assert checked.count(first) == 1 and len(checked) == len(set(checked))
