"""Outside engines that misbehave at the process level (tests/hostile_engine.py):
one that forks a child holding its output, one under a wrapper script
without `exec`, one writing a byte that is not UTF-8, one flooding `info`
lines. `crossridor match` runs as a real process; each ends with the games
scored and no engine process left behind, also when the match gets SIGTERM."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from helpers import HANG, IN_TIME

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable
HOSTILE = os.path.join(HERE, "hostile_engine.py")


def engine(mode: str, piddir, keys: str = IN_TIME) -> str:
    return f"uci:{PY} {HOSTILE} {mode} {piddir};{keys}"


def pids(piddir) -> list:
    return [int(name) for name in os.listdir(piddir)]


def alive(pid: int) -> bool:
    """Running: a zombie (exited, not yet reaped by its new parent) counts as gone."""
    try:
        os.kill(pid, 0)
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (ProcessLookupError, FileNotFoundError):
        return False


def assert_none_left(piddir, at_least: int) -> None:
    started = pids(piddir)
    assert len(started) >= at_least, started
    for _ in range(100):             # SIGKILL lands at once; allow the kernel a moment
        left = [p for p in started if alive(p)]
        if not left:
            return
        time.sleep(0.05)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    raise AssertionError(f"engine processes left behind: {left}")


def match(*engines, games: int = 2, concurrency: int = 1, extra=()) -> dict:
    argv = [PY, "-m", "crossridor", "match", "quoridor", "--size", "5", "--games", str(games),
            "--concurrency", str(concurrency), "--seed", "1", "--json"]
    for spec in engines:
        argv += ["--engine", spec]
    done = subprocess.run(argv + list(extra), capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("concurrency", [1, 2])
def test_an_engine_that_forks_loses_on_time_and_leaves_nothing(tmp_path, concurrency):
    result = match(engine("fork", tmp_path), "random", concurrency=concurrency)
    assert result["engine_failures"] == {"timeout": 2}
    assert_none_left(tmp_path, at_least=6)     # preflight and two games: the engine and its child


def test_an_engine_under_a_wrapper_script_without_exec_leaves_nothing(tmp_path):
    wrapper = tmp_path / "engine.sh"
    piddir = tmp_path / "pids"
    piddir.mkdir()
    wrapper.write_text(f'touch "{piddir}/$$"\n"{PY}" "{HOSTILE}" hang "{piddir}"\n')
    result = match(f"uci:sh {wrapper};{IN_TIME}", "random")
    assert result["engine_failures"] == {"timeout": 2}
    assert_none_left(piddir, at_least=6)       # the shell and the engine, three times


def test_a_byte_that_is_not_utf8_does_not_kill_the_reader(tmp_path):
    result = match(engine("badbyte", tmp_path), "random")
    assert "engine_failures" not in result, result
    assert result["games"] == 2
    assert_none_left(tmp_path, at_least=3)


def test_a_flooding_engine_loses_with_the_reason_flood(tmp_path):
    result = match(engine("flood", tmp_path, "time=5"), "random")
    assert result["engine_failures"] == {"flood": 2}
    assert_none_left(tmp_path, at_least=3)


@pytest.mark.parametrize("concurrency", [1, 2])
def test_sigterm_ends_the_match_and_its_engines(tmp_path, concurrency):
    argv = [PY, "-m", "crossridor", "match", "quoridor", "--size", "5", "--games", "2",
            "--concurrency", str(concurrency), "--seed", "1",
            "--engine", engine("fork", tmp_path, "time=60"), "--engine", "random"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the preflight's engine and child, then a game's: it hangs at its second move
        for _ in range(int(HANG / 0.05)):
            if len(pids(tmp_path)) >= 4 + 2 * (concurrency - 1) or proc.poll() is not None:
                break
            time.sleep(0.05)
        time.sleep(0.5)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=HANG)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "Traceback" not in err, err
    assert proc.returncode == 130, (proc.returncode, err)
    assert_none_left(tmp_path, at_least=4)
