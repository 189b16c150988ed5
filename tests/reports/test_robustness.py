"""Robustness: conclusions compared across component variants (synthetic), and a tiny study end to end."""

import json
import textwrap
from pathlib import Path

import pandas as pd
import pytest
from bgsim.experiments.robustness import load_robustness, run_robustness
from bgsim.reports.robustness_report import compare
from bgsim.sim.results.spec import SpecError

import bgsim
from bgsim.report import write_report

ROOT = Path(__file__).resolve().parents[2]


def test_compare_keeps_equal_conclusions_and_vectors_inside_the_baseline_interval():
    base = pd.DataFrame([
        dict(key="3p greedy: the 13 of seat 3", kind="largest", value="13 fits", low=None, high=None),
        dict(key="3p greedy: balancing start VP", kind="vector", value="8/9/12", low="8/8/10", high="8/10/14"),
        dict(key="2p: card A05", kind="card", value="+", low=None, high=None),
        dict(key="4p greedy, start rulebook: best seat", kind="seat", value="seat 2", low=None, high=None),
    ])
    variant = pd.DataFrame([
        dict(key="3p greedy: the 13 of seat 3", kind="largest", value="13 over-compensates"),
        dict(key="3p greedy: balancing start VP", kind="vector", value="8/10/14"),
        dict(key="2p: card A05", kind="card", value="+"),
        dict(key="4p greedy, start rulebook: best seat", kind="seat", value="seat 2 (not significant)"),
    ])
    result = compare(base, variant).set_index("key")["holds"]
    assert not result["3p greedy: the 13 of seat 3"]
    assert result["3p greedy: balancing start VP"] and result["2p: card A05"]
    assert result["4p greedy, start rulebook: best seat"]  # the same seat, whether or not significant
    moved = variant.assign(value=["13 fits", "8/11/15", "not flagged", "seat 3"])
    result = compare(base, moved).set_index("key")["holds"]
    assert result["3p greedy: the 13 of seat 3"]
    assert not result["3p greedy: balancing start VP"] and not result["2p: card A05"]
    assert not result["4p greedy, start rulebook: best seat"]


def test_committed_robustness_spec_covers_the_required_variants():
    spec = load_robustness(ROOT / "experiments" / "configs" / "robustness.toml")
    names = {v.name for v in spec.variants}
    assert {"villa_table_alternative", "frame_line_straddle"} <= names
    assert {f"tiles_{f}_{s}25" for f in ("villas", "landscapes", "lodgings") for s in ("plus", "minus")} <= names
    assert spec.baseline().populations == {"greedy": ("greedy",)}  # the override replaced the populations


def _spec(tmp_path: Path, variants: str = '["villa_table_alternative", "tiles_villas_plus25"]') -> Path:
    (tmp_path / "base.toml").write_text(textwrap.dedent("""\
        name = "base"
        [game]
        id = "carpe_diem"
        players = [3]
        [populations]
        greedy = ["greedy"]
        [start]
        vectors = ["rulebook"]
        [run]
        games = 90
        chunk_size = 45
        seed = 2
        [compensation]
        confirm_games = 0
        bootstrap = 10
        """))
    path = tmp_path / "robust.toml"
    path.write_text(f'name = "robust"\nbase = "base.toml"\nvariants = {variants}\n[override]\nrun = {{ games = 60 }}\n')
    return path


def test_unknown_variant_is_a_spec_error(tmp_path):
    with pytest.raises(SpecError, match="unknown variant 'tiles_dragons_plus25'"):
        load_robustness(_spec(tmp_path, '["tiles_dragons_plus25"]'))


@pytest.fixture(scope="module")
def tiny_study(tmp_path_factory):
    """The tiny robustness study, played and reported once: (its spec, its directory, the report's index.html)."""
    tmp_path = tmp_path_factory.mktemp("robustness")
    spec = load_robustness(_spec(tmp_path))
    directory = run_robustness(spec, out=tmp_path / "runs").directory
    report, _ = write_report(directory)
    return spec, directory, report


