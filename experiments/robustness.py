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
from pathlib import Path

import polars as pl
from bgsim.experiments.seat_order import STUDY as SEAT_ORDER
from bgsim.experiments.seat_order import (
    SeatOrderSpec,
    check_strategies,
    load_seat_order,
    planned_games,
    run_seat_order,
    seat_order_from_dict,
)
from bgsim.experiments.seat_order_results import cells_played, study_run_dirs
from bgsim.experiments.seat_order_results import contents as seat_order_contents
from bgsim.experiments.seat_order_results import read as read_seat_order
from bgsim.experiments.studies import resume_command, study_named
from bgsim.experiments.study import StudyResult, open_session
from bgsim.experiments.variants import declared_variants, variant_spec, with_changes
from bgsim.sim.errors import GameIdError
from bgsim.sim.profile import VariantInfo
from bgsim.sim.registry import make_game, parse_id
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.results.progress import runs_done
from bgsim.sim.results.spec import SpecError, check_keys, read_spec_file
from bgsim.sim.results.store import RunStoreError, read_meta, read_profile

__all__ = ["STUDY", "RobustnessSpec", "contents", "load_robustness", "read", "run_robustness"]

STUDY = study_named("robustness")
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

    @property
    def game(self) -> str:
        return self.base_doc["game"]["id"]

    @property
    def total_games(self) -> int:
        """Games the baseline plans, once for it and once for every variant (same cells, one component
        replaced; refinement rounds may add more as the studies play)."""
        return self.baseline().total_games * (1 + len(self.every_variant))

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
                   on_stage: Callable[[str], None] | None = None) -> StudyResult:
    """Run the baseline and every variant study into ``out/<study id>/studies/``."""
    directory = Path(out) / spec.study_id
    with open_session(STUDY, spec.study_id, spec.base_doc, directory, resume, jobs, spec.total_games,
                      lambda: _fresh_meta(spec), on_progress, on_stage) as session:
        # the variants' data files are written into the study's directory, once it is open
        studies = [("baseline", spec.baseline())] + [(v.name, spec.variant_study(v, directory / "data"))
                                                      for v in spec.every_variant]
        planned = session.total = sum(s.total_games for _, s in studies)
        session.meta["studies"] = []
        grown = 0  # games of later compensation rounds, known only as the studies play them
        for label, study in studies:
            def progress(finished: int, study_total: int, offset=session.done, before=grown,
                         study_planned=study.total_games) -> None:
                session.total = planned + before + max(0, study_total - study_planned)
                session.progress(offset + finished)

            session.stage(f"{label}: {study.study_id}")
            study_dir = directory / "studies" / study.study_id
            result = run_seat_order(study, jobs=jobs, resume=resume or study_dir.exists(), on_progress=progress,
                                    directory=study_dir)
            session.meta["studies"].append({"variant": label, "dir": f"studies/{study.study_id}"})
            session.save()
            played = planned_games(study, read_meta(study_dir, SEAT_ORDER.marker, SEAT_ORDER.noun))
            grown += played - study.total_games
            session.count(result.games_played, session.done + played)
    return session.result()


def _fresh_meta(spec: RobustnessSpec) -> dict:
    return {"name": spec.name, "description": spec.description,
            "variants": [{"name": v.name, "description": v.description} for v in spec.variants]
            + [{"name": v.name, "description": v.description, "what_if": True,
                "changes": _changes(v)} for v in spec.own]}


def _changes(variant: VariantInfo) -> str:
    """A [what_if] variant's changes in words: parameters set and data files replaced (by content hash)."""
    parts = [f"{k} = {v}" for k, v in variant.params.items()]
    parts += [f"{k}: {Path(p).name} (sha256 {_file_hash(p)[:12]})" for k, p in variant.data.items()]
    return "; ".join(parts)


# --- reading and the report


def read(directory: str | Path) -> pl.LazyFrame:
    """Every seat-order study of a finished robustness study (``bgsim.load``), each row labelled with its
    ``variant`` ("baseline" or the variant's name) as well as its seat-order labels."""
    directory = Path(directory)
    meta = _finished(directory)
    return pl.concat([read_seat_order(directory / study["dir"]).with_columns(pl.lit(study["variant"]).alias("variant"))
                      for study in meta["studies"]], how="diagonal_relaxed")


def _finished(directory: Path) -> dict:
    meta = read_meta(directory, STUDY.marker, STUDY.noun)
    if meta.get("status") != "complete":
        raise RunStoreError(f"{directory.name}: the robustness study is {meta.get('status')}; finish it with "
                            f"--resume")
    return meta


def contents(directory: str | Path) -> StudyContents:
    """What the robustness report reads (``reports.robustness_report.report``): its finished seat-order
    studies, the baseline first, each gathered only when the report comes to it (a study's rows can
    be large)."""
    directory = Path(directory)
    meta = read_meta(directory, STUDY.marker, STUDY.noun)
    command = resume_command(directory)
    studies = {s["variant"]: directory / s["dir"] for s in meta.get("studies", [])}  # the finished ones
    if "baseline" not in studies:
        raise RunStoreError(f"{directory.name}: the robustness study is {meta.get('status')} and its baseline is "
                            f"not finished yet; run `{command}` to finish it")
    planned_variants = len(meta.get("variants", [])) or len(studies) - 1
    begun = [study for study in (directory / "studies").iterdir() if SEAT_ORDER.holds(study)]
    done = sum(runs_done(study_run_dirs(study)) for study in begun)
    # every variant study plans as many games as the baseline (one component replaced, same cells)
    baseline = load_seat_order(studies["baseline"] / SEAT_ORDER.spec_file)
    played = {"variants": {name: cells_played(path) for name, path in studies.items()}}
    each = ((name, seat_order_contents(path)) for name, path in studies.items())
    return StudyContents(STUDY.kind, meta, read_profile(next(iter(study_run_dirs(studies["baseline"])))),
                         done, baseline.total_games * (1 + planned_variants), command, played, {"studies": each})
