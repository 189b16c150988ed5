"""The difficulty study of the solo automa Anna end to end: spec checks, a tiny study (base runs,
knob sweep, calibration of every level, fresh-deal checks), resume, determinism, its report in a
browser, and bad input on the command line."""

import json
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from bgsim.experiments.difficulty import at_the_table, difficulty_from_dict, load_difficulty, load_rows, run_difficulty
from bgsim.experiments.difficulty_spec import KNOBS
from bgsim.sim.games.carpe_diem.params import PARAM_DOCS, Params
from bgsim.sim.results.spec import SpecError

from bgsim.report import build_report
from tests.reports.browser import check_page
from tests.runner.conftest import cli

ROOT = Path(__file__).resolve().parents[2]
TINY = """\
    name = "tiny"
    [game]
    id = "carpe_diem"
    [ladder]
    random = "random"
    weak = "greedy"
    [run]
    games = 80
    chunk_size = 30
    seed = 5
    [sweep]
    rungs = ["weak"]
    games = 40
    [sweep.values]
    anna_extra_steps = [0, 3]
    anna_majority_vp = [6, 14]
    [calibration]
    knob = "anna_start_vp"
    low = -200
    high = 60
    step = 4
    games = 80
    verify_games = 40
    [calibration.step_for]
    random = 8
    [calibration.levels]
    easy = 0.7
    hard = 0.3
    """


def tiny_doc(**changes) -> dict:
    doc = tomllib.loads(textwrap.dedent(TINY))
    for key, value in changes.items():
        section, _, name = key.rpartition("__")
        table = doc
        for part in filter(None, section.split("__")):
            table = table.setdefault(part, {})
        table[name] = value
    return doc


def test_the_committed_spec_loads_with_the_whole_ladder_and_four_levels():
    spec = load_difficulty(ROOT / "experiments" / "configs" / "anna.toml")
    assert list(spec.ladder.values()) == ["random", "greedy", "planner", "search"]
    assert spec.levels == {"easy": 0.7, "normal": 0.5, "hard": 0.3, "expert": 0.15}
    assert set(spec.sweep_values) == set(KNOBS)
    runs = spec.base_settings() + spec.sweep_settings()
    assert {s.spec.seed for s in runs} == {spec.seed} and {s.spec.players for s in runs} == {(1,)}
    assert spec.setting("verify", "weak", spec.knob, 0, "easy").spec.seed == spec.seed + 1  # fresh deals


def test_every_knob_is_a_documented_parameter_with_a_phrase_for_the_table():
    for knob in KNOBS:
        assert knob in Params.__dataclass_fields__ and PARAM_DOCS[knob].startswith("difficulty knob")
    assert at_the_table("anna_start_vp", -6) == "Anna starts with -6 VP"
    assert at_the_table("anna_majority_vp", 12) == "Anna scores 12 VP per majority (6 for a tie)"
    assert at_the_table("anna_extra_steps", 1).endswith("moves 1 step at the start of each pass")


@pytest.mark.parametrize(("changes", "message"), [
    ({"colour": 1}, "unknown key 'colour'"),
    ({"calibration__knob": "anna_mood"}, "calibration.knob must be one of"),
    ({"calibration__levels__easy": 1.5}, "between 0 and 1"),
    ({"calibration__low": 70}, "low < high"),
    ({"sweep__rungs": ["strong"]}, "sweep.rungs must list rungs"),
    ({"sweep__values__anna_mood": [1, 2]}, "not a difficulty knob"),
    ({"game__params__anna_start_vp": 3}, "the calibration sets this knob"),
    ({"game__params__n_players": 2}, "solo game"),
    ({"run__games_for__nobody": 10}, "'nobody', which is not a rung"),
    ({"ladder": {}}, "at least one rung"),
])
def test_bad_specs_fail_with_one_line(changes, message):
    with pytest.raises(SpecError, match=message) as info:
        difficulty_from_dict(tiny_doc(**changes))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("changes", "message"), [
    ({"ladder__weak": "greedyy"}, "greedyy"),
    ({"calibration__knob": "anna_convert_at", "calibration__low": 0, "calibration__high": 8},
     "anna_convert_at must be at least 1"),
])
def test_bad_strategies_and_knob_values_fail_before_any_file(tmp_path, capsys, changes, message):
    import tomli_w

    path = tmp_path / "bad.toml"
    path.write_bytes(tomli_w.dumps(tiny_doc(**changes)).encode())
    code, _, err = cli(capsys, "difficulty", path, "--out", tmp_path / "runs", "--quiet")
    assert code == 2 and err.count("\n") == 1 and message in err
    assert not (tmp_path / "runs").exists()


