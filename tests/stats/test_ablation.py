"""Lead changes (``sim.leads``) and the ablation effects computed from paired deals
(``sim.stats.ablation``), on hand-made readings and rows with known answers."""

import numpy as np
import pandas as pd
import pytest
from bgsim.sim.leads import lead_step
from bgsim.sim.stats.ablation import (
    ablation_effects,
    ablation_moments,
    add_moments,
    correct_family,
    deal_columns,
    effects_from_moments,
    fresh_check,
)
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests


def count(readings: list[list[int]]) -> int:
    leader, changes = -1, 0
    for scores in readings:
        leader, changes = lead_step(leader, changes, np.array(scores, dtype=np.int32), len(scores))
    return changes


@pytest.mark.parametrize(("readings", "changes"), [
    ([[3, 1, 2], [5, 4, 2], [9, 4, 8]], 0),  # seat 0 leads throughout
    ([[3, 1, 2], [3, 5, 2], [9, 5, 2]], 2),  # 0 -> 1 -> 0
    ([[3, 1, 2], [3, 3, 2], [3, 4, 2]], 1),  # a tie names nobody: 0 -> (tie) -> 1 is one change
    ([[3, 3, 2], [3, 3, 3], [1, 4, 2]], 0),  # the first unique leader is no change
    ([[3, 1, 2], [3, 3, 2], [4, 3, 2]], 0),  # 0 -> (tie) -> 0: the lead never changed hands
])
def test_lead_changes_count_a_new_unique_leader(readings, changes):
    assert count(readings) == changes


@given(st.lists(st.lists(st.integers(-5, 5), min_size=2, max_size=4).map(tuple), min_size=1, max_size=8)
       .filter(lambda r: len({len(x) for x in r}) == 1))
def test_lead_changes_never_exceed_the_readings_after_the_first(readings):
    changes = count([list(r) for r in readings])
    assert 0 <= changes <= len(readings) - 1


def rows(n: int, deals: int, component: int, with_: list, without: list, **extra) -> pd.DataFrame:
    frame = {"deal": np.arange(deals), "component": component, "replacement": -1}
    for arm, shares in (("with", with_), ("without", without)):
        for i in range(n):
            frame[f"win_{arm}_{i}"] = [s[i] for s in shares]
    frame |= {"spread_with": 10, "spread_without": 10, "leads_with": 1, "leads_without": 1, "winner_changed": 0}
    frame |= extra
    return pd.DataFrame(frame)[list(deal_columns(n))]


