"""``bgsim train``: the expert fitted to the search is the same whatever the workers, the chunk size
or an interruption; soft targets are the softmax the module doc promises; bad specs and damaged
records are one-line errors with exit status 2."""

import json
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest
from bgsim.experiments.train import Records, fit_candidates, integer_weights, run_train, soft_targets
from bgsim.experiments.train_spec import load_train
from bgsim.sim import make_game
from bgsim.sim.errors import BgsimError
from bgsim.strategies import make_strategy

from tests.runner.conftest import cli

SMALL = """\
    name = "tiny"
    [game]
    id = "capitol"
    players = 2
    [teacher]
    start = "planner"
    width = 3
    rollouts = 2
    [train]
    rounds = 2
    games = 6
    temperatures = [0, 5]
    select_games = 60
    chunk_size = {chunk}
    seed = 4
    """


def _spec(directory: Path, chunk: int = 2, text: str = SMALL) -> Path:
    path = directory / "tiny.toml"
    path.write_text(textwrap.dedent(text.format(chunk=chunk)))
    return path


def _outcome(directory: Path) -> tuple[dict, list]:
    expert = tomllib.loads((directory / "expert.toml").read_text())
    rounds = json.loads((directory / "train.json").read_text())["rounds"]
    return expert["weights"], rounds


@pytest.mark.own_workers
def test_the_expert_is_the_same_for_any_workers_and_chunk_size(tmp_path):
    one = run_train(load_train(_spec(tmp_path, chunk=2)), tmp_path / "a", jobs=1)
    two = run_train(load_train(_spec(tmp_path, chunk=4)), tmp_path / "b", jobs=2)
    assert one.directory.name == two.directory.name  # the chunk size is not part of the training's id
    assert _outcome(one.directory) == _outcome(two.directory)
    weights, rounds = _outcome(one.directory)
    assert len(rounds) == 2 and rounds[1]["decisions"] > rounds[0]["decisions"] > 100  # records pile up
    assert {c["label"] for c in rounds[0]["candidates"]} == {"choice", "T=5"}
    provenance = tomllib.loads((one.directory / "expert.toml").read_text())["provenance"]
    assert provenance["rounds"] == 2 and provenance["seed"] == 4 and provenance["game"] == "capitol(n_players=2)"
    game = make_game("capitol", n_players=2)
    expert = make_strategy(f"weights(file={str(one.directory / 'expert.toml')!r})", game)
    assert {n: int(w) for n, w in zip(game.feature_names, expert.weights, strict=True) if w} == weights


def test_an_interrupted_training_resumes_to_the_same_expert_without_replaying_finished_chunks(tmp_path):
    spec = load_train(_spec(tmp_path))
    whole = run_train(spec, tmp_path / "whole")

    def stop_after_two_chunks(done, total):
        if done >= 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_train(spec, tmp_path / "cut", on_progress=stop_after_two_chunks)
    with pytest.raises(BgsimError, match="exists: add --resume"):
        run_train(spec, tmp_path / "cut")
    resumed = run_train(spec, tmp_path / "cut", resume=True)
    assert resumed.games_played == 2 * 6 - 4  # only the chunks not on disk were played again
    assert _outcome(resumed.directory) == _outcome(whole.directory)


def test_more_rounds_continue_a_finished_training(tmp_path):
    spec = load_train(_spec(tmp_path))
    first = run_train(spec, tmp_path)
    more = load_train(_spec(tmp_path, text=SMALL.replace("rounds = 2", "rounds = 3")))
    assert more.train_id == spec.train_id
    again = run_train(more, tmp_path, resume=True)
    assert again.games_played == 6 and len(again.rounds) == 3
    assert again.rounds[:2] == _outcome(first.directory)[1][:2]


def test_soft_targets_are_a_softmax_over_the_searched_rows_in_score_points():
    nan = np.nan
    records = Records(np.zeros((7, 1), np.int32), np.array([0, 3, 5, 7]),
                      np.array([1.0, 1.02, nan, 0.5, nan, nan, 0.3]), np.array([1, 0, 1]), np.zeros(3, np.int64))
    targets = soft_targets(records, temperature=2.0, margin=100)
    share = np.exp(2.0 / 2.0)  # 0.02 outcome = 2 points apart: e^1 to 1
    assert np.allclose(targets[:3], [1 / (1 + share), share / (1 + share), 0.0])
    assert np.allclose(targets[3:5], [1.0, 0.0])  # one row rolled out: the row played
    assert np.allclose(targets[5:], [0.0, 1.0])
    assert np.allclose(soft_targets(records, 0.0, 100), [0, 1, 0, 1, 0, 0, 1])  # temperature 0: the row played


def test_integer_weights_keep_the_ratios_with_the_largest_at_the_scale():
    assert integer_weights(np.array([0.5, -2.0, 0.0, 1e-9])).tolist() == [25_000, -100_000, 0, 0]
    assert integer_weights(np.zeros(3)).tolist() == [0, 0, 0]


