"""Solving the levels on a Dask cluster (`crossridor solve ... --scheduler
tcp://HOST:PORT --write-table DIR`, or tls://HOST:PORT with the TLS files of
engine/cluster.py; the optional extra `cluster`).

Each level's layers go to the workers in chunks (through the executor of
engine/cluster.py, as `match --scheduler` sends its games); a worker
reads the level's keys and the solved level below from the table folder,
solves its chunk and sends the codes of its values back, which this side
writes into the level in order. So the workers need the folder at the same path (a shared
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

POLL = 0.2               # seconds between two looks at the stop flag


@lru_cache(maxsize=4)
def _level(folder: str, size: int | str, level: int, stamp: int):
    """(solver, keys, keys below, values below) of a level, read once per
    worker process (stamp: the modification time of the values below, so
    that a new table in the same folder is read again)."""
    from crossridor.games.quoridor.solve_table import NO_LEVEL, TableFolder
    table = TableFolder.open(folder)
    solver = QuoridorSolver(*board_shape(size))
    keys = table.keys(level)
    if table.has_values(level + 1):
        up_keys, below = table.keys(level + 1), table.level_values(level + 1)
    else:
        up_keys, below = np.zeros((0, 4), np.uint64), NO_LEVEL
    return solver, keys, up_keys, below


def solve_chunk(folder: str, size: int | str, level: int, start: int, end: int) -> tuple[int, bytes, bytes]:
    """The task of a worker: (positions valued, the lengths of the codes of
    the layers start:end of `level` (uint64), their codes)."""
    below_file = os.path.join(folder, f"values-{level + 1:02d}.npy")
    stamp = os.stat(below_file).st_mtime_ns if os.path.exists(below_file) else 0
    solver, keys, up_keys, below = _level(folder, size, level, stamp)
    lengths = np.empty(end - start, dtype=np.uint64)
    positions, codes = solver.solve_range(keys, start, end, up_keys, below.offsets, below.codes, lengths)
    return positions, lengths.tobytes(), codes


def solve_level_on_cluster(scheduler, table, size: int | str, level: int, ranges: list[tuple[int, int]]):
    """Solve the ranges of a level's layers (its keys already in the table
    folder) on the workers of `scheduler` (an engine.cluster.Scheduler, or
    a tcp:// address): yields (positions valued, code lengths, codes) per
    range, in order. Stops (engine.stop.Interrupted) when this thread's
    stop flag is set."""
    from crossridor.engine.cluster import ClusterExecutor
    folder = os.path.abspath(table.folder)
    executor = ClusterExecutor(scheduler)
    try:
        pending = {executor.submit(solve_chunk, folder, size, level, start, end): i
                   for i, (start, end) in enumerate(ranges)}
        done_chunks: dict[int, tuple] = {}
        following = 0
        while pending or done_chunks:
            while following in done_chunks:
                yield done_chunks.pop(following)
                following += 1
            if not pending:
                continue
            if _stop.stopped():
                raise _stop.Interrupted("solve stopped")
            done, _ = concurrent.futures.wait(pending, timeout=POLL,
                                              return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                i = pending.pop(future)
                try:
                    count, lengths, codes = future.result()
                except (OSError, CrossridorError) as exc:
                    raise CrossridorError(f"a worker could not solve level {level}: {exc} (the workers need "
                                          f"the table folder {folder} at the same path)") from None
                done_chunks[i] = (count, np.frombuffer(lengths, dtype=np.uint64), codes)
    finally:
        executor.shutdown(wait=False, cancel_futures=True)
