"""What-if against a baseline: a robustness spec's [what_if] tables play the designer's own rule
parameters and data files on the same deals as the baseline, and the report gives each seat's
paired change with its interval."""

import json
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from bgsim.experiments.robustness import load_robustness, run_robustness
from bgsim.reports.robustness_report import NOT_HELD, NOT_PLAYED, compare
from bgsim.sim.results.spec import SpecError
from bgsim.sim.stats.seats import paired_change

import bgsim
from bgsim.cli import main
from bgsim.report import write_report

ROOT = Path(__file__).resolve().parents[2]

BASE = """\
name = "base"
[game]
id = "capitol"
players = [2]
[populations]
greedy = ["greedy"]
[start]
vectors = ["rulebook"]
[run]
games = 480
chunk_size = 240
seed = 3
[compensation]
confirm_games = 0
"""


def _write(tmp_path: Path, what_if: str, variants: str = "variants = []") -> Path:
    (tmp_path / "base.toml").write_text(BASE)
    spec = tmp_path / "what_if.toml"
    spec.write_text(f'name = "wi"\nbase = "base.toml"\n{variants}\n' + textwrap.dedent(what_if))
    return spec


def test_the_committed_what_if_spec_plays_the_catch_up_rule_off_alone():
    spec = load_robustness(ROOT / "experiments" / "configs" / "capitol_what_if.toml")
    assert spec.variants == () and [v.name for v in spec.own] == ["catch_up_off"]
    assert spec.own[0].params == {"tied_bid": "remove"}


@pytest.mark.parametrize(("table", "message"), [
    ('[what_if.x]\nparams = { tied_bid = "nope" }\n', "what_if.x: "),
    ('[what_if.x]\ndata = { board = "missing.toml" }\n', "what_if.x.data.board: no file"),
    ('[what_if.x]\ndescription = "nothing"\n', "needs params"),
    ('[what_if.x]\nparams = { tied_bid = "remove" }\ncolour = 1\n', "colour"),
    ('[what_if.baseline]\nparams = { tied_bid = "remove" }\n', "has the name of another study"),
])
def test_bad_what_if_tables_are_one_line_errors_before_any_file(tmp_path, table, message):
    spec = _write(tmp_path, table)
    with pytest.raises(SpecError, match=message):
        load_robustness(spec)
    with pytest.raises(SystemExit) as stop:
        main(["robustness", str(spec), "--out", str(tmp_path / "out"), "-q"])
    assert stop.value.code == 2 and not (tmp_path / "out").exists()


def test_a_data_file_of_ones_own_counts_by_content(tmp_path):
    board = tmp_path / "board.toml"
    board.write_text((ROOT / "sim" / "games" / "capitol" / "data" / "board.toml").read_text())
    spec = _write(tmp_path, '[what_if.board]\ndata = { board = "board.toml" }\n')
    first = load_robustness(spec).study_id
    board.write_text(board.read_text() + "\n# an edit that changes nothing but the bytes\n")
    assert load_robustness(spec).study_id != first


@pytest.fixture(scope="module")
def what_if_study(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("what_if")
    spec = load_robustness(_write(tmp_path, '[what_if.catch_up_off]\ndescription = "no catch-up"\n'
                                           'params = { tied_bid = "remove" }\n'))
    directory = run_robustness(spec, out=tmp_path / "out", jobs=1).directory
    write_report(directory)
    return directory


def test_the_what_if_plays_the_same_deals_and_reports_paired_changes(what_if_study):
    meta = json.loads((what_if_study / "robustness.json").read_text())
    assert [s["variant"] for s in meta["studies"]] == ["baseline", "catch_up_off"]
    assert meta["variants"][0]["what_if"] and "tied_bid = remove" in meta["variants"][0]["changes"]
    rows = {s["variant"]: bgsim.load(what_if_study / s["dir"]) for s in meta["studies"]}
    change = paired_change(rows["baseline"], rows["catch_up_off"], "final_points")
    assert (change["pairs"] == 480).all() and len(change) == 2  # every game paired with its deal
    assert abs(change["win_pp"].sum()) < 1e-9  # one game's win moves between seats, never appears
    page = (what_if_study / "report" / "index.md").read_text()
    assert "catch_up_off" in page and "tied_bid = remove" in page
    assert "paired" in page.lower()
    # the base spec skips the fresh-deal confirmation, so no balancing vector may read as confirmed
    assert f"balancing start points {NOT_PLAYED} = 0/" in page


def test_a_balancing_vector_that_did_not_hold_is_marked_and_still_compared():
    key = "3p greedy: balancing start points"
    base = pd.DataFrame([dict(key=key, kind="vector", value=f"0/-1/-2 {NOT_HELD}", low="0/-2/-3", high="0/0/-1")])
    inside = pd.DataFrame([dict(key=key, kind="vector", value=f"0/-2/-1 {NOT_HELD}")])
    outside = pd.DataFrame([dict(key=key, kind="vector", value="0/-4/-2")])
    assert compare(base, inside)["holds"].tolist() == [True]
    assert compare(base, outside)["holds"].tolist() == [False]


def test_progress_counts_the_later_compensation_rounds_in_its_total(tmp_path):
    # start points change play in Capitol: rounds after the first add games the plan could not know
    spec_path = _write(tmp_path, '[what_if.catch_up_off]\nparams = { tied_bid = "remove" }\n')
    base = BASE.replace("games = 480\nchunk_size = 240", "games = 2400\nchunk_size = 1200")
    refine = "confirm_games = 2400\nrounds = 3\nlow = -20\nhigh = 20"  # seat 2 may need a handicap
    (tmp_path / "base.toml").write_text(base.replace("confirm_games = 0", refine))
    calls = []
    directory = run_robustness(load_robustness(spec_path), out=tmp_path / "out", jobs=1,
                               on_progress=lambda done, total: calls.append((done, total))).directory
    assert all(done <= total for done, total in calls) and calls[-1][0] == calls[-1][1]
    meta = json.loads((directory / "robustness.json").read_text())
    solutions = [s for study in meta["studies"]
                 for s in json.loads((directory / study["dir"] / "seat_order.json").read_text())["solutions"]]
    rounds = sum(len(s["rounds"]) for s in solutions)
    assert rounds > 2  # greedy's first guess is not even here: later rounds were played
    # the baseline's and the variant's cells, every round, and each study's one confirmation
    assert calls[-1][1] == 2 * 2400 + rounds * 2400 + len(solutions) * 2400
