"""Parameters: player count, the compensation parameter and one entry per rules ambiguity.

FILL IN: one dataclass field per parameter with the rulebook's default, its line in PARAM_DOCS
(with the rule id), a check in ``from_dict`` and its place in the kernels' array (``to_array``).
"""

from dataclasses import asdict, dataclass, fields

import numpy as np
from bgsim.sim.errors import GameIdError

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
class Params:
    n_players: int = 3
    start_points: str = "rulebook"

    @classmethod
    def from_dict(cls, values: dict) -> "Params":
        known = {f.name for f in fields(cls)}
        for name in values:
            if name not in known:
                raise GameIdError(f"template has no parameter {name!r} (see `bgsim games`)")
        n = values.get("n_players", cls.n_players)
        if not isinstance(n, int) or isinstance(n, bool) or not 2 <= n <= 4:
            raise GameIdError(f"template is for 2 to 4 players, not {n!r}")
        params = cls(**values)
        params.start_vector()
        return params

    def non_default(self) -> dict:
        defaults = Params()
        return {k: v for k, v in asdict(self).items() if getattr(defaults, k) != v}

    def start_vector(self) -> tuple[int, ...]:
        if self.start_points == "rulebook":
            return START_POINTS[self.n_players]
        if self.start_points == "equal":
            return (0,) * self.n_players
        try:
            values = tuple(int(x) for x in str(self.start_points).split("/"))
        except ValueError:
            values = ()
        if len(values) != self.n_players:
            raise GameIdError(f"start_points must be rulebook, equal or {self.n_players} integers like '0/1/2', "
                              f"got {self.start_points!r}")
        return values

    def to_array(self) -> np.ndarray:
        a = np.zeros(N_PARAMS, dtype=np.int32)
        a[PR_N_PLAYERS] = self.n_players
        a[PR_START: PR_START + self.n_players] = self.start_vector()
        return a
