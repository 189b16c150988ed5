"""What was played, for the top of every report: the game with its non-default parameters, its data
files by content (and which the spec replaced), the strategies and seeds, the rules and bgsim
versions, the spec's words. The facts come from ``sim.results.played``; this module words them."""

from bgsim.sim.digest import short_digest
from bgsim.sim.results.played import played

__all__ = ["header", "provenance", "side_by_side"]


def provenance(meta: dict, spec: dict) -> dict[str, str]:
    """Header lines of one run from its ``meta.json`` and ``spec.toml`` (as dicts)."""
    return header(played([meta], spec))


def header(facts: dict) -> dict[str, str]:
    """Header lines (label -> text) of ``sim.results.played`` facts: the canonical game ids, the rules
    version, each data file's status and content hash with the replaced ones marked, the strategies,
    the seeds, the spec's description, and the bgsim version and commit. Empty facts give no line."""
    files = facts.get("data_files") or {}
    bgsim = facts.get("bgsim") or {}
    sha = (bgsim.get("commit") or "")[:10]  # none outside a git checkout
    lines = {
        "game": "; ".join(facts.get("games") or []),
        "rules version": ", ".join(facts.get("rules_versions") or []),
        "data files": "; ".join(_data_file(name, info) for name, info in files.items()),
        "strategies": ", ".join(facts.get("strategies") or []),
        "seed": ", ".join(str(s) for s in facts.get("seeds") or []),
        "description": facts.get("description") or "",
        "bgsim": (bgsim.get("version") or "") + (f" ({sha})" if sha and bgsim.get("version") else ""),
    }
    return {label: text for label, text in lines.items() if text}


def _data_file(name: str, info: dict) -> str:
    text = " ".join(part for part in (f"{name}.toml", info.get("status"), short_digest(info.get("sha256"))) if part)
    if not info.get("replaced"):
        return text
    return text + (f" (replaced by the spec: {info['file']})" if info.get("file") else " (replaced by the spec)")


def side_by_side(studies: dict[str, dict[str, str]]) -> dict[str, str]:
    """Header lines of studies played side by side (``studies``: label -> its header lines, the
    baseline first), kept short: a line every study shares once; a line that differs under its label
    marked with the baseline's name, then one line per other study (studies with the same changes
    share one) with only what it changed: the items (``; ``-separated) the baseline's line lacks."""
    (base, base_lines), *others = studies.items()
    labels = list(dict.fromkeys(label for lines in studies.values() for label in lines))
    differs = [label for label in labels if any(lines.get(label) != base_lines.get(label) for _, lines in others)]
    shared = {(f"{label} ({base})" if label in differs else label): text for label, text in base_lines.items()}
    changes: dict[str, list[str]] = {}
    for name, lines in others:
        changed = "; ".join(f"{label}: {_new_items(lines.get(label), base_lines.get(label))}" for label in differs
                            if lines.get(label) != base_lines.get(label))
        if changed:
            changes.setdefault(changed, []).append(name)
    return shared | {", ".join(names): changed for changed, names in changes.items()}


def _new_items(text: str | None, base: str | None) -> str:
    """The ``; ``-separated items of ``text`` that ``base`` lacks (all of ``text`` if it only drops some)."""
    if not text:
        return "none"
    new = [item for item in text.split("; ") if item not in (base or "").split("; ")]
    return "; ".join(new) or text
