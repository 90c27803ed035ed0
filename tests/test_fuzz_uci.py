"""Fuzzing the UCI loop (`crossridor uci`): random and mutated command lines
through the real UciSession, in this process, for Quoridor (two and four
players), Crosswise and Qwatrobat.

The lines come from the protocol's grammar (uci, isready, ucinewgame,
setoption, position startpos/pos with moves of a real game, go with its
limits (ponder too), stop, ponderhit, quit) with token-level mutations: a token replaced by a huge or
negative number, nan, unicode, control characters or a long run, dropped,
repeated or swapped, and now and then raw random text.

After every line: handle() raised nothing, no thread died with an exception,
every output line is a protocol line (id, option, uciok, readyok, info,
bestmove); after every `go`, either one legal bestmove, or an `info string
error` (and at most `bestmove (none)`). Searches get a bounded budget: the
fuzzer sends `stop` SEARCH_WAIT seconds after each `go`. A line that hangs
past HANG_GUARD seconds aborts the run with every thread's stack.

Whole sessions of such lines also go through UciSession.run, the reader
thread and all, with `stop` after some `go`s and `quit` at the end (which,
read ahead, stops every bounded search before it): each session ends within
HANG_GUARD, every output line is a protocol line, no thread died, and there
are no more bestmoves than `go`s.

Profiles, as tests/test_fuzz.py: "quick" (the default; seconds, in CI) and

    CROSSRIDOR_FUZZ=long nice python -m pytest -q -s tests/test_fuzz_uci.py

(CROSSRIDOR_FUZZ_UCI lines, default 100,000; CROSSRIDOR_FUZZ_SEED=N other
lines; the count so far every 5,000 lines in the file CROSSRIDOR_FUZZ_LOG
names, if set.)
"""

from __future__ import annotations

import faulthandler
import io
import os
import random
import threading

import pytest

import crossridor
from crossridor.engine.match.game_loop import new_game_state
from crossridor.engine.uci.engine import MAX_HASH_MB, UciSession

PROFILE = os.environ.get("CROSSRIDOR_FUZZ", "quick")
if PROFILE not in ("quick", "long"):
    raise ValueError(f"CROSSRIDOR_FUZZ must be quick or long, got {PROFILE!r}")
LINES = 1500 if PROFILE == "quick" else int(os.environ.get("CROSSRIDOR_FUZZ_UCI", "100000"))
SEED = int(os.environ.get("CROSSRIDOR_FUZZ_SEED", "20261201"))
PROGRESS = os.environ.get("CROSSRIDOR_FUZZ_LOG")
READER_SESSIONS = 40 if PROFILE == "quick" else LINES // 20
SEARCH_WAIT = 0.01           # seconds a search runs before the fuzzer sends stop
HANG_GUARD = 120             # seconds one line may take before the run is aborted

GAMES = [("quoridor", {"size": 5}), ("quoridor", {}), ("quoridor", {"size": 5, "players": 4}),
         ("crosswise", {}), ("qwatrobat", {})]
OPTIONS = ["Hash", "Threads", "Algorithm", "prune_walls", "lmr", "eval", "rollout", "c", "seed", "stop",
           "on_iteration", "time", "depth", "bogus", "hash", "threads", "Clear Hash", "Ponder"]
ALGORITHMS = ["alphabeta", "mcts", "ismcts", "greedy", "random", "minimax", ""]
GO_WORDS = ["movetime", "depth", "nodes", "sims", "wtime", "btime", "winc", "binc", "movestogo", "infinite",
            "ponder"]
ODD = ["2147483647", "9223372036854775807", "99999999999999999999999", "-1", "0", "nan", "inf", "-0",
       "1e9", "0x10", "", "é", "中", "\x00", "\t", "\x1b[31m", "startpos", "moves", "value", "name",
       "x" * 5000, "9" * 400, "_", "__", "a1" * 300]
PROTOCOL_WORDS = ("id", "option", "uciok", "readyok", "info", "bestmove")


class Lines(io.StringIO):
    """The session's output, kept as a list of lines (thread-safe enough:
    UciSession writes under its lock)."""

    def __init__(self):
        super().__init__()
        self.lines: list = []

    def write(self, text: str) -> int:
        self.lines.extend(text.splitlines())
        return len(text)


def small_limits(rng) -> list:
    words = []
    for word in rng.sample(GO_WORDS, rng.randrange(3)):
        if word in ("infinite", "ponder"):
            words.append(word)
        elif word in ("wtime", "btime"):
            words += [word, str(rng.randrange(1, 2000))]
        else:
            words += [word, str(rng.randrange(1, 4 if word == "depth" else 300))]
    return words


def grammar_line(rng, game, state) -> str:
    kind = rng.randrange(12)
    if kind == 0:
        return rng.choice(["uci", "isready", "ucinewgame", "stop", "ponderhit"])
    if kind in (1, 2):
        name = rng.choice(OPTIONS)
        if name == "Algorithm":
            value = rng.choice(ALGORITHMS)
        elif name in ("Hash", "hash"):
            value = str(rng.choice([0, 1, 16, MAX_HASH_MB, MAX_HASH_MB + 1, 65536]))
        else:
            value = rng.choice(["1", "0", "2", "true", "false", "learned", "classic", "random", "64"])
        return f"setoption name {name} value {value}" if rng.random() < 0.9 else f"setoption name {name}"
    if kind in (3, 4, 5):
        moves = [m.replace(" ", "_") for m in random_walk(rng, game, rng.randrange(12))[1]]
        if rng.random() < 0.3:
            head = "pos " + random_walk(rng, game, rng.randrange(10))[0].position()
        else:
            head = "startpos"
        return f"position {head}" + (" moves " + " ".join(moves) if moves else "")
    if kind in (6, 7, 8, 9):
        return " ".join(["go"] + small_limits(rng))
    if kind == 10:
        return "quit"
    return "".join(rng.choice(ODD + ["a", "b", " ", "go", "position"]) for _ in range(rng.randrange(6)))


