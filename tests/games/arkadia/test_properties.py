"""Invariants over random legal play (Hypothesis), at 2-4 players and under non-default parameters:
cells are never doubly occupied, workers and buildings never move, castle stones and levels stay
consistent, seal values are the visible tops, each building pays once, gold is the sum of its
cashings, and every game ends."""

import numpy as np
import pytest
from bgsim.sim.games.arkadia import decisions as d
from bgsim.sim.games.arkadia import state as st
from bgsim.sim.games.arkadia.components import load_components
from bgsim.sim.games.arkadia.features import N_FEATURES
from bgsim.sim.games.arkadia.kernels.candidates import MAX_ROWS, candidates
from bgsim.sim.games.arkadia.kernels.castle import seal_value
from bgsim.sim.games.arkadia.kernels.flow import apply_action
from bgsim.sim.games.arkadia.kernels.setup import new_game
from bgsim.sim.games.arkadia.params import Params
from bgsim.sim.games.arkadia.tables import component_table
from hypothesis import given, settings
from hypothesis import strategies as hs

from tests.games.arkadia.helpers import NO_LOG

CAP = 5_000  # decisions; a game that has not ended by then is a defect
CELLS = 12 * 16
# Parameters other than the defaults, each drawn on or off: the invariants hold under every reading.
OTHER_READINGS = {
    "intro_setup": True, "castle_placement": "chosen", "no_action_policy": "skip_turn", "tent_reward": "choose",
    "castle_is_worker_target": True, "refill_rule": "fill_to_4", "deck_exhaustion": "trigger_end",
    "allow_mirror": True, "neutral_supply": None, "seal_supply": "physical_88", "refill_before_completion": True,
    "start_gold": "0/3/5/7",
}


@pytest.fixture(scope="module")
def t():
    return component_table(load_components())


def _visible_tops(stacks: list[list[int]], t: np.ndarray) -> np.ndarray:
    """(N_FAMILIES,) each family's value from the stones as the test saw them put: a field shows its
    last stone, else its printed seal (ARK-CASTLE-7)."""
    printed = t[st.T_FIELD_PRINT:st.T_FIELD_PRINT + st.N_FIELDS]
    shown = [stack[-1] if stack else printed[f] for f, stack in enumerate(stacks)]
    return np.array([shown.count(family) for family in range(st.N_FAMILIES)])


def _play_checked(t, p, n: int, chance: int, rng) -> None:
    s = new_game(t, p, np.uint64(chance), NO_LOG)
    feats = np.zeros((MAX_ROWS, N_FEATURES), dtype=np.int32)
    acts = np.zeros((MAX_ROWS, d.N_ACTION_FIELDS), dtype=np.int32)
    stacks: list[list[int]] = [[] for _ in range(st.N_FIELDS)]
    cashed = np.zeros(n, dtype=np.int64)  # gold the test saw cashed with banners
    paid_when_done: dict[int, np.ndarray] = {}
    for _ in range(CAP):
        rows = candidates(s, t, p, feats, acts)
        if rows == 0:
            break
        before = s.copy()
        action = acts[rng.integers(rows)].copy()
        if action[d.A_KIND] == d.DO_STONE:
            stacks[action[d.A_FIELD]].append(int(action[d.A_FAMILY]))
        if action[d.A_KIND] == d.DO_CASH:
            cashed[s[st.SEAT]] += action[d.A_COUNT] * seal_value(s, t, action[d.A_FAMILY])
        apply_action(s, t, p, action, NO_LOG)
        _check_board(before, s)
        _check_castle(s, t, stacks)
        _check_payouts(s, paid_when_done)
        _check_seals(s, n)
    assert s[st.PHASE] == d.OVER, "the game did not end"
    start, banners = s[st.START_GOLD:st.START_GOLD + n], s[st.GOLD_BANNER:st.GOLD_BANNER + n]
    assert (banners == cashed).all()  # every banner cashing paid the value shown when it was made
    families = s[st.GOLD_FAMILY:st.GOLD_FAMILY + n * st.N_FAMILIES].reshape(n, -1).sum(axis=1)
    assert (s[st.GOLD:st.GOLD + n] == families).all()
    assert (s[st.TOTAL:st.TOTAL + n] == start + s[st.GOLD:st.GOLD + n]).all()
    assert (s[st.SEALS:st.SEALS + n * st.N_FAMILIES] == 0).all()  # the final cashing cashes every seal


