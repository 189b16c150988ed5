"""How Carpe Diem's robustness variants derive their tiles (``VARIANT_DATA``, declared in the game's entry).

Several components are reconstructions (research/carpe_diem_components.md): the villa table,
the reading of a frame task's line (AMB-1) and the tile manifest. A balance conclusion is only
worth reporting if it survives their plausible alternatives; the variants, the rule parameters
they set and the tile shift each plays with (a recipe ``"<family> <percent>"``), are declared in
the game's profile (``sim/games/carpe_diem/profile.py``). This module turns a recipe into a
replacement tiles.toml derived from the tiles the base spec plays with.

Tile-family shift (one rule for every family and both signs):

1. Each type of the shifted family gains (loses) round(25 % of its part count) parts, halves
   to even, so the types of a family stay equal and plus and minus mirror each other: villa
   parts 46 -> 58 / 34, landscape parts 14 -> 18 / 10 per type, lodging halves 12 -> 15 / 9
   per colour (an odd count leaves one half per colour unpaired), small buildings 9 -> 11 / 7.
2. The other families pay (receive) the difference in proportion to their part counts, each in
   whole sets of one part per type (set counts rounded, halves to even), so their types stay
   equal as well.
3. Still 84 light + 39 dark tiles under their old ids and backs. A donor part changes type in
   place, its shape adapted (lodging: 1 open edge; landscape: end, corner or straight; villa:
   its open edges; small building: none; a part gaining edges takes the first free edge), new
   villa parts get chimneys by shape as in the base manifest (end 1-2, corner / straight 1-3,
   T 2-3, cycled). The rounding residual of step 2 (a part or two) changes the number of
   two-part light tiles: a part is dropped from a two-part tile or added to a one-part tile.
4. Parts on one tile keep different types and disjoint edges (so at most 4 open edges), dark
   tiles keep one part: the engine's checks hold. A donor type gives its parts evenly spaced
   through the file (light tiles first, then dark), so larger changes reach both backs and all
   shapes; a single part comes from the middle of the list. No randomness: same input, same file.
"""

import copy
import hashlib
import textwrap
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from bgsim.experiments.variants import VariantData, VariantError, declared_variants
from bgsim.sim.games.carpe_diem.components import DATA_DIR
from bgsim.sim.games.carpe_diem.params import Params
from bgsim.sim.games.carpe_diem.profile import VARIANTS
from bgsim.sim.profile import VariantInfo

__all__ = [
    "FAMILIES",
    "TileShift",
    "VARIANT_DATA",
    "derive_tiles",
    "shift_tiles",
    "tile_shift",
    "variant_rows",
    "variant_tiles",
]

BASE_TILES = DATA_DIR / "tiles.toml"
FAMILIES = {
    "villas": ("villa",),
    "landscapes": ("pond", "garden", "vineyard", "chicken_yard"),
    "lodgings": ("merchant", "baker", "administrator", "craftsman"),
    "small_buildings": ("market", "bakery", "fountain"),
}
TYPES = tuple(t for types in FAMILIES.values() for t in types)
_FAMILY_OF = {t: family for family, types in FAMILIES.items() for t in types}
_CHIMNEYS_BY_EDGES = {1: (1, 2), 2: (1, 2, 3), 3: (2, 3)}  # base manifest's ranges per villa shape
_NBSP = "\u00a0"
_REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class TileShift:
    """Shift the part count of one tile family by ``percent`` (see the module doc for the rule)."""

    family: str
    percent: int


def tile_shift(variant: VariantInfo) -> TileShift | None:
    """The tile shift of a variant's tiles recipe (``"villas +25"``), or None for a variant that keeps the tiles."""
    recipe = variant.data.get("tiles")
    if recipe is None:
        return None
    family, _, percent = recipe.partition(" ")
    if family not in FAMILIES or not percent.lstrip("+-").isdigit():
        raise VariantError(f"variant {variant.name}: tiles recipe {recipe!r} is not '<family> <percent>' "
                           f"with a family of {', '.join(FAMILIES)}")
    return TileShift(family, int(percent))