def test_tiny_robustness_study_and_report(tiny_study):
    spec, directory, report = tiny_study
    assert spec.baseline().games == 60
    meta = json.loads((directory / "robustness.json").read_text())
    assert meta["status"] == "complete"
    assert [s["variant"] for s in meta["studies"]] == ["baseline", "villa_table_alternative", "tiles_villas_plus25"]
    rows = bgsim.load(directory).group_by("variant", "n_players", "population", "start", "kind").len().collect()
    assert sorted(rows.iter_rows()) == [(v, 3, "greedy", "rulebook", "cell", 60 * 3) for v in sorted(
        ["baseline", "villa_table_alternative", "tiles_villas_plus25"])]
    html = report.read_text()
    assert "Robustness: robust" in html and (report.parent / "figures" / "robustness_summary.png").exists()
    table = pd.read_csv(report.parent / "tables" / "robustness.csv")
    assert set(table["variant"]) == {"villa_table_alternative", "tiles_villas_plus25"}
    assert {"seat", "largest", "vector"} <= set(table["kind"])


def test_the_report_header_names_what_each_variant_changed(tiny_study):
    _, directory, report = tiny_study
    head = (report.parent / "index.md").read_text().split("**Contents**")[0]
    assert "- game (baseline): carpe_diem(n_players=3)\n" in head and "- rules version: 1\n" in head
    assert "- data files (baseline): boards.toml reconstructed " in head and "- seed: 2\n" in head
    assert "- strategies: carpe_diem/greedy\n" in head
    assert "- villa_table_alternative: game: carpe_diem(n_players=3, villa_vp_table=linear)\n" in head
    changed = next(line for line in head.splitlines() if line.startswith("- tiles_villas_plus25: "))
    assert "game: carpe_diem(n_players=3, data=" in changed and "boards.toml" not in changed  # only what changed
    assert "data files: tiles.toml reconstructed " in changed
    assert changed.endswith("(replaced by the spec: tiles_villas_plus25/tiles.toml)")  # by name, beside its hash
    facts = json.loads((report.parent / "tables" / "provenance.json").read_text())["variants"]
    assert list(facts) == ["baseline", "villa_table_alternative", "tiles_villas_plus25"]
    assert [name for name, f in facts["tiles_villas_plus25"]["data_files"].items() if f["replaced"]] == ["tiles"]
    assert not any(f["replaced"] for f in facts["baseline"]["data_files"].values())


def test_report_of_an_unfinished_robustness_study_compares_the_finished_variants_under_a_banner(tmp_path, capsys):
    from tests.runner.conftest import cli

    spec = load_robustness(_spec(tmp_path))

    def stop_in_the_last_variant(done, total):
        if done > 2 * 60 + 30:  # the baseline and one variant are finished, the second is half played
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_robustness(spec, out=tmp_path / "runs", on_progress=stop_in_the_last_variant)
    (directory,) = (tmp_path / "runs").iterdir()
    code, _, err = cli(capsys, "report", directory)
    assert code == 0, err
    text = (directory / "report" / "index.md").read_text()
    head = text.split("**Contents**")[0]
    assert "- variants: 1 of 2 finished" in head
    assert "> **Warning:** These results are incomplete:" in head and "of 180 planned games" in head
    assert f"bgsim robustness SPEC --out {tmp_path / 'runs'} --resume" in head
    table = pd.read_csv(directory / "report" / "tables" / "robustness.csv")
    assert set(table["variant"]) == {"villa_table_alternative"}


def test_report_of_a_robustness_study_without_its_baseline_is_one_line(tmp_path, capsys):
    from tests.runner.conftest import cli

    spec = load_robustness(_spec(tmp_path))

    def stop_at_once(done, total):
        if done > 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_robustness(spec, out=tmp_path / "runs", on_progress=stop_at_once)
    (directory,) = (tmp_path / "runs").iterdir()
    code, _, err = cli(capsys, "report", directory)
    assert code == 2 and err.count("\n") == 1 and "baseline is not finished" in err and "--resume" in err
