"""Outside engines in a match: the runner's side of the UCI-style protocol.

An engine spec `uci:COMMAND[;key=value,...]` starts COMMAND (split like a
shell line, no shell) once per game and talks to it over its stdin/stdout:

    -> uci                          <- ... uciok          (STARTUP_TIMEOUT)
    -> setoption name KEY value V   (every key but the limits)
    -> isready                      <- readyok
    per move:
    -> position startpos moves m1 m2 ...
    -> go movetime MS [depth D] [nodes N]
                                    <- info ... (ignored), bestmove M
    -> quit                         (then the process is killed if it lingers)

The keys time (seconds, sent as movetime), depth and nodes are the limits;
margin (seconds, default 1) is how long past `time` the runner waits for
`bestmove` (without `time`: NO_TIME_TIMEOUT seconds). With a time control
(`tc=` or the match's `--tc`) the runner sends `go wtime W btime B winc I
binc J [movestogo K]` instead of movetime and waits until the mover's clock
plus the margin has run out: then the engine loses on time (reason time). An engine that cannot
be started, exits, hangs past its time plus the margin, or answers with a
malformed or illegal move raises EngineFailure: the game runner scores that
game as lost by the engine, with the reason and the last lines of its stderr
in the record (cutechess does the same), and the match goes on.

Moves with spaces (none in Quoridor) are sent with `_` for the spaces.
"""

from __future__ import annotations

import collections
import queue
import shlex
import subprocess
import threading
import time

STARTUP_TIMEOUT = 30.0       # seconds for uciok / readyok (a Python engine imports its modules)
DEFAULT_MARGIN = 1.0         # seconds past the move time before the engine counts as hung
NO_TIME_TIMEOUT = 60.0       # seconds per move for an engine given only depth/nodes
STDERR_LINES = 10            # kept for the record
_EOF = object()


class EngineFailure(Exception):
    """An engine lost the game: an outside one by misbehaving (`reason`
    crash, timeout, illegal_move), any engine by running out of its clock
    (time); `stderr` an outside engine's last stderr lines."""

    def __init__(self, reason: str, detail: str, stderr: list | None = None):
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.stderr = list(stderr or [])

    def as_dict(self) -> dict:
        return {"reason": self.reason, "detail": self.detail, "stderr": self.stderr}


def clock_words(clocks: list, mover: int) -> list:
    """`wtime W btime B winc I binc J [movestogo K]` (milliseconds) for the
    seat `mover`: players 1 and 3 are white, 2 and 4 black (as the engine's
    own UCI loop reads them); the other colour's clock is the next seat's."""
    n = len(clocks)
    other = clocks[(mover + 1) % n] or clocks[mover]
    white, black = (clocks[mover], other) if mover % 2 == 0 else (other, clocks[mover])
    words = ["wtime", _ms(white.time_left), "btime", _ms(black.time_left),
             "winc", _ms(white.increment), "binc", _ms(black.increment)]
    if clocks[mover].moves_to_go is not None:
        words += ["movestogo", str(clocks[mover].moves_to_go)]
    return words


def _ms(seconds: float) -> str:
    return str(max(0, round(seconds * 1000)))


class UciPlayer:
    """One running outside engine, for one game."""

    def __init__(self, command: str, limits, options: tuple = (), margin: float = DEFAULT_MARGIN):
        self.command = command
        self.limits = limits
        self.options = options
        self.margin = margin
        self._stderr: collections.deque = collections.deque(maxlen=STDERR_LINES)
        self._lines: queue.Queue = queue.Queue()
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise EngineFailure("crash", f"cannot parse the command {command!r}: {exc}") from None
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, text=True, bufsize=1)
        except OSError as exc:
            raise EngineFailure("crash", f"cannot start {command!r}: {exc.strerror or exc}") from None
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self._handshake()

    # reader threads: the protocol waits on a queue, with a timeout
    def _read_stdout(self) -> None:
        for line in self.process.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        for line in self.process.stderr:
            self._stderr.append(line.rstrip("\r\n"))

    # protocol
    def _send(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._crashed(f"it closed its input before {line.split()[0]!r}") from None

    def _wait_for(self, word: str, timeout: float, on_timeout: str = "timeout") -> str:
        """The first line starting with `word`, within `timeout` seconds
        (else EngineFailure with the reason `on_timeout`)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=max(left, 0.0)) if left > 0 else self._lines.get_nowait()
            except queue.Empty:
                raise EngineFailure(on_timeout, f"no {word!r} within {timeout:g} s",
                                    self.stderr_tail()) from None
            if line is _EOF:
                raise self._crashed(f"it exited while the runner waited for {word!r}")
            if line.split()[:1] == [word]:
                return line

    def _crashed(self, detail: str) -> EngineFailure:
        try:
            code = self.process.wait(timeout=1.0)
            detail += f" (exit status {code})"
        except subprocess.TimeoutExpired:
            pass
        time.sleep(0.05)          # let the stderr reader catch the last lines
        return EngineFailure("crash", detail, self.stderr_tail())

    def _handshake(self) -> None:
        self._send("uci")
        self._wait_for("uciok", STARTUP_TIMEOUT)
        for key, value in self.options:
            self._send(f"setoption name {key} value {value}")
        self._send("isready")
        self._wait_for("readyok", STARTUP_TIMEOUT)

    def stderr_tail(self) -> list:
        return list(self._stderr)

    def choose(self, state, moves: list, seed: int | None = None, clocks: list | None = None):
        """The engine's move after `moves` from the start (a legal move of
        `state`), or EngineFailure. An outside engine gets no seed.
        `clocks`: each seat's Clock now (a match with a time control), sent as
        `wtime/btime/winc/binc [movestogo]`; the engine that has not answered
        when its clock (plus the margin) runs out loses on time."""
        self._send("position startpos" + (" moves " + " ".join(m.replace(" ", "_") for m in moves)
                                          if moves else ""))
        go = ["go"]
        limits = self.limits
        if limits is not None and limits.time is not None:
            go += ["movetime", str(max(1, round(limits.time * 1000)))]
        if limits is not None and limits.depth is not None:
            go += ["depth", str(limits.depth)]
        if limits is not None and limits.nodes is not None:
            go += ["nodes", str(limits.nodes)]
        mine = clocks[state.current_player] if clocks else None
        if mine is not None:
            go += clock_words(clocks, state.current_player)
        self._send(" ".join(go))
        if mine is not None:
            line = self._wait_for("bestmove", mine.time_left + self.margin, on_timeout="time")
        else:
            timeout = limits.time + self.margin if limits is not None and limits.time is not None \
                else NO_TIME_TIMEOUT
            line = self._wait_for("bestmove", timeout)
        words = line.split()
        if len(words) < 2:
            raise EngineFailure("illegal_move", f"{line!r} names no move", self.stderr_tail())
        try:
            return state.parse_move(words[1].replace("_", " "))
        except ValueError as exc:
            raise EngineFailure("illegal_move", f"bestmove {words[1]!r}: {exc}", self.stderr_tail()) from None

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.process.stdin.write("quit\n")
                self.process.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass
            try:
                self.process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except OSError:
                pass
