"""Tournaments: a list of strategies, every pairing played on the same deals, rated together.

A tournament spec (TOML) names a game, one or more player counts and a list of strategies.
Each pairing (n distinct strategies for an n-player game) becomes one ``RunSpec`` in
``permutations`` mode, so every deal is played in every seating, and is stored as an ordinary
run directory under ``<out>/<name>-<hash>/pairings/<run-id>/``; the runner's resume therefore
works pairing by pairing. All pairings share the seed, so deal ``i`` is the same deal in every
pairing (common random numbers): differences between pairings are differences between
strategies, not between deals.

Pairings:

- ``all``: every combination of n strategies of the list.
- ``ladder``: only n neighbours in the list (a sliding window: for 2 players the chain
  s0-s1, s1-s2, ...), for lists ordered by strength whose top rungs are expensive.

``run.games`` counts games per pairing and player count; ``run.games_for`` caps the pairings
that contain a given (expensive) strategy. A capped pairing plays the first deals of the
others, so it still shares them. Layout of the tournament directory::

    tournament.toml        the resolved tournament spec
    tournament.json        strategy ids, the pairings with their run ids, status, sessions
    pairings/<run-id>/     one run directory per pairing (spec.toml, meta.json, chunks)
"""

import hashlib
import itertools
import json
import math
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd
import polars as pl
from bgsim.experiments.runner import RunReport, check_jobs, run
from bgsim.experiments.spec_check import check_run_settings
from bgsim.experiments.studies import resume_command, study_named, study_resume
from bgsim.experiments.study import open_session
from bgsim.sim.digest import data_digests
from bgsim.sim.registry import make_game
from bgsim.sim.results.contents import StudyContents
from bgsim.sim.results.played import played_by
from bgsim.sim.results.progress import runs_done
from bgsim.sim.results.spec import (
    RunSpec,
    SpecError,
    check_keys,
    read_spec_file,
    require,
    spec_header,
)
from bgsim.sim.results.store import RunStoreError, read_meta, read_profile, scan_chunks, verify_runs
from bgsim.sim.stats import ratings as stats
from bgsim.sim.stats.ratings import TournamentSummary
from bgsim.sim.stats.wins import WIN_SHARE, win_column
from bgsim.strategies import make_strategy

__all__ = ["STUDY", "Pairing", "TournamentReport", "TournamentSpec", "check_strategies", "load_results", "load_rows",
           "contents", "load_tournament", "result_parts", "run_tournament", "scan_results", "summarise",
           "tournament_from_dict"]

STUDY = study_named("tournament")

PAIRING_MODES = ("all", "ladder")
_KEYS = {
    "": {"name", "description", "game", "tournament", "run"},
    "game": {"id", "players", "params", "data"},
    "tournament": {"strategies", "pairings"},
    "run": {"games", "chunk_size", "seed", "tier", "games_for"},
}
_RESULT_COLUMNS = ("run_id", "n_players", "game_index", "deal", "seating", "seed", "seat", "strategy", "rank", "won",
                   "tie")  # then the game's final score (its profile's score_column), as final_score

ProgressCallback = Callable[[int, int], None]  # (games done, games in the tournament)


@dataclass(frozen=True)
class Pairing:
    """One pairing: ``strategies`` (as listed in the spec) at ``n_players``, played as ``spec``."""

    n_players: int
    strategies: tuple[str, ...]
    games: int
    spec: RunSpec


