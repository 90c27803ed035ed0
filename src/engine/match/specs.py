"""Engine specs (`alphabeta:time=0.5,hash=64`, `uci:COMMAND;time=1`): parsed and
checked once, turned into a player for one game (`EngineSpec.open()`: a
built-in one searches in this process, an outside one runs as a child process,
`crossridor.engine.match.outside_engine`), and the budget of each move on a
clock (`move_budget`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from crossridor.engine.clocks import SeatClock, TimeControl
from crossridor.engine.errors import CrossridorError
from crossridor.engine.options import convert_value, format_value
from crossridor.engine.ponder import Ponder, predicted_reply, start_ponder
from crossridor.engine.protocol import Clock, Limits, SearchMemory
from crossridor.engine.search_api import (
    algorithm_names,
    clock_as_time,
    clock_plan,
    manages_clock,
    search,
    search_memory,
)

# --- engine specs -----------------------------------------------------------------

LIMIT_KEYS = {"time": float, "depth": int, "nodes": int, "sims": int}

# An engine given no limit gets a fixed-size one, so that a match with
# default limits gives the same result at any concurrency (a time limit
# does not: it depends on the machine's load).
DEFAULT_LIMITS = {
    "alphabeta": Limits(depth=2),
    "mcts": Limits(sims=1000),
    "ismcts": Limits(sims=1000),
    "random": Limits(depth=1),   # ignored by the algorithm
    "greedy": Limits(depth=1),   # ignored by the algorithm
}
FALLBACK_LIMITS = Limits(time=1.0)
RESERVED_OPTIONS = ("seed",)
LIMITLESS = ("random", "greedy")   # no limit shown unless given


UCI_PREFIX = "uci:"
UCI_LIMIT_KEYS = ("time", "depth", "nodes")


@dataclass(frozen=True)
class EngineSpec:
    """`ALGORITHM[:key=value,...]`, e.g. `alphabeta:time=0.1` or
    `mcts:sims=2000,rollout=random`. Keys time/depth/nodes/sims become the
    Limits, `tc=BASE+INC` (or MOVES/BASE+INC) a game clock, `ponder=true`
    thinking on the opponent's time (the match's --ponder for every engine
    that does not say), every other key an algorithm option (e.g. threads=2).

    An outside engine is `uci:COMMAND[;key=value,...]` (algorithm "uci"):
    time/depth/nodes are the limits sent with `go`, tc a clock sent as
    `go wtime/btime/winc/binc`, `margin` the seconds it may run past `time`,
    `ponder` as above (with `go ponder`, if the engine offers the option
    Ponder), every other key a `setoption` (see uci_engine)."""

    algorithm: str
    limits: Limits
    options: tuple = ()          # sorted (key, value) pairs
    explicit_limits: bool = field(default=True, compare=False)
    command: str | None = None   # uci: the command line
    tc: TimeControl | None = None   # a game clock (tc=60+0.5): the search is told the time left
    ponder: bool | None = None      # think on the opponent's time; None: as the match says

    @classmethod
    def parse(cls, text: str) -> "EngineSpec":
        raw = str(text).strip()
        if raw[:len(UCI_PREFIX)].lower() == UCI_PREFIX:
            return cls._parse_uci(text, raw[len(UCI_PREFIX):])
        name, sep, rest = raw.partition(":")
        name = name.strip().lower()
        if not name:
            raise CrossridorError(f"engine spec {text!r}: no algorithm (expected ALGORITHM[:key=value,...])")
        if name not in algorithm_names():
            raise CrossridorError(f"engine spec {text!r}: unknown algorithm {name!r} "
                                  f"(known: {', '.join(algorithm_names())})")
        limit_fields: dict = {}
        options: dict = {}
        if sep and not rest.strip():
            raise CrossridorError(f"engine spec {text!r}: nothing after ':'")
        for part in rest.split(",") if rest.strip() else []:
            key, eq, value = part.partition("=")
            key = key.strip()
            value = value.strip()
            if not eq or not key or not value:
                raise CrossridorError(f"engine spec {text!r}: {part.strip()!r} is not key=value")
            if key in limit_fields or key in options:
                raise CrossridorError(f"engine spec {text!r}: {key!r} given twice")
            if key in RESERVED_OPTIONS:
                raise CrossridorError(f"engine spec {text!r}: {key!r} is set by the match (use --seed)")
            if key == "tc":
                limit_fields[key] = TimeControl.parse(value)
            elif key == "ponder":
                limit_fields[key] = _flag(text, key, value)
            elif key in LIMIT_KEYS:
                try:
                    limit_fields[key] = LIMIT_KEYS[key](value)
                except ValueError:
                    raise CrossridorError(f"engine spec {text!r}: {key} must be "
                                          f"{'a number' if key == 'time' else 'an integer'}, "
                                          f"got {value!r}") from None
            else:
                options[key] = convert_value(value)
        tc = limit_fields.pop("tc", None)
        ponder = limit_fields.pop("ponder", None)
        if limit_fields or tc is not None:
            try:
                limits = Limits(**limit_fields, clock=_start_clock(tc))
            except ValueError as exc:
                raise CrossridorError(f"engine spec {text!r}: {exc}") from None
            explicit = True
        else:
            limits = DEFAULT_LIMITS.get(name, FALLBACK_LIMITS)
            explicit = False
        return cls(name, limits, tuple(sorted(options.items())), explicit, tc=tc, ponder=ponder)

    @classmethod
    def _parse_uci(cls, text: str, rest: str) -> "EngineSpec":
        command, _, keys = rest.partition(";")
        command = command.strip()
        if not command:
            raise CrossridorError(f"engine spec {text!r}: no command after 'uci:' "
                                  f"(expected uci:COMMAND[;key=value,...])")
        limit_fields: dict = {}
        options: dict = {}
        for part in keys.split(",") if keys.strip() else []:
            key, eq, value = (x.strip() for x in part.partition("="))
            if not eq or not key or not value:
                raise CrossridorError(f"engine spec {text!r}: {part.strip()!r} is not key=value")
            if key in limit_fields or key in options:
                raise CrossridorError(f"engine spec {text!r}: {key!r} given twice")
            if key == "tc":
                limit_fields[key] = TimeControl.parse(value)
            elif key == "ponder":
                limit_fields[key] = _flag(text, key, value)
            elif key in UCI_LIMIT_KEYS or key == "margin":
                try:
                    number = LIMIT_KEYS[key](value) if key in LIMIT_KEYS else float(value)
                except ValueError:
                    raise CrossridorError(f"engine spec {text!r}: {key} must be a number, got {value!r}") from None
                if key == "margin":
                    if not number >= 0:
                        raise CrossridorError(f"engine spec {text!r}: margin must be >= 0 seconds")
                    options[key] = number
                else:
                    limit_fields[key] = number
            else:
                options[key] = value
        tc = limit_fields.pop("tc", None)
        ponder = limit_fields.pop("ponder", None)
        try:
            limits = Limits(**limit_fields, clock=_start_clock(tc)) if limit_fields or tc else FALLBACK_LIMITS
        except ValueError as exc:
            raise CrossridorError(f"engine spec {text!r}: {exc}") from None
        return cls("uci", limits, tuple(sorted(options.items())), bool(limit_fields) or tc is not None,
                   command, tc, ponder)

    def with_tc(self, tc: TimeControl) -> "EngineSpec":
        """This engine on the clock `tc` (the match's --tc), unless it has its own."""
        if self.tc is not None:
            return self
        base = self.limits if self.explicit_limits else None
        fields = {k: getattr(base, k) for k in ("time", "depth", "nodes", "sims")} if base else {}
        return dataclasses.replace(self, limits=Limits(**fields, clock=_start_clock(tc)),
                                   explicit_limits=True, tc=tc)

    def with_ponder(self, ponder: bool) -> "EngineSpec":
        """This engine pondering or not (the match's --ponder), unless it says itself."""
        return self if self.ponder is not None else dataclasses.replace(self, ponder=ponder)

    def __str__(self) -> str:
        tc = [f"tc={self.tc}"] if self.tc is not None else []
        if self.ponder is not None:
            tc.append(f"ponder={format_value(self.ponder)}")
        if self.command is not None:
            parts = [f"{k}={getattr(self.limits, k):g}" for k in UCI_LIMIT_KEYS
                     if self.explicit_limits and getattr(self.limits, k) is not None]
            parts += tc + [f"{k}={format_value(v)}" for k, v in self.options]
            return UCI_PREFIX + self.command + (";" + ",".join(parts) if parts else "")
        parts = []
        if self.explicit_limits or self.algorithm not in LIMITLESS:
            parts = [f"{k}={getattr(self.limits, k):g}" for k in LIMIT_KEYS
                     if getattr(self.limits, k) is not None]
        parts += tc + [f"{k}={format_value(v)}" for k, v in self.options]
        return self.algorithm + (":" + ",".join(parts) if parts else "")

    def open(self):
        """A player for one game: `choose(state, moves, seed)` -> move, and
        `close()`. An outside engine's process lives as long as its player."""
        if self.command is None:
            return _SearchPlayer(self)
        from crossridor.engine.match.outside_engine import DEFAULT_MARGIN, UciPlayer
        options = dict(self.options)
        margin = options.pop("margin", DEFAULT_MARGIN)
        limits = self.limits
        if self.tc is not None:     # the clock goes with each `go`; keep only the other limits
            rest = {k: getattr(limits, k) for k in UCI_LIMIT_KEYS if getattr(limits, k) is not None}
            limits = Limits(**rest) if rest else None
        return UciPlayer(self.command, limits, tuple(options.items()), margin, bool(self.ponder))

    def search(self, state, seed: int | None, clock: Clock | None = None, memory=None):
        """The engine's move in `state` (a SearchResult); `clock`: the
        mover's clock now (an engine with a time control); `memory`: the
        game's search memory (`search_api.search_memory`), if it keeps one."""
        if self.command is not None:
            raise CrossridorError(f"engine {self}: an outside engine plays through open()")
        limits = self.limits if clock is None else dataclasses.replace(self.limits, clock=clock)
        options = dict(self.options)
        if memory is not None:
            options["memory"] = memory
        try:
            return search(state, self.algorithm, limits, seed=seed, **options)
        except ImportError as exc:
            raise CrossridorError(f"engine {self}: algorithm {self.algorithm!r} is not available ({exc})") from None
        except TypeError as exc:
            # An unknown algorithm option reaches the algorithm as a keyword.
            if "argument" in str(exc):
                raise CrossridorError(f"engine {self}: {exc}") from None
            raise


def _flag(text: str, key: str, value: str) -> bool:
    flag = convert_value(value)
    if not isinstance(flag, bool):
        raise CrossridorError(f"engine spec {text!r}: {key} must be true or false, got {value!r}")
    return flag


def _start_clock(tc: TimeControl | None) -> Clock | None:
    return None if tc is None else SeatClock(tc).for_search()


def move_budget(spec: EngineSpec, state, clock: Clock | None) -> tuple | None:
    """(soft, hard) seconds a built-in engine gives itself for a move: its
    move time, or its share of the clock (search_api.time_for_move; a search
    without a time manager of its own takes the soft share as its move
    time); None without a time limit or for an outside engine on a clock."""
    limits = spec.limits
    if clock is not None:
        if spec.command is not None:
            return None
        if not manages_clock(state, spec.algorithm):
            share = clock_as_time(dataclasses.replace(limits, clock=clock)).time
            return share, share
        plan = clock_plan(dataclasses.replace(limits, clock=clock))
        return plan.soft, plan.hard
    if limits.time is not None:
        return limits.time, limits.time
    return None


class _SearchPlayer:
    """A built-in engine as a player: one search per move, each handing its
    table on to the next (the game's search memory), as an engine does;
    with `ponder`, it thinks on the opponent's time (crossridor.engine.ponder)."""

    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.last_score = None   # the score of the last search (self-play data)
        self.memory: SearchMemory | None = None
        self._memory_made = False
        self._guess: tuple | None = None       # the reply the last search expects
        self._ponder: Ponder | None = None
        self._moves_then = 0                    # plies played when the ponder started
        self.ponder_tries = 0
        self.ponder_hits = 0

    def choose(self, state, moves: list, seed: int | None, clocks: list | None = None):
        """The move; `clocks`: each seat's Clock now (None: no clock)."""
        clock = clocks[state.current_player] if clocks else None
        if not self._memory_made:
            self.memory = search_memory(state, self.spec.algorithm)
            self._memory_made = True
        if self._ponder is not None:
            self.ponder_hits += self._ponder.expects(moves[self._moves_then:])
            self._ponder.finish()
            self._ponder = None
        result = self.spec.search(state.clone(), seed, clock, self.memory)
        self.last_score = result.score
        self._guess = predicted_reply(state, result) if self.spec.ponder else None
        return result.move

    def ponder(self, state, moves: list, seed: int | None, clocks: list | None = None) -> None:
        """Think on the opponent's time: `state` and `moves` are the game
        after this player's move (`clocks`: as in choose, unused: the
        search stops when the turn comes)."""
        if self._guess is None or self._ponder is not None:
            return
        options = dict(self.spec.options)
        self._ponder = start_ponder(state, self._guess, self.spec.algorithm, self.memory, options, seed)
        if self._ponder is not None:
            self._moves_then = len(moves)
            self.ponder_tries += 1

    def close(self) -> None:
        if self._ponder is not None:
            self._ponder.finish()
            self._ponder = None


