"""The bgsim command line: traces, tables, and one-line errors with exit status 2 for bad input."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from bgsim.sim.games.carpe_diem.components import DATA_DIR
from bgsim.sim.registry import available_games

from bgsim.cli import main
from bgsim.cli.common import COMPILING


def run(capsys, *args):
    with pytest.raises(SystemExit) as info:
        main(list(args))
    captured = capsys.readouterr()
    return info.value.code, captured.out, captured.err


def test_play_prints_turns_scorings_districts_and_the_score_sheet(capsys):
    code, out, err = run(capsys, "play", "carpe_diem", "--players", "3", "--seed", "7")
    assert code == 0, err
    for needle in ("== Pass 1 (start player: seat 1) ==", "round 1, seat 1:", "takes ", "builds ",
                   "== Pass scoring 4 ==", "disc on ", "== Final districts ==", "== Score sheet ==",
                   "frame_tasks", "rank", "winner: seat"):
        assert needle in out


def test_the_capitol_trace_explains_its_marks_and_where_stones_go(capsys):
    """A reader is told what "+" after a drawn card means before the first one, and where a stone
    card's new house stands (in the seat's own area, not on the board); every line fits 80 columns."""
    code, out, err = run(capsys, "play", "capitol", "--players", "3", "--seed", "7")
    assert code == 0, err
    legend = out.index("card+ = a bonus draw, earned by an amphitheatre")
    assert legend < out.index("+,") and legend < out.index("== Setup ==")
    assert "earns 2 amphitheatre draws (marked +)" in out
    stones = [line for line in out.splitlines() if ": a new house of 2" in line]
    assert stones and all("a new house of 2 in its area; supply" in line for line in stones)
    assert "+2 on a house of height 2 in its area" in out and "(heights " not in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_the_trace_counts_seats_from_1_and_the_json_from_0(capsys):
    """People read seat 1 to 3 in a 3-player trace; the JSON events keep the engine's indices."""
    import re

    _, text, _ = run(capsys, "play", "carpe_diem", "--players", "3", "--seed", "7")
    assert set(re.findall(r"seat (\d+)", text)) == {"1", "2", "3"}
    assert "  seat 1: carpe_diem/greedy  (start player)" in text
    assert re.search(r"category +seat 1 +seat 2 +seat 3\n", text)
    _, doc, _ = run(capsys, "play", "carpe_diem", "--players", "3", "--seed", "7", "--json")
    assert {e["seat"] for e in json.loads(doc)["events"]} - {-1} == {0, 1, 2}  # -1: events of no seat
    _, solo, _ = run(capsys, "play", "carpe_diem", "--solo", "--seed", "3")
    assert "  seat 2: Anna, the automa (CD-ANNA)" in solo and "Anna (seat 2): start VP" in solo
    assert "seat 0" not in solo and re.search(r"category +seat 1 +Anna\n", solo)


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


def test_simulate_speaks_in_the_games_score_unit(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "capitol", "--players", "2", "--games", "20",
                         "--strategies", "greedy,random", "--quiet", "--out", str(tmp_path))
    assert code == 0, err
    assert "mean points [95% CI]" in out and "VP" not in out  # Capitol is scored in points


def test_simulate_prints_a_seat_table(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "carpe_diem", "--players", "2", "--games", "20",
                         "--strategies", "greedy,random", "--quiet", "--out", str(tmp_path))
    assert code == 0, err
    assert out.splitlines()[0].strip() == "carpe_diem, 2 players: 20 games, seed 1"
    assert "mean VP [95% CI]" in out and "win % [95% CI]" in out
    rows = [line.split()[:3] for line in out.splitlines() if line.split()[:1] in (["1"], ["2"])]
    assert rows == [["1", "greedy", "20"], ["2", "random", "20"]]  # seats from 1; the title names the game


def test_a_cold_engine_cache_is_named_while_the_first_chunk_compiles(capsys, tmp_path, monkeypatch):
    import bgsim.cli.common as cli
    import bgsim.cli.runs as runs

    monkeypatch.setattr(cli, "cache_is_cold", lambda *_: True)
    monkeypatch.setattr(runs, "cache_is_cold", lambda *_: True)
    code, _, err = run(capsys, "simulate", "carpe_diem", "-n", "4", "--out", str(tmp_path))
    assert code == 0 and "compiling the engine once (a few minutes) ..." in err
    code, out, err = run(capsys, "play", "carpe_diem", "--json")
    assert code == 0 and json.loads(out)["events"] and err == "compiling the engine once (a few minutes) ...\n"
    monkeypatch.setattr(cli, "cache_is_cold", lambda *_: False)
    monkeypatch.setattr(runs, "cache_is_cold", lambda *_: False)
    code, _, err = run(capsys, "simulate", "carpe_diem", "-n", "4", "--out", str(tmp_path / "again"))
    assert code == 0 and "compiling" not in err


