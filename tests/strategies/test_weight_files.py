"""Weight strategies from ids and files: weights(...), file=, overrides, one-line errors with exit
status 2 from every command that takes strategy ids, and `bgsim strategies`."""


import numpy as np
import pytest
from bgsim.sim import make_game
from bgsim.sim.errors import StrategyError
from bgsim.sim.games.carpe_diem.features import FEATURE_NAMES
from bgsim.strategies import make_strategy
from bgsim.strategies.carpe_diem import WEIGHTS_DIR, personalities

from tests.runner.conftest import cli, write_spec


@pytest.fixture(scope="module")
def game():
    return make_game("carpe_diem", n_players=2)


def _nonzero(strategy) -> dict[str, int]:
    return {n: int(w) for n, w in zip(FEATURE_NAMES, strategy.weights, strict=True) if w}


def test_weights_takes_exactly_the_weights_of_the_id(game):
    strategy = make_strategy("carpe_diem/weights(vp=10, villa_vp=20)", game)
    assert _nonzero(strategy) == {"vp": 10, "villa_vp": 20}
    assert strategy.id == "carpe_diem/weights(villa_vp=20, vp=10)"
    assert _nonzero(make_strategy("weights", game)) == {}


def test_a_copied_and_edited_file_is_played_from_the_current_directory(game, tmp_path, monkeypatch):
    text = (WEIGHTS_DIR / "greedy.toml").read_text()
    mine = tmp_path / "sub" / "my.toml"
    mine.parent.mkdir()
    mine.write_text(text + "\n# edited\n")
    monkeypatch.chdir(tmp_path)
    greedy = make_strategy("greedy", game)
    copy = make_strategy("weights(file='sub/my.toml')", game)
    assert (copy.weights == greedy.weights).all()
    assert copy.id == "carpe_diem/weights(file='sub/my.toml')"
    assert copy.description == greedy.description
    edited = make_strategy("greedy(file='sub/my.toml', vp=3, steps=4.0)", game)  # a file as a personality's base
    expected = greedy.weights.copy()
    expected[FEATURE_NAMES.index("vp")] = 3
    expected[FEATURE_NAMES.index("steps")] = 4
    assert (edited.weights == expected).all()
    assert edited.id == "carpe_diem/greedy(file='sub/my.toml', steps=4.0, vp=3)"


def test_whole_floats_count_as_integers_in_files(game, tmp_path):
    path = tmp_path / "f.toml"
    path.write_text('description = "floats"\n[weights]\nvp = 10.0\nsteps = -3\n')
    strategy = make_strategy(f"weights(file={str(path)!r})", game)
    assert _nonzero(strategy) == {"vp": 10, "steps": -3}
    assert strategy.weights.dtype == np.int64


