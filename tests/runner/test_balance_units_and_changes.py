"""What a designer hit in the balance search (issue 40): every finalist moved every lever, seat
imbalance and win rates were fractions where every other report speaks in pp and %, and
finalists.csv stored a matchup matrix as text. On Sealed Bids, whose start points are re-scored, so
these searches play few games."""

import json
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from bgsim.experiments import balance as bal
from bgsim.experiments.balance_spec import balance_from_dict, load_balance

from bgsim.cli import main
from bgsim.report import build_report, write_report
from tests.runner.conftest import cli

ROOT = Path(__file__).resolve().parents[2]

FEW = """
name = "{name}"
[game]
id = "sealed_bids"
players = [2, 3]
[game.params]
final_tie = "shared"
[population]
strategies = ["greedy"]
[[lever]]
param = "start_points"
players = 2
low = -6
high = 6
[[lever]]
param = "start_points"
players = 3
low = 0
high = 3
[[measure]]
name = "first_seat"
target = 40
players = [2]
{changes}
[search]
trials = 24
deals = [100, 400]
seed = 4
[confirm]
finalists = 3
deals = 300
"""
CHANGES = """
[[measure]]
name = "changes"
weight = 25
"""


def _search(tmp_path: Path, name: str, changes: str) -> pd.DataFrame:
    path = tmp_path / f"{name}.toml"
    path.write_text(FEW.format(name=name, changes=changes))
    directory = bal.run_balance(load_balance(path), out=tmp_path / "runs").directory
    return pd.read_csv(directory / "finalists.csv").iloc[1:]


def test_a_fewest_changes_measure_prefers_designs_that_move_few_levers(tmp_path):
    """The first seat's rate is taken at 2 players only, so the 3-player start points cannot matter:
    without the measure, designs that move them tie with those that do not, and the finalists move
    them anyway; with it (a change must buy 25 pp², 5 pp of the first seat's rate), the best finalist
    moves only the value that matters, and still beats the rulebook's design on the fresh deals."""
    plain = _search(tmp_path, "plain", "")
    few = _search(tmp_path, "few", CHANGES)
    assert (plain["levers_changed"] >= 2).all()  # what the designer saw: every finalist moves more than it needs
    assert few["levers_changed"].sum() < plain["levers_changed"].sum()
    best = few.loc[few["objective"].idxmin()]
    assert best["levers_changed"] == 1 and best["changed_levers"] == "start_points@2p.seat2"
    assert best["vs_rulebook"] < 0 and (few["changes"] == few["levers_changed"]).all()


def test_changes_counts_each_moved_value_or_how_far_it_moved(tmp_path):
    path = tmp_path / "count.toml"
    path.write_text(FEW.format(name="count", changes=CHANGES + '\n[[measure]]\nname = "changes"\nby = "distance"\n'))
    spec = load_balance(path)
    count, distance = spec.measures[1], spec.measures[2]
    rulebook = bal.rulebook_design(spec)
    design = rulebook | {"start_points@2p.seat2": 4, "start_points@3p.seat3": 0}
    value = lambda measure, d: bal.measure_values(spec, measure, {}, d)[2].value  # noqa: E731  (no games needed)
    assert value(count, rulebook) == 0 and value(distance, rulebook) == 0
    assert value(count, design) == 2  # a start vector counts each seat it moves
    assert value(distance, design) == pytest.approx(3 / 12 + 2 / 3)  # each move as a share of its lever's range
    assert bal.measure_keys(spec) == ["first_seat", "changes:1", "changes:2"]


MATCHUP = """
name = "units"
[game]
id = "sealed_bids"
players = [2]
[game.params]
final_tie = "shared"
[population]
strategies = ["greedy"]
[[lever]]
param = "start_points"
players = 2
low = -3
high = 3
[[measure]]
name = "seat_imbalance"
target = 0
[[measure]]
name = "first_seat"
target = 45
tolerance = 5
[[measure]]
name = "matchup"
strategies = ["random", "greedy"]
target = [[50, 30], [70, 50]]
[search]
trials = 4
deals = [60]
seed = 3
[confirm]
finalists = 1
deals = 200
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> tuple:
    """A finished search with a seat imbalance, a first seat's rate and a matchup, via the command line."""
    tmp = tmp_path_factory.mktemp("units")
    path = tmp / "units.toml"
    path.write_text(MATCHUP)
    spec = load_balance(path)
    with pytest.raises(SystemExit) as info:
        main(["balance", str(path), "--out", str(tmp / "runs"), "--quiet"])
    assert info.value.code in (0, None)
    return spec, tmp / "runs" / spec.study_id


