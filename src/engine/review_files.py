"""A game review as pictures and text files: the evaluation graph as SVG
(`review_svg`: the expected score by ply, the marks as coloured dots) and
the annotated game as PGN-style text (`review_pgn`: NAGs and comments with
the best move and the scores)."""

from __future__ import annotations

import datetime
from xml.sax.saxutils import escape

from crossridor.engine.analysis import Review, expected_curve
from crossridor.engine.match.pgn import options_text, tagged_text

WIDTH, HEIGHT = 760, 320
LEFT, RIGHT, TOP, BOTTOM = 60, 110, 36, 46          # margins: the legend sits on the right
SEAT_COLOURS = ("#1f5fa8", "#2e8b57", "#8e44ad", "#b9770e")
MARK_COLOURS = {"inaccuracy": "#e0b000", "mistake": "#e67e22", "blunder": "#c0392b"}
# Numeric Annotation Glyphs: ?! dubious, ? mistake, ?? blunder
NAGS = {"inaccuracy": "$6", "mistake": "$2", "blunder": "$4"}


def _graphed_seats(rev: Review) -> list[int]:
    """Seat 1 alone when the other side's value is its complement, else every seat."""
    return [1] if rev.two_sides else list(range(1, rev.num_players + 1))


def review_svg(rev: Review) -> str:
    """The evaluation over the game as an SVG document: the expected score
    (0..1) of seat 1 by ply (of every seat, each at its side's moves, when
    the game has more than two sides), a dot for each marked move on the
    curve just after it, axes with labels and a legend."""
    last = max(len(rev.moves) + 1, 2)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(ply: float) -> float:
        return round(LEFT + plot_w * (ply - 1) / (last - 1), 2)

    def y(value: float) -> float:
        return round(TOP + plot_h * (1.0 - value), 2)

    seats = _graphed_seats(rev)
    who = "seat 1" if seats == [1] else "each seat"
    title = f"{rev.game}: expected score of {who} by ply"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f"<title>{escape(title)}</title>",
           f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
           f'<text x="{LEFT}" y="20" font-size="14">{escape(title)}</text>']
    for value in (0.0, 0.25, 0.5, 0.75, 1.0):
        dash = "" if value in (0.0, 1.0) else ' stroke-dasharray="4 3"'
        out.append(f'<line x1="{LEFT}" y1="{y(value)}" x2="{LEFT + plot_w}" y2="{y(value)}" '
                   f'stroke="#bbbbbb"{dash}/>')
        out.append(f'<text x="{LEFT - 6}" y="{y(value) + 4}" text-anchor="end">{value:g}</text>')
    step = max(1, -(-(last - 1) // 10))
    for ply in range(1, last + 1, step):
        out.append(f'<line x1="{x(ply)}" y1="{TOP + plot_h}" x2="{x(ply)}" y2="{TOP + plot_h + 4}" stroke="#555555"/>')
        out.append(f'<text x="{x(ply)}" y="{TOP + plot_h + 17}" text-anchor="middle">{ply}</text>')
    out.append(f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="#555555"/>')
    out.append(f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}" stroke="#555555"/>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 8}" text-anchor="middle">ply (before its move)</text>')
    out.append(f'<text x="16" y="{TOP + plot_h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {TOP + plot_h / 2})">expected score</text>')
    for s in seats:
        points = expected_curve(rev, s)
        if points:
            colour = SEAT_COLOURS[(s - 1) % len(SEAT_COLOURS)]
            path = " ".join(f"{x(p)},{y(v)}" for p, v in points)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2" '
                       f'class="seat-{s}"/>')
    side_of = {p: i for i, side in enumerate(rev.sides) for p in side}
    curves = {s: dict(expected_curve(rev, s)) for s in seats}
    for p in rev.plies:
        if p.mark is None or p.expected_after is None or p.seat is None:
            continue
        value = p.expected_after
        curve = curves.get(p.seat, {})
        if seats == [1] and side_of.get(p.seat - 1) != side_of.get(0):
            value = 1.0 - value
            curve = curves[1]
        # on the curve where it has a point after the move (the next position's
        # own search), else the value of the move played
        value = curve.get(p.ply + 1, value)
        tip = (f"ply {p.ply}, seat {p.seat}: {p.played} is a {p.mark} (best {p.best}; expected "
               f"{p.expected_before:.2f} -> {p.expected_after:.2f})")
        out.append(f'<circle cx="{x(p.ply + 1)}" cy="{y(value)}" r="5" fill="{MARK_COLOURS[p.mark]}" '
                   f'stroke="#333333" class="{p.mark}"><title>{escape(tip)}</title></circle>')
    legend = [(f"seat {s}", SEAT_COLOURS[(s - 1) % len(SEAT_COLOURS)], "line") for s in seats]
    legend += [(name, colour, "dot") for name, colour in MARK_COLOURS.items()]
    for i, (label, colour, kind) in enumerate(legend):
        ly = TOP + 10 + 18 * i
        lx = WIDTH - RIGHT + 12
        if kind == "line":
            out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 18}" y2="{ly}" stroke="{colour}" stroke-width="2"/>')
        else:
            out.append(f'<circle cx="{lx + 9}" cy="{ly}" r="5" fill="{colour}" stroke="#333333"/>')
        out.append(f'<text x="{lx + 24}" y="{ly + 4}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _result_text(rev: Review) -> str:
    if rev.returns is None:
        return "*"
    best = max(rev.returns)
    winners = [i for i, r in enumerate(rev.returns) if r == best]
    if len(winners) == len(rev.returns):
        return "1/2-1/2" if len(winners) == 2 else "draw"
    return "-".join("1" if i in winners else "0" for i in range(len(rev.returns)))


def _score(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:+.3f}" if not float(value).is_integer() else f"{int(value):+d}"


def review_pgn(rev: Review, result: str | None = None, date: datetime.date | None = None) -> str:
    """The reviewed game as PGN-style text (`crossridor.engine.match.pgn`,
    which reads it back): each judged move followed by its mark's NAG ($6
    inaccuracy, $2 mistake, $4 blunder) and a comment with the best move
    and line, the expected score before -> after and the raw scores.
    `result`: the game's result as its file gave it (default: from the
    final position, `*` when the moves do not end the game)."""
    settings = " ".join(f"{k} {v}" for k, v in (("depth", rev.limits.depth), ("nodes", rev.limits.nodes),
                                                 ("sims", rev.limits.sims), ("time", rev.limits.time))
                        if v is not None)
    tags: list = [("Event", "crossridor analyse"),
                  ("Date", (date or datetime.date.today()).strftime("%Y.%m.%d")),
                  ("Result", result or _result_text(rev)), ("Game", rev.game),
                  ("Options", options_text(rev.params)),
                  ("Annotator", f"crossridor analyse {rev.algorithm or 'default'} {settings} seed {rev.seed}")]
    if "deal_seed" in rev.start:
        tags.append(("DealSeed", rev.start["deal_seed"]))
    if "position" in rev.start:
        tags.append(("Position", rev.start["position"]))
    tags.append(("PlyCount", len(rev.moves)))
    by_ply = {p.ply: p for p in rev.plies}
    notes = []
    for ply in range(1, len(rev.moves) + 1):
        p = by_ply.get(ply)
        if p is None or p.seat is None:
            notes.append("")
            continue
        pv = " ".join(p.pv).replace("{", "(").replace("}", ")")
        comment = (f"{{best {p.best} ({pv}); expected {p.expected_before:.2f} -> {p.expected_after:.2f}; "
                   f"score {_score(p.score_before)} -> {_score(p.score_after)}}}")
        notes.append(f"{NAGS[p.mark]} {comment}" if p.mark else comment)
    return tagged_text(tags, list(rev.moves), rev.num_players, tags[2][1], notes)
