"""Variants of a game's reconstructed components, declared once: in the game's profile.

A variant (``sim.profile.VariantInfo``) sets game parameters and replaces data files; each file it
replaces names a recipe, which the game's variants part (its entry's ``parts.variants``, a
``VariantData``) turns into the new file's text, derived from the file the base spec plays with.
``variant_spec`` turns any run spec into the same spec played with a variant; a robustness study
plays its seat-order spec so under every variant.
"""

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bgsim.sim.errors import GameIdError
from bgsim.sim.profile import VariantInfo
from bgsim.sim.registry import available_games, make_game, parse_id

__all__ = ["VariantData", "VariantError", "data_source", "declared_variants", "game_variant_data", "variant_spec",
           "with_changes", "write_variant_data"]


class VariantError(ValueError):
    """An unknown variant name, or a variant whose data cannot be derived."""


@dataclass(frozen=True)
class VariantData:
    """How a game derives its variants' data files.

    ``derive(variant, name, source)``: the text of data file ``name`` under ``variant`` (its recipe
    is ``variant.data[name]``), derived from the file ``source`` that the base spec plays with.
    The text alone decides the games (a run id hashes data files by content), so it must depend
    on nothing but its arguments.
    """

    derive: Callable[[VariantInfo, str, Path], str]


def declared_variants(variants: tuple[VariantInfo, ...], names=None) -> list[VariantInfo]:
    """The declared ``variants`` (a game profile's), in report order, or those ``names`` lists (a
    VariantError names an unknown one)."""
    by_name = {v.name: v for v in variants}
    if names is None:
        return list(variants)
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise VariantError(f"unknown variant {unknown[0]!r} (known: {', '.join(by_name)})")
    return [by_name[n] for n in names]


def game_variant_data(game_name: str) -> VariantData | None:
    """The variants part the game's entry declares, or None."""
    entry = available_games(unlisted=True).get(game_name)
    return entry.parts.load("variants") if entry else None


def data_source(game: dict, name: str, base_dir: Path) -> Path:
    """The data file ``name`` a spec's ``[game]`` table plays with: its ``[game.data]`` override
    (relative to ``base_dir``), else the file the game's parameters choose (``<name>_file``,
    ``data_dir``, else the game's own)."""
    data = game.get("data", {})
    if name in data:
        return Path(base_dir) / data[name]
    params = {k: v for k, v in game.get("params", {}).items() if k != "n_players"}
    try:
        files = make_game(game["id"], **params).data_files
    except GameIdError as exc:
        raise VariantError(str(exc)) from None
    if name not in files:
        raise VariantError(f"{parse_id(game['id'])[0]} has no data file {name!r} (known: {', '.join(files)})")
    return Path(files[name]["path"])


def write_variant_data(variant: VariantInfo, game: dict, directory: str | Path, base_dir: str | Path = ".",
                       variant_data: VariantData | None = None) -> dict[str, str]:
    """Write the data files ``variant`` replaces to ``directory/<variant>/<name>.toml``, each derived
    from the file the spec's ``[game]`` table plays with; returns data name -> absolute path."""
    if not variant.data:
        return {}
    variant_data = variant_data or game_variant_data(parse_id(game["id"])[0])
    if variant_data is None:
        raise VariantError(f"variant {variant.name} replaces data files, but its game declares no variants part")
    written = {}
    for name in variant.data:
        text = variant_data.derive(variant, name, data_source(game, name, Path(base_dir)))
        path = Path(directory) / variant.name / f"{name}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written[name] = str(path.resolve())
    return written


def variant_spec(base_spec: dict, variant: VariantInfo, directory: str | Path, base_dir: str | Path = ".",
                 variant_data: VariantData | None = None) -> dict:
    """A copy of a run-spec dict played with ``variant``: its parameters set, its data files derived
    from the base spec's own and written under ``directory``; the name gets the variant's appended,
    so the runs sit side by side."""
    written = write_variant_data(variant, base_spec.get("game", {}), directory, base_dir, variant_data)
    doc = with_changes(base_spec, variant, written, "variant")
    doc["name"] = f"{doc.get('name', 'run')}_{variant.name}"
    return doc


def with_changes(base_spec: dict, variant: VariantInfo, data: dict[str, str], word: str) -> dict:
    """A copy of a run-spec dict with ``variant``'s parameters set and its ``data`` files (name ->
    absolute path) in place of the spec's, its description naming the change (``word``: "variant",
    "what if")."""
    doc = copy.deepcopy(base_spec)
    game = doc.setdefault("game", {})
    params = dict(game.get("params", {}))
    for name in data:
        params.pop(f"{name}_file", None)  # the data override replaces it (both would clash in make_game)
    game["params"] = params | dict(variant.params)
    game["data"] = dict(game.get("data", {})) | dict(data)
    doc["description"] = f"{doc.get('description', '')} [{word} {variant.name}: {variant.description}]".strip()
    return doc
