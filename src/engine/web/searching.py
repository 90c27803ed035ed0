"""Searches for the web app: off the event loop, in worker threads (the C
searches release the GIL), and stoppable.

`stoppable_search` is the one place that knows how a search is stopped: every
search polls its `crossridor.Stop` token (the C loops next to their clock
checks), so setting the token ends it at once with its best move so far.
Open-ended analysis of the searches without iterative deepening runs in
chunks of growing length, each reported as an info line.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import threading
from dataclasses import replace
from typing import Callable

from crossridor.engine.protocol import Limits, SearchResult
from crossridor.engine.search_api import search
from crossridor.engine.stop import Stop
from crossridor.engine.match.workers import EngineSpec

# Enough threads that tabs waiting on the engine do not queue behind each
# other; the searches' own time limits bound the work.
SEARCH_THREADS = int(os.environ.get("CROSSRIDOR_SEARCH_THREADS", "32"))
MAX_SECONDS = 120.0           # longest search a page may ask for
ANALYSIS_CHUNKS = (0.25, 0.5, 1.0, 2.0)   # open-ended analysis: chunk lengths, the last repeats
CHUNKED_ALGORITHMS_LIMIT = 600.0         # open-ended analysis stops after this many seconds

_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
_running = 0                  # searches running now; changed under _pool_lock


def pool() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(SEARCH_THREADS, thread_name_prefix="crossridor-search")
        return _pool


def running() -> int:
    """Searches running now (for /api/health)."""
    return _running


class Stopped(Exception):
    """Raised inside a search's callback to end it early."""


def stoppable_search(state, spec: EngineSpec, seed: int | None, stop: Stop,
                     on_info: Callable[[SearchResult], None] | None = None) -> SearchResult | None:
    """Search `state` (a copy the caller will not touch) with `spec`; None if
    stopped before any result. `on_info` gets each finished depth or chunk."""
    global _running
    options = dict(spec.options)
    last: list[SearchResult] = []

    def report(info: SearchResult) -> None:
        last[:] = [info]
        if on_info is not None:
            on_info(info)
        if stop.is_set():
            raise Stopped

    if stop.is_set():
        return None
    with _pool_lock:
        _running += 1
    try:
        iterative = spec.algorithm == "alphabeta" and type(state).__name__ == "QuoridorState"
        if iterative:
            options["on_iteration"] = report
            try:
                return search(state, spec.algorithm, spec.limits, seed=seed, stop=stop, **options)
            except Stopped:
                return last[0] if last else None
        return search(state, spec.algorithm, spec.limits, seed=seed, stop=stop, **options)
    finally:
        with _pool_lock:
            _running -= 1


def analysis_spec(spec: EngineSpec) -> EngineSpec:
    """An engine spec for open-ended analysis: the given limits, or a long
    time limit that `stop` cuts short."""
    if spec.explicit_limits:
        return spec
    return replace(spec, limits=Limits(time=CHUNKED_ALGORITHMS_LIMIT))


def analyse(state, spec: EngineSpec, seed: int | None, stop: Stop,
            on_info: Callable[[SearchResult], None]) -> SearchResult | None:
    """Open-ended analysis until `stop`: one iterative search where it
    reports its depths, else repeated searches of growing length (each
    reported as an info line) while the total stays within the limit."""
    spec = analysis_spec(spec)
    if spec.algorithm == "alphabeta" and type(state).__name__ == "QuoridorState":
        return stoppable_search(state, spec, seed, stop, on_info)
    total = spec.limits.time
    if total is None:              # a depth, node or simulation budget: one search
        result = stoppable_search(state, spec, seed, stop)
        if result is not None:
            on_info(result)
        return result
    spent, k, best = 0.0, 0, None
    while not stop.is_set() and spent < total - 1e-9:
        chunk = min(ANALYSIS_CHUNKS[min(k, len(ANALYSIS_CHUNKS) - 1)], total - spent)
        result = stoppable_search(state, replace(spec, limits=Limits(time=chunk)),
                                  None if seed is None else seed + k, stop)
        if result is None:
            break
        best = result
        on_info(replace(result, depth=k + 1))
        spent += chunk
        k += 1
    return best


async def in_thread(fn, *args):
    """Run `fn(*args)` in the search pool without blocking the event loop."""
    return await asyncio.get_running_loop().run_in_executor(pool(), fn, *args)


def check_spec(text: str) -> EngineSpec:
    """An engine spec from a page, with its time bounded."""
    spec = EngineSpec.parse(text)
    t = spec.limits.time
    if t is not None and t > MAX_SECONDS:
        raise ValueError(f"engine {text!r}: time is at most {MAX_SECONDS:g} s here")
    return spec