@pytest.fixture(scope="module")
def tiny_study(tmp_path_factory):
    root = tmp_path_factory.mktemp("difficulty")
    spec = root / "tiny.toml"
    spec.write_text(textwrap.dedent(TINY))
    result = run_difficulty(load_difficulty(spec), out=root / "runs")
    return root, result.directory


def test_the_study_stores_base_sweep_calibration_and_fresh_deal_runs(tiny_study):
    _, directory = tiny_study
    meta = json.loads((directory / "difficulty.json").read_text())
    assert meta["status"] == "complete"
    kinds = [r["kind"] for r in meta["runs"]]
    assert kinds.count("base") == 2 and kinds.count("sweep") == 4 and kinds.count("verify") == 4
    assert kinds.count("calibrate") >= 2 * 3  # both ends and at least one bisection step per rung
    base = load_rows(directory, "base").collect()
    assert base.height == 2 * 80 and set(base["rung"].unique()) == {"random", "weak"}
    sources = ["anna_vp_start", "anna_vp_banner", "anna_vp_villa", "anna_vp_majority", "anna_vp_fountain"]
    assert (base.select(pl.sum_horizontal(sources)).to_series() == base["anna_vp"]).all()  # CD-ANNA-22
    sweep = load_rows(directory, "sweep").collect()
    assert sweep.height == 4 * 40 and set(sweep["knob"].unique()) == {"anna_extra_steps", "anna_majority_vp"}


def test_every_level_is_solved_in_order_and_checked_on_fresh_deals(tiny_study):
    _, directory = tiny_study
    levels = json.loads((directory / "difficulty.json").read_text())["levels"]
    assert [(lv["rung"], lv["level"]) for lv in levels] == [("random", "easy"), ("random", "hard"),
                                                             ("weak", "easy"), ("weak", "hard")]
    for rung in ("random", "weak"):
        easy, hard = (lv for lv in levels if lv["rung"] == rung)
        assert easy["reachable"] and hard["reachable"]
        assert easy["value"] < hard["value"]  # a harder level gives Anna more start VP
        for lv in (easy, hard):
            assert lv["value_low"] <= lv["value"] <= lv["value_high"]
            assert lv["rate_low"] <= lv["target"] <= lv["rate_high"]  # the solution fits its target
            assert lv["verify_games"] == 40 and lv["verify_dir"].startswith("verify/")
    verify = load_rows(directory, "verify").collect()
    assert verify.height == 4 * 40


def test_bgsim_load_reads_every_run_of_the_study_labelled(tiny_study):
    import bgsim

    _, directory = tiny_study
    rows = bgsim.load(directory).collect()
    for kind in ("base", "sweep", "calibrate", "verify"):
        part = rows.filter(pl.col("kind") == kind).drop("kind")
        assert part.equals(load_rows(directory, kind).collect()), kind
    sweep = rows.filter(pl.col("kind") == "sweep").group_by("rung", "knob", "value").len()
    assert sorted(sweep.iter_rows()) == [("weak", "anna_extra_steps", 0, 40), ("weak", "anna_extra_steps", 3, 40),
                                         ("weak", "anna_majority_vp", 6, 40), ("weak", "anna_majority_vp", 14, 40)]


def test_calibration_runs_agree_with_the_base_games_rescored(tiny_study):
    """Anna's start VP changes no decision of the random player, and every run shares the deals:
    the games at start VP k must be the base games with Anna's score shifted by k, the VP ties
    going to the player further back on the banner track (CD-ANNA-25, AMB-27)."""
    _, directory = tiny_study
    base = load_rows(directory, "base").filter(pl.col("rung") == "random").sort("game_index").collect()
    tried = load_rows(directory, "calibrate").filter(pl.col("rung") == "random").collect()
    assert tried["value"].n_unique() >= 3
    for (value,), games in tried.group_by("value"):
        games = games.sort("game_index")
        assert (games["final_vp"] == base["final_vp"]).all()
        assert (games["margin"] == base["margin"] - value).all()
        expected = (games["margin"] > 0) | ((games["margin"] == 0) & (games["tie"]) & (games["won"]))
        assert (games["won"] == expected).all() and ((games["margin"] < 0) & games["won"]).sum() == 0


@pytest.mark.own_workers
def test_the_same_study_with_other_chunks_and_workers_gives_the_same_levels(tiny_study, tmp_path):
    _, directory = tiny_study
    doc = tiny_doc(run__chunk_size=13)
    other = run_difficulty(difficulty_from_dict(doc), out=tmp_path, jobs=2)
    first = json.loads((directory / "difficulty.json").read_text())["levels"]
    second = json.loads((other.directory / "difficulty.json").read_text())["levels"]
    drop = ("verify_dir",)
    assert [{k: v for k, v in lv.items() if k not in drop} for lv in first] == \
           [{k: v for k, v in lv.items() if k not in drop} for lv in second]


