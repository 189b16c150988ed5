"""What was played, for the top of every report: the game with its non-default parameters, its data
files by content (and which the spec replaced), the rules and bgsim versions, the spec's words."""

__all__ = ["provenance"]


def provenance(meta: dict, spec: dict) -> dict[str, str]:
    """Header lines from a run's ``meta.json`` and ``spec.toml`` (as dicts): the canonical game ids
    (every parameter that differs from its default; replaced data as ``data=<hash>``), the rules
    version, each data file's status and content hash with the replaced ones marked, the spec's
    description, and the bgsim version and commit that played it."""
    blocks = meta.get("blocks") or []
    lines = {}
    ids = list(dict.fromkeys(b["game_id"] for b in blocks if b.get("game_id")))
    if ids:
        lines["game"] = "; ".join(ids)
    versions = list(dict.fromkeys(str(b["rules_version"]) for b in blocks if b.get("rules_version")))
    if versions:
        lines["rules version"] = ", ".join(versions)
    replaced = set(spec.get("data") or (spec.get("game") or {}).get("data") or {})  # [data] or [game.data]
    files = (blocks[0].get("data_files") or {}) if blocks else {}
    if files:
        lines["data files"] = "; ".join(
            f"{name}.toml {info.get('status') or ''} {(info.get('sha256') or '')[:12]}".replace("  ", " ")
            + (" (replaced by the spec)" if name in replaced else "") for name, info in sorted(files.items()))
    if spec.get("description"):
        lines["description"] = " ".join(str(spec["description"]).split())
    version = (meta.get("versions") or {}).get("bgsim")
    if version:
        sha = ((meta.get("git") or {}).get("sha") or "")[:10]  # none outside a git checkout
        lines["bgsim"] = version + (f" ({sha})" if sha else "")
    return lines
