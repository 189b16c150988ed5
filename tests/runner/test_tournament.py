"""``bgsim tournament``: specs, pairings on shared deals, resume, determinism, statistics, report."""

import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import polars as pl
import pytest
import tomli_w
from bgsim.experiments.tournament import (
    TournamentSpec,
    load_results,
    load_tournament,
    run_tournament,
    summarise,
    tournament_from_dict,
)
from bgsim.sim.results.spec import SpecError
from bgsim.sim.results.store import RunStoreError
from bgsim.sim.stats import ratings
from polars.testing import assert_frame_equal
from scipy import stats

from tests.runner.conftest import cli

ROOT = Path(__file__).resolve().parents[2]
STRATEGIES = ["random", "greedy", "greedy(vp=30, steps=0)"]


def tournament_doc(**changes) -> dict:
    """A small 2-player round robin of three strategies; the override strategy plays fewer games."""
    doc = {
        "name": "small",
        "game": {"id": "carpe_diem", "players": [2]},
        "tournament": {"strategies": STRATEGIES, "pairings": "all"},
        "run": {"games": 8, "chunk_size": 3, "seed": 5, "games_for": {"greedy(vp=30, steps=0)": 4}},
    }
    if "tournament__strategies" in changes:
        changes.setdefault("run__games_for", {})
    for key, value in changes.items():
        section, _, name = key.rpartition("__")
        table = doc[section] if section else doc
        table[name] = value
    return doc


