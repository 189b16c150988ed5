"""Component data: the shipped files are complete and valid; broken replacements are reported
as ``file: entry: reason``; users can point a game at their own files."""

import re
from pathlib import Path

import pytest
from bgsim.sim import make_game
from bgsim.sim.errors import DataError
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem.components import DATA_DIR, load_components

COMP = load_components()


def test_shipped_files_are_marked_exact_or_reconstructed_with_a_source():
    expected = {"scoring_cards": "exact", "fountain_cards": "exact", "tiles": "reconstructed",
                "boards": "reconstructed", "frames": "reconstructed", "villa_table": "reconstructed",
                "track": "reconstructed"}
    for name, info in COMP.files.items():
        assert info["status"] == expected[name]
        assert info["source"]


def test_cd_setup_10_tile_counts_and_rn1_family_counts():
    tiles = COMP.tiles
    assert sum(not t.dark for t in tiles) == 84 and sum(t.dark for t in tiles) == 39
    by_type = {code: 0 for code in range(1, K.N_TYPES)}
    for t in tiles:
        for p in t.parts:
            by_type[p.type] += 1
    assert by_type[K.VILLA] == 46
    assert all(by_type[t] == 14 for t in range(K.POND, K.CHICKEN_YARD + 1))
    assert all(by_type[t] == 12 for t in range(K.MERCHANT, K.CRAFTSMAN + 1))
    assert all(by_type[t] == 9 for t in (K.MARKET, K.BAKERY, K.FOUNTAIN))
    assert sum(len(t.parts) == 2 for t in tiles if not t.dark) == 54


def test_cd_feature_8_part_invariants_hold_for_every_tile():
    for t in COMP.tiles:
        assert 1 <= len(t.parts) <= 2
        if t.dark:
            assert len(t.parts) == 1
        used = 0
        for p in t.parts:
            n_open = bin(p.open_mask).count("1")
            if p.type >= K.MARKET:
                assert n_open == 0
            elif K.MERCHANT <= p.type <= K.CRAFTSMAN:
                assert n_open == 1
            else:
                assert n_open >= 1
            assert used & p.open_mask == 0
            used |= p.open_mask


def test_scoring_cards_match_the_appendix_decks_and_examples():
    cards = {c.id: c for c in COMP.scoring_cards}
    assert len(cards) == 60
    assert [sum(c.deck == d for c in cards.values()) for d in range(4)] == [12, 11, 10, 27]
    # 000 examples: "Gib 2 Kräuter ... 4 Siegpunkte", the B11 4-set for 8, "2 Backstuben ... 3 Siegpunkte"
    assert cards["A05"].give == (0, 2, 0, 0) and cards["A05"].payout == (4, 0, 0, 0)
    assert cards["B11"].give == (1, 1, 1, 1) and cards["B11"].payout == (8, 0, 0, 0)
    assert cards["D27"].have == ((K.BAKERY, 2),) and cards["D27"].payout == (3, 0, 0, 0)
    assert cards["C10"].have == ((K.VILLA, 2),) and cards["C10"].payout == (0, 1, 1, 1)
    assert all(c.red == (c.deck < 2) for c in cards.values())


def test_fountain_cards_are_twelve_types_twice():
    ids = [c.id for c in COMP.fountain_cards]
    assert len(ids) == 24 and all(ids.count(i) == 2 for i in set(ids)) and len(set(ids)) == 12
    assert all(c.vp_per_item == 2 for c in COMP.fountain_cards)


def test_villa_tables_keep_the_rulebook_anchors():
    for values, _ in COMP.villa_tables.values():
        assert (values[3], values[5], values[14]) == (3, 7, 26)


def _copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    target.mkdir()
    for src in DATA_DIR.glob("*.toml"):
        (target / src.name).write_text(src.read_text(encoding="utf-8"), encoding="utf-8")
    return target


