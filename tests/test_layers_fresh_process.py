"""Reading results needs no engine: in a fresh process, a spec, a run, its statistics and its report
load no numba, no registry and no game.

The run is played first, in a process of its own; a second fresh process then reads it the way a
report does (the spec reader, ``sim.results.store.load``, ``sim.stats``, ``reports.run_report`` with
the profile stored in ``meta.json``) and lists what it imported. ``bgsim.report`` (the command's
dispatch) is not part of it: it finds a study through the study loaders in ``experiments``, which
play studies and so load the engine.
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ("numba", "bgsim.sim.registry", "bgsim.sim.batch", "bgsim.sim.play", "bgsim.sim.games", "bgsim.strategies",
          "bgsim.experiments")


def _python(code: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("fresh")
    (work / "tiny.toml").write_text(textwrap.dedent("""\
        name = "tiny"
        [game]
        id = "carpe_diem"
        players = [2]
        [seats]
        mode = "rotate"
        focus = "greedy"
        others = ["random"]
        [run]
        games = 8
        chunk_size = 4
        seed = 5
        """))
    out = _python(f"""\
        import bgsim
        report = bgsim.run(bgsim.load_spec({str(work / 'tiny.toml')!r}), out={str(work / 'runs')!r})
        print(report.run_dir)
        """, work)
    return Path(out.strip())


def test_a_spec_a_run_its_statistics_and_its_report_load_no_engine(run_dir):
    out = _python(f"""\
        import json, sys, tomllib
        from pathlib import Path
        from bgsim.sim.results.spec import load_spec
        from bgsim.sim.results.store import load, read_meta, read_profile
        from bgsim.sim.results.progress import run_progress
        from bgsim.sim.stats.seats import category_table, seat_table
        from bgsim.sim.stats.strategy_stats import head_to_head, strategy_table
        from bgsim.reports.run_report import build_run_report

        run_dir = Path({str(run_dir)!r})
        spec = load_spec(run_dir / "spec.toml")
        profile = read_profile(run_dir)
        rows = load(run_dir)
        strategies = strategy_table(rows, profile.score_column)
        seats = seat_table(rows, profile.score_column)
        categories = category_table(rows, profile.category_columns, profile.score_column)
        pairs = head_to_head(rows)
        report, _ = build_run_report(rows, read_meta(run_dir), tomllib.loads((run_dir / "spec.toml").read_text()),
                                     run_progress(run_dir), profile, finish="-")
        written = report.write(run_dir / "report")
        print(json.dumps({{"games": int(strategies["seat_games"].sum()) // 2, "spec": spec.name,
                          "seats": len(seats), "categories": len(categories), "pairs": len(pairs),
                          "report": written.exists(), "modules": sorted(sys.modules)}}))
        """, ROOT)
    done = json.loads(out)
    assert done["spec"] == "tiny" and done["games"] == 8 and done["report"]
    assert done["seats"] and done["categories"] and done["pairs"]
    loaded = [m for m in done["modules"] if m.startswith(ENGINE)]
    assert not loaded, f"reading a run loaded the engine: {loaded[:8]}"