@pytest.mark.parametrize(("args", "games", "rate"), [
    ((), "7,203", "25 %"), (("--rate", "25"), "7,203", "25 %"), (("--rate", "50"), "9,604", "50 %"),
])
def test_plan_takes_the_rate_in_percent_like_the_precision(capsys, args, games, rate):
    code, out, _ = run(capsys, "plan", "--players", "4", *args)
    assert code == 0 and out.startswith(f"{games} games for +-1 pp on a seat win rate near {rate} ")


@pytest.mark.parametrize("rate", ["0", "100", "-5", "250"])
def test_plan_rejects_a_rate_outside_0_to_100_percent(capsys, rate):
    code, out, err = run(capsys, "plan", "--rate", rate)
    assert code == 2 and out == ""
    assert err == f"bgsim: error: --rate is a win rate in percent between 0 and 100 (25 = 25 %), not {rate}\n"


def test_plan_says_how_it_read_a_rate_below_1_percent(capsys):
    code, out, _ = run(capsys, "plan", "--rate", "0.25")
    assert code == 0 and "near 0.25 %" in out and "(--rate is in percent: 0.25 means 0.25 %, not 25 %)" in out


@pytest.mark.parametrize(("args", "message"), [
    (("play", "nogame"), "unknown game 'nogame'"),
    (("play", "carpe_diem(colour=3)"), "carpe_diem has no parameter 'colour'"),
    (("play", "carpe_diem", "--players", "5"), "carpe_diem is for 2 to 4 players or solo (1), not 5"),
    (("play", "carpe_diem", "--players", "0"), "carpe_diem is for 2 to 4 players or solo (1), not 0"),
    (("play", "carpe_diem(full_loop=sideways)"), "full_loop must be one of allow, bread_else_stay"),
    (("play", "carpe_diem", "--strategies", "clever"), "unknown strategy 'clever'"),
    (("play", "carpe_diem", "--strategies", "grredy"), "unknown strategy 'grredy' for carpe_diem (known: "),
    (("play", "carpe_diem", "--strategies", "grredy"), "; did you mean 'greedy'?"),
    (("play", "carpe_diem", "--strategies", "carpe_diem/plannr"), "; did you mean 'carpe_diem/planner'?"),
    (("play", "carpe_diem", "--strategies", "carpe_dim/greedy"), "is for 'carpe_dim', not 'carpe_diem'; did you "
                                                                 "mean 'carpe_diem'?"),
    (("play", "carpe_dien"), f"unknown game 'carpe_dien' (known: {', '.join(available_games())}); did you mean "
                             "'carpe_diem'?"),
    (("play", "carpe_diem(ful_loop=allow)"), "carpe_diem has no parameter 'ful_loop' (see `bgsim games`); did you "
                                             "mean 'full_loop'?"),
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


def test_games_lists_one_game_by_name_and_names_a_misspelt_one(capsys):
    code, out, _ = run(capsys, "games", "capitol")
    assert code == 0 and out.startswith("capitol:") and "carpe_diem" not in out and "tied_bid" in out
    code, out, err = run(capsys, "games", "capitl")
    assert code == 2 and out == "" and "did you mean 'capitol'?" in err and err.count("\n") == 1


def test_a_misspelt_file_in_a_data_folder_is_named_not_ignored(capsys, tmp_path):
    from bgsim.sim.games.capitol.components import DATA_DIR as CAPITOL_DATA

    (tmp_path / "bord.toml").write_text((CAPITOL_DATA / "board.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not data", encoding="utf-8")  # other files are left alone
    code, out, err = run(capsys, "data", "capitol", "--data-dir", str(tmp_path))
    assert code == 2 and "all data files are valid" not in out
    assert "bord.toml: not a data file of this game (its files: board.toml); did you mean 'board'?" in err
    (tmp_path / "bord.toml").rename(tmp_path / "board.toml")
    code, out, _ = run(capsys, "data", "capitol", "--data-dir", str(tmp_path))
    assert code == 0 and "all data files are valid" in out


def test_a_carpe_diem_data_folder_may_hold_annas_file_for_a_solo_game(capsys, tmp_path):
    (tmp_path / "anna.toml").write_text((DATA_DIR / "anna.toml").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run(capsys, "data", "carpe_diem(n_players=1)", "--data-dir", str(tmp_path))
    assert code == 0, err
    from bgsim.sim import make_game

    solo = make_game("carpe_diem", n_players=1, data_dir=str(tmp_path))
    assert solo.data_files["anna"]["path"] == str(tmp_path / "anna.toml")  # read from the folder


def test_the_compile_notice_names_a_cold_game_only(capsys, tmp_path, monkeypatch):
    """Through the command line with the real check: a cache directory that holds compiled code for
    Capitol's current sources only is warm for Capitol and cold for Carpe Diem, so only a Carpe Diem
    run says that it compiles (the notice is per game, not only for an empty cache)."""
    import numba
    from bgsim.sim import numba_cache

    for game in ("capitol", "carpe_diem"):  # kernels decorated, and loaded, from the real cache first
        code, _, err = run(capsys, "simulate", game, "-n", "2", "-q", "--out", str(tmp_path / "warm"))
        assert code == 0, err
    cache = tmp_path / "cache"
    compiled = cache / numba_cache._current_keys()["capitol"] / "sim_games_capitol_kernels"
    compiled.mkdir(parents=True)
    (compiled / "compiled.nbi").write_bytes(b"")  # what cache_is_cold looks for
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(cache))
    assert not numba_cache.cache_is_cold("capitol") and numba_cache.cache_is_cold("carpe_diem")
    for game, cold in (("capitol", False), ("carpe_diem", True)):
        code, _, err = run(capsys, "simulate", game, "-n", "4", "--out", str(tmp_path / "runs"))
        assert code == 0 and (COMPILING in err) == cold, (game, err)
        code, _, err = run(capsys, "play", game, "--json")
        assert code == 0 and (COMPILING in err) == cold, (game, err)


def test_piped_output_takes_its_width_from_columns():
    from bgsim.cli import common

    assert common._piped_width({"COLUMNS": "80"}) == 80
    assert common._piped_width({}) == 120  # unset: wide enough that tables are not wrapped
    proc = subprocess.run([sys.executable, "-m", "bgsim", "games", "capitol"], capture_output=True, text=True,
                          env={**os.environ, "COLUMNS": "60"}, timeout=120)
    assert proc.returncode == 0 and max(len(line) for line in proc.stdout.splitlines()) <= 60


def test_an_interrupt_anywhere_exits_130_and_says_so(capsys, monkeypatch):
    from bgsim.cli import runs

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runs, "available_games", interrupted)
    code, out, err = run(capsys, "games")
    assert code == 130 and out == "" and err.strip() == "bgsim: interrupted"


def test_an_interrupted_run_exits_130_and_says_how_to_finish_it(capsys, tmp_path, monkeypatch):
    from bgsim.experiments import runner

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "play_batch", interrupted)
    code, out, err = run(capsys, "simulate", "capitol", "-n", "4", "--out", str(tmp_path))
    assert code == 130 and out == ""
    assert err.startswith("bgsim: interrupted: ") and "--resume" in err and err.count("bgsim:") == 1


def test_an_interrupt_while_a_report_is_written_exits_130_and_says_so(capsys, tmp_path, monkeypatch):
    import bgsim.report

    spec = tmp_path / "tiny.toml"
    spec.write_text(TINY_RUN)
    code, _, err = run(capsys, "run", str(spec), "--out", str(tmp_path / "runs"), "-q")
    assert code == 0, err
    (run_dir,) = (tmp_path / "runs").iterdir()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(bgsim.report, "write_report", interrupted)
    code, out, err = run(capsys, "report", str(run_dir))
    assert code == 130 and out == "" and err.strip() == "bgsim: interrupted"


TINY_RUN = """
name = "tiny"
[game]
id = "capitol"
players = [3]
[seats]
mode = "fixed"
strategies = ["greedy"]
[run]
games = 6
chunk_size = 6
seed = 1
"""


@pytest.fixture
def dumb_terminal(monkeypatch):
    """stderr as a terminal that cannot move its cursor (TERM=dumb: an editor's shell, some IDE consoles),
    where a progress bar that is taken down leaves whatever it printed."""
    from rich.console import Console

    from bgsim.cli import common

    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setattr(common, "err", Console(stderr=True, force_terminal=True))


def test_errors_start_with_bgsim_and_no_blank_line_in_a_dumb_terminal(capsys, tmp_path, dumb_terminal):
    spec = tmp_path / "tiny.toml"
    spec.write_text(TINY_RUN)
    code, _, err = run(capsys, "run", str(spec), "--out", str(tmp_path / "runs"))
    assert code == 0, err
    for args in (("run", str(spec), "--out", str(tmp_path / "runs")),  # fails inside the progress bar
                 ("report", str(tmp_path)), ("games", "nosuchgame"), ("play", "capitol", "--players", "9"),
                 ("run", str(tmp_path / "no_such.toml"))):
        code, out, err = run(capsys, *args)
        assert code == 2 and err.startswith("bgsim: error: ") and err.count("\n") == 1, (args, err)
