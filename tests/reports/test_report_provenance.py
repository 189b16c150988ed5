"""A report says what was played before anything else: the game with the parameters the spec changed,
its data files by content with the replaced ones marked, the rules and bgsim versions (issue: a
changed rule or component left no trace on the page)."""

import subprocess
from pathlib import Path

from bgsim.reports.provenance import provenance
from bgsim.sim.games.capitol.components import DATA_DIR

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


def test_a_report_names_a_changed_parameter_and_a_changed_data_file_on_its_first_screen(browser, tmp_path,
                                                                                         capsys):
    board = (DATA_DIR / "board.toml").read_text(encoding="utf-8").replace("fountains = 2", "fountains = 1", 1)
    (tmp_path / "my_board.toml").write_text(board, encoding="utf-8")
    (tmp_path / "spec.toml").write_text(SPEC, encoding="utf-8")
    code, _, err = cli(capsys, "run", tmp_path / "spec.toml", "--out", tmp_path / "runs", "--quiet")
    assert code == 0, err
    run_dir = next((tmp_path / "runs").iterdir())
    code, _, err = cli(capsys, "report", run_dir, "--out", tmp_path / "report")
    assert code == 0, err
    top = _first_screen(browser, tmp_path / "report" / "index.html")
    assert "tied_bid=remove" in top and "data=" in top  # the canonical id: the rule and the data by content
    assert "board.toml reconstructed" in top and "(replaced by the spec)" in top
    assert "rules version" in top and "without the catch-up rule" in top  # the spec's words, as the subtitle
    assert str(tmp_path) not in top.split("data files")[0]  # the game is named by content, not by a path


def test_provenance_marks_only_the_files_the_spec_replaced():
    meta = {"blocks": [{"game_id": "g(n_players=2)", "rules_version": "2",
                        "data_files": {"a": {"status": "exact", "sha256": "0" * 64},
                                       "b": {"status": "reconstructed", "sha256": "f" * 64}}}],
            "versions": {"bgsim": "0.1.0"}, "git": {"sha": "abcdef0123456789"}}
    lines = provenance(meta, {"data": {"b": "b.toml"}})
    assert lines["game"] == "g(n_players=2)" and lines["rules version"] == "2"
    assert lines["data files"] == f"a.toml exact {'0' * 12}; b.toml reconstructed {'f' * 12} (replaced by the spec)"
    assert lines["bgsim"] == "0.1.0 (abcdef0123)" and "description" not in lines


def test_provenance_of_a_run_played_outside_a_git_checkout():
    meta = {"blocks": [{"game_id": "g(n_players=2)", "rules_version": "1"}], "versions": {"bgsim": "0.1.0"},
            "git": {"sha": None, "dirty": None}}
    assert provenance(meta, {})["bgsim"] == "0.1.0"
