"""`search(state, algorithm, limits, seed, **options)`: one entry point for
every game and algorithm. The options are checked here, once, against
their declaration and completed with their defaults; the time plan of a
clock is computed here, once. Then a state's fast path (`native_search`,
the contract `protocol.NativeSearch`) searches, or the pure-Python
algorithm module does."""

from __future__ import annotations

import dataclasses
from typing import Any

from crossridor.engine import stop as _stop
from crossridor.engine.errors import CrossridorError, UnknownGameError
from crossridor.engine.options import Param, check_params
from crossridor.engine.outlook import with_outlook
from crossridor.engine.protocol import Limits, SearchMemory, SearchResult, State, TimePlan
from crossridor.engine.registry import algorithm_entry, algorithm_options
from crossridor.engine.registry import algorithm_names as algorithm_names  # re-exported for the doors

__all__ = ["TimePlan", "UNTIL_STOPPED", "algorithm_names", "clock_as_time", "clock_plan",
           "default_algorithm", "manages_clock", "module_options", "root_moves", "search", "search_memory",
           "search_options", "time_for_move"]


UNTIL_STOPPED = Limits(time=1e6)    # a search that runs until its Stop is set (UCI `go infinite`, pondering)


def module_options(algorithm: str) -> tuple[Param, ...]:
    """The options of the registered algorithm itself (its module's
    `OPTIONS`); CrossridorError names the known algorithms."""
    return algorithm_entry(algorithm).options


def search_options(state: State, algorithm: str) -> tuple[Param, ...]:
    """The options `algorithm` takes on `state`: for a state with a fast path
    (`native_search`) of a registered game, the game's declaration
    (`registry.algorithm_options`), with the defaults the variant sets itself
    (`state.option_defaults()`, if it has one: 4-player Quoridor's
    evaluation weights); for any other state (a game's variant without one,
    a plug-in, a test's toy game) the module's `OPTIONS`."""
    if callable(getattr(state, "native_search", None)):
        try:
            declared = algorithm_options(state.game.traits.name, algorithm)
        except UnknownGameError:
            pass
        else:
            own = getattr(state, "option_defaults", None)
            defaults = own() if callable(own) else {}
            return tuple(dataclasses.replace(p, default=p.check(defaults[p.name], "option_defaults"))
                         if p.name in defaults else p for p in declared)
    return module_options(algorithm)


def default_algorithm(state: State) -> str:
    """The algorithm `best` and `play` use when none is named: alphabeta, or
    ismcts for a game with hidden information, unless the state names its
    own (`state.default_algorithm()`, e.g. Qwatrobat's exact solver once an
    open game is in play)."""
    own = getattr(state, "default_algorithm", None)
    if callable(own):
        name: str = own()
        return name
    return "ismcts" if state.game.traits.hidden_information else "alphabeta"


