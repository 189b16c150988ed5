"""The report of an ordinary run answers what the run was for: how the strategies did against each
other, with intervals; seat verdicts only in self-play; a banner when the run is not finished."""

import json

import numpy as np
import polars as pl
import pytest
from bgsim.experiments.runner import run
from bgsim.sim.results.progress import run_progress
from bgsim.sim.results.spec import RunSpec
from bgsim.sim.results.store import chunk_path
from bgsim.sim.stats.strategy_stats import head_to_head, strategy_table

from bgsim.report import build_report
from tests.runner.conftest import cli


def _rows(games: list[list[tuple[str, int]]]) -> pl.DataFrame:
    """Result rows of 2- or 3-player games given as [(strategy, rank), ...] per game, seat order."""
    out = []
    for g, seats in enumerate(games):
        for seat, (strategy, rank) in enumerate(seats):
            out.append({"n_players": len(seats), "game_index": g, "seat": seat, "strategy": strategy,
                        "rank": rank, "won": rank == 1, "final_vp": 100 - 10 * rank})
    return pl.DataFrame(out)


def test_strategy_table_counts_seat_games_and_gives_wilson_intervals():
    # 3-player games: a holds one seat, b two; a wins 3 of 4 games.
    games = [[("a", 1), ("b", 2), ("b", 3)]] * 3 + [[("b", 1), ("a", 2), ("b", 3)]]
    table = strategy_table(_rows(games), "final_vp").set_index("strategy")
    assert table.loc["a", "seat_games"] == 4 and table.loc["b", "seat_games"] == 8
    assert table.loc["a", "win_rate"] == pytest.approx(0.75) and table.loc["b", "win_rate"] == pytest.approx(1 / 8)
    assert table.loc["a", "seats_per_game"] == 1 and table.loc["b", "seats_per_game"] == 2
    assert table.loc["a", "win_rate_low"] < 0.75 < table.loc["a", "win_rate_high"]
    assert table.loc["a", "gap_pp"] == pytest.approx(100 * (0.75 - 1 / 3))
    assert table.loc["a", "mean_rank"] == pytest.approx((1 + 1 + 1 + 2) / 4)


def test_head_to_head_counts_every_pair_of_seats_with_different_strategies():
    games = [[("a", 1), ("b", 2), ("b", 3)]] * 3 + [[("b", 1), ("a", 2), ("b", 3)]]
    pairs = head_to_head(_rows(games)).set_index(["a", "b"])
    # a against each b seat: 3 games x 2 pairs ahead, then 1 of 2 in the last game.
    assert pairs.loc[("a", "b"), "pairs"] == 8 and pairs.loc[("a", "b"), "ahead"] == 7
    assert pairs.loc[("b", "a"), "ahead"] == 1
    assert pairs.loc[("a", "b"), "share"] + pairs.loc[("b", "a"), "share"] == pytest.approx(1.0)
    assert ("b", "b") not in pairs.index  # two seats of the same strategy are no head-to-head


@pytest.fixture(scope="module")
def rotated_run(tmp_path_factory):
    spec = RunSpec(name="greedy_vs_random", game="carpe_diem", players=(2, 3), mode="rotate", focus="greedy",
                   strategies=("random",), games=60, chunk_size=12, seed=5,
                   description="greedy rotated against random")
    return run(spec, out=tmp_path_factory.mktemp("runs")).run_dir


def test_rotated_run_report_leads_with_the_focus_strategy_against_the_others(rotated_run, tmp_path):
    report, seats = build_report(rotated_run)
    path = report.write(tmp_path / "report")
    text = (path.parent / "index.md").read_text()
    answers = text.split("\n## Answers\n")[1].split("\n## ")[0]
    first = answers.strip().splitlines()[0]
    assert first.startswith("- **2 players**: carpe_diem/greedy wins ")
    assert "% [" in first and "against random" in first and "ahead of random" in first
    assert seats is None  # no seat verdicts: the seats held different strategies
    for study_word in ("favoured", "disfavoured", "Is the 3-player 13", "Scoring cards", "fair share 1/n rejects"):
        assert study_word not in text
    strategies = pl.read_csv(path.parent / "tables" / "strategies.csv")
    greedy = strategies.filter((pl.col("strategy") == "carpe_diem/greedy") & (pl.col("n_players") == 3))
    assert greedy["seat_games"][0] == 60 and greedy["seats_per_game"][0] == 1
    assert (path.parent / "tables" / "head_to_head.csv").exists()


def test_report_header_gives_exact_game_counts(rotated_run, tmp_path):
    report, _ = build_report(rotated_run)
    text = report.markdown()
    assert "- games: 120 (60 at 2 players, 60 at 3 players)" in text
    assert "+" not in text.split("**Contents**")[0].split("- games:")[1].splitlines()[0]
    assert "Warning" not in text


def test_report_of_an_interrupted_run_carries_a_banner(tmp_path, capsys):
    spec = RunSpec(name="cut", game="carpe_diem", players=(2,), strategies=("greedy",), games=60, chunk_size=12,
                   seed=3)
    run_dir = run(spec, out=tmp_path / "runs").run_dir
    for index in (1, 3, 4):  # as if the run had been stopped with two chunks done
        chunk_path(run_dir, index).unlink()
    meta = json.loads((run_dir / "meta.json").read_text())
    meta["status"] = "interrupted"
    for index in ("1", "3", "4"):
        meta["chunks"].pop(index, None)
    (run_dir / "meta.json").write_text(json.dumps(meta))
    assert run_progress(run_dir).games_done == 24 and run_progress(run_dir).games_planned == 60

    code, _, err = cli(capsys, "report", run_dir)
    assert code == 0, err
    text = (run_dir / "report" / "index.md").read_text()
    head = text.split("**Contents**")[0]
    assert "> **Warning:** These results are incomplete: 24 of 60 planned games (40%) are played." in head
    assert f"bgsim run {run_dir} --resume" in head
    assert "- games: 24 of 60 planned (incomplete) (24 of 60 at 2 players)" in head
    html = (run_dir / "report" / "index.html").read_text()
    assert html.index('class="warning"') < html.index('class="toc"')
    seats = pl.read_csv(run_dir / "report" / "tables" / "seats.csv")
    assert int(np.sum(seats["games"].to_numpy())) == 2 * 24
