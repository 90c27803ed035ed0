"""The table of docs/solving.md: each board solved from the start and the
solution checked (`solve --verify`: every reply on 3x3, seeded games
against alpha-beta, MCTS and random players on larger boards).

    python3 bench/solve_table.py 3:0-10 5:0-3 7:0-1 [--games K] [--memory GB] [--threads N]

One markdown row per entry on stdout, as it finishes (a JSON line with
every figure on stderr). An entry that stops with an error (memory) ends
its board's run; the next board goes on. Each entry's levels are kept in a
temporary folder (read back through mmap) for the check, then deleted."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time

import crossridor
from crossridor.games.quoridor.solve import Solver, solve
from crossridor.games.quoridor.verify import verify


def entries(spec: str):
    size, _, walls = spec.partition(":")
    low, _, high = walls.partition("-")
    return int(size), range(int(low), int(high or low) + 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("boards", nargs="+", metavar="SIZE:WALLS", help="e.g. 5:0-3")
    parser.add_argument("--games", type=int, default=20, help="verify: seeded games per opponent")
    parser.add_argument("--memory", type=float, default=None, metavar="GB")
    parser.add_argument("--threads", type=int, default=None, metavar="N", help="default: the cores")
    args = parser.parse_args()
    print("| board | walls | winner | plies | winning first moves | positions | seconds | memory | verify |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in args.boards:
        size, walls_range = entries(spec)
        for walls in walls_range:
            state = crossridor.load_game("quoridor", size=size, walls=walls).new_state()
            with tempfile.TemporaryDirectory(prefix="crossridor-solve-") as folder:
                solver = Solver(size, args.memory, threads=args.threads, folder=folder)
                try:
                    result = solve(state, solver=solver)
                except crossridor.CrossridorError as exc:
                    print(f"| {size}×{size} | {walls} | {exc} | | | | | | |", flush=True)
                    break
                start = time.perf_counter()
                check = verify(solver, state, result, games=args.games, seed=walls)
                checked = time.perf_counter() - start
                del solver
            winner = "draw" if result.winner is None else f"player {result.winner}"
            moves = (" ".join(result.moves) if result.winner == result.to_move
                     else f"none (slowest losses: {' '.join(result.moves)})")
            what = f"{check.positions:,} positions" if check.mode == "exhaustive" else f"{check.games} games"
            verdict = f"ok ({what}, {checked:.1f} s)" if check.ok else f"FAILED: {check.failure}"
            print(f"| {size}×{size} | {walls} | {winner} | {result.plies} | {moves} | {result.nodes:,} | "
                  f"{result.seconds:.2f} | {result.memory / 1e6:,.1f} MB | {verdict} |", flush=True)
            sys.stderr.write(json.dumps({"size": size, "walls": walls, **result.to_json(),
                                         "verify": check.to_json(), "verify_seconds": round(checked, 3)}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