@dataclass(frozen=True)
class TournamentSpec:
    name: str
    game: str
    players: tuple[int, ...]
    strategies: tuple[str, ...]
    pairings: str = "all"
    games: int = 1000
    chunk_size: int = 1000
    seed: int = 0
    tier: str = "auto"
    games_for: dict = field(default_factory=dict)  # strategy (as listed) -> most games of its pairings
    params: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)  # data file name -> absolute path of the replacement
    description: str = ""

    def __post_init__(self):
        _check(self)

    def matchups(self, n_players: int) -> list[tuple[str, ...]]:
        """The strategy sets that meet at ``n_players``, in list order."""
        s = self.strategies
        if self.pairings == "ladder":
            return [s[i:i + n_players] for i in range(len(s) - n_players + 1)]
        return list(itertools.combinations(s, n_players))

    def games_of(self, strategies: tuple[str, ...]) -> int:
        """Games of one pairing: ``games``, or less if a strategy in it has a cap."""
        return min([self.games] + [self.games_for[s] for s in strategies if s in self.games_for])

    def pairing_list(self) -> list[Pairing]:
        """Every pairing as a permutations RunSpec with the tournament's seed (shared deals)."""
        out = []
        for n in self.players:
            for group in self.matchups(n):
                name = _run_name(self.name, n, group)
                spec = RunSpec(name=name, game=self.game, players=(n,), strategies=group, mode="permutations",
                               games=self.games_of(group), chunk_size=self.chunk_size, seed=self.seed,
                               tier=self.tier, params=dict(self.params), data=dict(self.data),
                               description=f"{self.name}: {' vs '.join(group)} at {n} players")
                out.append(Pairing(n, group, spec.games, spec))
        return out

    @property
    def total_games(self) -> int:
        return sum(p.games for p in self.pairing_list())

    def to_dict(self) -> dict:
        """The resolved spec as TOML-ready nested tables."""
        doc = spec_header(self)
        doc["tournament"] = {"strategies": list(self.strategies), "pairings": self.pairings}
        doc["run"] = {"games": self.games, "chunk_size": self.chunk_size, "seed": self.seed, "tier": self.tier,
                      "games_for": dict(self.games_for)}
        return doc

    def fingerprint(self) -> str:
        """Hash of the pairings' runs and the strategy order (which decides the anchor and the ladder)."""
        doc = {"strategies": list(self.strategies), "pairings": self.pairings,
               "runs": [p.spec.run_id for p in self.pairing_list()]}
        return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:10]

    @property
    def tournament_id(self) -> str:
        return f"{self.name}-{self.fingerprint()}"

    @property
    def study_id(self) -> str:  # the name every study's id goes by (``experiments.study``)
        return self.tournament_id


# --- reading specs


def load_tournament(path: str | Path) -> TournamentSpec:
    """Read and check a tournament spec file; relative data paths are relative to the file."""
    path = Path(path)
    doc = read_spec_file(path)
    return tournament_from_dict(doc, base_dir=path.parent, default_name=path.stem, source=path.name)


def tournament_from_dict(doc: dict, base_dir: str | Path = ".", default_name: str = "tournament",
                         source: str = "spec") -> TournamentSpec:
    check_keys(doc, _KEYS, source)
    game, tournament, run_table = doc.get("game", {}), doc.get("tournament", {}), doc.get("run", {})
    if "id" not in game:
        raise SpecError(f"{source}: [game] id is missing")
    if "strategies" not in tournament:
        raise SpecError(f"{source}: [tournament] strategies is missing")
    players = game.get("players", [2])
    players = [players] if isinstance(players, int) else players
    for key in ("params", "data"):
        if not isinstance(game.get(key, {}), dict):
            raise SpecError(f"{source}: game.{key} must be a table")
    data = {}
    for name, value in game.get("data", {}).items():
        if not isinstance(value, str):
            raise SpecError(f"{source}: game.data.{name} must be a path string")
        data[name] = str((Path(base_dir) / value).resolve())
    games_for = run_table.get("games_for", {})
    if not isinstance(games_for, dict):
        raise SpecError(f"{source}: run.games_for must be a table of strategy = games")
    strategies = tournament["strategies"]
    values = dict(
        name=doc.get("name", default_name), description=doc.get("description", ""), game=game["id"],
        players=tuple(players) if isinstance(players, list) else players,
        strategies=tuple(strategies) if isinstance(strategies, list) else strategies,
        pairings=tournament.get("pairings", "all"), games=run_table.get("games", 1000),
        chunk_size=run_table.get("chunk_size", 1000), seed=run_table.get("seed", 0),
        tier=run_table.get("tier", "auto"), games_for=dict(games_for), params=dict(game.get("params", {})),
        data=data,
    )
    try:
        return TournamentSpec(**values)
    except SpecError as exc:
        raise SpecError(f"{source}: {exc}") from None


def _check(spec: TournamentSpec) -> None:
    check_run_settings(spec)
    require(isinstance(spec.strategies, tuple) and all(isinstance(s, str) and s.strip() for s in spec.strategies),
            "tournament.strategies must be a list of strategy ids")
    for sid in spec.strategies:
        require(spec.strategies.count(sid) == 1, f"tournament.strategies lists {sid!r} twice")
    require(spec.pairings in PAIRING_MODES,
            f"tournament.pairings must be one of {', '.join(PAIRING_MODES)}, got {spec.pairings!r}")
    for n in spec.players:
        require(n >= 2, f"game.players lists {n}: a tournament compares strategies in games of 2 or more players")
        require(len(spec.strategies) >= n, f"tournament.strategies lists {len(spec.strategies)} strategies, fewer than "
                                           f"the {n} players of a game (every seat holds a different strategy)")
    for sid, cap in spec.games_for.items():
        require(sid in spec.strategies, f"run.games_for names {sid!r}, which is not in tournament.strategies")
        require(isinstance(cap, int) and not isinstance(cap, bool) and cap >= 1,
                f"run.games_for.{sid!r} must be a positive integer")
    for n in spec.players:
        seatings = math.factorial(n)
        for key, value in [("run.games", spec.games)] + [(f"run.games_for.{s!r}", c) for s, c in
                                                         spec.games_for.items()]:
            require(value % seatings == 0, f"{key} = {value} is not a multiple of the {seatings} seatings of {n} "
                                           f"players (every deal is played in every seating)")


