"""What a designer hit trying Arkadia as a new user: each test is named after what the
user saw, and asserts what they should see now."""

import io
from pathlib import Path

import pandas as pd
import polars as pl
import pytest
from bgsim.experiments.balance_spec import balance_from_dict
from bgsim.reports import seat_report
from bgsim.reports.report_builder import Report
from bgsim.sim.games.arkadia.params import BUILDING_POINTS_RANGE
from bgsim.sim.results.spec import SpecError
from bgsim.sim.stats.seats import one_sided_tables
from rich.console import Console

from bgsim.cli import studies
from tests.runner.conftest import cli

SPEC = """name = "misspelt"
[game]
id = "arkadia"
players = 2
data = {{ {key} = "my.toml" }}
[seats]
strategies = ["random"]
[run]
games = 4
chunk_size = 4
"""


@pytest.mark.parametrize("key", ["component", "components_file"])
def test_a_misspelt_data_key_was_reported_as_no_parameter_component_file(tmp_path: Path, capsys, key):
    (tmp_path / "my.toml").write_text("x = 1\n")
    spec = tmp_path / "spec.toml"
    spec.write_text(SPEC.format(key=key))
    code, _, err = cli(capsys, "run", spec, "--out", tmp_path / "runs", "-q")
    assert code == 2
    line = err.strip().splitlines()[-1]
    assert line.startswith(f"bgsim: error: arkadia has no data file '{key}' to replace")
    assert "its data files: components" in line and "_file'" not in line.replace(f"'{key}'", "")
    assert not (tmp_path / "runs").exists()  # nothing half-written


def test_the_terminal_seat_table_split_an_interval_over_two_lines(monkeypatch):
    rows = [dict(n_players=4, population="mixed", start="rulebook", seat=s, win_rate=r, win_rate_low=r - 0.009,
                 win_rate_high=r + 0.009, favoured=f)
            for s, (r, f) in enumerate([(0.332, 1), (0.254, 0), (0.220, -1), (0.194, -1)])]
    screen = io.StringIO()
    monkeypatch.setattr(studies, "out", Console(file=screen, width=80))
    studies._print_seats(pd.DataFrame(rows))
    lines = screen.getvalue().splitlines()
    assert all(line.count("[") == line.count("]") for line in lines)
    assert all(len(line) <= 80 for line in lines)
    assert any("1: 33.2 [32.3, 34.1]" in line and "above" in line for line in lines)
    assert any("4: 19.4 [18.5, 20.3]" in line and "below" in line for line in lines)


def test_building_points_was_minus_20_to_20_in_bgsim_games_but_minus_10_to_10_in_balance():
    def spec(low, high):
        return balance_from_dict({
            "game": {"id": "arkadia", "players": [2]}, "population": {"strategies": ["greedy"]},
            "lever": [{"component": "S1", "low": low, "high": high}],
            "measure": [{"name": "first_seat", "target": "fair"}], "search": {"budget": 100_000}})

    low, high = BUILDING_POINTS_RANGE
    assert (low, high) == (-20, 20)  # what the parameter accepts (ARK-VAR-1)
    assert spec(low, high).levers[0].high == high  # a lever may move as far as the game allows
    with pytest.raises(SpecError, match=r"outside what arkadia allows .*\(-20\.\.20\)"):
        spec(low, high + 1)


def _mixed_rows(strong_wins: int, games: int = 100) -> pl.DataFrame:
    """2-player games of a mixed table: "strong" wins ``strong_wins`` of them, from either seat."""
    rows = []
    for g in range(games):
        strong_seat = g % 2
        strong_won = g < strong_wins
        for seat in range(2):
            strong = seat == strong_seat
            rows.append(dict(n_players=2, population="mixed", start="rulebook", game_index=g, seat=seat,
                             strategy="strong" if strong else "weak", won=strong == strong_won))
    return pl.DataFrame(rows)


def test_a_one_sided_tables_seat_verdicts_stood_among_the_answers():
    table = one_sided_tables(_mixed_rows(99))
    assert table.to_dict("records") == [dict(n_players=2, population="mixed", strategy="strong", share=0.99,
                                             games=100, one_sided=True)]
    assert not one_sided_tables(_mixed_rows(80))["one_sided"].any()
    seats = pd.DataFrame({"n_players": [2, 2, 3], "population": ["mixed", "mixed", "mixed"]})
    rep = Report("t")
    kept, _ = seat_report._withhold_one_sided(rep, seats, pd.DataFrame(), table)
    assert list(kept["n_players"]) == [3]  # the 2-player table's seat answers are withheld
    note = rep.markdown()
    assert "Seat answers withheld for 1 one-sided table(s):** 2 players, mixed: strong wins 99.0 % of 100 games" in note


def test_a_lever_label_ran_to_a_sentence():
    from bgsim.reports.balance_report import lever_words
    from bgsim.sim import make_game

    assert lever_words("payout:monastery", make_game("arkadia").profile) == "monastery (Kloster, no. 7) gold"
    assert lever_words("payout:round2_amphitheatre", make_game("capitol").profile) == \
        "round2_amphitheatre (3rd auction of round 2) points"
    assert lever_words("payout:D10", make_game("carpe_diem").profile) == "D10's VP per fulfilment"  # short already
