"""Readable traces of Carpe Diem games: text for people, JSON events for programs.

Everything here reads a finished (or running) state and its event log; no rules live here.
The text numbers seats from 1 (seat 1 starts), as players and reports count them; the JSON
events keep the engine's 0-based seat indices for programs.
"""

import numpy as np
from bgsim.sim.games.carpe_diem import constants as K
from bgsim.sim.games.carpe_diem import events as E
from bgsim.sim.games.carpe_diem.decisions import MOVE_NAMES
from bgsim.sim.games.carpe_diem.tables import TABLES

__all__ = ["trace_text", "trace_json", "district_ascii", "score_table", "seat_name", "tile_text", "card_text"]

# Field names of each event's values (after code and seat), for JSON and for the text trace.
EVENT_FIELDS = {
    E.EV_PASS_START: ("pass", "start_seat"),
    E.EV_PATRICIAN: ("space",),
    E.EV_MOVE: ("from", "to", "move", "bread_target"),
    E.EV_TAKE: ("space", "place", "tile"),
    E.EV_DEPOT_CLEAR: ("space", "removed"),
    E.EV_PLACE: ("tile", "cell", "rotation", "source"),
    E.EV_STORE: ("tile", "source"),
    E.EV_BANNER: ("cell",),
    E.EV_STEPS: ("steps", "position", "overflow_vp", "source"),
    E.EV_COMPLETE: ("feature", "tiles", "chimneys"),
    E.EV_GOODS: ("good", "amount"),
    E.EV_MERCHANT: ("goods_returned", "coins"),
    E.EV_BREAD: ("amount",),
    E.EV_COINS: ("amount",),
    E.EV_CRAFTSMAN: ("seal_space", "tile"),
    E.EV_FOUNTAIN_DRAW: ("drawn", "card_1", "card_2"),
    E.EV_FOUNTAIN_RETURN: ("card",),
    E.EV_SCORING_START: ("pass",),
    E.EV_DISC: ("space", "card_a", "card_b"),
    E.EV_CARD: ("card", "k", "b", "vp", "coins", "bread", "steps", "goods_paid", "coins_paid", "penalty"),
    E.EV_FINAL: ("villas", "leftovers", "banner", "fountain_cards", "frame_tasks", "total", "rank"),
    E.EV_GAME_END: (),
    E.EV_LOST_SUPPLY: ("what", "amount"),
    E.EV_ANNA_CARD: ("pass", "automa_card"),
    E.EV_ANNA_MOVE: ("from", "to", "arrow", "row"),
    E.EV_ANNA_CHOICE: ("shown", "candidates", "tied", "decided_by"),
    E.EV_ANNA_TAKE: ("space", "place", "tile"),
    E.EV_ANNA_TRACK: ("tile", "track_1", "field_1", "track_2", "field_2", "coins", "bread", "goods", "steps"),
    E.EV_ANNA_ROLL: ("roll", "seal_space", "tile"),
    E.EV_ANNA_DRAW: ("fountain_card", "specialisation"),
    E.EV_ANNA_CONVERT: ("items", "steps"),
    E.EV_ANNA_FINAL: ("running_vp", "banner", "villa_track", "majorities", "fountain_cards", "total", "rank"),
}
_DECIDED_BY = ("the rules", "the human (D13)", "a random draw")
_STEP_SOURCES = ("banner", "administrator", "card")
_EDGE_LETTERS = ".VPGWHmbac"  # meadow, villa, pond, garden, vineyard, chicken yard, 4 lodgings
_PART_LETTERS = " VPGWHmbacMBF"  # + market, bakery, fountain


def seat_name(seat: int) -> str:
    """``seat 1`` for engine seat 0: people count seats from 1."""
    return f"seat {seat + 1}"


def _player_name(seat: int, solo: bool) -> str:
    """Who sits in engine seat ``seat``: Anna in seat 1 of a solo game, else ``seat n``."""
    return "Anna" if solo and seat == 1 else seat_name(seat)


def cell_name(cell: int) -> str:
    return f"({cell // K.SIDE},{cell % K.SIDE})"


def tile_text(game, tile: int) -> str:
    """``L17 villa[NS,2ch] + merchant[E]`` (open edges at rotation 0)."""
    t = game.components.tiles[tile]
    parts = []
    for part in t.parts:
        edges = "".join(K.DIRECTION_LETTERS[d] for d in range(4) if part.open_mask >> d & 1)
        extra = f",{part.chimneys}ch" if part.type == K.VILLA else ""
        parts.append(f"{K.TYPE_NAMES[part.type]}[{edges}{extra}]" if edges or extra else K.TYPE_NAMES[part.type])
    return f"{t.id} {' + '.join(parts)}"


