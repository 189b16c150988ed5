"""Readable traces of Carpe Diem games: text for people, JSON events for programs.

Everything here reads a finished (or running) state and its event log; no rules live here.
"""

import numpy as np

from sim.games.carpe_diem import constants as K
from sim.games.carpe_diem import events as E
from sim.games.carpe_diem.decisions import MOVE_NAMES
from sim.games.carpe_diem.tables import TABLES

__all__ = ["trace_text", "trace_json", "district_ascii", "score_table", "tile_text", "card_text"]

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
}
_STEP_SOURCES = ("banner", "administrator", "card")
_EDGE_LETTERS = ".VPGWHmbac"  # meadow, villa, pond, garden, vineyard, chicken yard, 4 lodgings
_PART_LETTERS = " VPGWHmbacMBF"  # + market, bakery, fountain


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
    }


def trace_text(game, state: np.ndarray, log: np.ndarray, seeds=None, strategies=(), summary=False) -> str:
    """A readable game: setup, every turn and scoring, the final districts and the score sheet.
    ``summary`` keeps setup, pass scorings, districts and score sheet and drops the turns."""
    lines = [f"{game.id}  rules v{game.version}"]
    if seeds is not None:
        lines.append(f"chance seed {seeds.chance}, strategy seed {seeds.strategy}")
    for seat in range(game.n_players):
        who = strategies[seat] if seat < len(strategies) else ""
        lines.append(f"  seat {seat}: {who}{'  (start player)' if seat == 0 else ''}")
    lines += _setup_text(game, state)
    turn_no = {"n": 0, "players": game.n_players}
    for row in E.events(log):
        text = _event_text(game, row, turn_no)
        if text is None:
            continue
        code = int(row[0])
        if summary and code in (E.EV_MOVE, E.EV_TAKE, E.EV_DEPOT_CLEAR, E.EV_PLACE, E.EV_STORE,
                                E.EV_BANNER, E.EV_STEPS, E.EV_COMPLETE, E.EV_GOODS, E.EV_MERCHANT,
                                E.EV_BREAD, E.EV_COINS, E.EV_CRAFTSMAN, E.EV_FOUNTAIN_DRAW,
                                E.EV_FOUNTAIN_RETURN, E.EV_LOST_SUPPLY, E.EV_PATRICIAN):
            continue
        lines.append(text)
    lines.append("")
    lines.append("== Final districts ==")
    for seat in range(game.n_players):
        lines.append(f"seat {seat}:")
        lines += district_ascii(game, state, seat)
    lines.append("")
    lines.append("== Score sheet ==")
    lines += score_table(game, state)
    return "\n".join(lines) + "\n"


def score_table(game, state: np.ndarray) -> list[str]:
    sheet = game.score_sheet(state)
    rows = ["start", "cards", "villas", "leftovers", "banner", "fountain_cards", "frame_tasks", "total", "rank"]
    header = "category        " + "".join(f"{'seat ' + str(s):>9}" for s in range(game.n_players))
    out = [header, "-" * len(header)]
    for name in rows:
        if name == "total":
            out.append("-" * len(header))
        out.append(f"{name:<16}" + "".join(f"{int(v):>9}" for v in sheet[name]))
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
    if value < 0 and name in ("tile", "card", "card_1", "card_2", "card_a", "card_b", "seal_space"):
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
        lines.append(f"seat {seat}: board {board.id}, frame pieces N/E/S/W {'/'.join(frames)}, "
                     f"start VP {int(game.field(state, 'vp_start')[seat])}")
    return lines


def _event_text(game, row, turn_no):
    code, seat = int(row[0]), int(row[1])
    v = [int(x) for x in row[2:]]
    who = f"seat {seat}"
    if code == E.EV_PASS_START:
        turn_no["n"] = 0
        return f"\n== Pass {v[0]} (start player: seat {v[1]}) =="
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
        return f"\nwinner: seat {seat}"
    if code == E.EV_LOST_SUPPLY:
        return f"       supply empty: {v[1]} {('goods', 'coins', 'bread')[v[0]]} not received"
    return None
