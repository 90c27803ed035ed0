"""`crossridor solve`: the exact value of a small Quoridor position
(games/quoridor/solve.py), optionally checked (games/quoridor/verify.py),
optionally written as a table folder (`best --table` plays from it). This module
parses and prints."""

from __future__ import annotations

import contextlib
import sys
import tempfile

from crossridor.engine.cli.common import (
    UsageError,
    add_game_arguments,
    load_game_from_args,
    print_json,
    run_stoppable,
    state_from_args,
)
from crossridor.engine.cli.match import add_scheduler_arguments, scheduler_from_args
from crossridor.engine.errors import CrossridorError
from crossridor.engine.stop import Interrupted


def solve_and_verify(state, args, scheduler=None):
    from crossridor.games.quoridor.solve import Solver, check_solvable, solve
    from crossridor.games.quoridor.solve_table import TableError
    from crossridor.games.quoridor.verify import verify as check
    check_solvable(state)
    with contextlib.ExitStack() as stack:
        folder = args.write_table
        if folder is None and args.verify:       # the whole table, on disk rather than in memory
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="crossridor-solve-"))
        options = dict(threads=args.threads, folder=folder, keep=bool(args.verify or args.write_table),
                       scheduler=scheduler, progress=_progress if args.progress else None)
        solver = (Solver.read(args.table, args.memory, **options) if args.table
                  else Solver(state.game.size, args.memory, **options))
        try:
            result = solve(state, solver=solver)
        except (Interrupted, CrossridorError) as exc:
            # the finished levels are kept: the same command goes on from them, unless the folder is at fault
            if args.write_table and not isinstance(exc, TableError) and (isinstance(exc, Interrupted)
                                                                         or solver.layers):
                sys.stderr.write(f"crossridor: the levels solved so far are in {args.write_table} "
                                 f"(the same --write-table resumes)\n")
            raise
        return result, (check(solver, state, result, args.games, args.seed or 0) if args.verify else None)


def _progress(line: str) -> None:
    sys.stderr.write(f"crossridor: {line}\n")
    sys.stderr.flush()


def cmd_solve(args) -> int:
    if args.memory is not None and not args.memory > 0:
        raise UsageError(f"--memory must be > 0 GB, got {args.memory}")
    if args.games < 1:
        raise UsageError(f"--games must be >= 1, got {args.games}")
    if args.threads is not None and args.threads < 1:
        raise UsageError(f"--threads must be >= 1, got {args.threads}")
    if args.game.lower() != "quoridor":
        raise UsageError(f"solve: only quoridor can be solved, not {args.game!r}")
    if args.scheduler and not args.write_table:
        raise UsageError("--scheduler needs --write-table DIR, a folder the workers read too")
    if args.results is not None and not args.sweep:
        raise UsageError("--results needs --sweep")
    scheduler = scheduler_from_args(args)
    if args.sweep:
        from crossridor.engine.cli.sweep import cmd_sweep
        return cmd_sweep(args, scheduler)
    state = state_from_args(load_game_from_args(args), args)
    if args.count:
        return print_count(run_stoppable(count_layers, state, args)[0], args.json)
    (result, check), _ = run_stoppable(solve_and_verify, state, args, scheduler)
    if args.json:
        out = result.to_json()
        if check is not None:
            out["verify"] = check.to_json()
        print_json(out)
    else:
        print_result(result, check)
    return 0 if check is None or check.ok else 1


def count_layers(state, args) -> dict:
    from crossridor.games.quoridor.solve import Solver, check_solvable
    check_solvable(state)
    return Solver(state.game.size, args.memory).count(state)


def print_count(count: dict, as_json: bool) -> int:
    if as_json:
        print_json(count)
        return 0
    for level, layers in count["levels"].items():
        print(f"level {level}: {layers:,} layers")
    print(f"{count['layers']:,} layers: at one byte a position (stored coded, smaller), "
          f"{count['table_bytes'] / 1e9:,.2f} GB for the table, {count['two_levels_bytes'] / 1e9:,.2f} GB for "
          f"the two largest adjacent levels")
    return 0


