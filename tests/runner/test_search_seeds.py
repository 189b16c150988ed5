"""A search method against a baseline across seeds (``experiments.search_seeds``): the games each
needed, counted the same way for both, and what their finalists did on fresh deals."""

import pandas as pd
import pytest
from bgsim.experiments import search_seeds
from bgsim.experiments.balance_spec import load_balance

from tests.runner.test_balance import PAYOUT_LEVERS, write


def test_the_speedup_is_the_baselines_games_to_its_best_over_the_methods_games_to_match_it():
    baseline = pd.DataFrame({"trial": range(4), "games": [100, 200, 300, 400], "best": [0.5, 0.3, 0.3, 0.2]})
    method = pd.DataFrame({"trial": range(3), "games": [50, 80, 120], "best": [0.4, 0.15, 0.1]})
    summary = search_seeds.trace_summary(method, baseline)
    assert summary["baseline_best"] == 0.2 and summary["baseline_games_to_best"] == 400
    assert summary["games_to_match"] == 80 and summary["speedup"] == pytest.approx(5.0)
    never = search_seeds.trace_summary(method.assign(best=[0.4, 0.35, 0.3]), baseline)
    assert never["games_to_match"] != never["games_to_match"] and never["speedup"] != never["speedup"]  # NaN


def test_both_specs_run_at_every_seed_with_the_same_accounting(tmp_path):
    spec = load_balance(write(tmp_path, "tpe", PAYOUT_LEVERS, trials=6, params='prize_offer = "pair"'))
    baseline = load_balance(write(tmp_path, "rand", PAYOUT_LEVERS, trials=6, params='prize_offer = "pair"',
                                  sampler="random", deals="[400]"))
    table = search_seeds.compare_seeds(spec, baseline, [3, 4], out=tmp_path / "runs")
    assert list(table["seed"]) == [3, 4] and table["baseline_games_to_best"].notna().all()
    studies = sorted(p.name for p in (tmp_path / "runs").iterdir())
    assert len(studies) == 4  # a study of its own per spec and seed
    trace = search_seeds.search_trace(tmp_path / "runs" / studies[0])
    assert trace["games"].is_monotonic_increasing and trace["games"].iloc[0] >= 400  # the rulebook's paid first
    assert "over 2 seeds" in search_seeds.distribution(table)