def _check_board(before: np.ndarray, s: np.ndarray) -> None:
    """A taken cell keeps what it holds (workers and buildings never move, ARK-WORKER-5); a building
    holds exactly its placement's cells, each in one building only."""
    kind_before = before[st.CELL_KIND:st.CELL_KIND + CELLS]
    kind, who = s[st.CELL_KIND:st.CELL_KIND + CELLS], s[st.CELL_WHO:st.CELL_WHO + CELLS]
    taken = kind_before != st.FREE
    assert (kind[taken] == kind_before[taken]).all()
    assert (who[taken] == before[st.CELL_WHO:st.CELL_WHO + CELLS][taken]).all()
    taken_bits = np.packbits((kind != st.FREE).astype(np.uint8), bitorder="little")  # the kernels' OCCUPIED
    assert (taken_bits == s[st.OCCUPIED:st.OCCUPIED + CELLS // 32].view(np.uint8)).all()
    n_buildings = s[st.N_BUILDINGS]
    building_cells = who[kind == st.BUILDING]
    assert building_cells.min(initial=0) >= 0 and building_cells.max(initial=-1) < n_buildings


def _check_castle(s: np.ndarray, t: np.ndarray, stacks: list[list[int]]) -> None:
    """Stones level by level (ARK-CASTLE-2): every field below the level is full up to it, none
    above it; 28 stones in all; each family's value the fields showing it (ARK-CASTLE-7)."""
    height = s[st.FIELD_HEIGHT:st.FIELD_HEIGHT + st.N_FIELDS]
    level = s[st.LEVEL]
    assert (height >= level - 1).all() and (height <= level).all()
    assert height.tolist() == [len(stack) for stack in stacks]
    assert height.sum() + s[st.STONE_SUPPLY:st.STONE_SUPPLY + st.LEVELS * st.N_FAMILIES].sum() == 28
    values = [seal_value(s, t, family) for family in range(st.N_FAMILIES)]
    assert values == _visible_tops(stacks, t).tolist()


def _check_seals(s: np.ndarray, n: int) -> None:
    """Every seal out of the supply is behind a screen or on a building under construction; under
    physical_88 (AMB-8) never more than the box's 30 per family."""
    out = s[st.SEALS_OUT:st.SEALS_OUT + st.N_FAMILIES]
    held = s[st.SEALS:st.SEALS + n * st.N_FAMILIES].reshape(n, -1)
    count = s[st.N_BUILDINGS]
    on_buildings = np.bincount(s[st.B_FAMILY:st.B_FAMILY + count][s[st.B_SEAL:st.B_SEAL + count] == 1],
                               minlength=st.N_FAMILIES)
    assert (held >= 0).all() and (out == held.sum(axis=0) + on_buildings).all()
    if s[st.SEAL_LIMIT] > 0:
        assert (out <= s[st.SEAL_LIMIT]).all()


def _check_payouts(s: np.ndarray, paid_when_done: dict[int, np.ndarray]) -> None:
    """A building pays when it is completed and never again (ARK-COMPLETE-8)."""
    for b in range(s[st.N_BUILDINGS]):
        paid = s[st.B_PAID + b * st.MAX_P:st.B_PAID + (b + 1) * st.MAX_P].copy()
        if s[st.B_STATE + b] == st.UNDER_CONSTRUCTION:
            assert not paid.any()
        elif b in paid_when_done:
            assert (paid == paid_when_done[b]).all()
        else:
            assert paid.sum() >= 1  # its own seal to the seat completing it (ARK-COMPLETE-5)
            paid_when_done[b] = paid


@settings(max_examples=12, deadline=None)
@given(n=hs.integers(2, 4), seed=hs.integers(0, 2**32 - 1),
       readings=hs.sets(hs.sampled_from(sorted(OTHER_READINGS)), max_size=4))
def test_invariants_hold_over_random_legal_play(t, n, seed, readings):
    params = {"n_players": n, **{name: OTHER_READINGS[name] for name in readings}}
    if "start_gold" in params:
        params["start_gold"] = "/".join(params["start_gold"].split("/")[:n])
    p = Params.from_dict(params).to_array()
    _play_checked(t, p, n, seed, np.random.default_rng(seed))
