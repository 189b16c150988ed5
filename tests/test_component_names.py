"""Components are named as the game names them, for every game alike: in specs, tables, CSV files
and lever labels. A designer saw opaque ids (S7, R2A) and integer indices in ``payouts.csv``, and a
spec naming a component the game did not know was refused without the names it would take."""

from pathlib import Path

import pandas as pd
import pytest
from bgsim.experiments import component_value as cv
from bgsim.experiments.balance_spec import balance_from_dict
from bgsim.sim import make_game
from bgsim.sim.profile import GameProfile, round_trip
from bgsim.sim.registry import available_games, player_counts
from bgsim.sim.results.spec import SpecError

GAMES = sorted(available_games(unlisted=True))


def _profile(name: str) -> GameProfile:
    return make_game(name, n_players=player_counts(name)[-1]).profile


@pytest.mark.parametrize("name", GAMES)
def test_every_component_has_one_id_and_every_former_id_names_one_of_them(name):
    for attribution in _profile(name).attributions:
        ids = attribution.ids
        assert len(set(ids)) == len(ids) and all(isinstance(i, str) and i and " " not in i for i in ids)
        assert set(attribution.renamed.values()) <= set(ids)
        assert not set(attribution.renamed) & set(ids)  # an old id never shadows a current one
        for old, new in attribution.renamed.items():
            assert attribution.component(old)["id"] == new


@pytest.mark.parametrize("name", GAMES)
def test_the_components_a_choice_pays_survive_the_trip_through_meta_json(name):
    profile = _profile(name)
    again = round_trip(profile)
    assert again.choice_catalogue() == profile.choice_catalogue()
    assert [a.renamed for a in again.attributions] == [a.renamed for a in profile.attributions]


def test_capitol_items_are_named_by_round_and_kind_as_the_track_lists_them():
    ids = _profile("capitol").attribution().ids
    # CAP-SETUP-9: "1. Runde: Brunnen / Brunnen / Amphitheater" ... rounds 3 and 4 end with a temple
    assert ids[:3] == ("round1_fountain1", "round1_fountain2", "round1_amphitheatre")
    assert ids[-3:] == ("round4_fountain1", "round4_fountain2", "round4_temple")


def _balance(game: str, component: str) -> dict:
    return {"game": {"id": game, "players": [2]}, "population": {"strategies": ["greedy"]},
            "lever": [{"component": component, "low": -2, "high": 2}],
            "measure": [{"name": "first_seat", "target": "fair"}], "search": {"budget": 100_000}}


def test_an_old_item_id_names_the_item_and_labels_it_by_its_name():
    assert balance_from_dict(_balance("capitol", "R2A")).levers[0].label == "payout:round2_amphitheatre"


@pytest.mark.parametrize(("game", "wrong", "listed"), [
    ("capitol", "R5T", "round1_fountain1, round1_fountain2, round1_amphitheatre, round2_fountain1"),
    ("carpe_diem", "E01", "A01, A02, A03"),
])
def test_an_unknown_component_lists_the_valid_ids_for_every_game(game, wrong, listed):
    with pytest.raises(SpecError) as caught:
        balance_from_dict(_balance(game, wrong))
    assert f"no component {wrong!r} with a payout" in str(caught.value) and listed in str(caught.value)
    assert "\n" not in str(caught.value)


SPEC = """
name = "items"
[game]
id = "capitol"
players = [2]
[population]
strategies = ["greedy"]
[sample]
games = 2
rollouts = 2
chunk_size = 2
seed = 5
[solver]
q = 0.0
points = 4
components = ["R2A"]
"""


def test_payouts_csv_names_each_solved_component_by_its_id(tmp_path: Path):
    spec_path = tmp_path / "items.toml"
    spec_path.write_text(SPEC)
    spec = cv.load_component_value(spec_path)
    assert spec.solver_components == ("round2_amphitheatre",)  # the old id, read as the item's name
    directory = cv.run_component_value(spec, out=tmp_path / "runs").directory
    payouts = pd.read_csv(directory / "payouts.csv")
    assert payouts[["component", "id", "group"]].values.tolist() == [[5, "round2_amphitheatre", "amphitheatre"]]
    values = pd.read_csv(directory / "choice_values.csv")
    assert set(values["id"]) <= set(_profile("capitol").attribution().ids)
    assert 'components = [\n    "round2_amphitheatre",\n]' in (directory / cv.STUDY.spec_file).read_text()
