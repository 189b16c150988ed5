"""Robustness to reconstructed components: the seat-order study again under each variant.

A robustness spec names a seat-order spec (``base``), the variants and ``[override]`` tables that
shrink the base for every study (fewer populations or games). The baseline and every variant are
complete seat-order studies under ``<dir>/studies/<study-id>/``, all with the same seed (the same
deals, up to what a changed component file deals differently). ``robustness.json`` records them;
the robustness report compares their conclusions.

A game declares its variants in its profile (``sim.profile.VariantInfo``: the parameters each
sets, the data files each replaces by a recipe) and how their data files are derived in its entry's
variants part (``experiments.variants``).

A designer's own changes are variants too: each ``[what_if.<name>]`` table of the spec sets game
parameters (``params``) and replaces data files by the designer's own (``data``: name = path,
relative to the spec), with a ``description``. A spec of such tables alone (``variants = []``) is a
what-if study: the user's changes against the rulebook, on the same deals. A game whose profile
declares no variants can still be studied so.
"""

import copy
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bgsim.experiments.seat_order import MARKER as SEAT_MARKER
from bgsim.experiments.seat_order import (
    SeatOrderSpec,
    check_strategies,
    planned_games,
    run_seat_order,
    seat_order_from_dict,
)
from bgsim.experiments.variants import declared_variants, variant_spec, with_changes
from bgsim.sim.errors import GameIdError
from bgsim.sim.profile import VariantInfo
from bgsim.sim.registry import make_game, parse_id
from bgsim.sim.results.spec import SpecError, check_keys, read_spec_file
from bgsim.sim.results.store import open_study_dir, read_meta, write_json

__all__ = ["MARKER", "RobustnessSpec", "load_robustness", "run_robustness"]

MARKER = "robustness.json"
_KEYS = {"": {"name", "description", "base", "variants", "override", "what_if"}}
_WHAT_IF_KEYS = {"description", "params", "data"}
_REPLACED = ("populations",)  # override tables that replace the base's instead of updating it


@dataclass(frozen=True)
class RobustnessSpec:
    name: str
    base_doc: dict  # the seat-order spec with the overrides applied
    base_dir: Path  # where the base spec's relative paths point
    variants: tuple[VariantInfo, ...]  # the variants to play, as the game's profile declares them
    description: str = ""
    own: tuple[VariantInfo, ...] = ()  # the spec's [what_if] variants: data = name -> absolute path

    @property
    def every_variant(self) -> tuple[VariantInfo, ...]:
        return self.variants + self.own

    def baseline(self) -> SeatOrderSpec:
        doc = copy.deepcopy(self.base_doc)
        doc["name"] = f"{self.name}_baseline"
        return seat_order_from_dict(doc, self.base_dir, source="robustness baseline")

    def variant_study(self, variant, data_dir: Path) -> SeatOrderSpec:
        """The baseline with ``variant``'s parameters and data (its data files written to ``data_dir``;
        a [what_if] variant's are the user's own files)."""
        doc = own_variant_spec(self.base_doc, variant) if variant in self.own else variant_spec(
            self.base_doc, variant, data_dir, self.base_dir)
        doc["name"] = f"{self.name}_{variant.name}"
        return seat_order_from_dict(doc, self.base_dir, source=f"variant {variant.name}")

    def fingerprint(self) -> str:
        doc = {"base": self.base_doc, "variants": [v.name for v in self.variants]}
        if self.own:  # the user's files by content: an edited file is another study
            doc["what_if"] = [[v.name, v.params, {k: _file_hash(p) for k, p in v.data.items()}] for v in self.own]
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:10]

    @property
    def study_id(self) -> str:
        return f"{self.name}-{self.fingerprint()}"


def load_robustness(path: str | Path) -> RobustnessSpec:
    path = Path(path)
    doc = read_spec_file(path)
    source = path.name
    check_keys(doc, _KEYS, source)
    if "base" not in doc:
        raise SpecError(f"{source}: base (the seat-order spec to repeat) is missing")
    base_path = path.parent / doc["base"]
    base_doc = read_spec_file(base_path)
    override = doc.get("override", {})
    if not isinstance(override, dict):
        raise SpecError(f"{source}: [override] must be a table of seat-order spec tables")
    for key, value in override.items():
        if key in _REPLACED or not isinstance(value, dict):
            base_doc[key] = value
        else:
            base_doc.setdefault(key, {}).update(value)
    game_id = base_doc.get("game", {}).get("id")
    if not isinstance(game_id, str):
        raise SpecError(f"{base_path.name}: [game] id is missing")
    own = own_variants(doc.get("what_if", {}), path.parent, source)
    try:
        names = doc.get("variants")
        variants = () if own and names is None or names == [] else tuple(
            declared_variants(game_variants(game_id), names))
    except (ValueError, GameIdError) as exc:
        raise SpecError(f"{source}: {exc}") from None
    clash = {v.name for v in variants} & {v.name for v in own}
    if clash or any(v.name == "baseline" for v in own):
        raise SpecError(f"{source}: what_if.{sorted(clash or {'baseline'})[0]} has the name of another study")
    spec = RobustnessSpec(name=doc.get("name", path.stem), base_doc=base_doc, base_dir=base_path.parent,
                          variants=variants, description=doc.get("description", ""), own=own)
    spec.baseline()  # every key of the merged base is checked before anything runs
    for variant in own:  # the user's parameters and files too: bad ones fail before any file is written
        try:
            check_strategies(spec.variant_study(variant, Path()))
        except (SpecError, GameIdError, ValueError) as exc:
            raise SpecError(f"{source}: what_if.{variant.name}: {exc}") from None
    return spec


