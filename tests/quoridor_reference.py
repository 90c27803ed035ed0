"""Plain, slow, obviously correct Quoridor rules: the reference the Cython core
is held to. Written straight from docs/rules/quoridor.md; no bitboards.

Internals:
- the board is W columns (a, b, ...) by H rows (1, 2, ...); `size` is N for
  N x N, or 'WxH' text, or a pair (W, H), as the game's `size` option;
- a square is (col, row), both 0-based: (0, 0) is `a1`, (W-1, H-1) the far corner;
- a wall is (col, row, 'h' | 'v') with its anchor (the touched square closest
  to a1) at (col, row), 0 <= col <= W-2, 0 <= row <= H-2:
    (c, r, 'h') lies between rows r and r+1 and covers columns c and c+1;
    (c, r, 'v') lies between columns c and c+1 and covers rows r and r+1;
- moves are the notation strings of the rule file: a pawn move is its landing
  square (`e2`), a wall its anchor plus orientation (`e3h`), a pass `--`.

Players are 0-based; player 0 is the rule file's "player 1".

The module also holds RULE_CASES, the table of hand-made positions that both
test_quoridor_reference.py (this implementation) and test_quoridor_rules.py
(the core) check, so the two implementations are held to one list.
"""

from __future__ import annotations

from collections import deque

PASS = "--"
DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))   # up, down, right, left


def square_name(sq: tuple[int, int]) -> str:
    col, row = sq
    return f"{chr(ord('a') + col)}{row + 1}"


def wall_name(wall: tuple[int, int, str]) -> str:
    col, row, orientation = wall
    return square_name((col, row)) + orientation


def parse_square(text: str) -> tuple[int, int]:
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


def board_shape(size) -> tuple[int, int]:
    """(W, H) of a size: N, 'N', 'WxH' or (W, H)."""
    if isinstance(size, tuple):
        width, height = size
    elif isinstance(size, str) and "x" in size:
        width, height = (int(part) for part in size.split("x"))
    else:
        width = height = int(size)
    return width, height


def board_name(width: int, height: int) -> str:
    """The head of a position string without the players: 'N' on squares, 'WxH' otherwise."""
    return str(width) if width == height else f"{width}x{height}"


