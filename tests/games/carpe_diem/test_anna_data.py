"""The automa Anna's component data (CD-ANNA-2, -12, -23; data/anna.toml, reconstructed per RN §9)."""

import re
from pathlib import Path

import numpy as np
import pytest
from bgsim.sim.errors import BgsimError
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem.anna_data import TRACKS, anna_arrays, load_anna
from bgsim.sim.games.carpe_diem.components import DATA_DIR, load_components


def test_cd_anna_2_eight_cards_of_seven_rows_and_twelve_tracks():
    data = load_anna()
    assert data.status == "reconstructed" and "§9" in data.source
    assert len(data.cards) == 8 and all(len(card.symbols) == 7 for card in data.cards)
    assert len(TRACKS) == 12 and set(data.grey) == set(TRACKS) - {"villa"}


def test_cd_anna_12_reconstructed_rows_list_every_symbol_with_4_cw_and_3_ccw_per_card():
    """RN §9: each row a permutation of the 12 symbols (so AMB-28 cannot arise), arrows 4 CW / 3 CCW."""
    for card in load_anna().cards:
        assert sorted(card.arrows) == ["CCW"] * 3 + ["CW"] * 4
        assert all(sorted(row) == sorted(TRACKS) for row in card.symbols)
    orders = [row for card in load_anna().cards for row in card.symbols]
    assert len(set(orders)) == len(orders)  # no two rows alike


@pytest.mark.parametrize(("track", "per_part"), [("merchant", 2), ("craftsman", 2), ("pond", 2.5),
                                                 ("chicken_yard", 2.5), ("market", 1), ("fountain", 1)])
def test_cd_anna_23_grey_numbers_follow_the_reconstruction(track, per_part):
    grey = load_anna().grey[track]
    assert grey == tuple(int(i // per_part) for i in range(len(grey)))


def test_anna_arrays_encode_rows_and_pad_grey_numbers():
    data = load_anna()
    cards, grey = anna_arrays(data)
    assert cards.shape == (8, 7, 13) and cards.dtype == np.int32
    first = data.cards[0]
    assert cards[0, 0, 0] == ("CW", "CCW").index(first.arrows[0])
    assert [K.TYPE_NAMES[t] for t in cards[0, 0, 1:]] == list(first.symbols[0])
    assert grey.shape[0] == K.N_TYPES and (grey[K.VILLA] == 0).all()
    assert grey[K.MERCHANT, 5] == 2 and grey[K.MARKET, -1] == data.grey["market"][-1]


def test_anna_file_does_not_enter_the_multiplayer_data():
    """The 2-4 player games (and their stored data hashes) read only their own seven files."""
    assert "anna" not in load_components().files


def _broken(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = (DATA_DIR / "anna.toml").read_text()
    assert old in text
    path = tmp_path / "anna.toml"
    path.write_text(text.replace(old, new, count))
    return path


@pytest.mark.parametrize(("old", "new", "message"), [
    ('arrow = "CW"', 'arrow = "LEFT"', "card K1 row 2: arrow must be one of CW, CCW"),
    ('"merchant", "villa"', '"merchant", "dragon"', "card K1 row 1: unknown symbol 'dragon'"),
    ('"merchant", "villa"', '"merchant", "merchant"', "card K1 row 1: a symbol is listed twice"),
    ('id = "K2"', 'id = "K1"', "card[1]: id 'K1' appears twice"),
    ("merchant = { grey = [0, 0, 1", "merchant = { grey = [0, 2, 1", "tracker.merchant: grey numbers may not decrease"),
    ('villa = { vp = "villa_table" }', 'villa = { vp = "linear" }', "tracker.villa: vp must be"),
    ("[tracker]", "[tracker]\ndragon = { grey = [0] }", "tracker.dragon: unknown track"),
])
def test_a_damaged_anna_file_is_a_one_line_error(tmp_path, old, new, message):
    with pytest.raises(BgsimError, match=re.escape(message)) as info:
        load_anna(_broken(tmp_path, old, new))
    assert "\n" not in str(info.value) and "anna.toml" in str(info.value)