def write_tournament(directory: Path, name: str = "small", **changes) -> Path:
    path = directory / f"{name}.toml"
    path.write_text(tomli_w.dumps(tournament_doc(**changes)))
    return path


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The small tournament, played once with one worker."""
    tmp = tmp_path_factory.mktemp("tournament")
    spec_path = write_tournament(tmp)
    calls = []
    report = run_tournament(load_tournament(spec_path), out=tmp / "runs",
                            on_progress=lambda done, total: calls.append((done, total)))
    return spec_path, report, calls


# --- spec and pairings


def test_all_pairs_every_combination_and_ladder_only_neighbours():
    base = dict(name="p", game="carpe_diem", players=(2, 3), strategies=("a", "b", "c", "d"), games=12)
    every = TournamentSpec(**base)
    assert every.matchups(2) == [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]
    assert every.matchups(3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "c", "d"), ("b", "c", "d")]
    ladder = TournamentSpec(**base, pairings="ladder", games_for={"d": 6})
    assert ladder.matchups(2) == [("a", "b"), ("b", "c"), ("c", "d")]
    assert ladder.matchups(3) == [("a", "b", "c"), ("b", "c", "d")]
    pairings = ladder.pairing_list()
    assert [(p.n_players, p.strategies, p.games) for p in pairings] == [
        (2, ("a", "b"), 12), (2, ("b", "c"), 12), (2, ("c", "d"), 6), (3, ("a", "b", "c"), 12), (3, ("b", "c", "d"), 6)]
    for p in pairings:
        assert p.spec.mode == "permutations" and p.spec.seed == 0 and p.spec.players == (p.n_players,)
        assert p.spec.strategies == p.strategies and len(p.spec.seatings(p.n_players)) == math.factorial(p.n_players)
    assert len({p.spec.run_id for p in pairings}) == 5
    assert ladder.total_games == 12 * 3 + 6 * 2


def test_the_committed_ladder_caps_search():
    spec = load_tournament(ROOT / "experiments" / "configs" / "ladder.toml")
    assert spec.strategies == ("random", "greedy", "planner", "search") and spec.pairings == "ladder"
    assert [(p.strategies, p.games) for p in spec.pairing_list()] == [
        (("random", "greedy"), 10000), (("greedy", "planner"), 10000), (("planner", "search"), 2000)]


def test_the_tournament_id_follows_the_games_and_the_list_order():
    doc = tournament_doc()
    same = tournament_from_dict(tournament_doc(description="other words"))
    assert tournament_from_dict(doc).tournament_id == same.tournament_id
    reordered = tournament_doc(tournament__strategies=list(reversed(STRATEGIES)))
    reseeded = tournament_doc(run__seed=6)
    ids = {tournament_from_dict(d).tournament_id for d in (doc, reordered, reseeded)}
    assert len(ids) == 3


BAD = {
    "unknown_top_key": (dict(rounds=3), "unknown key 'rounds'"),
    "unknown_run_key": (dict(run__gamez=3), "unknown key [run] 'gamez'"),
    "unknown_tournament_key": (dict(tournament__pairing="all"), "unknown key [tournament] 'pairing'"),
    "unknown_strategy": (dict(tournament__strategies=["random", "gredy"]), "unknown strategy 'gredy'"),
    "bad_override": (dict(tournament__strategies=["random", "greedy(vpp=3)"]), "weights.vpp: unknown feature"),
    "too_few": (dict(game__players=[3], run__games=12, run__games_for={}),
                "lists 2 strategies, fewer than the 3 players"),
    "not_a_multiple": (dict(game__players=[3], run__games=10, run__games_for={}),
                       "run.games = 10 is not a multiple of the 6 seatings of 3 players"),
    "cap_not_a_multiple": (dict(run__games_for={"greedy": 5}), "run.games_for.'greedy' = 5 is not a multiple"),
    "cap_unknown": (dict(run__games_for={"serch": 4}), "run.games_for names 'serch'"),
    "twice": (dict(tournament__strategies=["random", "greedy", "carpe_diem/greedy"]),
              "'greedy' and 'carpe_diem/greedy' are both carpe_diem/greedy"),
    "pairings": (dict(tournament__pairings="swiss"), "tournament.pairings must be one of all, ladder"),
    "players": (dict(game__players=[1]), "games of 2 or more players"),
    "engine_players": (dict(game__players=[2, 5], run__games=240, tournament__strategies=[
        "random", "greedy", "greedy(vp=1)", "greedy(vp=2)", "greedy(vp=3)"]),
                       "5 players is not allowed for carpe_diem (allowed: 1-4)"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_tournaments_give_one_line_and_write_nothing(tmp_path, capsys, case):
    changes, needle = BAD[case]
    if case == "too_few":
        changes = changes | {"tournament__strategies": ["random", "greedy"]}
    path = write_tournament(tmp_path, **changes)
    code, out, err = cli(capsys, "tournament", path, "--out", tmp_path / "runs", "--quiet")
    assert code == 2, out
    assert err.startswith("bgsim: error: ") and needle in err and err.count("\n") == 1, err
    assert not (tmp_path / "runs").exists()


def test_a_malformed_or_missing_spec_is_one_line(tmp_path, capsys):
    path = tmp_path / "broken.toml"
    path.write_text("[game\n")
    assert cli(capsys, "tournament", path, "--out", tmp_path / "runs")[2].count("not valid TOML") == 1
    code, _, err = cli(capsys, "tournament", tmp_path / "nope.toml", "--out", tmp_path / "runs")
    assert code == 2 and "cannot read spec" in err and not (tmp_path / "runs").exists()


# --- playing


def test_every_pairing_is_a_run_on_the_same_deals(played):
    _, report, calls = played
    assert [p.strategies for p in report.pairings] == [("random", "greedy"), ("random", "greedy(vp=30, steps=0)"),
                                                       ("greedy", "greedy(vp=30, steps=0)")]
    assert [r.run_dir.parent for r in report.runs] == [report.directory / "pairings"] * 3
    assert all((r.run_dir / "spec.toml").exists() for r in report.runs)
    frame = load_results(report.directory)
    assert frame.group_by("run_id").agg(pl.len())["len"].sort().to_list() == [4 * 2, 4 * 2, 8 * 2]
    seeds = frame.group_by("deal").agg(pl.col("seed").n_unique().alias("seeds"),
                                       pl.col("run_id").n_unique().alias("runs")).sort("deal")
    assert seeds["seeds"].to_list() == [1, 1, 1, 1]  # one deal, one chance seed, in every pairing
    assert seeds["runs"].to_list() == [3, 3, 1, 1]  # the capped pairings play the first deals of the others
    assert frame["seed"].n_unique() == 4
    per_game = frame.group_by("run_id", "game_index").agg(pl.col("strategy").n_unique())
    assert per_game["strategy"].to_list() == [2] * per_game.height  # two different strategies in every game
    assert set(frame["strategy"].unique()) == set(STRATEGIES)  # as listed, not the canonical ids
    assert calls[0] == (0, 16) and calls[-1] == (16, 16)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)
    meta = json.loads((report.directory / "tournament.json").read_text())
    assert meta["status"] == "complete" and len(meta["pairings"]) == 3


def test_bgsim_load_reads_every_pairing_with_all_its_columns(played):
    import bgsim

    _, report, _ = played
    rows = bgsim.load(report.directory).collect()
    assert {"pairing", "final_vp", "vp_cards", "cards"} <= set(rows.columns)  # the runs' columns, not the summary's
    assert dict(rows.group_by("pairing").len().iter_rows()) == {
        "random vs greedy": 8 * 2, "random vs greedy(vp=30, steps=0)": 4 * 2, "greedy vs greedy(vp=30, steps=0)": 4 * 2}
    assert set(rows["strategy"]) == set(STRATEGIES)  # as listed, like load_results


@pytest.mark.own_workers
def test_the_same_pairing_gives_the_same_games_with_two_workers(played, tmp_path):
    spec_path, report, _ = played
    again = run_tournament(load_tournament(spec_path), out=tmp_path, jobs=2)
    assert again.directory.name == report.directory.name
    assert_frame_equal(load_results(again.directory).sort("run_id", "game_index", "seat"),
                       load_results(report.directory).sort("run_id", "game_index", "seat"))


def test_an_interrupted_tournament_resumes_to_the_uninterrupted_games(played, tmp_path, capsys):
    spec_path, report, _ = played
    spec = load_tournament(spec_path)

    def stop_in_the_second_pairing(done, total):
        if done >= 8 + 3:  # the first pairing (8 games) and one chunk of the second
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tournament(spec, out=tmp_path, on_progress=stop_in_the_second_pairing)
    directory = tmp_path / spec.tournament_id
    assert json.loads((directory / "tournament.json").read_text())["status"] == "interrupted"
    second = directory / "pairings" / spec.pairing_list()[1].spec.run_id
    assert json.loads((second / "meta.json").read_text())["status"] == "interrupted"
    assert len(list(second.glob("chunk-*.parquet"))) == 1
    with pytest.raises(RunStoreError, match="interrupted; finish the tournament with --resume"):
        summarise(directory, replicates=0)

    code, _, err = cli(capsys, "tournament", spec_path, "--out", tmp_path, "--quiet")
    assert code == 2 and "--resume" in err and err.count("\n") == 1
    resumed = run_tournament(spec, out=tmp_path, resume=True)
    assert resumed.games_played == 16 - 8 - 3
    assert [r.chunks_skipped for r in resumed.runs] == [3, 1, 0]
    assert_frame_equal(load_results(directory).sort("run_id", "game_index", "seat"),
                       load_results(report.directory).sort("run_id", "game_index", "seat"))
    assert json.loads((directory / "tournament.json").read_text())["status"] == "complete"


# --- the command and its report


def test_the_command_prints_the_tables_and_writes_the_report(played, tmp_path, capsys):
    spec_path, report, _ = played
    out_dir = report.directory.parent
    code, out, err = cli(capsys, "tournament", spec_path, "--out", out_dir, "--resume", "--quiet",
                         "--report", tmp_path / "report", "--bootstrap", "50")
    assert code == 0, err
    assert "standings at 2 players" in out and "Bradley-Terry ratings" in out and "finished ahead" in out
    assert "(0 played now" in out
    summary = summarise(report, replicates=50)
    files = {p.name for p in (tmp_path / "report").iterdir()}
    assert files == {"README.md", "ratings.png", "pairwise.png", "summary.json", "provenance.json", "tournament.toml"}
    for chart in ("ratings.png", "pairwise.png"):
        assert (tmp_path / "report" / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = (tmp_path / "report" / "README.md").read_text()
    for heading in ("## What was played", "## Standings", "## Pairwise", "## Ratings", "## Neighbours in the list",
                    "## Pairings", "## Provenance", "## Spec"):
        assert heading in text
    assert "| players | strategy | games | win rate [95 % CI] |" in text
    assert "| ahead of → | random | greedy | greedy(vp=30, steps=0) |" in text
    assert "| players | strategy | rating (Elo) | 95 % interval | comparisons |" in text
    for run in report.runs:
        assert f"`{run.run_dir.name}`" in text
    sha = json.loads((report.runs[0].run_dir / "meta.json").read_text())["git"]["sha"]
    assert sha and f"git sha `{sha}`" in text
    sentences = [line for line in text.splitlines() if line.startswith("- **") and " vs **" in line]
    assert len(sentences) == 2 and all("significant at 5 %" in s for s in sentences)
    greedy = summary.standings.set_index("strategy").loc["greedy"]
    assert f"| 2 | greedy | {int(greedy.games)} | {100 * greedy.win_rate:.1f} %" in text

    doc = json.loads((tmp_path / "report" / "summary.json").read_text())
    assert doc["strategies"] == STRATEGIES and doc["settings"]["bootstrap_replicates"] == 50
    assert [r["rating"] for r in doc["ratings"]] == pytest.approx(summary.ratings["rating"].tolist())
    assert len(doc["pairwise"]) == 6 and len(doc["pairings"]) == 3
    stored = tomllib.loads((tmp_path / "report" / "tournament.toml").read_text())
    assert tournament_from_dict(stored).tournament_id == report.spec.tournament_id


def test_the_report_says_what_was_played_before_anything_else(played, tmp_path):
    from bgsim.reports.tournament_report import write_report

    _, report, _ = played
    write_report(summarise(report, replicates=0), tmp_path / "report")
    top = (tmp_path / "report" / "README.md").read_text().split("## What was played")[0]
    assert "- game: carpe_diem(n_players=2)\n" in top and "- rules version: " in top
    assert "- data files: boards.toml reconstructed " in top and "replaced" not in top
    assert "- strategies: random, carpe_diem/greedy, carpe_diem/greedy(steps=0, vp=30)\n" in top
    assert "- seed: 5\n" in top
    assert "- bgsim: " in top
    facts = json.loads((tmp_path / "report" / "provenance.json").read_text())
    assert facts["games"] == ["carpe_diem(n_players=2)"] and facts["seeds"] == [5]
    assert len(facts["strategies"]) == 3 and not any(f["replaced"] for f in facts["data_files"].values())


def test_summary_numbers_follow_from_the_rows(played):
    _, report, _ = played
    frame = load_results(report.directory)
    summary = summarise(report, replicates=40)
    rows = frame.filter(pl.col("strategy") == "greedy")
    standing = summary.standings.set_index("strategy").loc["greedy"]
    assert standing.games == rows.height and standing.wins == rows["won"].sum()
    assert standing.mean_score == pytest.approx(rows["final_score"].mean())
    cell = summary.pairwise.set_index(["a", "b"]).loc[("greedy", "random")]
    duel = frame.filter(pl.col("run_id") == report.runs[0].run_dir.name)
    greedy_ahead = duel.filter((pl.col("strategy") == "greedy") & (pl.col("rank") == 1)).height
    assert (cell.games, cell.ahead) == (8, greedy_ahead)
    assert summary.ratings["strategy"].tolist() == STRATEGIES and summary.ratings["rating"].iloc[0] == 0
    assert summary.settings["anchor"] == "random" and summary.settings["bootstrap_seed"] == 5
    again = summarise(report, replicates=40)
    pd.testing.assert_frame_equal(again.ratings, summary.ratings)  # the bootstrap is seeded


# --- statistics on synthetic data with known answers


def test_wilson_and_t_intervals_match_their_formulas():
    z = stats.norm.ppf(0.975)
    for k, n in ((8, 10), (0, 12), (503, 1000)):
        p = k / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        assert ratings.wilson_interval(k, n) == pytest.approx((centre - half, centre + half), abs=1e-12)
    assert ratings.wilson_interval(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)  # the textbook value
    values = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    low, high = ratings.t_interval(values.mean(), values.std(ddof=1), 5)
    assert (low, high) == pytest.approx((3 - 2.776445 * values.std(ddof=1) / math.sqrt(5),
                                         3 + 2.776445 * values.std(ddof=1) / math.sqrt(5)), abs=1e-5)
    assert ratings.t_interval(2.0, 0.0, 10) == (2.0, 2.0)


def test_bradley_terry_recovers_known_strengths():
    rng = np.random.default_rng(7)
    truth = np.array([0.0, 0.4, 1.1, -0.6])  # natural-log strengths
    wins = np.zeros((4, 4))
    for i in range(4):
        for j in range(i + 1, 4):
            n = 20000
            won = rng.binomial(n, 1 / (1 + math.exp(truth[j] - truth[i])))
            wins[i, j], wins[j, i] = won, n - won
    assert ratings.fit_bradley_terry(wins) == pytest.approx(truth, abs=0.04)
    centred = ratings.fit_bradley_terry(wins, anchor=None)
    assert centred.mean() == pytest.approx(0, abs=1e-12)
    assert centred - centred[0] == pytest.approx(ratings.fit_bradley_terry(wins), abs=1e-8)


def test_even_results_give_equal_ratings_and_a_chain_multiplies_odds():
    even = np.full((3, 3), 50.0) - 50 * np.eye(3)
    assert ratings.fit_bradley_terry(even) == pytest.approx(np.zeros(3), abs=1e-9)
    chain = np.zeros((3, 3))  # a ladder: a-b and b-c only, the stronger one ahead 3 times out of 4
    chain[1, 0], chain[0, 1], chain[2, 1], chain[1, 2] = 300, 100, 300, 100
    step = math.log(300.5 / 100.5)  # one pseudo-game per pair, split half and half
    assert ratings.fit_bradley_terry(chain) == pytest.approx([0, step, 2 * step], abs=1e-8)
    assert ratings.fit_bradley_terry(chain, prior=0) == pytest.approx([0, math.log(3), 2 * math.log(3)], abs=1e-8)


def test_a_strategy_that_never_loses_gets_a_finite_rating_set_by_the_prior():
    wins = np.array([[0.0, 0.0], [40.0, 0.0]])
    assert ratings.fit_bradley_terry(wins) == pytest.approx([0, math.log(40.5 / 0.5)], abs=1e-8)
    assert ratings.fit_bradley_terry(wins, prior=4)[1] == pytest.approx(math.log(42 / 2), abs=1e-8)
    with pytest.raises(ValueError, match="do not connect"):
        ratings.fit_bradley_terry(np.array([[0, 5, 0], [5, 0, 0], [0, 0, 0.0]]))


def _synthetic_results(strengths: dict[str, float], pairs: list[tuple[str, str]], deals: int,
                       seed: int = 0) -> pl.DataFrame:
    """2-player games: every deal of every pair in both seatings, winner drawn from Bradley–Terry."""
    rng = np.random.default_rng(seed)
    rows = []
    for run, (a, b) in enumerate(pairs):
        p_a = 1 / (1 + math.exp(strengths[b] - strengths[a]))
        for deal in range(deals):
            for seating, seats in enumerate(((a, b), (b, a))):
                a_wins = rng.random() < p_a
                for seat, name in enumerate(seats):
                    first = (name == a) == a_wins
                    rows.append({"run_id": f"r{run}", "n_players": 2, "game_index": 2 * deal + seating,
                                 "deal": deal, "seat": seat, "strategy": name, "rank": 1 if first else 2,
                                 "won": first, "tie": False, "final_score": 50 + 10 * first})
    return pl.DataFrame(rows)


def test_ratings_of_a_ladder_cover_the_truth_and_are_seeded():
    truth = {"weak": 0.0, "mid": 0.8, "strong": 1.5}
    frame = _synthetic_results(truth, [("weak", "mid"), ("mid", "strong")], deals=1500)
    (rated,) = ratings.bradley_terry_ratings(frame, ["weak", "mid", "strong"], replicates=300, seed=3)
    table = rated.table()
    expected = [ratings.ELO * truth[s] for s in ("weak", "mid", "strong")]
    assert (table["low"] <= expected).all() and (table["high"] >= expected).all()
    assert table["rating"].tolist() == pytest.approx(expected, abs=60)
    assert table.loc[0, ["rating", "low", "high"]].tolist() == [0, 0, 0]  # the anchor
    assert table["comparisons"].tolist() == [3000, 6000, 3000]
    (same,) = ratings.bradley_terry_ratings(frame, ["weak", "mid", "strong"], replicates=300, seed=3)
    np.testing.assert_array_equal(same.samples, rated.samples)
    (other,) = ratings.bradley_terry_ratings(frame, ["weak", "mid", "strong"], replicates=300, seed=4)
    assert not np.array_equal(other.samples, rated.samples)
    diff, low, high = rated.difference("weak", "strong")
    assert low < diff < high and diff == pytest.approx(rated.elo[2])


def test_the_bootstrap_resamples_whole_deals_within_their_stratum():
    frame = _synthetic_results({"a": 0.0, "b": 0.5, "c": 0.2}, [("a", "b"), ("b", "c")], deals=6)
    capped = frame.filter((pl.col("run_id") == "r0") | (pl.col("deal") < 2))  # the b-c pairing plays 2 deals
    wins, strata = ratings.deal_win_counts(ratings.comparisons(capped), ["a", "b", "c"])
    assert wins.shape == (6, 3, 3) and wins.sum() == 6 * 2 + 2 * 2
    assert wins[:2, 1:, 1:].sum() == 4 and wins[2:, 1:, 1:].sum() == 0  # b-c only on the first deals
    assert len(set(strata[:2])) == 1 and len(set(strata[2:])) == 1 and strata[0] != strata[2]
    weights = ratings.resample_deals(strata, replicates=200, seed=1)
    assert weights.shape == (200, 6)
    assert (weights[:, :2].sum(axis=1) == 2).all() and (weights[:, 2:].sum(axis=1) == 4).all()
    assert weights.std(axis=0).min() > 0  # every deal is sometimes drawn more or less often
    np.testing.assert_array_equal(weights, ratings.resample_deals(strata, replicates=200, seed=1))
    samples = ratings.bootstrap_bradley_terry(wins, strata, replicates=20, seed=1)
    assert samples.shape == (20, 3) and np.all(samples[:, 0] == 0) and np.isfinite(samples).all()
    assert samples[:, 1].std() > 0


def test_pairwise_standings_and_neighbours_from_rows():
    frame = pl.DataFrame({
        "run_id": ["r"] * 9, "n_players": [3] * 9, "game_index": [0, 0, 0, 1, 1, 1, 2, 2, 2],
        "deal": [0] * 9, "seat": [0, 1, 2] * 3, "strategy": ["x", "y", "z"] * 3,
        "rank": [1, 2, 3, 2, 1, 3, 1, 3, 2], "won": [True, False, False, False, True, False, True, False, False],
        "tie": [False, False, False, True, True, False, False, False, False],
        "final_score": [9, 5, 1, 7, 7, 2, 8, 1, 3]})
    pairs = ratings.comparisons(frame)
    assert pairs.height == 3 * 6  # every ordered pair of seats of a 3-player game
    table = ratings.pairwise(frame, ["x", "y", "z"]).set_index(["a", "b"])
    assert (table.loc[("x", "y"), ["games", "ahead", "behind"]].tolist()) == [3, 2, 1]
    assert table.loc[("x", "y"), "share"] + table.loc[("y", "x"), "share"] == pytest.approx(1)
    assert table.loc[("x", "z"), "p_value"] == pytest.approx(stats.binomtest(3, 3).pvalue)
    assert table.loc[("x", "z"), "q_value"] == table.loc[("z", "x"), "q_value"]
    p = [table.loc[pair, "p_value"] for pair in (("x", "y"), ("x", "z"), ("y", "z"))]
    assert sorted(table["q_value"].unique()) == pytest.approx(sorted(set(stats.false_discovery_control(p))))
    standing = ratings.standings(frame, ["x", "y", "z"])
    assert standing["strategy"].tolist() == ["x", "y", "z"]
    assert standing["wins"].tolist() == [2, 1, 0] and standing["tie_break_wins"].tolist() == [0, 1, 0]
    assert standing["mean_rank"].tolist() == pytest.approx([4 / 3, 2, 8 / 3])
    rated = ratings.bradley_terry_ratings(frame, ["x", "y", "z"], replicates=10)
    near = ratings.neighbours(ratings.pairwise(frame, ["x", "y", "z"]), rated, ["x", "y", "z"])
    assert near[["lower", "upper", "games"]].values.tolist() == [["x", "y", 3], ["y", "z", 3]]
    assert near["share"].tolist() == pytest.approx([1 / 3, 1 / 3])
    assert not near["significant"].any()


def test_the_ratings_module_imports_no_engine():
    code = ("import sys, bgsim.sim.stats.ratings; sys.exit('numba' in sys.modules or any(m.startswith(("
            "'bgsim.sim.games', 'bgsim.strategies', 'bgsim.experiments', 'bgsim.reports')) for m in sys.modules))")
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_spec_errors_name_the_bad_value():
    with pytest.raises(SpecError, match="lists 'greedy' twice"):
        tournament_from_dict(tournament_doc(tournament__strategies=["greedy", "greedy"]))
    with pytest.raises(SpecError, match="strategies is missing"):
        tournament_from_dict({"game": {"id": "carpe_diem"}})
    with pytest.raises(SpecError, match="run.games must be at least 1"):
        tournament_from_dict(tournament_doc(run__games=0, run__games_for={}))
