"""`crossridor uci`: the UCI-style protocol loop (driven in-process through
UciSession, and once as a real subprocess)."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

import crossridor
from crossridor.engine.uci.engine import UciSession


def session_output(commands: str, **game_params) -> list[str]:
    out = io.StringIO()
    game = crossridor.load_game("quoridor", **game_params)
    UciSession(game, out).run(io.StringIO(commands))
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
    assert any("unknown option" in line and "bogus" in line for line in lines)
    assert lines[-1] == "bestmove (none)"


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
    proc = subprocess.run([sys.executable, "-m", "crossridor", "uci"], text=True, capture_output=True,
                          input="uci\nisready\nposition startpos moves e2 e8\ngo movetime 300\nquit\n", timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert "uciok" in lines and "readyok" in lines
    assert any(line.startswith("info depth") for line in lines)
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    assert state.parse_move(bestmove(lines)) in state.legal_moves()


def test_cli_uci_bad_game_option():
    proc = subprocess.run([sys.executable, "-m", "crossridor", "uci", "--size", "4"], text=True,
                          capture_output=True, input="quit\n", timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith("crossridor: error:")
    assert len(proc.stderr.splitlines()) == 1
