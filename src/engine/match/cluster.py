"""Running a match's games on a Dask cluster (`crossridor match ...
--scheduler tcp://HOST:PORT`; the optional extra `crossridor[cluster]`).

The games go through Dask's own executor (`Client.get_executor`), a
`concurrent.futures.Executor` like the local process pool, so the match
runner is the same: games seeded from (match seed, index), counted in index
order, records written as they finish; SPRT, resume and progress work as
locally, and without time limits the records equal a local run's. When a
worker dies, the scheduler gives its games to another worker (Dask reruns a
task whose worker was lost, up to `distributed.scheduler.allowed-failures`
times); the runner sees one result per game, so each is counted once.

The workers need `crossridor` installed (the same version), and so does the
machine that runs `crossridor match`.
"""

from __future__ import annotations

import concurrent.futures

from crossridor.engine.errors import CrossridorError

CONNECT_TIMEOUT = "10s"


class ClusterExecutor(concurrent.futures.Executor):
    """The games of a match on the workers of a running Dask scheduler."""

    def __init__(self, address: str, timeout: str = CONNECT_TIMEOUT):
        try:
            import distributed
        except ImportError:
            raise CrossridorError("--scheduler needs Dask distributed: pip install 'crossridor[cluster]'") from None
        try:
            self.client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise CrossridorError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        # pure=False: every game is its own task, even with equal arguments
        self._executor = self.client.get_executor(pure=False)

    def capacity(self) -> int:
        """Games the cluster plays at once: its worker threads (at least 1)."""
        return max(1, sum(self.client.nthreads().values()))

    def submit(self, fn, /, *args, **kwargs):
        return self._executor.submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        try:
            self._executor.shutdown(wait=wait and not cancel_futures)
        finally:
            self.client.close()
