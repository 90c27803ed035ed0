"""Quoridor as SVG: `quoridor_svg(state.view())`, a pure function of the
view. Squares, wall slots and pawns carry ids (`sq-e2`, `wall-e3h`,
`pawn-1`) so a web page can make them clickable."""

from __future__ import annotations

from dataclasses import dataclass

from crossridor.games.svg import INK, SEAT_COLOURS, arrow, document, el, text

S, G, M = 40, 10, 34      # square, gutter (wall slot) and margin, in pixels
COLUMNS = "abcdefghi"
PANEL = 46                 # height of a walls-in-hand panel
MIN_WIDTH = 260            # room for a walls-in-hand panel and the status beside a narrow board


@dataclass(frozen=True)
class Frame:
    """Where the board sits in the picture: `w` columns, `h` rows, its left
    edge at `left` (boards narrower than the panels are centred)."""

    w: int
    h: int
    left: float

    @classmethod
    def of(cls, view: dict) -> "Frame":
        w, h = view["width"], view["height"]
        return cls(w, h, max(0.0, (MIN_WIDTH - _span(w) - 2 * M) / 2) + M)

    @property
    def width(self) -> float:
        """The picture's width."""
        return max(MIN_WIDTH, 2 * M + _span(self.w))

    def xy(self, col: int, row: int) -> tuple[float, float]:
        """Top-left corner of square (col, row); row 0 at the bottom."""
        return self.left + col * (S + G), PANEL + M + (self.h - 1 - row) * (S + G)

    def centre(self, name: str) -> tuple[float, float]:
        x, y = self.xy(*_square(name))
        return x + S / 2, y + S / 2

    def wall_rect(self, name: str) -> tuple[float, float, float, float]:
        """x, y, width, height of a placed wall (it covers two squares' sides)."""
        x, y = self.xy(*_square(name))
        if name.endswith("h"):       # between rows row and row+1, over columns col, col+1
            return x, y - G, 2 * S + G, G
        return x + S, y - S - G, G, 2 * S + G   # between columns col, col+1, over rows row, row+1

    def slot_rect(self, name: str) -> tuple[float, float, float, float]:
        """The click target of a wall: the gutter segment by its anchor square
        (above it for 'h', right of it for 'v'), so targets never overlap."""
        x, y = self.xy(*_square(name))
        if name.endswith("h"):
            return x, y - G, S, G
        return x + S, y, G, S


def _span(squares: int) -> int:
    """Pixels across `squares` squares and the gutters between them."""
    return squares * S + (squares - 1) * G


def _square(name: str) -> tuple[int, int]:
    return COLUMNS.index(name[0]), int(name[1:].rstrip("hv")) - 1


GOAL_SIDE = {2: ("top", "bottom"), 4: ("top", "right", "bottom", "left")}


def quoridor_svg(view: dict, last_move: bool = True, arrows=()) -> str:
    frame, players = Frame.of(view), view["players"]
    w, h = frame.w, frame.h
    span_x, span_y = _span(w), _span(h)
    width, height = frame.width, 2 * M + span_y + 2 * PANEL
    out = []
    bx0, by0 = frame.xy(0, h - 1)
    out.append(el("rect", x=bx0 - 6, y=by0 - 6, width=span_x + 12, height=span_y + 12, rx=6, fill="#7a4a24"))
    # goal sides: a band in the colour of the player who must reach it
    for p, where in enumerate(GOAL_SIDE[players]):
        c = SEAT_COLOURS[p]
        band = {"top": (bx0, by0 - 6, span_x, 4), "bottom": (bx0, by0 + span_y + 2, span_x, 4),
                "right": (bx0 + span_x + 2, by0, 4, span_y), "left": (bx0 - 6, by0, 4, span_y)}[where]
        out.append(el("rect", x=band[0], y=band[1], width=band[2], height=band[3], fill=c))
    last = view.get("last") if last_move else None
    marked = set()
    if last and not last["move"].endswith(("h", "v")) and last["move"] != "--":
        marked = {last["move"], last["from"]}
    for row in range(h):
        for col in range(w):
            name = f"{COLUMNS[col]}{row + 1}"
            x, y = frame.xy(col, row)
            fill = "#f3d9a4" if name in marked else "#e8c48a"
            out.append(el("rect", x=x, y=y, width=S, height=S, rx=3, fill=fill, id=f"sq-{name}",
                          class_="sq" + (" last" if name in marked else ""), data_move=name))
    for col in range(w):
        x, _ = frame.xy(col, 0)
        out.append(text(x + S / 2, height - PANEL - M / 2 + 2, COLUMNS[col], size=13))
    for row in range(h):
        _, y = frame.xy(0, row)
        out.append(text(frame.left - M / 2 - 2, y + S / 2, row + 1, size=13))
    for row in range(h - 1):
        for col in range(w - 1):
            for kind in "hv":
                name = f"{COLUMNS[col]}{row + 1}{kind}"
                x, y, sw, sh = frame.slot_rect(name)
                out.append(el("rect", x=x, y=y, width=sw, height=sh, fill="transparent", id=f"wall-{name}",
                              class_="slot", data_move=name))
    for name in view["walls"]:
        x, y, ww, wh = frame.wall_rect(name)
        lw = last and last["move"] == name
        out.append(el("rect", x=x + 1, y=y + 1, width=ww - 2, height=wh - 2, rx=2, fill="#3b2414",
                      stroke="#f5b700" if lw else "none", stroke_width=2.5 if lw else None, class_="wall"))
    for p, sq in enumerate(view["pawns"]):
        cx, cy = frame.centre(sq)
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
            x, y, ww, wh = frame.wall_rect(item)
            out.append(el("rect", x=x + 1, y=y + 1, width=ww - 2, height=wh - 2, rx=2,
                          fill="#8fd694" if faint else "#15781b", opacity=0.7 if faint else 0.55,
                          class_="arrow faint" if faint else "arrow"))
            continue
        if isinstance(item, str):
            if view["to_move"] is None:
                continue
            item = (view["pawns"][view["to_move"]], item)
        (x1, y1), (x2, y2) = frame.centre(item[0]), frame.centre(item[1])
        d = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
        k = S * 0.4 / d          # start at the pawn's rim, not over its number
        out.append(arrow(x1 + (x2 - x1) * k, y1 + (y2 - y1) * k, x2, y2,
                         **({"colour": "#8fd694", "width": 4, "opacity": 0.7, "class_": "arrow faint"}
                            if faint else {})))
    # walls in hand: players 1 and 3 below, 2 and 4 above
    for p, left in enumerate(view["walls_left"]):
        top = p % 2 == 1
        y = 8 if top else height - PANEL + 8
        x = M + (span_x / 2 if p >= 2 else 0)
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
