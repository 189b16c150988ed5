"""Replay one game of a stored run from its seeds and check it against the stored rows."""

from pathlib import Path

import polars as pl
from bgsim.experiments.runner import build_block, locate_game, open_spec
from bgsim.experiments.store import chunk_path, read_meta
from bgsim.sim.errors import BgsimError
from bgsim.sim.play import PlayedGame, play_game
from bgsim.sim.seeding import GameSeeds, block_key, deal_seeds

__all__ = ["ReplayMismatch", "replay"]


class ReplayMismatch(BgsimError):
    """The replayed game differs from the stored one (other engine or data version)."""


def replay(run_dir: str | Path, game_index: int) -> PlayedGame:
    """Play game ``game_index`` of the run again, traced and with every action validated.

    If its chunk is on disk, the replay must reproduce the stored final VP of every seat.
    """
    run_dir = Path(run_dir)
    read_meta(run_dir)
    spec = open_spec(run_dir)
    block, chunk, deal, seating = locate_game(spec, game_index)
    game, strategies, seating_index = build_block(spec, block)
    chance, strategy = deal_seeds(block_key(spec.seed, block.n_players), [deal])
    seeds = GameSeeds(int(chance[0]), int(strategy[0]))
    seated = [strategies[k] for k in seating_index[seating]]
    played = play_game(game, seated, seeds, log=True, validate=True)
    path = chunk_path(run_dir, chunk)
    if path.exists():
        stored = (pl.read_parquet(path, columns=["game_index", "seat", "final_vp"])
                  .filter(pl.col("game_index") == game_index).sort("seat")["final_vp"].to_list())
        replayed = [int(v) for v in played.result.final_vp[: block.n_players]]  # solo: the human's row
        if stored != replayed:
            raise ReplayMismatch(f"game {game_index} replays to final VP {replayed}, the run stored {stored} "
                                 f"(was the run made with another engine or data version?)")
    return played
