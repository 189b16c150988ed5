"""Every ambiguity parameter (AMB-n) at its default and at its other reading, on small positions.
AMB-5, -6, -8 and -10 have their tests beside the rules they change (test_rules_end, test_tables,
test_params); AMB-9 and AMB-12 have one reading (the spec page)."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.features import N_FEATURES
from bgsim.sim.games.arkadia.kernels.board import put_worker
from bgsim.sim.games.arkadia.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.arkadia.tables import component_table

from tests.games.arkadia.helpers import COLS, RESIDENCE_CLOTH, act, give, placement
from tests.games.arkadia.test_rules_turn import _game


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


def _rows(s, t, p) -> np.ndarray:
    """The pending table's action rows, (rows, N_ACTION_FIELDS) int32."""
    feats = np.zeros((MAX_ROWS, N_FEATURES), dtype=np.int32)
    acts = np.zeros((MAX_ROWS, d.N_ACTION_FIELDS), dtype=np.int32)
    return acts[:candidates(s, t, p, feats, acts)].copy()


def _build_residence(s, t, p, cells=((3, 6), (3, 7))):
    give(s, RESIDENCE_CLOTH)
    act(s, t, p, d.DO_BUILD, card=RESIDENCE_CLOTH, placement=placement(t, 0, list(cells)))


@pytest.mark.parametrize(("policy", "phase"), [("skip_part1", d.BANNER), ("skip_turn", d.PART1)])
def test_amb_1_a_seat_without_part_1_keeps_its_banner_unless_skip_turn(t, policy, phase):
    s, p = _game(t, no_action_policy=policy)
    act(s, t, p, d.DO_SKIP)
    assert s[st.PHASE] == phase and s[st.SEAT] == (0 if policy == "skip_part1" else 1)


@pytest.mark.parametrize(("minimum", "done_at_once"), [(1, False), (0, True)])
def test_amb_2_action_b_places_at_least_min_workers_in_b(t, minimum, done_at_once):
    s, p = _game(t, min_workers_in_b=minimum)
    _build_residence(s, t, p)
    act(s, t, p, d.DO_TAKE, slot=-1)
    act(s, t, p, d.DO_BANNER, count=0)
    act(s, t, p, d.DO_WORKERS, building=0)
    kinds = _rows(s, t, p)[:, d.A_KIND]
    assert (d.DO_DONE in kinds) == done_at_once and d.DO_PUT in kinds


@pytest.mark.parametrize("target", [False, True])
def test_amb_3_the_castle_site_is_a_worker_target_only_when_allowed(t, target):
    s, p = _game(t, castle_is_worker_target=target)
    _build_residence(s, t, p)
    act(s, t, p, d.DO_TAKE, slot=-1)
    act(s, t, p, d.DO_BANNER, count=0)
    rows = _rows(s, t, p)
    castle = rows[(rows[:, d.A_KIND] == d.DO_WORKERS) & (rows[:, d.A_BUILDING] == st.CASTLE_TARGET)]
    assert len(castle) == int(target)
    if target:
        act(s, t, p, d.DO_WORKERS, building=st.CASTLE_TARGET)
        cells = _rows(s, t, p)[:, d.A_CELL]
        site = set(t[st.T_SITE_CELLS + s[st.SITE_INDEX] * 12:st.T_SITE_CELLS + (s[st.SITE_INDEX] + 1) * 12].tolist())
        neighbours = t[st.T_NEIGHBOURS:st.T_NEIGHBOURS + 4 * st.MAX_CELLS].reshape(-1, 4)
        assert all(site & set(neighbours[c].tolist()) for c in cells[:-1])  # each cell beside the site
        act(s, t, p, d.DO_PUT, cell=int(cells[0]), neutral=0)
        act(s, t, p, d.DO_DONE)
        assert s[st.STONES_OWED] == 0  # ARK-COMPLETE-3: the castle site never completes


@pytest.mark.parametrize(("rule", "hand_after"), [("one_card", 1), ("fill_to_4", 4)])
def test_amb_4_refill_rule_one_card_or_fill_to_4(t, rule, hand_after):
    s, p = _game(t, refill_rule=rule)
    for card in range(40):
        if s[st.CARD_LOC + card] == st.IN_HAND:
            s[st.CARD_LOC + card] = st.PLAYED  # the hand emptied before the build
    s[st.HAND_N] = 0
    _build_residence(s, t, p)  # the residence card alone, then none once played
    while s[st.PHASE] == d.REFILL:
        act(s, t, p, d.DO_TAKE, slot=-1)
    assert s[st.HAND_N] == hand_after and s[st.PHASE] == d.BANNER


@pytest.mark.parametrize(("rule", "triggered"), [("continue", 0), ("trigger_end", 1)])
def test_amb_4_an_empty_deck_triggers_the_end_only_under_trigger_end(t, rule, triggered):
    s, p = _game(t, deck_exhaustion=rule)
    s[st.DECK:st.DECK + st.MAX_CARDS] = -1  # the deck is drawn out; the display remains
    _build_residence(s, t, p)
    act(s, t, p, d.DO_TAKE, slot=0)
    assert s[st.END_TRIGGERED] == triggered and s[st.DISPLAY] == -1  # no deck card refills the display


@pytest.mark.parametrize(("supply", "left", "taken"), [(24, 1, 1), (None, -1, 2)])
def test_amb_7_a_short_neutral_supply_gives_what_it_has(t, supply, left, taken):
    s, p = _game(t, neutral_supply=supply)
    if supply is not None:
        s[st.NEUTRAL_SUPPLY] = left  # one neutral worker left in the supply
    _build_residence(s, t, p, ((3, 7), (3, 8)))  # covers 2 tents
    assert s[st.NEUTRAL_SCREEN] == taken and s[st.NEUTRAL_SUPPLY] == (0 if supply is not None else -1)


@pytest.mark.parametrize(("first", "order"), [(False, (d.STONE, d.REFILL)), (True, (d.REFILL, d.STONE))])
def test_amb_11_completion_and_stones_before_the_refill_or_after(t, first, order):
    s, p = _game(t, refill_before_completion=first)
    for r, c in ((2, 6), (2, 7), (3, 5), (3, 8)):  # everything around (3, 6)-(3, 7) but the castle below
        put_worker(s, r * COLS + c, st.NEUTRAL)
    _build_residence(s, t, p)  # enclosed as it is placed (ARK-COMPLETE-1)
    assert s[st.PHASE] == order[0]
    if order[0] == d.STONE:
        act(s, t, p, d.DO_STONE, family=0, field=4)
    else:
        act(s, t, p, d.DO_TAKE, slot=-1)
    assert s[st.PHASE] == order[1]
