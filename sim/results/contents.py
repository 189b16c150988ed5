"""What a study's report reads: ``StudyContents``, gathered by the study from its directory.

The study's module (``experiments``) knows its directory and gathers the contents; its report module
(``reports``) renders them. Neither imports the other: the registry of studies names both, and the
top layer (``bgsim.report``) hands the one's contents to the other.
"""

from dataclasses import dataclass, field
from typing import Any

from bgsim.sim.profile import GameProfile

__all__ = ["StudyContents"]


@dataclass
class StudyContents:
    kind: str  # the study's kind in the registry
    meta: dict  # its marker: status, sessions and what the study recorded
    profile: GameProfile  # the game as the study played it
    done: int  # games (or the study's own units) on disk so far
    planned: int  # what the study plans in all
    command: str  # the command that finishes it
    played: dict  # the facts of what it played (``sim.results.played``): the header and the provenance
    parts: dict[str, Any] = field(default_factory=dict)  # the study's own frames and tables, by name
