"""Scenario tests for the final scoring (CD-END-1..7), the winner (CD-TIE-1..3) and information (CD-INFO)."""

import numpy as np
import pytest
from bgsim.sim import game_seeds
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import decisions as D
from bgsim.sim.play import play_game
from bgsim.strategies import make_strategy

from tests.games.carpe_diem._scenario import (
    SPACE_H20,
    District,
    arrange_last_scorer,
    arrange_turn,
    ev,
    finish_game,
    set_fountain_deck,
)
from tests.games.carpe_diem.helpers import counts, decide, field, fresh, game, set_goods

CATEGORIES = ("start", "cards", "villas", "leftovers", "banner", "fountain_cards", "frame_tasks")


def _frame_piece(g, name):
    return next(i for i, p in enumerate(g.components.frames) if p.id == name)


def _final(g, s, name, seat=0):
    return int(field(g, s, name)[seat])


def test_cd_end_1_final_scoring_follows_the_4th_pass_scoring():
    """The last disc of pass 3 starts pass 4; the last disc of pass 4 ends the game with a final scoring."""
    g = game(2)
    s = fresh(g, 1)
    arrange_last_scorer(g, s, 0, "D21", "D22", 3)
    decide(g, s, space=SPACE_H20)
    assert not g.is_over(s) and int(field(g, s, "pass_no")[0]) == 4
    s = fresh(g, 1)
    log = g.new_log()
    finish_game(g, s, 0, log=log)
    assert g.is_over(s) and g.decision(s).kind == D.OVER
    assert len(ev(log, "final")) == 2 and len(ev(log, "game_end")) == 1


def test_cd_end_2_completed_villas_score_by_chimneys_incomplete_score_nothing():
    """TV-01: completed villas with 3, 5, 5 chimneys and incomplete ones with 4, 4 -> 3 + 7 + 7 = 17 VP."""
    g = game(2)
    s = fresh(g, 2)
    d = District(g, s, 0)
    villa = [("villa", "N")]
    d.put((0, 0), villa, "villa", "E", dark=True, chimneys=2)  # 3 chimneys
    d.put((0, 1), villa, "villa", "W", dark=True, chimneys=1)
    d.put((2, 0), villa, "villa", "E", dark=True, chimneys=2)  # 5 chimneys
    d.put((2, 1), [("villa", "NE")], "villa", "SW", dark=False, chimneys=2)
    d.put((3, 1), villa, "villa", "N", dark=True, chimneys=1)
    d.put((5, 2), villa, "villa", "E", dark=True, chimneys=2)  # 5 chimneys
    d.put((5, 3), [("villa", "NS")], "villa", "EW", dark=False, chimneys=2)
    d.put((5, 4), villa, "villa", "W", dark=True, chimneys=1)
    d.put((2, 4), [("villa", "NES")], "villa", "NES", dark=False, chimneys=3)  # incomplete, 4
    d.put((2, 5), villa, "villa", "W", dark=True, chimneys=1)
    d.put((4, 1), [("villa", "NES")], "villa", "ESW", dark=False, chimneys=2)  # incomplete, 4
    d.put((4, 2), villa, "villa", "W", dark=True, chimneys=1)
    d.put((4, 0), villa, "villa", "E", dark=True, chimneys=1)
    assert counts(g, s, 0)["villas"] == 3 and counts(g, s, 0)["chimneys"] == 21
    finish_game(g, s, 0)
    assert _final(g, s, "final_villas") == 17
    assert g.score_sheet(s)["villas"][0] == 17


def test_cd_end_3_leftover_material_halved_rounded_down():
    """TV-11: 1 bread, 1 fish, 1 chicken -> 1 VP; TV-12: 3 goods, 2 coins, 1 bread, 2 stored tiles -> 4 VP."""
    g = game(2)
    s = fresh(g, 3)
    set_goods(g, s, 0, grape=2, herb=1, coins=2, bread=1, stored=2)
    set_goods(g, s, 1, bread=1, fish=1, chicken=1)
    finish_game(g, s, 0)
    assert _final(g, s, "final_leftovers", 0) == 4
    assert _final(g, s, "final_leftovers", 1) == 1


