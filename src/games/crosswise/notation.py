"""Crosswise notation: cells, tiles, moves (`CrosswiseMove`, its text round
trip) and position strings. The formats are described in `game`'s docstring."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from crossridor.engine.errors import InvalidMoveError, InvalidPositionError
from crossridor.engine.views import seat

TILE_CHARS = "123456MRPS"
ACTION_NAMES = ("Move", "Remove", "Replace", "Swap")
TEAM_NAMES = ("Rows", "Columns")
FILES = "abcdef"
KIND_PLACE, KIND_MOVE, KIND_REMOVE, KIND_REPLACE, KIND_SWAP, KIND_PASS = range(6)
PASS_CODE = KIND_PASS << 12
TOTAL = (7, 7, 7, 7, 7, 7, 3, 3, 3, 3)

# ------------------------------------------------------------------ cells and moves

def cell_name(c: int) -> str:
    return f"{FILES[c % 6]}{c // 6 + 1}"


def parse_cell(text: str) -> int:
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in "123456":
        raise ValueError(text)
    return (int(t[1]) - 1) * 6 + FILES.index(t[0])


_CELL = r"([a-fA-F][1-6])"
_RE = [
    (KIND_PLACE, re.compile(rf"^([1-6])\s*@\s*{_CELL}$")),
    (KIND_MOVE, re.compile(rf"^move\s+{_CELL}\s*>\s*{_CELL}$", re.I)),
    (KIND_REMOVE, re.compile(rf"^remove\s+{_CELL}$", re.I)),
    (KIND_REPLACE, re.compile(rf"^replace\s+{_CELL}\s*=\s*([1-6])$", re.I)),
    (KIND_SWAP, re.compile(rf"^swap\s+{_CELL}\s*,\s*{_CELL}$", re.I)),
]


@dataclass(frozen=True, order=True)
class CrosswiseMove:
    """One move; `code` is the core's int (layout in crosswise/board.pxi):
    bits 0-5 cell a, bits 6-11 symbol or second cell, bits 12-14 kind."""

    code: int

    @property
    def kind(self) -> int:
        return self.code >> 12

    @property
    def a(self) -> int:
        return self.code & 63

    @property
    def b(self) -> int:
        return (self.code >> 6) & 63

    @classmethod
    def parse(cls, text: str) -> "CrosswiseMove":
        """A move from its text (syntax only). Raises InvalidMoveError."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"crosswise: a move is text, got {text!r}")
        t = text.strip()
        if t == "--":
            return cls(PASS_CODE)
        for kind, rx in _RE:
            m = rx.match(t)
            if not m:
                continue
            g = m.groups()
            if kind == KIND_PLACE:
                return cls(parse_cell(g[1]) | ((int(g[0]) - 1) << 6))
            if kind == KIND_MOVE:
                a, b = parse_cell(g[0]), parse_cell(g[1])
                if a == b:
                    raise InvalidMoveError(f"crosswise: {text!r} moves a tile onto itself")
                return cls(a | (b << 6) | (KIND_MOVE << 12))
            if kind == KIND_REMOVE:
                return cls(parse_cell(g[0]) | (KIND_REMOVE << 12))
            if kind == KIND_REPLACE:
                return cls(parse_cell(g[0]) | ((int(g[1]) - 1) << 6) | (KIND_REPLACE << 12))
            a, b = sorted((parse_cell(g[0]), parse_cell(g[1])))
            if a == b:
                raise InvalidMoveError(f"crosswise: {text!r} swaps a cell with itself")
            return cls(a | (b << 6) | (KIND_SWAP << 12))
        raise InvalidMoveError(
            f"crosswise: {text!r} is not a move (expected e.g. '3@c4', 'move c4>d5', "
            f"'remove c4', 'replace c4=2', 'swap c4,d5' or '--')")

    def __str__(self) -> str:
        k, a, b = self.kind, self.a, self.b
        if k == KIND_PLACE:
            return f"{b + 1}@{cell_name(a)}"
        if k == KIND_MOVE:
            return f"move {cell_name(a)}>{cell_name(b)}"
        if k == KIND_REMOVE:
            return f"remove {cell_name(a)}"
        if k == KIND_REPLACE:
            return f"replace {cell_name(a)}={b + 1}"
        if k == KIND_SWAP:
            return f"swap {cell_name(a)},{cell_name(b)}"
        return "--"

    def __repr__(self) -> str:
        return f"CrosswiseMove.parse({str(self)!r})"


_MOVES: dict[int, CrosswiseMove] = {}


def _move(code: int) -> CrosswiseMove:
    m = _MOVES.get(code)
    if m is None:
        m = _MOVES[code] = CrosswiseMove(code)
    return m


# ------------------------------------------------------------------ tiles text

def _tiles_text(counts) -> str:
    s = "".join(TILE_CHARS[t] * counts[t] for t in range(10))
    return s or "-"


def _parse_tiles(text: str, what: str, position: str) -> list[int]:
    counts = [0] * 10
    if text == "-":
        return counts
    for ch in text:
        i = TILE_CHARS.find(ch.upper())
        if i < 0 or not ch.strip():
            raise InvalidPositionError(f"crosswise: bad tile {ch!r} in {what} of position {position!r}")
        counts[i] += 1
    return counts




# ------------------------------------------------------------------ position strings