def test_a_component_that_gives_seat_1_every_win_is_found_with_the_right_seat_and_sign():
    deals = 40
    won = rows(2, deals, 7, [(0.0, 1.0)] * deals, [(1.0, 0.0)] * (deals // 2) + [(0.0, 1.0)] * (deals // 2),
               winner_changed=[1] * (deals // 2) + [0] * (deals // 2), spread_with=np.arange(deals) + 5,
               spread_without=np.arange(deals))
    even = rows(2, deals, 8, [(0.5, 0.5)] * deals, [(0.5, 0.5)] * deals)
    effects = ablation_effects(pd.concat([won, even]), 2).set_index("component")
    assert effects.loc[7, "seat1"] == pytest.approx(0.5) and effects.loc[7, "seat0"] == pytest.approx(-0.5)
    assert effects.loc[7, "seat_effect_seat"] == 1 and effects.loc[7, "seat_q"] < 1e-6
    assert effects.loc[7, "changed"] == 0.5 and effects.loc[7, "changed_low"] < 0.5 < effects.loc[7, "changed_high"]
    assert effects.loc[7, "spread"] == pytest.approx(5) and effects.loc[7, "spread_low"] == pytest.approx(5)
    assert effects.loc[8, "seat_effect"] == 0 and effects.loc[8, "seat_q"] == 1 and effects.loc[8, "changed"] == 0


def test_an_effect_is_confirmed_on_fresh_deals_only_in_the_direction_it_was_found():
    deals = 40
    gains = rows(2, deals, 7, [(0.0, 1.0)] * deals, [(1.0, 0.0)] * (deals // 2) + [(0.0, 1.0)] * (deals // 2))
    even = rows(2, deals, 8, [(0.5, 0.5)] * deals, [(0.5, 0.5)] * deals)
    found = ablation_effects(pd.concat([gains, even]), 2)
    same = fresh_check(found, found).set_index("component")
    assert same.loc[7, "seat_outcome"] == "confirmed" and same.loc[7, "seat_confirmed"] == 1
    assert np.isnan(same.loc[8, "seat_confirmed"]) and same.loc[8, "seat_outcome"] == ""  # found nothing: unchecked
    assert same.loc[7, "seat_fresh"] == pytest.approx(found.set_index("component").loc[7, "seat_effect"])
    loses = rows(2, deals, 7, [(1.0, 0.0)] * deals, [(0.5, 0.5)] * deals)
    flipped = fresh_check(found, ablation_effects(pd.concat([loses, even]), 2)).set_index("component")
    assert flipped.loc[7, "seat_outcome"] == "reversed" and flipped.loc[7, "seat_confirmed"] == 0
    noise = rows(2, deals, 7, [(1.0, 0.0), (0.0, 1.0)] * (deals // 2), [(0.5, 0.5)] * deals)
    unclear = fresh_check(found, ablation_effects(pd.concat([noise, even]), 2)).set_index("component")
    assert unclear.loc[7, "seat_outcome"] == "not confirmed"


def test_two_player_seat_changes_are_one_finding_not_two_mirrored_ones():
    """At two players a seat's change is the other's, negated: one test per component in the family,
    so a lone component's q equals its p (two mirrored tests would be corrected as two)."""
    deals = 60
    rng = np.random.default_rng(3)
    shares = [(1.0, 0.0) if x else (0.0, 1.0) for x in rng.random(deals) < 0.62]
    table = ablation_effects(rows(2, deals, 7, shares, [(0.5, 0.5)] * deals), 2).iloc[0]
    assert table["seat0_p"] == pytest.approx(table["seat1_p"])
    assert table["seat_q"] == pytest.approx(table["seat0_p"]) and table["seat1_q"] == table["seat0_q"]


def test_the_family_spans_every_player_count():
    """q-values of effects found at two player counts are corrected together: the same p-values give
    larger q-values in one table than in two."""
    deals = 120
    rng = np.random.default_rng(4)
    parts = []
    for n in (3, 4):
        for component in range(4):
            lean = np.full(n, (1 - 0.15 * component) / n)
            lean[0] += 1 - lean.sum()  # component 0 plays fair, the others lean ever more to seat 1
            with_ = [tuple(np.eye(n)[w]) for w in rng.choice(n, deals, p=lean)]
            without = [tuple(np.eye(n)[w]) for w in rng.integers(0, n, deals)]
            parts.append(ablation_effects(rows(n, deals, component, with_, without), n))
    apart = pd.concat(parts, ignore_index=True)
    together = correct_family(apart)
    tests = [(r, i) for r, n in enumerate(apart["n_players"]) for i in range(n)]
    expected = multipletests([apart.loc[r, f"seat{i}_p"] for r, i in tests], method="fdr_bh")[1]
    assert [together.loc[r, f"seat{i}_q"] for r, i in tests] == pytest.approx(list(expected))
    assert not np.allclose(together["seat_q"], apart["seat_q"])  # corrected per player count, they differ


def test_effects_from_chunk_moments_equal_those_of_all_rows_at_once():
    rng = np.random.default_rng(3)
    deals = 60
    shares = rng.integers(0, 2, deals)
    frame = rows(3, deals, 4, [(s, 1 - s, 0) for s in shares], [(0, s, 1 - s) for s in rng.integers(0, 2, deals)],
                 spread_with=rng.integers(0, 30, deals), leads_with=rng.integers(0, 4, deals),
                 winner_changed=rng.integers(0, 2, deals))
    frame = pd.concat([frame, frame.assign(component=9, spread_without=rng.integers(0, 30, deals))])
    whole = ablation_effects(frame, 3)
    parts = add_moments(ablation_moments(frame.iloc[:70], 3), ablation_moments(frame.iloc[70:], 3))
    pd.testing.assert_frame_equal(effects_from_moments(parts, 3), whole, check_exact=False, rtol=1e-12)
    assert whole["deals"].tolist() == [deals, deals]
