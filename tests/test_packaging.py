"""One import name: bgsim works from any working folder, including one with its own ``sim/``,
``experiments/``, ``reports/`` and ``strategies/`` packages (a data scientist's project folder)."""

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOP_FOLDERS = ("sim", "strategies", "experiments", "reports")
BGSIM = Path(sys.executable).with_name("bgsim")


def _package_folders() -> set[str]:
    """Every folder with an ``__init__.py`` under bgsim/ and the top-level folders, by installed name."""
    names = set()
    for folder in ("bgsim", *TOP_FOLDERS):
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT).parts
            names.add(".".join(("bgsim", *parts[1:])) if folder == "bgsim" else ".".join(("bgsim", *parts)))
    return names


def test_the_wheel_holds_every_package_folder_with_its_data(tmp_path):
    """A new game's packages need no line in the build files: setup.py finds them on disk."""
    source = tmp_path / "source"
    for name in ("pyproject.toml", "setup.py", "README.md"):
        source.mkdir(exist_ok=True)
        shutil.copy(ROOT / name, source / name)
    for folder in ("bgsim", *TOP_FOLDERS):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__", "*.nb?"))
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
                           "--quiet", "--wheel-dir", str(tmp_path / "dist")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("bgsim-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        files = set(archive.namelist())
    packed = {name.removesuffix("/__init__.py").replace("/", ".") for name in files if name.endswith("/__init__.py")}
    assert packed == _package_folders()
    assert "bgsim/sim/games/carpe_diem/data/tiles.toml" in files
    assert any(name.startswith("bgsim/experiments/configs/") and name.endswith(".toml") for name in files)


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


@pytest.mark.own_workers
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
