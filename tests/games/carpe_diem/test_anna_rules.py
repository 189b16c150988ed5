"""The automa Anna's rule kernels against the digest's test vectors TV-A1..A6 (CD-ANNA-14..24).

The kernels are checked one by one here; the solo game that strings them together comes with
the solo mode.
"""

import numpy as np
import pytest
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem.anna_data import anna_arrays, load_anna
from bgsim.sim.games.carpe_diem.kernels import anna as A
from bgsim.sim.games.carpe_diem.tables import TABLES
from bgsim.sim.registry import make_game

GAME = make_game("carpe_diem", n_players=2)
T = GAME.tables
COMP = GAME.components
_, GREY = anna_arrays(load_anna())


def tile(*types, chimneys=None):
    """The first tile of the manifest whose parts are exactly ``types`` (names), villa chimneys given."""
    for i, candidate in enumerate(COMP.tiles):
        names = sorted(K.TYPE_NAMES[p.type] for p in candidate.parts)
        if names != sorted(types):
            continue
        if chimneys is not None and not any(p.type == K.VILLA and p.chimneys == chimneys for p in candidate.parts):
            continue
        return i
    raise LookupError(types)


def with_tiles(*tiles):
    """A copy of the component table in which tiles 0, 1, ... have the given parts ((type name,
    chimneys), ...): the test vectors name tiles the reconstructed manifest need not contain."""
    t = T.copy()
    ptype, pchim, nparts = (TABLES.view(t, n) for n in ("part_type", "part_chimneys", "tile_nparts"))
    for i, parts in enumerate(tiles):
        ptype[i], pchim[i], nparts[i] = 0, 0, len(parts)
        for p, (name, chimneys) in enumerate(parts):
            ptype[i, p], pchim[i, p] = K.TYPE_NAMES.index(name), chimneys
    return t


def fountain(counts):
    return next(i for i, c in enumerate(COMP.fountain_cards) if K.COUNTER_NAMES[c.counter] == counts)


def anna(specialisation=None, coins=0, bread=0):
    a = np.zeros(K.ANNA_SIZE, dtype=np.int32)
    a[K.AN_COINS], a[K.AN_BREAD] = coins, bread
    if specialisation is not None:
        a[K.AN_PILE] = fountain(specialisation)
        a[K.AN_PILE_N] = 1
    return a


def choose(a, depot, row=(), t=T):
    depot = np.array(depot, dtype=np.int32)
    symbols = np.full(12, -1, dtype=np.int32)
    symbols[: len(row)] = [K.TYPE_NAMES.index(s) for s in row]
    cands = np.empty(len(depot), dtype=np.int32)
    n, required = A.anna_candidates(a, t, depot, symbols, cands)
    best = np.empty(len(depot), dtype=np.int32)
    m = A.anna_choose(a, t, cands, n, required, best)
    return sorted(best[:m].tolist()), required


def test_tv_a1_cd_anna_19_five_items_in_total_become_one_banner_step():
    a = anna(coins=1, bread=1)
    steps, _, _ = A.anna_gain(a, tile("baker"), T)
    assert a[K.AN_BREAD] == 3 and steps + A.anna_convert(a) == 0
    steps, _, _ = A.anna_gain(a, tile("pond"), T)
    assert a[K.AN_GOODS + K.FISH] == 1
    assert A.anna_convert(a) == 1 and a[K.AN_COINS:K.AN_GOODS + K.N_GOODS].sum() == 0


@pytest.mark.parametrize(("roll", "slot"), [(1, 0), (3, 3), (4, 7), (6, 2)])
def test_tv_a2_cd_anna_18_craftsman_roll_counts_the_tiles_left_cyclically(roll, slot):
    seal = np.full(11, -1, dtype=np.int32)
    seal[[0, 2, 3, 7]] = 5
    assert A.craftsman_slot(seal, roll) == slot
    assert A.craftsman_slot(np.full(11, -1, dtype=np.int32), roll) == -1


def test_tv_a3_cd_anna_14_15_specialisation_then_two_parts_then_the_other_parts_group():
    t = with_tiles([("pond", 0)], [("pond", 0), ("merchant", 0)], [("pond", 0), ("market", 0)])
    a = anna(specialisation="pond")
    best, required = choose(a, [0, 1, 2], t=t)
    assert best == [1] and required == K.POND
    steps, rolls, draws = A.anna_gain(a, 1, t)
    assert a[K.AN_TRACK + K.POND] == 1 and a[K.AN_TRACK + K.MERCHANT] == 1
    assert a[K.AN_GOODS + K.FISH] == 1 and a[K.AN_COINS] == 1 and (steps, rolls, draws) == (0, 0, 0)