def own_variants(tables, spec_dir: Path, source: str) -> tuple[VariantInfo, ...]:
    """The spec's ``[what_if.<name>]`` tables as variants whose data are the user's files (absolute paths)."""
    if not isinstance(tables, dict) or not all(isinstance(t, dict) for t in tables.values()):
        raise SpecError(f"{source}: [what_if] must hold tables such as [what_if.catch_up_off]")
    found = []
    for name, table in tables.items():
        check_keys(table, {"": _WHAT_IF_KEYS}, f"{source}: what_if.{name}")
        params, data = table.get("params", {}), table.get("data", {})
        if not isinstance(params, dict) or not isinstance(data, dict) or not (params or data):
            raise SpecError(f"{source}: what_if.{name} needs params = {{...}} or data = {{name = \"file.toml\"}}")
        files = {}
        for key, value in data.items():
            file = spec_dir / str(value)
            if not file.is_file():
                raise SpecError(f"{source}: what_if.{name}.data.{key}: no file {file}")
            files[key] = str(file.resolve())
        found.append(VariantInfo(name=name, description=str(table.get("description", "")), params=dict(params),
                                 data=files))
    return tuple(found)


def own_variant_spec(base_doc: dict, variant: VariantInfo) -> dict:
    """The base seat-order spec played with a [what_if] variant: its parameters set, its data files
    the user's own (absolute paths, so the base's folder does not matter)."""
    return with_changes(base_doc, variant, variant.data, "what if")


def _file_hash(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def game_variants(game_id: str) -> tuple[VariantInfo, ...]:
    """The variants a game's profile declares; a SpecError for a game without."""
    variants = make_game(game_id).profile.variants
    if not variants:
        raise SpecError(f"{parse_id(game_id)[0]} declares no variants of its components (its profile lists none); "
                        f"a robustness study needs them")
    return variants


def run_robustness(spec: RobustnessSpec, out: str | Path = "runs", jobs: int = 1, resume: bool = False,
                   on_progress: Callable[[int, int], None] | None = None,
                   on_stage: Callable[[str], None] | None = None) -> Path:
    """Run the baseline and every variant study; returns the robustness directory."""
    directory = Path(out) / spec.study_id
    meta = _prepare(spec, directory, resume)
    studies = [("baseline", spec.baseline())] + [(v.name, spec.variant_study(v, directory / "data"))
                                                  for v in spec.every_variant]
    total = sum(s.total_games for _, s in studies)
    done, grown = 0, 0  # grown: games of later compensation rounds, known only as the studies play them
    stage = on_stage or (lambda _text: None)
    meta["studies"] = []
    for label, study in studies:
        def progress(finished: int, study_total: int, offset=done, planned=study.total_games,
                     before=grown) -> None:
            if on_progress:
                on_progress(offset + finished, total + before + max(0, study_total - planned))

        stage(f"{label}: {study.study_id}")
        study_dir = directory / "studies" / study.study_id
        run_seat_order(study, jobs=jobs, resume=resume or study_dir.exists(), on_progress=progress,
                       directory=study_dir)
        meta["studies"].append({"variant": label, "dir": f"studies/{study.study_id}"})
        write_json(directory / MARKER, meta)
        played = planned_games(study, read_meta(study_dir, SEAT_MARKER, "seat-order"))
        grown += played - study.total_games
        done += played
    meta["status"] = "complete"
    write_json(directory / MARKER, meta)
    return directory


def _prepare(spec: RobustnessSpec, directory: Path, resume: bool) -> dict:
    meta = open_study_dir(directory, MARKER, "robustness study", "study_id", spec.study_id, resume,
                          "base_seat_order.toml", spec.base_doc)
    if meta is not None:
        return meta
    meta = {"kind": "robustness", "study_id": spec.study_id, "name": spec.name, "description": spec.description,
            "created": datetime.now(UTC).isoformat(timespec="seconds"), "status": "running",
            "variants": [{"name": v.name, "description": v.description} for v in spec.variants]
            + [{"name": v.name, "description": v.description, "what_if": True,
                "changes": _changes(v)} for v in spec.own]}
    write_json(directory / MARKER, meta)
    return meta


def _changes(variant: VariantInfo) -> str:
    """A [what_if] variant's changes in words: parameters set and data files replaced (by content hash)."""
    parts = [f"{k} = {v}" for k, v in variant.params.items()]
    parts += [f"{k}: {Path(p).name} (sha256 {_file_hash(p)[:12]})" for k, p in variant.data.items()]
    return "; ".join(parts)
