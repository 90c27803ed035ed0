"""Kreuz & Quer as SVG: `kreuzundquer_svg(state.view(viewer))`, a pure
function of the view, so a picture shows exactly what the viewer may see
(unseen cards as backs). Clickable parts carry ids: `card-17` (a route card in
the hand being built) and `up-s` (a face-up terrain card)."""

from __future__ import annotations

from crossridor.games.svg import INK, SEAT_COLOURS, card_back, document, el, text

TERRAIN_COLOURS = {"b": "#1f5fbf", "e": "#e3cfa2", "m": "#6b4f2a", "f": "#d9c74a",
                   "w": "#7fc4e8", "c": "#8e8e8e", "g": "#4caf50", "s": "#f2dc9b"}
TERRAIN_NAMES = {"b": "blue tiles", "e": "beige tiles", "m": "mud", "f": "field", "w": "water",
                 "c": "cobblestones", "g": "meadow", "s": "sand"}
R = 11                        # room size on a route card


def _terrain(x, y, w, h, t, **kw) -> str:
    if t == "?":
        return card_back(x, y, w, h, class_="back", **kw)
    dark = t in "bmc"
    return (el("rect", x=x, y=y, width=w, height=h, rx=3, fill=TERRAIN_COLOURS[t], stroke=INK, stroke_width=1, **kw)
            + text(x + w / 2, y + h / 2, t.upper(), size=min(w, h) * 0.5, fill="#fff" if dark else INK))


def _rooms(x, y, rooms: str) -> str:
    """A route card: its 6 rows left to right, the 3 lanes top to bottom."""
    return "".join(el("rect", x=x + r * R, y=y + lane * R, width=R, height=R, fill=TERRAIN_COLOURS[rooms[r * 3 + lane]],
                      stroke="#fff", stroke_width=0.5) for r in range(6) for lane in range(3))


