"""Each engine's lost wins in a Quoridor match, with a solved table as the
referee: the moves that turn a position won with perfect play into a lost
one. The match's board must be the table's.

    python3 bench/records_blunders.py m5.jsonl TABLE_DIR

where TABLE_DIR was written by `crossridor solve quoridor --size N --walls K
--write-table TABLE_DIR`. Prints, per engine of the match (1 and 2, as the
match runner numbers them), its moves after the opening, how many of them it
played in a won position, and how many of those threw the win away."""

from __future__ import annotations

import sys
from collections import Counter

from crossridor import load_game
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.records import read_records
from crossridor.games.quoridor.solve import Solver
from crossridor.games.quoridor.training import perfect_result


def lost_wins(path: str, table: str) -> dict[int, tuple[int, int, int]]:
    """engine (from 1) -> (moves, moves in won positions, wins thrown away)."""
    solver = Solver.read(table)
    moves, won, thrown = Counter(), Counter(), Counter()
    for record in read_records(path):        # whole lines only, each a valid game record
        if record.game != "quoridor":           # data never names code: no other game is loaded
            raise CrossridorError(f"{path}: game {record.index} is of {record.game!r}, not of quoridor")
        try:
            state = load_game("quoridor", **record.params).new_state()
            if not solver.knows(state):
                raise CrossridorError(f"on the board {state.game.size} with {state.game.walls} walls each, "
                                      f"a table of {solver.size} that does not hold its start")
            for ply, move in enumerate(record.moves):
                if ply >= record.opening_plies:
                    engine = record.seats[state.current_player] + 1
                    moves[engine] += 1
                    if perfect_result(solver, state.core) == 1.0:
                        won[engine] += 1
                        after = state.clone()
                        after.play(move)
                        thrown[engine] += perfect_result(solver, after.core) == 1.0   # the opponent now wins
                state.play(move)
        except CrossridorError as e:            # its parameters, board or moves
            raise CrossridorError(f"{path}: game {record.index}: {e}") from None
    return {e: (moves[e], won[e], thrown[e]) for e in sorted(moves)}


def main(argv) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: records_blunders.py RECORDS.jsonl TABLE_DIR\n")
        return 2
    try:
        counts = lost_wins(*argv)
    except OSError as e:
        sys.stderr.write(f"records_blunders.py: error: cannot read {e.filename!r}: {e.strerror}\n")
        return 2
    except CrossridorError as e:
        sys.stderr.write(f"records_blunders.py: error: {e}\n")
        return 2
    for engine, (n, w, t) in counts.items():
        print(f"engine {engine}: {n} moves, {w} in won positions, {t} threw the win away "
              f"({100 * t / max(w, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