def card_text(game, card: int) -> str:
    """``D17 have 1 pond -> 3 VP`` / ``A05 give 2 herb -> 4 VP``."""
    c = game.components.scoring_cards[card]
    if c.red:
        need = " + ".join(f"{q} {K.GOODS_NAMES[g]}" for g, q in enumerate(c.give) if q)
        verb = "give"
    else:
        need = " + ".join(f"{q} {K.COUNTER_NAMES[i]}" for i, q in c.have)
        verb = "have"
    pay = " + ".join(f"{q} {K.PAYOUT_NAMES[i].replace('vp', 'VP')}" for i, q in enumerate(c.payout) if q)
    return f"{c.id} {verb} {need} -> {pay}"


def _fountain_name(game, card: int) -> str:
    fc = game.components.fountain_cards[card]
    return f"{fc.id}({K.COUNTER_NAMES[fc.counter]})"


def trace_json(game, state: np.ndarray, log: np.ndarray, seeds=None, strategies=()) -> dict:
    """The game as a JSON-ready dict: setup, events with named fields, districts, score sheet."""
    out_events = []
    for row in E.events(log):
        code = int(row[0])
        fields = EVENT_FIELDS.get(code, ())
        event = {"event": E.EVENT_NAMES.get(code, str(code)), "seat": int(row[1])}
        for name, value in zip(fields, row[2:].tolist(), strict=False):
            event[name] = _json_value(game, code, name, int(value))
        out_events.append(event)
    sheet = game.score_sheet(state)
    return {
        "game": game.id,
        "rules_version": game.version,
        "seeds": None if seeds is None else {"chance": seeds.chance, "strategy": seeds.strategy},
        "strategies": list(strategies),
        "setup": _setup_json(game, state),
        "events": out_events,
        "districts": [_district_json(game, state, seat) for seat in range(game.n_players)],
        "score_sheet": {k: v.tolist() for k, v in sheet.items()},
        **({"anna": _anna_json(game, state)} if game.solo else {}),
    }


def trace_text(game, state: np.ndarray, log: np.ndarray, seeds=None, strategies=(), summary=False) -> str:
    """A readable game: setup, every turn and scoring, the final districts and the score sheet.
    ``summary`` keeps setup, pass scorings, districts and score sheet and drops the turns."""
    lines = [f"{game.id}  rules v{game.version}"]
    if seeds is not None:
        lines.append(f"chance seed {seeds.chance}, strategy seed {seeds.strategy}")
    for seat in range(game.n_players):
        who = strategies[seat] if seat < len(strategies) else ""
        lines.append(f"  {seat_name(seat)}: {who}{'  (start player)' if seat == 0 else ''}")
    if game.solo:
        lines.append(f"  {seat_name(1)}: Anna, the automa (CD-ANNA)")
    lines += _setup_text(game, state)
    turn_no = {"n": 0, "players": 2 if game.solo else game.n_players, "solo": game.solo}
    for row in E.events(log):
        text = _event_text(game, row, turn_no)
        if text is None:
            continue
        code = int(row[0])
        if summary and code in (E.EV_MOVE, E.EV_TAKE, E.EV_DEPOT_CLEAR, E.EV_PLACE, E.EV_STORE,
                                E.EV_BANNER, E.EV_STEPS, E.EV_COMPLETE, E.EV_GOODS, E.EV_MERCHANT,
                                E.EV_BREAD, E.EV_COINS, E.EV_CRAFTSMAN, E.EV_FOUNTAIN_DRAW,
                                E.EV_FOUNTAIN_RETURN, E.EV_LOST_SUPPLY, E.EV_PATRICIAN, E.EV_ANNA_MOVE,
                                E.EV_ANNA_CHOICE, E.EV_ANNA_TAKE, E.EV_ANNA_TRACK, E.EV_ANNA_ROLL,
                                E.EV_ANNA_DRAW, E.EV_ANNA_CONVERT):
            continue
        lines.append(text)
    lines.append("")
    lines.append("== Final districts ==")
    for seat in range(game.n_players):
        lines.append(f"{seat_name(seat)}:")
        lines += district_ascii(game, state, seat)
    lines.append("")
    lines.append("== Score sheet ==")
    lines += score_table(game, state)
    if game.solo:
        lines.append("")
        lines.append("== Anna's tracker ==")
        lines += anna_tracker_table(game, state)
    return "\n".join(lines) + "\n"


