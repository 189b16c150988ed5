"""Replay one game of a stored run from its seeds and check it against the stored rows."""

from dataclasses import dataclass
from pathlib import Path

import polars as pl
from bgsim.experiments.runner import build_block, locate_game, open_spec
from bgsim.sim.errors import BgsimError
from bgsim.sim.play import PlayedGame, play_game
from bgsim.sim.results.store import RunStoreError, chunk_differs, chunk_path, read_meta
from bgsim.sim.seeding import GameSeeds, block_key, deal_seeds

__all__ = ["ReplayCheck", "ReplayMismatch", "replay", "replay_checked"]


class ReplayMismatch(BgsimError):
    """The replayed game differs from the stored one (other engine or data version)."""


@dataclass(frozen=True)
class ReplayCheck:
    """How a replayed game compares with the run's stored rows."""

    game_index: int
    chunk: int
    replayed: tuple[int, ...]  # final score of each stored seat (solo: the human's)
    stored: tuple[int, ...] | None  # the same from the chunk file; None while the chunk is not played
    unit: str  # the game's score unit (its profile's), for the text

    @property
    def compared(self) -> bool:
        return self.stored is not None

    def __str__(self) -> str:
        if self.stored is None:
            return f"no stored row to compare: chunk {self.chunk} is not played yet"
        return (f"game {self.game_index} replays to the stored result "
                f"(final {self.unit} {', '.join(str(v) for v in self.stored)})")


def _check_chunk(run_dir: Path, chunk: int, path: Path, meta: dict) -> None:
    """The stored chunk must be the one written (its size and hash in meta.json), or the comparison means nothing."""
    written = meta.get("chunks", {}).get(str(chunk), {})
    problem = chunk_differs(path, written) if "sha256" in written else None
    if problem:
        raise RunStoreError(f"{path}: damaged ({problem}); run `bgsim run {run_dir} --resume` to play it again")


def replay(run_dir: str | Path, game_index: int) -> PlayedGame:
    """Play game ``game_index`` of the run again, traced and with every action validated.

    If its chunk is on disk, the replay must reproduce the stored final score of every seat.
    """
    return replay_checked(run_dir, game_index)[0]


def replay_checked(run_dir: str | Path, game_index: int) -> tuple[PlayedGame, ReplayCheck]:
    """``replay``, and what it was compared with: a ReplayMismatch if the stored rows differ."""
    run_dir = Path(run_dir)
    meta = read_meta(run_dir)
    spec = open_spec(run_dir)
    block, chunk, deal, seating = locate_game(spec, game_index)
    game, strategies, seating_index = build_block(spec, block)
    chance, strategy = deal_seeds(block_key(spec.seed, block.n_players), [deal])
    seeds = GameSeeds(int(chance[0]), int(strategy[0]))
    seated = [strategies[k] for k in seating_index[seating]]
    played = play_game(game, seated, seeds, log=True, validate=True)
    replayed = tuple(int(v) for v in played.result.final_score[: block.n_players])  # solo: the human's row
    stored = None
    path = chunk_path(run_dir, chunk)
    if path.exists():
        _check_chunk(run_dir, chunk, path, meta)
        score = game.profile.score_column
        stored = tuple(pl.read_parquet(path, columns=["game_index", "seat", score])
                       .filter(pl.col("game_index") == game_index).sort("seat")[score].to_list())
        if stored != replayed:
            unit = game.profile.score_unit
            raise ReplayMismatch(f"game {game_index} replays to final {unit} {list(replayed)}, the run stored "
                                 f"{list(stored)} (was the run made with another engine or data version?)")
    return played, ReplayCheck(game_index, chunk, replayed, stored, game.profile.score_unit)