def test_seat_imbalance_and_win_rates_are_reported_in_pp_like_every_other_report(study, tmp_path, capsys):
    spec, directory = study
    rows = pd.read_csv(directory / "finalists.csv")
    rulebook = bal.rulebook_design(spec)
    outcomes = bal.evaluate(spec, directory, rulebook, 200, spec.seed + 1, folder="confirm")[0]
    imbalance, first = (bal.measure_values(spec, m, outcomes, rulebook)[2] for m in spec.measures[:2])
    assert rows.loc[0, "seat_imbalance_pp2@2p"] == pytest.approx(1e4 * imbalance.value)
    assert rows.loc[0, "seat_imbalance_pp2@2p_high"] == pytest.approx(1e4 * imbalance.high)
    assert rows.loc[0, "first_seat_pct@2p"] == pytest.approx(100 * first.value)
    text = build_report(directory)[0].markdown()
    section = text.split("## Finalists on fresh deals")[1]
    cell = r"-?[\d.]+ pp² \[[\d.]+, [\d.]+\] \(seats' RMS gap at most [\d.]+ pp\)"
    assert re.search(rf"\| rulebook \| 0 \| {cell} \|", section)
    assert f"{100 * first.value:.1f} % [{100 * first.low:.1f}, {100 * first.high:.1f}]" in section
    assert "first_seat (target 45 %, weight 1.0, at [2] players, tolerance 5 pp)" in text
    # the summary the command prints after a search
    from bgsim.cli.balance import _print_finalists

    _print_finalists(directory)
    out = capsys.readouterr().out
    assert "seat imbalance at 2 players" in out and "pp²" in out and f"{100 * first.value:.1f} % [" in out


def test_win_rate_targets_are_stated_in_percent_and_tolerances_in_pp(study):
    spec, _ = study
    first, matchup = spec.measures[1], spec.measures[2]
    assert first.target == pytest.approx(0.45) and first.tolerance == pytest.approx(0.05)  # held as fractions
    assert matchup.target == ((0.5, 0.3), (0.7, 0.5))
    doc = spec.to_dict()
    assert doc["measure"][1] | {"players": []} == {"name": "first_seat", "target": 45.0, "weight": 1.0,
                                                   "players": [], "tolerance": 5.0}
    assert doc["measure"][2]["target"] == [[50.0, 30.0], [70.0, 50.0]]
    assert balance_from_dict(doc).study_id == spec.study_id
    # the committed Capitol spec, its matrix now in percent, keeps the study id its committed report names
    capitol = load_balance(ROOT / "experiments" / "configs" / "capitol_balance.toml")
    example = ROOT / "reports" / "examples" / "capitol" / "balance" / "index.md"
    assert f"study: {capitol.study_id}" in example.read_text()


def _numeric(column: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column)


def test_finalists_csv_stores_numbers_not_text(study, tmp_path):
    _, directory = study
    rows = pd.read_csv(directory / "finalists.csv")
    measures = [c for c in rows.columns if "@" in c and not c.startswith("lever:")
                and not c.endswith(("_outcome", "_at_target"))]
    cells = ["matchup_pct@2p[random vs greedy]", "matchup_pct@2p[greedy vs random]"]
    assert set(cells) | {f"{c}_{side}" for c in cells for side in ("low", "high")} <= set(measures)
    assert all(_numeric(rows[c]) for c in measures), rows.dtypes
    assert (rows[cells[0]] + rows[cells[1]]).round(9).eq(100).all()  # a cell and its mirror, in %
    assert pd.api.types.is_integer_dtype(rows["levers_changed"])
    # the report's CSV of the same table holds the numbers too, and its page shows them as before
    report = write_report(shutil.copytree(directory, tmp_path / "copy"))[0].parent
    shown = pd.read_csv(report / "tables" / "finalists.csv")
    for column in ("seat_imbalance_pp2@2p", "seat_imbalance_pp2@2p_low", "first_seat_pct@2p_high", "objective"):
        assert _numeric(shown[column]), column
    random, greedy = rows.loc[0, cells[0]], rows.loc[0, cells[1]]
    page = (report / "index.md").read_text()
    assert f"| 50 {random:.0f} / {greedy:.0f} 50 |" in page  # the matrix row by row, in %