def score_table(game, state: np.ndarray) -> list[str]:
    sheet = game.score_sheet(state)
    rows = ["start", "cards", "villas", "leftovers", "banner", "fountain_cards", "frame_tasks", "total", "rank"]
    names = [seat_name(s) for s in range(game.n_players)]
    if game.solo:  # Anna's villas = her villa track (AMB-26); she has majorities instead of leftovers
        rows.insert(rows.index("total"), "majorities")
        names = [seat_name(0), "Anna"]
    header = "category        " + "".join(f"{name:>9}" for name in names)
    out = [header, "-" * len(header)]
    for name in rows:
        if name == "total":
            out.append("-" * len(header))
        out.append(f"{name:<16}" + "".join(f"{int(v):>9}" for v in sheet[name]))
    return out


def anna_tracker_table(game, state: np.ndarray) -> list[str]:
    """Anna's 12 tracks at the end: her field, the count it gives (grey number; villas by AMB-25),
    the human's count and the majority VP (CD-ANNA-23), then her fountain pile (CD-ANNA-24)."""
    from bgsim.sim.games.carpe_diem.anna_data import anna_arrays

    record = game.field(state, "anna")
    _, grey = anna_arrays(game.anna)
    majority = game.field(state, "anna_majority")
    human = game.field(state, "count")[0]
    divisor = game.params.anna_villa_count_divisor
    out = [f"{'track':<14}{'field':>6}{'Anna':>6}{'you':>6}{'VP':>5}", "-" * 37]
    for ptype in range(K.VILLA, K.N_TYPES):
        pos = int(record[K.AN_TRACK + ptype])
        if ptype == K.VILLA:
            count = pos // divisor if divisor else 0
            out.append(f"{'villa':<14}{pos:>6}{count:>6}{'':>6}{'':>5}  (chimneys; VP on the villa row)")
            continue
        count = int(grey[ptype, min(pos, grey.shape[1] - 1)])
        out.append(f"{K.TYPE_NAMES[ptype]:<14}{pos:>6}{count:>6}{int(human[ptype]):>6}{int(majority[ptype]):>5}")
    pile = [_fountain_name(game, int(c)) for c in record[K.AN_PILE: K.AN_PILE + int(record[K.AN_PILE_N])]]
    out.append(f"fountain pile (bottom to top): {', '.join(pile) or 'none'}")
    return out


def district_ascii(game, state: np.ndarray, seat: int) -> list[str]:
    """The district as 6 x 6 boxes. Each box shows the edge codes on its four sides and the parts
    in the middle (villa with chimneys, e.g. V2). Empty cells show # for a banner, ^ for the shovel.
    Frame tasks are listed below with their line and whether they are met."""
    tiles = game.field(state, "cell_tile")[seat]
    rots = game.field(state, "cell_rot")[seat]
    banners = game.field(state, "banner_left")[seat]
    rot_edge = TABLES.view(game.tables, "rot_edge")
    board = game.components.boards[int(game.field(state, "board")[seat])]
    sep = "+" + "-----+" * K.SIDE
    out = [sep]
    for r in range(K.SIDE):
        rows = ["|", "|", "|"]
        for c in range(K.SIDE):
            cell = r * K.SIDE + c
            tile = int(tiles[cell])
            if tile < 0:
                mark = "#" if banners[cell] else ("^" if cell == board.shovel else " ")
                rows[0] += "     |"
                rows[1] += f"  {mark}  |"
                rows[2] += "     |"
                continue
            e = [_EDGE_LETTERS[int(rot_edge[tile, int(rots[cell]), d])] for d in range(4)]
            middle = "".join(
                _PART_LETTERS[p.type] + (str(p.chimneys) if p.type == K.VILLA else "")
                for p in game.components.tiles[tile].parts
            )[:3].center(3)
            rows[0] += f"  {e[0]}  |"
            rows[1] += f"{e[3]}{middle}{e[1]}|"
            rows[2] += f"  {e[2]}  |"
        out += rows
        out.append(sep)
    out.append("  legend: V villa (chimneys), P pond, G garden, W vineyard, H chicken yard, m merchant,")
    out.append("          b baker, a administrator, c craftsman, M market, B bakery, F fountain, . meadow")
    done = game.field(state, "task_done")[seat]
    for task in range(K.N_TASKS):
        side = task // 2
        piece = game.components.frames[int(game.field(state, "frame_piece")[seat, side])]
        ft = piece.tasks[task % 2]
        line = ("column", "row", "column", "row")[side]
        index = ft.position if side in (0, 1) else K.SIDE - 1 - ft.position
        status = "met" if done[task] else "open"
        out.append(f"  task {'NESW'[side]}{task % 2} ({piece.id}): {K.TYPE_NAMES[ft.type]} on {line} {index}, "
                   f"{ft.vp} VP, {status}")
    return out