def turn_texts(players: int) -> tuple[str, ...]:
    """The position string's turn field for each slot of the turn cycle:
    the seat to move (1..n); with three players, when the solo seat 2 is to
    move, also the partner who moves after it (`2>3`, `2>1`)."""
    if players == 3:
        return ("1", "2>3", "3", "2>1")
    return tuple(str(seat(p)) for p in range(players))


def turn_mover(players: int, slot: int) -> int:
    """The player index to move in turn slot `slot` (three players: 0 1 2 1)."""
    return (0, 1, 2, 1)[slot] if players == 3 else slot


def parse_position(position: str, players: int, seed: int = 0) -> tuple:
    """The setup of a position string (format in `game`'s docstring) for
    `CrosswiseCore.setup`, as (players, board, hands, known, bag, played, turn
    slot, passes). Hidden hand tiles and a hidden bag order are dealt from the
    unseen tiles with `seed`."""
    if not isinstance(position, str):
        raise InvalidPositionError(f"crosswise: a position is text, got {position!r}")
    fields = position.split()
    if len(fields) != 6:
        raise InvalidPositionError(
            f"crosswise: position {position!r} needs 6 fields "
            f"(board turn hands bag played passes), got {len(fields)}")
    fboard, fturn, fhands, fbag, fplayed, fpasses = fields
    ranks = fboard.split("/")
    if len(ranks) != 6 or any(len(r) != 6 for r in ranks):
        raise InvalidPositionError(f"crosswise: board of {position!r} must be 6 ranks of 6 cells")
    board = [-1] * 36
    for i, rank in enumerate(ranks):
        row = 5 - i
        for col, ch in enumerate(rank):
            if ch == ".":
                continue
            if ch not in "123456":
                raise InvalidPositionError(f"crosswise: bad cell {ch!r} in position {position!r}")
            board[row * 6 + col] = int(ch) - 1
    n = players
    turns = turn_texts(n)
    if fturn not in turns:
        raise InvalidPositionError(
            f"crosswise: bad turn {fturn!r} in position {position!r} (expected the seat to move: "
            f"{', '.join(turns)})")
    slot = turns.index(fturn)
    hand_fields = fhands.split(",")
    if len(hand_fields) != n:
        raise InvalidPositionError(f"crosswise: position {position!r} needs {n} hands, got {len(hand_fields)}")
    hands, known, hidden = [], [], []
    for p, hf in enumerate(hand_fields):
        body, _, kn = hf.partition(":")
        k = _parse_tiles(kn, f"known tiles of seat {p + 1}", position) if kn else [0] * 10
        if body.startswith("?"):
            if not body[1:].isdigit():
                raise InvalidPositionError(f"crosswise: bad hidden hand {hf!r} in {position!r}")
            cnt = int(body[1:])
            if cnt < sum(k):
                raise InvalidPositionError(f"crosswise: seat {p + 1} known tiles exceed its hand in {position!r}")
            hands.append(list(k))
            hidden.append(cnt - sum(k))
        else:
            h = _parse_tiles(body, f"hand of seat {p + 1}", position)
            if any(k[t] > h[t] for t in range(10)):
                raise InvalidPositionError(f"crosswise: seat {p + 1} known tiles not in its hand in {position!r}")
            hands.append(h)
            hidden.append(0)
        known.append(k)
    if fbag.startswith("?"):
        if not fbag[1:].isdigit():
            raise InvalidPositionError(f"crosswise: bad bag {fbag!r} in {position!r}")
        bag_hidden, bag = int(fbag[1:]), []
    else:
        bag_hidden = 0
        bag = [] if fbag == "-" else [TILE_CHARS.find(ch.upper()) for ch in fbag]
        if any(t < 0 for t in bag):
            raise InvalidPositionError(f"crosswise: bad tile in bag {fbag!r} of {position!r}")
    played_counts = _parse_tiles(fplayed, "played tiles", position)
    if any(played_counts[t] for t in range(6)):
        raise InvalidPositionError(f"crosswise: only action tiles are played aside, in {position!r}")
    played = played_counts[6:]
    if not fpasses.isdigit():
        raise InvalidPositionError(f"crosswise: bad passes {fpasses!r} in {position!r}")
    # the unseen tiles, dealt into the hidden places
    pool_counts = list(TOTAL)
    for c in board:
        if c >= 0:
            pool_counts[c] -= 1
    for p in range(n):
        for t in range(10):
            pool_counts[t] -= hands[p][t]
    for t in bag:
        pool_counts[t] -= 1
    for i in range(4):
        pool_counts[6 + i] -= played[i]
    if any(c < 0 for c in pool_counts):
        raise InvalidPositionError(f"crosswise: position {position!r} uses more tiles than the set holds")
    pool = [t for t in range(10) for _ in range(pool_counts[t])]
    if len(pool) != sum(hidden) + bag_hidden:
        raise InvalidPositionError(
            f"crosswise: position {position!r} accounts for {54 - len(pool) + sum(hidden) + bag_hidden} "
            f"tiles, the set has 54")
    rng = random.Random(seed)
    rng.shuffle(pool)
    dealt = 0
    for p in range(n):
        for _ in range(hidden[p]):
            hands[p][pool[dealt]] += 1
            dealt += 1
    bag = bag + pool[dealt:]
    return n, board, hands, known, bag, played, slot, int(fpasses)
