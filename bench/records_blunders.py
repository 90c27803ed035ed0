"""Each engine's lost wins in a Quoridor match, with a solved table as the
referee: the moves that turn a position won with perfect play into a lost
one. The match's board must be the table's.

    python3 bench/records_blunders.py m5.jsonl TABLE_DIR

where TABLE_DIR was written by `crossridor solve quoridor --size N --walls K
--write-table TABLE_DIR`. Prints, per engine of the match (1 and 2, as the
match runner numbers them), its moves after the opening, how many of them it
played in a won position, and how many of those threw the win away."""

from __future__ import annotations

import json
import sys
from collections import Counter

from crossridor import load_game
from crossridor.games.quoridor.solve import Solver


def lost_wins(path: str, table: str) -> dict[int, tuple[int, int, int]]:
    """engine (from 1) -> (moves, moves in won positions, wins thrown away)."""
    solver = Solver.read(table)
    moves, won, thrown = Counter(), Counter(), Counter()
    with open(path, encoding="utf-8") as f:
        for line in filter(str.strip, f):
            record = json.loads(line)
            state = load_game(record["game"], **record["params"]).new_state()
            for ply, move in enumerate(record["moves"]):
                if ply >= record["opening_plies"]:
                    engine = record["seats"][state.current_player] + 1
                    moves[engine] += 1
                    if solver.held_value(state.core) > 0:
                        won[engine] += 1
                        after = state.clone()
                        after.play(move)
                        thrown[engine] += solver.held_value(after.core) > 0   # the opponent now wins
                state.play(move)
    return {e: (moves[e], won[e], thrown[e]) for e in sorted(moves)}


if __name__ == "__main__":
    for engine, (n, w, t) in lost_wins(sys.argv[1], sys.argv[2]).items():
        print(f"engine {engine}: {n} moves, {w} in won positions, {t} threw the win away "
              f"({100 * t / max(w, 1):.1f}%)")
