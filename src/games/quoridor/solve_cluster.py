"""Solving the levels on a Dask cluster (`crossridor solve ... --scheduler
tcp://HOST:PORT --write-table DIR`, or tls://HOST:PORT with the TLS files of
engine/cluster.py; the optional extra `cluster`).

Each level's layers go to the workers in chunks (through the executor of
engine/cluster.py, as `match --scheduler` sends its games); a worker
reads the level's keys and the solved level below from the table folder,
solves its chunk and sends the values back, which this side writes into
the level. So the workers need the folder at the same path (a shared
folder: NFS or the like), and `crossridor` installed in the same version.
A task whose worker dies is rerun by Dask on another worker. The workers
and the scheduler are trusted as engine/cluster.py says: whoever
reaches the scheduler runs code on the workers and on this machine, and
could write into the table folder.
"""

from __future__ import annotations

import concurrent.futures
import os
from functools import lru_cache

import numpy as np

from crossridor.engine import stop as _stop
from crossridor.engine._core import QuoridorSolver
from crossridor.engine.errors import CrossridorError
from crossridor.engine.options import board_shape

CHUNK = 2048             # layers per task at most (2.5 MB of values on 5x5)
POLL = 0.2               # seconds between two looks at the stop flag


@lru_cache(maxsize=4)
def _level(folder: str, size: int | str, level: int, stamp: int):
    """(solver, keys, keys below, values below) of a level, read once per
    worker process (stamp: the modification time of the values below, so
    that a new table in the same folder is read again)."""
    from crossridor.games.quoridor.solve_table import TableFolder
    table = TableFolder.open(folder)
    solver = QuoridorSolver(*board_shape(size))
    keys = table.keys(level)
    if table.has_values(level + 1):
        up_keys, up_values = table.keys(level + 1), table.values(level + 1, solver.nodes)
    else:
        up_keys, up_values = np.zeros((0, 4), np.uint64), np.zeros((0, solver.nodes), np.int8)
    return solver, keys, up_keys, up_values


def solve_chunk(folder: str, size: int | str, level: int, start: int, end: int) -> tuple[int, bytes]:
    """The task of a worker: (positions valued, the int8 values of the
    layers start:end of `level`)."""
    below = os.path.join(folder, f"values-{level + 1:02d}.npy")
    stamp = os.stat(below).st_mtime_ns if os.path.exists(below) else 0
    solver, keys, up_keys, up_values = _level(folder, size, level, stamp)
    out = np.empty((end - start, solver.nodes), dtype=np.int8)
    positions = solver.solve_range(keys, start, end, up_keys, up_values, out)
    return positions, out.tobytes()


def solve_level_on_cluster(scheduler, table, size: int | str, level: int, out: np.ndarray) -> int:
    """Solve a level (its keys already in the table folder) on the workers
    of `scheduler` (an engine.cluster.Scheduler, or a tcp:// address)
    into out; the positions valued. Stops (engine.stop.Interrupted) when
    this thread's stop flag is set."""
    from crossridor.engine.cluster import ClusterExecutor
    folder = os.path.abspath(table.folder)
    n = len(out)
    executor = ClusterExecutor(scheduler)
    try:
        chunk = max(1, min(CHUNK, -(-n // (4 * executor.capacity()))))
        pending = {executor.submit(solve_chunk, folder, size, level, i, min(i + chunk, n)): i
                   for i in range(0, n, chunk)}
        positions = 0
        while pending:
            if _stop.stopped():
                raise _stop.Interrupted("solve stopped")
            done, _ = concurrent.futures.wait(pending, timeout=POLL,
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                start = pending.pop(future)
                try:
                    count, values = future.result()
                except (OSError, CrossridorError) as exc:
                    raise CrossridorError(f"a worker could not solve level {level}: {exc} (the workers need "
                                          f"the table folder {folder} at the same path)") from None
                block = np.frombuffer(values, dtype=np.int8).reshape(-1, out.shape[1])
                out[start:start + len(block)] = block
                positions += count
        return positions
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
