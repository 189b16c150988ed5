"""``bgsim run`` / ``simulate`` / ``replay``: outputs, stored metadata, and one-line errors."""

import json
import shutil
import tempfile
import tomllib

import polars as pl
import pyarrow.parquet as pq
import pytest
from bgsim.experiments.runner import run
from bgsim.sim.games.carpe_diem.components import DATA_DIR
from bgsim.sim.results.spec import load_spec
from bgsim.sim.results.store import file_digest

import bgsim
from tests.runner.conftest import cli, write_spec

DESIGN_COLUMNS = ("run_id", "game", "rules_version", "chunk", "game_index", "seed", "n_players", "seat",
                  "strategy", "start_vp", "final_vp", "rank", "won", "tie", "vp_cards", "vp_villas",
                  "vp_frame_tasks", "vp_banner", "vp_fountain_cards", "vp_leftovers", "board_cards", "cards")


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("run")
    return run(load_spec(write_spec(tmp, games=6, players=[2, 3], chunk_size=4)), out=tmp)


def test_load_gives_a_lazy_frame_with_one_row_per_game_and_seat(small_run):
    frame = bgsim.load(small_run.run_dir)
    assert isinstance(frame, pl.LazyFrame)
    df = frame.collect()
    assert set(DESIGN_COLUMNS) <= set(df.columns)
    assert df.height == 6 * 2 + 6 * 3
    assert df.group_by("game_index").len()["len"].to_list().count(3) == 6
    categories = ["start_vp", "vp_cards", "vp_villas", "vp_leftovers", "vp_banner", "vp_fountain_cards",
                  "vp_frame_tasks"]
    assert (df.select(pl.sum_horizontal(categories)).to_series() == df["final_vp"]).all()  # CD-END-7
    winners = df.filter(pl.col("won")).group_by("game_index").len()
    assert winners["len"].to_list() == [1] * 12
    exploded = df.select("game_index", "seat", "vp_cards", "cards").explode("cards").unnest("cards")
    per_seat = exploded.group_by("game_index", "seat").agg(pl.col("vp").sum(), pl.col("vp_cards").first())
    assert (per_seat["vp"] == per_seat["vp_cards"]).all()  # the card log explains every card VP
    assert df["board_cards"].arr.len().unique().to_list() == [12]


def test_meta_and_spec_record_versions_seeds_hashes_and_host(small_run):
    meta = json.loads((small_run.run_dir / "meta.json").read_text())
    assert meta["status"] == "complete" and meta["games_total"] == 12
    assert {"python", "bgsim", "numpy", "numba"} <= set(meta["versions"])
    assert meta["host"]["hostname"] and meta["seeds"]["seed"] == 11
    assert set(meta["seeds"]["block_keys"]) == {"2", "3"}
    block = meta["blocks"][0]
    assert block["rules_version"] == "1"
    assert {"tiles", "villa_table"} <= set(block["data_files"])
    # each data file by the digest reports show for it
    assert block["data_hash"] == "+".join(f"{name}:{info['sha256'][:12]}"
                                          for name, info in sorted(block["data_files"].items()))
    assert len(meta["chunks"]) == 4 and all(c["seconds"] > 0 for c in meta["chunks"].values())
    spec = tomllib.loads((small_run.run_dir / "spec.toml").read_text())
    assert spec["run"] == {"games": 6, "chunk_size": 4, "seed": 11, "tier": "auto"}
    info = json.loads(pq.read_schema(small_run.run_dir / "chunk-000000.parquet").metadata[b"bgsim.chunk"])
    assert info["tier"] == "compiled"


def test_replay_prints_the_stored_game(small_run, capsys):
    df = bgsim.load(small_run.run_dir).filter(pl.col("game_index") == 8).collect().sort("seat")
    code, out, err = cli(capsys, "replay", small_run.run_dir, 8)
    assert code == 0, err
    assert "== Score sheet ==" in out and "carpe_diem/greedy" in out
    vp = ", ".join(str(v) for v in df["final_vp"].to_list())
    assert out.endswith(f"\ngame 8 replays to the stored result (final VP {vp})\n")
    code, out, err = cli(capsys, "replay", small_run.run_dir, 8, "--json")
    assert json.loads(out)["strategies"] == df["strategy"].to_list()  # stdout stays one JSON document
    assert err == f"game 8 replays to the stored result (final VP {vp})\n"
    played = bgsim.replay(small_run.run_dir, 8)
    assert played.result.final_score.tolist() == df["final_vp"].to_list()
    assert played.strategies == tuple(df["strategy"].to_list())


