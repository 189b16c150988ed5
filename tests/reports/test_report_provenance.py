"""A report says what was played before anything else: the game with the parameters the spec changed,
its data files by content with the replaced ones marked, the rules and bgsim versions (issue: a
changed rule or component left no trace on the page)."""

import json
import subprocess
from pathlib import Path

from bgsim.reports.provenance import header, provenance, side_by_side
from bgsim.sim.games.capitol.components import DATA_DIR
from bgsim.sim.results.played import played

from tests.runner.conftest import cli

SPEC = '''name = "what_if"
description = "Capitol without the catch-up rule, on a board with one fountain less"
[game]
id = "capitol"
players = [2]
[game.params]
tied_bid = "remove"
[game.data]
board = "my_board.toml"
[seats]
strategies = ["greedy", "random"]
[run]
games = 8
chunk_size = 4
seed = 3
'''


def _first_screen(browser: str, page: Path) -> str:
    """The text of the page above its first section, as Chromium builds it."""
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    return dom.split("<h2", 1)[0]


def _played_and_reported(tmp_path: Path, capsys) -> Path:
    """SPEC played with its own board file and reported into tmp_path/report; returns the run directory."""
    board = (DATA_DIR / "board.toml").read_text(encoding="utf-8").replace("fountains = 2", "fountains = 1", 1)
    (tmp_path / "my_board.toml").write_text(board, encoding="utf-8")
    (tmp_path / "spec.toml").write_text(SPEC, encoding="utf-8")
    code, _, err = cli(capsys, "run", tmp_path / "spec.toml", "--out", tmp_path / "runs", "--quiet")
    assert code == 0, err
    run_dir = next((tmp_path / "runs").iterdir())
    code, _, err = cli(capsys, "report", run_dir, "--out", tmp_path / "report")
    assert code == 0, err
    return run_dir


def test_a_report_names_a_changed_parameter_and_a_changed_data_file_on_its_first_screen(browser, tmp_path,
                                                                                         capsys):
    _played_and_reported(tmp_path, capsys)
    top = _first_screen(browser, tmp_path / "report" / "index.html")
    assert "tied_bid=remove" in top and "data=" in top  # the canonical id: the rule and the data by content
    assert "board.toml reconstructed" in top and "(replaced by the spec: my_board.toml)" in top  # named, not a hash
    assert "rules version" in top and "without the catch-up rule" in top  # the spec's words, as the subtitle
    assert str(tmp_path) not in top.split("data files")[0]  # the game is named by content, not by a path
    assert "capitol/greedy, random" in top and "seed" in top and ">3<" in top  # strategies and seed too


def test_a_report_writes_what_was_played_beside_its_tables(tmp_path, capsys):
    """The CSV tables stay plain; tables/provenance.json says what they were computed from."""
    run_dir = _played_and_reported(tmp_path, capsys)
    facts = json.loads((tmp_path / "report" / "tables" / "provenance.json").read_text())
    assert facts["games"] == [json.loads((run_dir / "meta.json").read_text())["blocks"][0]["game_id"]]
    assert "tied_bid=remove" in facts["games"][0] and facts["rules_versions"]
    assert facts["data_files"]["board"]["replaced"] and len(facts["data_files"]["board"]["sha256"]) == 64
    assert facts["strategies"] == ["capitol/greedy", "random"] and facts["seeds"] == [3]
    assert facts["description"].startswith("Capitol without the catch-up rule")
    assert facts["bgsim"]["version"] and str(tmp_path) not in json.dumps(facts)  # by content, not by path


def test_provenance_marks_only_the_files_the_spec_replaced():
    meta = {"blocks": [{"game_id": "g(n_players=2)", "rules_version": "2",
                        "data_files": {"a": {"status": "exact", "sha256": "0" * 64},
                                       "b": {"status": "reconstructed", "sha256": "f" * 64}}}],
            "versions": {"bgsim": "0.1.0"}, "git": {"sha": "abcdef0123456789"}}
    lines = provenance(meta, {"data": {"b": "b.toml"}})
    assert lines["game"] == "g(n_players=2)" and lines["rules version"] == "2"
    assert lines["data files"] == f"a.toml exact {'0' * 12}; b.toml reconstructed {'f' * 12} (replaced by the spec)"
    assert lines["bgsim"] == "0.1.0 (abcdef0123)" and "description" not in lines


def test_the_report_named_a_replaced_file_by_hash_only_not_by_its_name():
    def lines(path):
        meta = {"blocks": [{"game_id": "g(n_players=2, data=ab)", "data_files": {
            "board": {"path": path, "status": "reconstructed", "sha256": "f" * 64}}}]}
        return provenance(meta, {"game": {"data": {"board": "data/board.toml"}}})["data files"]

    assert lines("/home/d/designs/my_board.toml").endswith("(replaced by the spec: my_board.toml)")
    assert "/home" not in lines("/home/d/designs/my_board.toml")  # a name, never a path
    assert lines("/runs/s/data/board_tight/board.toml").endswith("(replaced by the spec: board_tight/board.toml)")


def test_provenance_of_a_run_played_outside_a_git_checkout():
    meta = {"blocks": [{"game_id": "g(n_players=2)", "rules_version": "1"}], "versions": {"bgsim": "0.1.0"},
            "git": {"sha": None, "dirty": None}}
    assert provenance(meta, {})["bgsim"] == "0.1.0"


def test_header_names_strategies_and_seeds_of_every_run():
    metas = [{"blocks": [{"game_id": "g(n_players=2)", "strategies": ["g/greedy", "random"]}], "seeds": {"seed": 1}},
             {"blocks": [{"game_id": "g(n_players=3)", "strategies": ["random", "g/planner"]}], "seeds": {"seed": 2}}]
    lines = header(played(metas, {"description": "two   runs"}))
    assert lines == {"game": "g(n_players=2); g(n_players=3)", "strategies": "g/greedy, random, g/planner",
                     "seed": "1, 2", "description": "two runs"}


def test_side_by_side_keeps_shared_lines_once_and_names_each_change():
    base = {"game": "g(n_players=3)", "rules version": "1", "data files": "a.toml exact 00; b.toml exact 11",
            "seed": "2"}
    studies = {"baseline": base,
               "swap_b": base | {"game": "g(n_players=3, data=ff)",
                                 "data files": "a.toml exact 00; b.toml exact 22 (replaced by the spec)"},
               "rule": base | {"game": "g(n_players=3, rule=x)"},
               "rule_again": base | {"game": "g(n_players=3, rule=x)"}}
    assert side_by_side(studies) == {
        "game (baseline)": "g(n_players=3)", "rules version": "1",
        "data files (baseline)": "a.toml exact 00; b.toml exact 11", "seed": "2",
        "swap_b": "game: g(n_players=3, data=ff); data files: b.toml exact 22 (replaced by the spec)",
        "rule, rule_again": "game: g(n_players=3, rule=x)"}
