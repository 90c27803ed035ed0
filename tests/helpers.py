"""Helpers shared by several test files."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager, redirect_stderr, redirect_stdout

import crossridor
from crossridor.engine.algorithms.alphabeta import WIN
from crossridor.engine.cli import main as cli
from crossridor.engine.cli.play import PlaySession
from crossridor.engine.protocol import CHANCE, TERMINAL


def run_cli(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    """`crossridor ARGV...` in this process, reading `stdin`: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = cli.main(list(argv))
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def one_line_error(*argv: str) -> str:
    """`crossridor ARGV...` must fail as bad input does: exit 2, nothing on
    stdout, one line 'crossridor: error: ...' on stderr (returned)."""
    code, out, err = run_cli(*argv)
    assert code == 2 and out == "" and err.count("\n") == 1, (code, out, err)
    assert err.startswith("crossridor: error: ") and "crossridor: error: crossridor" not in err
    return err


def play(state, text: str):
    """Plays the space-separated moves of `text` on `state`; returns it."""
    for m in text.split():
        state.play(m)
    return state


def protocol_perft(state, depth: int) -> int:
    """Leaves at `depth` counted through the Python protocol (a finished game
    has none): the slow count the core's perft is held to."""
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    total = 0
    for move in state.legal_moves():
        state.play(move)
        total += protocol_perft(state, depth - 1)
        state.undo()
    return total


def quoridor_state(size=9, players=2, walls=None, moves=""):
    """A Quoridor state: the game with these options, `moves` played."""
    return crossridor.load_game("quoridor", size=size, players=players, walls=walls).new_state(moves)


def play_session(state, commands, engine=None, human=0):
    """`crossridor play` on `state`, the human typing `commands` (one a
    line; `engine` an EngineSpec, None for the game's default):
    (exit status, what was printed, the session)."""
    out = io.StringIO()
    session = PlaySession(state, engine, human=human, seed=1,
                          stdin=io.StringIO("".join(c + "\n" for c in commands)), stdout=out)
    return session.run(), out.getvalue(), session


def without_times(record: dict) -> dict:
    """A game record (as a dict) without what changes from run to run: the
    seconds a game took and the think times of its moves."""
    return {k: v for k, v in record.items() if k not in ("seconds", "think")}


# Seconds from a stop (a signal, a Stop token) to the exit: measured at about 0.03-0.15 s
# on an idle machine (docs/measurements.md), so a machine many times slower still meets it,
# yet far below the minutes the work would run without the stop.
STOP_BOUND = 5.0

# Seconds past its move time that a test's outside engine gets (its `margin`): the test engines
# answer at once (a random legal move, milliseconds), so a busy machine never comes near it;
# it is also how long a hang test waits for the hang, so it is not made larger than needed.
ANSWER_MARGIN = 5.0
IN_TIME = f"time=0.05,margin={ANSWER_MARGIN:g}"     # a test's outside engine's keys

# Seconds a search given a time limit may run past it in a test: its stop lands within
# milliseconds on an idle machine; the slack is for a busy one, not a measurement.
TIME_SLACK = 3.0

# Seconds before a test calls bounded work hung: a guard that keeps a hang from stalling the
# suite, not a timing. The work under it is bounded by plies, depth, nodes or simulations and
# takes at most a few seconds on an idle machine, so a busy one never comes near it.
HANG = 120.0


def handles_stop_signals(proc) -> bool:
    """Whether `proc` has installed its own SIGTERM handler, as crossridor does
    (with SIGINT's) just before its work begins: from then on a signal stops
    the work instead of killing the process (Linux: /proc/PID/status)."""
    try:
        with open(f"/proc/{proc.pid}/status") as f:
            caught = next(line for line in f if line.startswith("SigCgt:"))
    except (FileNotFoundError, StopIteration):
        return False
    return bool(int(caught.split()[1], 16) >> (signal.SIGTERM - 1) & 1)


def interrupt(argv, ready, sig=signal.SIGINT):
    """Start `crossridor argv`, wait until `ready(proc)` says its work has
    begun, send `sig`; (exit status, seconds from the signal to the exit,
    stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "crossridor", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + HANG
    while not ready(proc) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    sent = time.perf_counter()
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=HANG)
    return proc.returncode, time.perf_counter() - sent, out, err


def wait_for(predicate, seconds: float = HANG) -> bool:
    """True as soon as predicate() is; False after `seconds` (a bound for a hang, not a timing)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


