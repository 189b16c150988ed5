"""Arkadia's parameters (digest §7): every ambiguity a named parameter with the digest's default,
packed for the kernels; bad values are one-line GameIdErrors."""

import pytest
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.arkadia import param_slots as p
from bgsim.sim.games.arkadia.params import CASTLE_CHOSEN, CASTLE_FIXED, CASTLE_RANDOM, TABLE, Params, castle_placement

DIGEST_DEFAULTS = {  # digest §7, parameter summary
    "start_seat": 0, "intro_setup": False, "castle_placement": "random", "no_action_policy": "skip_part1",
    "min_workers_in_b": 1, "tent_reward": "take_all", "castle_is_worker_target": False, "refill_rule": "one_card",
    "deck_exhaustion": "continue", "stall_rule": "end_immediately", "allow_mirror": False, "neutral_supply": 24,
    "seal_supply": "unlimited", "refill_before_completion": False,
}


def test_every_ambiguity_is_a_parameter_with_the_digests_default():
    params = Params.from_dict({"n_players": 3})
    assert {name: getattr(params, name) for name in DIGEST_DEFAULTS} == DIGEST_DEFAULTS
    rules = {row.rule for row in TABLE.params}
    assert {f"AMB-{n}" for n in range(1, 14) if n not in (9, 12)} <= rules  # 9 and 12: one reading (spec page)


def test_amb_10_castle_placement_reads_random_chosen_or_a_site():
    assert castle_placement("random") == (CASTLE_RANDOM, -1, -1, -1)
    assert castle_placement("chosen") == (CASTLE_CHOSEN, -1, -1, -1)
    assert castle_placement(" 4, 6, Wide ") == (CASTLE_FIXED, 4, 6, 0)
    assert castle_placement("4,8,tall") == (CASTLE_FIXED, 4, 8, 1)
    array = Params.from_dict({"n_players": 2, "castle_placement": "4,6,wide"}).to_array()
    assert array[p.PR_CASTLE:p.PR_CASTLE + 4].tolist() == [CASTLE_FIXED, 4, 6, 0]


def test_the_compiled_array_packs_counts_supplies_and_start_gold():
    array = Params.from_dict({"n_players": 4, "neutral_supply": None, "start_gold": "0/1/2/3"}).to_array()
    assert array[p.PR_N_PLAYERS] == 4 and array[p.PR_NEUTRAL_SUPPLY] == -1  # AMB-7: unlimited
    assert array[p.PR_START:p.PR_START + 4].tolist() == [0, 1, 2, 3]
    assert Params.from_dict({"n_players": 2}).to_array()[p.PR_NEUTRAL_SUPPLY] == 24
    assert len(array) == p.N_PARAMS


@pytest.mark.parametrize(("values", "message"), [
    ({"castle_placement": "middle"}, "castle_placement must be random, chosen or 'row,col,wide|tall'"),
    ({"neutral_supply": -3}, "neutral_supply must be at least 0"),
    ({"min_workers_in_b": 2}, "min_workers_in_b"),
    ({"tent_reward": "some"}, "tent_reward must be one of take_all, choose"),
    ({"allow_mirrors": True}, "did you mean 'allow_mirror'"),
    ({"start_gold": "1/2"}, "start_gold"),
])
def test_bad_values_are_one_line_errors(values, message):
    with pytest.raises(GameIdError, match=message):
        Params.from_dict({"n_players": 3, **values})
