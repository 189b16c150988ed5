"""The same data show one hash: a designer saw a game id with ``data=035ff4151b761d01`` (one hash
over every data file) beside a report naming the file by ``35935f0617a8`` (its own hash), and could
not tell that both meant the same file. Every place a person reads a data file's hash now shows the
same digest of that file."""

import json
import re
from pathlib import Path

from bgsim.sim import make_game
from bgsim.sim.digest import data_digests, short_digest
from bgsim.sim.games.capitol.components import DATA_DIR

from tests.runner.conftest import cli

SPEC = '''name = "one_hash"
[game]
id = "capitol"
players = [2]
[game.data]
board = "my_board.toml"
[seats]
strategies = ["greedy", "random"]
[run]
games = 4
chunk_size = 4
seed = 3
'''


def _my_board(tmp_path: Path) -> Path:
    text = (DATA_DIR / "board.toml").read_text(encoding="utf-8").replace("fountains = 2", "fountains = 1", 1)
    path = tmp_path / "my_board.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_same_data_show_one_hash(tmp_path, capsys):
    board = _my_board(tmp_path)
    (tmp_path / "spec.toml").write_text(SPEC, encoding="utf-8")
    code, _, err = cli(capsys, "run", tmp_path / "spec.toml", "--out", tmp_path / "runs", "--quiet")
    assert code == 0, err
    run_dir = next((tmp_path / "runs").iterdir())
    code, _, err = cli(capsys, "report", run_dir, "--out", tmp_path / "report")
    assert code == 0, err
    digest = short_digest(json.loads((run_dir / "meta.json").read_text())["blocks"][0]["data_files"]["board"]["sha256"])
    page = (tmp_path / "report" / "index.md").read_text(encoding="utf-8")
    assert f"capitol(n_players=2, data=board:{digest})" in page  # the game id
    assert f"board.toml reconstructed {digest} (replaced by the spec: my_board.toml)" in page  # the data files
    shown = set(re.findall(r"\b[0-9a-f]{12,}\b", page.split("## ")[0]))
    assert shown == {digest}  # no other hash of the data on the page's head
    assert make_game("capitol", board_file=str(board)).data_hash == f"board:{digest}"


def test_bgsim_data_shows_the_digest_a_game_id_shows(tmp_path, capsys):
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "board.toml").write_text(_my_board(tmp_path).read_text(encoding="utf-8"), encoding="utf-8")
    game = make_game("capitol", data_dir=str(folder))
    digest = game.id.split("data=board:")[1].rstrip(")")
    code, out, _ = cli(capsys, "data", "capitol", "--data-dir", folder)
    assert code in (0, None) and digest in out


def test_a_game_id_names_only_the_replaced_files_each_by_its_digest(tmp_path):
    from bgsim.sim.games.carpe_diem.components import DATA_DIR as CD_DATA

    track = tmp_path / "track.toml"
    track.write_text((CD_DATA / "track.toml").read_text(encoding="utf-8").replace("last_position = 29",
                                                                                   "last_position = 12"))
    game = make_game("carpe_diem", n_players=3, track_file=str(track))
    assert game.id == f"carpe_diem(n_players=3, data=track:{short_digest(game.data_files['track']['sha256'])})"
    assert game.data_hash == data_digests(game.data_files)  # meta.json: every file in use, alike
    assert f"track:{short_digest(game.data_files['track']['sha256'])}" in game.data_hash.split("+")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "track.toml").write_text(track.read_text())
    assert make_game("carpe_diem", n_players=3, data_dir=str(folder)).id == game.id  # by content, not path
