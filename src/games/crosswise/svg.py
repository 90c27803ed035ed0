"""Crosswise as SVG: `crosswise_svg(state.view(viewer))`, a pure function of
the view, so it shows exactly what the viewer may see (other hands as tile
backs, with the tiles known to be in them face up). Cells carry ids
(`cell-c4`) and the hand of the seat to move `hand-3`, `hand-M`, ... so a
web page can make them clickable."""

from __future__ import annotations

import math

from crossridor.games.svg import INK, SEAT_COLOURS, card_back, document, el, text

C, M = 50, 30               # cell size and margin
T = 36                       # hand tile size
FILES = "abcdef"
SYMBOL_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
ACTIONS = {"M": "Move", "R": "Remove", "P": "Replace", "S": "Swap"}


def _polygon(cx, cy, r, k, turn=-math.pi / 2, inner=None):
    pts = []
    steps = 2 * k if inner else k
    for i in range(steps):
        a = turn + 2 * math.pi * i / steps
        rr = inner * r if inner and i % 2 else r
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
    return " ".join(pts)


def symbol(cx, cy, size, sym: int) -> str:
    """Symbol 1..6 as a coloured shape with its number: circle, square,
    triangle, diamond, star, hexagon (told apart without colour too)."""
    r = size * 0.36
    fill = SYMBOL_COLOURS[sym - 1]
    if sym == 1:
        shape = el("circle", cx=cx, cy=cy, r=r, fill=fill)
    elif sym == 2:
        shape = el("rect", x=cx - r * 0.85, y=cy - r * 0.85, width=1.7 * r, height=1.7 * r, fill=fill)
    elif sym == 3:
        shape = el("polygon", points=_polygon(cx, cy + r * 0.15, r * 1.1, 3), fill=fill)
    elif sym == 4:
        shape = el("polygon", points=_polygon(cx, cy, r * 1.05, 4), fill=fill)
    elif sym == 5:
        shape = el("polygon", points=_polygon(cx, cy, r * 1.1, 5, inner=0.5), fill=fill)
    else:
        shape = el("polygon", points=_polygon(cx, cy, r, 6, turn=0), fill=fill)
    return shape + text(cx, cy + 1, sym, size=size * 0.3, fill="#fff", weight="bold")


def tile(x, y, size, ch: str, **kw) -> str:
    """A face-up tile: a symbol 1-6, or an action tile M R P S."""
    face = el("rect", x=x, y=y, width=size, height=size, rx=5, fill="#fffdf7", stroke=INK, stroke_width=1.2, **kw)
    if ch.isdigit():
        return face + symbol(x + size / 2, y + size / 2, size, int(ch))
    return (face + el("rect", x=x + 3, y=y + 3, width=size - 6, height=size - 6, rx=4, fill="#333")
            + text(x + size / 2, y + size / 2 - 3, ch, size=size * 0.42, fill="#fff", weight="bold")
            + text(x + size / 2, y + size - 8, ACTIONS[ch], size=size * 0.17, fill="#ddd"))


def _cells_of(move: str) -> list[str]:
    return [w for w in move.replace(">", " ").replace(",", " ").replace("=", " ").replace("@", " ").split()
            if len(w) == 2 and w[0] in FILES and w[1] in "123456"]


