"""`search(state, algorithm, limits, seed, **options)`: one entry point for
every game and algorithm. A state may offer a compiled fast path
(`native_search`); otherwise the pure-Python algorithm module runs."""

from __future__ import annotations

import importlib
from typing import Any

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


def search(state: State, algorithm: str = "alphabeta", limits: Limits | None = None,
           seed: int | None = None, **options: Any) -> SearchResult:
    """Search `state` and return the best move found for the player to move
    (`state` is left as it was). `algorithm` is one of `algorithm_names()`;
    `limits` defaults to one second; `seed` fixes every random choice;
    `options` are the algorithm's (e.g. hash=64, rollout="random")."""
    if algorithm not in ALGORITHMS:
        raise CrossridorError(f"unknown algorithm {algorithm!r} (known: {', '.join(algorithm_names())})")
    if limits is None:
        limits = Limits(time=1.0)
    elif not isinstance(limits, Limits):
        raise CrossridorError(f"limits must be a Limits object, got {type(limits).__name__}")
    if state.is_terminal():
        raise CrossridorError("cannot search a finished game")
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
