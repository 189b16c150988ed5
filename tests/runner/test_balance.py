"""The balance search (experiments/balance.py) on Sealed Bids: it finds a lever value known by
construction within its interval, gives the same trials and answer for any number of workers and
after a kill, confirms its finalists on fresh deals, and refuses bad specs in one line."""

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from bgsim.experiments import balance as bal
from bgsim.experiments.balance_spec import balance_from_dict, load_balance
from bgsim.sim.stats.balance import measure_value
from pandas.testing import assert_frame_equal

from bgsim.report import build_report
from tests.runner.conftest import cli

SPEC = """
name = "{name}"
[game]
id = "sealed_bids"
players = [2]
[game.params]
final_tie = "shared"
{params}
[population]
strategies = ["greedy"]
{levers}
[[measure]]
name = "first_seat"
target = {target}
[search]
sampler = "{sampler}"
budget = {budget}
trials = {trials}
deals = {deals}
seed = 4
[confirm]
finalists = 2
deals = 300
"""
START_LEVER = """
[[lever]]
param = "start_points"
players = 2
low = -6
high = 6
"""
PAYOUT_LEVERS = """
[[lever]]
component = "P3"
low = 0
high = 12
[[lever]]
param = "bid_tie"
choices = ["first_bidder", "discard"]
"""


def write(tmp_path: Path, name: str = "bal", levers: str = START_LEVER, target="\"fair\"", sampler: str = "tpe",
          budget: int = 100_000, trials: int = 16, params: str = "", deals: str = "[100, 400]") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(SPEC.format(name=name, levers=levers, target=target, sampler=sampler, budget=budget,
                                trials=trials, params=params, deals=deals))
    return path


def test_a_start_vector_known_by_construction_is_found_within_the_answers_interval(tmp_path):
    """The target is the first seat's win rate that seat 2 starting with +3 gives on the search's own
    deals, so +3 is an optimum by construction (a start vector is re-scored: every design is measured
    on the very same games)."""
    probe = load_balance(write(tmp_path, "probe", deals="[200, 3000]"))
    outcomes, _, _ = bal.evaluate(probe, tmp_path / "probe", bal.rulebook_design(probe), 3000, probe.seed)
    target = measure_value("first_seat", outcomes[2], np.array([0, 3]))
    assert abs(target - measure_value("first_seat", outcomes[2], np.array([0, 1]))) > 0.02  # the lever matters
    spec = load_balance(write(tmp_path, target=repr(100 * target), trials=20, deals="[200, 3000]"))  # in %
    directory = bal.run_balance(spec, out=tmp_path / "runs").directory
    best = json.loads((directory / "best.json").read_text())
    low, high = best["ranges"]["start_points@2p.seat2"]
    assert best["design"] == {"start_points@2p.seat2": 3}
    # the squared distance is 0 on these deals; the loss subtracts its sampling variance, so it reads below 0
    outcomes, _, _ = bal.evaluate(spec, directory, best["design"], 3000, spec.seed)
    variance = bal.measure_values(spec, spec.measures[0], outcomes, best["design"])[2].variance
    assert best["objective"] == pytest.approx(-1e4 * variance, rel=1e-9) and variance > 0  # in pp²
    assert low <= 3 <= high and high - low <= 4  # narrower than the lever's range, -6..6
    finalists = pd.read_csv(directory / "finalists.csv")
    assert finalists["design"].iloc[0] == "rulebook" and len(finalists) == 3
    assert {"first_seat_pct@2p", "first_seat_pct@2p_low", "first_seat_pct@2p_high", "better", "outcome",
            "first_seat_pct@2p_outcome"} <= set(finalists.columns)
    trials = pd.read_csv(directory / "trials.csv")
    assert trials["trial"].iloc[0] == 0 and trials["start_points@2p.seat2"].iloc[0] == 1  # the rulebook first
    assert json.loads((directory / bal.STUDY.marker).read_text())["games"] == 3000  # one set of games, re-scored


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple:
    """A search over levers that must be played (a prize's points, a tie rule): pair offer."""
    tmp = tmp_path_factory.mktemp("balance")
    spec = load_balance(write(tmp, "played", PAYOUT_LEVERS, trials=10, params='prize_offer = "pair"'))
    return spec, bal.run_balance(spec, out=tmp / "runs").directory


def _answer(directory: Path) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    return (pd.read_csv(directory / "trials.csv"), pd.read_csv(directory / "finalists.csv"),
            json.loads((directory / "best.json").read_text()))


