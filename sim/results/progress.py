"""How far a run or a study has got: games whose chunks are on disk against the games planned."""

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bgsim.sim.results.spec import load_spec
from bgsim.sim.results.store import chunk_path

__all__ = ["RunProgress", "run_progress", "runs_done"]


@dataclass(frozen=True)
class RunProgress:
    games_done: int
    games_planned: int
    done_by_players: dict[int, int]
    planned_by_players: dict[int, int]

    @property
    def complete(self) -> bool:
        return self.games_done >= self.games_planned


def run_progress(run_dir: str | Path) -> RunProgress:
    """Games whose chunks are on disk, against the games the run's spec plans (per player count too)."""
    run_dir = Path(run_dir)
    spec = load_spec(run_dir / "spec.toml")
    blocks = spec.blocks()
    done = {b.n_players: 0 for b in blocks}
    planned = {b.n_players: b.games for b in blocks}
    for chunk in spec.chunks():
        if chunk_path(run_dir, chunk.index).exists():
            done[blocks[chunk.block].n_players] += chunk.stop - chunk.start
    return RunProgress(sum(done.values()), sum(planned.values()), done, planned)


def runs_done(run_dirs: Iterable[Path]) -> int:
    """Games on disk in every run of ``run_dirs`` that has been started (a run not begun counts 0)."""
    return sum(run_progress(d).games_done for d in run_dirs if (Path(d) / "spec.toml").is_file())