def _run_name(name: str, n: int, group: tuple[str, ...]) -> str:
    """A readable run name for a pairing; the run id's hash tells apart names that collide."""
    slugs = [re.sub(r"[^0-9A-Za-z]+", "_", s).strip("_")[:24] or "s" for s in group]
    return f"{name}-{n}p-" + "-".join(slugs)


# --- checking strategies


def check_strategies(spec: TournamentSpec) -> dict[str, str]:
    """Build the game at every player count and every strategy in it; returns each listed id's
    canonical id (as stored in the results). Unknown ids, parameters or player counts raise here,
    before anything is written."""
    canonical: dict[str, str] = {}
    for n in spec.players:
        game = make_game(spec.game, **spec.params, **{f"{k}_file": v for k, v in spec.data.items()}, n_players=n)
        for sid in spec.strategies:
            canonical[sid] = make_strategy(sid, game).id
    seen: dict[str, str] = {}
    for sid, cid in canonical.items():
        if cid in seen:
            raise SpecError(f"tournament.strategies lists one strategy twice: {seen[cid]!r} and {sid!r} are both {cid}")
        seen[cid] = sid
    return canonical


# --- running


@dataclass(frozen=True)
class TournamentReport:
    spec: TournamentSpec
    directory: Path
    pairings: tuple[Pairing, ...]
    runs: tuple[RunReport, ...]  # one per pairing, in the same order
    games_total: int
    games_played: int  # in this call; the rest were on disk already
    seconds: float


def run_tournament(spec: TournamentSpec, out: str | Path = "runs", jobs: int = 1, resume: bool = False,
                   on_progress: ProgressCallback | None = None,
                   on_stage: Callable[[str], None] | None = None) -> TournamentReport:
    """Play every pairing of ``spec`` into ``out/<tournament id>/pairings/``, one run each.

    Bad input (strategy ids, player counts, data files, ``jobs``, an existing directory without
    ``resume``) fails before any file is written. With ``resume`` the finished chunks of every
    pairing are kept and only the missing games are played.
    """
    check_jobs(jobs)
    canonical = check_strategies(spec)
    pairings = spec.pairing_list()
    directory = Path(out) / spec.tournament_id
    total = sum(p.games for p in pairings)
    reports = []
    with open_session(STUDY, spec.tournament_id, spec.to_dict(), directory, resume, jobs, total,
                      lambda: _fresh_meta(spec, canonical, pairings), on_progress, on_stage) as session:
        for pairing in pairings:
            def progress(done: int, _total: int, offset=session.done) -> None:
                session.progress(offset + done)

            run_dir = directory / "pairings" / pairing.spec.run_id
            reports.append(run(pairing.spec, jobs=jobs, resume=resume, on_progress=progress, run_dir=run_dir))
            session.count(reports[-1].games_played, session.done + pairing.games)
    return TournamentReport(spec, directory, tuple(pairings), tuple(reports), total, session.played, session.seconds)


def _fresh_meta(spec: TournamentSpec, canonical: dict, pairings) -> dict:
    return {
        "name": spec.name,
        "strategies": [{"listed": sid, "id": canonical[sid]} for sid in spec.strategies],
        "pairings": [{"n_players": p.n_players, "strategies": list(p.strategies), "games": p.games,
                      "run_id": p.spec.run_id, "dir": f"pairings/{p.spec.run_id}"} for p in pairings],
    }


def _read_tournament_meta(directory: Path) -> dict:
    return read_meta(directory, STUDY.marker, STUDY.noun)


