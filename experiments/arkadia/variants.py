"""How Arkadia's robustness variants derive their component files (``VARIANT_DATA``, declared in the
game's entry).

The grid's size, the tent map, the shapes' cells and the cards per shape and family are
reconstructions (research note, Items 5, 6 and 8). The variants, with what each changes, are
declared in the game's profile (``sim/games/arkadia/profile.py``); each recipe below starts from the
components file the base spec plays with and keeps the exact facts: 7 shapes, 40 cards (10 per
family), the castle's 10 fields with 2 printed seals per family. The first-game layout moves with
the shapes it uses, so every variant stays a legal first game too; a file without one (it is read
only with intro_setup) stays without.
"""

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path

from bgsim.experiments.variants import VariantData, VariantError
from bgsim.sim.profile import VariantInfo

__all__ = ["COMPONENT_RECIPES", "VARIANT_DATA", "derive_components", "render_components"]

MIRRORED_SHAPES = ("smithy", "trade_centre")  # the shapes whose mirror image is not one of their rotations


def _grid(doc: dict, rows: int, cols: int) -> dict:
    """The grid resized from the top-left corner; tents outside the new grid are gone."""
    out = copy.deepcopy(doc)
    out["board"]["rows"], out["board"]["cols"] = rows, cols
    out["board"]["tents"] = [[r, c] for r, c in doc["board"]["tents"] if r < rows and c < cols]
    return out


def _tents_sparse(doc: dict) -> dict:
    """Every second tent of the map, in reading order (13 of 26)."""
    out = copy.deepcopy(doc)
    out["board"]["tents"] = sorted(doc["board"]["tents"])[::2]
    return out


def _tents_mirrored(doc: dict) -> dict:
    """The tent map mirrored left to right: as many tents, elsewhere. A tent that would lie under the
    first game's layout moves right along its row to the next free cell (004 lays no building or
    castle on a tent at the start)."""
    out = copy.deepcopy(doc)
    cols = doc["board"]["cols"]
    taken = _intro_cells(doc)
    tents: set[tuple[int, int]] = set()
    for r, c in doc["board"]["tents"]:
        c = cols - 1 - c
        while (r, c) in taken or (r, c) in tents:
            c = (c + 1) % cols
        tents.add((r, c))
    out["board"]["tents"] = sorted([r, c] for r, c in tents)
    return out


def _intro_cells(doc: dict) -> set[tuple[int, int]]:
    """The cells of the first game's layout: its castle site (wide 3 x 4, or tall 4 x 3) and buildings;
    none for a file without a layout."""
    if "intro" not in doc:
        return set()
    castle = doc["intro"]["castle"]
    height, width = (3, 4) if castle["orientation"] == "wide" else (4, 3)
    cells = {(castle["row"] + r, castle["col"] + c) for r in range(height) for c in range(width)}
    for building in doc["intro"]["buildings"]:
        cells |= {(r, c) for r, c in building["cells"]}
    return cells


def _mirror_cells(cells: list[list[int]]) -> list[list[int]]:
    """Cells mirrored left to right within their own columns."""
    low, high = min(c for _, c in cells), max(c for _, c in cells)
    return [[r, low + high - c] for r, c in cells]


def _shapes_mirrored(doc: dict) -> dict:
    """The smithy and the trade centre as the mirror images of the reconstructed cells (the research
    note's diagram shows them so); the first game's buildings of those shapes mirrored, each moved
    to the nearest spot where it is again a legal first-game building."""
    out = copy.deepcopy(doc)
    for name in MIRRORED_SHAPES:
        out["shapes"][name]["cells"] = _mirror_cells(doc["shapes"][name]["cells"])
    for building in out.get("intro", {}).get("buildings", []):
        if building["shape"] in MIRRORED_SHAPES:
            others = _intro_cells(out) - {(r, c) for r, c in building["cells"]}
            building["cells"] = _legal_spot(out, _mirror_cells(building["cells"]), others)
    return out


