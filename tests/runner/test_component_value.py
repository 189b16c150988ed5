"""The component-value study (experiments/component_value.py) on Carpe Diem's scoring cards:
decision points and their paired rollouts are a function of the spec alone (workers, chunk size,
a kill and a resume change nothing), replayed points give the very rollouts that were sampled, a
card's VP moves its value the right way, and bad specs end in one line."""

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from bgsim.experiments import component_value as cv
from pandas.testing import assert_frame_equal

from bgsim.report import build_report
from tests.runner.conftest import cli

SPEC = """
name = "{name}"
[game]
id = "carpe_diem"
players = [2]
[population]
strategies = ["greedy"]
[sample]
games = {games}
rollouts = 4
chunk_size = {chunk}
seed = 3
[solver]
q = 0.0
{extra}
"""


def write(tmp_path: Path, name: str = "cards", games: int = 4, chunk: int = 2, extra: str = "") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(SPEC.format(name=name, games=games, chunk=chunk, extra=extra))
    return path


def points(directory: Path) -> pd.DataFrame:
    return cv.load_points(directory).sort_values(["n_players", "game", "point", "component"]).reset_index(drop=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[cv.ComponentValueSpec, Path]:
    tmp = tmp_path_factory.mktemp("cv")
    spec = cv.load_component_value(write(tmp))
    return spec, cv.run_component_value(spec, out=tmp / "runs").directory


def test_every_disc_decision_with_cards_on_offer_is_a_point(reference):
    spec, directory = reference
    rows = points(directory)
    # 2 players: one disc per seat in each of the 4 pass scorings (CD-SCORING-3), each a choice
    assert rows.groupby("game")["point"].nunique().tolist() == [8] * spec.games
    assert set(rows["rollouts"]) == {spec.rollouts // 2}
    assert (rows["row"] != rows["rival"]).all()
    assert json.loads((directory / cv.STUDY.marker).read_text())["status"] == "complete"


@pytest.mark.own_workers
def test_points_are_identical_for_any_workers_and_chunk_size(reference, tmp_path):
    spec, directory = reference
    other = cv.load_component_value(write(tmp_path, chunk=1))
    assert other.study_id == spec.study_id  # the chunk size does not change the study
    again = cv.run_component_value(other, out=tmp_path / "runs", jobs=2).directory
    assert_frame_equal(points(again), points(directory))


def test_a_killed_study_resumes_exactly(reference, tmp_path):
    spec, directory = reference
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    meta = json.loads((copy / cv.STUDY.marker).read_text())
    (copy / "points" / "n2" / "chunk-000000.parquet").unlink()  # killed before this chunk was written
    del meta["chunks"]["n2-0"], meta["chunks"]["n2-2"]  # and before meta.json knew of the next one
    meta["status"] = "sampling"
    (copy / cv.STUDY.marker).write_text(json.dumps(meta))
    (copy / "choice_values.csv").unlink()
    result = cv.run_component_value(spec, out=tmp_path, resume=True)
    assert result.games_played == spec.chunk_size  # only the missing chunk, not the unlisted whole one
    assert_frame_equal(points(copy), points(directory))
    assert_frame_equal(pd.read_csv(copy / "choice_values.csv"), pd.read_csv(directory / "choice_values.csv"))


def test_a_damaged_chunk_is_sampled_again_on_resume(reference, tmp_path):
    spec, directory = reference
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    chunk = copy / "points" / "n2" / "chunk-000002.parquet"
    chunk.write_bytes(chunk.read_bytes()[:100])
    assert cv.run_component_value(spec, out=tmp_path, resume=True).games_played == spec.chunk_size
    assert_frame_equal(points(copy), points(directory))


def test_replayed_points_give_the_rollouts_that_were_sampled(reference):
    spec, directory = reference
    setup = cv._setup(spec, 2)
    rows = points(directory).head(12)
    replayed = cv._replay(setup, spec, rows)
    assert len(replayed) == rows[["game", "point"]].drop_duplicates().shape[0]
    for g, point in replayed:
        stored = rows[(rows["game"] == g) & (rows["point"] == point.ordinal)]
        for component, win in zip(stored["component"], stored["win"], strict=True):
            value = cv._point_value(setup, setup.game, point, int(component), spec.rollouts, spec.seed, g)
            assert value[1] == pytest.approx(win, abs=0)


def test_CD_CARD_8_more_vp_per_fulfilment_makes_a_card_worth_more_on_the_same_points(reference):
    spec, directory = reference
    setup = cv._setup(spec, 2)
    rows = points(directory)
    card = int(rows["component"].value_counts().index[0])
    mine = rows[rows["component"] == card]
    margins = {}
    for extra in (0, 20):
        game = setup.game.with_payout(card, setup.game.payout(card) + extra)
        total = 0.0
        for g, point in cv._replay(setup, spec, mine):
            total += cv._point_value(setup, game, point, card, spec.rollouts, spec.seed, g)[2]
        margins[extra] = total / len(mine)
    assert margins[20] > margins[0] + 5  # the card's row now scores 20 VP more per fulfilment


def test_with_payout_leaves_the_game_it_came_from_alone(reference):
    spec, _ = reference
    game = cv._setup(spec, 2).game
    before = [game.payout(c) for c in range(60)]
    changed = game.with_payout(5, 11)
    assert changed.payout(5) == 11 and [game.payout(c) for c in range(60)] == before
    assert changed.id == game.id and changed.rules_args[0] is not game.rules_args[0]


def test_the_report_answers_per_player_count_and_compares_with_an_association_table(reference, tmp_path):
    spec, directory = reference
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    values = pd.read_csv(copy / "choice_values.csv")
    association = values[["n_players", "id"]].assign(win_diff=-values["win"])  # the opposite ranking
    association.to_csv(tmp_path / "association.csv", index=False)
    stored = (copy / cv.STUDY.spec_file).read_text() + f'[compare]\nassociation = "{tmp_path / "association.csv"}"\n'
    (copy / cv.STUDY.spec_file).write_text(stored)
    report, _ = build_report(copy)
    text = report.markdown()
    assert "## Answers" in text and "**2 players:**" in text
    assert "- rules version: 1" in text and "scoring_cards.toml exact" in text  # what was played heads it
    assert report.provenance["strategies"] == ["carpe_diem/greedy"]
    assert "## Against the association table" in text and "within each deck" in text


CONFIGS = sorted((Path(__file__).resolve().parents[2] / "experiments" / "configs").glob("*component_value*.toml"))


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_committed_component_value_specs_load_with_their_association_tables(path):
    spec = cv.load_component_value(path)
    assert spec.study_id.startswith(spec.name + "-") and spec.players == (2, 3, 4)
    assert spec.association and cv.association_table(spec.to_dict(), path.parent) is not None


@pytest.mark.parametrize(("change", "message"), [
    ("rollouts = 4", "rollouts = 3"),
    ('strategies = ["greedy"]', 'strategies = ["nobody"]'),
    ('strategies = ["greedy"]', 'strategies = ["search"]'),
    ('id = "carpe_diem"', 'id = "sealed_bids"'),  # its rulebook game has no component choice
    ("rollouts = 4", 'rollouts = 4\n[tolerance]\npayout_steps = "half"'),
    ("rollouts = 4", "rollouts = 4\n[tolerance]\nseat_pp = 2"),  # a seat tolerance means nothing here
    ("[solver]", '[solver]\nfresh_games = "some"'),
])
def test_a_bad_spec_ends_in_one_line_with_status_2(tmp_path, capsys, change, message):
    path = write(tmp_path)
    path.write_text(path.read_text().replace(change, message))
    code, out, err = cli(capsys, "component-value", path, "--out", tmp_path / "runs", "--quiet")
    assert code == 2 and out == "" and err.startswith("bgsim: error: ") and err.count("\n") == 1, err
    assert not (tmp_path / "runs").exists()


def test_new_solver_settings_keep_the_sampled_points_and_solve_again(reference, tmp_path):
    spec, directory = reference
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    rows = points(directory)
    card = int(rows["component"].value_counts().index[0])
    card_id = pd.read_csv(directory / "choice_values.csv").set_index("component").loc[card, "id"]
    other = cv.load_component_value(write(tmp_path, extra=f'points = 10\ncomponents = ["{card_id}"]'))
    assert other.study_id == spec.study_id
    result = cv.run_component_value(other, out=tmp_path, resume=True)
    assert result.games_played == 0
    solved = pd.read_csv(copy / "payouts.csv")
    assert solved["component"].tolist() == [card] and solved["points"].tolist() == [10]
    assert f'"{card_id}"' in (copy / cv.STUDY.spec_file).read_text()  # the report describes the settings used
    again = cv.run_component_value(spec, out=tmp_path, resume=True)  # back to none named: no solution left
    assert again.games_played == 0 and pd.read_csv(copy / "payouts.csv").empty


def test_sampling_values_and_solving_never_hold_every_point_at_once(reference, tmp_path, monkeypatch):
    """Memory stays flat in the number of points: values come from chunk moments and the solver
    reads one component's points, never the whole table (``load_points`` is for a person's look)."""
    spec, directory = reference
    card_id = pd.read_csv(directory / "choice_values.csv").sort_values("points").iloc[-1]["id"]

    def whole_table(*args, **kwargs):
        raise AssertionError("the study loaded every point")

    monkeypatch.setattr(cv, "load_points", whole_table)
    other = cv.load_component_value(write(tmp_path, name="flat", extra=f'points = 5\ncomponents = ["{card_id}"]'))
    result = cv.run_component_value(other, out=tmp_path / "runs")
    assert len(pd.read_csv(result.directory / "payouts.csv")) == 1


def test_a_payout_step_is_the_value_one_unit_of_payout_moves():
    trials = [{"payout": p, "win": w} for p, w in ((-5, -0.2), (3, -0.03), (4, 0.006), (5, 0.03), (30, 0.4))]
    step = cv.payout_step(trials, 4)
    assert step == pytest.approx(0.03)  # the nearest payouts tried on either side, per unit
    assert cv.payout_step(trials, 30) != cv.payout_step(trials, 30)  # NaN: nothing tried above
