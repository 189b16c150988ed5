"""What a spec is checked against before it is played: the registered games and the batch tiers.

``sim.results.spec`` reads specs and checks their form without loading any game, so that reports
and statistics can read them; the engine's knowledge (is the game id known, is each player count
one the game is for, is the tier one the batches offer) is checked here, by every loader that
plays specs, before the first game and before any file is written. A player count the game is not
for is named before anything is counted in its seatings.
"""

from pathlib import Path

from bgsim.sim.batch import TIERS
from bgsim.sim.errors import GameIdError, did_you_mean
from bgsim.sim.registry import parse_id, player_counts
from bgsim.sim.results.spec import RunSpec, SpecError, read_spec_file, spec_from_dict
from bgsim.sim.stats.equivalence import Tolerance

__all__ = ["check_game", "check_run_settings", "check_spec", "check_tier", "choice_component", "load_spec",
           "tolerance_doc", "tolerance_from"]

TOLERANCE_KEYS = {"seat_pp", "payout_steps", "power", "rate_pp"}


def tolerance_from(table, source: str) -> Tolerance:
    """A spec's ``[tolerance]`` table (``seat_pp``, ``payout_steps``, ``rate_pp``, ``power``; the defaults of
    ``Tolerance`` for what it leaves out) as a Tolerance, or a one-line SpecError."""
    if not isinstance(table, dict):
        raise SpecError(f"{source}: [tolerance] must be a table")
    unknown = sorted(set(table) - TOLERANCE_KEYS)
    if unknown:
        known = ", ".join(sorted(TOLERANCE_KEYS))
        raise SpecError(f"{source}: unknown key [tolerance] {unknown[0]!r} (known: {known})")
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SpecError(f"{source}: tolerance.{key} must be a number, not {value!r}")
    try:
        return Tolerance(**{k: float(v) for k, v in table.items()})
    except ValueError as exc:
        raise SpecError(f"{source}: {exc}") from None


def tolerance_doc(tolerance: Tolerance, keys: tuple[str, ...]) -> dict:
    """The ``[tolerance]`` table of a spec that uses ``keys`` of it."""
    return {key: getattr(tolerance, key) for key in keys}


def check_game(game_id: str, players: tuple[int, ...]) -> None:
    """A one-line SpecError unless the game id is registered and every player count is one it is for."""
    try:
        name = parse_id(game_id)[0]
        allowed = player_counts(name)
    except GameIdError as exc:
        raise SpecError(f"game.id: {exc}") from None
    for n in players:
        if n not in allowed:
            raise SpecError(f"game.players: {n} players is not allowed for {name} (allowed: {_spans(allowed)})")


def choice_component(profile, name, where: str) -> str:
    """The id of the component ``name`` calls (its id, or an id it had before) among those the game's
    component choice takes and pays; a one-line SpecError listing them otherwise, so that a designer
    never has to guess the names."""
    choice = profile.choice()
    if choice is None:
        raise SpecError(f"{where}: {profile.game} declares no components a study can pay (its profile's choices)")
    attribution = profile.attribution(choice.attribution)
    rows = profile.choice_catalogue(choice)
    found = attribution.component(str(name))
    if found is None or found not in rows:
        ids = [row["id"] for row in rows]
        raise SpecError(f"{where}: {profile.game} has no component {name!r} with a payout; the ids of its "
                        f"{attribution.label} with one: {', '.join(ids)}{did_you_mean(str(name), ids)}")
    return found["id"]


def check_tier(tier: str) -> None:
    if tier not in TIERS:
        raise SpecError(f"run.tier must be one of {', '.join(TIERS)}, got {tier!r}")


def check_spec(spec: RunSpec) -> RunSpec:
    """``spec`` (already of the right form) checked against the engine."""
    check_game(spec.game, spec.players)
    check_tier(spec.tier)
    return spec


def check_run_settings(spec) -> None:
    """The settings a study shares with a run (name, game, players, games, chunk size, seed, tier,
    params, data), checked as a run would check them, before any study-specific check."""
    if _well_formed(spec.game, spec.players):
        check_game(spec.game, spec.players)
    RunSpec(name=spec.name, game=spec.game, players=spec.players, strategies=("probe",), games=spec.games,
            chunk_size=spec.chunk_size, seed=spec.seed, tier=spec.tier, params=spec.params, data=spec.data)
    check_tier(spec.tier)


def load_spec(path: str | Path) -> RunSpec:
    """Read a spec file and check it, form and engine; relative data paths are relative to the file."""
    path = Path(path)
    doc = read_spec_file(path)
    game = doc.get("game")
    if isinstance(game, dict):
        players = game.get("players", [4])
        players = tuple(players) if isinstance(players, list) else (players,)
        if _well_formed(game.get("id"), players):
            _prefixed(path.name, check_game, game["id"], players)
    spec = spec_from_dict(doc, base_dir=path.parent, default_name=path.stem, source=path.name)
    _prefixed(path.name, check_tier, spec.tier)
    return spec


def _well_formed(game_id, players) -> bool:
    """The game and players are of a form the registry can be asked about (else the form check names them)."""
    return (isinstance(game_id, str) and game_id.strip() != "" and isinstance(players, tuple)
            and all(isinstance(n, int) and not isinstance(n, bool) for n in players))


def _prefixed(source: str, check, *args) -> None:
    try:
        check(*args)
    except SpecError as exc:
        raise SpecError(f"{source}: {exc}") from None


def _spans(values: tuple[int, ...]) -> str:
    """``1-4`` or ``2-4, 6``: sorted integers as runs."""
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs) or "none"
