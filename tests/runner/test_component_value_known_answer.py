"""Choice values with answers known by construction, on Sealed Bids' pair offer (SB-OFFER-1): each
round's winner takes one of two prizes and the other leaves the game. With every prize worth the
same, the alternatives are identical and every choice value is exactly 0; with one prize inflated,
taking it is found worth exactly the inflation in score margin, and the payout solver recovers the
points it was inflated from."""

import json

import pandas as pd
import pytest
from bgsim.experiments import component_value as cv

SPEC = """
name = "{name}"
[game]
id = "sealed_bids"
players = [2, 3]
[game.params]
prize_offer = "{offer}"
prize_points = "{points}"
[population]
strategies = ["greedy"]
[sample]
games = {games}
rollouts = 8
chunk_size = 10
seed = 5
[solver]
q = 1.0
points = 200
fresh_games = {fresh}
"""
EVEN = "4/4/4/4/4/4/4/4/4/4"
INFLATED_PRIZE = 2  # P3, worth 7 instead of 4
INFLATED = "4/4/7/4/4/4/4/4/4/4"


def study(tmp_path, name: str, points: str, games: int, fresh: int = 0, offer: str = "pair"):
    path = tmp_path / f"{name}.toml"
    path.write_text(SPEC.format(name=name, points=points, games=games, fresh=fresh, offer=offer))
    spec = cv.load_component_value(path)
    return spec, cv.run_component_value(spec, out=tmp_path / "runs").directory


def test_identical_alternatives_have_a_choice_value_of_exactly_0(tmp_path):
    _, directory = study(tmp_path, "even", EVEN, games=20)
    rows = cv.load_points(directory)
    assert len(rows) > 100 and set(rows["n_players"]) == {2, 3}
    assert (rows["win"] == 0).all() and (rows["margin"] == 0).all()
    values = pd.read_csv(directory / "choice_values.csv")
    assert (values["win"] == 0).all() and (values["win_low"] == 0).all() and (values["win_high"] == 0).all()


@pytest.fixture(scope="module")
def inflated(tmp_path_factory):
    # 60 fresh games: a verdict within the tolerance needs at least MIN_GAMES (48)
    return study(tmp_path_factory.mktemp("inflated"), "inflated", INFLATED, games=60, fresh=60)


def test_an_inflated_prize_is_found_with_its_sign_and_size(inflated):
    _, directory = inflated
    values = pd.read_csv(directory / "choice_values.csv").set_index(["n_players", "component"])
    for n in (2, 3):
        prize = values.loc[(n, INFLATED_PRIZE)]
        assert prize["margin"] == pytest.approx(3.0)  # 7 instead of 4, and nothing else changes
        assert prize["win"] > 0 and prize["win_low"] > 0 and prize["q"] < 0.05
        others = values.loc[n].drop(index=INFLATED_PRIZE)
        assert (others["win"] <= 0).all()  # beside P3, another prize is worth 3 points less


def test_the_solver_recovers_the_payout_the_prize_was_inflated_from(inflated):
    _, directory = inflated
    for n in (2, 3):
        doc = json.loads((directory / "solver" / f"n{n}-c{INFLATED_PRIZE}.json").read_text())
        assert doc["payout_now"] == 7 and doc["reachable"]
        assert doc["payout"] == 4 and doc["payout_low"] <= 4 <= doc["payout_high"] < 7
        at_four = next(t for t in doc["trials"] if t["payout"] == 4)
        assert at_four["win"] == 0 and at_four["margin"] == 0  # identical again at its old payout
        assert doc["fresh"]["outcome"] == "held" and doc["fresh"]["win"] == 0  # and so on fresh games too
    payouts = pd.read_csv(directory / "payouts.csv")
    assert set(payouts[payouts["component"] == INFLATED_PRIZE]["payout"]) == {4}


TRIPLE_EVEN = "/".join(["4"] * 15)
TRIPLE_INFLATED = "/".join(["7" if i == INFLATED_PRIZE else "4" for i in range(15)])


def test_with_three_alike_prizes_on_offer_every_value_is_exactly_0(tmp_path):
    """SB-OFFER-2: three prizes on offer, all worth 4. Against the best alternative without it, a
    prize would be measured against the better of two alike ones; against the mean of the others on
    offer it is exactly 0."""
    _, directory = study(tmp_path, "even3", TRIPLE_EVEN, games=15, offer="triple")
    rows = cv.load_points(directory)
    assert len(rows) > 100 and (rows.groupby(["n_players", "game", "point"]).size() == 3).all()
    assert (rows["win"] == 0).all() and (rows["margin"] == 0).all() and not rows["alone"].any()


def test_with_three_on_offer_an_inflated_prize_is_worth_its_inflation_over_the_mean_of_the_others(tmp_path):
    """P3 worth 7 and the two others on offer 4: P3's margin value is exactly +3 (7 against the mean of
    4 and 4), each of the others beside it -1.5 (4 against the mean of 4 and 7)."""
    _, directory = study(tmp_path, "inflated3", TRIPLE_INFLATED, games=40, offer="triple")
    rows = cv.load_points(directory)
    beside = rows[rows.groupby(["n_players", "game", "point"])["component"].transform(
        lambda c: (c == INFLATED_PRIZE).any())]
    assert (beside.loc[beside["component"] == INFLATED_PRIZE, "margin"] == 3.0).all()
    assert (beside.loc[beside["component"] != INFLATED_PRIZE, "margin"] == -1.5).all()
    values = pd.read_csv(directory / "choice_values.csv").set_index(["n_players", "component"])
    for n in (2, 3):
        assert values.loc[(n, INFLATED_PRIZE), "margin"] == pytest.approx(3.0)
        assert values.loc[(n, INFLATED_PRIZE), "win_low"] > 0