# --- counts


def part_counts(tiles: list[dict]) -> dict[str, int]:
    """Parts per type over all tiles."""
    counts = dict.fromkeys(TYPES, 0)
    for tile in tiles:
        for part in tile["parts"]:
            counts[part["type"]] += 1
    return counts


def family_counts(counts: dict[str, int]) -> dict[str, int]:
    return {family: sum(counts[t] for t in types) for family, types in FAMILIES.items()}


def manifest_summary(tiles: list[dict]) -> dict[str, int]:
    """The counts a report shows: parts per family, tile kinds and chimneys."""
    light = [t for t in tiles if t["back"] == "light"]
    return family_counts(part_counts(tiles)) | {
        "light": len(light),
        "dark": len(tiles) - len(light),
        "two_part_light": sum(len(t["parts"]) == 2 for t in light),
        "chimneys": sum(p.get("chimneys", 0) for t in tiles for p in t["parts"]),
    }


def target_counts(counts: dict[str, int], shift: TileShift) -> dict[str, int]:
    """Parts per type after the shift: steps 1 and 2 of the module doc."""
    if shift.family not in FAMILIES:
        raise VariantError(f"unknown tile family {shift.family!r} (known: {', '.join(FAMILIES)})")
    rate = Fraction(shift.percent, 100)
    targets = dict(counts)
    delta = 0
    for t in FAMILIES[shift.family]:
        step = round(rate * counts[t])  # Fraction rounds halves to even: exact and sign-symmetric
        targets[t] += step
        delta += step
    donors = {f: n for f, n in family_counts(counts).items() if f != shift.family}
    for family, size in donors.items():
        sets = round(Fraction(delta * size, sum(donors.values())) / len(FAMILIES[family]))
        for t in FAMILIES[family]:
            targets[t] -= sets
    if min(targets.values()) < 0:
        raise VariantError(f"shift {shift} leaves a negative part count")
    return targets


# --- generation


def read_tiles(path: str | Path = BASE_TILES) -> tuple[dict, list[dict]]:
    """The parsed tiles file and its tile list (plain dicts, safe to change)."""
    doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    return doc, copy.deepcopy(doc["tile"])


def shift_tiles(tiles: list[dict], shift: TileShift) -> list[dict]:
    """A new manifest with the shift applied (the input is left as it is)."""
    tiles = copy.deepcopy(tiles)
    have = part_counts(tiles)
    targets = target_counts(have, shift)
    need = {t: targets[t] - have[t] for t in TYPES}
    chimneys = {edges: 0 for edges in _CHIMNEYS_BY_EDGES}  # position in each shape's chimney cycle
    _convert(tiles, need, chimneys)
    _drop_surplus(tiles, need)
    _add_missing(tiles, need, chimneys)
    if any(need.values()):
        raise VariantError(f"shift {shift} cannot be realised on this manifest (left over: "
                           f"{ {t: n for t, n in need.items() if n} })")
    return tiles


def _convert(tiles: list[dict], need: dict, chimneys: dict) -> None:
    """Retype donor parts (need < 0) into receiving types (need > 0), donors spread evenly."""
    for donor in TYPES:
        for tile, part in _spread(_parts(tiles, donor), -need[donor]):
            if need[donor] >= 0:
                break
            receivers = sorted((t for t in TYPES if need[t] > 0), key=lambda t: (-need[t], TYPES.index(t)))
            for receiver in receivers:
                shape = _shape(part, _other(tile, part), receiver)
                if shape is not None and receiver not in _types(tile):
                    _set_part(part, receiver, shape, chimneys)
                    need[donor] += 1
                    need[receiver] -= 1
                    break