def test_replay_says_when_there_is_no_stored_row_to_compare(small_run, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(small_run.run_dir, copy)
    (copy / "chunk-000001.parquet").unlink()  # games 4 and 5 of the 2-player block: not played yet
    code, out, err = cli(capsys, "replay", copy, 5, "--summary")
    assert code == 0, err
    assert out.endswith("\nno stored row to compare: chunk 1 is not played yet\n")


def test_replay_detects_a_result_it_cannot_reproduce(small_run, tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(small_run.run_dir, copy)
    chunk = copy / "chunk-000000.parquet"
    table = pq.read_table(chunk)
    frame = pl.from_arrow(table).with_columns(pl.col("final_vp") + 1)
    frame.write_parquet(chunk)
    code, _, err = cli(capsys, "replay", copy, 0)  # the file no longer matches the hash written with it
    assert code == 2 and "chunk-000000.parquet: damaged" in err and "--resume" in err and err.count("\n") == 1
    meta = json.loads((copy / "meta.json").read_text())  # as if another engine had written these results
    meta["chunks"]["0"].update(file_digest(chunk))
    (copy / "meta.json").write_text(json.dumps(meta))
    code, _, err = cli(capsys, "replay", copy, 0)
    assert code == 2 and "replays to final VP" in err and err.count("\n") == 1
    code, _, err = cli(capsys, "replay", copy, 99)
    assert code == 2 and "outside this run" in err


@pytest.mark.own_workers
def test_simulate_quick_form_prints_the_seat_table_and_stores_the_run(tmp_path, capsys):
    code, out, err = cli(capsys, "simulate", "carpe_diem", "--players", "2", "--games", "20", "--strategies",
                         "greedy,random", "--jobs", "2", "--out", tmp_path, "--quiet")
    assert code == 0, err
    assert "win % [95% CI]" in out and " greedy " in out and " random " in out
    (run_dir,) = tmp_path.iterdir()
    assert bgsim.load(run_dir).collect().height == 40


def test_data_overrides_are_copied_into_the_run_and_replay_from_there(tmp_path, capsys, monkeypatch):
    scratch = tmp_path / "scratch"  # where a worker writes its copies of the overrides
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    override = tmp_path / "my_villas.toml"
    shutil.copy(DATA_DIR / "villa_table.toml", override)
    spec_path = write_spec(tmp_path, players=[2], games=2, chunk_size=2)
    data_table = '[game.data]\nvilla_table = "my_villas.toml"\n[seats]'
    spec_path.write_text(spec_path.read_text().replace("[seats]", data_table))
    report = run(load_spec(spec_path), out=tmp_path / "runs")
    assert (report.run_dir / "data" / "villa_table.toml").read_bytes() == override.read_bytes()
    assert tomllib.loads((report.run_dir / "spec.toml").read_text())["game"]["data"] == {
        "villa_table": "data/villa_table.toml"}
    assert not list(scratch.iterdir())  # the worker's copies are gone once its game has read them
    override.unlink()  # the run no longer needs the original file
    assert cli(capsys, "replay", report.run_dir, 1, "--summary")[0] == 0


BAD_SPECS = {
    "malformed": ("[game\nid = 1", "not valid TOML"),
    "unknown_key": ('[game]\nid = "carpe_diem"\n[seats]\nstrategies = ["greedy"]\n[run]\ngamez = 3',
                    "unknown key [run] 'gamez'"),
    "contradictory": ('[game]\nid = "carpe_diem"\nplayers = [3]\n[seats]\nmode = "permutations"\n'
                      'strategies = ["greedy", "random", "random"]\n[run]\ngames = 10',
                      "not a multiple of the 3 seatings"),
    "seat_count": ('[game]\nid = "carpe_diem"\nplayers = [4]\n[seats]\nstrategies = ["greedy", "random"]',
                   "lists 2 strategies for 4 seats"),
    "bad_strategy": ('[game]\nid = "carpe_diem"\nplayers = [2]\n[seats]\nstrategies = ["gredy"]',
                     "unknown strategy 'gredy'"),
    "bad_players": ('[game]\nid = "carpe_diem"\nplayers = [5]\n[seats]\nstrategies = ["greedy"]',
                    "game.players: 5 players is not allowed for carpe_diem (allowed: 1-4)"),
    "bad_players_rotated": ('[game]\nid = "carpe_diem"\nplayers = [2, 7]\n[seats]\nmode = "rotate"\nfocus = "greedy"\n'
                            'others = ["random"]\n[run]\ngames = 12',
                            "game.players: 7 players is not allowed for carpe_diem (allowed: 1-4)"),
    "misspelt_strategy": ('[game]\nid = "carpe_diem"\nplayers = [2]\n[seats]\nstrategies = ["grredy"]',
                          "did you mean 'greedy'?"),
    "unknown_tier": ('[game]\nid = "carpe_diem"\n[seats]\nstrategies = ["random"]\n[run]\ntier = "fast"',
                     "run.tier must be one of auto, compiled, vectorised, per_game, got 'fast'"),
    "unknown_game": ('[game]\nid = "carpe_dium"\n[seats]\nstrategies = ["random"]',
                     "game.id: unknown game 'carpe_dium'"),
    "bad_tier": ('[game]\nid = "carpe_diem"\n[seats]\nstrategies = ["random"]\n[run]\ntier = "vectorised"',
                 "needs a score(features)"),
}


@pytest.mark.parametrize("case", sorted(BAD_SPECS))
def test_bad_specs_give_one_line_and_write_nothing(tmp_path, capsys, case):
    text, needle = BAD_SPECS[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text)
    code, _, err = cli(capsys, "run", path, "--out", tmp_path / "runs", "--quiet")
    assert code == 2
    assert err.startswith("bgsim: error: ") and needle in err and err.count("\n") == 1, err
    assert not (tmp_path / "runs").exists()


def test_unwritable_output_directory_is_one_line(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    code, _, err = cli(capsys, "run", write_spec(tmp_path), "--out", blocker / "runs", "--quiet")
    assert code == 2 and "cannot write to" in err and err.count("\n") == 1


def test_missing_spec_and_unreachable_scheduler_are_one_line(tmp_path, capsys):
    code, _, err = cli(capsys, "run", tmp_path / "nope.toml")
    assert code == 2 and "cannot read spec" in err
    code, _, err = cli(capsys, "run", write_spec(tmp_path), "--out", tmp_path, "--scheduler", "localhost:1")
    assert code == 2 and "tcp://HOST:PORT" in err


@pytest.mark.own_workers
def test_progress_callback_counts_every_game_once(tmp_path):
    calls = []
    spec = load_spec(write_spec(tmp_path, players=[2, 3], games=6, chunk_size=4))
    run(spec, out=tmp_path, jobs=2, on_progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 12) and calls[-1] == (12, 12)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    assert len(calls) == 1 + len(spec.chunks())


def test_bad_jobs_and_a_dead_scheduler_write_nothing(tmp_path, capsys):
    spec_path = write_spec(tmp_path)
    code, _, err = cli(capsys, "run", spec_path, "--out", tmp_path / "runs", "--jobs", "0", "--quiet")
    assert code == 2 and "--jobs" in err and err.count("\n") == 1
    code, _, err = cli(capsys, "run", spec_path, "--out", tmp_path / "runs", "--scheduler", "tcp://127.0.0.1:9",
                       "--quiet")
    assert code == 2 and "cannot reach the Dask scheduler" in err and err.count("\n") == 1
    assert not (tmp_path / "runs").exists()


def test_solo_runs_store_the_humans_row_with_annas_score_and_replay(tmp_path, capsys):
    """CD-ANNA-22: a solo run keeps one row per game, Anna's VP by source sums to anna_vp, and a
    stored game replays to the same result."""
    code, _, _ = cli(capsys, "simulate", "carpe_diem", "--players", "1", "--games", "12", "--out", tmp_path)
    assert code == 0
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    df = bgsim.load(run_dir).collect()
    assert df.height == 12 and set(df["seat"].to_list()) == {0} and set(df["n_players"].to_list()) == {1}
    sources = ["anna_vp_start", "anna_vp_banner", "anna_vp_villa", "anna_vp_majority", "anna_vp_fountain"]
    assert (df.select(pl.sum_horizontal(sources)).to_series() == df["anna_vp"]).all()
    assert (df["margin"] == df["final_vp"] - df["anna_vp"]).all()
    decided = df.filter(pl.col("margin") != 0)  # a VP tie goes to the banner discs (AMB-27)
    assert (decided["won"] == (decided["margin"] > 0)).all()
    code, out, _ = cli(capsys, "replay", run_dir, 7)
    assert code == 0 and "== Anna's tracker ==" in out


def test_run_prints_one_seat_table_per_player_count_that_fits_80_columns(tmp_path, capsys, monkeypatch):
    """Seats from 1, ids without the game's prefix, and no interval broken or cut at 80 columns."""
    import io
    import re

    from rich.console import Console

    import bgsim.cli.runs as cli_module

    screen = io.StringIO()
    monkeypatch.setattr(cli_module, "out", Console(file=screen, width=80))
    spec = write_spec(tmp_path, players=[2, 3], games=6, chunk_size=6, focus="greedy(vp=12)",
                      others="carpe_diem/planner")
    code, _, err = cli(capsys, "run", spec, "--out", tmp_path / "runs", "--quiet")
    assert code == 0, err
    lines = screen.getvalue().splitlines()
    assert [line.strip() for line in lines if "games, seed" in line] == [
        "small (carpe_diem), 2 players: 6 games, seed 11", "small (carpe_diem), 3 players: 6 games, seed 11"]
    rows = [line for line in lines if re.match(r"\s+\d\s+(greedy|planner)", line)]
    assert len(rows) == 2 * 2 + 3 * 2
    assert all(len(line) <= 80 and "…" not in line for line in lines)
    interval = r"-?\d+\.\d \[-?\d+\.\d, -?\d+\.\d\]"
    assert all(re.search(rf"{interval}\s+{interval}\s+\d\.\d\d$", row.rstrip()) for row in rows), rows
    assert {row.split()[0] for row in rows} == {"1", "2", "3"}


def test_a_run_logged_to_a_file_says_how_far_it_got(tmp_path, capsys):
    """Stderr that is no terminal (a log of make run) gets progress lines instead of a bar: at least
    the last one, with the games played of the total."""
    code, out, err = cli(capsys, "run", write_spec(tmp_path), "--out", tmp_path / "runs")
    assert code == 0, err
    lines = [line for line in err.splitlines() if " of 24 games" in line]
    assert lines and lines[-1].split(": ", 1)[1].startswith("24 of 24 games (100 %)")