@pytest.mark.parametrize(("entry", "message"), [
    ("vilas = 3", "my.toml: weights.vilas: unknown feature (see bgsim features)"),
    ('vp = "high"', "my.toml: weights.vp: must be an integer, got 'high'"),
    ("vp = true", "my.toml: weights.vp: must be an integer, got the boolean true"),
    ("vp = 2.5", "my.toml: weights.vp: must be an integer (weights are whole numbers), got 2.5"),
    ("vp = [1, 2]", "my.toml: weights.vp: must be an integer, got a list"),
    ("vp = { a = 1 }", "my.toml: weights.vp: must be an integer, got a table"),
    ("vp = nan", "my.toml: weights.vp: must be an integer (weights are whole numbers), got nan"),
])
def test_a_bad_entry_is_one_line_naming_file_and_entry_with_exit_status_2(capsys, tmp_path, monkeypatch, entry,
                                                                          message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my.toml").write_text(f'description = "mine"\n[weights]\nsteps = 10\n{entry}\n')
    sid = "carpe_diem/weights(file='my.toml')"
    commands = {
        "play": ("play", "carpe_diem", "--players", "2", "--strategies", f"{sid},greedy"),
        "simulate": ("simulate", "carpe_diem", "--players", "2", "--games", "4", "--strategies", sid,
                     "--quiet", "--out", "runs"),
        "run": ("run", _spec(tmp_path, sid), "--out", "runs", "--quiet"),
        "tune": ("tune", "my.toml", "--games", "4", "--rounds", "1", "--out", "tuned.toml"),
        "tune --against": ("tune", "greedy", "--against", sid, "--games", "4", "--rounds", "1", "--out",
                           "tuned.toml"),
    }
    for name, args in commands.items():
        code, out, err = cli(capsys, *args)
        assert code == 2, name
        assert err == f"bgsim: error: {message}\n", name
        assert out == "", name
    assert not (tmp_path / "runs").exists() and not (tmp_path / "tuned.toml").exists()


def _spec(tmp_path, strategy_id: str) -> str:
    path = write_spec(tmp_path, name="bad", players=[2], games=4, chunk_size=4)
    text = path.read_text().replace('mode = "rotate"', 'mode = "fixed"')
    text = text.replace('focus = "greedy"\nothers = ["random"]', f'strategies = ["{strategy_id}", "greedy"]')
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize(("sid", "message"), [
    ("weights(vp=high)", "strategy id: weights.vp: must be an integer, got 'high'"),
    ("greedy(sparkle=1)", "strategy id: weights.sparkle: unknown feature"),
    ("weights(file='missing.toml')", "missing.toml: cannot read"),
    ("weights(file=3)", "file must be a path in quotes"),
])
def test_bad_ids_fail_in_one_line(game, sid, message):
    with pytest.raises(StrategyError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_strategy(sid, game)


def test_a_file_without_a_weights_table_or_with_broken_toml_fails_in_one_line(game, tmp_path):
    path = tmp_path / "w.toml"
    path.write_text("description = 'no table'\nvp = 3\n")
    with pytest.raises(StrategyError, match="w.toml: missing \\[weights\\] table"):
        make_strategy(f"weights(file={str(path)!r})", game)
    path.write_text("[weights\nvp = 3\n")
    with pytest.raises(StrategyError, match="w.toml: not valid TOML"):
        make_strategy(f"weights(file={str(path)!r})", game)


def test_strategies_lists_descriptions_and_nonzero_weights(capsys):
    code, out, err = cli(capsys, "strategies", "carpe_diem")
    assert code == 0, err
    for name in personalities():
        assert name in out
    assert "greedy immediate value" in out and "villa_vp=10" in out and "frame_vp=10" in out
    assert "weights(vp=10, villa_vp=20)" in out and "uniform choice" in out


def test_tune_writes_a_weights_file_that_plays_and_is_deterministic(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ("tune", "greedy", "--against", "greedy", "--players", "2", "--games", "40", "--rounds", "2",
            "--features", "vp,tile_parts", "--seed", "5")
    code, out, err = cli(capsys, *args, "--out", "a.toml")
    assert code == 0, err
    assert "round 1" in out and "round 2:" in out and "wrote a.toml" in out
    code, _, err = cli(capsys, *args, "--out", "b.toml")
    assert code == 0, err
    assert (tmp_path / "a.toml").read_text() == (tmp_path / "b.toml").read_text()
    tuned = make_strategy("weights(file='a.toml')", make_game("carpe_diem", n_players=2))
    greedy = make_strategy("greedy", make_game("carpe_diem", n_players=2))
    others = [i for i, name in enumerate(FEATURE_NAMES) if name not in ("vp", "tile_parts")]
    assert (tuned.weights[others] == greedy.weights[others]).all()
    code, _, err = cli(capsys, "play", "carpe_diem", "-p", "2", "--strategies", "weights(file='a.toml'),greedy",
                       "--summary")
    assert code == 0, err


def test_tune_rejects_unknown_features_and_missing_directories(capsys, tmp_path):
    code, _, err = cli(capsys, "tune", "greedy", "--features", "vp,sparkle", "--games", "4", "--out",
                       str(tmp_path / "t.toml"))
    assert code == 2 and "unknown feature 'sparkle'" in err
    code, _, err = cli(capsys, "tune", "greedy", "--games", "4", "--out", str(tmp_path / "no" / "t.toml"))
    assert code == 2 and "does not exist" in err
    assert not any(tmp_path.iterdir())
