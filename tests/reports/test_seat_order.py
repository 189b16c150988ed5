"""The seat-order study end to end: spec checks, a tiny study, its report in a browser, bad input."""

import json
import textwrap
from pathlib import Path

import polars as pl
import pytest
from bgsim.experiments.seat_order import load_seat_order, run_seat_order, seat_order_from_dict
from bgsim.experiments.seat_order_results import load_study_rows
from bgsim.sim.results.spec import SpecError

from bgsim.report import write_report
from tests.reports.browser import check_page
from tests.runner.conftest import cli

ROOT = Path(__file__).resolve().parents[2]
TINY = """\
    name = "tiny"
    [game]
    id = "carpe_diem"
    players = [2, 3]
    [populations]
    greedy = ["greedy"]
    mixed = ["planner", "greedy", "trader"]
    [start]
    vectors = ["rulebook", "equal"]
    [run]
    games = 120
    chunk_size = 60
    seed = 1
    [compensation]
    confirm_games = 60
    bootstrap = 20
    """


@pytest.mark.parametrize("name", ["seat_order", "seat_order_ladder"])
def test_committed_seat_order_specs_load(name):
    spec = load_seat_order(ROOT / "experiments" / "configs" / f"{name}.toml")
    assert spec.players == (2, 3, 4) and {"rulebook", "equal"} <= set(spec.starts)
    cells = spec.cells()
    assert len(cells) == 3 * len(spec.populations) * len(spec.starts)
    assert len({c.spec.seed for c in cells}) == 1  # shared deals across every cell


def test_default_seat_order_is_sized_for_one_point():
    """make run: 9,604 games give +-1 pp at 2 players (bgsim plan); every cell has at least that."""
    spec = load_seat_order(ROOT / "experiments" / "configs" / "seat_order.toml")
    assert min(c.spec.games for c in spec.cells()) >= 9600


@pytest.mark.parametrize(("change", "message"), [
    ({"populations": {"mixed": ["greedy", "planner"]}}, "needs at least 3"),
    ({"run": {"games": 100}}, "not a multiple of the 6 seatings"),
    ({"game": {"id": "carpe_diem", "players": [2], "params": {"start_vp": "8/9"}}}, "list start vectors under"),
    ({"compensation": {"population": ["nobody"]}}, "'nobody', which is not a population"),
    ({"colour": 1}, "colour"),
    ({"compensation": {"confirm_games": "lots"}}, 'non-negative integer or "auto"'),
    ({"tolerance": {"seat_pp": 0}}, "seat_pp must be a positive number"),
    ({"tolerance": {"power": 0.99999, "payout": 1}}, "unknown key"),
])
def test_bad_seat_order_specs_fail_with_one_line(change, message):
    import tomllib

    doc = tomllib.loads(textwrap.dedent(TINY)) | change
    with pytest.raises(SpecError, match=message):
        seat_order_from_dict(doc)


@pytest.fixture(scope="module")
def tiny_study(tmp_path_factory):
    root = tmp_path_factory.mktemp("study")
    spec = root / "tiny.toml"
    spec.write_text(textwrap.dedent(TINY))
    result = run_seat_order(load_seat_order(spec), out=root / "runs")
    write_report(result.directory)
    return root, result.directory


def test_study_stores_every_cell_and_the_confirmation(tiny_study):
    _, directory = tiny_study
    meta = json.loads((directory / "seat_order.json").read_text())
    assert meta["status"] == "complete" and len(meta["cells"]) == 8
    rows = load_study_rows(directory).collect()
    assert rows.height == 120 * (2 + 3) * 2 * 2
    assert set(rows["start"].unique()) == {"rulebook", "equal"}
    equal = rows.filter(pl.col("start") == "equal")
    assert (equal["start_vp"] == 8).all()
    # same deal, same seating: the equal and rulebook games differ only by the start VP
    pairs = rows.filter(pl.col("start") == "rulebook").join(equal, on=["n_players", "population", "game_index",
                                                                           "seat"], suffix="_eq")
    assert ((pairs["final_vp"] - pairs["start_vp"]) == (pairs["final_vp_eq"] - pairs["start_vp_eq"])).all()
    confirm = load_study_rows(directory, "confirm").collect()
    assert confirm.height == 60 * (2 + 3) * 2
    assert len(meta["solutions"]) == 4 and all(s["vector"].startswith("8/") for s in meta["solutions"])


def test_report_is_written_with_every_part(tiny_study):
    _, directory = tiny_study
    report = directory / "report"
    html = (report / "index.html").read_text()
    for part in ("Answers", "Does the answer hold across skill?", "Seat win rates", "Compensating start VP",
                 "Scoring cards", "Is the 3-player 13"):
        assert part in html
    assert {p.name for p in (report / "figures").iterdir()} >= {
        "seat_win_rates.png", "score_distributions.png", "score_categories.png", "compensation.png",
        "scoring_cards_payoff_forest.png", "scoring_cards_pair_heatmap.png"}
    assert {"seats.csv", "compensation.csv", "scoring_cards.csv", "scoring_cards_groups.csv", "skill.csv",
            "seat_interaction.csv"} <= {
        p.name for p in (report / "tables").iterdir()}
    # too few games: the report says it cannot tell instead of claiming a difference
    assert "cannot be told apart from chance" in html
    assert "src=\"data:image/png;base64," in html and "http://" not in html and "https://" not in html


