"""Kreuz & Quer moves and their notation: `x3,17` (build: return cards 3 and
17), `goal:w` (chance), `flip`, `@s` (chance), `keep`, `leave`, `take:s`,
`stop`, `draw:17` (chance). Terrain letters: see `deck`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from crossridor.engine.errors import InvalidMoveError
from crossridor.games.kreuzundquer.deck import TERRAINS

__all__ = ["Move", "FLIP", "KEEP", "LEAVE", "STOP"]


@dataclass(frozen=True, order=True)
class Move:
    """kind: one of build (arg: sorted pair of card numbers), goal (terrain),
    flip, reveal (terrain), keep, leave, take (terrain), stop, draw (card)."""
    kind: str
    arg: Any = None

    def __str__(self):
        k, a = self.kind, self.arg
        if k == "build":
            return f"x{a[0]},{a[1]}"
        if k == "goal":
            return f"goal:{TERRAINS[a]}"
        if k == "reveal":
            return f"@{TERRAINS[a]}"
        if k == "take":
            return f"take:{TERRAINS[a]}"
        if k == "draw":
            return f"draw:{a}"
        return k

    def __repr__(self):
        return f"Move.parse({str(self)!r})"

    @staticmethod
    def parse(text) -> "Move":
        if isinstance(text, Move):
            return text
        if not isinstance(text, str):
            raise InvalidMoveError(f"kreuzundquer: {text!r} is not a move")
        t = text.strip().lower()

        def terrain(s):
            if len(s) != 1 or s not in TERRAINS:
                raise InvalidMoveError(f"kreuzundquer: {text!r}: unknown terrain {s!r} (known: {TERRAINS})")
            return TERRAINS.index(s)
        if t in ("flip", "keep", "leave", "stop"):
            return Move(t)
        if t.startswith("x"):
            parts = t[1:].split(",")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise InvalidMoveError(f"kreuzundquer: {text!r}: a build is 'x<card>,<card>', e.g. 'x3,17'")
            a, b = int(parts[0]), int(parts[1])
            if a == b:
                raise InvalidMoveError(f"kreuzundquer: {text!r}: two different cards must go back to the box")
            return Move("build", (min(a, b), max(a, b)))
        if t.startswith("goal:"):
            return Move("goal", terrain(t[5:]))
        if t.startswith("@"):
            return Move("reveal", terrain(t[1:]))
        if t.startswith("take:"):
            return Move("take", terrain(t[5:]))
        if t.startswith("draw:"):
            if not t[5:].isdigit():
                raise InvalidMoveError(f"kreuzundquer: {text!r}: expected 'draw:<card number>'")
            return Move("draw", int(t[5:]))
        raise InvalidMoveError(f"kreuzundquer: {text!r} is not a move (expected x3,17 / flip / keep / "
                               f"leave / take:s / stop, or a chance outcome @s / goal:s / draw:17)")


FLIP, KEEP, LEAVE, STOP = Move("flip"), Move("keep"), Move("leave"), Move("stop")
