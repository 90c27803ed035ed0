"""Crosswise rules in plain Python, written straight from
docs/rules/crosswise.md (plus the decisions in games/crosswise.py),
to check the compiled core against. Slow and simple on purpose.

Board: dict cell name -> symbol 1..6 (absent = empty). Tiles: "1".."6", "M"
(Move), "R" (Remove), "P" (Replace), "S" (Swap). Moves in the game notation.
"""

from __future__ import annotations

from collections import Counter

FILES = "abcdef"
CELLS = [f"{f}{r}" for r in range(1, 7) for f in FILES]
ROWS = [[f"{f}{r}" for f in FILES] for r in range(1, 7)]
COLUMNS = [[f"{f}{r}" for r in range(1, 7)] for f in FILES]
POINTS = {2: 1, 3: 3, 4: 5, 5: 7}
SYMBOLS = "123456"


def line_points(symbols: list) -> int | str:
    """Points of one line (a list of 6 symbols or None); "six" for six identical."""
    present = [s for s in symbols if s is not None]
    counts = Counter(present)
    if any(c == 6 for c in counts.values()):
        return "six"
    if len(present) == 6 and len(counts) == 6:
        return 6
    return sum(POINTS.get(c, 0) for c in counts.values())


def team_scores(board: dict) -> tuple[int, int]:
    """(Rows, Columns): the points of their lines; a six scores nothing."""
    def total(lines):
        return sum(p for p in (line_points([board.get(c) for c in line]) for line in lines) if p != "six")
    return total(ROWS), total(COLUMNS)


def six_of(board: dict) -> str | None:
    """The team with six identical in one of its lines (Rows looked at first)."""
    for team, lines in (("Rows", ROWS), ("Columns", COLUMNS)):
        if any(line_points([board.get(c) for c in line]) == "six" for line in lines):
            return team
    return None


class RefState:
    def __init__(self, players: int, board: dict, hands: list, bag: list, played: Counter,
                 slot: int, passes: int = 0):
        self.players = players
        self.order = {2: [0, 1], 3: [0, 1, 2, 1], 4: [0, 1, 2, 3]}[players]
        self.size = [6 if (players == 3 and p == 1) else 4 for p in range(players)]
        self.board = dict(board)
        self.hands = [Counter(h) for h in hands]
        self.bag = list(bag)          # bag[0] is drawn next
        self.played = Counter(played)
        self.slot = slot
        self.passes = passes
        self.winner = None            # "Rows", "Columns", "draw"
        self._check_end(six=self._six())

    # -- queries
    def to_move(self) -> int:
        return self.order[self.slot]

    def line(self, cells):
        return [self.board.get(c) for c in cells]

    def scores(self) -> tuple[int, int]:
        return team_scores(self.board)

    def _six(self):
        return six_of(self.board)

    def everyone_passed(self) -> bool:
        """Every seat passed since the last move: the seats at the last
        `passes` turn slots (slot 0, 1, 2, 1 with three players)."""
        n = len(self.order)
        return {self.order[(self.slot - 1 - i) % n] for i in range(self.passes)} == set(range(self.players))

    def _check_end(self, six):
        if six:
            self.winner = six
        elif len(self.board) == 36 or self.everyone_passed():
            r, c = self.scores()
            self.winner = "Rows" if r > c else "Columns" if c > r else "draw"

    def legal_moves(self) -> set[str]:
        if self.winner:
            return set()
        hand = self.hands[self.to_move()]
        occupied = [c for c in CELLS if c in self.board]
        empty = [c for c in CELLS if c not in self.board]
        moves = set()
        for s in SYMBOLS:
            if hand[s]:
                moves |= {f"{s}@{c}" for c in empty}
        if hand["M"]:
            moves |= {f"move {a}>{b}" for a in occupied for b in empty}
        if hand["R"]:
            moves |= {f"remove {a}" for a in occupied}
        if hand["P"]:
            moves |= {f"replace {a}={s}" for a in occupied for s in SYMBOLS
                      if hand[s] and self.board[a] != s}
        if hand["S"]:
            moves |= {f"swap {a},{b}" for i, a in enumerate(occupied) for b in occupied[i + 1:]
                      if self.board[a] != self.board[b]}
        return moves or {"--"}

    # -- play
    def play(self, move: str) -> None:
        assert move in self.legal_moves(), move
        p = self.to_move()
        hand = self.hands[p]
        if move == "--":
            self.passes += 1
        else:
            self.passes = 0
            if "@" in move:
                hand[move.split("@")[0]] -= 1
            else:
                word, arg = move.split(" ")
                tile = {"move": "M", "remove": "R", "replace": "P", "swap": "S"}[word]
                hand[tile] -= 1
                self.played[tile] += 1
                if word == "remove":
                    hand[self.board[arg]] += 1
                elif word == "replace":
                    a, s = arg.split("=")
                    hand[s] -= 1
                    hand[self.board[a]] += 1
            self.board = board_after(self.board, move)
            while sum(hand.values()) < self.size[p] and self.bag:
                hand[self.bag.pop(0)] += 1
        self.slot = (self.slot + 1) % len(self.order)
        self._check_end(self._six())


def board_after(board: dict, move: str) -> dict:
    """The board after a move (hands and the bag are the caller's)."""
    board = dict(board)
    if "@" in move:
        s, c = move.split("@")
        board[c] = s
    elif move != "--":
        word, arg = move.split(" ")
        if word == "move":
            a, b = arg.split(">")
            board[b] = board.pop(a)
        elif word == "remove":
            del board[arg]
        elif word == "replace":
            a, s = arg.split("=")
            board[a] = s
        else:
            a, b = arg.split(",")
            board[a], board[b] = board[b], board[a]
    return board


# -- the greedy player, as its rule reads (the oracle of the core's fast greedy)

def threats(board: dict, lines) -> int:
    """How close the team owning `lines` is to six identical: per line and
    symbol with five in it, 2 if the sixth cell is empty, else 1."""
    n = 0
    for line in lines:
        counts = Counter(board[c] for c in line if c in board)
        full = all(c in board for c in line)
        n += sum(1 if full else 2 for k in counts.values() if k == 5)
    return n


def greedy_key(ref: RefState, move: str) -> tuple:
    """What the greedy player maximises, for a legal move of the player to
    move: a six of its own team first (an instant win); then the fewest
    threats of six (`threats`) of the other team, then the highest score of
    its team minus the other team's, all on the board after the move."""
    team = ref.to_move() % 2                    # 0 Rows, 1 Columns
    board = board_after(ref.board, move)
    if six_of(board) == ("Rows", "Columns")[team]:
        return (1, 0, 0)
    rows, cols = team_scores(board)
    diff = rows - cols if team == 0 else cols - rows
    return (0, -threats(board, COLUMNS if team == 0 else ROWS), diff)