@contextmanager
def dask_cluster(folder, workers: int = 2, options: tuple = (), security=None):
    """A real Dask scheduler and `workers` workers (one thread each, no
    nanny, so that killing one kills its games), subprocesses on 127.0.0.1
    (their HTTP info pages too, which Dask opens on every interface even
    with --no-dashboard), logging to folder/log.txt: yields (the scheduler's
    address, the worker processes); all are killed at the end. `options`
    go to the scheduler and the workers (the TLS files), `security` to the
    client that waits for the workers."""
    import distributed

    def start(module: str, *args):
        return subprocess.Popen([sys.executable, "-m", module, *args], stdout=log, stderr=subprocess.STDOUT,
                                env=dict(os.environ, DASK_DISTRIBUTED__WORKER__DAEMON="False"))

    loopback = ("--host", "127.0.0.1", "--no-dashboard", "--dashboard-address", "127.0.0.1:0", *options)
    info = folder / "scheduler.json"
    log = open(folder / "log.txt", "w")
    procs = [start("distributed.cli.dask_scheduler", *loopback, "--port", "0", "--scheduler-file", str(info))]
    try:
        deadline = time.monotonic() + HANG
        while not info.exists() or not info.read_text().strip():
            assert time.monotonic() < deadline, "the Dask scheduler did not start"
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        started = [start("distributed.cli.dask_worker", address, *loopback, "--nthreads", "1", "--no-nanny")
                   for _ in range(workers)]
        procs += started
        with distributed.Client(address, timeout=f"{HANG:g}s", security=security) as client:
            client.wait_for_workers(workers, timeout=HANG)
        yield address, started
    finally:
        for proc in procs:          # our own subprocesses; nothing of theirs needs a clean exit
            proc.kill()
            proc.wait()
        log.close()


def kill_a_busy_worker(executor, workers) -> str | None:
    """SIGKILL one of `workers` (processes of a dask_cluster) that the
    scheduler has given a task now; its address, or None if none is busy."""
    by_pid = {proc.pid: proc for proc in workers if proc.poll() is None}
    pids = executor.client.run(os.getpid)          # worker address -> its process id
    busy = {w for w, keys in executor.client.processing().items() if keys}
    for address in sorted(busy):
        if pids.get(address) in by_pid:
            by_pid[pids[address]].send_signal(signal.SIGKILL)
            return address
    return None


@contextmanager
def serving(*flags: str):
    """`crossridor serve --port 0 FLAGS` in a subprocess, up: {url, ws, port, log};
    stopped after, with no traceback in its stderr."""
    import tempfile

    import httpx
    with tempfile.TemporaryDirectory(prefix="crossridor-serve-") as folder:
        log = os.path.join(folder, "stderr.txt")
        with open(log, "wb") as err:
            proc = subprocess.Popen([sys.executable, "-m", "crossridor", "serve", "--port", "0", *flags],
                                    stdout=subprocess.PIPE, stderr=err, text=True)
        try:
            line = proc.stdout.readline()      # crossridor: serving on http://127.0.0.1:PORT/ ...
            assert "serving on" in line, line
            port = int(line.split("http://127.0.0.1:")[1].split("/")[0])

            def up():
                try:
                    return httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=HANG).status_code == 200
                except httpx.TransportError:
                    return False
            assert wait_for(up)
            yield {"url": f"http://127.0.0.1:{port}", "ws": f"ws://127.0.0.1:{port}/ws", "port": port, "log": log}
        finally:
            proc.terminate()
            proc.wait(HANG)     # a guard: it exits within a second
        with open(log, encoding="utf-8", errors="replace") as f:
            assert "Traceback" not in f.read()


def perft_count(size: int, depth: int, players: int = 2, walls: int = 10, moves: str = "-") -> int:
    """Quoridor's leaf count at `depth` as tests/data/perft_quoridor.txt gives it
    (from an independent implementation or the pure-Python reference; tests/test_perft.py
    checks the core against every line)."""
    from pathlib import Path
    data = Path(__file__).parent / "data" / "perft_quoridor.txt"
    for line in data.read_text().splitlines():
        fields = line.partition("#")[0].split()
        if fields[:5] == [str(size), str(players), str(walls), moves, str(depth)]:
            return int(fields[5])
    raise KeyError(f"no perft count for {size}x{size}, {players} players, {walls} walls, {moves}, depth {depth}")


def selfplay_arrays(**replaced) -> dict:
    """The arrays of a small self-play data file (`train`'s input, 5x5),
    with `replaced` arrays put in their place."""
    import numpy as np

    from crossridor.engine._core import Q_NUM_FEATURES
    rng = np.random.default_rng(5)
    n = 40
    arrays = {"features": rng.normal(size=(n, Q_NUM_FEATURES)).astype(np.float32),
              "score": rng.normal(scale=100, size=n).astype(np.float32),
              "result": rng.choice([0.0, 0.5, 1.0], size=n).astype(np.float32),
              "game": np.repeat(np.arange(4), n // 4).astype(np.int32),
              "ply": np.tile(np.arange(n // 4), 4).astype(np.int32), "size": np.int64(5)}
    arrays["features"][:, 0] = 1.0
    return {**arrays, **replaced}


def reference_value(state, depth, root, sign, mate, ply=0):
    """Plain (paranoid expecti-)minimax, no pruning, scored like alphabeta:
    root player's point of view, win-in-n in games without chance."""
    p = state.current_player
    if p == TERMINAL:
        r = state.returns()[root]
        if mate and r >= 1:
            return WIN - ply
        if mate and r <= -1:
            return ply - WIN
        return 100.0 * r
    if p == CHANCE:
        total = 0.0
        for m, prob in state.chance_outcomes():
            state.play(m)
            total += prob * reference_value(state, depth, root, sign, mate, ply + 1)
            state.undo()
        return total
    if depth == 0:
        ev = getattr(state, "evaluate", None)
        return 100.0 * ev()[root] if ev else 0.0
    values = []
    for m in list(state.legal_moves()):
        state.play(m)
        values.append(reference_value(state, depth - 1, root, sign, mate, ply + 1))
        state.undo()
    return max(values) if sign[p] > 0 else min(values)
