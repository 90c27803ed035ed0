"""Qwatrobat as SVG: `qwatrobat_svg(state.view(viewer))`, a pure function of
the view, so a picture shows exactly what the viewer may see (unseen cards as
backs). The top card of each column of the player to move carries an id,
`col-2`, to be clicked."""

from __future__ import annotations

from crossridor.games.svg import SEAT_COLOURS, card_back, document, el, text

W, H, M = 44, 60, 24         # card width, height, margin


def _qcard(x, y, value, owner_colour, **kw) -> str:
    if value == "?":
        kw["class_"] = " ".join(filter(None, ("back", kw.get("class_"))))
        return card_back(x, y, W, H, **kw)
    out = el("rect", x=x, y=y, width=W, height=H, rx=5, fill="#fffdf7", stroke=owner_colour, stroke_width=2.5, **kw)
    out += text(x + W / 2, y + H / 2 - 6, value, size=24, weight="bold", fill=owner_colour)
    pips = "".join(el("circle", cx=x + W / 2 + (i - (value - 1) / 2) * 8, cy=y + H - 11, r=2.6, fill=owner_colour)
                   for i in range(value))
    return out + pips


def qwatrobat_svg(view: dict, last_move: bool = True) -> str:
    n = view["ncols"]
    width = max(2 * M + n * (W + 10) + 210, 460)
    height = 2 * (2 * H + 30) + H + 110
    out = []
    mover = view["to_move"]
    field_y = M + 2 * H + 40
    for p, top in ((1, True), (0, False)):
        seat = view["seats"][p]
        colour = SEAT_COLOURS[p]
        y0 = M if top else field_y + H + 40
        label = f"player {p + 1}" + (" (you)" if view["viewer"] == p else "") + f": {seat['score']} points"
        out.append(text(2 * M + n * (W + 10) + 10, y0 + H, label, size=13, anchor="start", fill=colour,
                        weight="bold"))
        if not seat["laid"]:
            out.append(text(M, y0 + H, "no layout yet", size=12, anchor="start", fill="#666"))
            continue
        for c in range(n):
            x = M + c * (W + 10)
            # the front row faces the battlefield: below the back row for the player on top
            rows = (("back", y0), ("front", y0 + H + 8)) if top else (("front", y0), ("back", y0 + H + 8))
            top_card = "front" if seat["front"][c] is not None else "back"
            for which, y in rows:
                value = seat[which][c]
                if value is None:
                    out.append(el("rect", x=x, y=y, width=W, height=H, rx=5, fill="none", stroke="#ccc",
                                  stroke_dasharray="4 3"))
                    continue
                tid = f"col-{c + 1}" if p == mover and which == top_card else None
                out.append(_qcard(x, y, value, colour, id=tid, class_="card" if tid else None,
                                  data_move=tid and f"c{c + 1}"))
            out.append(text(x + W / 2, (y0 - 9) if top else (y0 + 2 * H + 19), f"c{c + 1}", size=10, fill="#666"))
    out.append(el("rect", x=M - 8, y=field_y - 8, width=width - 2 * M + 16, height=H + 16, rx=8,
                  fill="#e9e2cf", stroke="#b8a98a"))
    for i, (value, owner) in enumerate(view["field"]):
        out.append(_qcard(M + i * (W + 8), field_y, value, SEAT_COLOURS[owner]))
    if not view["field"]:
        out.append(text(width / 2, field_y + H / 2, "battlefield", size=12, fill="#8a7d60"))
    rnd = min(view["round"] + 1, view["rounds"])
    pts = view["points"][rnd - 1]
    out.append(text(width - M, field_y + H / 2, f"round {rnd}/{view['rounds']}: {pts} points", size=12,
                    anchor="end"))
    if last_move and view["history"]:
        out.append(text(M, height - 36, f"last move: {view['history'][-1]}", size=12, anchor="start"))
    out.append(text(width - M, height - 16, view["status"], size=12, anchor="end", weight="bold", class_="status"))
    return document(width, height, out, title="Qwatrobat")


def click_paths(move: str) -> list[list[str]]:
    """A push is a click on the column's top card; a setup is typed or chosen."""
    if move[:1] == "c" and move[1:].isdigit():
        return [[f"col-{move[1:]}"]]
    return []
