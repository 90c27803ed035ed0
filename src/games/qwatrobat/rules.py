"""Qwatrobat's moves and their notation (a layout, a push, the first-player
draw), and how a round resolves. Pure data and functions: the state that plays
them is in `state`."""

from __future__ import annotations

from dataclasses import dataclass

from crossridor.engine.errors import InvalidMoveError
from crossridor.engine.views import seat

# ----------------------------------------------------------------------------- moves


@dataclass(frozen=True, order=True)
class Setup:
    """A layout: `front[c]`, `back[c]` for columns c = 0..n-1."""
    front: tuple
    back: tuple

    def __str__(self):
        return "".join(map(str, self.front)) + "/" + "".join(map(str, self.back))

    def __repr__(self):
        return f"Setup.parse({str(self)!r})"

    @staticmethod
    def parse(text: str) -> "Setup":
        t = str(text).strip()
        parts = t.split("/")
        if len(parts) != 2 or not parts[0] or len(parts[0]) != len(parts[1]) \
                or not (parts[0] + parts[1]).isdigit():
            raise InvalidMoveError(f"qwatrobat: {text!r} is not a setup (expected e.g. '1234/4321')")
        return Setup(tuple(int(ch) for ch in parts[0]), tuple(int(ch) for ch in parts[1]))

    def canonical(self) -> "Setup":
        cols = sorted(zip(self.front, self.back))
        return Setup(tuple(f for f, _ in cols), tuple(b for _, b in cols))


@dataclass(frozen=True, order=True)
class Push:
    """Push the top card of column `col` (0-based; notation is 1-based)."""
    col: int

    def __str__(self):
        return f"c{self.col + 1}"

    def __repr__(self):
        return f"Push({self.col})"


@dataclass(frozen=True, order=True)
class First:
    """Chance outcome: player index `player` is the first player of round 1;
    written as its seat (`first:1` for player index 0)."""
    player: int

    def __str__(self):
        return f"first:{seat(self.player)}"

    def __repr__(self):
        return f"First({self.player})"


def parse_move_text(text) -> Setup | Push | First:
    """Text -> a move object (syntax only; legality is the state's business)."""
    if isinstance(text, (Setup, Push, First)):
        return text
    if not isinstance(text, str):
        raise InvalidMoveError(f"qwatrobat: {text!r} is not a move")
    t = text.strip()
    if "/" in t:
        return Setup.parse(t)
    if len(t) >= 2 and t[0] in "cC" and t[1:].isdigit():
        c = int(t[1:])
        if c < 1:
            raise InvalidMoveError(f"qwatrobat: {text!r}: columns are numbered from 1")
        return Push(c - 1)
    if t.lower() in ("first:1", "first:2"):
        return First(int(t[-1]) - 1)
    raise InvalidMoveError(f"qwatrobat: {text!r} is not a move (expected a setup like "
                           f"'1234/4321', a push like 'c2', or the seat that starts, 'first:1'/'first:2')")


# ----------------------------------------------------------------------------- round resolution


def resolve_field(field, clear_four: bool, nvals: int):
    """Field after a round: (new field, winner or None, cleared).

    `field` is a sorted tuple of (value, owner). Every card whose value appears
    two or more times goes; then by the number k of cards left: 4+ -> the
    highest wins, 3 -> the median, 2 -> the lowest, 1 -> its owner, 0 -> none.
    """
    counts: dict[int, int] = {}
    for v, _ in field:
        counts[v] = counts.get(v, 0) + 1
    left = tuple(sorted(c for c in field if counts[c[0]] == 1))
    k = len(left)
    if k == 0:
        winner = None
    elif k == 1:
        winner = left[0][1]
    elif k == 2:
        winner = left[0][1]
    elif k == 3:
        winner = left[1][1]
    else:
        winner = left[-1][1]
    cleared = clear_four and k >= 4
    return (() if cleared else left), winner, cleared
