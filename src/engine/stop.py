"""Stopping a running search from another thread (Stockfish's `Threads.stop`).

Every search runs inside `scope(stop)`, which makes its `Stop` the current one
of the thread. The C loops poll that Stop's flag next to their clock checks,
and the pure-Python searches call `stopped()`; a stopped search returns the
best move it has found so far, as if its time had run out.

* Per search: `crossridor.search(state, ..., stop=token)` with `token =
  crossridor.Stop()`; `token.set()` from any thread stops that search only
  (and any other search given the same token). A token stays set until
  `clear()`: a search started with a set token returns at once.
* Every search: `crossridor.stop()` sets the token of each search running
  now, in any thread. Searches started later are not affected.
* The command line (`interrupt()`, on SIGINT/SIGTERM) also latches: every
  search started afterwards in this process is stopped from the start, so a
  match or a game loop winds down instead of starting new searches.
"""

from __future__ import annotations

import threading
from collections import Counter
from contextlib import contextmanager
from typing import Iterator

from crossridor.engine._core import StopFlag

__all__ = ["Stop", "Interrupted", "scope", "current", "stopped", "stop_all", "interrupt",
           "interrupted"]


class Interrupted(KeyboardInterrupt):
    """Work that cannot return a partial answer (perft, a match game) was stopped."""


class Stop:
    """A stop request for the searches it is given to; thread-safe."""

    __slots__ = ("_flag",)

    def __init__(self) -> None:
        self._flag = StopFlag()

    def set(self) -> None:
        """Ask the searches using this token to stop now."""
        self._flag.set()

    def clear(self) -> None:
        self._flag.clear()

    def is_set(self) -> bool:
        return self._flag.is_set()

    def __repr__(self) -> str:
        return f"Stop(set={self.is_set()})"


_local = threading.local()
_lock = threading.Lock()
_active: Counter = Counter()     # Stop -> number of searches running with it
_interrupted = False


@contextmanager
def scope(stop: Stop | None = None) -> Iterator[Stop]:
    """Run a search with `stop` (a fresh Stop if None) as this thread's
    current token, registered for stop_all()."""
    if stop is not None and not isinstance(stop, Stop):
        from crossridor.engine.errors import CrossridorError
        raise CrossridorError(f"stop must be a crossridor.Stop, got {type(stop).__name__}")
    token = stop if stop is not None else Stop()
    with _lock:
        _active[token] += 1
        if _interrupted:
            token.set()
    previous = getattr(_local, "stop", None)
    _local.stop = token
    try:
        yield token
    finally:
        _local.stop = previous
        with _lock:
            _active[token] -= 1
            if not _active[token]:
                del _active[token]


def current() -> Stop | None:
    """The token of the search running in this thread, if any."""
    return getattr(_local, "stop", None)


def current_flag() -> StopFlag | None:
    """The C flag of the current token (what the compiled searches poll)."""
    token = getattr(_local, "stop", None)
    return None if token is None else token._flag


def stopped() -> bool:
    """Whether the search running in this thread has been asked to stop."""
    token = getattr(_local, "stop", None)
    return token is not None and token._flag.is_set()


def stop_all() -> None:
    """Stop every search running now, in every thread."""
    with _lock:
        for token in _active:
            token.set()


def interrupt() -> None:
    """Stop every search, now and from now on (the CLI's SIGINT/SIGTERM)."""
    global _interrupted
    with _lock:
        _interrupted = True
        for token in _active:
            token.set()


def interrupted() -> bool:
    """Whether interrupt() has been called in this process."""
    return _interrupted
