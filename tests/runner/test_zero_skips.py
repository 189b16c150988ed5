"""Every setting documented as "0 = skip" (or "0 = no check", "0 = no intervals") run at 0 through
the command line: the command succeeds, the skipped part is absent from what it writes and prints,
the report says it was skipped, and everything else is still there. A value below 0 stays bad
input: one line ``bgsim: error: ...`` and exit status 2."""

import json
import textwrap
from pathlib import Path

import pandas as pd
import pytest
import tomli_w

from tests.runner.conftest import cli


def _only_dir(directory: Path) -> Path:
    """The one study or run directory a command wrote under ``directory``."""
    (found,) = [p for p in directory.iterdir() if p.is_dir()]
    return found


# --- seat order: compensation.confirm_games = 0 skips the confirmation runs


def seat_order_spec(directory: Path, game: str, confirm_games: int = 0, bootstrap: int = 20) -> Path:
    """A one-cell seat-order study: self-play at 2 players under the rulebook start vector."""
    path = directory / "seats.toml"
    path.write_text(textwrap.dedent(f"""\
        name = "seats"
        [game]
        id = "{game}"
        players = [2]
        [populations]
        greedy = ["greedy"]
        [start]
        vectors = ["rulebook"]
        [run]
        games = 200
        chunk_size = 100
        seed = 3
        [compensation]
        confirm_games = {confirm_games}
        bootstrap = {bootstrap}
        """))
    return path


@pytest.mark.parametrize("game", ["carpe_diem", "capitol"])
def test_seat_order_without_confirmation_solves_and_reports_the_skip(tmp_path, capsys, game):
    spec = seat_order_spec(tmp_path, game, confirm_games=0)
    code, out, err = cli(capsys, "seat-order", spec, "--out", tmp_path / "runs", "--jobs", 1, "--quiet")
    assert code == 0, err
    study = _only_dir(tmp_path / "runs")
    meta = json.loads((study / "seat_order.json").read_text())
    assert meta["status"] == "complete" and len(meta["solutions"]) == 1
    assert not (study / "confirm").exists() and "confirm_dir" not in meta["solutions"][0]
    assert "200 games played now" in out  # the cell only, no confirmation games

    report = study / "report"
    solved = pd.read_csv(report / "tables" / "compensation.csv")
    assert len(solved) == 2 and "solved" in solved  # the solver still ran, one row per seat
    assert not [c for c in solved.columns if "confirm" in c]
    text = (report / "index.md").read_text()
    assert "not played again on fresh deals" in text and "`compensation.confirm_games = 0`" in text
    assert "win rate, solved (fresh deals)" not in text and "played again on fresh deals** to confirm" not in text
    assert "win rate, solved (stored games)" in text and (report / "tables" / "seats.csv").is_file()


@pytest.mark.parametrize(("change", "message"), [
    ({"confirm_games": -1}, "compensation.confirm_games must be a non-negative integer"),
    ({"bootstrap": 0}, "compensation.bootstrap must be a positive integer"),  # the interval needs a replicate
])
def test_seat_order_below_the_least_setting_is_one_line_before_any_game(tmp_path, capsys, change, message):
    spec = seat_order_spec(tmp_path, "carpe_diem", **change)
    code, _, err = cli(capsys, "seat-order", spec, "--out", tmp_path / "runs", "--jobs", 1, "--quiet")
    assert code == 2 and err.startswith("bgsim: error: ") and err.count("\n") == 1, err
    assert message in err
    assert not (tmp_path / "runs").exists()


# --- difficulty: calibration.verify_games = 0 and calibrate --verify-games 0 ("0 = no check")


def difficulty_spec(directory: Path, verify_games: int) -> Path:
    """One rung, no sweep, one level, on few games."""
    doc = {"name": "hard", "game": {"id": "carpe_diem"}, "ladder": {"weak": "greedy"},
           "run": {"games": 60, "chunk_size": 30, "seed": 5}, "sweep": {"rungs": []},
           "calibration": {"knob": "anna_start_vp", "low": -100, "high": 60, "step": 8, "games": 60,
                           "verify_games": verify_games, "levels": {"normal": 0.5}}}
    path = directory / "hard.toml"
    path.write_text(tomli_w.dumps(doc))
    return path


