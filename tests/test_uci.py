"""`crossridor uci`: the UCI-style protocol loop (driven in-process through
UciSession, and once as a real subprocess)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading

import pytest

import crossridor
from crossridor.engine.uci import engine as uci_engine
from crossridor.engine.uci.engine import UciSession
from helpers import HANG, wait_for


def session_output(commands: str, **game_params) -> list[str]:
    """The output of a piped session that waits for each bounded search's
    bestmove before `quit` or the end (which would stop the search)."""
    out = io.StringIO()
    game = crossridor.load_game("quoridor", **game_params)
    session = UciSession(game, out)
    for line in commands.splitlines():
        if line.split()[:1] == ["quit"]:
            session.wait()
        if not session.handle(line):
            break
    else:
        session.wait()
    session.finish()
    return out.getvalue().splitlines()


def bestmove(lines) -> str:
    moves = [line.split()[1] for line in lines if line.startswith("bestmove")]
    assert len(moves) == 1, lines
    return moves[0]


def test_handshake_and_a_legal_bestmove_with_info_lines():
    lines = session_output("uci\nisready\nposition startpos moves e2 e8\ngo depth 4\nquit\n")
    assert lines[0].startswith("id name crossridor")
    assert "uciok" in lines and "readyok" in lines
    assert lines.index("uciok") < lines.index("readyok")
    assert any(line.startswith("option name Hash type spin") for line in lines)
    infos = [line for line in lines if line.startswith("info depth")]
    assert [int(line.split()[2]) for line in infos] == [1, 2, 3, 4]
    first = infos[0].split()
    for key in ("score", "nodes", "nps", "time", "pv"):
        assert key in first
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    assert state.parse_move(bestmove(lines)) in state.legal_moves()
    # the same search through the library gives the same move
    lib = crossridor.search(state, "alphabeta", crossridor.Limits(depth=4))
    assert bestmove(lines) == str(lib.move)


def test_forced_win_is_reported_as_win_in_plies():
    # player 1 on c4 of a 5x5 board wins with c5 (1 ply)
    lines = session_output("position pos 5x2:c4,a2:0,0::1\ngo depth 3\n", size=5)
    assert bestmove(lines) == "c5"
    assert any(" score win 1 " in line for line in lines), lines
    # player 2 to move, no walls: player 1 wins on the next ply whatever happens
    lines = session_output("position pos 5x2:c4,a4:0,0::2\ngo depth 3\n", size=5)
    assert any(" score loss 2 " in line for line in lines), lines


def test_bad_commands_get_an_error_line_and_the_engine_goes_on():
    lines = session_output("frobnicate\nposition startpos moves e2 e9\nposition\nsetoption name Hash value x\n"
                           "setoption name Threads value 0\nsetoption name Algorithm value nope\n"
                           "go depth -1\ngo wibble\nposition pos 9x2:zz\nisready\n")
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 9, lines
    assert "unknown command 'frobnicate'" in errors[0]
    assert "'e9'" in errors[1]
    assert lines[-1] == "readyok"


def test_an_illegal_move_leaves_the_position_unchanged():
    lines = session_output("position startpos moves e2\nposition startpos moves e2 e8 e9\ngo depth 1\n")
    assert bestmove(lines) in {str(m) for m in crossridor.load_game("quoridor").new_state("e2").legal_moves()}


def test_go_infinite_runs_until_stop():
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor"), out)
    session.handle("go infinite")
    assert session.searching()
    session.handle("isready")                  # answered during the search
    session.handle("position startpos moves e2")   # refused: the search is infinite
    session.handle("stop")
    assert not session.searching()
    lines = out.getvalue().splitlines()
    assert "readyok" in lines
    assert any("an infinite search is running" in line for line in lines)
    state = crossridor.load_game("quoridor").new_state()
    assert state.parse_move(bestmove(lines)) in state.legal_moves()


def test_setoption_algorithm_and_search_options():
    lines = session_output("setoption name Algorithm value mcts\ngo sims 200\n"
                           "setoption name Algorithm value alphabeta\nsetoption name prune_walls value false\n"
                           "setoption name Hash value 1\ngo depth 2\nsetoption name bogus value 1\ngo depth 1\n")
    assert sum(line.startswith("bestmove") for line in lines) == 3
    assert any(line.startswith("info depth") and "score cp" in line for line in lines[:2])
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1 and "bogus: not an option of quoridor alphabeta" in errors[0], lines
    assert "bestmove (none)" not in lines


def test_four_players_and_clock():
    lines = session_output("position startpos moves e2 b5\ngo wtime 2000 btime 2000 winc 10 binc 10\n",
                           size=9, players=4)
    state = crossridor.load_game("quoridor", players=4).new_state("e2 b5")
    assert state.parse_move(bestmove(lines)) in state.legal_moves()


def test_threads_option_and_a_clock_search():
    lines = session_output("setoption name Threads value 2\nposition startpos moves e2\n"
                           "go wtime 500 btime 500 winc 10 binc 10 movestogo 3\n", size=9)
    assert not [line for line in lines if "error" in line], lines
    state = crossridor.load_game("quoridor").new_state("e2")
    assert state.parse_move(bestmove(lines)) in state.legal_moves()


def test_go_with_a_huge_clock_is_an_error_line():
    lines = session_output(f"go wtime {10 ** 12} btime 1\nisready\n")
    assert any(line.startswith("info string error go: clock") for line in lines), lines


def test_cli_uci_subprocess_done_when():
    proc = subprocess.run([sys.executable, "-m", "crossridor", "uci"], check=False, text=True, capture_output=True,
                          input="uci\nisready\nposition startpos moves e2 e8\ngo movetime 300\nquit\n", timeout=HANG)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "uciok" in lines and "readyok" in lines
    assert any(line.startswith("info depth") for line in lines)
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    assert state.parse_move(bestmove(lines)) in state.legal_moves()


def test_cli_uci_bad_game_option():
    proc = subprocess.run([sys.executable, "-m", "crossridor", "uci", "--size", "10"], check=False, text=True,
                          capture_output=True, input="quit\n", timeout=HANG)
    assert proc.returncode == 2 and proc.stderr.startswith("crossridor: error:")
    assert len(proc.stderr.splitlines()) == 1


def test_hash_at_the_advertised_maximum_still_gives_a_bestmove():
    lines = session_output("uci\n")
    spin = next(line for line in lines if line.startswith("option name Hash")).split()
    top = int(spin[spin.index("max") + 1])
    lines = session_output(f"setoption name Hash value {top}\nposition startpos moves e2 e8\ngo depth 2\n")
    assert not [line for line in lines if "error" in line], lines
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    assert state.parse_move(bestmove(lines)) in state.legal_moves()


def test_a_hash_that_cannot_be_allocated_is_an_error_line_and_a_bestmove(monkeypatch):
    real = uci_engine.search
    asked = []

    def search(state, algorithm, limits, **options):
        asked.append(options.get("hash"))
        if options.get("hash", 16) > 16:
            raise MemoryError("cannot allocate")
        return real(state, algorithm, limits, **options)

    monkeypatch.setattr(uci_engine, "search", search)
    lines = session_output("setoption name Hash value 64\nposition startpos moves e2 e8\ngo depth 2\n")
    assert asked == [64, 16]
    assert any(line.startswith("info string error go: cannot allocate a Hash table of 64 MB")
               for line in lines), lines
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    assert state.parse_move(bestmove(lines)) in state.legal_moves()


@pytest.mark.parametrize("ending", ["quit\n", ""])
def test_quit_or_end_of_input_stops_an_endless_search(ending):
    # a loop that waited for the search to finish would never exit: HANG keeps that from blocking the suite
    proc = subprocess.run([sys.executable, "-m", "crossridor", "uci", "--size", "5"], check=False, text=True,
                          capture_output=True, input="go depth 2147483647\n" + ending, timeout=HANG)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    state = crossridor.load_game("quoridor", size=5).new_state()
    assert state.parse_move(bestmove(proc.stdout.splitlines())) in state.legal_moves()


def test_position_without_startpos_or_pos_is_an_error_line():
    lines = session_output("position moves e2\nposition\nisready\n")
    assert sum(line.startswith("info string error position") for line in lines) == 2, lines
    assert lines[-1] == "readyok"


# --- the reader: stop and quit get through whatever came before them ---------------

def start_engine(*argv: str):
    """`crossridor uci ARGV` with its stdin kept open: (process, the list its
    stdout lines are appended to, as a thread reads them)."""
    proc = subprocess.Popen([sys.executable, "-m", "crossridor", "uci", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list = []
    threading.Thread(target=lambda: lines.extend(line.rstrip("\n") for line in proc.stdout), daemon=True).start()
    return proc, lines


def send(proc, text: str) -> None:
    proc.stdin.write(text)
    proc.stdin.flush()


def exited(proc, seconds: float = HANG) -> bool:
    """True if `proc` exits within `seconds` (a bound for a hang); else it is killed."""
    try:
        proc.wait(timeout=seconds)
        return True
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return False


def test_quit_gets_through_while_a_command_waits_for_an_endless_search():
    # ucinewgame waits for the search's bestmove: the reader must still see the quit behind it
    proc, lines = start_engine("--size", "5")
    try:
        send(proc, "go depth 2147483647\nucinewgame\nquit\n")     # and stdin stays open
        assert exited(proc), lines
    finally:
        proc.stdin.close()
    assert proc.returncode == 0 and "Traceback" not in proc.stderr.read()
    assert wait_for(lambda: any(line.startswith("bestmove") for line in lines))
    state = crossridor.load_game("quoridor", size=5).new_state()
    assert state.parse_move(bestmove(lines)) in state.legal_moves()


def test_stop_gets_through_and_stops_every_search_started_before_it():
    # the second go starts after the stop was read: that stop still applies to it
    proc, lines = start_engine("--size", "5")
    try:
        send(proc, "go depth 2147483647\nucinewgame\nposition startpos moves c2\ngo depth 2147483647\n"
                   "stop\nisready\n")
        assert wait_for(lambda: "readyok" in lines), lines
        moves = [line.split()[1] for line in lines if line.startswith("bestmove")]
        assert len(moves) == 2 and lines[-1] == "readyok", lines
        state = crossridor.load_game("quoridor", size=5).new_state("c2")
        assert state.parse_move(moves[1]) in state.legal_moves()
        send(proc, "quit\n")
        assert exited(proc), lines
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.stdin.close()
        proc.wait()


def session_run(text: str) -> list[str]:
    """The output of UciSession.run (the reader and all) on `text` as its input."""
    out = io.StringIO()
    UciSession(crossridor.load_game("quoridor", size=5), out).run(io.StringIO(text))
    return out.getvalue().splitlines()


def test_during_go_infinite_other_commands_are_refused_even_with_a_stop_read_ahead():
    lines = session_run("go infinite\nposition startpos moves c2\nisready\nstop\nisready\ngo depth 1\n")
    answers = [line.split()[0] for line in lines if not line.startswith("info depth")]
    assert answers == ["info", "readyok", "bestmove", "readyok", "bestmove"], lines
    assert "position: an infinite search is running" in next(line for line in lines if "error" in line)
    state = crossridor.load_game("quoridor", size=5).new_state()
    assert state.parse_move(lines[-1].split()[1]) in state.legal_moves()   # the position stayed the start


def test_a_line_too_long_is_one_error_line_and_the_engine_goes_on():
    lines = session_run("go" + " x" * uci_engine.MAX_LINE + "\nisready\n")
    assert lines == [f"info string error a line longer than {uci_engine.MAX_LINE} characters: ignored",
                     "readyok"]


def test_bytes_that_are_not_utf8_are_an_unknown_command():
    proc = subprocess.run([sys.executable, "-m", "crossridor", "uci"], input=b"\xff\xfe go\nisready\nquit\n",
                          check=False, capture_output=True, timeout=HANG,
                          env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    lines = proc.stdout.decode().splitlines()
    assert lines[0].startswith("info string error unknown command") and lines[1:] == ["readyok"]


# --- Threads: capped at what this machine stops at once ----------------------------

def test_threads_are_capped_at_4_per_cpu_and_at_most_64():
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines = session_output("uci\n")
    spin = next(line for line in lines if line.startswith("option name Threads")).split()
    top = int(spin[spin.index("max") + 1])
    assert top == uci_engine.THREADS_CAP == min(64, 4 * cpus)
    lines = session_output(f"setoption name Threads value {top + 1}\nsetoption name Threads value 256\n"
                           "isready\n")
    errors = [line for line in lines if line.startswith("info string error setoption: Threads")]
    assert len(errors) == 2 and all(f"[1, {top}]" in e and "per CPU" in e for e in errors), lines


def test_stop_at_the_threads_cap_gives_a_searched_move():
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor"), out)
    session.handle(f"setoption name Threads value {uci_engine.THREADS_CAP}")
    session.handle("position startpos moves e2 e8")
    session.handle("go infinite")
    assert wait_for(lambda: "info depth 1 " in out.getvalue()), out.getvalue()
    stopper = threading.Thread(target=session.handle, args=("stop",), daemon=True)
    stopper.start()
    assert wait_for(lambda: not stopper.is_alive())
    lines = out.getvalue().splitlines()
    assert not [line for line in lines if "error" in line or line.startswith("info depth 0 ")], lines
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    assert state.parse_move(bestmove(lines)) in state.legal_moves()


# --- nothing a client sends names code or a file ------------------------------------

@pytest.mark.parametrize("value", ["os:system", "uci:touch {tmp}/made", "subprocess.run",
                                   "crossridor.engine.algorithms.alphabeta", "__import__('os')",
                                   "alphabeta;touch {tmp}/made", ""])
def test_an_algorithm_naming_code_is_refused_and_nothing_runs(monkeypatch, tmp_path, value):
    ran = []
    for module, name in ((subprocess, "Popen"), (os, "system"), (os, "posix_spawn"), (os, "execv")):
        monkeypatch.setattr(module, name, lambda *a, **k: ran.append(a))
    value = value.format(tmp=tmp_path)
    lines = session_output(f"setoption name Algorithm value {value}\nposition startpos moves e2 e8\n"
                           "go depth 1\n")
    assert lines[0].startswith("info string error setoption: Algorithm: unknown algorithm"), lines
    assert lines[-1].startswith("bestmove ") and lines[-1] != "bestmove (none)"   # alphabeta still
    assert ran == [] and not (tmp_path / "made").exists()


def test_internal_options_are_not_options():
    lines = session_output("setoption name memory value 7\nsetoption name stop value 1\n"
                           "setoption name on_iteration value print\nsetoption name engine value uci:x\n"
                           "go depth 1\n")
    assert [line.split(":")[1].strip() for line in lines if line.startswith("info string error setoption")] \
        == ["memory", "stop", "on_iteration", "engine"], lines
    assert lines[-1].startswith("bestmove ") and lines[-1] != "bestmove (none)"


def test_a_table_is_never_handed_to_a_search_with_other_settings(monkeypatch):
    # such a search would empty it first, holding the GIL for seconds with a table of many GB:
    # no stop and no input would be read meanwhile; a new table is allocated lazily instead
    made = []
    real = uci_engine.search_memory
    monkeypatch.setattr(uci_engine, "search_memory",
                        lambda state, algorithm: made.append(1) or real(state, algorithm))
    session_output("go depth 1\ngo depth 2\nsetoption name eval value classic\ngo depth 1\ngo depth 2\n"
                   "setoption name prune_walls value false\ngo depth 1\n")
    assert len(made) == 3
    made.clear()
    session_output("position startpos moves e2\ngo depth 1\nposition startpos moves e2\ngo depth 1\n"
                   "position startpos moves e2 b5\ngo depth 1\n", players=4)
    assert len(made) == 2      # the player to move changed: the paranoid search scores for another side