def print_result(result, check) -> None:
    mover = f"player {result.to_move} to move" if result.to_move else "the game is over"
    print(f"position {result.position} ({mover})")
    if result.winner is None:
        print("draw: neither side can force a win")
        print(f"drawing moves: {' '.join(result.moves)}")
    else:
        print(f"player {result.winner} wins in {result.plies} plies with perfect play")
        if result.moves:
            kind = "winning" if result.winner == result.to_move else "slowest losing"
            print(f"{kind} moves: " + " ".join(f"{m} ({result.move_plies[m]})" for m in result.moves))
    print(f"{result.nodes:,} positions in {result.layers:,} wall configurations, "
          f"{result.seconds:.3f} s, {result.memory / 1e6:.1f} MB")
    if check is not None:
        what = f"{check.positions:,} positions" if check.mode == "exhaustive" else f"{check.games} games"
        verdict = "ok" if check.ok else f"FAILED: {check.failure}"
        print(f"verify ({check.mode}, {what}): {verdict}")


def add_parsers(sub) -> None:
    """Register the `solve` subcommand on the CLI's subparsers."""
    p = sub.add_parser(
        "solve", help="solve a small two-player Quoridor position exactly",
        description="The game-theoretic value of a two-player Quoridor position with perfect play "
                    "(retrograde analysis over every position of each wall configuration, no ply "
                    "cap): the winner or a draw, the plies to the end, every winning first move, "
                    "and the positions, seconds and memory it took.")
    add_game_arguments(p)
    p.add_argument("--memory", type=float, default=None, metavar="GB",
                   help="stop with an error when the solved positions would need more (default: no bound); "
                        "with a table folder (--write-table, --verify) the level being solved goes to disk "
                        "and memory holds the level below it")
    p.add_argument("--verify", action="store_true",
                   help="check the solution: the winner's moves against every reply (boards of at most "
                        "15 squares: 2x3 to 2x7, 3x3 to 3x5, 4x3, 5x3), or against "
                        "alpha-beta, MCTS and random players from seeded games (larger boards)")
    p.add_argument("--games", type=int, default=20, metavar="K",
                   help="with --verify on a larger board: games per opponent (default 20)")
    p.add_argument("--write-table", metavar="DIR",
                   help="write each solved level to this folder as it is finished (a stopped run given the "
                        "same folder goes on from its finished levels); best --table DIR plays from it; "
                        "with --sweep, the folder of a table folder per entry (DIR/4x7-walls5)")
    p.add_argument("--table", metavar="DIR", help="answer from a written table when the position is in it")
    p.add_argument("--threads", type=int, default=None, metavar="N",
                   help="threads solving the layers of a level at once (default: the cores)")
    add_scheduler_arguments(p, "solve each level's layers on the workers of a Dask scheduler (needs "
                               "--write-table on a folder the workers read at the same path); whoever reaches "
                               "it runs code here: docs/solving.md")
    p.add_argument("--sweep", nargs="+", metavar="SPEC",
                   help="solve many entries from the start, one after the other: BOARD:WALLS (4x7:0-10, 5:3), "
                        "or published (the 17 boards of the published table, 0 to 10 walls each), or "
                        "even-heights (every board 4, 6 or 8 rows high with at most 28 squares, 0 to 10 walls "
                        "each); prints the outcomes as the published table, then a row per entry")
    p.add_argument("--results", metavar="FILE",
                   help="with --sweep: append each finished entry to this JSON-lines file; the same command "
                        "run again solves only the entries not in it")
    p.add_argument("--progress", action="store_true", help="one line per level on stderr")
    p.add_argument("--count", action="store_true",
                   help="only count the layers of each level, and the bytes at one byte a position (an upper "
                        "bound: levels are stored coded)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_solve)
