"""MultiPV and searchmoves at the text doors: `crossridor best --multipv N
--searchmoves ...` and the UCI loop's `setoption name MultiPV`, `info ...
multipv k` and `go searchmoves`."""

from __future__ import annotations

import json
import re

import crossridor
from crossridor.engine.options import MAX_MULTIPV
from helpers import one_line_error, run_cli
from test_uci import bestmove, session_output

OPENING = "e2 e8 e3 e7"


def legal_texts(moves: str = OPENING) -> set[str]:
    return {str(m) for m in crossridor.load_game("quoridor").new_state(moves).legal_moves()}


def test_best_multipv_json_gives_distinct_legal_moves_best_first():
    code, out, err = run_cli("best", "quoridor", "--moves", OPENING, "--multipv", "3", "--depth", "3", "--json")
    assert code == 0, err
    obj = json.loads(out)
    lines = obj["lines"]
    assert len(lines) == 3
    moves = [line["move"] for line in lines]
    assert len(set(moves)) == 3 and set(moves) <= legal_texts()
    scores = [line["score"] for line in lines]
    assert scores == sorted(scores, reverse=True)
    assert obj["move"] == moves[0] and obj["score"] == scores[0]
    for line in lines:
        assert line["pv"][0] == line["move"] and line["depth"] >= 1


def test_best_multipv_text_shows_one_row_per_line():
    code, out, err = run_cli("best", "quoridor", "--moves", OPENING, "--multipv", "3", "--depth", "3")
    assert code == 0, err
    text = out.splitlines()
    assert text[0].startswith("bestmove ") and text[1].startswith("score ")
    rows = [line for line in text if re.match(r"\s*\d+\.\s", line)]
    assert len(rows) == 3, out
    ranks = [int(row.split(".")[0]) for row in rows]
    assert ranks == [1, 2, 3]
    moves = [row.split()[1] for row in rows]
    assert moves[0] == text[0].split()[1] and len(set(moves)) == 3 and set(moves) <= legal_texts()
    assert all(" depth " in row and " pv " in row for row in rows)
    assert not any(line.startswith("pv ") for line in text)     # the rows replace the single line


def test_best_multipv_verbose_prints_each_line_of_each_depth():
    code, out, err = run_cli("best", "quoridor", "--moves", OPENING, "--multipv", "2", "--depth", "3",
                             "--verbose")
    assert code == 0, err
    infos = [line.split() for line in out.splitlines() if line.startswith("info depth")]
    for depth in (1, 2, 3):
        at = [words for words in infos if words[2] == str(depth)]
        assert [words[3:5] for words in at] == [["multipv", "1"], ["multipv", "2"]], out


def test_best_multipv_1_is_the_search_of_today():
    plain = json.loads(run_cli("best", "quoridor", "--moves", OPENING, "--depth", "3", "--json")[1])
    one = json.loads(run_cli("best", "quoridor", "--moves", OPENING, "--depth", "3", "--json",
                             "--multipv", "1")[1])
    for key in ("move", "score", "depth", "nodes", "pv"):
        assert one[key] == plain[key]
    text = run_cli("best", "quoridor", "--moves", OPENING, "--depth", "2", "--multipv", "1")[1]
    assert [line.split()[0] for line in text.splitlines()] == ["bestmove", "score", "pv"]


def test_best_searchmoves_restricts_the_root():
    code, out, err = run_cli("best", "quoridor", "--moves", OPENING, "--depth", "2", "--json",
                             "--searchmoves", "a1h", "d3", "--multipv", "3")
    assert code == 0, err
    obj = json.loads(out)
    assert {line["move"] for line in obj["lines"]} == {"a1h", "d3"}     # fewer lines than asked: two moves
    assert obj["move"] in ("a1h", "d3")


def test_best_bad_multipv_and_searchmoves_are_one_line_errors():
    err = one_line_error("best", "quoridor", "--multipv", "0", "--depth", "1")
    assert "multipv" in err and "[1, 256]" in err
    one_line_error("best", "quoridor", "--multipv", str(MAX_MULTIPV + 1), "--depth", "1")
    err = one_line_error("best", "quoridor", "--searchmoves", "e2", "e9", "--depth", "1")
    assert "searchmoves" in err and "e9" in err
    err = one_line_error("best", "quoridor", "--searchmoves", "zz", "--depth", "1")
    assert "searchmoves" in err
    # random searches nothing: it has neither option
    err = one_line_error("best", "quoridor", "--algorithm", "random", "--multipv", "2")
    assert "unknown option multipv" in err
    err = one_line_error("best", "quoridor", "--algorithm", "random", "--searchmoves", "e2")
    assert "unknown option searchmoves" in err
    err = one_line_error("best", "quoridor", "-e", "multipv=2", "--depth", "1")
    assert "--multipv N" in err


def final_infos(lines: list[str]) -> list[list[str]]:
    """The `info depth` lines of the deepest depth, split into words."""
    infos = [line.split() for line in lines if line.startswith("info depth")]
    deepest = max(int(words[2]) for words in infos)
    return [words for words in infos if int(words[2]) == deepest]


def test_uci_offers_multipv_and_prints_a_line_per_multipv():
    lines = session_output(f"uci\nsetoption name MultiPV value 3\nposition startpos moves {OPENING}\n"
                           "go depth 3\n")
    assert f"option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}" in lines
    assert not [line for line in lines if "error" in line], lines
    last = final_infos(lines)
    assert [words[3:5] for words in last] == [["multipv", "1"], ["multipv", "2"], ["multipv", "3"]], lines
    firsts = [words[words.index("pv") + 1] for words in last]
    assert len(set(firsts)) == 3 and set(firsts) <= legal_texts()
    assert bestmove(lines) == firsts[0]
    # every finished depth prints its lines
    infos = [line.split() for line in lines if line.startswith("info depth")]
    assert {int(words[2]) for words in infos} == {1, 2, 3}


def test_uci_multipv_1_keeps_the_single_info_line():
    lines = session_output(f"setoption name MultiPV value 1\nposition startpos moves {OPENING}\ngo depth 2\n")
    assert not [line for line in lines if "multipv" in line or "error" in line], lines
    assert [line.split()[2] for line in lines if line.startswith("info depth")] == ["1", "2"]


def test_uci_go_searchmoves_restricts_the_root():
    lines = session_output("go depth 2 searchmoves e2\n")
    assert bestmove(lines) == "e2"
    lines = session_output(f"position startpos moves {OPENING}\nsetoption name MultiPV value 4\n"
                           "go depth 2 searchmoves a1h d3\n")
    assert {words[words.index("pv") + 1] for words in final_infos(lines)} == {"a1h", "d3"}
    assert bestmove(lines) in ("a1h", "d3")


def test_uci_bad_multipv_and_searchmoves_are_error_lines():
    lines = session_output("setoption name MultiPV value 0\nsetoption name MultiPV value x\n"
                           "go depth 1 searchmoves e9\ngo depth 1 searchmoves\n"
                           "setoption name Algorithm value random\nsetoption name MultiPV value 2\n"
                           "go depth 1 searchmoves e2\nisready\n")
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 6, lines
    assert "MultiPV" in errors[0] and "MultiPV" in errors[1]
    assert "e9" in errors[2] and "searchmoves: no move" in errors[3]
    assert "MultiPV: not an option of quoridor random" in errors[4]
    assert "searchmoves: not an option of quoridor random" in errors[5]
    assert not any(line.startswith("bestmove") for line in lines)
    assert lines[-1] == "readyok"
