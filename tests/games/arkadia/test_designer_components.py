"""What a designer hit changing Arkadia's components: shapes known only as S1..S7, and a spec's
``monastery`` refused without the names it would take. Each test is named after what the user saw
and asserts what they see now."""

import tomllib

import pytest
from bgsim.experiments.balance_spec import balance_from_dict
from bgsim.experiments.component_value import component_value_from_dict
from bgsim.sim import make_game
from bgsim.sim.games.arkadia.components import DATA_DIR
from bgsim.sim.results.spec import SpecError

from tests.runner.conftest import cli

DEFAULT = (DATA_DIR / "components.toml").read_text(encoding="utf-8")
SHAPES = ["residence", "farm", "tavern", "mill", "smithy", "trade_centre", "monastery"]
# 004, Spielmaterial: "① Wohnhaus, ② Bauernhof, ③ Wirtshaus, ④ Mühle, ⑤ Schmiede, ⑥ Handelskontor, ⑦ Kloster"
GERMAN = ["Wohnhaus", "Bauernhof", "Wirtshaus", "Mühle", "Schmiede", "Handelskontor", "Kloster"]


def _balance(component, game: str = "arkadia") -> dict:
    return {"game": {"id": game, "players": [2]}, "population": {"strategies": ["greedy"]},
            "lever": [{"component": component, "low": -2, "high": 2}],
            "measure": [{"name": "first_seat", "target": "fair"}], "search": {"budget": 100_000}}


def test_arkadia_shapes_are_named_as_the_game_names_them():
    attribution = make_game("arkadia").profile.attribution()
    shapes = [row for row in attribution.catalogue if row["group"] == "shape"]
    assert [row["id"] for row in shapes] == SHAPES  # rulebook order, no. 1-7
    assert [row["label"] for row in shapes] == [f"{name}, no. {i + 1}" for i, name in enumerate(GERMAN)]
    families = [row for row in attribution.catalogue if row["group"] == "family"]
    assert [(row["id"], row["label"]) for row in families] == [
        ("cloth", "Tuchhändler, red seal"), ("spice", "Gewürzhändler, olive seal"),
        ("carpenter", "Zimmerleute, black seal"), ("silversmith", "Silberschmiede, silver seal")]
    # the ids are the components file's own keys, so a spec and the data file speak alike
    assert list(tomllib.loads(DEFAULT)["shapes"]) == ["status", "source", *SHAPES]


def test_a_lever_on_the_monastery_is_labelled_monastery():
    spec = balance_from_dict(_balance("monastery"))
    assert spec.levers[0].label == "payout:monastery"


def test_an_old_shape_id_in_a_spec_names_the_shape_by_its_name_now():
    spec = balance_from_dict(_balance("S7"))
    assert spec.levers[0].component == "monastery" and spec.levers[0].label == "payout:monastery"
    assert spec.study_id == balance_from_dict(_balance("monastery")).study_id  # one study, whichever was written


def test_an_unknown_component_lists_the_valid_ids():
    with pytest.raises(SpecError) as caught:
        balance_from_dict(_balance("monastry"))
    message = str(caught.value)
    assert "\n" not in message and "'monastry'" in message
    assert "residence, farm, tavern, mill, smithy, trade_centre, monastery" in message
    assert message.endswith("did you mean 'monastery'?")


def test_a_seal_family_is_no_lever_and_the_error_says_which_components_are():
    """building_points pays shapes only (ARK-VAR-1): a seal family has no payout to search."""
    with pytest.raises(SpecError, match=r"no component 'cloth' with a payout; .*: residence, .*, monastery$"):
        balance_from_dict(_balance("cloth"))


def test_an_unknown_component_in_solver_components_lists_the_valid_ids():
    doc = {"game": {"id": "arkadia", "players": [2]}, "population": {"strategies": ["greedy"]},
           "solver": {"components": ["monastery", "cathedral"]}}
    with pytest.raises(SpecError, match=r"solver.components: arkadia has no component 'cathedral' .*: residence, "):
        component_value_from_dict(doc)
    doc["solver"]["components"] = ["S7", "farm"]
    assert component_value_from_dict(doc).solver_components == ("monastery", "farm")


@pytest.mark.parametrize("command", ["balance", "component-value"])
def test_an_unknown_component_exits_2_from_the_cli_with_one_line(tmp_path, capsys, command):
    if command == "balance":
        text = ('[game]\nid = "arkadia"\nplayers = [2]\n[population]\nstrategies = ["greedy"]\n'
                '[[lever]]\ncomponent = "monastry"\nlow = -2\nhigh = 2\n'
                '[[measure]]\nname = "first_seat"\ntarget = "fair"\n')
    else:
        text = ('[game]\nid = "arkadia"\nplayers = [2]\n[population]\nstrategies = ["greedy"]\n'
                '[solver]\ncomponents = ["monastry"]\n')
    spec = tmp_path / "spec.toml"
    spec.write_text(text)
    code, out, err = cli(capsys, command, spec, "--out", tmp_path / "runs", "--quiet")
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("bgsim: error: ") and "residence, farm, tavern, mill, smithy, trade_centre, monastery" in err
    assert not (tmp_path / "runs").exists()


def test_bgsim_games_lists_the_component_ids_a_spec_may_name(capsys):
    code, out, _ = cli(capsys, "games", "arkadia")
    assert code in (0, None)
    assert "components a spec may pay, by id: residence, farm, tavern, mill, smithy, trade_centre, monastery" in \
        " ".join(out.split())
