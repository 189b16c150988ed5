"""The seat-order report's section "Does the answer hold across skill?" on synthetic studies of two
populations: it comes right after the answers, names the population whose best seat or start
vector differs, says "same for all populations" only where every named answer is identical, and
writes its tables as CSV."""

import dataclasses

import numpy as np
import pandas as pd
import polars as pl
from bgsim.reports.report_builder import Report
from bgsim.reports.seat_report import SeatStudy, add_seat_sections
from bgsim.reports.seat_skill import HEADING, add_skill_section
from bgsim.sim.registry import make_game
from bgsim.sim.stats.seats import seat_table

# the game's seat words without its components: the section needs no attribution
PROFILE = dataclasses.replace(make_game("carpe_diem").profile, attributions=())


def self_play(population: str, profile, games: int = 600, seed: int = 0, start: str = "rulebook") -> pl.DataFrame:
    """3-player self-play rows of ``population``: the winner's seat drawn from ``profile`` (3,), one deal
    a game (deal i the same deal for every population, as one seed gives)."""
    rng = np.random.default_rng(seed)
    winner = rng.choice(3, size=games, p=profile)
    seat = np.tile(np.arange(3), games)
    won = seat == np.repeat(winner, 3)
    vp = rng.integers(60, 100, games * 3) + 30 * won
    return pl.DataFrame({
        "run_id": population, "n_players": 3, "game_index": np.repeat(np.arange(games), 3),
        "deal": np.repeat(np.arange(games), 3), "seating": 0, "seat": seat, "strategy": population, "won": won,
        "final_vp": vp, "rank": np.where(won, 1, 2), "start_vp": 8,
        **{c: vp // 6 for c in PROFILE.category_columns},
        "population": population, "start": start})


def report_of(*populations: pl.DataFrame) -> str:
    rep = Report("study")
    add_seat_sections(rep, SeatStudy(rows=pl.concat(populations).lazy(), compensation=pd.DataFrame(), confirm=None,
                                     profile=PROFILE))
    return rep.markdown()


def section(markdown: str) -> str:
    return markdown.split(f"## {HEADING}")[1].split("\n## ")[0]


def test_a_best_seat_that_differs_is_named_with_its_population_before_the_answers():
    md = report_of(self_play("planner", [0.5, 0.3, 0.2], seed=1), self_play("greedy", [0.2, 0.3, 0.5], seed=2))
    headings = [line for line in md.splitlines() if line.startswith("## ")]
    assert headings[:3] == [f"## {HEADING}", "## Answers", "## Seat win rates"]
    text = section(md)
    assert "**not the same for all populations**" in text and "same for all populations**:" not in text
    assert "Best seat with rulebook start VP: seat 1 in *planner*; seat 3 in *greedy*." in text
    assert "Worst seat with rulebook start VP: seat 3 in *planner*; seat 1 in *greedy*." in text
    assert "**the populations' seat profiles differ beyond chance**" in text


def test_populations_that_agree_are_the_same_for_all_and_a_quiet_test_is_not_called_held():
    md = report_of(self_play("planner", [0.5, 0.3, 0.2], seed=1), self_play("greedy", [0.5, 0.3, 0.2], seed=2))
    text = section(md)
    assert ("**same for all populations**: best seat with rulebook start VP: seat 1; worst seat with rulebook "
            "start VP: seat 3.") in text
    assert "no difference detected at these games; largest deviation from the pooled seat profile" in text
    verdict = next(line for line in text.splitlines() if line.startswith("- **3 players**"))
    assert "held" not in verdict


def test_differing_compensating_vectors_name_their_populations(tmp_path):
    rows = pl.concat([self_play("planner", [0.5, 0.3, 0.2], seed=1), self_play("greedy", [0.5, 0.3, 0.2], seed=2),
                      self_play("mixed", [0.5, 0.3, 0.2], seed=3)])
    seats = seat_table(rows, "final_vp")
    vectors = pd.DataFrame({"n_players": [3, 3, 3], "population": ["planner", "greedy", "mixed"],
                            "vector": ["8/10/13", "8/9/12", "8/10/13"], "outcome": ["held", "cannot tell", None]})
    rep = Report("study")
    add_skill_section(rep, rows, seats, vectors, "start VP")
    text = rep.markdown()
    assert "Compensating start VP: 8/10/13 in *planner*, *mixed*; 8/9/12 in *greedy*." in text
    assert "The same in every population: best seat with rulebook start VP: seat 1" in text
    assert "8/10/13 (held within the tolerance on fresh deals)" in text
    assert "8/10/13 (not played on fresh deals)" in text
    rep.write(tmp_path / "report")
    skill = pd.read_csv(tmp_path / "report" / "tables" / "skill.csv")
    assert list(skill["population"]) == ["planner", "greedy", "mixed"] and (skill["best_seat"] == 1).all()
    tests = pd.read_csv(tmp_path / "report" / "tables" / "seat_interaction.csv")
    assert len(tests) == 1 and tests["nominal_df"].iloc[0] == 4 and 0 <= tests["p"].iloc[0] <= 1


def test_a_table_left_out_leaves_nothing_to_compare_and_a_small_table_is_not_tested():
    rows = pl.concat([self_play("planner", [0.5, 0.3, 0.2], games=40, seed=1),
                      self_play("greedy", [0.2, 0.3, 0.5], games=40, seed=2)])
    rep = Report("study")
    add_skill_section(rep, rows, seat_table(rows, "final_vp"), pd.DataFrame(), "start VP")
    assert "not tested, *planner* played 40 deals, fewer than the 48 per population the test needs" in rep.markdown()
    rep = Report("study")
    add_skill_section(rep, rows, seat_table(rows, "final_vp"), pd.DataFrame(), "start VP",
                      left_out=frozenset({(3, "greedy")}))
    assert "one population only" in rep.markdown()


def test_a_study_of_one_population_has_no_section():
    assert HEADING not in report_of(self_play("planner", [0.5, 0.3, 0.2]))