def random_walk(rng, game, plies: int):
    """(state, moves): `plies` random legal moves from a seeded deal (to a
    chance node at most)."""
    state = new_game_state(game, (), rng.randrange(2 ** 32))
    moves = []
    for _ in range(plies):
        if state.is_terminal() or state.current_player < 0:
            break
        move = rng.choice(list(state.legal_moves()))
        moves.append(str(move))
        state.play(move)
    return state, moves


def mutate(rng, line: str) -> str:
    tokens = line.split(" ")
    for _ in range(1 + rng.randrange(3)):
        i = rng.randrange(len(tokens))
        kind = rng.randrange(5)
        if kind == 0:
            tokens[i] = rng.choice(ODD)
        elif kind == 1 and len(tokens) > 1:
            del tokens[i]
        elif kind == 2:
            tokens.insert(i, tokens[i])
        elif kind == 3:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        else:
            tokens[i] = tokens[i][:rng.randrange(len(tokens[i]) + 1)] + rng.choice(ODD)[:8]
    return " ".join(tokens)


def check_go(session, state, output: list, line: str) -> None:
    """The output of one `go` (after its stop): one legal bestmove (with a
    legal reply after `ponder`, if any), or an error."""
    errors = [x for x in output if x.startswith("info string error")]
    best = [x.split()[1:] for x in output if x.startswith("bestmove ")
            and (len(x.split()) == 2 or (len(x.split()) == 4 and x.split()[2] == "ponder"))]
    assert len(best) == sum(x.startswith("bestmove") for x in output) <= 1, (line, output)
    if not best or best[0][0] == "(none)":
        assert errors, (line, output)
        return
    move = state.parse_move(best[0][0].replace("_", " "))
    assert move in state.legal_moves(), (line, output)
    if len(best[0]) == 3:
        after = state.clone()
        after.play(move)
        assert after.parse_move(best[0][2].replace("_", " ")) in after.legal_moves(), (line, output)


def test_fuzz_uci_lines():
    rng = random.Random(SEED)
    crashed: list = []
    previous_hook = threading.excepthook
    threading.excepthook = lambda args: crashed.append(f"{args.thread.name}: {args.exc_type.__name__}: "
                                                       f"{args.exc_value}")
    sessions = counted = 0
    try:
        while counted < LINES:
            name, params = GAMES[rng.randrange(len(GAMES))]
            game = crossridor.load_game(name, **params)
            out = Lines()
            session = UciSession(game, out)
            sessions += 1
            for _ in range(rng.randrange(5, 60)):
                line = grammar_line(rng, game, session.state)
                if rng.random() < 0.4:
                    line = mutate(rng, line)
                counted += 1
                if PROGRESS and counted % 5000 == 0:
                    with open(PROGRESS, "w") as f:
                        f.write(f"{counted} lines, {sessions} sessions\n")
                start = len(out.lines)
                state = session.state.clone()
                faulthandler.dump_traceback_later(HANG_GUARD, exit=True)
                try:
                    going = session.handle(line)
                    if line.split()[:1] == ["go"] and session._thread is not None:
                        session._thread.join(SEARCH_WAIT)
                        session.handle("stop")
                        check_go(session, state, out.lines[start:], line)
                    if not going:
                        break
                finally:
                    faulthandler.cancel_dump_traceback_later()
                bad = [x for x in out.lines[start:] if x.split()[:1] and x.split()[0] not in PROTOCOL_WORDS]
                assert not bad, (line, bad)
                assert not crashed, (line, crashed)
            faulthandler.dump_traceback_later(HANG_GUARD, exit=True)
            try:
                session.finish()
            finally:
                faulthandler.cancel_dump_traceback_later()
            assert not crashed, crashed
    finally:
        threading.excepthook = previous_hook
    print(f"\nuci fuzz profile {PROFILE}: {counted} lines in {sessions} sessions, seed {SEED}")
    assert counted >= LINES


def test_fuzz_uci_sessions_through_the_reader():
    rng = random.Random(SEED + 1)
    crashed: list = []
    previous_hook = threading.excepthook
    threading.excepthook = lambda args: crashed.append(f"{args.thread.name}: {args.exc_type.__name__}: "
                                                       f"{args.exc_value}")
    try:
        for _ in range(READER_SESSIONS):
            name, params = GAMES[rng.randrange(len(GAMES))]
            game = crossridor.load_game(name, **params)
            lines = []
            for _ in range(rng.randrange(5, 40)):
                line = grammar_line(rng, game, None)
                lines.append(mutate(rng, line) if rng.random() < 0.4 else line)
                if line.split()[:1] == ["go"] and rng.random() < 0.5:
                    lines.append("stop")
            lines.append("quit")
            out = Lines()
            session = UciSession(game, out)
            runner = threading.Thread(target=session.run, args=(io.StringIO("\n".join(lines) + "\n"),),
                                      daemon=True)
            runner.start()
            runner.join(HANG_GUARD)
            assert not runner.is_alive(), lines
            assert not session.searching() and not crashed, (lines, crashed)
            bad = [x for x in out.lines if x.split()[:1] and x.split()[0] not in PROTOCOL_WORDS]
            assert not bad, (lines, bad)
            gos = sum(line.split()[:1] == ["go"] for line in lines)
            assert sum(x.startswith("bestmove") for x in out.lines) <= gos, (lines, out.lines)
    finally:
        threading.excepthook = previous_hook


if __name__ == "__main__":
    pytest.main([__file__, "-q", "-s"])
