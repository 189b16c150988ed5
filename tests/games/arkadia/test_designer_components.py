"""What a designer hit changing Arkadia's components: shapes known only as S1..S7, a spec's
``monastery`` refused without the names it would take, and a changed shape that asked for the
unused first-game layout to be laid out again. Each test is named after what the user saw and
asserts what they see now."""

import re
import tomllib
from pathlib import Path

import pytest
from bgsim.experiments.arkadia.variants import derive_components
from bgsim.experiments.balance_spec import balance_from_dict
from bgsim.experiments.component_value import component_value_from_dict
from bgsim.sim import make_game
from bgsim.sim.errors import DataError
from bgsim.sim.games.arkadia.components import DATA_DIR
from bgsim.sim.games.arkadia.profile import VARIANTS
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


# --- the first-game layout is checked only where intro_setup reads it

def _file(tmp_path: Path, text: str, name: str = "my_components.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# the smithy turned into the other L (a mirror image of the reconstruction): its first-game building,
# laid out for the old cells, is no rotation of it any more
SMITHY = ("cells = [[0, 0], [1, 0], [2, 0], [2, 1]]", "cells = [[0, 1], [1, 1], [2, 1], [2, 0]]")


def test_overriding_one_shape_does_not_require_the_first_game_layout(tmp_path):
    path = _file(tmp_path, DEFAULT.replace(*SMITHY, 1))
    game = make_game("arkadia", components_file=path)
    assert game.components.shapes[4].cells == ((0, 1), (1, 1), (2, 1), (2, 0))
    assert game.components.intro_buildings == ()  # not read: the standard setup never lays it out


def test_a_file_without_a_first_game_layout_serves_the_standard_setup(tmp_path):
    text = DEFAULT[:DEFAULT.index("[intro]")]
    game = make_game("arkadia", components_file=_file(tmp_path, text), n_players=2)
    assert game.components.intro_castle is None
    with pytest.raises(DataError) as caught:
        make_game("arkadia", components_file=_file(tmp_path, text), intro_setup=True)
    message = str(caught.value)
    assert "\n" not in message and "[intro]" in message and "intro_setup is on" in message


def test_with_intro_setup_the_layout_error_names_the_part_the_parameter_and_every_problem_at_once(tmp_path):
    # the grid four rows shorter: two buildings of the layout fall off it, and the smithy changed too
    text = DEFAULT.replace(*SMITHY, 1).replace("rows = 12", "rows = 8", 1)
    text = re.sub(r"\[(8|9|10|11), \d+\],?", "", text[:text.index("[castle]")]) + text[text.index("[castle]"):]
    path = _file(tmp_path, text)
    assert make_game("arkadia", components_file=path).components.rows == 8  # the standard setup plays it
    with pytest.raises(DataError) as caught:
        make_game("arkadia", components_file=path, intro_setup=True)
    message = str(caught.value)
    assert message.startswith("my_components.toml: [intro] (the first-game layout, read because intro_setup is on): ")
    assert "\n" not in message
    assert "building 5 (smithy): its cells are not a rotation of the shape" in message
    assert "building 6 (trade_centre): cell [8, 12] lies outside the board" in message
    assert "building 7 (monastery): cell [8, 8] lies outside the board" in message


def test_a_deck_too_small_counts_the_first_game_buildings_only_with_intro_setup(tmp_path):
    # 19 cards: enough for 4 hands of 4 and a display of 3, not for the first game's 7 buildings more
    # (26); every shape but the two smallest keeps one card, the one its first-game building takes
    doc = tomllib.loads(DEFAULT)
    laid = {b["shape"]: b["family"] for b in doc["intro"]["buildings"]}
    text = DEFAULT
    for name, shape in doc["shapes"].items():
        if isinstance(shape, dict) and name not in ("residence", "farm"):
            old = ", ".join(f"{f} = {n}" for f, n in shape["cards"].items())
            new = ", ".join(f"{f} = {int(f == laid[name])}" for f in shape["cards"])
            text = text.replace(f"cards = {{ {old} }}", f"cards = {{ {new} }}", 1)
    path = _file(tmp_path, text)
    assert make_game("arkadia", components_file=path).components.cards == 8 + 6 + 5
    with pytest.raises(DataError, match=r"cannot deal 4 players 4 cards, a display of 3 and the first game's 7 "
                                        r"buildings \(at least 26\)"):
        make_game("arkadia", components_file=path, intro_setup=True)


def test_a_robustness_variant_of_a_file_without_a_first_game_layout_stays_without(tmp_path):
    source = Path(_file(tmp_path, DEFAULT[:DEFAULT.index("[intro]")], "components.toml"))
    for variant in VARIANTS:
        if "components" in variant.data:
            derived = tomllib.loads(derive_components(variant, "components", source))
            assert "intro" not in derived, variant.name
