"""Game ids: parsing, canonical ids, and one-line errors."""

import dataclasses

import pytest
from bgsim.sim import make_game
from bgsim.sim.errors import GameIdError
from bgsim.sim.game_entry import GameEntry
from bgsim.sim.games.parameters import Param, ParamTable
from bgsim.sim.registry import parse_id


def test_parse_id_reads_literals_and_bare_words():
    assert parse_id("carpe_diem") == ("carpe_diem", {})
    assert parse_id("carpe_diem(n_players=3, full_loop=bread_else_stay, vp_floor=0, canonical_payment=true)") == (
        "carpe_diem", {"n_players": 3, "full_loop": "bread_else_stay", "vp_floor": 0, "canonical_payment": True})
    assert parse_id("carpe_diem(data_dir='my/data')")[1] == {"data_dir": "my/data"}


@pytest.mark.parametrize(("text", "message"), [
    ("carpe diem", "is not of the form"),
    ("carpe_diem(3)", "is not of the form"),
    ("carpe_diem(n_players=f(3))", "is not a literal"),
    ("carpe_diem(n_players=[3])", "n_players must be an integer, got \\[3\\]"),
    ("carpe_diem(n_players='three')", "n_players must be an integer"),
    ("carpe_diem(vp_floor=-2)", "vp_floor must be at least 0"),
    ("carpe_diem(frame_task_vp='5,4')", "frame_task_vp must look like"),
    ("carpe_diem(villa_vp_table=steep)", "villa_vp_table 'steep' is not in villa_table.toml"),
])
def test_bad_ids_raise_one_line_game_id_errors(text, message):
    with pytest.raises(GameIdError, match=message) as info:
        make_game(text)
    assert "\n" not in str(info.value)


def test_canonical_id_lists_the_non_default_parameters():
    game = make_game("carpe_diem(full_loop=bread_else_stay)", n_players=2)
    assert game.id == "carpe_diem(n_players=2, full_loop=bread_else_stay)"
    assert make_game("carpe_diem").id == "carpe_diem(n_players=4)"


def test_the_id_names_replaced_data_by_content_not_by_path(tmp_path):
    from bgsim.sim.games.capitol.components import DATA_DIR

    board = (DATA_DIR / "board.toml").read_text(encoding="utf-8")
    here, there, changed = tmp_path / "a" / "board.toml", tmp_path / "b" / "board.toml", tmp_path / "c" / "board.toml"
    for path, text in ((here, board), (there, board), (changed, board.replace("fountains = 2", "fountains = 1", 1))):
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
    ids = [make_game("capitol", n_players=3, board_file=str(path), tied_bid="remove").id for path in (here, there)]
    default_hash = make_game("capitol", n_players=3).data_hash  # a copy of the default board: its content
    assert ids[0] == ids[1] == f"capitol(n_players=3, tied_bid=remove, data={default_hash})"
    assert str(tmp_path) not in ids[0]  # the same file in another folder: the same game
    assert make_game("capitol", n_players=3, board_file=str(changed)).id != ids[0].replace(", tied_bid=remove", "")


def _copy_of(name: str, new_name: str, **changes) -> GameEntry:
    """The entry of game ``name`` under ``new_name``: its table's rows in a table of that name."""
    from bgsim.sim import registry

    entry = registry.available_games(unlisted=True)[name]
    return dataclasses.replace(entry, table=ParamTable(new_name, entry.table.rows), **changes)


def test_an_unlisted_game_builds_but_is_not_listed(monkeypatch):
    from bgsim.sim import registry

    hidden = _copy_of("carpe_diem", "hidden_copy", listed=False)
    monkeypatch.setitem(registry._GAMES, "hidden_copy", hidden)
    assert "hidden_copy" in registry.available_games(unlisted=True)
    assert "hidden_copy" not in registry.available_games()
    assert make_game("hidden_copy(n_players=2)").n_players == 2


def test_the_name_player_counts_and_parameters_come_from_the_table_without_building_a_game(monkeypatch):
    from bgsim.sim import registry

    def never_built(**params):
        raise AssertionError(f"a game was built to read its entry: {params}")

    table = ParamTable("drafted", (
        Param("n_players", "players", 3, "player count 3..5", low=3, high=5),
        Param("tie", "choice", "shared", "equal scores: shared or split", rule="AMB-1", choices=("shared", "split")),
    ))
    monkeypatch.setitem(registry._GAMES, "drafted", GameEntry(table, never_built, "a game being written"))
    assert registry.available_games()["drafted"].name == "drafted"
    assert registry.player_counts("drafted") == (3, 4, 5)
    assert registry.parameter_names("drafted") == ("n_players", "tie")
    assert registry.parameter_defaults("drafted") == {"n_players": 3, "tie": "shared"}
    assert registry.available_games()["drafted"].parameter_docs["tie"] == "AMB-1 equal scores: shared or split"


def test_every_registered_game_is_named_once_by_its_table():
    from bgsim.sim import registry

    for name, entry in registry.available_games(unlisted=True).items():
        game = make_game(name, n_players=entry.player_counts[0])
        assert entry.name == entry.table.game == game.name == game.profile.game == name
        assert game.profile.player_counts == entry.player_counts


def test_the_template_is_neither_registered_nor_imported():
    import sys

    from bgsim.sim.registry import available_games

    assert "template" not in available_games(unlisted=True)
    assert not [name for name in sys.modules if "._template" in name]
