"""Game clocks for matches: a time control (`--tc 60+0.5`, `--tc 40/60+0`,
or `tc=...` in an engine spec) and the clock of one seat in one game.

As in cutechess-cli: each seat's clock starts at BASE seconds, the time a
move takes is taken off the mover's clock, INC seconds are added after each
move, and with `MOVES/BASE+INC` another BASE is added every MOVES moves. A
move that takes longer than the time left plus the match's time margin
loses the game on time."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from crossridor.engine.errors import CrossridorError
from crossridor.engine.protocol import LIMIT_MAX_SECONDS, Clock

_TC = re.compile(r"^(?:(?P<moves>\d+)/)?(?P<base>[^+/]+)(?:\+(?P<inc>[^+/]+))?$")
DEFAULT_TIME_MARGIN = 0.05     # seconds a move may run past the clock before it loses on time


def _seconds(text: str, what: str, full: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CrossridorError(f"time control {full!r}: the {what} must be a number of seconds, "
                              f"got {text!r}") from None
    if not math.isfinite(value) or value < 0 or value >= LIMIT_MAX_SECONDS:
        raise CrossridorError(f"time control {full!r}: the {what} must be a number of seconds in "
                              f"[0, {LIMIT_MAX_SECONDS:g}), got {text!r}")
    return value


@dataclass(frozen=True)
class TimeControl:
    """BASE seconds per seat (per MOVES moves if `moves` is set) plus INC a move."""

    base: float
    increment: float = 0.0
    moves: int | None = None     # moves per period; None: the whole game

    @classmethod
    def parse(cls, text: str) -> "TimeControl":
        """`BASE[+INC]` or `MOVES/BASE[+INC]`, in seconds: 60+0.5, 10, 40/60+0."""
        raw = str(text).strip()
        m = _TC.match(raw)
        if not m:
            raise CrossridorError(f"time control {text!r}: expected BASE+INC or MOVES/BASE+INC in "
                                  f"seconds (e.g. 60+0.5, 40/60+0)")
        base = _seconds(m["base"], "base time", raw)
        if base <= 0:
            raise CrossridorError(f"time control {text!r}: the base time must be positive")
        inc = _seconds(m["inc"], "increment", raw) if m["inc"] is not None else 0.0
        moves = None
        if m["moves"] is not None:
            moves = int(m["moves"])
            if not 1 <= moves <= 10000:
                raise CrossridorError(f"time control {text!r}: moves per period must be 1..10000")
        return cls(base, inc, moves)

    def __str__(self) -> str:
        return (f"{self.moves}/" if self.moves else "") + f"{self.base:g}+{self.increment:g}"


class SeatClock:
    """One seat's clock in one game."""

    def __init__(self, tc: TimeControl):
        self.tc = tc
        self.left = tc.base
        self.moves = 0

    def for_search(self) -> Clock:
        """What the mover's search is told: its time left, increment, moves to go."""
        mtg = self.tc.moves - self.moves % self.tc.moves if self.tc.moves else None
        return Clock(max(self.left, 0.001), self.tc.increment, mtg)

    def charge(self, seconds: float, margin: float) -> bool:
        """Take a move's time off the clock; False if it ran out (by more than margin)."""
        self.left -= seconds
        if self.left < -margin:
            return False
        self.left = max(self.left, 0.0) + self.tc.increment
        self.moves += 1
        if self.tc.moves and self.moves % self.tc.moves == 0:
            self.left += self.tc.base
        return True