def test_pruned_designs_spend_fewer_games_and_every_design_differs_only_by_its_levers(played):
    spec, directory = played
    trials, finalists, _ = _answer(directory)
    assert set(trials["state"]) == {"complete", "pruned"} and len(trials) == spec.trials
    pruned = trials[trials["state"] == "pruned"]
    assert len(pruned) >= spec.trials // 3 and (pruned["deals"] == 100).all()  # judged on the first rung
    meta = json.loads((directory / bal.STUDY.marker).read_text())
    designs = {json.dumps(r["design"], sort_keys=True) for r in meta["trials"].values()}
    folders = {p.name for p in (directory / "evals").iterdir()}
    assert len(folders) == len(designs)  # one set of games per design, each on the same deals
    assert meta["games"] == sum(r["games"] for r in meta["trials"].values()) + 400  # and the rulebook's


@pytest.mark.own_workers
def test_the_same_seed_gives_the_same_trials_and_answer_with_two_workers_and_on_dask(played, tmp_path):
    from distributed import Client, LocalCluster

    spec, directory = played
    again = bal.run_balance(spec, out=tmp_path / "jobs2", jobs=2).directory
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster.scheduler_address) as client:
        on_dask = bal.run_balance(spec, out=tmp_path / "dask", client=client).directory
    for other in (again, on_dask):
        for mine, theirs in zip(_answer(other)[:2], _answer(directory)[:2], strict=True):
            assert_frame_equal(mine, theirs)
        assert _answer(other)[2] == _answer(directory)[2]


def test_a_study_killed_mid_trial_resumes_to_the_same_answer(played, tmp_path, monkeypatch):
    spec, directory = played
    calls = {"n": 0}
    real = bal.evaluate

    def killed(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 9:  # the rulebook's two rungs, then trials: the fourth trial or so, mid-way
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(bal, "evaluate", killed)
    with pytest.raises(KeyboardInterrupt):
        bal.run_balance(spec, out=tmp_path / "runs")
    monkeypatch.setattr(bal, "evaluate", real)
    again = bal.run_balance(spec, out=tmp_path / "runs", resume=True).directory
    for mine, theirs in zip(_answer(again)[:2], _answer(directory)[:2], strict=True):
        assert_frame_equal(mine, theirs)
    assert _answer(again)[2] == _answer(directory)[2]


def test_the_report_answers_with_the_finalists_against_the_rulebook(played, tmp_path):
    _, directory = played
    copy = tmp_path / directory.name
    shutil.copytree(directory, copy)
    report, _ = build_report(copy)
    text = report.markdown()
    assert "## Answers" in text and "P3's points" in text and "against the rulebook's" in text
    assert "## Finalists on fresh deals" in text and "## Which levers matter" in text


BAD = [
    ('param = "bid_tie"', 'param = "bid_ties"', "no parameter 'bid_ties'"),
    ("high = 12", "high = 1000", "outside what sealed_bids allows"),
    ('component = "P3"', 'component = "P99"', "no component 'P99' with a payout; the ids of its prize cards with one"),
    ('name = "first_seat"', 'name = "fun"', "unknown measure 'fun'"),
    ('target = "fair"', "target = [[0.5, 0.5], [0.5, 0.5]]", "target must be a number"),
    ('sampler = "tpe"', 'sampler = "grid"', "search.sampler must be one of"),
    ('name = "first_seat"', 'name = "seat_spread"', "replaced by seat_imbalance"),
    ('name = "first_seat"\ntarget = "fair"', 'name = "seat_imbalance"\ntarget = 0.01', "seat_imbalance's target is 0"),
    ("deals = 300", 'deals = "many"', 'confirm.deals must be "auto" or an integer'),
    ("[confirm]", "[tolerance]\nseat_pp = -1\n[confirm]", "seat_pp must be a positive number"),
    ("[confirm]", "[tolerance]\nseat = 2\n[confirm]", "unknown key [tolerance] 'seat'"),
    ("budget = 100000", "budget = 10", "search.budget = 10 games cannot pay for one trial"),
]


@pytest.mark.parametrize(("change", "to", "message"), BAD, ids=[b[2][:20] for b in BAD])
def test_a_bad_spec_ends_in_one_line_with_status_2_before_any_game(tmp_path, capsys, change, to, message):
    path = write(tmp_path, levers=PAYOUT_LEVERS, params='prize_offer = "pair"')
    path.write_text(path.read_text().replace(change, to))
    code, out, err = cli(capsys, "balance", path, "--out", tmp_path / "runs", "--quiet")
    assert code == 2 and out == "" and err.startswith("bgsim: error: ") and err.count("\n") == 1, err
    assert message in err and not (tmp_path / "runs").exists()


def test_budget_10_below_one_trial_was_accepted_and_wrote_an_empty_answers_section(tmp_path, capsys):
    spec = load_balance(write(tmp_path, budget=10))
    need = sum(bal.rung_games(spec, d) for d in spec.deals) + bal.rung_games(spec, spec.deals[0])
    assert need == 100 + 400 + 100  # one greedy game per deal at 2 players: the rulebook's rungs, a first rung
    code, out, err = cli(capsys, "balance", write(tmp_path, budget=need - 1), "--out", tmp_path / "runs", "--quiet")
    assert code == 2 and f"must be at least {need:,}" in err and not (tmp_path / "runs").exists()
    bal.check_budget(load_balance(write(tmp_path, budget=need)))  # one trial's worth is enough


def test_a_matchup_target_must_be_a_matrix_of_its_strategies():
    doc = {"game": {"id": "sealed_bids", "players": [2]}, "population": {"strategies": ["greedy"]},
           "lever": [{"param": "bid_tie", "choices": ["first_bidder", "discard"]}],
           "measure": [{"name": "matchup", "strategies": ["random", "greedy"], "target": [[0.5, 0.2]]}]}
    with pytest.raises(Exception, match="2 x 2 matrix"):
        balance_from_dict(doc)


CONFIGS = sorted((Path(__file__).resolve().parents[2] / "experiments" / "configs").glob("*balance*.toml"))


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.stem)
def test_committed_balance_specs_load_and_start_from_the_rulebook(path):
    spec = load_balance(path)
    assert spec.study_id.startswith(spec.name + "-") and spec.levers and spec.measures
    assert bal._in_space(spec, bal.rulebook_design(spec))  # trial 0 is the rulebook's design