def test_the_report_header_says_what_the_cells_played(tiny_study):
    _, directory = tiny_study
    md = (directory / "report" / "index.md").read_text()
    header = md.split("**Contents**")[0]
    game = next(line for line in header.splitlines() if line.startswith("- game: "))
    assert set(game.removeprefix("- game: ").split("; ")) == {
        "carpe_diem(n_players=2)", "carpe_diem(n_players=3)", "carpe_diem(n_players=2, start_vp=equal)",
        "carpe_diem(n_players=3, start_vp=equal)"}, game
    assert "- rules version: 1" in header and "- data files: boards.toml reconstructed " in header
    assert "replaced" not in header  # the tiny study plays the game's own data
    assert "start_vp='8/" not in header  # confirmation runs have their own section
    assert "- strategies: carpe_diem/greedy, carpe_diem/planner, carpe_diem/trader\n" in header
    assert "- seed: 1\n" in header
    facts = json.loads((directory / "report" / "tables" / "provenance.json").read_text())
    assert len(facts["games"]) == 4 and facts["seeds"] == [1] and len(facts["strategies"]) == 3


def test_report_renders_in_a_browser_without_errors(tiny_study, browser):
    _, directory = tiny_study
    result = check_page(directory / "report" / "index.html", browser)
    assert result.ok, result.problems
    assert len(result.images) >= 6


def test_report_command_rewrites_the_report_and_rejects_bad_directories(tiny_study, capsys, tmp_path):
    root, directory = tiny_study
    code, out, _ = cli(capsys, "report", directory, "--out", tmp_path / "copy")
    assert code == 0 and (tmp_path / "copy" / "index.html").exists()
    assert "Seat win rates" in out
    code, _, err = cli(capsys, "report", tmp_path / "nothing")
    assert code == 2 and err.count("\n") == 1 and "does not exist" in err
    code, _, err = cli(capsys, "report", root)
    assert code == 2 and "is not a run or study directory (no meta.json, seat_order.json" in err


def test_report_of_a_damaged_study_is_a_one_line_error(tiny_study, capsys, tmp_path):
    import shutil

    _, directory = tiny_study
    copy = tmp_path / "damaged"
    shutil.copytree(directory, copy)
    chunk = next((copy / "cells").glob("*/chunk-*.parquet"))
    chunk.write_bytes(b"not parquet")
    code, _, err = cli(capsys, "report", copy)
    assert code == 2 and err.count("\n") == 1 and "damaged chunk" in err
    assert not (copy / "report").exists() or (copy / "report" / "index.html").read_bytes() == (
        directory / "report" / "index.html").read_bytes()


def test_plan_prints_the_games_needed(capsys):
    code, out, _ = cli(capsys, "plan", "--players", "4", "--precision", "0.5")
    assert code == 0 and "28,811 games for +-0.5 pp" in out
    code, _, err = cli(capsys, "plan", "--players", "1")
    assert code == 2 and "players must be 2..16" in err


def test_report_of_a_plain_self_play_run_has_seat_verdicts_but_no_study_questions(tmp_path, capsys):
    """`bgsim report` on an ordinary self-play run: seats differ only by position, so the seat table and
    its verdicts are there; the studies' questions (start vectors, scoring cards) are not."""
    from bgsim.experiments.runner import run
    from bgsim.sim.results.spec import RunSpec

    spec = RunSpec(name="plain", game="carpe_diem", players=(2, 4), strategies=("greedy",), games=60, chunk_size=30,
                   seed=4)
    run_dir = run(spec, out=tmp_path).run_dir
    code, out, err = cli(capsys, "report", run_dir)
    assert code == 0, err
    seats = pl.read_csv(run_dir / "report" / "tables" / "seats.csv")
    assert seats.height == 6 and set(seats["population"]) == {"carpe_diem/greedy"}
    text = (run_dir / "report" / "index.md").read_text()
    assert "in every seat: no seat differs detectably" in text or "favoured" in text
    assert "Is the 3-player 13" not in text and "Scoring cards" not in text
    assert not any((run_dir / "report" / "figures").glob("*payoff_forest.png"))


def test_a_finished_study_is_kept_and_resumed_without_replaying(tiny_study, capsys):
    root, directory = tiny_study
    spec_path = root / "tiny.toml"
    code, _, err = cli(capsys, "seat-order", spec_path, "--out", root / "runs", "--quiet", "--no-report")
    assert code == 2 and err.count("\n") == 1 and "add --resume" in err
    result = run_seat_order(load_seat_order(spec_path), out=root / "runs", resume=True)
    assert result.directory == directory and result.games_played == 0


def test_report_of_an_interrupted_study_carries_a_banner_and_reports_what_is_there(tmp_path, capsys):
    spec_path = tmp_path / "tiny.toml"
    spec_path.write_text(textwrap.dedent(TINY))

    def stop_midway(done, total):
        if done >= 600:  # part-way through the cells: some finished, one begun, the rest not started
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_seat_order(load_seat_order(spec_path), out=tmp_path / "runs", on_progress=stop_midway)
    (directory,) = (tmp_path / "runs").iterdir()
    code, out, err = cli(capsys, "report", directory)
    assert code == 0, err
    text = (directory / "report" / "index.md").read_text()
    head = text.split("**Contents**")[0]
    planned = load_seat_order(spec_path).total_games
    done = load_study_rows(directory, partial=True).select("run_id", "game_index").unique().collect().height
    assert 0 < done < planned
    assert f"> **Warning:** These results are incomplete: {done:,} of {planned:,} planned games" in head
    assert f"bgsim seat-order {directory / 'seat_order.toml'} --out {tmp_path / 'runs'} --resume" in head
    assert f"- games: {done:,} of {planned:,} planned (incomplete)" in head
    assert "## Seat win rates" in text

    result = run_seat_order(load_seat_order(directory / "seat_order.toml"), out=tmp_path / "runs", resume=True)
    assert result.directory == directory
    code, _, err = cli(capsys, "report", directory)
    assert code == 0, err
    assert "Warning" not in (directory / "report" / "index.md").read_text()