def _drop_surplus(tiles: list[dict], need: dict) -> None:
    """Rounding residual: remove parts from two-part light tiles."""
    for t in TYPES:
        candidates = [(tile, p) for tile, p in _parts(tiles, t) if tile["back"] == "light" and len(tile["parts"]) == 2]
        for tile, part in _spread(candidates, -need[t]):
            if need[t] >= 0:
                break
            tile["parts"].remove(part)
            need[t] += 1


def _add_missing(tiles: list[dict], need: dict, chimneys: dict) -> None:
    """Rounding residual: add parts to one-part light tiles."""
    for t in TYPES:
        singles = [tile for tile in tiles if tile["back"] == "light" and len(tile["parts"]) == 1]
        for tile in _spread(singles, need[t]):
            if need[t] <= 0:
                break
            shape = _shape({"open": ""}, tile["parts"][0]["open"], t)
            if shape is None or t in _types(tile):
                continue
            part = {}
            _set_part(part, t, shape, chimneys)
            tile["parts"].append(part)
            need[t] -= 1


def _parts(tiles: list[dict], ptype: str) -> list[tuple[dict, dict]]:
    return [(tile, part) for tile in tiles for part in tile["parts"] if part["type"] == ptype]


def _spread(items: list, k: int) -> list:
    """``items`` with k evenly spaced ones first, so taking a prefix samples the whole file."""
    n = len(items)
    k = min(max(k, 0), n)
    first = [((2 * i + 1) * n) // (2 * k) for i in range(k)]
    chosen = set(first)
    return [items[i] for i in first] + [items[i] for i in range(n) if i not in chosen]


def _other(tile: dict, part: dict) -> str:
    """Open edges of the tile's other part (none on a one-part tile)."""
    return "".join(p["open"] for p in tile["parts"] if p is not part)


def _types(tile: dict) -> set[str]:
    return {p["type"] for p in tile["parts"]}


def _shape(part: dict, other_open: str, receiver: str) -> str | None:
    """Open edges of ``part`` once it is a ``receiver``; None if no edge is free."""
    family = _FAMILY_OF[receiver]
    if family == "small_buildings":
        return ""
    edges = part["open"]
    if not edges:
        free = [d for d in "NESW" if d not in other_open]
        return free[0] if free else None
    if family == "lodgings":
        return edges[0]
    if family == "landscapes":
        return edges[:2]  # a T loses an edge: landscapes are ends, corners or straights
    return edges


def _set_part(part: dict, ptype: str, shape: str, chimneys: dict) -> None:
    part.clear()
    part.update(type=ptype, open=shape)
    if ptype == "villa":
        cycle = _CHIMNEYS_BY_EDGES[len(shape)]
        part["chimneys"] = cycle[chimneys[len(shape)] % len(cycle)]
        chimneys[len(shape)] += 1


# --- files and specs


def variant_tiles(variant: VariantInfo, source: str | Path = BASE_TILES) -> tuple[str, dict, dict]:
    """(tiles.toml text, counts before, counts after) of a tile variant, derived from ``source``."""
    shift = tile_shift(variant)
    if shift is None:
        raise VariantError(f"variant {variant.name} keeps the tiles")
    source = Path(source)
    doc, tiles = read_tiles(source)
    shifted = shift_tiles(tiles, shift)
    before, after = manifest_summary(tiles), manifest_summary(shifted)
    header = _header(variant.name, shift, source, part_counts(tiles), part_counts(shifted), before, after)
    # The generated files name this module by its first path, experiments/variants.py: a data file counts by
    # its content in a run id, so other words would change the run ids of every stored robustness study.
    origin = f"{doc['source']}; {variant.name}: {shift.family} {shift.percent:+d} % (experiments/variants.py)"
    return _render(header, doc.get("status", "reconstructed"), origin, shifted), before, after


def derive_tiles(variant: VariantInfo, name: str, source: Path) -> str:
    """The tiles.toml text of ``variant``, derived from the tiles in ``source``."""
    if name != "tiles":
        raise VariantError(f"variant {variant.name}: Carpe Diem variants derive tiles only, not {name}")
    return variant_tiles(variant, source)[0]


VARIANT_DATA = VariantData(derive=derive_tiles)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(_REPO))
    except ValueError:
        return str(path)