def test_cd_end_3_fountain_cards_and_discs_are_not_material():
    """Held fountain cards and unused discs add nothing to the leftover material."""
    g = game(2)
    s = fresh(g, 4)
    set_fountain_deck(g, s, [], {1: ["F01", "F02", "F03"]})
    field(g, s, "discs")[1] = 4
    set_goods(g, s, 1, coins=1)
    finish_game(g, s, 0)
    assert _final(g, s, "final_leftovers", 1) == 0


def test_cd_end_4_banner_position_scores_its_value_overflow_counted_once():
    """The banner disc's position is scored; overflow VP taken during play are not added again."""
    g = game(2)
    s = fresh(g, 5)
    field(g, s, "banner_pos")[:2] = [12, 29]
    field(g, s, "vp")[1] += 3
    field(g, s, "vp_overflow")[1] = 3
    finish_game(g, s, 0)
    assert _final(g, s, "final_banner", 0) == 12 and _final(g, s, "final_banner", 1) == 29
    sheet = g.score_sheet(s)
    assert sheet["banner"].tolist() == [12, 32]
    assert sheet["total"][1] == field(g, s, "vp")[1] + 29


def test_cd_end_5_identical_fountain_cards_both_score():
    """TV-17: both F10 cards and 3 markets -> 12 VP."""
    g = game(2)
    s = fresh(g, 6)
    d = District(g, s, 1)
    for c in range(3):
        d.meadow((2, c), "market")
    set_fountain_deck(g, s, [], {1: ["F10", "F10"]})
    finish_game(g, s, 0)
    assert _final(g, s, "final_fountain", 1) == 12


def test_cd_end_5_fountain_cards_count_completed_features_only():
    """F08 counts completed ponds, F12 completed villas: an open pond and an open villa count nothing."""
    g = game(2)
    s = fresh(g, 7)
    d = District(g, s, 1)
    d.put((0, 0), [("pond", "N")], "pond", "S", dark=True)
    d.put((1, 0), [("pond", "N")], "pond", "N", dark=True)  # completed pond
    d.put((3, 3), [("pond", "N")], "pond", "E", dark=True)  # open pond
    d.put((4, 4), [("villa", "N")], "villa", "N", dark=True)  # open villa
    set_fountain_deck(g, s, [], {1: ["F08", "F12"]})
    finish_game(g, s, 0)
    assert _final(g, s, "final_fountain", 1) == 2


def _frames_tv10(g, s, seat):
    """Frame: top F13 (pond col 0, baker col 4), right F04 (chicken row 0, villa row 4),
    bottom F02 (garden col 4, baker col 0), left F06 (garden row 3, merchant row 2)."""
    field(g, s, "frame_piece")[seat] = [_frame_piece(g, n) for n in ("F13", "F04", "F02", "F06")]


def test_cd_end_6_frame_tasks_need_a_completed_feature_on_the_line():
    """TV-10: baker lodging in column 4 (4) and villa in row 4 (3) score; open pond and off-line garden do not."""
    g = game(2)
    s = fresh(g, 8)
    _frames_tv10(g, s, 0)
    d = District(g, s, 0)
    d.put((1, 4), [("baker", "N")], "baker", "S")
    d.put((2, 4), [("baker", "N")], "baker", "N")
    d.put((4, 1), [("villa", "N")], "villa", "E", dark=True)
    d.put((4, 2), [("villa", "N")], "villa", "W", dark=True)
    d.put((1, 0), [("pond", "N")], "pond", "S", dark=True)
    d.put((2, 0), [("pond", "NS")], "pond", "NS", dark=False)  # open toward (3,0)
    d.put((0, 1), [("garden", "N")], "garden", "S", dark=True)
    d.put((1, 1), [("garden", "N")], "garden", "N", dark=True)  # completed, off every garden line
    finish_game(g, s, 0)
    assert _final(g, s, "final_frames") == 7


def test_cd_end_6_each_task_scores_at_most_once():
    """Two completed baker lodgings on the baker line still score the task once (4 VP)."""
    g = game(2)
    s = fresh(g, 9)
    _frames_tv10(g, s, 0)
    d = District(g, s, 0)
    for r in (0, 3):
        d.put((r, 4), [("baker", "N")], "baker", "S")
        d.put((r + 1, 4), [("baker", "N")], "baker", "N")
    assert counts(g, s, 0)["baker"] == 2
    finish_game(g, s, 0)
    assert _final(g, s, "final_frames") == 4


