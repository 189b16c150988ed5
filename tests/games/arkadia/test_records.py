"""Arkadia's result records (ARK-END, ARK-BANNER, ARK-COMPLETE): the categories sum to the final gold,
the banner cashings add up to the gold they brought, one seat triggered the end of every game that
did not stall, and each building's seals are the ones it paid."""

import numpy as np
import pytest
from bgsim.sim import game_seeds, make_game
from bgsim.sim.play import play_game
from bgsim.strategies import make_strategy


@pytest.fixture(scope="module", params=[2, 3, 4])
def played(request):
    n = request.param
    game = make_game("arkadia", n_players=n)
    seats = [make_strategy(s, game) for s in ("greedy", "random", "greedy", "random")[:n]]
    states = np.stack([play_game(game, seats, game_seeds(seed)).state for seed in range(12)])
    return n, game, states, {k: v.to_pylist() for k, v in game.records(states).items()}


def test_ark_end_4_the_categories_and_families_sum_to_the_final_gold(played):
    _, _, _, rec = played
    for i, final in enumerate(rec["final_gold"]):
        assert rec["start_gold"][i] + rec["gold_banners"][i] + rec["gold_final"][i] == final
        families = sum(rec[f"gold_{f}"][i] for f in ("cloth", "spice", "carpenter", "silversmith"))
        assert rec["start_gold"][i] + families == final


def test_ark_banner_3_each_banner_used_is_one_cashing_with_its_gold(played):
    _, _, _, rec = played
    for i, cashings in enumerate(rec["cashings"]):
        assert len(cashings) == rec["banners_used"][i]
        assert sum(c["gold"] for c in cashings) == rec["gold_banners"][i]
        assert all(c["gold"] == 0 for c in cashings if c["seals"] == 0)
        turns = [c["turn"] for c in cashings]
        assert turns == sorted(turns) and all(t < rec["turns"][i] for t in turns)


def test_ark_end_1_one_seat_triggered_every_game_that_did_not_stall(played):
    n, _, _, rec = played
    for g in range(len(rec["turns"]) // n):
        rows = range(g * n, (g + 1) * n)
        triggers = sum(rec["triggered_end"][i] for i in rows)
        assert triggers == (0 if rec["ended_by_stall"][g * n] else 1)


def test_ark_complete_4_5_a_seats_building_seals_are_its_payouts(played):
    n, game, states, rec = played
    for g, state in enumerate(states):
        paid = game.field(state, "b_paid").reshape(-1, 4)[: int(game.field(state, "n_buildings")[0]), :n]
        assert sum(rec["seals_earned"][g * n:(g + 1) * n]) == paid.sum()
        for seat in range(n):
            mine = rec["buildings"][g * n + seat]
            assert sum(b["seals"] for b in mine) <= rec["seals_earned"][g * n + seat]
            assert len(rec["components"][g * n + seat]) == 2 * len(mine) == 2 * rec["buildings_placed"][g * n + seat]
