"""Lazy SMP: time to depth and nodes/s for 1 and N threads (run by hand):

    python bench/bench_threads.py [--threads 2] [--opening-depth 8] [--middle-depth 8] [--repeat 1]

20 seeded 9x9 positions (10 openings, 10 middle games; bench_time.positions)
are searched to a fixed depth with 1 thread and with N threads, alternately
(so that a change in the machine's load hits both alike). Prints per
position the seconds and nodes/s of each, then the medians and the median
of the per-position speed-ups. Time to depth is what Lazy SMP is judged by:
the helpers fill the shared table, and the main thread reaches the depth
sooner. Timings on a shared machine are noisy: repeat, and quote the load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bench_time import positions

import crossridor
from crossridor import Limits


def timed(state, depth: int, threads: int) -> tuple[float, float, int]:
    """Seconds to depth, nodes/s of all threads, nodes of the main thread."""
    began = time.perf_counter()
    result = crossridor.search(state, limits=Limits(depth=depth), threads=threads)
    seconds = time.perf_counter() - began
    return seconds, result.nodes / seconds, result.extra.get("main_nodes", result.nodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--opening-depth", type=int, default=8)
    parser.add_argument("--middle-depth", type=int, default=8)
    parser.add_argument("--positions", type=int, default=10, help="per phase (default 10)")
    parser.add_argument("--repeat", type=int, default=1, help="searches per position and count; the median")
    args = parser.parse_args()
    game = crossridor.load_game("quoridor")
    cases = [(m, args.opening_depth) for m in positions(args.positions, "opening")]
    cases += [(m, args.middle_depth) for m in positions(args.positions, "middle")]
    n = args.threads
    print(f"load before: {os.getloadavg()[0]:.2f}")
    print(f"{'plies':>5} {'depth':>5} {'1 thread s':>10} {f'{n} threads s':>11} {'speed-up':>8} "
          f"{'1 thread nps':>12} {f'{n} threads nps':>14} {'main nodes':>10}")
    rows = []
    for moves, depth in cases:
        state = game.new_state(moves)
        one, many = [], []
        for _ in range(args.repeat):
            one.append(timed(state, depth, 1))
            many.append(timed(state, depth, n))
        t1 = statistics.median(t for t, _, _ in one)
        tn = statistics.median(t for t, _, _ in many)
        nps1 = statistics.median(v for _, v, _ in one)
        npsn = statistics.median(v for _, v, _ in many)
        # the main thread's nodes to the depth, as a share of one thread's: below 1 when the
        # helpers' table entries save it work (less dependent on the CPU the helpers got)
        main = statistics.median(m for _, _, m in many) / statistics.median(m for _, _, m in one)
        rows.append((t1, tn, t1 / tn, nps1, npsn, main))
        print(f"{len(moves.split()):5d} {depth:5d} {t1:10.3f} {tn:11.3f} {t1 / tn:8.2f} {nps1:12.0f} "
              f"{npsn:14.0f} {main:10.2f}")
    med = [statistics.median(col) for col in zip(*rows)]
    print(f"median over {len(rows)} positions: 1 thread {med[0]:.3f} s, {n} threads {med[1]:.3f} s, "
          f"speed-up {med[2]:.2f}x; nodes/s {med[3]:.0f} vs {med[4]:.0f} ({med[4] / med[3]:.2f}x); "
          f"main-thread nodes {med[5]:.2f}x; {n} threads faster on {sum(r[2] > 1 for r in rows)} "
          f"of {len(rows)}; load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
