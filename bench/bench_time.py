"""How much of a per-move budget `crossridor best` uses (run by hand):

    python bench/bench_time.py [--time 0.3] [--positions 20] [--threads 1]

Searches 20 seeded 9x9 middle-game positions (see `positions`) with
`Limits(time=T)`, as `crossridor best --time T` does, and times each whole
`crossridor.search` call (setup, table, result included). Prints the mean
share of the budget used, the median and the largest overrun, and the load.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

import crossridor
from crossridor import Limits


def positions(count: int = 20, phase: str = "middle", seed: int = 1) -> list:
    """`count` seeded 9x9 positions: `middle` after 14..27 plies (4 random
    plies, then alphabeta depth 2 with a seeded choice among its moves),
    `opening` after 2..6 random plies. Move lists, so they print and replay."""
    game = crossridor.load_game("quoridor")
    out = []
    k = 0
    while len(out) < count:
        rng = random.Random(seed * 1000 + k)
        k += 1
        state = game.new_state()
        moves = []
        plies = 2 + rng.randrange(5) if phase == "opening" else 14 + rng.randrange(14)
        while len(moves) < plies and not state.is_terminal():
            if len(moves) < 4 or phase == "opening":
                move = rng.choice(list(state.legal_moves()))
            else:
                move = crossridor.search(state, limits=Limits(depth=2), seed=rng.randrange(2 ** 32)).move
            state.play(move)
            moves.append(str(move))
        if not state.is_terminal() and len(state.legal_moves()) > 1:
            out.append(" ".join(moves))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--time", type=float, default=0.3, help="seconds a move (default 0.3)")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    game = crossridor.load_game("quoridor")
    used, over = [], []
    print(f"load before: {os.getloadavg()[0]:.2f}")
    for moves in positions(args.positions):
        state = game.new_state(moves)
        began = time.perf_counter()
        result = crossridor.search(state, limits=Limits(time=args.time), threads=args.threads)
        seconds = time.perf_counter() - began
        used.append(seconds / args.time)
        over.append(seconds - args.time)
        print(f"{seconds:.4f} s  depth {result.depth:2d}  {result.move}  ({len(moves.split())} plies)")
    print(f"budget {args.time:g} s, {len(used)} positions, threads {args.threads}: "
          f"mean use {100 * statistics.mean(used):.1f}%, median overrun {1000 * statistics.median(over):+.1f} ms, "
          f"max overrun {1000 * max(over):+.1f} ms; load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
