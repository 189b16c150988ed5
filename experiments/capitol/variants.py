"""Named robustness variants of Capitol: the reconstructed board (AMB-18) and two rule readings.

The board's small spaces per prefecture, which prefectures hold the single printed fountains and
the colour groups are reconstructions (research note, Item 1 RECON). A balance conclusion is worth
reporting only if it survives plausible alternatives, so each :class:`Variant` names one as rule
parameters and/or a board transform, and :func:`variant_spec` turns any run spec into the same
spec played with it. Board transforms start from the base spec's own board (``game.data.board``,
else ``board_file``, else ``data_dir/board.toml``, else the default) and keep the exact facts:
nine prefectures, three per colour, two printed fountains on the Capitoline, four in all.
"""

import copy
import hashlib
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bgsim.sim.games.capitol.components import DATA_DIR
from bgsim.sim.games.capitol.profile import VARIANTS

__all__ = ["Variant", "VariantError", "board_of", "robustness_variants", "variant_spec"]

BASE_BOARD = DATA_DIR / "board.toml"


class VariantError(ValueError):
    """An unknown variant name."""


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    params: dict = field(default_factory=dict, hash=False)  # rule parameters to set
    board: Callable[[list[dict]], list[dict]] | None = field(default=None, hash=False)  # board transform


# --- board transforms (each returns new prefecture dicts in the file's order)


def _even_spaces(prefs: list[dict]) -> list[dict]:
    """Every prefecture the mean number of small spaces (6 on the default board)."""
    mean = round(sum(p["small"] for p in prefs) / len(prefs))
    return [p | {"small": mean} for p in prefs]


def _tight(prefs: list[dict]) -> list[dict]:
    """One small space fewer in every prefecture (45 on the default board)."""
    return [p | {"small": max(1, p["small"] - 1)} for p in prefs]


def _single_fountains(prefs: list[dict], largest: bool) -> list[dict]:
    """The single printed fountains move to the largest (smallest) prefecture of their colour
    group; the Capitoline keeps its two."""
    out = [dict(p) for p in prefs]
    for colour in sorted({p["colour"] for p in out}):
        group = [p for p in out if p["colour"] == colour]
        singles = [p for p in group if p.get("fountains", 0) == 1]
        if not singles:
            continue
        total = sum(p.get("fountains", 0) for p in singles)
        for p in singles:
            p["fountains"] = 0
        target = (max if largest else min)((p for p in group if p.get("fountains", 0) == 0),
                                          key=lambda p: (p["small"], p["name"]))
        target["fountains"] = total
    return out


def _groups_by_size(prefs: list[dict]) -> list[dict]:
    """Colour groups of alike prefectures: the three smallest share a colour, then the next three
    (on the default board 5/5/5, 6/6/6 and 7/7/7 spaces instead of 5/6/7 in every group)."""
    colours = sorted({p["colour"] for p in prefs})
    order = sorted(range(len(prefs)), key=lambda i: (prefs[i]["small"], prefs[i]["name"]))
    out = [dict(p) for p in prefs]
    per_group = len(prefs) // len(colours)
    for rank, i in enumerate(order):
        out[i]["colour"] = colours[min(rank // per_group, len(colours) - 1)]
    return out


_BOARD_TRANSFORMS = {
    "board_even_spaces": _even_spaces,
    "board_tight": _tight,
    "board_fountains_large": lambda prefs: _single_fountains(prefs, largest=True),
    "board_fountains_small": lambda prefs: _single_fountains(prefs, largest=False),
    "board_groups_by_size": _groups_by_size,
}
_PARAMS = {
    "no_catch_up": {"tied_bid": "remove"},
    "temple_next_round": {"temple_from": "next_round"},
}


def robustness_variants(names=None) -> list[Variant]:
    """The variants in report order (the profile's ``VARIANTS``), or those named (unknown names are an error)."""
    variants = [Variant(name, text, _PARAMS.get(name, {}), _BOARD_TRANSFORMS.get(name)) for name, text in VARIANTS]
    if names is None:
        return variants
    by_name = {v.name: v for v in variants}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise VariantError(f"unknown variant {unknown[0]!r} (known: {', '.join(by_name)})")
    return [by_name[n] for n in names]


# --- specs


def board_of(path: Path) -> tuple[dict, list[dict]]:
    """(file header fields, prefecture dicts) of a board file."""
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in doc.items() if k != "prefecture"}, [dict(p) for p in doc["prefecture"]]


def _render_board(header: dict, prefs: list[dict], variant: Variant, source: Path) -> str:
    lines = [f"# Capitol board, robustness variant {variant.name}: {variant.description}",
             f"# Derived from {source.name} by experiments/capitol/variants.py.",
             'status = "reconstructed"',
             f'source = "{header.get("source", "")}; variant {variant.name}"', ""]
    for p in prefs:
        lines += ["[[prefecture]]", f'name = "{p["name"]}"', f'colour = "{p["colour"]}"', f"small = {p['small']}",
                  f"large = {p.get('large', 1)}", f"fountains = {p.get('fountains', 0)}", ""]
    return "\n".join(lines)


def _board_source(params: dict, data: dict, base_dir: Path) -> Path:
    if "board" in data:
        return base_dir / data["board"]
    if params.get("board_file"):
        return Path(params["board_file"])
    if params.get("data_dir") and (Path(params["data_dir"]) / "board.toml").exists():
        return Path(params["data_dir"]) / "board.toml"
    return BASE_BOARD


def variant_spec(base_spec: dict, variant: Variant, directory: str | Path, base_dir: str | Path = ".") -> dict:
    """A copy of a run-spec dict played with ``variant``: its params set, its board (if it changes
    the board) derived from the base spec's own and written to ``directory``."""
    doc = copy.deepcopy(base_spec)
    game = doc.setdefault("game", {})
    params, data = dict(game.get("params", {})), dict(game.get("data", {}))
    if variant.board is not None:
        source = _board_source(params, data, Path(base_dir))
        header, prefs = board_of(source)
        text = _render_board(header, variant.board(prefs), variant, source)
        digest = hashlib.sha256(text.encode()).hexdigest()[:10]
        target = Path(directory) / f"{variant.name}_{digest}.toml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        params.pop("board_file", None)  # the data override replaces it (both would clash in make_game)
        data["board"] = str(target.resolve())
    game["params"] = params | variant.params
    game["data"] = data
    doc["name"] = f"{doc.get('name', 'run')}_{variant.name}"
    doc["description"] = f"{doc.get('description', '')} [variant {variant.name}: {variant.description}]".strip()
    return doc
