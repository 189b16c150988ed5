"""Rulebook test vectors on rewards (digest §5)."""

from tests.games.carpe_diem.helpers import (
    build_turn,
    counts,
    field,
    find_tile,
    fresh,
    game,
    preset,
    rotation,
)


def test_tv26_cd_feature_5_cd_reward_3_two_baker_halves_complete_a_lodging():
    g = game(4)
    s = fresh(g)
    half = find_tile(g, [("baker", "N")], dark=True)
    other = find_tile(g, [("baker", "N")], dark=True, exclude=(half,))
    shovel = g.components.boards[int(field(g, s, "board")[0])].shovel
    preset(g, s, 0, half, shovel, rotation(g, half, "baker", "E"))
    bread = int(field(g, s, "bread")[0])
    feats = build_turn(g, s, 0, other, shovel + 1, rotation(g, other, "baker", "W"))
    assert counts(g, s, 0)["baker"] == 1
    assert counts(g, s, 0)["lodgings"] == 1
    assert int(field(g, s, "bread")[0]) == bread + 2
    assert feats[g.feature_names.index("lodgings_completed")] == 1
    assert feats[g.feature_names.index("bread")] == 2