def _old_form(rows: pd.DataFrame, strategies: list[str]) -> pd.DataFrame:
    """finalists.csv as it was written before its columns had units: fractions, and a matchup matrix
    as JSON text (rounded to 4 digits) in one cell."""
    old = {}
    for column in rows.columns:
        if column.startswith("seat_imbalance_pp2@") or column.startswith("first_seat_pct@"):
            unit, scale = ("_pp2", 1e4) if column.startswith("seat") else ("_pct", 100)
            name = column.replace(unit, "", 1)
            numeric = not column.endswith(("_at_target", "_outcome"))
            old[name] = rows[column] / scale if numeric else rows[column]
        elif column.startswith("matchup_pct@") and "[" not in column:
            old[column.replace("_pct", "", 1)] = rows[column]
        elif column.startswith("matchup_pct@2p[random vs greedy]"):
            side = column.split("]")[1]
            old[f"matchup@2p{side}"] = [_old_matrix(r, side, strategies) for _, r in rows.iterrows()]
        elif not column.startswith("matchup_pct@") and column not in ("levers_changed", "changed_levers"):
            old[column] = rows[column]
    return pd.DataFrame(old)


def _old_matrix(row: pd.Series, side: str, strategies: list[str]) -> str:
    matrix = [[0.5 if a == b else row[f"matchup_pct@2p[{a} vs {b}]{side}"] / 100 for b in strategies]
              for a in strategies]
    return json.dumps(np.round(matrix, 4).tolist())


def test_a_finalists_csv_written_before_units_still_renders_the_same_report(study, tmp_path, capsys):
    _, directory = study
    new = build_report(directory)[0].markdown()
    copy = shutil.copytree(directory, tmp_path / "old")
    _old_form(pd.read_csv(directory / "finalists.csv"), ["random", "greedy"]).to_csv(copy / "finalists.csv",
                                                                                      index=False)
    assert "matchup@2p" in pd.read_csv(copy / "finalists.csv").columns  # the old form: a JSON matrix
    assert build_report(copy)[0].markdown() == new
    # a cell that is neither: one line, status 2
    damaged = pd.read_csv(copy / "finalists.csv")
    damaged.loc[1, "matchup@2p"] = "[[0.5, 0.3"
    damaged.to_csv(copy / "finalists.csv", index=False)
    code, out, err = cli(capsys, "report", copy)
    assert code == 2 and err.startswith("bgsim: error: ") and err.count("\n") == 1 and "matchup@2p" in err, err


BAD = [
    ({"name": "changes", "players": [2]}, "changes measures the design's levers, not its games: it takes no players"),
    ({"name": "changes", "target": "rulebook"}, "changes's target is 0 (\"min\")"),
    ({"name": "changes", "by": "far"}, 'by must be "levers"'),
    ({"name": "first_seat", "by": "distance"}, "only a changes measure takes by"),
    ({"name": "first_seat", "target": 0.25}, "first_seat's target is a win rate in percent, not a fraction: write 25"),
    ({"name": "first_seat", "target": 250}, "first_seat's target is a win rate in percent (0 to 100)"),
    ({"name": "matchup", "strategies": ["random", "greedy"], "target": [[0.5, 0.3], [0.7, 0.5]]},
     "in percent (50 on the diagonal), not fractions: write [[50, 30], [70, 50]]"),
]


@pytest.mark.parametrize(("measure", "message"), BAD, ids=[b[1][:24] for b in BAD])
def test_a_bad_changes_or_rate_measure_ends_in_one_line_with_status_2(tmp_path, capsys, measure, message):
    lines = ['name = "bad"', "[game]", 'id = "sealed_bids"', "players = [2]", "[population]",
             'strategies = ["greedy"]', "[[lever]]", 'param = "start_points"', "players = 2", "low = -3", "high = 3",
             "[[measure]]", *(f"{k} = {json.dumps(v)}" for k, v in measure.items())]
    path = tmp_path / "bad.toml"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = cli(capsys, "balance", path, "--out", tmp_path / "runs", "--quiet")
    assert code == 2 and out == "" and err.startswith("bgsim: error: ") and err.count("\n") == 1, err
    assert message in err and not (tmp_path / "runs").exists()
