"""Parameters: player count, the compensation parameter and one entry per rules ambiguity.

FILL IN: one dataclass field per parameter with the rulebook's default, its line in PARAM_DOCS
(with the rule id), a check in ``from_dict`` and its place in the kernels' array (``to_array``).
"""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from bgsim.sim.games.parameters import GameParams, check_start_text, start_vector

__all__ = ["N_PARAMS", "PARAM_DOCS", "Params", "START_POINTS"]

PR_N_PLAYERS = 0
PR_START = 1  # 4 entries: start points by seat
N_PARAMS = 5

START_POINTS = {2: (0, 0), 3: (0, 0, 0), 4: (0, 0, 0, 0)}  # FILL IN: the rulebook's vector per player count

PARAM_DOCS = {
    "n_players": "player count 2..4",
    "start_points": "XX-SETUP-n start points by seat: rulebook, equal or a list such as '0/1/2'",
}


@dataclass(frozen=True)
class Params(GameParams):
    n_players: int = 3
    start_points: str = "rulebook"

    game_name: ClassVar[str] = "template"

    @classmethod
    def from_dict(cls, values: dict) -> "Params":
        cls.reject_unknown(values)
        clean = dict(values)
        cls.check_player_count(clean.get("n_players", cls.n_players), 2, 4)
        if "start_points" in clean:
            clean["start_points"] = check_start_text("start_points", clean["start_points"], "0/1/2")
        params = cls(**clean)
        params.start_vector()  # a list of the wrong length fails here, not at setup
        return params

    def start_vector(self) -> tuple[int, ...]:
        return start_vector("start_points", self.start_points, START_POINTS[self.n_players])

    def to_array(self) -> np.ndarray:
        a = np.zeros(N_PARAMS, dtype=np.int32)
        a[PR_N_PLAYERS] = self.n_players
        a[PR_START: PR_START + self.n_players] = self.start_vector()
        return a