def test_steps_move_the_best_weights_towards_each_fit_and_leave_the_fits_as_they_were(tmp_path):
    spec = load_train(_spec(tmp_path, text=SMALL.replace("seed = 4", "seed = 4\n    steps = [0.5, 2]")))
    assert spec.train_id != load_train(_spec(tmp_path)).train_id  # other candidates, another training
    rng = np.random.default_rng(3)
    sizes = rng.integers(2, 6, size=400)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    features = rng.integers(0, 5, size=(offsets[-1], 3)).astype(np.int32)
    values = rng.random(offsets[-1])
    chosen = np.array([np.argmax(values[a:b]) for a, b in zip(offsets[:-1], offsets[1:], strict=True)])
    records = Records(features, offsets, values, chosen, np.arange(len(sizes), dtype=np.int64))
    best = np.array([100, 0, -50], dtype=np.int64)
    plain = fit_candidates(load_train(_spec(tmp_path)), records, best)
    stepped = fit_candidates(spec, records, best)
    assert [c.label for c in plain] == ["choice", "T=5"]  # no steps: the fits alone
    assert [c.label for c in stepped] == ["choice", "choice step 0.5", "choice step 2", "T=5", "T=5 step 0.5",
                                          "T=5 step 2"]
    fit = stepped[3].weights / np.abs(stepped[3].weights).max()
    assert (stepped[3].weights == plain[1].weights).all()
    expected = integer_weights(np.array([1.0, 0.0, -0.5]) + 2 * fit)
    assert np.abs(stepped[5].weights - expected).max() <= 2  # the fit's own rounding, scaled once more
    assert stepped[4].held_out_log_likelihood is None and np.isfinite(stepped[3].held_out_log_likelihood)


@pytest.mark.parametrize(("keep", "wins", "kept"), [("ahead", 520, True), ("shown", 520, False), ("shown", 560, True)])
def test_keep_shown_replaces_the_best_only_when_the_interval_lies_above_one_half(tmp_path, monkeypatch, keep, wins,
                                                                                   kept):
    from bgsim.experiments import train
    from bgsim.experiments.tune import Match

    spec = load_train(_spec(tmp_path, text=SMALL.replace("seed = 4", f"seed = 4\n    keep = \"{keep}\"")))
    monkeypatch.setattr(train, "head_to_head", lambda *args: Match(1000, wins, 0.0))  # 52 % is [48.9, 55.1]
    game = make_game("capitol", n_players=2)
    best = make_strategy("planner", game)
    candidate = train.Candidate("T=5", 5.0, best.weights, 10, -1.0, True)
    summary = train._select(spec, game, 1, [candidate], best, best, 10)
    assert summary["kept"] == ("T=5" if kept else None)


@pytest.mark.parametrize(("change", "message"), [
    (("players = 2", "players = [2, 3]"), "game.players must be one player count"),
    (("players = 2", "players = 7"), "7 players is not allowed for capitol"),
    (("start = \"planner\"", "start = \"random\""), "not a weight strategy"),
    (("start = \"planner\"", "start = \"planer\""), "unknown strategy 'planer'"),
    (("temperatures = [0, 5]", "temperatures = [-1]"), "train.temperatures must be a list of numbers >= 0"),
    (("\n    games = 6\n", "\n    games = 0\n"), "train.games must be an integer >= 1"),
    (("seed = 4", "seed = 4\n    steps = [0]"), "train.steps must be a list of numbers > 0"),
    (("seed = 4", "seed = 4\n    keep = \"best\""), "train.keep must be one of 'ahead', 'shown'"),
    (("seed = 4", "seed = 4\n    epochs = 3"), "unknown key [train] 'epochs'"),
    (("id = \"capitol\"", "id = \"capitol(vp=3)\""), "capitol has no parameter 'vp'"),
])
def test_a_bad_training_spec_is_one_line_with_exit_status_2(tmp_path, capsys, change, message):
    path = _spec(tmp_path, text=SMALL.replace(*change))
    code, _, err = cli(capsys, "train", str(path), "--out", str(tmp_path / "runs"))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "runs").exists()  # nothing written


def test_a_damaged_records_file_is_one_line_that_says_how_to_mend_it(tmp_path, capsys):
    spec = load_train(_spec(tmp_path))
    done = run_train(spec, tmp_path)
    (done.directory / "round-02" / "records-000002.npz").write_bytes(b"not an archive")
    (done.directory / "train.json").write_text(json.dumps(json.loads((done.directory / "train.json").read_text())
                                                          | {"rounds": []}))
    code, _, err = cli(capsys, "train", str(_spec(tmp_path)), "--out", str(tmp_path), "--resume", "--quiet")
    assert code == 2 and "records-000002.npz: damaged records file" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("text", "message"), [
    ("[weights]\nstones = 'many'\n", "weights.stones: must be an integer"),
    ("[weights]\nvilla_vp = 3\n", "weights.villa_vp: unknown feature"),
    ("[weights\n", "not valid TOML"),
])
def test_a_bad_expert_file_named_in_a_strategy_is_one_line_with_exit_status_2(tmp_path, capsys, text, message):
    path = tmp_path / "expert.toml"
    path.write_text(text)
    strategies = f"expert(file={str(path)!r}),planner"
    code, _, err = cli(capsys, "play", "capitol", "--players", "2", "--strategies", strategies)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err


CONFIGS = Path(__file__).resolve().parents[2] / "experiments" / "configs"
TRAINING_SPECS = sorted(path for path in CONFIGS.glob("*.toml")  # by their [train] table: studies may end in _expert
                        if "train" in tomllib.loads(path.read_text(encoding="utf-8")))


def test_the_training_spec_of_every_game_is_found_and_no_study_is_taken_for_one():
    assert {path.stem for path in TRAINING_SPECS} == {"capitol_expert", "carpe_diem_expert", "arkadia_expert"}


@pytest.mark.parametrize("path", TRAINING_SPECS, ids=lambda p: p.stem)
def test_the_committed_training_specs_load(path):
    spec = load_train(path)
    assert spec.players == 2 and spec.start == "planner" and spec.train_id.startswith(spec.name + "-")