def _header(name: str, shift: TileShift, source: Path, types_before: dict, types_after: dict, before: dict,
            after: dict) -> list[str]:
    """The comment block of a generated tiles.toml: status, origin, rule and resulting counts."""
    sha = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    paragraphs = [
        f"Carpe Diem building tiles, robustness variant {name}: 84 light + 39 dark = 123.",
        f'status = "reconstructed": derived from {_display(source)} (sha256 {sha}...) by experiments/variants.py.',
        f"Rule: each type of {shift.family.replace('_', ' ')} {shift.percent:+d} % of its parts (rounded, halves to "
        "even); the other families give or take the difference in proportion to their part counts, in whole "
        "sets of one part per type; donor parts change type in place, shape adapted (new villa parts get "
        "chimneys by shape: end 1-2, corner / straight 1-3, T 2-3); the rounding residual changes the number "
        "of two-part light tiles. Tile ids and backs, 84 / 39 and the pairing rule are kept.",
        "Counts, base -> variant:",
        "parts per type: " + ", ".join(_nobreak(f"{t} {types_before[t]} -> {types_after[t]}") for t in TYPES),
        "families: " + ", ".join(_nobreak(f"{f.replace('_', ' ')} {before[f]} -> {after[f]}") for f in FAMILIES),
        f"two-part light tiles {before['two_part_light']} -> {after['two_part_light']}, "
        f"chimneys {before['chimneys']} -> {after['chimneys']}",
    ]
    indent = [""] * 4 + ["  "] * 3
    return [line.replace(_NBSP, " ") for text, pad in zip(paragraphs, indent, strict=True)
            for line in textwrap.wrap(text, 96, initial_indent=pad, subsequent_indent=pad + "  ")]


def _nobreak(text: str) -> str:
    """Keep one count ("villa 46 -> 58") on one line when the header is wrapped."""
    return text.replace(" ", _NBSP)


def _render(header: list[str], status: str, source: str, tiles: list[dict]) -> str:
    lines = [f"# {line}".rstrip() for line in header]
    lines += [f"status = {_quote(status)}", f"source = {_quote(source)}"]
    for tile in tiles:
        parts = ", ".join(_render_part(p) for p in tile["parts"])
        lines += ["", "[[tile]]", f"id = {_quote(tile['id'])}", f"back = {_quote(tile['back'])}",
                  f"parts = [{parts}]"]
    return "\n".join(lines) + "\n"


def _render_part(part: dict) -> str:
    items = [f"type = {_quote(part['type'])}", f"open = {_quote(part['open'])}"]
    if "chimneys" in part:
        items.append(f"chimneys = {part['chimneys']}")
    return "{ " + ", ".join(items) + " }"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --- report table


def variant_rows(names=None) -> list[dict]:
    """One row per variant for reports: name, what changes, and the values before -> after."""
    rows = []
    defaults = Params()
    for variant in declared_variants(VARIANTS, names):
        if tile_shift(variant) is None:
            before = ", ".join(f"{k} = {getattr(defaults, k)}" for k in variant.params)
            after = ", ".join(f"{k} = {v}" for k, v in variant.params.items())
        else:
            _, counts_before, counts_after = variant_tiles(variant)
            before, after = _counts_text(counts_before), _counts_text(counts_after)
        rows.append({"name": variant.name, "change": variant.description, "before": before, "after": after})
    return rows


def _counts_text(counts: dict) -> str:
    families = ", ".join(f"{f.replace('_', ' ')} {counts[f]}" for f in FAMILIES)
    return f"{families}; {counts['two_part_light']} two-part light tiles; {counts['chimneys']} chimneys"