def _legal_spot(doc: dict, cells: list[list[int]], others: set[tuple[int, int]]) -> list[list[int]]:
    """``cells`` moved by the smallest shift that puts them on the grid, off tents and ``others``,
    and next to one of ``others`` (ARK-PLACE-3, -4)."""
    rows, cols = doc["board"]["rows"], doc["board"]["cols"]
    tents = {(r, c) for r, c in doc["board"]["tents"]}
    shifts = sorted(((dr, dc) for dr in range(-2, 3) for dc in range(-2, 3)), key=lambda d: (abs(d[0]) + abs(d[1]), d))
    for dr, dc in shifts:
        moved = [(r + dr, c + dc) for r, c in cells]
        inside = all(0 <= r < rows and 0 <= c < cols for r, c in moved)
        free = not any(cell in others or cell in tents for cell in moved)
        touches = any((r + a, c + b) in others for r, c in moved for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0)))
        if inside and free and touches:
            return [[r, c] for r, c in moved]
    raise VariantError("no legal spot for a mirrored first-game building near its own")


def _more_large(doc: dict) -> dict:
    """Two residences (2 cells) become monasteries (4 cells): a cloth and a spice card."""
    out = copy.deepcopy(doc)
    for family in ("cloth", "spice"):
        out["shapes"]["residence"]["cards"][family] -= 1
        out["shapes"]["monastery"]["cards"][family] += 1
    return out


COMPONENT_RECIPES: dict[str, Callable[[dict], dict]] = {  # recipe -> components dict in, out
    "grid_small": lambda doc: _grid(doc, doc["board"]["rows"] - 1, doc["board"]["cols"] - 1),
    "grid_large": lambda doc: _grid(doc, doc["board"]["rows"] + 1, doc["board"]["cols"] + 1),
    "tents_sparse": _tents_sparse,
    "tents_mirrored": _tents_mirrored,
    "shapes_mirrored": _shapes_mirrored,
    "more_large": _more_large,
}


def derive_components(variant: VariantInfo, name: str, source: Path) -> str:
    """The components.toml text of ``variant``: its recipe applied to the file in ``source``."""
    recipe = COMPONENT_RECIPES.get(variant.data.get(name, ""))
    if name != "components" or recipe is None:
        raise VariantError(f"variant {variant.name}: no Arkadia recipe for {name} {variant.data.get(name)!r} "
                           f"(component recipes: {', '.join(COMPONENT_RECIPES)})")
    doc = tomllib.loads(source.read_text(encoding="utf-8"))
    header = [f"# Arkadia components, robustness variant {variant.name}: {variant.description}",
              f"# Derived from {source.name} by experiments/arkadia/variants.py."]
    return render_components(recipe(doc), header, f"variant {variant.name}")


def _value(value) -> str:
    """A TOML value of the kinds a components file holds: int, str, list, inline table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    raise VariantError(f"cannot write {value!r} into a components file")


def render_components(doc: dict, header: list[str], note: str) -> str:
    """The text of a components file holding ``doc`` (the layout of ``data/components.toml``), its
    ``source`` extended by ``note``."""
    lines = [*header, f"status = {_value(doc['status'])}", f"source = {_value(doc['source'] + '; ' + note)}", ""]
    for table in ("board", "castle"):
        lines.append(f"[{table}]")
        lines += [f"{key} = {_value(value)}" for key, value in doc[table].items()]
        lines.append("")
    lines.append("[shapes]")
    lines += [f"{key} = {_value(value)}" for key, value in doc["shapes"].items() if not isinstance(value, dict)]
    for name, shape in doc["shapes"].items():
        if isinstance(shape, dict):
            lines += ["", f"[shapes.{name}]"] + [f"{key} = {_value(value)}" for key, value in shape.items()]
    if "intro" not in doc:
        return "\n".join(lines) + "\n"
    lines += ["", "[intro]"]
    for key, value in doc["intro"].items():
        if key == "buildings":
            lines += ["buildings = ["] + [f"  {_value(b)}," for b in value] + ["]"]
        else:
            lines.append(f"{key} = {_value(value)}")
    return "\n".join(lines) + "\n"


VARIANT_DATA = VariantData(derive=derive_components)