class RefQuoridor:
    """A Quoridor position with make / unmake. `legal_moves()` is a set of
    notation strings."""

    def __init__(self, size: int | str | tuple[int, int] = 9, players: int = 2, walls: int | None = None):
        width, height = board_shape(size)
        if players not in (2, 4):
            raise ValueError(f"players must be 2 or 4, got {players!r}")
        if players == 2 and not (2 <= width <= 9 and 3 <= height <= 9):
            raise ValueError(f"a two-player board is 2..9 wide and 3..9 high, got {width}x{height}")
        if players == 4 and not (width == height and width % 2 == 1 and 3 <= width <= 9):
            raise ValueError(f"a four-player board is square and odd, 3..9, got {width}x{height}")
        if walls is None:
            walls = 10 if players == 2 else 5
        if walls < 0:
            raise ValueError(f"walls must be >= 0, got {walls!r}")
        self.width, self.height = width, height
        self.players = players
        mid, top = width // 2, height - 1
        if players == 2:
            # both pawns on column W // 2: player 1 on row 1 -> row H, player 2 on row H -> row 1
            self._pawns = [(mid, 0), (mid, top)]
        else:
            # (square board) e1 -> row N, a5 -> column N, e9 -> row 1, i5 -> column a
            self._pawns = [(mid, 0), (0, mid), (mid, top), (top, mid)]
        self.walls: set[tuple[int, int, str]] = set()
        self.walls_left = [walls] * players
        self.current_player = 0
        self.winner: int | None = None
        self._history: list[tuple] = []   # snapshots taken before each move
        self._legal_cache: set[str] | None = None
        # the board's squares and each player's goal squares, for the path searches
        self._squares = frozenset((c, r) for c in range(width) for r in range(height))
        self._goals = [frozenset(sq for sq in self._squares if self.is_goal(p, sq)) for p in range(players)]

    # ----------------------------------------------------------- queries

    @property
    def pawns(self) -> list[str]:
        return [square_name(sq) for sq in self._pawns]

    @property
    def ply(self) -> int:
        return len(self._history)

    def is_terminal(self) -> bool:
        return self.winner is not None

    def on_board(self, sq: tuple[int, int]) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height

    def is_goal(self, player: int, sq: tuple[int, int]) -> bool:
        col, row = sq
        top, right = self.height - 1, self.width - 1
        if self.players == 2:
            return row == top if player == 0 else row == 0
        return (row == top, col == right, row == 0, col == 0)[player]

    def wall_between(self, a: tuple[int, int], b: tuple[int, int],
                     walls: set | None = None) -> bool:
        """True when a wall separates the orthogonally adjacent squares a, b."""
        walls = self.walls if walls is None else walls
        (c1, r1), (c2, r2) = a, b
        if c1 == c2:                      # a step up or down crosses a horizontal groove
            r = min(r1, r2)
            return (c1, r, "h") in walls or (c1 - 1, r, "h") in walls
        c = min(c1, c2)                   # a step left or right crosses a vertical groove
        return (c, r1, "v") in walls or (c, r1 - 1, "v") in walls

    def has_path(self, player: int, walls: set | None = None) -> bool:
        """Breadth-first search from the player's pawn to its goal side.
        Pawns are ignored (rule file: paths ignore pawns)."""
        return self.shortest_path(player, walls) is not None

    def shortest_path(self, player: int, walls: set | None = None,
                      start: tuple[int, int] | None = None) -> list | None:
        """A shortest list of squares from the pawn (or `start`) to the
        player's goal side, pawns ignored; None when there is none."""
        start = self._pawns[player] if start is None else start
        walls = self.walls if walls is None else walls
        # the steps the walls block, both ways: the same test as wall_between, looked up once
        blocked = {step for wall in walls for a, b in self.wall_steps(wall) for step in ((a, b), (b, a))}
        squares, goal = self._squares, self._goals[player]
        parent = {start: None}
        queue = deque([start])
        while queue:
            sq = queue.popleft()
            if sq in goal:
                path = []
                while sq is not None:
                    path.append(sq)
                    sq = parent[sq]
                return path[::-1]
            for dc, dr in DIRECTIONS:
                nxt = (sq[0] + dc, sq[1] + dr)
                if nxt not in parent and nxt in squares and (sq, nxt) not in blocked:
                    parent[nxt] = sq
                    queue.append(nxt)
        return None

    def pawn_moves(self) -> set[str]:
        """Landing squares of the player to move, per 'Pawn moves'."""
        me = self._pawns[self.current_player]
        occupied = set(self._pawns)
        out = set()
        for dc, dr in DIRECTIONS:
            nxt = (me[0] + dc, me[1] + dr)
            if not self.on_board(nxt) or self.wall_between(me, nxt):
                continue
            if nxt not in occupied:
                out.add(nxt)
                continue
            # Face to face with the pawn on nxt: straight jump if possible...
            behind = (nxt[0] + dc, nxt[1] + dr)
            if (self.on_board(behind) and not self.wall_between(nxt, behind)
                    and behind not in occupied):
                out.add(behind)
                continue
            # ...else (wall, edge or pawn behind) a square beside the jumped pawn.
            for sc, sr in ((dr, dc), (-dr, -dc)):    # the two perpendicular directions
                side = (nxt[0] + sc, nxt[1] + sr)
                if (self.on_board(side) and not self.wall_between(nxt, side)
                        and side not in occupied):
                    out.add(side)
        return {square_name(sq) for sq in out}

    def wall_conflicts(self, wall: tuple[int, int, str]) -> bool:
        """True when the wall overlaps a wall of the same orientation or
        crosses one of the other orientation at the same intersection."""
        c, r, o = wall
        if o == "h":
            clash = [(c, r, "h"), (c - 1, r, "h"), (c + 1, r, "h"), (c, r, "v")]
        else:
            clash = [(c, r, "v"), (c, r - 1, "v"), (c, r + 1, "v"), (c, r, "h")]
        return any(w in self.walls for w in clash)

    def all_wall_anchors(self):
        for c in range(self.width - 1):
            for r in range(self.height - 1):
                for o in "hv":
                    yield (c, r, o)

    def wall_moves(self, slow: bool = False) -> set[str]:
        """Legal walls of the player to move. With slow=False, a pawn whose
        current shortest path the wall does not cut keeps that path, so only
        the pawns whose path it cuts are searched again. slow=True searches
        again for every pawn and every wall."""
        if self.walls_left[self.current_player] == 0:
            return set()
        path_steps = []            # per player: the steps of one shortest path
        for p in range(self.players):
            path = self.shortest_path(p)
            steps = set(zip(path, path[1:])) | set(zip(path[1:], path))
            path_steps.append(steps)
        out = set()
        for wall in self.all_wall_anchors():
            if self.wall_conflicts(wall):
                continue
            trial = self.walls | {wall}
            cut = self.wall_steps(wall)
            if all(self.has_path(p, trial) for p in range(self.players)
                   if slow or any(step in path_steps[p] for step in cut)):
                out.add(wall_name(wall))
        return out

    @staticmethod
    def wall_steps(wall):
        """The two pawn steps (a, b) a wall blocks."""
        c, r, o = wall
        if o == "h":
            return [((c, r), (c, r + 1)), ((c + 1, r), (c + 1, r + 1))]
        return [((c, r), (c + 1, r)), ((c, r + 1), (c + 1, r + 1))]

    def legal_moves(self, slow: bool = False) -> set[str]:
        if self.winner is not None:
            return set()
        if slow:
            moves = self.pawn_moves() | self.wall_moves(slow=True)
            return moves or {PASS}
        if self._legal_cache is None:
            moves = self.pawn_moves() | self.wall_moves()
            self._legal_cache = moves or {PASS}
        return set(self._legal_cache)

    # ----------------------------------------------------------- make / unmake

    def position(self) -> str:
        """The position string of docs/rules/quoridor.md: 'Nx2:...' on N x N,
        'WxHx2:...' otherwise; the walls sorted by row, then column."""
        walls = ",".join(wall_name(w) for w in sorted(self.walls, key=lambda w: (w[1], w[0], w[2]))) or "-"
        return (f"{board_name(self.width, self.height)}x{self.players}:{','.join(self.pawns)}:"
                f"{','.join(str(n) for n in self.walls_left)}:{walls}:{self.current_player + 1}")

    def key(self) -> tuple:
        """Everything that defines the position (for equality checks)."""
        return (tuple(self._pawns), frozenset(self.walls), tuple(self.walls_left),
                self.current_player, self.winner)

    def play(self, text: str) -> None:
        move = text.strip().lower()
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {text!r} in ply {self.ply}")
        self._history.append((list(self._pawns), set(self.walls), list(self.walls_left),
                              self.current_player, self.winner))
        me = self.current_player
        if move == PASS:
            pass
        elif move[-1] in "hv":
            col, row = parse_square(move[:-1])
            self.walls.add((col, row, move[-1]))
            self.walls_left[me] -= 1
        else:
            sq = parse_square(move)
            self._pawns[me] = sq
            if self.is_goal(me, sq):
                self.winner = me
        self.current_player = (me + 1) % self.players
        self._legal_cache = None

    def play_all(self, moves: str | list[str]) -> "RefQuoridor":
        for m in (moves.split() if isinstance(moves, str) else moves):
            self.play(m)
        return self

    def undo(self) -> None:
        if not self._history:
            raise IndexError("undo at the start of the game")
        pawns, walls, walls_left, current, winner = self._history.pop()
        self._pawns, self.walls, self.walls_left = pawns, walls, walls_left
        self.current_player, self.winner = current, winner
        self._legal_cache = None

    def perft(self, depth: int) -> int:
        """Number of move sequences of length `depth` (games that end early
        count as the sequences that reach the end)."""
        if depth == 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for m in sorted(moves):
            self.play(m)
            total += self.perft(depth - 1)
            self.undo()
        return total


