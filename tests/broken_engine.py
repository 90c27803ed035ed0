"""A deliberately broken UCI-style engine for the match runner's tests.

    python broken_engine.py MODE [SIZE]

It answers `uci` and `isready`, and plays a random legal Quoridor move (on a
SIZE board, default 5) for its first `go` in each process; from the second
`go` on it misbehaves by MODE: `crash` (exits with status 3 after a line on
stderr), `hang` (never answers), `illegal` (answers `bestmove z9`), `good`
(keeps playing legal moves), `slow` (writes each `go` line to stderr and
thinks 1.5 s before a legal move)."""

import random
import sys
import time

import crossridor

mode = sys.argv[1]
size = int(sys.argv[2]) if len(sys.argv) > 2 else 5
game = crossridor.load_game("quoridor", size=size)
state = game.new_state()
goes = 0
rng = random.Random(1)
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name broken", flush=True)
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        state = game.new_state(" ".join(words[3:]) if "moves" in words else None)
    elif words[0] == "go":
        goes += 1
        if goes >= 2 and mode == "crash":
            print(f"broken engine: crashing on purpose at go {goes}", file=sys.stderr, flush=True)
            sys.exit(3)
        if goes >= 2 and mode == "hang":
            print("broken engine: hanging on purpose", file=sys.stderr, flush=True)
            time.sleep(3600)
        if goes >= 2 and mode == "slow":
            print(line.strip(), file=sys.stderr, flush=True)
            time.sleep(1.5)
        if goes >= 2 and mode == "illegal":
            print("bestmove z9", flush=True)
            continue
        print(f"bestmove {rng.choice(list(state.legal_moves()))}", flush=True)
    elif words[0] == "quit":
        break
