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
    -> quit                         (then its process group is ended)

With pondering (`ponder=true` in its spec, or the match's --ponder) and an
engine that lists `option name Ponder`, the runner sends `setoption name
Ponder value true`, and after a `bestmove M ponder R` it sends `position
... M R` and `go ponder` with the limits of its next move; when the
opponent plays R it sends `ponderhit` (the engine's move time starts then),
otherwise `stop` (that bestmove is dropped) and the usual `position`/`go`.

Each engine runs in its own session (process group); closing a player ends
the whole group (SIGTERM, then SIGKILL), so an engine that forks or runs
under a wrapper script leaves no process behind. Output is read as bytes,
decoded as UTF-8 with replacement, each line cut to MAX_LINE bytes, into a
bounded queue; writes to the engine never block past the move's deadline.

The keys time (seconds, sent as movetime), depth and nodes are the limits;
margin (seconds, default 1) is how long past `time` the runner waits for
`bestmove` (without `time`: NO_TIME_TIMEOUT seconds). With a time control
(`tc=` or the match's `--tc`) the runner sends `go wtime W btime B winc I
binc J [movestogo K]` instead of movetime and waits until the mover's clock
plus the margin has run out: then the engine loses on time (reason time). An engine that cannot
be started, exits, hangs past its time plus the margin, or answers with a
malformed or illegal move, or floods the runner with output (more than
FLOOD_LINES lines unread or while the runner waits for one answer: reason
flood) raises EngineFailure: the game runner scores that
game as lost by the engine, with the reason and the last lines of its stderr
in the record (cutechess does the same), and the match goes on.

Moves with spaces (none in Quoridor) are sent with `_` for the spaces.
"""

from __future__ import annotations

import collections
import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time

from crossridor.engine import stop as _stop

STARTUP_TIMEOUT = 30.0       # seconds for uciok / readyok (a Python engine imports its modules)
DEFAULT_MARGIN = 1.0         # seconds past the move time before the engine counts as hung
NO_TIME_TIMEOUT = 60.0       # seconds per move for an engine given only depth/nodes
STDERR_LINES = 10            # kept for the record
MAX_LINE = 4096              # bytes kept of one output line; the rest of a longer line is dropped
FLOOD_LINES = 10_000         # lines an engine may have unread, or write while the runner waits
                             # for one answer; more loses the game (reason flood)
QUIT_GRACE = 0.5             # seconds to exit after `quit`, and for its process group after SIGTERM
POLL = 0.05                  # seconds between looks at the interrupt latch while waiting
_EOF = object()

# Process groups of the outside engines running in this process, so that a
# worker being ended can end them too (each engine has its own session).
_live_groups: set = set()
_live_lock = threading.Lock()


def end_all_engines() -> None:
    """SIGKILL the process group of every outside engine started by this
    process and not yet closed (a match worker that is being ended)."""
    with _live_lock:
        groups = list(_live_groups)
    for pgid in groups:
        _signal_group(pgid, signal.SIGKILL)


def _signal_group(pgid: int, sig: int) -> bool:
    """Send `sig` to the process group; False when no process is left in it."""
    try:
        os.killpg(pgid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _read_lines(stream, put) -> None:
    """put() each line of the binary `stream`, decoded as UTF-8 with
    replacement and cut to MAX_LINE bytes, until end of file or until put()
    returns False; then close the stream."""
    with stream:
        while True:
            chunk = stream.readline(MAX_LINE + 1)
            if not chunk:
                return
            if len(chunk) > MAX_LINE and not chunk.endswith(b"\n"):
                while True:          # drop the rest of an over-long line
                    rest = stream.readline(MAX_LINE)
                    if not rest or rest.endswith(b"\n"):
                        break
            if put(chunk[:MAX_LINE].decode("utf-8", "replace").rstrip("\r\n")) is False:
                return


class EngineFailure(Exception):
    """An engine lost the game: an outside one by misbehaving (`reason`
    crash, timeout, illegal_move, flood), any engine by running out of its clock
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


def _position(moves: list) -> str:
    return "position startpos" + (" moves " + " ".join(m.replace(" ", "_") for m in moves) if moves else "")


def _ms(seconds: float) -> str:
    return str(max(0, round(seconds * 1000)))


class UciPlayer:
    """One running outside engine, for one game. It runs in its own session
    (process group), and close() ends the whole group: an engine that forks,
    or that a wrapper script starts without `exec`, leaves nothing behind."""

    def __init__(self, command: str, limits, options: tuple = (), margin: float = DEFAULT_MARGIN,
                 ponder: bool = False):
        self.command = command
        self.limits = limits
        self.options = options
        self.margin = margin
        self.ponder_wanted = ponder
        self.offers_ponder = False      # the engine lists the option Ponder
        self._guess: str | None = None  # the reply its last bestmove named (`ponder M`)
        self._pondering: str | None = None   # the reply it is pondering on now
        self._me = 0                    # the player it moved for last
        self.ponder_tries = 0
        self.ponder_hits = 0
        self._stderr: collections.deque = collections.deque(maxlen=STDERR_LINES)
        self._lines: queue.Queue = queue.Queue(maxsize=FLOOD_LINES)
        self._flooded = False
        self._closed = False
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise EngineFailure("crash", f"cannot parse the command {command!r}: {exc}") from None
        if not argv:
            raise EngineFailure("crash", "the command is empty")
        try:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.PIPE, start_new_session=True)
        except OSError as exc:
            raise EngineFailure("crash", f"cannot start {command!r}: {exc.strerror or exc}") from None
        with _live_lock:
            _live_groups.add(self.process.pid)
        # writes never block: an engine that stops reading its input times out
        assert self.process.stdin is not None       # started with stdin=PIPE
        self._stdin = self.process.stdin.fileno()
        os.set_blocking(self._stdin, False)
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=_read_lines, args=(self.process.stderr, self._stderr.append),
                         daemon=True).start()
        try:
            self._handshake()
        except BaseException:
            self.close()
            raise

    # reader thread: the protocol waits on a bounded queue, with a timeout
    def _read_stdout(self) -> None:
        _read_lines(self.process.stdout, self._put_line)
        if not self._flooded:
            self._put_line(_EOF)

    def _put_line(self, line: str | object) -> bool:
        try:
            self._lines.put_nowait(line)
            return True
        except queue.Full:
            self._flooded = True     # stop reading: the engine blocks on its full pipe
            return False

    # protocol
    def _send(self, line: str, deadline: float | None = None) -> None:
        data = (line + "\n").encode()
        if deadline is None:
            deadline = time.monotonic() + STARTUP_TIMEOUT
        while data:
            try:
                data = data[os.write(self._stdin, data):]
                continue
            except BlockingIOError:
                pass
            except OSError:
                raise self._crashed(f"it closed its input before {line.split()[0]!r}") from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailure("timeout", f"it does not read its input ({line.split()[0]!r} "
                                               f"not taken in time)", self.stderr_tail())
            if _stop.interrupted():
                raise _stop.Interrupted("match interrupted")
            select.select([], [self._stdin], [], min(left, POLL))

    def _wait_for(self, word: str, timeout: float, on_timeout: str = "timeout", other=None) -> str:
        """The first line starting with `word`, within `timeout` seconds
        (else EngineFailure with the reason `on_timeout`; with the reason
        flood after more than FLOOD_LINES other lines); `other(line)` sees
        each line before it."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            if self._flooded or seen > FLOOD_LINES:
                raise EngineFailure("flood", f"more than {FLOOD_LINES} lines of output while the "
                                             f"runner waited for {word!r}", self.stderr_tail())
            if _stop.interrupted():
                raise _stop.Interrupted("match interrupted")
            left = deadline - time.monotonic()
            try:
                line = self._lines.get(timeout=min(left, POLL)) if left > 0 else self._lines.get_nowait()
            except queue.Empty:
                if left > 0:
                    continue
                raise EngineFailure(on_timeout, f"no {word!r} within {timeout:g} s",
                                    self.stderr_tail()) from None
            if line is _EOF:
                raise self._crashed(f"it exited while the runner waited for {word!r}")
            if line.split()[:1] == [word]:
                return line
            if other is not None:
                other(line)
            seen += 1

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
        self._wait_for("uciok", STARTUP_TIMEOUT, other=self._note_option)
        for key, value in self.options:
            self._send(f"setoption name {key} value {value}")
        if self.ponder_wanted and self.offers_ponder:
            self._send("setoption name Ponder value true")
        self._send("isready")
        self._wait_for("readyok", STARTUP_TIMEOUT)

    def _note_option(self, line: str) -> None:
        words = line.split()
        if words[:3] == ["option", "name", "Ponder"] and words[3:4] == ["type"]:
            self.offers_ponder = True

    def stderr_tail(self) -> list:
        return list(self._stderr)

    def choose(self, state, moves: list, seed: int | None = None, clocks: list | None = None):
        """The engine's move after `moves` from the start (a legal move of
        `state`), or EngineFailure. An outside engine gets no seed.
        `clocks`: each seat's Clock now (a match with a time control), sent as
        `wtime/btime/winc/binc [movestogo]`; the engine that has not answered
        when its clock (plus the margin) runs out loses on time."""
        self._me = state.current_player
        go = self._go_words(state, clocks)
        mine = clocks[state.current_player] if clocks else None
        if clocks is not None and mine is not None:
            timeout, on_timeout = mine.time_left + self.margin, "time"
        else:
            limits = self.limits
            timeout = limits.time + self.margin if limits is not None and limits.time is not None \
                else NO_TIME_TIMEOUT
            on_timeout = "timeout"
        deadline = time.monotonic() + timeout
        if self._pondering is not None:
            hit = bool(moves) and moves[-1] == self._pondering
            self._pondering = None
            if hit:
                self.ponder_hits += 1
                self._send("ponderhit", deadline)
                return self._bestmove(state, deadline, on_timeout)
            self._send("stop", deadline)
            self._wait_for("bestmove", max(self.margin, 1.0))     # the answer to a move not played
        self._send(_position(moves), deadline)
        self._send(" ".join(go), deadline)
        return self._bestmove(state, deadline, on_timeout)

    def _go_words(self, state, clocks: list | None) -> list:
        go = ["go"]
        limits = self.limits
        if limits is not None and limits.time is not None:
            go += ["movetime", str(max(1, round(limits.time * 1000)))]
        if limits is not None and limits.depth is not None:
            go += ["depth", str(limits.depth)]
        if limits is not None and limits.nodes is not None:
            go += ["nodes", str(limits.nodes)]
        if clocks is not None and clocks[state.current_player] is not None:
            go += clock_words(clocks, state.current_player)
        return go

    def _bestmove(self, state, deadline: float, on_timeout: str):
        line = self._wait_for("bestmove", max(0.0, deadline - time.monotonic()), on_timeout)
        words = line.split()
        if len(words) < 2:
            raise EngineFailure("illegal_move", f"{line!r} names no move", self.stderr_tail())
        try:
            move = state.parse_move(words[1].replace("_", " "))
        except ValueError as exc:
            raise EngineFailure("illegal_move", f"bestmove {words[1]!r}: {exc}", self.stderr_tail()) from None
        self._guess = words[3].replace("_", " ") if len(words) >= 4 and words[2] == "ponder" else None
        return move

    def ponder(self, state, moves: list, seed: int | None = None, clocks: list | None = None) -> None:
        """After this engine's move (`state`, `moves`: the game after it):
        `go ponder` on the reply its bestmove named, if it offers Ponder and
        the reply is legal and brings its turn back (two players)."""
        guess, self._guess = self._guess, None
        if not (self.ponder_wanted and self.offers_ponder) or guess is None:
            return
        me = self._me
        position = state.clone()
        try:
            reply = position.parse_move(guess)
        except ValueError:
            return          # a ponder move that is not legal: nothing to ponder on
        position.play(reply)
        if position.is_terminal() or position.current_player != me:
            return
        deadline = time.monotonic() + STARTUP_TIMEOUT
        self._send(_position(moves + [str(reply)]), deadline)
        self._send(" ".join(["go", "ponder"] + self._go_words(position, clocks)[1:]), deadline)
        self._pondering = str(reply)        # as the game's moves are written
        self.ponder_tries += 1

    def close(self) -> None:
        """Ask the engine to quit, then end its whole process group (SIGTERM,
        then SIGKILL): bounded, and it never waits on a pipe that a stray
        child still holds (the reader threads close their own ends)."""
        if self._closed:
            return
        self._closed = True
        process, group = self.process, self.process.pid
        if process.poll() is None:
            try:
                os.write(self._stdin, b"quit\n")
            except OSError:
                pass
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=QUIT_GRACE)
        except subprocess.TimeoutExpired:
            pass
        # The group can outlive its leader (a forked child, the engine under a
        # wrapper script); while it holds a process, its id is not reused.
        if _signal_group(group, signal.SIGTERM):
            end = time.monotonic() + QUIT_GRACE
            while time.monotonic() < end:
                process.poll()                     # reap the leader, so it does not count
                if not _signal_group(group, 0):
                    break
                time.sleep(0.02)
            _signal_group(group, signal.SIGKILL)
        try:
            process.wait(timeout=QUIT_GRACE)
        except subprocess.TimeoutExpired:
            pass
        with _live_lock:
            _live_groups.discard(group)
