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
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import cache

from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.options import refuse_file_options
from crossridor.engine.outlook import with_outlook
from crossridor.engine.protocol import Limits, SearchResult
from crossridor.engine.registry import algorithm_options, game_names
from crossridor.engine.search_api import algorithm_names, module_options, search
from crossridor.engine.stop import Stop

# Searches running at once (the C searches release the GIL) and searches
# waiting for a thread; beyond both, a page is told the server is busy.
SEARCH_THREADS = int(os.environ.get("CROSSRIDOR_SEARCH_THREADS", str(max(2, os.cpu_count() or 2))))
SEARCH_QUEUE = int(os.environ.get("CROSSRIDOR_SEARCH_QUEUE", "32"))
ANALYSIS_CHUNKS = (0.25, 0.5, 1.0, 2.0)   # open-ended analysis: chunk lengths, the last repeats


@dataclass(frozen=True)
class Caps:
    """What a page may ask of a search, a replay or a game review (serve
    --max-time sets `time`; the others follow from it: no search or replay
    can outlast `time`, no review `review_time`)."""
    time: float = 30.0                 # seconds of one search, and of an open-ended analysis
    depth: int = 64
    counts: int = 10 ** 9              # nodes or simulations
    threads: int = max(1, min(8, os.cpu_count() or 1))
    hash: int = 256                    # MB
    clock_factor: float = 10.0         # a clock (tc) of at most factor * time per game
    plies: int = 200_000               # moves replayed by one /api/replay (all its records together)
    multipv: int = 5                   # lines of one analysis (the root option multipv)
    review_plies: int = 400            # plies of one game review (each searched once or twice)

    def check(self, text: str) -> EngineSpec:
        """An engine spec from a page, within the caps, with `time` always
        set (a depth, node or clock budget then ends within it too)."""
        spec = EngineSpec.parse(text)
        if spec.algorithm == "uci":
            raise CrossridorError(f"engine {text!r}: outside engines are for the command line only")
        options = dict(spec.options)
        refuse_file_options(options, f"engine {text!r}")
        lim = spec.limits
        budget = self.budget()
        for name in sorted(set(options) & budget_options()):
            if name not in budget:
                raise CrossridorError(f"engine {text!r}: option {name} is not offered here")
        for name, value, cap in (("time", lim.time, self.time), ("depth", lim.depth, self.depth),
                                 ("nodes", lim.nodes, self.counts), ("sims", lim.sims, self.counts),
                                 ("multipv", options.get("multipv"), self.multipv),
                                 *((name, options.get(name), cap) for name, cap in budget.items())):
            if isinstance(value, (int, float)) and not isinstance(value, bool) and value > cap:
                raise CrossridorError(f"engine {text!r}: {name} is at most {cap:g} here")
        if spec.tc is not None and lim.clock is not None and \
                lim.clock.time_left + lim.clock.increment > self.clock_factor * self.time:
            raise CrossridorError(f"engine {text!r}: tc is at most {self.clock_factor * self.time:g} s here")
        return replace(spec, limits=replace(lim, time=min(lim.time or self.time, self.time)))

    @property
    def review_time(self) -> float:
        """Seconds of one game review in all: it ends there, keeping the
        plies done (each position's search is within `time` too)."""
        return self.clock_factor * self.time

    def budget(self) -> dict[str, float]:
        """The caps on the options that bound a search's memory or work
        (declared with budget=True), by option name."""
        return {"threads": self.threads, "hash": self.hash}


@cache
def budget_options() -> frozenset[str]:
    """The names of every declared option, of any game and algorithm, that
    bounds a search's memory or work: a page may set one only within a cap."""
    names: set[str] = set()
    for algorithm in algorithm_names():
        declared = list(module_options(algorithm))
        for game in game_names():
            declared += algorithm_options(game, algorithm)
        names.update(p.name for p in declared if p.budget)
    return frozenset(names)


class Busy(CrossridorError):
    """Every search thread is busy and the queue is full."""


_pool: concurrent.futures.ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
_running = 0                  # searches running now; changed under _pool_lock
_pending = 0                  # searches running or queued; changed under _pool_lock


def pool() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(SEARCH_THREADS, thread_name_prefix="crossridor-search")
        return _pool


def running() -> int:
    """Searches running now (for /api/health)."""
    return _running


@contextmanager
def counted():
    """Count the work inside as a running search (for /api/health)."""
    global _running
    with _pool_lock:
        _running += 1
    try:
        yield
    finally:
        with _pool_lock:
            _running -= 1


def submit(fn, *args) -> concurrent.futures.Future:
    """Queue `fn(*args)` in the search pool, or Busy."""
    global _pending
    executor = pool()
    with _pool_lock:
        if _pending >= SEARCH_THREADS + SEARCH_QUEUE:
            raise Busy(f"busy: {_pending} searches are running or waiting; try again shortly")
        _pending += 1
    try:
        job = executor.submit(fn, *args)
    except BaseException:
        _done(None)
        raise
    job.add_done_callback(_done)
    return job


def _done(_job) -> None:
    global _pending
    with _pool_lock:
        _pending -= 1


class Stopped(Exception):
    """Raised inside a search's callback to end it early."""


def stoppable_search(state, spec: EngineSpec, seed: int | None, stop: Stop,
                     on_info: Callable[[SearchResult], None] | None = None) -> SearchResult | None:
    """Search `state` (a copy the caller will not touch) with `spec`; None if
    stopped before any result. `on_info` gets each finished depth or chunk.
    Every result and info carries its outlook (`result.outlook`: expected
    score, win/draw/loss chances, a proven result; in `as_dict()`)."""
    options = dict(spec.options)
    last: list[SearchResult] = []

    def report(info: SearchResult) -> None:
        info = with_outlook(state, spec.algorithm, info)
        last[:] = [info]
        if on_info is not None:
            on_info(info)
        if stop.is_set():
            raise Stopped

    if stop.is_set():
        return None
    with counted():
        iterative = spec.algorithm == "alphabeta" and type(state).__name__ == "QuoridorState"
        if iterative:
            options["on_iteration"] = report
            try:
                return search(state, spec.algorithm, spec.limits, seed=seed, stop=stop, **options)
            except Stopped:
                return last[0] if last else None
        return search(state, spec.algorithm, spec.limits, seed=seed, stop=stop, **options)


def analysis_spec(spec: EngineSpec, caps: Caps) -> EngineSpec:
    """An engine spec for open-ended analysis: the given limits, or the
    longest search allowed, which `stop` cuts short."""
    if spec.explicit_limits:
        return spec
    return replace(spec, limits=Limits(time=caps.time))


def analyse(state, spec: EngineSpec, seed: int | None, stop: Stop,
            on_info: Callable[[SearchResult], None], caps: Caps) -> SearchResult | None:
    """Open-ended analysis until `stop`: one iterative search where it
    reports its depths, else repeated searches of growing length (each
    reported as an info line) while the total stays within the limit."""
    spec = analysis_spec(spec, caps)
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
    """Run `fn(*args)` in the search pool without blocking the event loop
    (Busy if the pool and its queue are full)."""
    return await asyncio.wrap_future(submit(fn, *args))