def new_ref(size: int | str = 9, players: int = 2, walls: int | None = None,
            moves: str | list[str] = "") -> RefQuoridor:
    return RefQuoridor(size, players, walls).play_all(moves)


# --------------------------------------------------------------------------
# Hand-made positions, checked against both implementations.
#
# Each case: id, game options, the moves from the start that reach the position,
# and what must hold there:
#   pawn_moves  the exact set of non-wall moves of the player to move;
#   legal       moves that must be legal;   illegal  moves that must not be;
#   to_move     the player to move (0-based);
#   no_walls    True: the player to move has no wall move at all;
#   winner      the expected winner (the position is terminal, no legal moves).
# Squares named in comments are the rule file's (a1 bottom-left).
# --------------------------------------------------------------------------

RULE_CASES = [
    dict(id="start-9x9",
         size=9, players=2, setup="",
         to_move=0, pawn_moves={"d1", "f1", "e2"},
         legal=["a1h", "h8h", "a1v", "h8v", "e1h"], illegal=["e1", "e3", "d2", "e9", "--"]),
    dict(id="start-5x5-second-player",
         size=5, players=2, setup="c2",
         to_move=1, pawn_moves={"b5", "d5", "c4"}),
    dict(id="blocked-step-by-wall",
         # d1h lies between rows 1 and 2 over d and e: e2 cannot step down.
         size=9, players=2, setup="e2 d1h",
         to_move=0, pawn_moves={"d2", "f2", "e3"}, illegal=["e1"]),
    dict(id="wall-blocks-step-up",
         size=9, players=2, setup="a1h e1h",
         to_move=0, pawn_moves={"d1", "f1"}),
    dict(id="straight-jump",
         # e4 faces e5 with nothing behind: jump to e6, no diagonals.
         size=9, players=2, setup="e2 e8 e3 e7 e4 e6 a1h e5",
         to_move=0, pawn_moves={"d4", "f4", "e3", "e6"}, illegal=["d5", "f5", "e5"]),
    dict(id="straight-jump-second-player",
         # e5 (player 2) faces e4 downward: jump to e3.
         size=9, players=2, setup="e2 e8 e3 e7 e4 e6 a1h e5 a3h",
         to_move=1, pawn_moves={"d5", "f5", "e6", "e3"}, illegal=["d4", "f4"]),
    dict(id="no-jump-through-wall-between",
         # e4h lies between e4 and e5: no step, no jump, no diagonal.
         size=9, players=2, setup="e2 e8 e3 e7 e4 e6 a1h e5 e4h a3h",
         to_move=0, pawn_moves={"d4", "f4", "e3"}, illegal=["e5", "e6", "d5", "f5"]),
    dict(id="diagonal-wall-behind",
         # e5h lies behind e5 (between e5 and e6): diagonals d5 and f5.
         size=9, players=2, setup="e2 e8 e3 e7 e4 e6 a1h e5 e5h a3h",
         to_move=0, pawn_moves={"d4", "f4", "e3", "d5", "f5"}, illegal=["e6"]),
    dict(id="diagonal-wall-behind-left-half",
         # d5h covers d and e: also behind e5.
         size=9, players=2, setup="e2 e8 e3 e7 e4 e6 a1h e5 d5h a3h",
         to_move=0, pawn_moves={"d4", "f4", "e3", "d5", "f5"}),
    dict(id="diagonal-one-side-walled",
         # d5h behind e5; e5v separates e5 from f5: only d5.
         size=9, players=2, setup="e2 e8 e3 e7 e4 e6 a1h e5 d5h e5v",
         to_move=0, pawn_moves={"d4", "f4", "e3", "d5"}, illegal=["f5", "e6"]),
    dict(id="diagonal-both-sides-walled",
         # d5h behind e5, e5v right of e5, d4v left of e5 (also left of e4).
         size=9, players=2, setup="e2 e8 e3 e7 e4 e6 a1h e5 d5h e5v d4v a3h",
         to_move=0, pawn_moves={"f4", "e3"}, illegal=["d4", "d5", "f5", "e6"]),
    dict(id="diagonal-side-wall-only-does-not-matter",
         # e5v beside e5 but nothing behind: straight jump to e6, no diagonals.
         size=9, players=2, setup="e2 e8 e3 e7 e4 e6 a1h e5 e5v a3h",
         to_move=0, pawn_moves={"d4", "f4", "e3", "e6"}, illegal=["d5", "f5"]),
    dict(id="diagonal-board-edge-top",
         # 5x5: c4 faces c5 at the top edge: diagonals b5 and d5.
         size=5, players=2, setup="c2 a1h c3 c1h c4 a3h",
         to_move=0, pawn_moves={"b4", "d4", "c3", "b5", "d5"}),
    dict(id="diagonal-board-edge-bottom",
         # 5x5: player 2 on c2 faces c1 (player 1, at the bottom edge): b1, d1.
         size=5, players=2, setup="a4h c4 d4h c3 a3h c2 d3h",
         to_move=1, pawn_moves={"b2", "d2", "c3", "b1", "d1"}),
    dict(id="diagonal-board-edge-side",
         # 5x5: player 1 on b3 faces a3 (player 2) at the left edge: a2, a4.
         size=5, players=2, setup="c2 c4 c3 b4 b3 a4 d1h a3",
         to_move=0, pawn_moves={"b2", "b4", "c3", "a2", "a4"}),
    dict(id="diagonal-edge-and-wall-beside",
         # as above, plus a3h between rows 3 and 4 over a and b: it separates
         # a4 from a3 (only a2 is left of the diagonals) and shuts b3-b4.
         size=5, players=2, setup="c2 c4 c3 b4 b3 a4 d1h a3 a3h d4h",
         to_move=0, pawn_moves={"b2", "c3", "a2"}, illegal=["a4", "b4"]),
    dict(id="diagonal-pawn-behind-4p",
         # 5x5, 4 players: c3 (player 1) sits between b3 (player 2) and d3
         # (player 4); player 2 cannot jump it straight (pawn behind), may go
         # to c2 beside it; c4 holds player 3.  Never two pawns jumped: no e3.
         size=5, players=4, setup="c2 b3 c4 d3 c3",
         to_move=1, pawn_moves={"a3", "b2", "b4", "c2"}, illegal=["c4", "d3", "e3", "c3"]),
    dict(id="straight-jump-4p",
         # same position one turn on: player 3 on c4 jumps c3 straight to c2.
         size=5, players=4, setup="c2 b3 c4 d3 c3 a1h",
         to_move=2, pawn_moves={"b4", "d4", "c5", "c2"}, illegal=["b3", "d3"]),
    dict(id="four-player-start-turn-order",
         size=9, players=4, setup="e2",
         to_move=1, pawn_moves={"a4", "a6", "b5"}, illegal=["--", "e3"]),
    dict(id="four-player-third",
         size=9, players=4, setup="e2 b5",
         to_move=2, pawn_moves={"d9", "f9", "e8"}),
    dict(id="four-player-fourth",
         size=9, players=4, setup="e2 b5 e8",
         to_move=3, pawn_moves={"i4", "i6", "h5"}),
    dict(id="four-player-back-to-first",
         size=9, players=4, setup="e2 b5 e8 h5",
         to_move=0, pawn_moves={"d2", "f2", "e1", "e3"}),
    # ---- walls: overlap and crossing
    dict(id="wall-overlap-horizontal",
         size=9, players=2, setup="e3h",
         to_move=1, illegal=["e3h", "d3h", "f3h", "e3v"],
         legal=["c3h", "g3h", "e2h", "e4h", "d3v", "f3v", "e2v", "e4v"]),
    dict(id="wall-overlap-vertical",
         size=9, players=2, setup="e3v",
         to_move=1, illegal=["e3v", "e2v", "e4v", "e3h"],
         legal=["e1v", "e5v", "d3v", "f3v", "d3h", "f3h", "e2h", "e4h"]),
    dict(id="wall-edge-anchors",
         size=5, players=2, setup="",
         to_move=0, legal=["a1h", "d4h", "a1v", "d4v", "d1h", "a4v"],
         illegal=["e1h", "a5h", "e4v", "d5v"]),
    # ---- walls: the path rule
    dict(id="path-rule-seal-row-1",
         # a1h c1h e1h g1h close row 1 except column i; h1v would shut it.
         size=9, players=2, setup="a1h e8 c1h e7 e1h e6 g1h",
         to_move=1, illegal=["h1v", "h1h"], legal=["h2v", "h2h", "e5"]),
    dict(id="path-rule-3x3",
         # a1h above a1 and b1; b1v would close a1 b1 c1 off from row 3 ...
         # and b2v would close a2 a3 b2 b3 (player 2) off from row 1.
         size=3, players=2, setup="a1h",
         to_move=1, illegal=["b1v", "b2v", "a1h", "b1h", "a1v"], legal=["b2h", "a2h", "a2v"]),
    dict(id="path-rule-own-pawn",
         # a2h below a3 and b3: player 2 (b3) may not shut itself in with
         # b2v; a1v leaves both paths open; b1v would shut player 1 in.
         size=3, players=2, setup="a2h",
         to_move=1, illegal=["b2v", "b1v"], legal=["a1v"]),
    dict(id="path-rule-ignores-pawns",
         # 3x3: a1h; player 2 stands on c2, the only way out of row 1; walls
         # that keep the path (through c2) stay legal.
         size=3, players=2, setup="a1h c3 a1 c2",
         to_move=0, pawn_moves={"b1"}, legal=["a2v", "a2h"], illegal=["b1v", "b1h"]),
    dict(id="walls-exhausted",
         size=5, players=2, walls=1, setup="a1h",
         to_move=1, legal=["c3h"]),
    dict(id="walls-exhausted-player-1",
         size=5, players=2, walls=1, setup="a1h a3h",
         to_move=0, pawn_moves={"b1", "d1", "c2"}, no_walls=True),
    dict(id="zero-walls",
         size=5, players=2, walls=0, setup="",
         to_move=0, pawn_moves={"b1", "d1", "c2"}, no_walls=True),
    # ---- the pass (4 players)
    dict(id="pass-no-walls-left",
         # 3x3, 1 wall each: player 1 on b1, walled from a1 (a1v) and c1 (b1v),
         # faces b2 (player 2) with b3 (player 3) behind; the diagonals a2, c2
         # are walled off from b2. No wall left: the only move is the pass.
         size=3, players=4, walls=1, setup="b1v b2 a1v c1",
         to_move=0, pawn_moves={"--"}, no_walls=True),
    dict(id="after-pass-next-player",
         size=3, players=4, walls=1, setup="b1v b2 a1v c1 --",
         to_move=1, pawn_moves={"a3", "c3"}, illegal=["--"]),
    dict(id="pass-walls-left-but-none-legal",
         # 3x3, 1 wall each: player 4 on c2 is walled from c1 (b1h) and c3 (b2h),
         # faces b2 (player 1) with a2 (player 2) behind, b1 and b3 walled off
         # from b2. It still holds a wall, but every wall overlaps, crosses or
         # shuts a pawn in: no legal move at all, so it passes [rule: "a player
         # with no legal move at all ... passes"].
         size=3, players=4, walls=1, setup="b2 b1h b2h",
         to_move=3, pawn_moves={"--"}, no_walls=True),
    # ---- end of the game
    dict(id="win-2p",
         size=3, players=2, setup="b2 a3 b3",
         winner=0),
    dict(id="win-2p-second-player",
         size=3, players=2, setup="a1 b2 a2 b1",
         winner=1),
    dict(id="win-by-jump",
         # 3x3: b2 (player 2) in front of b1 (player 1); player 1 jumps to b3.
         size=3, players=2, setup="a1v b2 b3",
         winner=0),
    dict(id="diagonal-onto-goal",
         # 3x3: b2 faces b3 at the top edge: diagonals a3 and c3 (its goal row).
         size=3, players=2, setup="b2 a1h",
         to_move=0, pawn_moves={"a2", "c2", "a3", "c3"}),
    dict(id="win-by-diagonal",
         size=3, players=2, setup="b2 a1h a3",
         winner=0),
    dict(id="win-4p-column",
         # 5x5, 4 players: player 2 (a3) walks along row 4 to column e.
         size=5, players=4,
         setup="c2 a4 d5 e2 c1 b4 c5 e3 c2 c4 d5 e2 c1 d4 c5 e3 c2 e4",
         winner=1),
    dict(id="4p-other-goal-is-not-a-win",
         # 5x5, 4 players: player 2 (a3) reaching row 5 (player 1's goal) goes on.
         size=5, players=4, setup="c2 a4 d5 e2 c1 a5",
         to_move=2, pawn_moves={"c5", "e5", "d4"}),
    # ---- boards that are not square (two players): W columns, H rows
    dict(id="start-2x3",
         # both pawns on column b (W // 2); a horizontal wall spans the whole
         # width and would cut both paths; b1v and a3v have no anchor on 2x3
         size="2x3", players=2, setup="",
         to_move=0, pawn_moves={"a1", "b2"}, legal=["a1v", "a2v"],
         illegal=["a1h", "a2h", "b1v", "b1h", "a3v", "a3h"]),
    dict(id="start-4x7-even-width",
         # column c (4 // 2), rows 1 and 7; anchors a1..c6
         size="4x7", players=2, setup="",
         to_move=0, pawn_moves={"b1", "d1", "c2"}, legal=["a1h", "c6h", "c6v", "a6v"],
         illegal=["d1h", "d1v", "a7h", "c7v"]),
    dict(id="start-6x5-second-player",
         size="6x5", players=2, setup="d2",
         to_move=1, pawn_moves={"c5", "e5", "d4"}, legal=["e4h", "e4v"], illegal=["f1h", "a5h"]),
    dict(id="two-wide-only-vertical-walls",
         # 2x5: no horizontal wall is ever legal; a1v and a3v overlap a2v
         size="2x5", players=2, setup="a2v",
         to_move=1, pawn_moves={"a5", "b4"}, legal=["a4v"],
         illegal=["a1h", "a2h", "a3h", "a4h", "a1v", "a2v", "a3v"]),
    dict(id="path-rule-3x5",
         # a2h over a and b between rows 2 and 3; b1v would shut a1 b1 a2 b2
         # (player 1 on b1) off from row 5
         size="3x5", players=2, setup="a2h",
         to_move=1, illegal=["b1v", "a2h", "b2h", "a2v"], legal=["b1h", "b2v", "a1v", "b3h"]),
    dict(id="jump-onto-goal-9x3",
         # 9x3: player 2 on e3 faces e2 and jumps straight to e1, its goal row
         size="9x3", players=2, setup="e2",
         to_move=1, pawn_moves={"d3", "f3", "e1"}),
    dict(id="win-by-jump-9x3",
         size="9x3", players=2, setup="e2 e1",
         winner=1),
    dict(id="win-3x4",
         size="3x4", players=2, setup="a1 c4 a2 c3 a3 c2 a4",
         winner=0),
]


def check_case(case, legal: set[str], pawn_moves: set[str], to_move, winner):
    """The position reached by case['setup'] (its legal moves, pawn moves,
    player to move and winner, from the reference or the core) must satisfy
    every expectation of the case."""
    if "winner" in case:
        assert winner == case["winner"]
        assert legal == set(), "no legal moves after a win"
        return
    assert winner is None
    if "to_move" in case:
        assert to_move == case["to_move"]
    if "pawn_moves" in case:
        assert pawn_moves == case["pawn_moves"]
    for m in case.get("legal", []):
        assert m in legal, f"{m} should be legal"
    for m in case.get("illegal", []):
        assert m not in legal, f"{m} should be illegal"
    if case.get("no_walls"):
        assert not {m for m in legal if m[-1] in "hv"}