def test_tv_a4_cd_anna_15_d_villa_tiles_by_most_chimneys_when_the_row_picks_villas():
    v2, v3, b = tile("villa", chimneys=2), tile("villa", chimneys=3), tile("baker")
    a = anna(specialisation="garden")
    best, required = choose(a, [v2, v3, b], row=("market", "villa", "baker"))
    assert best == [v3] and required == K.VILLA
    A.anna_gain(a, v3, T)
    assert a[K.AN_TRACK + K.VILLA] == 3


def test_cd_anna_15_c_the_other_parts_track_furthest_back_wins():
    t = with_tiles([("pond", 0), ("merchant", 0)], [("pond", 0), ("baker", 0)])
    a = anna(specialisation="pond")
    a[K.AN_TRACK + K.MERCHANT] = 3
    assert choose(a, [0, 1], t=t)[0] == [1]
    a[K.AN_TRACK + K.BAKER] = 3
    assert choose(a, [0, 1], t=t)[0] == [0, 1]  # a tie left to (e), the anna_tiebreak parameter


@pytest.mark.parametrize(("track", "field", "human", "vp"), [("merchant", 4, 1, 10), ("baker", 2, 1, 5),
                                                             ("pond", 1, 2, 0)])
def test_tv_a5_cd_anna_23_majorities_by_grey_numbers(track, field, human, vp):
    a = anna()
    ptype = K.TYPE_NAMES.index(track)
    a[K.AN_TRACK + ptype] = field
    assert A.majority_vp(A.anna_count(a, GREY, ptype), human) == vp


def test_cd_anna_23_amb_24_a_zero_zero_tie_scores_the_parameter():
    assert A.majority_vp(0, 0) == 5 and A.majority_vp(0, 0, 0) == 0 and A.majority_vp(1, 1, 0) == 5


def test_tv_a6_cd_anna_24_every_card_of_the_pile_scores_by_grey_numbers():
    a = anna()
    a[K.AN_PILE], a[K.AN_PILE + 1], a[K.AN_PILE_N] = fountain("pond"), fountain("market"), 2
    a[K.AN_TRACK + K.POND] = 5  # grey 2
    a[K.AN_TRACK + K.MARKET] = 3  # grey 3
    assert A.anna_count(a, GREY, K.POND) == 2 and A.anna_count(a, GREY, K.MARKET) == 3
    assert A.anna_fountain_vp(a, T, GREY) == 10


def test_cd_anna_17_every_bonus():
    a = anna()
    gains = {name: A.anna_gain(a, tile(name), T) for name in ("merchant", "market", "bakery", "administrator",
                                                              "craftsman", "fountain", "vineyard")}
    assert gains["administrator"] == (2, 0, 0) and gains["craftsman"] == (0, 1, 0) and gains["fountain"] == (0, 0, 1)
    assert a[K.AN_COINS] == 2 and a[K.AN_BREAD] == 1 and a[K.AN_GOODS + K.GRAPE] == 1
    assert all(a[K.AN_TRACK + K.TYPE_NAMES.index(n)] == 1 for n in gains)


def test_amb_23_and_26_villa_track_by_chimneys_and_its_vp_by_the_villa_table():
    a = anna()
    A.anna_gain(a, tile("villa", chimneys=3), T, False)
    assert a[K.AN_TRACK + K.VILLA] == 1  # the craftsman's villa tile under AMB-23 (b)
    a[K.AN_TRACK + K.VILLA] = 14
    assert A.anna_villa_vp(a, T) == 26  # the exact anchor 14 -> 26 (001)
    assert A.anna_count(a, GREY, K.VILLA) == 2  # AMB-25 (a): 14 // 5


def test_amb_29_past_the_last_field_the_last_grey_number_holds():
    a = anna()
    a[K.AN_TRACK + K.MARKET] = 500
    assert A.anna_count(a, GREY, K.MARKET) == GREY[K.MARKET, -1]


def test_amb_28_no_row_symbol_in_the_depot_falls_back_to_every_tile():
    a = anna(specialisation="garden")
    depot = [tile("pond"), tile("pond", "administrator")]
    best, required = choose(a, depot, row=("market",))
    assert required == 0 and best == [depot[1]]
