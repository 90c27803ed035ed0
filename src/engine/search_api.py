"""`search(state, algorithm, limits, seed, **options)`: one entry point for
every game and algorithm. A state may offer a compiled fast path
(`native_search`); otherwise the pure-Python algorithm module runs."""

from __future__ import annotations

import dataclasses
import importlib
from typing import Any

from . import stop as _stop
from .errors import CrossridorError
from .protocol import Limits, SearchResult, State

ALGORITHMS = {
    "alphabeta": "crossridor.engine.algorithms.alphabeta",
    "mcts": "crossridor.engine.algorithms.mcts",
    "ismcts": "crossridor.engine.algorithms.ismcts",
    "random": "crossridor.engine.algorithms.random_player",
    "greedy": "crossridor.engine.algorithms.greedy",
}


def algorithm_names() -> list[str]:
    return sorted(ALGORITHMS)


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
    `options` are the algorithm's (e.g. hash=64, rollout="random").

    `stop`: a `crossridor.Stop`; `stop.set()` from another thread ends the
    search early (so does `crossridor.stop()`), which then returns the best
    move found so far with `extra["stopped"] = True`.

    `on_iteration=f`: f(SearchResult) after every finished depth of an
    iterative-deepening alpha-beta; other algorithms call it once, with the
    final result."""
    if algorithm not in ALGORITHMS:
        raise CrossridorError(f"unknown algorithm {algorithm!r} (known: {', '.join(algorithm_names())})")
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


def _run(state, algorithm, limits, seed, options) -> SearchResult:
    native = getattr(state, "native_search", None)
    if native is not None:
        result: SearchResult = native(algorithm, limits, seed, options)
        if result is not NotImplemented:
            return result
    module = importlib.import_module(ALGORITHMS[algorithm])
    found: SearchResult = module.search(state, limits, seed=seed, **options)
    return found


# A clock allocation for `go wtime/btime/winc/binc` (the UCI loop): one
# function, so a smarter time manager can replace it.
MOVES_TO_GO = 30          # assume this many moves left when the clock does not say
SAFETY = 0.05             # seconds kept back for the process and the pipe


def time_for_move(time_left: float, increment: float = 0.0, moves_to_go: int | None = None) -> float:
    """Seconds to think with `time_left` on the clock: time_left / moves_to_go
    (default 30) + increment, capped at half the time left, and at least
    1 ms."""
    share = time_left / (moves_to_go if moves_to_go and moves_to_go > 0 else MOVES_TO_GO) + increment
    return max(0.001, min(share, time_left / 2.0 - SAFETY))
