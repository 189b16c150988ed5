"""One import name: bgsim works from any working folder, including one with its own ``sim/``,
``experiments/``, ``reports/`` and ``strategies/`` packages (a data scientist's project folder)."""

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOP_FOLDERS = ("sim", "strategies", "experiments", "reports")
BGSIM = Path(sys.executable).with_name("bgsim")


def test_every_package_folder_is_installed_under_bgsim():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(config["packages"])
    on_disk = {"bgsim", *(f"bgsim.{init.parent.name}" for init in (ROOT / "bgsim").glob("*/__init__.py"))}
    for folder in TOP_FOLDERS:
        assert config["package-dir"][f"bgsim.{folder}"] == folder
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT).parts
            on_disk.add(".".join(("bgsim", *parts)))
    assert listed == on_disk


def _project_folder_of_a_user(tmp_path: Path) -> Path:
    """A folder whose own packages carry the repository's top-level names and break when imported."""
    for name in TOP_FOLDERS:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('the user\\'s own {name} package')\n")
    (tmp_path / "spec.toml").write_text(
        'name = "tiny"\n[game]\nid = "carpe_diem"\nplayers = [2]\n'
        '[seats]\nmode = "rotate"\nfocus = "greedy"\nothers = ["random"]\n'
        "[run]\ngames = 8\nchunk_size = 4\nseed = 3\n")
    return tmp_path


def test_import_bgsim_from_a_folder_with_its_own_sim_and_reports_packages(tmp_path):
    folder = _project_folder_of_a_user(tmp_path)
    code = ("import json, bgsim; g = bgsim.make_game('carpe_diem', n_players=2); "
            "from bgsim.sim.stats import seats; "
            "print(json.dumps([g.name, bgsim.load_spec('spec.toml').name]))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout) == ["carpe_diem", "tiny"]


def test_bgsim_run_from_a_folder_with_its_own_packages(tmp_path):
    folder = _project_folder_of_a_user(tmp_path)
    for k, command in enumerate(([str(BGSIM)], [sys.executable, "-m", "bgsim"])):
        out = folder / f"runs-{k}"
        proc = subprocess.run([*command, "run", "spec.toml", "--jobs", "2", "--quiet", "--out", str(out)],
                              cwd=folder, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr[-2000:]
        (run_dir,) = out.iterdir()
        assert json.loads((run_dir / "meta.json").read_text())["status"] == "complete"
        assert len(list(run_dir.glob("chunk-*.parquet"))) == 2