def search(state: State, algorithm: str = "alphabeta", limits: Limits | None = None,
           seed: int | None = None, stop: _stop.Stop | None = None, **options: Any) -> SearchResult:
    """Search `state` and return the best move found for the player to move
    (`state` is left as it was). `algorithm` is one of `algorithm_names()`;
    `limits` defaults to one second; `seed` fixes every random choice;
    `options` are those the algorithm declares for this game
    (`search_options(state, algorithm)`, e.g. hash=64, rollout="random",
    threads=N for Quoridor's Lazy SMP alphabeta): checked here, completed
    with their defaults, and handed to the game's fast path or the
    pure-Python module.

    `limits.clock`: a game clock; the search allots itself a share
    (`time_for_move`, computed here once): Quoridor's alphabeta with soft
    and hard limits (the `plan` handed to its fast path), the other
    searches the soft share as a move time.

    `stop`: a `crossridor.Stop`; `stop.set()` from another thread ends the
    search early (so does `crossridor.stop()`), which then returns the best
    move found so far with `extra["stopped"] = True`.

    `on_iteration=f` (every algorithm): f(SearchResult) after every finished
    depth of an algorithm that declares it (iterative-deepening
    alpha-beta); other algorithms call it once, with the final result.

    `multipv=N` (every algorithm that declares it: all but random and
    Kreuz & Quer's heuristic greedy): the N best moves, each with
    its score and line, in `result.lines` (best first; `result.move` is the
    first line's). `searchmoves=[...]`: only these root moves are searched
    (moves or their texts; the doors' `go searchmoves`, a game review's
    value of the move played). `result.lines` always holds at least the
    best move's line, and every line its `outlook`
    (`crossridor.engine.outlook`: the expected score, the win/draw/loss
    chances and a proven result, for the side to move)."""
    declared = search_options(state, algorithm)
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
    report = options.pop("on_iteration", None)
    if report is not None and not callable(report):
        raise CrossridorError(f"{algorithm}: option on_iteration must be a function, got {report!r}")
    if options.get("searchmoves") is not None:
        options["searchmoves"] = root_moves(state, options["searchmoves"])
    checked = check_params(f"{state.game.traits.name} {algorithm}", options, declared)
    plan = None
    if limits.clock is not None:
        if manages_clock(state, algorithm):
            plan = clock_plan(limits)
        else:
            limits = clock_as_time(limits)
    calls: list[SearchResult] = []
    if report is not None and "on_iteration" in checked:
        root = state.clone()    # a search may be playing moves on `state` when it reports

        def reported(info: SearchResult) -> None:
            calls.append(info)
            report(with_outlook(root, algorithm, info))
        checked["on_iteration"] = reported
    with _stop.scope(stop) as token:
        result = _run(state, algorithm, limits, seed, checked, plan)
        if token.is_set():
            result = dataclasses.replace(result, extra={**result.extra, "stopped": True})
    result = with_outlook(state, algorithm, result)      # one line of the result's own when it has none
    if report is not None and not calls:
        report(result)
    return result


def root_moves(state: State, moves: Any) -> tuple[Any, ...]:
    """`searchmoves` as given (moves or their texts) read into the legal
    moves they name, in order, each once; CrossridorError for a text that is
    not a legal move here, or for none at all."""
    if isinstance(moves, str) or not hasattr(moves, "__iter__"):
        raise CrossridorError(f"searchmoves must be a list of moves, got {moves!r}")
    legal = state.legal_moves()
    out: list[Any] = []
    for move in moves:
        try:
            found = state.parse_move(move) if isinstance(move, str) else move
        except CrossridorError as e:
            raise CrossridorError(f"searchmoves: {e}") from None
        if found not in legal:
            raise CrossridorError(f"searchmoves: {move} is not a legal move here")
        if found not in out:
            out.append(found)
    if not out:
        raise CrossridorError("searchmoves: give at least one move")
    return tuple(out)


def search_memory(state: State, algorithm: str) -> SearchMemory | None:
    """A fresh memory for one game's searches with `algorithm` (what a
    search hands on to the next of the same game: Quoridor's alpha-beta
    keeps its table), to pass as `search(..., memory=m)` for every move of
    that game; None where the search keeps nothing."""
    make = getattr(state, "new_search_memory", None)
    memory: SearchMemory | None = make(algorithm) if make is not None else None
    return memory


def _run(state: State, algorithm: str, limits: Limits, seed: int | None, options: dict[str, Any],
         plan: TimePlan | None) -> SearchResult:
    native = getattr(state, "native_search", None)
    if native is not None:
        result = native(algorithm, limits, seed, options, plan)
        if result is not NotImplemented:
            answer: SearchResult = result
            return answer
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


def clock_plan(limits: Limits) -> TimePlan:
    """The soft and hard limits of a search that manages `limits.clock`
    itself: the clock's share (`time_for_move`), its hard limit capped by
    `limits.time`."""
    if limits.clock is None:
        raise CrossridorError("clock_plan: the limits have no clock")
    c = limits.clock
    plan = time_for_move(c.time_left, c.increment, c.moves_to_go)
    hard = plan.hard if limits.time is None else min(limits.time, plan.hard)
    return TimePlan(min(plan.soft, hard), hard)


def clock_as_time(limits: Limits) -> Limits:
    """Limits for a search without a time manager of its own (MCTS, the
    pure-Python searches): the clock becomes a move time, its soft share."""
    if limits.clock is None:
        return limits
    c = limits.clock
    share = time_for_move(c.time_left, c.increment, c.moves_to_go).soft
    return dataclasses.replace(limits, clock=None,
                               time=share if limits.time is None else min(limits.time, share))
