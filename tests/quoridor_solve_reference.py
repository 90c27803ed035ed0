"""A tiny, slow, independent solver of two-player Quoridor for the tests:
the rules written again from docs/rules/quoridor.md (nothing shared with
the core or games/quoridor), every position reachable from the root
enumerated, then valued by rounds: round d finds the positions won in d
plies (a child lost in d - 1) and lost in d plies (every child won, the
longest in d - 1); what no round reaches is a draw.

The board is `width` columns by `height` rows (height defaults to width);
both pawns start on column width // 2, player 1 on row 1, player 2 on the
last row.

A position: (pawn 1, pawn 2, side to move, horizontal walls, vertical
walls, walls left 1, walls left 2); squares and anchors are (col, row)."""

from __future__ import annotations

COLS = "abcdefghi"
DIRS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def square(col, row):
    return f"{COLS[col]}{row + 1}"


class Rules:
    def __init__(self, width: int, height: int | None = None):
        self.width = width
        self.height = width if height is None else height

    def start(self, walls: int):
        mid = self.width // 2
        return ((mid, 0), (mid, self.height - 1), 0, frozenset(), frozenset(), walls, walls)

    def on_board(self, sq):
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    @staticmethod
    def blocked(a, b, hw, vw):
        """Is the step between adjacent squares a and b crossed by a wall?"""
        (ca, ra), (cb, rb) = a, b
        if ca == cb:      # vertical step: a horizontal wall below the upper row
            r = min(ra, rb)
            return (ca, r) in hw or (ca - 1, r) in hw
        c = min(ca, cb)
        return (c, ra) in vw or (c, ra - 1) in vw

    def winner(self, pos):
        p0, p1 = pos[0], pos[1]
        if p0[1] == self.height - 1:
            return 0
        if p1[1] == 0:
            return 1
        return None

    def has_path(self, sq, goal_row, hw, vw):
        seen, todo = {sq}, [sq]
        while todo:
            s = todo.pop()
            if s[1] == goal_row:
                return True
            for dc, dr in DIRS:
                t = (s[0] + dc, s[1] + dr)
                if self.on_board(t) and t not in seen and not self.blocked(s, t, hw, vw):
                    seen.add(t)
                    todo.append(t)
        return False

    def pawn_targets(self, me, other, hw, vw):
        out = []
        for dc, dr in DIRS:
            nb = (me[0] + dc, me[1] + dr)
            if not self.on_board(nb) or self.blocked(me, nb, hw, vw):
                continue
            if nb != other:
                out.append(nb)
                continue
            behind = (nb[0] + dc, nb[1] + dr)
            if self.on_board(behind) and not self.blocked(nb, behind, hw, vw):
                out.append(behind)
                continue
            for sc, sr in ((dr, dc), (-dr, -dc)):       # the two sides of the jumped pawn
                side = (nb[0] + sc, nb[1] + sr)
                if self.on_board(side) and not self.blocked(nb, side, hw, vw):
                    out.append(side)
        return out

    def walls(self, pos):
        p0, p1, tm, hw, vw = pos[:5]
        out = []
        for kind in "hv":
            for c in range(self.width - 1):
                for r in range(self.height - 1):
                    a = (c, r)
                    if a in hw or a in vw:
                        continue
                    if kind == "h" and ((c - 1, r) in hw or (c + 1, r) in hw):
                        continue
                    if kind == "v" and ((c, r - 1) in vw or (c, r + 1) in vw):
                        continue
                    nh, nv = (hw | {a}, vw) if kind == "h" else (hw, vw | {a})
                    if self.has_path(p0, self.height - 1, nh, nv) and self.has_path(p1, 0, nh, nv):
                        out.append((square(c, r) + kind, nh, nv))
        return out

    def children(self, pos):
        """[(move name, child position)]; [] when the game is over."""
        if self.winner(pos) is not None:
            return []
        p0, p1, tm, hw, vw, w0, w1 = pos
        me, other = (p0, p1) if tm == 0 else (p1, p0)
        out = []
        for t in self.pawn_targets(me, other, hw, vw):
            child = (t, p1, 1, hw, vw, w0, w1) if tm == 0 else (p0, t, 0, hw, vw, w0, w1)
            out.append((square(*t), child))
        if (w0 if tm == 0 else w1) > 0:
            for name, nh, nv in self.walls(pos):
                child = (p0, p1, 1 - tm, frozenset(nh), frozenset(nv),
                         w0 - (tm == 0), w1 - (tm == 1))
                out.append((name, child))
        if not out:
            out.append(("--", (p0, p1, 1 - tm, hw, vw, w0, w1)))
        return out

    def position_string(self, pos):
        p0, p1, tm, hw, vw, w0, w1 = pos
        walls = sorted([(r, c, "h") for c, r in hw] + [(r, c, "v") for c, r in vw])
        text = ",".join(square(c, r) + k for r, c, k in walls) or "-"
        board = self.width if self.width == self.height else f"{self.width}x{self.height}"
        return f"{board}x2:{square(*p0)},{square(*p1)}:{w0},{w1}:{text}:{tm + 1}"


def solve_all(rules: Rules, root) -> dict:
    """Every position reachable from root -> (outcome for the side to move:
    1, 0 or -1; plies to the end, None for a draw)."""
    kids, todo = {}, [root]
    while todo:
        pos = todo.pop()
        if pos in kids:
            continue
        kids[pos] = [c for _, c in rules.children(pos)]
        todo.extend(c for c in kids[pos] if c not in kids)
    value = {pos: (-1, 0) for pos, cs in kids.items() if not cs}
    d = 0
    while True:
        d += 1
        found = {}
        for pos, cs in kids.items():
            if pos in value:
                continue
            vals = [value.get(c) for c in cs]
            if any(v == (-1, d - 1) for v in vals):
                found[pos] = (1, d)
            elif all(v is not None and v[0] == 1 for v in vals):
                found[pos] = (-1, d)
        if not found:
            break
        value.update(found)
    return {pos: value.get(pos, (0, None)) for pos in kids}


def first_moves(rules: Rules, root, values) -> list[str]:
    """The winning first moves of root (every move to a position the
    opponent loses)."""
    return sorted(name for name, c in rules.children(root) if values[c][0] == -1)
