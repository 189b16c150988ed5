"""The bgsim command line: traces, tables, and one-line errors with exit status 2 for bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from bgsim.experiments.cli import main
from bgsim.sim.games.carpe_diem.components import DATA_DIR


def run(capsys, *args):
    with pytest.raises(SystemExit) as info:
        main(list(args))
    captured = capsys.readouterr()
    return info.value.code, captured.out, captured.err


def test_play_prints_turns_scorings_districts_and_the_score_sheet(capsys):
    code, out, err = run(capsys, "play", "carpe_diem", "--players", "3", "--seed", "7")
    assert code == 0, err
    for needle in ("== Pass 1 (start player: seat 0) ==", "round 1, seat 0:", "takes ", "builds ",
                   "== Pass scoring 4 ==", "disc on ", "== Final districts ==", "== Score sheet ==",
                   "frame_tasks", "rank", "winner: seat"):
        assert needle in out


def test_play_json_has_the_same_game_as_events(capsys):
    code, out, _ = run(capsys, "play", "carpe_diem", "--players", "2", "--seed", "3", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["game"] == "carpe_diem(n_players=2)"
    kinds = {e["event"] for e in doc["events"]}
    assert {"move", "take", "place", "disc", "card", "final", "game_end"} <= kinds
    takes = [e for e in doc["events"] if e["event"] == "take"]
    assert len(takes) == 2 * 7 * 4  # CD-TURN-10: 7 turns per player and pass
    sheet = doc["score_sheet"]
    cats = ("start", "cards", "villas", "leftovers", "banner", "fountain_cards", "frame_tasks")
    assert [sum(sheet[c][s] for c in cats) for s in range(2)] == sheet["total"]
    _, text, _ = run(capsys, "play", "carpe_diem", "--players", "2", "--seed", "3")
    assert f"{sheet['total'][0]:>9}{sheet['total'][1]:>9}" in text


def test_simulate_prints_a_seat_table(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "carpe_diem", "--players", "2", "--games", "20",
                         "--strategies", "greedy,random", "--quiet", "--out", str(tmp_path))
    assert code == 0, err
    assert "win rate [95% CI]" in out and "carpe_diem/greedy" in out and "random" in out


@pytest.mark.parametrize(("args", "message"), [
    (("play", "nogame"), "unknown game 'nogame'"),
    (("play", "carpe_diem(colour=3)"), "carpe_diem has no parameter 'colour'"),
    (("play", "carpe_diem", "--players", "5"), "carpe_diem is for 2 to 4 players or solo (1), not 5"),
    (("play", "carpe_diem", "--players", "0"), "n_players must be at least 1, got 0"),
    (("play", "carpe_diem(full_loop=sideways)"), "full_loop must be one of allow, bread_else_stay"),
    (("play", "carpe_diem", "--strategies", "clever"), "unknown strategy 'clever'"),
    (("play", "carpe_diem", "--players", "3", "--strategies", "greedy,random"), "lists 2 strategies for 3 seats"),
    (("play", "carpe_diem", "--strategies", "greedy(sparkle=3)"), "weights.sparkle: unknown feature"),
    (("play", "carpe_diem", "--strategies", "greedy(vp=high)"), "weights.vp: must be an integer"),
    (("play", "carpe_diem", "--seed", "-3"), "--seed"),
    (("play", "carpe_diem", "--bogus"), "No such option"),
    (("play", "carpe_diem(n_players=3"), "is not of the form"),
    (("play", 'carpe_diem(tiles_file="/no/such/tiles.toml")'), "/no/such/tiles.toml: cannot read"),
])
def test_bad_input_gives_one_line_and_exit_status_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("bgsim: error: ")
    assert message in err
    assert out == ""


def test_a_malformed_data_file_gives_one_line_and_exit_status_2(capsys, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "frames.toml").write_text((DATA_DIR / "frames.toml").read_text().replace("vp = 5", "vp = -5", 1))
    code, _, err = run(capsys, "data", "carpe_diem", "--data-dir", str(data))
    assert code == 2
    assert err == "bgsim: error: frames.toml: F01: vp must be >= 0, got -5\n"
    code, _, err = run(capsys, "play", f"carpe_diem(data_dir={str(data)!r})")
    assert code == 2 and "frames.toml: F01" in err


def test_data_lists_every_file_with_status(capsys):
    code, out, _ = run(capsys, "data", "carpe_diem")
    assert code == 0
    assert "reconstructed" in out and "exact" in out and "all data files are valid" in out


def test_the_installed_script_exits_2_on_bad_input():
    script = Path(sys.executable).with_name("bgsim")
    proc = subprocess.run([str(script), "play", "carpe_diem", "--players", "7"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr == "bgsim: error: carpe_diem is for 2 to 4 players or solo (1), not 7\n"
    assert "Traceback" not in proc.stderr