def test_a_finished_study_resumes_without_playing_and_is_not_overwritten(tiny_study, capsys):
    root, directory = tiny_study
    spec = load_difficulty(root / "tiny.toml")
    again = run_difficulty(spec, out=root / "runs", resume=True)
    assert again.games_played == 0 and again.directory == directory
    code, _, err = cli(capsys, "difficulty", root / "tiny.toml", "--out", root / "runs", "--quiet")
    assert code == 2 and err.count("\n") == 1 and "--resume" in err


def test_a_study_without_verification_runs_counts_no_verify_games():
    spec = difficulty_from_dict(tiny_doc(calibration__verify_games=0))
    with_verify = difficulty_from_dict(tiny_doc())
    assert spec.known_games == with_verify.known_games - 40 * len(spec.ladder) * len(spec.levels)


def test_an_interrupted_study_finishes_with_resume(tmp_path):
    spec = difficulty_from_dict(tiny_doc(sweep__rungs=[]))
    stop_after = {"runs": 0}

    def interrupt(done, total):
        stop_after["runs"] += 1
        if stop_after["runs"] == 12:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_difficulty(spec, out=tmp_path, on_progress=interrupt)
    directory = tmp_path / spec.study_id
    assert json.loads((directory / "difficulty.json").read_text())["status"] == "interrupted"
    report = build_report(directory)[0].markdown()  # what is there so far, under a banner
    head = report.split("**Contents**")[0]
    assert "> **Warning:** These results are incomplete:" in head and "of about" in head
    assert f"bgsim difficulty {directory / 'difficulty.toml'} --out {tmp_path} --resume" in head
    assert "- games: " in head and "(incomplete)" in head
    finished = run_difficulty(spec, out=tmp_path, resume=True)
    assert "Warning" not in build_report(directory)[0].markdown()
    fresh = run_difficulty(spec, out=tmp_path / "fresh")
    assert 0 < finished.games_played < fresh.games_played  # the finished runs were kept
    levels = [json.loads((d / "difficulty.json").read_text())["levels"] for d in (directory, fresh.directory)]
    assert [lv["value"] for lv in levels[0]] == [lv["value"] for lv in levels[1]]


def test_the_report_has_every_section(tiny_study, capsys):
    _, directory = tiny_study
    code, out, _ = cli(capsys, "report", directory)
    assert code == 0 and "report:" in out
    report = directory / "report"
    html = (report / "index.html").read_text()
    for part in ("Answers", "Where Anna", "Difficulty knobs", "Difficulty levels", "fresh deals",
                 "Anna starts with"):
        assert part in html
    assert {p.name for p in (report / "figures").iterdir()} == {
        "win_rates.png", "margins.png", "automa_sources.png", "knob_sweep.png", "calibration.png"}
    assert {p.name for p in (report / "tables").iterdir()} == {
        "outcomes.csv", "automa_sources.csv", "knob_sweep.csv", "levels_card.csv", "levels.csv", "provenance.json"}
    levels = pl.read_csv(report / "tables" / "levels.csv")
    assert levels.height == 4 and {"verify_rate_low", "verify_rate_high", "outcome"} <= set(levels.columns)


def test_the_report_header_says_what_the_base_runs_played(tiny_study, tmp_path):
    _, directory = tiny_study
    report, _ = build_report(directory)
    report.write(tmp_path / "report")
    head = (tmp_path / "report" / "index.md").read_text().split("**Contents**")[0]
    assert "- game: carpe_diem(n_players=1)\n" in head and "- rules version: " in head
    assert "- data files: anna.toml reconstructed " in head and "; boards.toml reconstructed " in head
    assert "replaced" not in head  # the study plays the game's own data
    assert "- strategies: random, carpe_diem/greedy\n" in head and "- seed: 5\n" in head
    assert "- bgsim: " in head
    facts = json.loads((tmp_path / "report" / "tables" / "provenance.json").read_text())
    assert facts["games"] == ["carpe_diem(n_players=1)"] and facts["seeds"] == [5]
    assert facts["strategies"] == ["random", "carpe_diem/greedy"] and facts["data_files"]


def test_the_report_renders_in_a_browser_without_errors(tiny_study, browser):
    from bgsim.report import write_report

    _, directory = tiny_study
    path, _ = write_report(directory)
    result = check_page(path, browser)
    assert result.ok, result.problems
    assert len(result.images) == 5


