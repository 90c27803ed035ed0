"""Quoridor on rectangular boards (W columns x H rows) at every door of the
command line: rules, options, legal, show, perft, best (alpha-beta, MCTS,
a solved table), solve --verify, match with records and PGN read back,
analyse, play and UCI. Small boards and bounded searches: seconds."""

from __future__ import annotations

import io
import json

import pytest

import crossridor
from crossridor.engine.uci.engine import UciSession
from helpers import one_line_error, play_session, protocol_perft, run_cli


def run_json(*argv):
    status, out, err = run_cli(*argv, "--json")
    assert status == 0 and err == "", err
    return json.loads(out)


def test_rules_and_options_describe_the_boards():
    status, out, _ = run_cli("rules", "quoridor")
    assert status == 0 and out.strip()
    status, out, _ = run_cli("options", "quoridor")
    assert status == 0
    line = next(row for row in out.splitlines() if row.strip().startswith("size"))
    assert "N or WxH, 2..9 columns, 3..9 rows" in line and "function" not in line
    size = next(p for p in run_json("options", "quoridor") if p["name"] == "size")
    assert (size["type"], size["widths"], size["heights"], size["default"]) == ("board", [2, 9], [3, 9], 9)


def test_legal_show_and_perft_on_rectangles():
    moves = run_json("legal", "quoridor", "--size", "4x7", "--walls", "2")["moves"]
    assert len(moves) == 3 + 2 * 3 * 6                       # b1 d1 c2, and every wall of 3 x 6 anchors
    assert {"b1", "d1", "c2", "c6h", "c6v"} <= set(moves) and "e1" not in moves and "a7h" not in moves
    shown = run_json("show", "quoridor", "--size", "4x7", "--moves", "c2 c6 b3h")
    assert shown["position"] == "4x7x2:c2,c6:9,10:b3h:2"
    assert shown["board"].splitlines()[0].split() == ["a", "b", "c", "d"]
    assert run_json("show", "quoridor", "--size", "4x7", "--position", shown["position"])["position"] \
        == shown["position"]
    for size, walls, depth in (("2x3", 2, 4), ("4x3", 1, 3), ("3x5", 1, 3)):
        state = crossridor.load_game("quoridor", size=size, walls=walls).new_state()
        counted = run_json("perft", "quoridor", "--size", size, "--walls", str(walls), "--depth", str(depth))
        assert counted["nodes"] == protocol_perft(state, depth), size


@pytest.mark.parametrize("algorithm,limit", [("alphabeta", ("--depth", "3")), ("mcts", ("--sims", "300")),
                                             ("greedy", ("--depth", "1"))])
def test_best_on_a_rectangle(algorithm, limit):
    found = run_json("best", "quoridor", "--size", "4x7", "--walls", "3", "--moves", "c2 c6",
                     "--algorithm", algorithm, *limit, "--seed", "1")
    state = crossridor.load_game("quoridor", size="4x7", walls=3).new_state("c2 c6")
    assert state.parse_move(found["move"]) in state.legal_moves()


@pytest.mark.parametrize("size,walls,winner", [("2x3", 1, 1), ("4x3", 2, 2), ("3x5", 3, 1)])
def test_solve_and_verify_every_reply_agree_with_the_published_table(size, walls, winner):
    solved = run_json("solve", "quoridor", "--size", size, "--walls", str(walls), "--verify")
    assert solved["winner"] == winner
    assert solved["verify"]["ok"] and solved["verify"]["mode"] == "exhaustive" and solved["verify"]["positions"] > 0


def test_solve_a_larger_rectangle_verifies_by_sampled_games():
    solved = run_json("solve", "quoridor", "--size", "4x7", "--walls", "0", "--verify", "--games", "1")
    assert solved["winner"] == 2 and solved["verify"]["ok"] and solved["verify"]["mode"] == "sampled"


def test_best_plays_from_a_solved_table_of_a_rectangle(tmp_path):
    table = str(tmp_path / "t")
    assert run_json("solve", "quoridor", "--size", "3x5", "--walls", "1", "--write-table", table)["winner"] == 2
    for algorithm in ("alphabeta", "mcts"):
        found = run_json("best", "quoridor", "--size", "3x5", "--walls", "1", "--moves", "b2", "--table", table,
                         "--algorithm", algorithm, "--depth", "2")
        assert found["source"] == "table" and found["winner"] == 2 and found["result_in"] == found["plies"]
    assert "the table is for the board 3x5" in one_line_error("solve", "quoridor", "--size", "5x3", "--walls", "1",
                                                                "--table", table)


def test_match_records_and_pgn_read_back_and_analyse(tmp_path):
    records, pgn = tmp_path / "m.jsonl", tmp_path / "m.pgn"
    status, _, err = run_cli("match", "quoridor", "--size", "4x7", "--walls", "2", "--engine", "alphabeta:depth=2",
                             "--engine", "mcts:sims=50", "--games", "2", "--concurrency", "1", "--seed", "3",
                             "--records", str(records), "--pgn", str(pgn))
    assert status == 0, err
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    assert [line["params"] for line in lines] == [{"size": "4x7", "walls": 2}] * 2
    assert '[Options "size=4x7 walls=2"]' in pgn.read_text()
    game = crossridor.load_game("quoridor", size="4x7", walls=2)
    for k, line in enumerate(lines, 1):
        final = game.new_state(line["moves"])
        assert final.is_terminal()
        shown = run_json("show", "quoridor", "--pgn", str(pgn), "--game", str(k))
        assert shown["position"] == final.position()
    review = run_json("analyse", "quoridor", str(records), "--depth", "2")
    assert review["game"]["params"]["size"] == "4x7" and len(review["plies"]) == len(lines[0]["moves"])
    # the run resumes from its records on the same board
    status, out, err = run_cli("match", "quoridor", "--size", "4x7", "--walls", "2", "--engine", "alphabeta:depth=2",
                               "--engine", "mcts:sims=50", "--games", "4", "--concurrency", "1", "--seed", "3",
                               "--records", str(records), "--resume")
    assert status == 0 and "games 4" in out, err


def test_play_in_the_terminal_on_a_rectangle():
    state = crossridor.load_game("quoridor", size="4x7", walls=1).new_state()
    status, out, session = play_session(state, ["e1", "c2", "quit"], engine=None)
    assert "off the 4x7 board" in out
    assert [str(m) for m in session.state.moves][:1] == ["c2"] and len(session.state.moves) == 2


def test_uci_on_a_rectangle():
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor", size="4x7", walls=2), out)
    for line in ("position startpos moves c2 c6", "go depth 3",
                 "position pos 4x7x2:c2,c6:2,2:b3h:2 moves c5", "go nodes 300",
                 "position pos 9x2:e1,e9:10,10:-:1"):
        session.handle(line)
        session.wait()
    lines = out.getvalue().splitlines()
    best = [line.split()[1] for line in lines if line.startswith("bestmove")]
    first = crossridor.load_game("quoridor", size="4x7", walls=2).new_state("c2 c6")
    second = crossridor.load_game("quoridor", size="4x7", walls=2).state_from_position("4x7x2:c2,c6:2,2:b3h:2")
    second.play("c5")
    assert first.parse_move(best[0]) in first.legal_moves() and second.parse_move(best[1]) in second.legal_moves()
    assert "position is for 9x9 with 2 players, the game is 4x7" in lines[-1]
