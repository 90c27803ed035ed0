"""Where a match's games run: in this process (`InlineExecutor`), in worker
processes (`WorkerPool`, the default), each ending its outside engines when it
is stopped; `make_executor` and `stop_executor`."""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import os
import signal
import threading
import time

# --- executors --------------------------------------------------------------------

WORKER_END_WAIT = 5.0               # seconds a worker being ended has to end its outside engines


class InlineExecutor(concurrent.futures.Executor):
    """Runs each task at `submit`, in this process (concurrency 1; also
    handy under a debugger)."""

    def submit(self, fn, /, *args, **kwargs):
        future: concurrent.futures.Future = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller like a pool would
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            future.set_exception(exc)
        return future


def _worker_init(parent_pid: int) -> None:
    """In each worker: leave Ctrl-C to the parent (which stops the pool),
    and exit if the parent dies (killed with SIGKILL, say)."""
    from crossridor.engine.match.outside_engine import end_all_engines

    def end(*_):
        # outside engines run in their own sessions: end them with the worker,
        # which then dies of SIGTERM as it would have without this handler
        end_all_engines()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        os._exit(1)

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, end)   # not the CLI's handler, inherited by fork
    # A Python handler runs only when the main thread gets back to Python; the
    # wakeup pipe lets a thread act at once while the main thread is in a search.
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)

    def on_wakeup():
        while os.read(read_end, 1)[:1] != bytes([signal.SIGTERM]):
            pass
        end_all_engines()       # the main thread's handler then ends the worker

    threading.Thread(target=on_wakeup, name="sigterm-watch", daemon=True).start()

    def watch():
        while True:
            time.sleep(1.0)
            if os.getppid() != parent_pid:
                end_all_engines()
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class _WorkerContext:
    """The multiprocessing context of a worker pool (the default start
    method) that remembers the processes it makes: ProcessPoolExecutor has
    no public way to end its workers before Python 3.14."""

    def __init__(self):
        self._context = multiprocessing.get_context()
        self.processes: list = []

    def Process(self, *args, **kwargs):  # noqa: N802 (the context API's name)
        process = self._context.Process(*args, **kwargs)
        self.processes.append(process)
        return process

    def __getattr__(self, name):
        return getattr(self._context, name)


class WorkerPool(concurrent.futures.ProcessPoolExecutor):
    """A process pool for games whose workers can be ended at once."""

    def __init__(self, max_workers: int):
        self.worker_context = _WorkerContext()
        # the context is duck-typed (Process, and the rest delegated), not a BaseContext
        super().__init__(max_workers=max_workers, mp_context=self.worker_context,  # type: ignore[call-overload]
                         initializer=_worker_init, initargs=(os.getpid(),))

    def terminate_workers(self) -> None:
        """End every worker process now (as Python 3.14's method of this name)."""
        for process in self.worker_context.processes:
            if process.is_alive():
                process.terminate()
        for process in self.worker_context.processes:
            process.join(timeout=WORKER_END_WAIT)   # each ends its outside engines first
            if process.is_alive():                  # its main thread is still in a search
                process.kill()


def make_executor(concurrency: int) -> concurrent.futures.Executor:
    if concurrency <= 1:
        return InlineExecutor()
    return WorkerPool(concurrency)


def stop_executor(executor: concurrent.futures.Executor, abort: bool) -> None:
    """Shut an executor down: wait for the running games, or (abort: after
    an error or an interrupt) end the worker processes at once."""
    if abort:
        terminate = getattr(executor, "terminate_workers", None)
        if terminate is not None:
            terminate()
    # Wait even after an abort (the workers are gone, so it is quick): a pool
    # thread left running races Python's exit hook for its wakeup pipe, and
    # the loser prints "OSError: Bad file descriptor" (CPython 3.11).
    executor.shutdown(wait=True, cancel_futures=True)
