"""Destinations that cannot be written end every command in one line ``bgsim: error: ...`` with exit
status 2, before a single game is played; so does any other OSError reaching the command line.

The tests run as root too, where a folder with mode 0o500 is still writable: a destination is made
unwritable by lying under a regular file (``file/sub``), by being a folder of the sysfs, or by a
probe that reports a chosen folder as read-only.
"""

import errno
from pathlib import Path

import pytest
from bgsim.experiments import destinations, runner, tune
from bgsim.experiments.destinations import DestinationError, check_writable

from tests.runner.conftest import cli

CONFIGS = Path(__file__).resolve().parent.parent / "experiments" / "configs"


class GamePlayed(Exception):
    """A command played a game although its destination cannot be written."""


@pytest.fixture
def no_games(monkeypatch):
    """Every way a command plays games (runs, studies, tournaments, tuning) raises GamePlayed."""
    def refuse(*args, **kwargs):
        raise GamePlayed

    monkeypatch.setattr(runner, "play_batch", refuse)
    monkeypatch.setattr(tune, "play_batch", refuse)


@pytest.fixture
def read_only(monkeypatch):
    """``read_only(folder)``: the write probe fails in ``folder`` as on a read-only mount."""
    blocked = set()
    real_probe = destinations.write_probe

    def probe(folder):
        if Path(folder).resolve() in blocked:
            raise OSError(errno.EROFS, "Read-only file system", str(folder))
        real_probe(folder)

    monkeypatch.setattr(destinations, "write_probe", probe)
    return lambda folder: blocked.add(Path(folder).resolve())


@pytest.fixture(scope="module")
def stored_run(tmp_path_factory):
    """A finished 4-game run to report on and resume."""
    from bgsim.experiments.simulate import quick_spec

    out = tmp_path_factory.mktemp("stored")
    return runner.run(quick_spec("carpe_diem", 2, ["random"], 4, 1, 4), out=out).run_dir


def unwritable_folder(tmp_path: Path, how: str, read_only) -> Path:
    """A folder nothing can be written to: under a regular file, or an existing read-only one."""
    if how == "under_a_file":
        blocker = tmp_path / "a_file"
        blocker.write_text("")
        return blocker / "sub"
    folder = tmp_path / "read_only"
    folder.mkdir()
    read_only(folder)
    return folder


# The command line, with {U} for the unwritable folder and {T} for a writable one; the destination named.
COMMANDS = {
    "run --out": (["run", CONFIGS / "greedy_vs_random.toml", "--out", "{U}/runs", "-q"], "run directory"),
    "simulate --out": (["simulate", "carpe_diem", "-n", "4", "--out", "{U}/runs", "-q"], "run directory"),
    "tournament --out": (["tournament", CONFIGS / "ladder.toml", "--out", "{U}/runs", "-q"], "tournament directory"),
    "tournament --report": (["tournament", CONFIGS / "ladder.toml", "--out", "{T}/runs", "--report", "{U}/report",
                             "-q"], "--report"),
    "seat-order --out": (["seat-order", CONFIGS / "seat_order.toml", "--out", "{U}/runs", "-q"], "study directory"),
    "robustness --out": (["robustness", CONFIGS / "robustness.toml", "--out", "{U}/runs", "-q"], "study directory"),
    "difficulty --out": (["difficulty", CONFIGS / "anna.toml", "--out", "{U}/runs", "-q"], "study directory"),
    "calibrate --out": (["calibrate", "greedy", "--game", "carpe_diem", "-n", "10", "--verify-games", "0", "--out",
                         "{U}/runs", "-q"], "study directory"),
    "tune --out": (["tune", "greedy", "-n", "4", "-r", "1", "--out", "{U}/tuned.toml"], "--out"),
    "train --out": (["train", CONFIGS / "capitol_expert.toml", "--out", "{U}/runs", "-q"], "training directory"),
}


@pytest.mark.parametrize("how", ["under_a_file", "read_only"])
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_an_unwritable_destination_is_one_line_before_any_game(tmp_path, capsys, no_games, read_only, command, how):
    folder = unwritable_folder(tmp_path, how, read_only)
    writable = tmp_path / "writable"
    template, named = COMMANDS[command]
    args = [str(a).replace("{U}", str(folder)).replace("{T}", str(writable)) for a in template]
    code, out, err = cli(capsys, *args)
    assert code == 2, out
    assert err.startswith("bgsim: error: ") and err.count("\n") == 1, err
    if how == "read_only":
        assert f"{named} {folder}" in err and "Read-only file system" in err, err
    assert not writable.exists()
    assert not (folder.exists() and any(folder.iterdir()))


@pytest.mark.parametrize("how", ["under_a_file", "read_only"])
def test_report_out_to_an_unwritable_place_is_one_line(tmp_path, capsys, stored_run, read_only, how):
    folder = unwritable_folder(tmp_path, how, read_only)
    code, _, err = cli(capsys, "report", stored_run, "--out", folder / "report")
    assert code == 2
    assert err.startswith("bgsim: error: report directory ") and err.count("\n") == 1, err


def test_report_and_resume_inside_a_read_only_run_directory_are_one_line(capsys, stored_run, no_games, read_only):
    before = sorted(p.name for p in stored_run.iterdir())
    read_only(stored_run)
    code, _, err = cli(capsys, "report", stored_run)
    assert code == 2 and err.count("\n") == 1
    assert err == (f"bgsim: error: report directory {stored_run / 'report'}: cannot write to {stored_run}: "
                   f"Read-only file system\n")
    code, _, err = cli(capsys, "run", stored_run, "--resume", "--quiet")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"bgsim: error: run directory {stored_run}: cannot write to {stored_run}")
    assert sorted(p.name for p in stored_run.iterdir()) == before


def test_a_report_path_taken_by_a_file_is_one_line(tmp_path, capsys, stored_run):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    for path in stored_run.iterdir():
        if path.is_file():
            (run_dir / path.name).write_bytes(path.read_bytes())
    (run_dir / "report").write_text("not a folder")
    code, _, err = cli(capsys, "report", run_dir)
    assert code == 2
    assert err == f"bgsim: error: report directory {run_dir / 'report'}: cannot write to {run_dir / 'report'}, " \
                  "it is a file, not a folder\n"


def test_a_sysfs_folder_is_unwritable_even_for_root(tmp_path, capsys, no_games):
    target = Path("/sys/bgsim-test-runs")  # sysfs refuses new files to every user, root included
    code, _, err = cli(capsys, "simulate", "carpe_diem", "-n", "4", "--out", target, "--quiet")
    assert code == 2 and err.startswith(f"bgsim: error: run directory {target}/") and err.count("\n") == 1, err


def test_any_os_error_reaching_the_command_line_is_one_line(capsys, stored_run, monkeypatch):
    import bgsim.report

    def fail(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied", "/somewhere/index.html")

    monkeypatch.setattr(bgsim.report, "write_report", fail)
    code, out, err = cli(capsys, "report", stored_run, "--out", stored_run.parent / "elsewhere")
    assert code == 2 and out == ""
    assert err == "bgsim: error: /somewhere/index.html: Permission denied\n"


def test_check_writable_creates_nothing_and_names_the_first_existing_folder(tmp_path):
    check_writable(tmp_path / "a" / "b", "--out")
    check_writable(tmp_path / "new.toml", "--out", file=True)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "f").write_text("")
    with pytest.raises(DestinationError, match=r"--out .*f/a/b: cannot write to .*/f, it is a file"):
        check_writable(tmp_path / "f" / "a" / "b", "--out")