def contents(directory: str | Path) -> StudyContents:
    """What the tournament's report reads (``reports.tournament_report.report``): its summary (standings,
    pairwise matrix, ratings), from the pairings finished so far."""
    directory = Path(directory)
    meta = _read_tournament_meta(directory)
    summary = summarise(directory)
    runs = [directory / p["dir"] for p in meta["pairings"]]
    profile = next((read_profile(r) for r in runs if (r / "meta.json").is_file()), None)
    if profile is None:
        raise RunStoreError(f"{directory}: no pairing has begun; run `{resume_command(directory)}` to play them")
    return StudyContents(STUDY.kind, meta, profile, runs_done(runs), sum(p["games"] for p in meta["pairings"]),
                         resume_command(directory), summary.provenance.get("played", {}), {"summary": summary})


# --- results and statistics


def load_results(directory: str | Path) -> pl.DataFrame:
    """The rows of every pairing of a finished tournament, with ``strategy`` as listed in the spec:
    ``run_id, n_players, game_index, deal, seating, seed, seat, strategy, rank, won, tie, final_score`` (the
    game's own final-score column, its profile's ``score_column``, renamed). All of them in memory: for a
    large tournament use ``scan_results``."""
    return scan_results(directory).collect()


def scan_results(directory: str | Path) -> pl.LazyFrame:
    """``load_results`` as a LazyFrame over the chunks of the pairings."""
    return _scan(_finished_runs(Path(directory)))


ROWS_PER_PART = 1 << 18  # rows of one part of the pairing comparisons: the seats of its games are joined in memory


def result_parts(directory: str | Path) -> list[pl.LazyFrame]:
    """``scan_results`` in parts of whole games (consecutive chunks of one pairing, about
    ROWS_PER_PART rows each), for ``ratings.pair_counts``."""
    return _parts(_finished_runs(Path(directory)))


def load_rows(directory: str | Path) -> pl.LazyFrame:
    """Every column of every pairing's rows (``bgsim.load``), ``strategy`` as listed in the spec and
    each row labelled with its ``pairing`` (the pairing's strategies joined by " vs ")."""
    return pl.concat([scan_chunks(run.directory, run.files).with_columns(_as_listed(run.listed),
                                                                         pl.lit(run.pairing).alias("pairing"))
                      for run in _finished_runs(Path(directory))], how="diagonal_relaxed")


@dataclass(frozen=True)
class _Run:
    """A finished pairing's run: its directory, its chunk files (checked), players, games per chunk,
    the game's score column."""

    directory: Path
    files: list[Path]
    n_players: int
    chunk_size: int
    score: str
    listed: dict  # canonical strategy id -> as listed in the spec
    pairing: str  # its strategies as listed, joined by " vs "


def _finished_runs(directory: Path) -> list[_Run]:
    """Every pairing's run; a one-line RunStoreError if one is not finished, or a chunk is damaged."""
    meta = _read_tournament_meta(directory)
    listed = {s["id"]: s["listed"] for s in meta["strategies"]}
    chunk_size = tomllib.loads((directory / STUDY.spec_file).read_text(encoding="utf-8"))["run"]["chunk_size"]
    run_dirs = [directory / pairing["dir"] for pairing in meta["pairings"]]
    for pairing, run_dir in zip(meta["pairings"], run_dirs, strict=True):
        status = read_meta(run_dir).get("status") if (run_dir / "meta.json").exists() else "not started"
        if status != "complete":
            raise RunStoreError(f"{directory.name}: pairing {' vs '.join(pairing['strategies'])} at "
                                f"{pairing['n_players']} players is {status}; finish the tournament with --resume")
    every = verify_runs(run_dirs, study_resume(directory))
    return [_Run(run_dir, files, pairing["n_players"], chunk_size, read_profile(run_dir).score_column, listed,
                 " vs ".join(pairing["strategies"]))
            for pairing, run_dir, files in zip(meta["pairings"], run_dirs, every, strict=True)]


def _scan(runs: list[_Run]) -> pl.LazyFrame:
    return pl.concat([_labelled(pairing, pairing.files) for pairing in runs])