def test_cd_end_6_one_feature_may_meet_two_tasks():
    """AMB-19 default: a baker lodging on row 4 and column 4 meets the row-4 and the column-4 baker task."""
    for one_only, want in ((False, 8), (True, 4)):
        g = game(2, feature_scores_one_task_only=one_only)
        s = fresh(g, 10)
        # top F13: baker on column 4; right F07: baker on row 4
        field(g, s, "frame_piece")[0] = [_frame_piece(g, n) for n in ("F13", "F07", "F02", "F06")]
        d = District(g, s, 0)
        d.put((4, 3), [("baker", "N")], "baker", "E")
        d.put((4, 4), [("baker", "N")], "baker", "W")
        finish_game(g, s, 0)
        assert _final(g, s, "final_frames") == want, one_only


def test_cd_end_7_final_vp_is_the_sum_of_the_categories():
    """Final VP = VP after pass 4 + villas + leftovers + banner + fountain cards + frame tasks."""
    g = game(2)
    s = fresh(g, 11)
    d = District(g, s, 1)
    d.put((0, 0), [("villa", "N")], "villa", "E", dark=True, chimneys=2)
    d.put((0, 1), [("villa", "N")], "villa", "W", dark=True, chimneys=1)
    d.meadow((3, 3), "market")
    set_fountain_deck(g, s, [], {1: ["F10"]})
    set_goods(g, s, 1, coins=5, bread=2)
    field(g, s, "banner_pos")[1] = 6
    field(g, s, "vp")[1] = 30
    field(g, s, "vp_cards")[1] = 30 - int(field(g, s, "vp_start")[1])  # VP came from cards
    finish_game(g, s, 0)
    want = 30 + 3 + 3 + 6 + 2 + _final(g, s, "final_frames", 1)
    assert _final(g, s, "final_total", 1) == want
    sheet = g.score_sheet(s)
    for seat in range(2):
        assert sum(int(sheet[c][seat]) for c in CATEGORIES) == int(sheet["total"][seat])


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_cd_end_7_whole_games_categories_sum_to_the_total(n, strategy):
    """Whole games: every category matches its rule and the categories add up to the total."""
    g = game(n)
    for seed in range(3):
        pg = play_game(g, [make_strategy(strategy, g) for _ in range(n)], game_seeds(100 + seed),
                       log=True, validate=True)
        s, sheet = pg.state, g.score_sheet(pg.state)
        for seat in range(n):
            assert sum(int(sheet[c][seat]) for c in CATEGORIES) == int(sheet["total"][seat])
            material = int(field(g, s, "goods")[seat].sum()) + sum(
                int(field(g, s, k)[seat]) for k in ("coins", "bread", "stored"))
            assert int(sheet["leftovers"][seat]) == material // 2
            assert int(sheet["banner"][seat]) == int(field(g, s, "banner_pos")[seat]) + int(
                field(g, s, "vp_overflow")[seat])
            assert int(sheet["villas"][seat]) == int(field(g, s, "villa_vp_sum")[seat])
            assert int(sheet["start"][seat]) == K.START_VP[n][seat]
            assert int(sheet["cards"][seat]) == sum(int(e[4]) for e in ev(pg.log, "card") if e[0] == seat)
        _check_ranks(g, s, n)


def _check_ranks(g, s, n):
    """CD-TIE: VP descending; ties -> lower banner position, then lower in the stack."""
    key = {q: (-int(field(g, s, "final_total")[q]), int(field(g, s, "banner_pos")[q]),
               int(field(g, s, "banner_stamp")[q])) for q in range(n)}
    order = sorted(range(n), key=key.get)
    assert [int(field(g, s, "rank")[q]) for q in order] == list(range(1, n + 1))


def _tie_state(vp, pos, stamps):
    """4 players, nothing built or held; seat 0 scores last in pass 4 with D21/D22 (-8 VP)."""
    g = game(4)
    s = fresh(g, 12)
    field(g, s, "vp")[:4] = vp
    field(g, s, "banner_pos")[:4] = pos
    field(g, s, "banner_stamp")[:4] = stamps
    field(g, s, "stamp")[0] = max(stamps)
    return g, s


def test_cd_tie_1_most_final_vp_wins():
    """The highest final total is rank 1, whatever the banner positions."""
    g, s = _tie_state([40, 17, 17, 20], [5, 3, 3, 0], [5, 6, 7, 8])
    log = g.new_log()
    finish_game(g, s, 0, log=log)
    assert field(g, s, "final_total")[:4].tolist() == [37, 20, 20, 20]
    assert int(field(g, s, "rank")[0]) == 1
    assert ev(log, "game_end")[0][0] == 0