def test_a_damaged_study_is_a_one_line_error(tiny_study, capsys, tmp_path):
    import shutil

    _, directory = tiny_study
    copy = tmp_path / "damaged"
    shutil.copytree(directory, copy)
    (copy / "difficulty.json").write_text("{ not json")
    code, _, err = cli(capsys, "report", copy)
    assert code == 2 and err.count("\n") == 1 and "damaged" in err
    code, _, err = cli(capsys, "difficulty", ROOT / "experiments" / "configs" / "anna.toml", "--jobs", "0")
    assert code == 2 and "--jobs" in err


def test_calibrate_solves_one_target_from_the_command_line(tmp_path, capsys):
    code, out, _ = cli(capsys, "calibrate", "greedy", "--target", "50", "--low", "-40", "--high", "40",
                       "--games", "60", "--verify-games", "30", "--out", tmp_path, "--quiet")
    assert code == 0 and "Anna starts with" in out and "50 %" in out
    (directory,) = tmp_path.iterdir()
    (level,) = json.loads((directory / "difficulty.json").read_text())["levels"]
    assert level["target"] == 0.5 and level["rate_low"] <= 0.5 <= level["rate_high"]
    for args, message in ((("--target", "120"), "between 0 and 100"), (("--knob", "anna_mood"), "--knob must be"),
                          (("--low", "5", "--high", "5"), "--low and --high")):
        code, _, err = cli(capsys, "calibrate", "greedy", *args, "--out", tmp_path / "bad", "--quiet")
        assert code == 2 and err.count("\n") == 1 and message in err
    assert not (tmp_path / "bad").exists()


def test_levels_table_judges_each_level_within_its_tolerance_and_tells_a_miss_from_a_disagreement():
    from bgsim.sim.stats.difficulty import levels_table

    base = {"rung": "r", "knob": "anna_start_vp", "reachable": True, "slope": 0.013}
    levels = levels_table([
        base | {"level": "a", "target": 0.5, "wins": 5000, "games": 10000, "verify_wins": 4700, "verify_games": 10000},
        base | {"level": "b", "target": 0.3, "wins": 3000, "games": 10000, "verify_wins": 3010, "verify_games": 10000},
        base | {"level": "c", "target": 0.5, "wins": 4980, "games": 10000, "verify_wins": 4880, "verify_games": 10000},
    ]).set_index("level")
    # +-2 pp by two one-sided tests: 3 pp off is off for sure, 0.1 pp held, 1.2 pp too close to the edge to tell
    assert levels.loc["a", "outcome"] == "off" and not levels.loc["a", "consistent"]  # 3 pp apart: other deals
    assert levels.loc["b", "outcome"] == "held" and levels.loc["b", "consistent"]
    assert levels.loc["c", "outcome"] == "cannot tell" and levels.loc["c", "consistent"]  # as calibrated
    assert levels.loc["c", "games_to_tell"] > 10000 and np.isnan(levels.loc["b", "games_to_tell"])
    assert levels.loc["a", "off_pp"] == pytest.approx(-3.0) and levels.loc["b", "slope_pp"] == pytest.approx(1.3)


def test_outcome_and_source_tables_on_known_games():
    from bgsim.sim.stats.difficulty import outcome_table, source_table

    margins = [-10, -5, 0, 5, 10, 20]
    rows = pl.DataFrame({"rung": ["x"] * 6, "margin": margins, "won": [m > 0 or m == 0 for m in margins],
                         "tie": [m == 0 for m in margins], "final_vp": [100 + m for m in margins],
                         "anna_vp": [100] * 6, "anna_vp_start": [0] * 6, "anna_vp_banner": [10] * 6,
                         "anna_vp_villa": [30] * 6, "anna_vp_majority": [50] * 6, "anna_vp_fountain": [10] * 6})
    out = outcome_table(rows, score="final_vp", automa_score="anna_vp").iloc[0]
    assert out.games == 6 and out.wins == 4 and out.win_rate == pytest.approx(4 / 6)
    assert out.tie_rate == pytest.approx(1 / 6) and out.mean_margin == pytest.approx(20 / 6)
    assert out.margin_p50 == pytest.approx(2.5) and out.mean_margin_low < out.mean_margin < out.mean_margin_high
    columns = {"anna_vp_start": "start", "anna_vp_banner": "banner", "anna_vp_villa": "villas",
               "anna_vp_majority": "majorities", "anna_vp_fountain": "fountain cards"}
    sources = source_table(rows, columns, "anna_vp").set_index("source")
    assert sources["mean"].sum() == pytest.approx(100) and sources.loc["majorities", "share"] == pytest.approx(0.5)
