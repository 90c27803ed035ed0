"""`search(state, algorithm, limits, seed, **options)`: one entry point for
every game and algorithm. A state may offer a compiled fast path
(`native_search`); otherwise the pure-Python algorithm module runs."""

from __future__ import annotations

import dataclasses
from typing import Any

from crossridor.engine import stop as _stop
from crossridor.engine._core import MAX_THREADS  # threads of a Lazy SMP search
from crossridor.engine.errors import CrossridorError
from crossridor.engine.protocol import Limits, SearchResult, State
from crossridor.engine.registry import algorithm_entry
from crossridor.engine.registry import algorithm_names as algorithm_names  # re-exported for the doors


def default_algorithm(state: State) -> str:
    """The algorithm `best` and `play` use when none is named: alphabeta, or
    ismcts for a game with hidden information, unless the state names its
    own (`state.default_algorithm()`, e.g. Qwatrobat's exact solver once an
    open game is in play)."""
    own = getattr(state, "default_algorithm", None)
    if callable(own):
        return own()
    return "ismcts" if state.game.traits.hidden_information else "alphabeta"


def search(state: State, algorithm: str = "alphabeta", limits: Limits | None = None,
           seed: int | None = None, stop: _stop.Stop | None = None, **options: Any) -> SearchResult:
    """Search `state` and return the best move found for the player to move
    (`state` is left as it was). `algorithm` is one of `algorithm_names()`;
    `limits` defaults to one second; `seed` fixes every random choice;
    `options` are the algorithm's (e.g. hash=64, rollout="random"), and
    `threads=N` for a Lazy SMP search (Quoridor's alphabeta; 1: one thread,
    deterministic).

    `limits.clock`: a game clock; the search allots itself a share
    (`time_for_move`): Quoridor's alphabeta with soft and hard limits, the
    other searches the soft share as a move time.

    `stop`: a `crossridor.Stop`; `stop.set()` from another thread ends the
    search early (so does `crossridor.stop()`), which then returns the best
    move found so far with `extra["stopped"] = True`.

    `on_iteration=f`: f(SearchResult) after every finished depth of an
    iterative-deepening alpha-beta; other algorithms call it once, with the
    final result."""
    algorithm_entry(algorithm)      # a registered algorithm (CrossridorError names the known ones)
    if limits is None:
        limits = Limits(time=1.0)
    elif not isinstance(limits, Limits):
        raise CrossridorError(f"limits must be a Limits object, got {type(limits).__name__}")
    if seed is not None:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise CrossridorError(f"seed must be an integer, got {seed!r}")
        seed %= 1 << 64     # any integer; the searches take 64 bits
    if state.is_terminal():
        raise CrossridorError("cannot search a finished game")
    if limits.clock is not None and not manages_clock(state, algorithm):
        limits = clock_as_time(limits)
    threads = options.pop("threads", 1)
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise CrossridorError(f"threads must be an integer in [1, {MAX_THREADS}], got {threads!r}")
    if threads > 1:
        if algorithm not in getattr(state, "threaded_algorithms", ()):
            raise CrossridorError(f"threads: {algorithm} on {state.game.traits.name} searches with one "
                                  f"thread only (threads are for Quoridor's alphabeta)")
        options["threads"] = threads
    report = options.pop("on_iteration", None)
    if report is not None and not callable(report):
        raise CrossridorError(f"{algorithm}: option on_iteration must be a function, got {report!r}")
    calls = []
    if report is not None and algorithm == "alphabeta":
        options["on_iteration"] = lambda info: (calls.append(1), report(info))
    with _stop.scope(stop) as token:
        result = _run(state, algorithm, limits, seed, options)
        if token.is_set():
            result = dataclasses.replace(result, extra={**result.extra, "stopped": True})
    if report is not None and not calls:
        report(result)
    return result


def search_memory(state: State, algorithm: str):
    """A fresh memory for one game's searches with `algorithm` (what a
    search hands on to the next of the same game: Quoridor's alpha-beta
    keeps its table), to pass as `search(..., memory=m)` for every move of
    that game; None where the search keeps nothing."""
    make = getattr(state, "new_search_memory", None)
    return make(algorithm) if make is not None else None


def _run(state, algorithm, limits, seed, options) -> SearchResult:
    native = getattr(state, "native_search", None)
    if native is not None:
        result: SearchResult = native(algorithm, limits, seed, options)
        if result is not NotImplemented:
            return result
    found: SearchResult = algorithm_entry(algorithm).search(state, limits, seed=seed, **options)
    return found


# --- time management --------------------------------------------------------------
# One allocation for every clock: `best --wtime/--btime/--inc`, the UCI loop's
# `go wtime ...`, and the match runner's `--tc`.
MOVES_TO_GO = 20          # moves assumed left when the clock does not say (sudden death; a
                          # 9x9 game lasts 25-35 moves a side, and the share shrinks as the clock does)
SAFETY = 0.05             # seconds kept back for the process and the pipe
SAFETY_SHARE = 0.05       # ... or this share of a short clock
INCREMENT_SHARE = 0.9     # of each increment spent on the move that earns it
HARD_RATIO = 4.0          # the hard limit: up to this many soft limits ...
HARD_SHARE = 0.4          # ... but at most this share of the usable time (1 move to go: all of it)


@dataclasses.dataclass(frozen=True)
class TimePlan:
    """A move's share of the clock, in seconds: `soft` is what it should
    take (a search does not start an iteration past it, and stretches it to
    twice while the best move keeps changing), `hard` what it may never
    exceed (the search aborts at it)."""

    soft: float
    hard: float


def time_for_move(time_left: float, increment: float = 0.0, moves_to_go: int | None = None) -> TimePlan:
    """The soft and hard limits of a move with `time_left` seconds on the
    clock, `increment` added per move and `moves_to_go` moves until the
    clock is filled up (None: the rest of the game, counted as 20).

    usable = time_left - min(0.05 s, 5%); soft = usable / moves_to_go +
    0.9 increment; hard = min(4 soft, 40% of usable) (all of it with one
    move to go), and soft <= hard; both at least 1 ms."""
    mtg = moves_to_go if moves_to_go and moves_to_go > 0 else MOVES_TO_GO
    usable = max(0.0, time_left - min(SAFETY, SAFETY_SHARE * time_left))
    soft = usable / mtg + INCREMENT_SHARE * increment
    hard = min(HARD_RATIO * soft, usable if mtg == 1 else HARD_SHARE * usable)
    hard = max(0.001, hard)
    return TimePlan(max(0.001, min(soft, hard)), hard)


def manages_clock(state: State, algorithm: str) -> bool:
    """Does `algorithm` on this game spend a clock itself (soft and hard
    limits), rather than as a move time from `clock_as_time`?"""
    return algorithm in getattr(state, "native_clock_algorithms", ())


def clock_as_time(limits: Limits) -> Limits:
    """Limits for a search without a time manager of its own (MCTS, the
    pure-Python searches): the clock becomes a move time, its soft share."""
    if limits.clock is None:
        return limits
    c = limits.clock
    share = time_for_move(c.time_left, c.increment, c.moves_to_go).soft
    return dataclasses.replace(limits, clock=None,
                               time=share if limits.time is None else min(limits.time, share))