def kreuzundquer_svg(view: dict, last_move: bool = True) -> str:
    n = view["players"]
    panel = 3 * R + 100                 # height of one player's panel
    width = 760
    top = 60
    height = top + n * panel + 116
    out = [text(16, 20, f"Kreuz & Quer  race {min(view['race'] + 1, view['races'])}/{view['races']}, "
                        f"stage {view['stage'] + 1}, {view['phase']}", size=14, anchor="start", weight="bold")]
    # the centre: face-up cards (clickable when taking), face-down count, a flipped card
    x = 16
    out.append(text(x, 44, f"face down: {view['down']}", size=12, anchor="start"))
    x += 100
    seen = set()
    for t in view["up"]:
        tid = f"up-{t}" if t not in seen else None
        seen.add(t)
        out.append(_terrain(x, 32, 22, 24, t, id=tid, class_="card" if tid else None, data_move=tid and f"take:{t}"))
        x += 25
    if view["pending"] is not None:
        out.append(text(x + 10, 44, "flipped:", size=12, anchor="start"))
        out.append(_terrain(x + 62, 32, 22, 24, view["pending"]))
    out.append(text(width - 16, 44, f"route pile: {view['route_pile']}", size=12, anchor="end"))
    for p, seat in enumerate(view["seats"]):
        y0 = top + p * panel
        colour = SEAT_COLOURS[p]
        you = " (you)" if view["viewer"] == p else ""
        mv = " — to move" if view["to_move"] == p else ""
        out.append(el("rect", x=8, y=y0, width=width - 16, height=panel - 8, rx=8, fill="none", stroke=colour,
                      stroke_width=3 if mv else 1.2))
        goal = seat["goal"]
        out.append(text(18, y0 + 14, f"player {p + 1}{you}: {seat['points']} points, {seat['aside']} set aside{mv}",
                        size=12, anchor="start", fill=colour, weight="bold"))
        if goal:
            out.append(text(width - 80, y0 + 14, "goal", size=11, anchor="end"))
            out.append(_terrain(width - 74, y0 + 4, 40, 20, goal))
        y = y0 + 28
        if seat["hand"] is not None:
            hand = seat["hand"]
            if isinstance(hand, int):
                for i in range(hand):
                    out.append(card_back(18 + i * 34, y, 30, 40, class_="back"))
            else:                       # the cards to choose from: their rooms, clickable
                for i, card in enumerate(hand):
                    cx = 18 + i * (6 * R + 8)
                    out.append(_rooms(cx, y, card["rooms"]))
                    out.append(text(cx + 3 * R, y + 3 * R + 8, f"#{card['card']}", size=9, fill="#555"))
                    out.append(el("rect", x=cx - 2, y=y - 2, width=6 * R + 4, height=3 * R + 16, rx=3,
                                  fill="transparent", stroke="#999", id=f"card-{card['card']}", class_="card",
                                  data_move=str(card["card"])))
        elif seat["route"] is None:
            out.append(text(18, y + 20, "route hidden until everyone has built", size=12, anchor="start", fill="#666"))
        else:
            # route cards left to right; on each, the 6 rows run left to right, lanes top to bottom
            for i, card in enumerate(seat["route"]):
                cx = 18 + i * (6 * R + 8)
                if cx + 6 * R > width - 20:
                    out.append(text(cx, y + 18, "…", size=14, anchor="start"))
                    break
                out.append(_rooms(cx, y, card["rooms"]))
                if seat["pos"] >= 0 and seat["pos"] // 18 == i:
                    r, lane = seat["pos"] % 18 // 3, seat["pos"] % 3
                    out.append(el("circle", cx=cx + r * R + R / 2, cy=y + lane * R + R / 2, r=R * 0.42,
                                  fill=colour, stroke="#fff", stroke_width=1.5, class_="pawn"))
                out.append(text(cx + 3 * R, y + 3 * R + 8, f"#{card['card']}", size=9, fill="#555"))
            if seat["pos"] == -2:
                out.append(text(width - 20, y + 18, "on the goal", size=12, anchor="end", fill=colour))
        # collected terrain cards (upper case: taken face up)
        py = y0 + panel - 36
        out.append(text(18, py + 10, "pile:", size=11, anchor="start"))
        for i, ch in enumerate(seat["pile"]):
            out.append(_terrain(52 + i * 20, py, 18, 20, ch.lower() if ch != "?" else "?"))
        box = seat["box"]
        box_text = f"returned: {', '.join(map(str, box)) if isinstance(box, list) else f'{box} hidden'}"
        out.append(text(width - 20, py + 10, box_text if box else "", size=11, anchor="end", fill="#555"))
    y = top + n * panel + 10
    if last_move and view["history"]:
        out.append(text(16, y + 6, f"last move: {view['history'][-1]}", size=12, anchor="start"))
    if view["log"]:
        out.append(text(16, y + 26, "last movement: " + "; ".join(view["log"]), size=11, anchor="start"))
    status = ("game over: points " + ", ".join(str(s["points"]) for s in view["seats"]) if view["over"]
              else "to move: chance" if view["chance"] else f"to move: player {view['to_move'] + 1}")
    out.append(text(width - 16, y + 50, status, size=13, anchor="end", weight="bold", class_="status"))
    for i, (t, name) in enumerate(TERRAIN_NAMES.items()):      # the legend of the room colours
        out.append(_terrain(16 + i * 92, y + 72, 18, 18, t) + text(38 + i * 92, y + 81, name, size=10, anchor="start"))
    return document(width, height, out, title="Kreuz & Quer")


def click_paths(move: str) -> list[list[str]]:
    """A build is a click on the two cards to return (either order); taking
    a face-up card is a click on it; flip, keep, leave and stop are buttons."""
    if move.startswith("x"):
        a, b = move[1:].split(",")
        return [[f"card-{a}", f"card-{b}"], [f"card-{b}", f"card-{a}"]]
    if move.startswith("take:"):
        return [[f"up-{move[5:]}"]]
    return []
