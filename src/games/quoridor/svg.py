"""Quoridor as SVG: `quoridor_svg(state.view())`, a pure function of the
view. Squares, wall slots and pawns carry ids (`sq-e2`, `wall-e3h`,
`pawn-1`) so a web page can make them clickable."""

from __future__ import annotations

from crossridor.games.svg import INK, SEAT_COLOURS, arrow, document, el, text

S, G, M = 40, 10, 34      # square, gutter (wall slot) and margin, in pixels
COLUMNS = "abcdefghi"
PANEL = 46                 # height of a walls-in-hand panel


def _xy(col: int, row: int, n: int) -> tuple[float, float]:
    """Top-left corner of square (col, row); row 0 at the bottom."""
    return M + col * (S + G), PANEL + M + (n - 1 - row) * (S + G)


def _square(name: str) -> tuple[int, int]:
    return COLUMNS.index(name[0]), int(name[1:].rstrip("hv")) - 1


def _centre(name: str, n: int) -> tuple[float, float]:
    x, y = _xy(*_square(name), n)
    return x + S / 2, y + S / 2


def _wall_rect(name: str, n: int) -> tuple[float, float, float, float]:
    """x, y, width, height of a placed wall (it covers two squares' sides)."""
    col, row = _square(name)
    x, y = _xy(col, row, n)
    if name.endswith("h"):       # between rows row and row+1, over columns col, col+1
        return x, y - G, 2 * S + G, G
    return x + S, y - S - G, G, 2 * S + G   # between columns col, col+1, over rows row, row+1


def _slot_rect(name: str, n: int) -> tuple[float, float, float, float]:
    """The click target of a wall: the gutter segment by its anchor square
    (above it for 'h', right of it for 'v'), so targets never overlap."""
    col, row = _square(name)
    x, y = _xy(col, row, n)
    if name.endswith("h"):
        return x, y - G, S, G
    return x + S, y, G, S


GOAL_SIDE = {2: ("top", "bottom"), 4: ("top", "right", "bottom", "left")}


def quoridor_svg(view: dict, last_move: bool = True, arrows=()) -> str:
    n, players = view["size"], view["players"]
    side = 2 * M + n * S + (n - 1) * G
    width, height = side, side + 2 * PANEL
    out = []
    bx0, by0 = _xy(0, n - 1, n)
    span = n * S + (n - 1) * G
    out.append(el("rect", x=bx0 - 6, y=by0 - 6, width=span + 12, height=span + 12, rx=6, fill="#7a4a24"))
    # goal sides: a band in the colour of the player who must reach it
    for p, where in enumerate(GOAL_SIDE[players]):
        c = SEAT_COLOURS[p]
        band = {"top": (bx0, by0 - 6, span, 4), "bottom": (bx0, by0 + span + 2, span, 4),
                "right": (bx0 + span + 2, by0, 4, span), "left": (bx0 - 6, by0, 4, span)}[where]
        out.append(el("rect", x=band[0], y=band[1], width=band[2], height=band[3], fill=c))
    last = view.get("last") if last_move else None
    marked = set()
    if last and not last["move"].endswith(("h", "v")) and last["move"] != "--":
        marked = {last["move"], last["from"]}
    for row in range(n):
        for col in range(n):
            name = f"{COLUMNS[col]}{row + 1}"
            x, y = _xy(col, row, n)
            fill = "#f3d9a4" if name in marked else "#e8c48a"
            out.append(el("rect", x=x, y=y, width=S, height=S, rx=3, fill=fill, id=f"sq-{name}",
                          class_="sq" + (" last" if name in marked else ""), data_move=name))
    for i in range(n):
        x, _ = _xy(i, 0, n)
        out.append(text(x + S / 2, PANEL + side - M / 2 + 2, COLUMNS[i], size=13))
        _, y = _xy(0, i, n)
        out.append(text(M / 2 - 2, y + S / 2, i + 1, size=13))
    for row in range(n - 1):
        for col in range(n - 1):
            for kind in "hv":
                name = f"{COLUMNS[col]}{row + 1}{kind}"
                x, y, w, h = _slot_rect(name, n)
                out.append(el("rect", x=x, y=y, width=w, height=h, fill="transparent", id=f"wall-{name}",
                              class_="slot", data_move=name))
    for name in view["walls"]:
        x, y, w, h = _wall_rect(name, n)
        lw = last and last["move"] == name
        out.append(el("rect", x=x + 1, y=y + 1, width=w - 2, height=h - 2, rx=2, fill="#3b2414",
                      stroke="#f5b700" if lw else "none", stroke_width=2.5 if lw else None, class_="wall"))
    for p, sq in enumerate(view["pawns"]):
        cx, cy = _centre(sq, n)
        moving = view["to_move"] == p
        out.append(el("circle", cx=cx, cy=cy, r=S * 0.36, fill=SEAT_COLOURS[p], stroke=INK if not moving else "#fff",
                      stroke_width=3 if moving else 1.5, id=f"pawn-{p + 1}", class_="pawn"))
        out.append(text(cx, cy, p + 1, size=14, fill="#fff", weight="bold"))
    for item in arrows:
        # {"arrow": item, "faint": True}: a weaker line's move (MultiPV), drawn thinner and paler
        faint = isinstance(item, dict) and bool(item.get("faint"))
        if isinstance(item, dict):
            item = item["arrow"]
        if isinstance(item, str) and item.endswith(("h", "v")):
            x, y, w, h = _wall_rect(item, n)
            out.append(el("rect", x=x + 1, y=y + 1, width=w - 2, height=h - 2, rx=2,
                          fill="#8fd694" if faint else "#15781b", opacity=0.7 if faint else 0.55,
                          class_="arrow faint" if faint else "arrow"))
            continue
        if isinstance(item, str):
            if view["to_move"] is None:
                continue
            item = (view["pawns"][view["to_move"]], item)
        (x1, y1), (x2, y2) = _centre(item[0], n), _centre(item[1], n)
        d = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
        k = S * 0.4 / d          # start at the pawn's rim, not over its number
        out.append(arrow(x1 + (x2 - x1) * k, y1 + (y2 - y1) * k, x2, y2,
                         **({"colour": "#8fd694", "width": 4, "opacity": 0.7, "class_": "arrow faint"}
                            if faint else {})))
    # walls in hand: players 1 and 3 below, 2 and 4 above
    for p, left in enumerate(view["walls_left"]):
        top = p % 2 == 1
        y = 8 if top else height - PANEL + 8
        x = M + (span / 2 if p >= 2 else 0)
        out.append(el("circle", cx=x + 8, cy=y + 15, r=8, fill=SEAT_COLOURS[p]))
        out.append(text(x + 24, y + 15, f"{left}", size=14, anchor="start", weight="bold"))
        for k in range(min(left, 20)):
            out.append(el("rect", x=x + 46 + k * 9, y=y + 3, width=5, height=24, rx=1.5, fill="#3b2414"))
    if view["over"]:
        status = (f"player {view['winner'] + 1} wins" if view["winner"] is not None else "draw (move limit)")
    else:
        status = f"player {view['to_move'] + 1} to move"
    out.append(text(width - M, PANEL + M / 2 - 4, status, size=13, anchor="end", class_="status", weight="bold"))
    return document(width, height, out, title=f"Quoridor {view['position']}")


def click_paths(move: str) -> list[list[str]]:
    """The ids a player clicks, in order, to make `move` on the picture."""
    if move == "--":
        return []
    return [[f"wall-{move}" if move.endswith(("h", "v")) else f"sq-{move}"]]