def test_cd_tie_2_furthest_back_on_the_banner_track_wins():
    """TV-19: all tied; seat 3 (position 0) wins, then seat 1 (bottom of position 3), seat 2, seat 0."""
    g, s = _tie_state([23, 17, 17, 20], [5, 3, 3, 0], [5, 6, 7, 8])
    log = g.new_log()
    finish_game(g, s, 0, log=log)
    assert field(g, s, "final_total")[:4].tolist() == [20, 20, 20, 20]
    assert field(g, s, "rank")[:4].tolist() == [4, 2, 3, 1]
    assert ev(log, "game_end")[0][0] == 3


def test_cd_tie_2_same_position_lower_disc_wins():
    """Two tied players on the same banner space: the one lower in the stack wins."""
    g, s = _tie_state([28, 20, 20, 10], [0, 3, 3, 1], [1, 7, 6, 8])
    finish_game(g, s, 0)
    assert field(g, s, "final_total")[:4].tolist() == [20, 23, 23, 11]
    assert field(g, s, "rank")[:4].tolist() == [3, 2, 1, 4]


def test_cd_tie_3_full_ranking_by_vp_then_tie_break():
    """Ranks: VP descending, ties resolved by CD-TIE-2, every rank used once."""
    g, s = _tie_state([38, 17, 17, 10], [5, 3, 3, 0], [5, 8, 7, 6])
    finish_game(g, s, 0)
    assert field(g, s, "final_total")[:4].tolist() == [35, 20, 20, 10]
    assert field(g, s, "rank")[:4].tolist() == [1, 3, 2, 4]


def _table(g, s):
    tab = g.decision(s)
    return tab.kind, tab.seat, tab.actions.copy(), tab.features.copy()


def _same(a, b):
    return a[0] == b[0] and a[1] == b[1] and np.array_equal(a[2], b[2]) and np.array_equal(a[3], b[3])


def test_cd_info_2_other_players_fountain_cards_stay_private():
    """A seat's options and their features do not depend on which fountain cards another seat holds."""
    g = game(3)
    s = fresh(g, 13)
    d = District(g, s, 0)
    d.meadow((2, 2), "market")
    d.sync_taken()
    arrange_turn(g, s, 0, {1: [d.tile([("fountain", "")]), d.tile([("market", "")])]}, patrician=0)
    set_fountain_deck(g, s, [], {0: ["F10"], 1: ["F09", "F11"]})
    first = _table(g, s)
    set_fountain_deck(g, s, [], {0: ["F10"], 1: ["F10", "F12"]})
    assert _same(first, _table(g, s))


def test_cd_info_2_own_fountain_cards_are_known_to_their_owner():
    """The owner's held card shows in his options: a market is worth 2 more with F10 in hand."""
    g = game(3)
    s = fresh(g, 14)
    d = District(g, s, 0)
    d.meadow((2, 2), "bakery")
    d.sync_taken()
    arrange_turn(g, s, 0, {1: [d.tile([("market", "")])]}, patrician=0)
    col = g.feature_names.index("fountain_card_vp")
    set_fountain_deck(g, s, [], {0: ["F09"]})
    without = _table(g, s)[3][:, col].max()
    set_fountain_deck(g, s, [], {0: ["F10"]})
    assert _table(g, s)[3][:, col].max() == without + 2


def test_cd_info_4_hidden_stocks_do_not_affect_decisions():
    """Reordering the undealt tiles and the fountain deck leaves every offered option unchanged."""
    g = game(4)
    rng = np.random.default_rng(0)
    for seed in range(3):
        s = fresh(g, 20 + seed)
        first = _table(g, s)
        light, dark = field(g, s, "light_stock"), field(g, s, "dark_stock")
        light[28:] = rng.permutation(light[28:])
        dark[11:] = rng.permutation(dark[11:])
        deck = field(g, s, "fountain_deck")
        deck[:] = rng.permutation(deck)
        assert _same(first, _table(g, s))
        arrange_last_scorer(g, s, 0, "C01", "A11", 1)
        before = _table(g, s)
        deck[:] = rng.permutation(deck)
        light[28:] = rng.permutation(light[28:])
        assert _same(before, _table(g, s))