def test_difficulty_without_verify_games_solves_the_levels_and_reports_no_check(tmp_path, capsys):
    spec = difficulty_spec(tmp_path, verify_games=0)
    code, out, err = cli(capsys, "difficulty", spec, "--out", tmp_path / "runs", "--jobs", 1, "--quiet")
    assert code == 0, err
    study = _only_dir(tmp_path / "runs")
    assert not (study / "verify").exists() and (study / "calibrate").is_dir()
    level = json.loads((study / "difficulty.json").read_text())["levels"][0]
    assert "value" in level and not [k for k in level if k.startswith("verify")]
    assert "fresh deals" in out  # the printed column is there, empty

    report = study / "report"
    levels = pd.read_csv(report / "tables" / "levels.csv")
    assert len(levels) == 1 and not [c for c in levels.columns if c.startswith("verify") or c == "outcome"]
    text = (report / "index.md").read_text()
    assert "`calibration.verify_games = 0`" in text
    assert "played again on fresh deals." not in text and "then played on fresh deals" not in text
    assert "fresh deals [95 % CI]" not in text and "Difficulty levels" in text


def test_calibrate_with_verify_games_0_prints_the_level_without_a_fresh_check(tmp_path, capsys):
    code, out, err = cli(capsys, "calibrate", "greedy", "--target", 50, "--games", 60, "--low", -100, "--high", 60,
                         "--verify-games", 0, "--out", tmp_path / "runs", "--jobs", 1, "--quiet")
    assert code == 0, err
    study = _only_dir(tmp_path / "runs")
    assert not (study / "verify").exists() and (study / "calibrate").is_dir()
    (row,) = [line for line in out.splitlines() if "50 %" in line]
    assert row.rstrip(" │|").endswith("-")  # the fresh-deals cell: no check was played
    assert "60 games played now" not in out and not (study / "report").exists()


# --- tune --validate 0 (the default: no validation games)


def test_tune_with_validate_0_writes_the_weights_without_a_validation(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ("tune", "greedy", "--against", "greedy", "--players", 2, "--games", 40, "--rounds", 1,
            "--features", "vp", "--seed", 5)
    code, out, err = cli(capsys, *args, "--validate", 0, "--out", "skipped.toml")
    assert code == 0, err
    assert "wrote skipped.toml" in out and "validation" not in out
    written = (tmp_path / "skipped.toml").read_text()
    assert "[weights]" in written and "Validation" not in written
    code, out, err = cli(capsys, *args, "--validate", 20, "--out", "validated.toml")
    assert code == 0, err
    assert "validation (seed 1000008)" in out and "Validation on seed" in (tmp_path / "validated.toml").read_text()


# --- tournament --bootstrap 0 ("0 = no intervals")


def test_tournament_with_bootstrap_0_rates_without_intervals(tmp_path, capsys):
    spec = tmp_path / "duel.toml"
    spec.write_text(tomli_w.dumps({"name": "duel", "game": {"id": "carpe_diem", "players": [2]},
                                   "tournament": {"strategies": ["random", "greedy"], "pairings": "all"},
                                   "run": {"games": 200, "chunk_size": 100, "seed": 4}}))
    report = tmp_path / "report"
    code, out, err = cli(capsys, "tournament", spec, "--out", tmp_path / "runs", "--jobs", 1, "--quiet",
                         "--bootstrap", 0, "--report", report)
    assert code == 0, err
    ratings = [line for line in out.splitlines() if line.lstrip("│| ").startswith("greedy") and "+" in line]
    assert ratings and all(" - " in line for line in ratings)  # the rating without an interval
    summary = json.loads((report / "summary.json").read_text())
    assert summary["settings"]["bootstrap_replicates"] == 0
    assert all(r["low"] is None and r["high"] is None for r in summary["ratings"])
    assert [r["rating"] for r in summary["ratings"]][0] == 0 and summary["ratings"][1]["rating"] > 0
    text = (report / "README.md").read_text()
    assert "No intervals: the bootstrap over deals was skipped (`--bootstrap 0`)." in text
    assert "percentile bootstrap with" not in text and "## Standings" in text
    assert (report / "ratings.png").read_bytes()[:4] == b"\x89PNG"


# --- below 0 is still bad input


@pytest.mark.parametrize("args", [
    ("tournament", "unused.toml", "--bootstrap", -1),
    ("calibrate", "greedy", "--verify-games", -1),
    ("tune", "greedy", "--validate", -1, "--out", "unused.toml"),
], ids=["tournament --bootstrap", "calibrate --verify-games", "tune --validate"])
def test_a_negative_count_is_one_line_and_status_2(tmp_path, capsys, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, *args)
    assert code == 2 and err.startswith("bgsim: error: ") and err.count("\n") == 1, err
    option = next(a for a in args if str(a).startswith("--"))
    assert option in err and not list(tmp_path.iterdir())


def test_difficulty_spec_with_negative_verify_games_is_one_line(tmp_path, capsys):
    spec = difficulty_spec(tmp_path, verify_games=-1)
    code, _, err = cli(capsys, "difficulty", spec, "--out", tmp_path / "runs", "--quiet")
    assert code == 2 and err.startswith("bgsim: error: ") and err.count("\n") == 1, err
    assert "calibration.verify_games" in err and not (tmp_path / "runs").exists()
