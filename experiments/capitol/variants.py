"""How Capitol's robustness variants derive their boards (``VARIANT_DATA``, declared in the game's entry).

The board's small spaces per prefecture, which prefectures hold the single printed fountains and
the colour groups are reconstructions (research note, Item 1 RECON). The variants themselves, the
rule parameters they set and the board transform each plays on, are declared in the game's profile
(``sim/games/capitol/profile.py``); a board transform starts from the board the base spec plays
with and keeps the exact facts: nine prefectures, three per colour, two printed fountains on the
Capitoline, four in all.
"""

import tomllib
from collections.abc import Callable
from pathlib import Path

from bgsim.experiments.variants import VariantData, VariantError
from bgsim.sim.profile import VariantInfo

__all__ = ["BOARD_TRANSFORMS", "VARIANT_DATA", "board_of", "derive_board"]


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


BOARD_TRANSFORMS: dict[str, Callable[[list[dict]], list[dict]]] = {  # recipe -> prefectures in, prefectures out
    "even_spaces": _even_spaces,
    "tight": _tight,
    "fountains_large": lambda prefs: _single_fountains(prefs, largest=True),
    "fountains_small": lambda prefs: _single_fountains(prefs, largest=False),
    "groups_by_size": _groups_by_size,
}


def board_of(path: Path) -> tuple[dict, list[dict]]:
    """(file header fields, prefecture dicts) of a board file."""
    doc = tomllib.loads(path.read_text(encoding="utf-8"))
    return {k: v for k, v in doc.items() if k != "prefecture"}, [dict(p) for p in doc["prefecture"]]


def derive_board(variant: VariantInfo, name: str, source: Path) -> str:
    """The board.toml text of ``variant``: its recipe's transform of the board in ``source``."""
    transform = BOARD_TRANSFORMS.get(variant.data.get(name, ""))
    if name != "board" or transform is None:
        raise VariantError(f"variant {variant.name}: no Capitol recipe for {name} {variant.data.get(name)!r} "
                           f"(board recipes: {', '.join(BOARD_TRANSFORMS)})")
    header, prefs = board_of(source)
    return _render_board(header, transform(prefs), variant, source)


def _render_board(header: dict, prefs: list[dict], variant: VariantInfo, source: Path) -> str:
    lines = [f"# Capitol board, robustness variant {variant.name}: {variant.description}",
             f"# Derived from {source.name} by experiments/capitol/variants.py.",
             'status = "reconstructed"',
             f'source = "{header.get("source", "")}; variant {variant.name}"', ""]
    for p in prefs:
        lines += ["[[prefecture]]", f'name = "{p["name"]}"', f'colour = "{p["colour"]}"', f"small = {p['small']}",
                  f"large = {p.get('large', 1)}", f"fountains = {p.get('fountains', 0)}", ""]
    return "\n".join(lines)


VARIANT_DATA = VariantData(derive=derive_board)
