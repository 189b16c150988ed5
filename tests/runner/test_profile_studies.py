"""Studies read a game only through its profile: a game without a compensation parameter runs the
seat study without start vectors or solver, and one without an automa or variants has no difficulty
or robustness study (one-line errors)."""

import dataclasses
import textwrap
from types import SimpleNamespace

import pytest
from bgsim.experiments import difficulty_spec as difficulty
from bgsim.experiments import robustness
from bgsim.experiments import seat_order_spec as seat_order
from bgsim.sim.registry import make_game
from bgsim.sim.results.spec import SpecError

SEAT_DOC = {"name": "s", "game": {"id": "carpe_diem", "players": [2]}, "populations": {"self": ["greedy"]},
            "run": {"games": 4, "chunk_size": 4}}


@pytest.fixture
def without(monkeypatch):
    """Make carpe_diem's profile lack the given parts, as a game that declares none would."""
    def strip(*parts):
        real = make_game("carpe_diem")
        fake = SimpleNamespace(profile=dataclasses.replace(real.profile, **{p: None for p in parts}))
        monkeypatch.setattr(seat_order, "game_compensation", lambda _game, _params="{}": fake.profile.compensation)
        monkeypatch.setattr(difficulty, "make_game", lambda *_a, **_k: fake)
        difficulty.game_automa.cache_clear()
    yield strip
    difficulty.game_automa.cache_clear()


def test_a_seat_study_without_compensation_plays_the_rules_as_written(without):
    without("compensation")
    spec = seat_order.seat_order_from_dict(SEAT_DOC)
    assert spec.starts == ("rulebook",) and spec.confirm_games == 0 and spec.solved_populations() == []
    cell = spec.cells()[0]
    assert cell.spec.params == {} and "start" not in spec.to_dict() and "compensation" not in spec.to_dict()
    assert spec.total_games == 4


@pytest.mark.parametrize("table", ["start", "compensation"])
def test_start_vectors_for_a_game_without_compensation_are_one_line(without, table):
    without("compensation")
    with pytest.raises(SpecError, match="has no compensation parameter") as info:
        seat_order.seat_order_from_dict(SEAT_DOC | {table: {}})
    assert "\n" not in str(info.value)


def test_the_compensation_parameter_comes_from_the_profile():
    spec = seat_order.seat_order_from_dict(SEAT_DOC | {"start": {"vectors": ["8/10"]}})
    comp = make_game("carpe_diem").profile.compensation
    assert spec.cells()[0].spec.params == {comp.parameter: "8/10"}
    with pytest.raises(SpecError, match=f"game.params.{comp.parameter}"):
        seat_order.seat_order_from_dict(SEAT_DOC | {"game": SEAT_DOC["game"] | {"params": {comp.parameter: "8/9"}}})


def test_a_game_without_automa_has_no_difficulty_study(without):
    without("automa")
    doc = {"name": "d", "game": {"id": "carpe_diem"}, "ladder": {"g": "greedy"}}
    with pytest.raises(SpecError, match="carpe_diem has no automa") as info:
        difficulty.difficulty_from_dict(doc)
    assert "\n" not in str(info.value)


def test_the_difficulty_defaults_come_from_the_automa():
    automa = make_game("carpe_diem", n_players=1).profile.automa
    spec = difficulty.difficulty_from_dict({"name": "d", "game": {"id": "carpe_diem"}, "ladder": {"g": "greedy"}})
    assert spec.knob == automa.calibration_knob and spec.players == automa.player_counts[:1]
    knob = automa.knobs[0]
    assert difficulty.at_the_table(knob.parameter, 3) == knob.at_the_table(3)
    assert difficulty.rulebook_value(knob.parameter) == knob.rulebook


def test_a_game_without_variants_has_no_robustness_study(tmp_path, monkeypatch):
    profile = make_game("carpe_diem").profile
    without = dataclasses.replace(profile, variants=())
    monkeypatch.setattr(robustness, "make_game", lambda game_id: SimpleNamespace(profile=without))
    (tmp_path / "base.toml").write_text(textwrap.dedent("""\
        name = "s"
        [game]
        id = "carpe_diem"
        [populations]
        self = ["greedy"]
        """))
    (tmp_path / "r.toml").write_text('base = "base.toml"\n')
    with pytest.raises(SpecError, match="carpe_diem declares no variants") as info:
        robustness.load_robustness(tmp_path / "r.toml")
    assert "\n" not in str(info.value)
