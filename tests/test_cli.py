"""The `crossridor` command line: output of each subcommand, and every bad
input leaving with exit status 2 and exactly one line on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import crossridor
from crossridor.engine.cli.main import main
from helpers import HANG, one_line_error, perft_count, run_cli


def run_json(*argv):
    status, out, err = run_cli(*argv, "--json")
    assert status == 0 and err == ""
    return json.loads(out)


# ------------------------------------------------------------ legal / show

def test_legal_text_and_json():
    status, out, err = run_cli("legal", "quoridor", "--size", "5", "--moves", "c2 c4")
    assert status == 0 and err == ""
    state = crossridor.load_game("quoridor", size=5).new_state("c2 c4")
    assert out.split() == [str(m) for m in state.legal_moves()]
    data = run_json("legal", "quoridor", "--moves", "e2")
    assert data["to_move"] == 2 and len(data["moves"]) == 131 and "e8" in data["moves"]


def test_legal_from_position_and_finished_game():
    data = run_json("legal", "quoridor", "--size", "5", "--position", "5x2:b4,b5:0,0:-:1")
    assert sorted(data["moves"]) == ["a4", "a5", "b3", "c4", "c5"]
    status, out, _ = run_cli("legal", "quoridor", "--size", "3", "--moves", "b2 a3 b3")
    assert status == 0 and "game is over" in out


def test_show():
    status, out, err = run_cli("show", "quoridor", "--moves", "e2 e8 e3h")
    assert status == 0 and err == ""
    assert "position: 9x2:e2,e8:9,10:e3h:2" in out
    assert "player 2 to move" in out
    data = run_json("show", "quoridor", "--players", "4")
    assert data["position"] == "9x4:e1,a5,e9,i5:5,5,5,5:-:1"
    assert data["to_move"] == 1 and data["terminal"] is False and "a" in data["board"]


# ------------------------------------------------------------ perft

def test_perft_text():
    status, out, err = run_cli("perft", "quoridor", "--depth", "3")
    assert status == 0 and err == ""
    assert out.startswith(f"perft 3: {perft_count(9, 3)} nodes in ")


def test_perft_json():
    data = run_json("perft", "quoridor", "--size", "7", "--depth", "2", "--hash", "4")
    assert set(data) == {"depth", "nodes", "seconds", "nps"}
    assert data["depth"] == 2 and data["nodes"] == perft_count(7, 2)
    assert data["seconds"] >= 0 and data["nps"] >= 0


def test_perft_divide():
    status, out, _ = run_cli("perft", "quoridor", "--size", "5", "--depth", "2", "--divide")
    assert status == 0
    lines = out.strip().splitlines()
    parts = dict(line.split(": ") for line in lines[:-1])
    assert len(parts) == perft_count(5, 1) and sum(int(n) for n in parts.values()) == perft_count(5, 2)
    assert lines[-1].startswith(f"perft 2: {perft_count(5, 2)} nodes")
    data = run_json("perft", "quoridor", "--size", "5", "--depth", "3", "--divide")
    assert data["nodes"] == perft_count(5, 3) == sum(data["divide"].values())
    assert len(data["divide"]) == perft_count(5, 1)


# ------------------------------------------------------------ best

def test_best_text():
    status, out, err = run_cli("best", "quoridor", "--position", "9x2:e8,a5:10,10:-:1",
                           "--depth", "3")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "bestmove e9"
    assert lines[1].startswith("score +99999  wins in 1 ply  depth 1  nodes ")
    assert lines[2] == "pv e9"


def test_best_json():
    data = run_json("best", "quoridor", "--moves", "e2 e8", "--depth", "3")
    assert {"move", "score", "depth", "nodes", "nps", "pv"} <= set(data)
    assert data["depth"] == 3 and data["nodes"] > 0 and data["pv"][0] == data["move"]
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    assert state.parse_move(data["move"])


def test_best_verbose_prints_one_line_per_depth():
    status, out, _ = run_cli("best", "quoridor", "--size", "5", "--depth", "4", "--verbose")
    assert status == 0
    info = [line for line in out.splitlines() if line.startswith("info depth")]
    assert [int(line.split()[2]) for line in info] == [1, 2, 3, 4]
    assert "bestmove" in out


def test_best_mcts_sims():
    data = run_json("best", "quoridor", "--algorithm", "mcts", "--sims", "150",
                    "--seed", "3", "-e", "rollout=random")
    assert data["nodes"] == 150 and data["sims"] == 150
    again = run_json("best", "quoridor", "--algorithm", "mcts", "--sims", "150",
                     "--seed", "3", "-e", "rollout=random")
    assert again["move"] == data["move"] and again["score"] == data["score"]


# ------------------------------------------------------------ bench

def test_bench_json():
    data = run_json("bench", "--depth", "2", "--sims", "50")
    assert set(data) == {"quoridor", "crosswise", "qwatrobat", "signature", "seconds"}
    q = data["quoridor"]
    assert set(q) == {"alphabeta", "mcts", "movegen"}
    assert [row["moves"] for row in q["movegen"]] == [131, 85]
    assert all(row["ns_per_call"] > 0 for row in q["movegen"])
    assert [row["position"] for row in q["alphabeta"]] == \
        ["opening", "opening-walls", "middlegame", "7x7", "4-players"]
    # depth 2 from the command line: the 2-ply node counts, not the bench's own depths
    assert [row["nodes"] for row in q["alphabeta"]] == \
        [r.nodes for r in _depth2_searches()]
    assert all(row["sims"] == 50 for row in q["mcts"])
    assert [row["evals"] for row in data["crosswise"]["pimc"]] == [50] * 3
    assert data["signature"]["qwatrobat solver"] == 4526 + 14516      # the bench signature (tests/test_bench.py)


def _depth2_searches():
    from crossridor.engine.bench import POSITIONS
    return [crossridor.search(crossridor.load_game("quoridor", **p.params).new_state(p.moves),
                              "alphabeta", crossridor.Limits(depth=2), hash=16) for p in POSITIONS]


def test_bench_one_game():
    data = run_json("bench", "--game", "qwatrobat")
    assert set(data) == {"qwatrobat", "signature", "seconds"}
    assert [row["move"] for row in data["qwatrobat"]["solver"]] == ["c1", "c2"]
    status, out, _ = run_cli("bench", "--game", "crosswise", "--sims", "20")
    assert status == 0
    assert "crosswise pimc" in out and "quoridor" not in out


# ------------------------------------------------------------ rules

def test_rules_prints_the_games_file(capsys, monkeypatch, tmp_path):
    from crossridor.engine import registry
    (tmp_path / "kreuzundquer.md").write_text("# Kreuz & Quer\n\nThe rules.\n", encoding="utf-8")
    monkeypatch.setattr(registry, "_rules_folders", lambda: iter([tmp_path / "absent", tmp_path]))
    for name in ("kreuz-und-quer", "kuq", "KreuzUndQuer"):
        assert main(["rules", name]) == 0
        assert capsys.readouterr().out == "# Kreuz & Quer\n\nThe rules.\n"
    assert main(["rules", "quoridor"]) == 2
    assert capsys.readouterr().err == \
        "crossridor: error: no rules file for quoridor (quoridor.md is not installed)\n"


def test_rules_files_name_every_game_and_nothing_else():
    from crossridor.engine import registry
    files = {game: registry.game_entry(game).rules_file for game in registry.game_names()}
    assert None not in files.values()
    docs = Path(__file__).resolve().parents[1] / "docs" / "rules"
    shipped = {p.name for p in docs.glob("*.md")}
    assert shipped <= set(files.values())
    for game, name in files.items():
        if name in shipped:      # each file in the checkout is what `rules` prints
            assert registry.rules_text(game) == (docs / name).read_text(encoding="utf-8")


# ------------------------------------------------------------ bad input

BAD = {
    "unknown-game": ["legal", "nosuch"],
    "unknown-subcommand": ["frobnicate", "quoridor"],
    "no-subcommand": [],
    "size-10": ["legal", "quoridor", "--size", "10"],
    "size-2x2": ["legal", "quoridor", "--size", "2x2"],
    "size-4x7x2": ["legal", "quoridor", "--size", "4x7x2"],
    "size-rectangle-4-players": ["legal", "quoridor", "--size", "4x7", "--players", "4"],
    "size-even-4-players": ["legal", "quoridor", "--size", "4", "--players", "4"],
    "move-off-rectangle": ["legal", "quoridor", "--size", "4x7", "--moves", "e1"],
    "position-wrong-board": ["show", "quoridor", "--size", "4x7", "--position", "7x4x2:c1,c7:10,10:-:1"],
    "size-not-int": ["legal", "quoridor", "--size", "big"],
    "players-3": ["legal", "quoridor", "--players", "3"],
    "unknown-game-option": ["legal", "quoridor", "-o", "foo=1"],
    "option-not-key-value": ["legal", "quoridor", "-o", "foo"],
    "walls-negative": ["legal", "quoridor", "--walls", "-1"],
    "malformed-move": ["legal", "quoridor", "--moves", "e2 zz9"],
    "move-off-board": ["legal", "quoridor", "--size", "5", "--moves", "e2"],
    "illegal-move": ["legal", "quoridor", "--moves", "e2 e9"],
    "illegal-wall": ["legal", "quoridor", "--moves", "e3h e3h"],
    "perft-negative-depth": ["perft", "quoridor", "--depth", "-1"],
    "perft-negative-hash": ["perft", "quoridor", "--depth", "1", "--hash", "-1"],
    "perft-no-depth": ["perft", "quoridor"],
    "bad-position": ["show", "quoridor", "--position", "9x2:zz"],
    "position-wrong-size": ["show", "quoridor", "--position", "5x2:c1,c5:10,10:-:1"],
    "position-overlapping-walls": ["show", "quoridor", "--position", "9x2:e1,e9:10,10:e3h,e3v:1"],
    "moves-and-position": ["show", "quoridor", "--moves", "e2", "--position",
                           "9x2:e1,e9:10,10:-:1"],
    "best-time-0": ["best", "quoridor", "--time", "0"],
    "best-depth-0": ["best", "quoridor", "--depth", "0"],
    "best-unknown-engine-option": ["best", "quoridor", "--depth", "1", "-e", "foo=1"],
    "best-bad-engine-option-value": ["best", "quoridor", "--depth", "1", "-e", "hash=-5"],
    "best-unknown-algorithm": ["best", "quoridor", "--algorithm", "nosuch", "--depth", "1"],
    "best-finished-game": ["best", "quoridor", "--size", "3", "--moves", "b2 a3 b3", "--depth", "1"],
    "best-threads-0": ["best", "quoridor", "--depth", "1", "--threads", "0"],
    "best-threads-as-option": ["best", "quoridor", "--depth", "1", "-e", "threads=2"],
    "best-threads-mcts": ["best", "quoridor", "--algorithm", "mcts", "--sims", "10", "--threads", "2"],
    "best-threads-other-game": ["best", "qwatrobat", "--seed", "1", "--depth", "1", "--threads", "2"],
    "best-wtime-nan": ["best", "quoridor", "--wtime", "nan"],
    "best-wtime-negative": ["best", "quoridor", "--wtime", "-1"],
    "best-wtime-huge": ["best", "quoridor", "--wtime", "1e300"],
    "best-inc-negative": ["best", "quoridor", "--wtime", "10", "--inc", "-0.5"],
    "best-movestogo-0": ["best", "quoridor", "--wtime", "10", "--movestogo", "0"],
    "best-inc-without-clock": ["best", "quoridor", "--inc", "1"],
    "best-mover-clock-missing": ["best", "quoridor", "--btime", "10"],
    "best-time-nan": ["best", "quoridor", "--time", "nan"],
    "bench-depth-0": ["bench", "--depth", "0"],
    "bench-game-without-core": ["bench", "--game", "kuq"],
    "rules-unknown-game": ["rules", "chess"],
    "bench-unknown-game": ["bench", "--game", "chess"],
    "show-viewer-perfect-information": ["show", "quoridor", "--viewer", "1"],
    "show-viewer-out-of-range": ["show", "qwatrobat", "--seed", "1", "--viewer", "3"],
}


@pytest.mark.parametrize("argv", list(BAD.values()), ids=list(BAD))
def test_bad_input_exits_2_with_one_line(argv):
    status, out, err = run_cli(*argv)
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("crossridor: error: ") and "Traceback" not in err


TWO_PLAYER_BOARDS = "N or WxH, 2 to 9 columns wide and 3 to 9 rows high"
FOUR_PLAYER_BOARDS = "square and odd (3, 5, 7 or 9)"


@pytest.mark.parametrize("argv, allowed", [
    (["--size", "10x3"], TWO_PLAYER_BOARDS),
    (["--size", "1x5"], TWO_PLAYER_BOARDS),
    (["--size", "4x"], TWO_PLAYER_BOARDS),
    (["--size", "2x2"], TWO_PLAYER_BOARDS),
    (["--size", "5x10"], TWO_PLAYER_BOARDS),
    (["--size", "5x7", "--players", "4"], FOUR_PLAYER_BOARDS),
    (["--size", "4", "--players", "4"], FOUR_PLAYER_BOARDS),
], ids=["10x3", "1x5", "4x", "2x2", "5x10", "5x7-4p", "4x4-4p"])
def test_bad_board_is_one_line_naming_the_boards_allowed(argv, allowed):
    err = one_line_error("legal", "quoridor", *argv)
    assert allowed in err and argv[1] in err


def test_legal_on_a_board_that_is_not_square():
    status, out, err = run_cli("legal", "quoridor", "--size", "4x7", "--walls", "2", "--moves", "c2 c6")
    assert status == 0 and err == ""
    state = crossridor.load_game("quoridor", size="4x7", walls=2).new_state("c2 c6")
    assert out.split() == [str(m) for m in state.legal_moves()]
    assert "d6h" not in out.split() and "c6h" in out.split()     # anchors a1..c6 on 4 columns by 7 rows
    data = run_json("show", "quoridor", "--size", "4x7", "--walls", "2", "--moves", "c2 c6")
    assert data["position"] == "4x7x2:c2,c6:2,2:-:1"


def test_module_exit_status_via_subprocess():
    ok = subprocess.run([sys.executable, "-m", "crossridor", "perft", "quoridor", "--size", "5",
                         "--depth", "2"], capture_output=True, text=True, timeout=HANG)
    assert ok.returncode == 0 and ok.stdout.startswith(f"perft 2: {perft_count(5, 2)} nodes")
    bad = subprocess.run([sys.executable, "-m", "crossridor", "legal", "quoridor", "--moves", "e2 e9"],
                         capture_output=True, text=True, timeout=HANG)
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "e9" in bad.stderr


def test_show_viewer_hides_the_other_layout():
    moves = ["--seed", "1", "--moves", "1234/4321 1122/3344"]
    status, full, _ = run_cli("show", "qwatrobat", *moves)
    assert status == 0 and "3 3 4 4" in full and "4 3 2 1" in full
    status, seen, _ = run_cli("show", "qwatrobat", *moves, "--viewer", "2")
    assert status == 0 and "3 3 4 4" in seen and "4 3 2 1" not in seen and "?" in seen


def test_best_defaults_to_ismcts_for_hidden_information():
    data = run_json("best", "qwatrobat", "--seed", "5", "--sims", "50",
                    "--moves", "1234/4321 1122/3344 first:1")
    assert data["nodes"] == 50 and data["move"].startswith("c")   # a push, found by ISMCTS
    data = run_json("best", "qwatrobat", "--seed", "5", "--sims", "50")
    assert "/" in data["move"] and data["nodes"] == 1             # a setup, from ISMCTS's table
    data = run_json("best", "quoridor", "--depth", "2")
    assert data["depth"] == 2                               # alpha-beta for perfect information
