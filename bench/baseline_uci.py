"""A crossridor build without `crossridor uci` as an outside engine, to
measure progress against it.

Such a build has no text protocol, and its import package is `engine`.
This script speaks the runner's UCI-style dialect (`uci`, `isready`,
`ucinewgame`, `position startpos moves ...`, `go movetime/depth/nodes`,
`quit`) on top of that build's `search`, for 9x9 two-player Quoridor
(COMMIT: the build's commit):

    git worktree add --detach ../baseline COMMIT
    python -m venv /tmp/baseline && /tmp/baseline/bin/pip install ../baseline
    crossridor match quoridor --engine alphabeta:time=0.5 \\
        --engine "uci:/tmp/baseline/bin/python bench/baseline_uci.py;time=0.5" ...

Each `go` is one `search(state, "alphabeta", Limits(...))` call, as that
build's `crossridor best` makes it.
"""

from __future__ import annotations

import sys

from engine.protocol import Limits  # the old build's modules
from engine.registry import load_game
from engine.search_api import search


def limits_from(words: list[str]) -> Limits:
    values = dict(zip(words[::2], words[1::2]))
    return Limits(time=int(values["movetime"]) / 1000 if "movetime" in values else None,
                  depth=int(values["depth"]) if "depth" in values else None,
                  nodes=int(values["nodes"]) if "nodes" in values else None)


def main() -> None:
    game = load_game("quoridor")
    state = game.new_state(None)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name crossridor-baseline\nuciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "ucinewgame":
            state = game.new_state(None)
        elif words[0] == "position":
            moves = words[3:] if len(words) > 2 and words[2] == "moves" else []
            state = game.new_state(" ".join(moves) or None)
        elif words[0] == "go":
            result = search(state, "alphabeta", limits_from(words[1:]))
            print(f"bestmove {result.move}", flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