def crosswise_svg(view: dict, last_move: bool = True, arrows=()) -> str:
    board = view["board"]
    gx, gy = M + 20, M + 10                   # top-left of the grid (room for rank labels)
    grid = 6 * C
    hands_y = gy + grid + 40
    n = view["players"]
    width = max(gx + grid + 90, M + 104 + 6 * (T + 4) + M)
    height = hands_y + n * (T + 14) + 90
    out = []
    last = set(_cells_of(view["history"][-1])) if last_move and view["history"] else set()
    for row in range(6):
        for col in range(6):
            name = f"{FILES[col]}{row + 1}"
            x, y = gx + col * C, gy + (5 - row) * C
            fill = "#fff3c4" if name in last else "#efe6d2"
            out.append(el("rect", x=x, y=y, width=C, height=C, fill=fill, stroke="#b8a98a", stroke_width=1,
                          id=f"cell-{name}", class_="cell" + (" last" if name in last else ""), data_move=name))
            sym = board[row * 6 + col]
            if sym:
                out.append(symbol(x + C / 2, y + C / 2, C, sym))
    out.append(el("rect", x=gx, y=gy, width=grid, height=grid, fill="none", stroke=INK, stroke_width=2))
    for i in range(6):
        out.append(text(gx + i * C + C / 2, gy + grid + 12, FILES[i], size=12))
        out.append(text(gx - 12, gy + (5 - i) * C + C / 2, i + 1, size=12))
    # line scores: rows (team Rows) at the right, columns (team Columns) below
    for i, v in enumerate(view["row_scores"]):
        out.append(text(gx + grid + 22, gy + (5 - i) * C + C / 2, f"{v:+d}" if v else "0", size=13,
                        fill=SEAT_COLOURS[0] if v > 0 else ("#888" if v == 0 else INK)))
    for i, v in enumerate(view["col_scores"]):
        out.append(text(gx + i * C + C / 2, gy + grid + 28, f"{v:+d}" if v else "0", size=13,
                        fill=SEAT_COLOURS[1] if v > 0 else ("#888" if v == 0 else INK)))
    r, c = view["scores"]
    out.append(text(gx + grid + 22, gy - 12, "Rows", size=11, fill=SEAT_COLOURS[0], weight="bold"))
    out.append(text(gx - 12, gy + grid + 28, "Cols", size=11, fill=SEAT_COLOURS[1], weight="bold"))
    # hands
    mover = view["to_move"]
    for k, hand in enumerate(view["hands"]):
        y = hands_y + k * (T + 14)
        seat = hand["seat"]
        team = seat & 1
        label = f"seat {seat + 1} {hand['team']}" + (" *" if view["viewer"] == seat else "")
        out.append(el("rect", x=M - 6, y=y - 4, width=width - 2 * M + 12, height=T + 8, rx=6,
                      fill="none", stroke=SEAT_COLOURS[team], stroke_width=3 if seat == mover else 1))
        out.append(text(M, y + T / 2, label, size=11, anchor="start", fill=SEAT_COLOURS[team], weight="bold"))
        x = M + 104
        ids = set()
        if "tiles" in hand:
            for ch in hand["tiles"]:
                tid = f"hand-{ch}" if seat == mover and ch not in ids else None
                ids.add(ch)
                out.append(tile(x, y, T, ch, id=tid, class_="tile" if tid else None, data_move=tid and ch))
                x += T + 4
        else:
            for ch in hand["known"]:                 # known to be in the hand: face up
                out.append(tile(x, y, T, ch))
                x += T + 4
            for _ in range(hand["count"] - len(hand["known"])):
                out.append(card_back(x, y, T, T, class_="back"))
                x += T + 4
    y = hands_y + n * (T + 14) + 12
    played = " ".join(f"{ACTIONS[a]} {k}" for a, k in zip("MRPS", view["played"]))
    out.append(text(M, y, f"bag: {view['bag']} tiles", size=12, anchor="start"))
    out.append(text(M + 100, y, f"played: {played}", size=12, anchor="start"))
    out.append(text(M, y + 20, f"points: Rows {r}, Columns {c}", size=12, anchor="start", weight="bold"))
    if view["history"]:
        out.append(text(M, y + 40, f"last move: {view['history'][-1]}", size=12, anchor="start"))
    out.append(text(width - M, y + 60, view["status"], size=13, anchor="end", weight="bold", class_="status"))
    return document(width, height, out, title="Crosswise")


def click_paths(move: str) -> list[list[str]]:
    """The ids a player clicks, in order, to make `move`: the hand tile, then
    the cell(s) (Replace: the cell, then the symbol from the hand)."""
    cells = [f"cell-{c}" for c in _cells_of(move)]
    if "@" in move:
        return [[f"hand-{move[0]}", cells[0]]]
    word = move.split()[0] if move != "--" else "--"
    if word == "move":
        return [["hand-M", *cells]]
    if word == "remove":
        return [["hand-R", *cells]]
    if word == "replace":
        return [["hand-P", cells[0], f"hand-{move[-1]}"]]
    if word == "swap":
        return [["hand-S", *cells], ["hand-S", *reversed(cells)]]
    return []
