"""Start VP as a parameter (CD-SETUP-14) and the stored tie-break order (CD-TIE-2).

The seat-order experiment re-scores stored games under other start vectors, so the records must
carry everything the ranking needs: final VP, start VP and each seat's place in the tie-break.
"""

import numpy as np
import pytest
from bgsim.experiments.runner import run
from bgsim.sim import game_seeds
from bgsim.sim.errors import GameIdError
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.registry import make_game
from bgsim.sim.results.spec import RunSpec
from bgsim.sim.results.store import load


@pytest.mark.parametrize(("value", "n", "expected"), [
    ("rulebook", 3, (8, 9, 13)),
    ("equal", 4, (8, 8, 8, 8)),
    ("8/9/12", 3, (8, 9, 12)),
    ([8, 7], 2, (8, 7)),
])
def test_cd_setup_14_start_vp_parameter_sets_the_start_vector(value, n, expected):
    game = make_game("carpe_diem", n_players=n, start_vp=value)
    state = game.new_state(game_seeds(5))
    assert tuple(int(v) for v in game.field(state, "vp_start")[:n]) == expected
    assert tuple(int(v) for v in game.field(state, "vp")[:n]) == expected


def test_cd_setup_14_rulebook_is_the_default():
    for n in (2, 3, 4):
        assert make_game("carpe_diem", n_players=n).params.start_vector() == K.START_VP[n]
        assert "start_vp" not in make_game("carpe_diem", n_players=n).id


@pytest.mark.parametrize(("value", "n", "message"), [
    ("8/9", 3, "gives 2 values for 3 players"),
    ("eight/9", 2, "start_vp must be rulebook, equal or 1..4 integers"),
    ("8/9/10/11/12", 4, "start_vp must be"),
])
def test_cd_setup_14_bad_start_vp_is_a_one_line_error(value, n, message):
    with pytest.raises(GameIdError, match=message):
        make_game("carpe_diem", n_players=n, start_vp=value)


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    spec = RunSpec(name="tiebreak", game="carpe_diem", players=(2, 3, 4), strategies=("greedy",), games=200,
                   chunk_size=100, seed=3)
    report = run(spec, out=tmp_path_factory.mktemp("runs"))
    return load(report.run_dir).collect().sort("n_players", "game_index", "seat")


def test_cd_tie_2_tiebreak_column_reproduces_every_rank(stored):
    """Rank = order by final VP (descending), then by the stored tie-break place (ascending)."""
    for (n,), rows in stored.group_by(["n_players"]):
        vp = rows["final_vp"].to_numpy().reshape(-1, n).astype(np.int64)
        tiebreak = rows["tiebreak"].to_numpy().reshape(-1, n).astype(np.int64)
        key = -vp * 8 + tiebreak
        expected = key.argsort(axis=1).argsort(axis=1) + 1
        assert (expected == rows["rank"].to_numpy().reshape(-1, n)).all()
        assert (np.sort(tiebreak, axis=1) == np.arange(1, n + 1)).all()  # a permutation in every game


def test_cd_tie_2_some_stored_games_were_decided_by_the_tie_break(stored):
    """The test above means something only if VP ties occur in the sample."""
    assert stored.filter(stored["tie"] & stored["won"]).height > 0