def _parts(runs: list[_Run]) -> list[pl.LazyFrame]:
    parts = []
    for pairing in runs:
        step = max(1, ROWS_PER_PART // (pairing.chunk_size * pairing.n_players))  # chunks per part
        parts += [_labelled(pairing, pairing.files[i:i + step]) for i in range(0, len(pairing.files), step)]
    return parts


def _labelled(pairing: _Run, files: list[Path]) -> pl.LazyFrame:
    """The result columns of ``files`` (chunks of ``pairing``), its score as final_score, strategies as listed."""
    frame = scan_chunks(pairing.directory, files)
    win = win_column(frame.collect_schema().names()).alias(WIN_SHARE)  # a shared win as its share
    return (frame.select(*_RESULT_COLUMNS, win, pl.col(pairing.score).alias("final_score"))
            .with_columns(_as_listed(pairing.listed)))


def _as_listed(listed: dict[str, str]) -> pl.Expr:
    """``strategy`` as listed in the spec (``listed``: canonical id -> listed id). A chain of
    when/then: the streaming engine runs it batch by batch, where ``replace`` held the whole column."""
    strategy = pl.col("strategy")
    out = strategy
    for canonical, name in listed.items():
        out = pl.when(strategy == canonical).then(pl.lit(name, pl.String)).otherwise(out)
    return out.alias("strategy")


def summarise(source: TournamentReport | str | Path, confidence: float = 0.95, replicates: int = 1000,
              seed: int | None = None, prior: float = 1.0, anchor: str = "first") -> TournamentSummary:
    """Standings, pairwise win matrix, Bradley–Terry ratings and the neighbour comparisons of a
    finished tournament (a report, or its directory). The bootstrap over deals uses ``seed``
    (default: the tournament's seed), so the same tournament gives the same intervals. Every table
    is aggregated from the chunks, the pairs of seats a part at a time (``result_parts``)."""
    directory = source.directory if isinstance(source, TournamentReport) else Path(source)
    meta = _read_tournament_meta(directory)
    spec_doc = tomllib.loads((directory / STUDY.spec_file).read_text(encoding="utf-8"))
    order = [s["listed"] for s in meta["strategies"]]
    seed = spec_doc["run"]["seed"] if seed is None else seed
    runs = _finished_runs(directory)
    standings = stats.standings(_scan(runs), order, confidence)
    pairs = stats.pair_counts(_parts(runs))
    pairwise = stats.pairwise(pairs, order, confidence, alpha=1 - confidence)
    rated = stats.bradley_terry_ratings(pairs, order, anchor=anchor, confidence=confidence,
                                        replicates=replicates, seed=seed, prior=prior)
    ratings = pd.concat([r.table() for r in rated], ignore_index=True)
    neighbours = stats.neighbours(pairwise, rated, order, alpha=1 - confidence)
    pairings = _pairing_table(directory, meta)
    first_run = directory / meta["pairings"][0]["dir"] if meta["pairings"] else None
    profile = read_profile(first_run) if first_run is not None else None
    unit = profile.score_unit if profile else "points"
    return TournamentSummary(
        name=meta["name"], tournament_id=meta["tournament_id"], description=spec_doc.get("description", ""),
        directory=str(directory), spec=spec_doc, strategies=order,
        strategy_ids={s["listed"]: s["id"] for s in meta["strategies"]}, standings=standings, pairwise=pairwise,
        ratings=ratings, neighbours=neighbours, pairings=pairings, provenance=_provenance(directory, meta),
        settings={"confidence": confidence, "bootstrap_replicates": replicates, "bootstrap_seed": seed,
                  "prior_games": prior, "anchor": rated[0].anchor if rated else None},
        score_unit=unit, shared_wins=profile.shared_wins if profile else "",
    )


def _pairing_table(directory: Path, meta: dict) -> pd.DataFrame:
    rows = []
    for p in meta["pairings"]:
        run_meta = read_meta(directory / p["dir"])
        seconds = sum(s.get("wall_seconds") or 0 for s in run_meta.get("sessions", []))
        rows.append({"n_players": p["n_players"], "strategies": " vs ".join(p["strategies"]), "games": p["games"],
                     "run_id": p["run_id"], "seconds": round(seconds, 1)})
    return pd.DataFrame(rows, columns=["n_players", "strategies", "games", "run_id", "seconds"])


def _provenance(directory: Path, meta: dict) -> dict:
    """Versions, git sha, rules versions and data files of the pairing runs (distinct values), and what
    they played (``played``: ``sim.results.played``). Data files by the digest every report shows."""
    found: dict = {"versions": [], "git": [], "rules_versions": [], "data_hashes": [],
                   "played": played_by((directory / p["dir"] for p in meta["pairings"]), directory / STUDY.spec_file)}
    for p in meta["pairings"]:
        run_meta = read_meta(directory / p["dir"])
        for key, value in (("versions", run_meta.get("versions")), ("git", run_meta.get("git"))):
            if value not in found[key]:
                found[key].append(value)
        for block in run_meta.get("blocks", []):
            files = data_digests(block.get("data_files") or {})
            for key, value in (("rules_versions", block.get("rules_version")), ("data_hashes", files)):
                if value not in found[key]:
                    found[key].append(value)
    return found