BROKEN = [
    ("tiles", lambda t: t + '\n[[tile]]\nid = "X1"\nback = "light"\nparts = [{ type = "pond", open = "N" }]\n',
     r"tiles\.toml: file: need 84 light \+ 39 dark tiles, found 85 \+ 39"),
    ("tiles", lambda t: t.replace('id = "D01"\nback = "dark"\nparts = [{ type = "merchant", open = "N" }]',
                                  'id = "D01"\nback = "dark"\nparts = [{ type = "merchant", open = "N" }, '
                                  '{ type = "market", open = "" }]'),
     r"tiles\.toml: D01: a dark tile shows exactly one part"),
    ("tiles", lambda t: t.replace('id = "D01"\nback = "dark"\nparts = [{ type = "merchant", open = "N" }]',
                                  'id = "D01"\nback = "dark"\nparts = [{ type = "merchant", open = "NS" }]'),
     r"tiles\.toml: D01: a lodging half has exactly 1 open edge"),
    ("tiles", lambda t: t.replace('type = "fountain", open = ""', 'type = "fountain", open = "N"', 1),
     r"tiles\.toml: L\d+: a fountain is surrounded by meadow"),
    ("tiles", lambda t: t.replace('{ type = "merchant", open = "E" }', '{ type = "merchant", open = "S" }', 1),
     r"tiles\.toml: L01: the parts of one tile must use disjoint edges"),
    ("tiles", lambda t: t.replace('type = "pond"', 'type = "lake"', 1), r"tiles\.toml: L\d+: unknown part type 'lake'"),
    ("tiles", lambda t: t.replace('open = "NS", chimneys = 1', 'open = "NX", chimneys = 1', 1),
     r"tiles\.toml: L01: open edges must be distinct letters of NESW"),
    ("boards", lambda t: t.replace("shovel = [3, 2]", "shovel = [0, 0]"),
     r"boards\.toml: A: the shovel lies in the middle"),
    ("boards", lambda t: t.replace("banners = [[0, 1], ", "banners = ["),
     r"boards\.toml: A: a board has 9 distinct banner cells"),
    ("frames", lambda t: t.replace('type = "pond", position = 0', 'type = "market", position = 0', 1),
     r"frames\.toml: F01: a task is a landscape, lodging or villa"),
    ("frames", lambda t: t.replace('position = 0, vp = 5', 'position = 7, vp = 5', 1),
     r"frames\.toml: F01: position must be 0\.\.5, got 7"),
    ("villa_table", lambda t: t.replace("vp = [0, 0, 1, 3, 5, 7, 9, 11, 13, 15, 18", "vp = [0, 0, 1, 3, 5, 8, 9"
                                        ", 11, 13, 15, 18"),
     r"villa_table\.toml: tables\.reconstructed: 5 chimneys must score 7"),
    ("track", lambda t: t.replace("last_position = 29", "last_position = 0"),
     r"track\.toml: last_position: last_position must be 1\.\.200, got 0"),
    ("scoring_cards", lambda t: t.replace('id = "C01"\ndeck = "C"', 'id = "C01"\ndeck = "D"'),
     r"scoring_cards\.toml: C01: 'chimneys' is not something a D card counts"),
    ("scoring_cards", lambda t: t.replace('give = { herb = 1 }', 'give = { herb = "one" }', 1),
     r"scoring_cards\.toml: A01: give\.herb must be an integer"),
    ("fountain_cards", lambda t: t.replace("\ncopies = 2\n", "\ncopies = 3\n", 1),
     r"fountain_cards\.toml: file: need 24 fountain cards in all, found 25"),
    ("fountain_cards", lambda t: t.replace('status = "exact"', 'status = "guessed"'),
     r"fountain_cards\.toml: file: status must be one of exact, reconstructed"),
    ("tiles", lambda t: t.replace("[[tile]]", "[[tile]", 1), r"tiles\.toml: not valid TOML"),
]


@pytest.mark.parametrize(("name", "breaker", "message"), BROKEN)
def test_a_broken_data_file_is_reported_with_file_entry_and_reason(tmp_path, name, breaker, message):
    data = _copy_data(tmp_path)
    path = data / f"{name}.toml"
    broken = breaker(path.read_text(encoding="utf-8"))
    assert broken != path.read_text(encoding="utf-8"), "the breaker must change the file"
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(DataError, match=message) as info:
        load_components(data_dir=data)
    assert "\n" not in str(info.value)


def test_a_game_can_use_replacement_files_and_the_data_hash_follows_them(tmp_path):
    data = _copy_data(tmp_path)
    track = data / "track.toml"
    track.write_text(track.read_text(encoding="utf-8").replace("last_position = 29", "last_position = 12"),
                     encoding="utf-8")
    default = make_game("carpe_diem", n_players=3)
    custom = make_game("carpe_diem", n_players=3, data_dir=str(data))
    single = make_game("carpe_diem", n_players=3, track_file=str(track))
    assert custom.components.track_last == 12 and single.components.track_last == 12
    assert custom.components.files["track"]["path"] == str(track)
    assert custom.components.files["tiles"]["sha256"] == default.components.files["tiles"]["sha256"]
    assert custom.data_hash != default.data_hash == make_game("carpe_diem", n_players=3).data_hash


def test_a_missing_data_dir_is_an_error():
    with pytest.raises(DataError, match="is not a directory"):
        load_components(data_dir="/no/such/dir")


def test_every_error_message_names_a_file():
    for _, _, message in BROKEN:
        assert re.match(r"[a-z_]+\\\.toml: ", message)
