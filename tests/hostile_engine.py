"""A hostile UCI-style engine for the match runner's process and output tests.

    python hostile_engine.py MODE PIDDIR

Like broken_engine.py, it plays a random legal move of Quoridor on a 5x5
board for its first `go`, and writes its pid (and any child's) as a file
in PIDDIR, so a test can check that none is left. MODE:
`fork` forks a child at start that sleeps holding stdout and stderr, then
hangs from the second `go` on; `hang` hangs from the second `go` on (run it
under a wrapper script without `exec`); `badbyte` writes a line with a
byte that is not UTF-8 before every legal `bestmove`; `flood` writes
`info` lines without end from the second `go` on."""

import os
import random
import sys
import time

import crossridor

mode, piddir = sys.argv[1], sys.argv[2]


def note_pid() -> None:
    open(os.path.join(piddir, str(os.getpid())), "w").close()


note_pid()
if mode == "fork" and os.fork() == 0:
    note_pid()
    time.sleep(3600)           # holds the pipes the runner reads
    os._exit(0)
game = crossridor.load_game("quoridor", size=5)
state = game.new_state()
goes = 0
rng = random.Random(1)
out = sys.stdout.buffer
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        out.write(b"id name hostile\nuciok\n")
    elif words[0] == "isready":
        out.write(b"readyok\n")
    elif words[0] == "position":
        state = game.new_state(" ".join(words[3:]) if "moves" in words else None)
    elif words[0] == "go":
        goes += 1
        if goes >= 2 and mode in ("fork", "hang"):
            time.sleep(3600)
        if goes >= 2 and mode == "flood":
            while True:
                out.write(b"info depth 1 score cp 0 pv a1\n" * 100)
        if mode == "badbyte":
            out.write(b"info string caf\xe9 \xff\n")
        out.write(f"bestmove {rng.choice(list(state.legal_moves()))}\n".encode())
    elif words[0] == "quit":
        break
    out.flush()
