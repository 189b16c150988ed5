"""What a set of runs played, as plain data: the facts every report heads with and writes next to its
tables (``provenance.json``), read from the runs' ``meta.json`` and the spec they were played from.

Facts, not a page's wording (``reports.provenance`` turns them into header lines)::

    games           canonical game ids: every parameter that differs from its default, replaced
                    data as data=<name>:<digest> (``sim.digest``, the form the data files show)
    rules_versions  the games' rules versions
    data_files      data file name -> {status, sha256, replaced[, file]}: the component files in
                    use, by content; replaced: the spec put its own file in the game's place; file:
                    that file's name (with its folder where the name alone is the game's own)
    strategies      canonical strategy ids, in the order the runs first seat them
    seeds           the runs' master seeds
    description     the spec's description
    bgsim           {version, commit, dirty}: the package and git commit that played them
"""

import tomllib
from collections.abc import Iterable
from pathlib import Path

from bgsim.sim.results.store import RunStoreError, read_meta

__all__ = ["played", "played_by"]


def played(metas: Iterable[dict], spec: dict) -> dict:
    """The facts of runs whose ``meta.json`` are ``metas`` (dicts), played from ``spec`` (a dict):
    data files as the first run used them, versions as the first run recorded them."""
    metas = list(metas)
    blocks = [b for m in metas for b in m.get("blocks") or []]
    replaced = set(spec.get("data") or (spec.get("game") or {}).get("data") or {})  # [data] or [game.data]
    files = (blocks[0].get("data_files") or {}) if blocks else {}
    first = metas[0] if metas else {}
    git = first.get("git") or {}
    return {
        "games": _distinct(b.get("game_id") for b in blocks),
        "rules_versions": _distinct(str(b.get("rules_version") or "") for b in blocks),
        "data_files": {name: {"status": info.get("status"), "sha256": info.get("sha256"), "replaced": name in replaced}
                       | ({"file": _file_name(name, info["path"])} if name in replaced and info.get("path") else {})
                       for name, info in sorted(files.items())},
        "strategies": _distinct(s for b in blocks for s in b.get("strategies") or ()),
        "seeds": _distinct((m.get("seeds") or {}).get("seed") for m in metas),
        "description": " ".join(str(spec.get("description") or "").split()),
        "bgsim": {"version": (first.get("versions") or {}).get("bgsim"), "commit": git.get("sha"),
                  "dirty": git.get("dirty")},
    }


def played_by(run_dirs: Iterable[Path], spec_path: Path) -> dict:
    """``played`` of the runs in ``run_dirs`` that have begun (a meta.json), from the spec file at
    ``spec_path`` (none there: no spec facts); a one-line RunStoreError if a file is damaged."""
    metas = [read_meta(d) for d in map(Path, run_dirs) if (d / "meta.json").is_file()]
    spec_path = Path(spec_path)
    try:
        spec = tomllib.loads(spec_path.read_text(encoding="utf-8")) if spec_path.is_file() else {}
    except (OSError, ValueError) as exc:
        raise RunStoreError(f"{spec_path}: damaged ({exc})") from None
    return played(metas, spec)


def _file_name(name: str, path: str) -> str:
    """How a report names the file that replaced data file ``name`` (never its whole path): its name,
    with its folder where the name alone would read as the game's own (a variant's ``board.toml``)."""
    path = Path(path)
    return f"{path.parent.name}/{path.name}" if path.name == f"{name}.toml" and path.parent.name else path.name


def _distinct(values: Iterable) -> list:
    """``values`` without repeats or blanks, in first-seen order."""
    return [v for v in dict.fromkeys(values) if v not in (None, "")]