# Helpers


def _json_value(game, code, name, value):
    if value < 0 and name in ("tile", "card", "card_1", "card_2", "card_a", "card_b", "seal_space", "fountain_card"):
        return None
    if name == "tile":
        return game.components.tiles[value].id
    if name == "cell":
        return [value // K.SIDE, value % K.SIDE]
    if name == "feature":
        return K.TYPE_NAMES[value]
    if name == "good":
        return K.GOODS_NAMES[value]
    if name == "move":
        return MOVE_NAMES[value]
    if name == "source" and code == E.EV_STEPS:
        return _STEP_SOURCES[value]
    if name == "source":
        return ("depot", "seal display")[value]
    if name in ("card", "card_1", "card_2") and code in (E.EV_FOUNTAIN_DRAW, E.EV_FOUNTAIN_RETURN):
        return game.components.fountain_cards[value].id
    if name in ("card", "card_a", "card_b"):
        return game.components.scoring_cards[value].id
    if name == "space" and code == E.EV_DISC:
        return K.disc_space_name(value)
    if name == "automa_card":
        return game.anna.cards[value].id
    if name == "fountain_card":
        return None if value < 0 else game.components.fountain_cards[value].id
    if name in ("shown", "track_1", "track_2", "specialisation"):
        return K.TYPE_NAMES[value] if value > 0 else None
    if name == "arrow":
        return ("CW", "CCW")[value]
    if name == "decided_by":
        return ("rules", "human", "random")[value]
    if name == "penalty":
        return bool(value)
    return value


def _setup_json(game, state):
    slots = game.field(state, "slot_card")
    return {
        "card_slots": [None if c < 0 else game.components.scoring_cards[int(c)].id for c in slots],
        "seal_display_start": [game.components.tiles[int(x)].id for x in game.field(state, "dark_stock")[: K.N_SEALS]],
        "boards": [game.components.boards[int(b)].id for b in game.field(state, "board")[: game.n_players]],
        "frames": [[game.components.frames[int(f)].id for f in row]
                   for row in game.field(state, "frame_piece")[: game.n_players]],
        "start_vp": game.field(state, "vp_start")[: game.n_players].tolist(),
    }


def _district_json(game, state, seat):
    tiles = game.field(state, "cell_tile")[seat]
    rots = game.field(state, "cell_rot")[seat]
    return [
        {"cell": [c // K.SIDE, c % K.SIDE], "tile": game.components.tiles[int(tiles[c])].id, "rotation": int(rots[c])}
        for c in range(K.N_CELLS) if tiles[c] >= 0
    ]


def _anna_json(game, state):
    record = game.field(state, "anna")
    return {
        "automa_deck": [game.anna.cards[int(c)].id for c in game.field(state, "anna_deck")],
        "tracks": {K.TYPE_NAMES[t]: int(record[K.AN_TRACK + t]) for t in range(K.VILLA, K.N_TYPES)},
        "majority_vp": {K.TYPE_NAMES[t]: int(game.field(state, "anna_majority")[t]) for t in range(K.POND, K.N_TYPES)},
        "fountain_pile": [game.components.fountain_cards[int(c)].id
                          for c in record[K.AN_PILE: K.AN_PILE + int(record[K.AN_PILE_N])]],
        "craftsman_rolls": int(game.field(state, "anna_rolls")[0]),
        "conversion_steps": int(game.field(state, "anna_conversions")[0]),
    }


def _anna_setup_text(game, state):
    record = game.field(state, "anna")
    pile = [_fountain_name(game, int(c)) for c in record[K.AN_PILE: K.AN_PILE + int(record[K.AN_PILE_N])]]
    deck = [game.anna.cards[int(c)].id for c in game.field(state, "anna_deck")[: K.N_PASSES]]
    return [f"Anna ({seat_name(1)}): start VP {int(game.field(state, 'vp_start')[1])}, 1 coin, 1 bread, "
            f"fountain card {pile[0] if pile else 'none'}; automa cards of passes 1-4: {', '.join(deck)}"]


def _setup_text(game, state):
    lines = ["", "== Setup =="]
    slots = game.field(state, "slot_card")
    lines.append("scoring cards (4 rows x 3 slots):")
    texts = ["--" if card < 0 else card_text(game, int(card)) for card in slots]
    width = max(len(x) for x in texts)
    for r in range(4):
        lines.append("  " + " ".join(f"[{texts[r * 3 + c]:<{width}}]" for c in range(3)))
    seals = game.field(state, "dark_stock")[: K.N_SEALS]
    lines.append("seal display: " + ", ".join(tile_text(game, int(x)) for x in seals))
    for seat in range(game.n_players):
        board = game.components.boards[int(game.field(state, "board")[seat])]
        frames = [game.components.frames[int(f)].id for f in game.field(state, "frame_piece")[seat]]
        lines.append(f"{seat_name(seat)}: board {board.id}, frame pieces N/E/S/W {'/'.join(frames)}, "
                     f"start VP {int(game.field(state, 'vp_start')[seat])}")
    if game.solo:
        lines += _anna_setup_text(game, state)
    return lines


def _event_text(game, row, turn_no):
    code, seat = int(row[0]), int(row[1])
    v = [int(x) for x in row[2:]]
    who = _player_name(seat, turn_no.get("solo"))
    if code in _ANNA_TEXT:
        return _ANNA_TEXT[code](game, v, turn_no)
    if code == E.EV_PASS_START:
        turn_no["n"] = 0
        return f"\n== Pass {v[0]} (start player: {_player_name(v[1], turn_no.get('solo'))}) =="
    if code == E.EV_PATRICIAN:
        return f"{who} puts the patrician on P{v[0]}"
    if code == E.EV_MOVE:
        turn_no["n"] += 1
        move = MOVE_NAMES[v[2]]
        how = {"step_cw": "clockwise", "step_ccw": "counter-clockwise"}.get(move, "pays 1 bread")
        if move in ("bread_then_cw", "bread_then_ccw"):
            how += f" to P{v[3]}, then on"
        round_no = (turn_no["n"] - 1) // turn_no["players"] + 1
        return f"round {round_no}, {who}: P{v[0]} -> P{v[1]} ({how})"
    if code == E.EV_TAKE:
        return f"       takes {tile_text(game, v[2])} from depot D{v[0]}"
    if code == E.EV_DEPOT_CLEAR:
        return f"       depot D{v[0]} exhausted: {v[1]} tile(s) leave the game" if v[1] else None
    if code == E.EV_PLACE:
        src = " (seal tile)" if v[3] else ""
        return f"       builds {game.components.tiles[v[0]].id}{src} on {cell_name(v[1])}, rotated {90 * v[2]} deg"
    if code == E.EV_STORE:
        return f"       stores {game.components.tiles[v[0]].id} face down"
    if code == E.EV_BANNER:
        return f"       covers the banner on {cell_name(v[0])}"
    if code == E.EV_STEPS:
        over = f", +{v[2]} VP beyond the track end" if v[2] else ""
        return f"       banner disc +{v[0]} ({_STEP_SOURCES[v[3]]}) -> {v[1]}{over}"
    if code == E.EV_COMPLETE:
        extra = f", {v[2]} chimneys" if v[0] == K.VILLA else ""
        name = K.TYPE_NAMES[v[0]].replace("_", " ")
        article = "an" if name[0] in "aeiou" else "a"
        return f"       completes {article} {name} ({v[1]} tile{'s' if v[1] != 1 else ''}{extra})"
    if code == E.EV_GOODS:
        return f"       +{v[1]} {K.GOODS_NAMES[v[0]]}"
    if code == E.EV_MERCHANT:
        return f"       merchant: returns {v[0]} goods, +{v[1]} coins"
    if code == E.EV_BREAD:
        return f"       +{v[0]} bread"
    if code == E.EV_COINS:
        return f"       +{v[0]} coin{'s' if v[0] != 1 else ''}"
    if code == E.EV_CRAFTSMAN:
        if v[0] < 0:
            return "       craftsman: no seal tile taken"
        return f"       craftsman: takes seal tile S{v[0]} {tile_text(game, v[1])}"
    if code == E.EV_FOUNTAIN_DRAW:
        cards = [_fountain_name(game, c) for c in v[1:1 + v[0]]]
        return f"       fountain: draws {', '.join(cards) or 'nothing'}"
    if code == E.EV_FOUNTAIN_RETURN:
        return f"       fountain: puts {_fountain_name(game, v[0])} under the deck" if v[0] >= 0 else \
            "       fountain: keeps every card"
    if code == E.EV_SCORING_START:
        return f"\n== Pass scoring {v[0]} =="
    if code == E.EV_DISC:
        return (f"{who}: disc on {K.disc_space_name(v[0])} between {game.components.scoring_cards[v[1]].id} "
                f"and {game.components.scoring_cards[v[2]].id}")
    if code == E.EV_CARD:
        card, k, b, vp, coins, bread, steps, goods_paid, coins_paid, penalty = v[:10]
        paid = []
        if goods_paid:
            paid.append(f"{goods_paid} goods")
        if coins_paid:
            paid.append(f"{coins_paid} coins")
        if b:
            paid.append(f"{3 * b} bread")
        got = [f"{vp:+d} VP"]
        got += [f"+{x} {n}" for x, n in ((coins, "coins"), (bread, "bread"), (steps, "steps")) if x]
        pen = "  (unfulfilled: -4 VP)" if penalty else ""
        return (f"    {card_text(game, card)}: k={k} b={b}"
                f"{', pays ' + ', '.join(paid) if paid else ''}; {', '.join(got)}{pen}")
    if code == E.EV_FINAL:
        return None
    if code == E.EV_GAME_END:
        return f"\nwinner: {who}"
    if code == E.EV_LOST_SUPPLY:
        return f"       supply empty: {v[1]} {('goods', 'coins', 'bread')[v[0]]} not received"
    return None


# Anna's events (solo)


def _anna_move(game, v, turn_no):
    turn_no["n"] += 1
    round_no = (turn_no["n"] - 1) // turn_no["players"] + 1
    return f"round {round_no}, Anna: P{v[0]} -> P{v[1]} (row {v[3]}: {('clockwise', 'counter-clockwise')[v[2]]})"


def _anna_choice(game, v, turn_no):
    shown = f"show {K.TYPE_NAMES[v[0]]}" if v[0] > 0 else "(no listed symbol: all tiles)"
    tied = f", {v[2]} tied after (a)-(d), decided by {_DECIDED_BY[v[3]]}" if v[2] > 1 else ""
    return f"       {v[1]} candidate(s) {shown}{tied}"


def _anna_track(game, v, turn_no):
    tracks = [f"{K.TYPE_NAMES[v[1]]} -> {v[2]}"]
    if v[3] > 0:
        tracks.append(f"{K.TYPE_NAMES[v[3]]} -> {v[4]}")
    gains = [f"+{x} {name}" for x, name in ((v[5], "coins"), (v[6], "bread"), (v[7], "goods"), (v[8], "steps")) if x]
    return f"       tracks {', '.join(tracks)}" + (f"; {', '.join(gains)}" if gains else "")


def _anna_roll(game, v, turn_no):
    if v[1] < 0:
        return f"       craftsman: rolls {v[0]}, no seal tile left"
    return f"       craftsman: rolls {v[0]}, takes seal tile S{v[1]} {tile_text(game, v[2])}"


def _anna_draw(game, v, turn_no):
    if v[0] < 0:
        return "       fountain: the deck is empty"
    return (f"       fountain: {_fountain_name(game, v[0])} on top of her pile, specialisation now "
            f"{K.TYPE_NAMES[v[1]]}")


def _anna_final(game, v, turn_no):
    return None


_ANNA_TEXT = {
    E.EV_ANNA_CARD: lambda game, v, turn_no: f"Anna's automa card for pass {v[0]}: {game.anna.cards[v[1]].id}",
    E.EV_ANNA_MOVE: _anna_move,
    E.EV_ANNA_CHOICE: _anna_choice,
    E.EV_ANNA_TAKE: lambda game, v, turn_no: f"       takes {tile_text(game, v[2])} from D{v[0]} (out of the game)",
    E.EV_ANNA_TRACK: _anna_track,
    E.EV_ANNA_ROLL: _anna_roll,
    E.EV_ANNA_DRAW: _anna_draw,
    E.EV_ANNA_CONVERT: lambda game, v, turn_no: f"       returns {v[0]} items: banner +{v[1]}",
    E.EV_ANNA_FINAL: _anna_final,
}