def test_a_rulebook_target_costs_nothing_at_the_rulebook_and_the_excess_elsewhere(tmp_path):
    path = write(tmp_path, "ruled", trials=4)
    path.write_text(path.read_text().replace('[search]', '[[measure]]\nname = "score_spread"\ntarget = "rulebook"\n\n'
                                                           '[search]'))
    spec = load_balance(path)
    directory = bal.run_balance(spec, out=tmp_path / "runs").directory
    meta = json.loads((directory / bal.STUDY.marker).read_text())
    rulebook = bal.rulebook_design(spec)
    outcomes = bal.evaluate(spec, directory, rulebook, 400, spec.seed)[0]
    values, measures = bal.objective_values(spec, outcomes, rulebook)
    first_seat = bal.measure_loss(spec, spec.measures[0], measures["first_seat"][2], 2, rulebook, outcomes[2])
    assert values == [first_seat]  # score spread adds 0
    # against itself on the same deals: no excess, and no noise to subtract (the difference is 0 in every game)
    assert bal.objective_values(spec, outcomes, rulebook, (outcomes, rulebook))[0] == [first_seat]
    assert meta["trials"]["0"]["design"] == rulebook and len(meta["trials"]) == 4


def test_a_measure_the_game_declares_is_its_mean_per_population_game(tmp_path):
    """Capitol declares unsold items (``GameMeasures``): a search can target them."""
    path = tmp_path / "unsold.toml"
    path.write_text("""
name = "unsold"
[game]
id = "capitol"
players = [3]
[population]
strategies = ["greedy"]
[[lever]]
param = "zero_bid_policy"
choices = ["remove", "tie_rule"]
[[measure]]
name = "unsold_items"
target = "min"
[search]
trials = 3
deals = [6]
[confirm]
finalists = 1
deals = 6
""")
    spec = load_balance(path)
    directory = bal.run_balance(spec, out=tmp_path / "runs").directory
    rulebook = bal.rulebook_design(spec)
    outcomes = bal.evaluate(spec, directory, rulebook, 6, spec.seed)[0][3]
    game = bal.design_game(spec, 3, "{}")
    seats = np.zeros((6, 3), dtype=np.int64)
    from bgsim.sim.batch import play_batch
    from bgsim.sim.seeding import block_key, deal_seeds
    from bgsim.strategies import make_strategy

    chance, strategy_seeds = deal_seeds(block_key(spec.seed, 3), np.arange(6))
    states = play_batch(game, [make_strategy("greedy", game)], seats, chance, strategy_seeds)
    expected = game.game_measures(states)["unsold_items"].mean()
    assert measure_value("unsold_items", outcomes) == pytest.approx(expected)
    assert "unsold_items@3p" in pd.read_csv(directory / "finalists.csv").columns
    with pytest.raises(Exception, match="unknown measure 'unsold'.*unsold_items"):
        load_balance(path.write_text(path.read_text().replace('name = "unsold_items"', 'name = "unsold"')) and path)
