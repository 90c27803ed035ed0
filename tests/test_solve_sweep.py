"""`crossridor solve quoridor --sweep` (games/quoridor/sweep.py, engine/cli/sweep.py):
the outcomes of tiny entries as the published table and as JSON, the results
file (resuming, a torn last line, a file that is not one), the memory bound,
bad SPECs, the named lists and the comparison with the published table."""

import json
import signal

import pytest

from crossridor.engine.stop import Interrupted, Stop
from crossridor.games.quoridor import sweep
from crossridor.games.quoridor.published import BOARDS, KNOWN, PUBLISHED
from crossridor.games.quoridor.sweep import Entry, Sweep, SweepOptions, compare, entries, grid
from helpers import STOP_BOUND, interrupt, one_line_error, run_cli

SMALL = ["2x3:0-2", "3x3:0-1"]
TAIL = ["?"] * 8        # the columns of 3 to 10 walls, not solved


def sweep_json(*argv):
    code, out, err = run_cli("solve", "quoridor", "--sweep", *argv, "--json")
    assert code == 0, err
    return json.loads(out), err


def lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_table_and_the_entries_as_json():
    data, _ = sweep_json(*SMALL)
    assert data["columns"] == list(range(11))
    assert data["table"] == {"2x3": ["2", "1", "1", *TAIL], "3x3": ["2", "2", "?", *TAIL]}
    assert data["published"] == {"known": 181, "compared": 5, "agree": 5, "differ": [], "opened": []}
    got = [(e["board"], e["walls"], e["winner"], e["plies"], e["moves"]) for e in data["entries"]]
    assert got == [("2x3", 0, 2, 4, ["a1"]), ("2x3", 1, 1, 3, ["a2v", "a1v"]), ("2x3", 2, 1, 3, ["a2v", "a1v"]),
                   ("3x3", 0, 2, 4, ["a1", "c1"]), ("3x3", 1, 2, 8, ["a1", "a2h", "b2h", "c1"])]
    assert all(e["nodes"] > 0 and e["layers"] > 0 and e["memory"] > 0 and "verify" not in e
               for e in data["entries"])


def test_the_table_and_the_entries_as_markdown():
    code, out, err = run_cli("solve", "quoridor", "--sweep", *SMALL, "--verify", "--games", "1")
    assert code == 0, err
    assert "| board | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 |\n" in out
    assert "| 2×3 | 2 | 1 | 1 | ? | ? | ? | ? | ? | ? | ? | ? |\n" in out
    assert "| 3×3 | 2 | 2 | ? | ? | ? | ? | ? | ? | ? | ? | ? |\n" in out
    assert "Published table: 5 of 181 known entries agree (176 not solved here).\n" in out
    assert "| 3×3 | 1 | player 2 | 8 | none (slowest losses: a1 a2h b2h c1) | 1,512 | " in out
    assert "| 2×3 | 1 | player 1 | 3 | a2v a1v | 156 | " in out
    rows = [line for line in out.splitlines() if line.startswith("| 2×3 | ") or line.startswith("| 3×3 | ")]
    assert len(rows) == 2 + 5
    # every entry checked against every reply (boards of at most 15 squares)
    assert "| ok (97 positions, " in out and out.count(" positions, ") == 5 and "games, " not in out
    # no bar when stderr is not a terminal: a line per entry
    assert "crossridor: 2x3:1: player 1 wins in 3 plies (156 positions, " in err


def test_boards_the_published_table_leaves_out_are_not_compared_with_it():
    code, out, err = run_cli("solve", "quoridor", "--sweep", "2x4:0-1")
    assert code == 0, err
    assert "| 2×4 | 1 | 1 | ? | " in out and "Published table" not in out


def test_a_second_run_solves_only_the_entries_not_in_the_results_file(tmp_path):
    results = tmp_path / "results.jsonl"
    first = Sweep(entries(["2x3:0-1"]), results=str(results))
    first.run()
    assert first.solved == 2 and [(r["board"], r["walls"]) for r in lines(results)] == [("2x3", 0), ("2x3", 1)]
    before = results.read_text()
    second = Sweep(entries(SMALL), results=str(results))
    assert second.pending() == 3
    started = []
    records = second.run(on_start=started.append)
    assert [str(e) for e in started] == ["2x3:2", "3x3:0", "3x3:1"]
    assert second.solved == 3 and [(r["board"], r["walls"]) for r in records] == \
        [("2x3", 0), ("2x3", 1), ("2x3", 2), ("3x3", 0), ("3x3", 1)]
    text = results.read_text()
    assert text.startswith(before) and len(text.splitlines()) == 5
    # the same command again: nothing to solve, the same output
    code, out, err = run_cli("solve", "quoridor", "--sweep", *SMALL, "--results", str(results), "--json")
    assert code == 0 and err == "" and results.read_text() == text
    assert json.loads(out)["entries"] == records


def test_checking_solves_again_the_entries_recorded_unchecked(tmp_path):
    results = tmp_path / "results.jsonl"
    Sweep(entries(["3x3:0-1"]), results=str(results)).run()
    checked = Sweep(entries(["3x3:0-1"]), SweepOptions(verify=True, games=1), str(results))
    records = checked.run()
    assert checked.solved == 2 and all(r["verify"]["ok"] and r["verify"]["mode"] == "exhaustive" for r in records)
    assert len(lines(results)) == 4
    again = Sweep(entries(["3x3:0-1"]), SweepOptions(verify=True, games=1), str(results))
    assert again.run() == records and again.solved == 0


def test_a_torn_last_line_is_left_out_with_a_note(tmp_path):
    results = tmp_path / "results.jsonl"
    Sweep(entries(["2x3:0-2"]), results=str(results)).run()
    whole = results.read_text().splitlines(keepends=True)
    results.write_text("".join(whole[:2]) + whole[2][:40])      # killed while writing the third
    code, out, err = run_cli("solve", "quoridor", "--sweep", "2x3:0-2", "--results", str(results))
    assert code == 0
    assert err.startswith(f"crossridor: note: the last line of {results} was cut short")
    assert err.count("\n") == 2 and "crossridor: 2x3:2: player 1 wins in 3 plies" in err   # solved again
    assert [(r["board"], r["walls"]) for r in lines(results)] == [("2x3", 0), ("2x3", 1), ("2x3", 2)]
    assert results.read_text().startswith("".join(whole[:2]))


@pytest.mark.parametrize("text", [
    "hello\n",
    '{"board": "2x3", "walls": 0}\n',
    '{"board": "10x3", "walls": 0, "skipped": "x", "cause": "memory", "memory_gb": 1}\n',
    '{"board": "2x3", "walls": 0, "skipped": "x", "cause": "bored", "memory_gb": null}\n',
    "[" * 100000 + "\n",
])
def test_a_results_file_of_other_lines_is_refused(tmp_path, text):
    results = tmp_path / "results.jsonl"
    Sweep(entries(["2x3:0"]), results=str(results)).run()
    results.write_text(text + results.read_text())
    err = one_line_error("solve", "quoridor", "--sweep", "2x3:0-1", "--results", str(results))
    assert f"results file '{results}', line 1: not a sweep result" in err


def test_an_entry_that_does_not_fit_is_skipped_and_the_board_left(tmp_path):
    results = tmp_path / "results.jsonl"
    small = SweepOptions(memory_gb=2e-6)         # 3x3 fits with 0 and 1 wall, not with 2
    run = Sweep(entries(["3:0-4", "2x3:0"]), small, str(results))
    records = run.run()
    assert [r.get("cause") for r in records] == [None, None, "memory", "not tried", "not tried", None]
    assert "do not fit in 2e-06 GB" in records[2]["skipped"] and run.solved == 4
    assert [(r["board"], r["walls"]) for r in lines(results)] == [("3x3", 0), ("3x3", 1), ("3x3", 2), ("2x3", 0)]
    assert grid(records)[1]["3x3"][:5] == ["2", "2", "?", "?", "?"]
    # the same bound again: nothing is solved; a larger one solves the rest of the board
    again = Sweep(entries(["3:0-4", "2x3:0"]), small, str(results))
    assert again.run() == records and again.solved == 0
    larger = Sweep(entries(["3:0-4", "2x3:0"]), SweepOptions(memory_gb=1), str(results))
    assert [r["winner"] for r in larger.run()] == [2] * 6 and larger.solved == 3


def test_tables_are_written_per_entry(tmp_path):
    tables = tmp_path / "tables"
    code, out, err = run_cli("solve", "quoridor", "--sweep", "2x3:0-1", "--write-table", str(tables), "--json")
    assert code == 0, err
    assert sorted(p.name for p in tables.iterdir()) == ["2x3-walls0", "2x3-walls1"]
    assert all((p / "table.json").exists() for p in tables.iterdir())
    # played from: `best --table` on the board with that many walls
    code, out, err = run_cli("best", "quoridor", "--size", "2x3", "--walls", "1", "--table",
                             str(tables / "2x3-walls1"), "--json")
    best = json.loads(out)
    assert code == 0 and (best["source"], best["winner"], best["move"]) == ("table", 1, "a2v")


@pytest.mark.parametrize("spec, message", [
    ("4x7:a", "--sweep 4x7:a: the walls must be N or LOW-HIGH"),
    ("10x3:0", "--sweep 10x3:0: a two-player board is 2 to 9 columns wide and 3 to 9 rows high"),
    ("4x7:5-2", "--sweep 4x7:5-2: the wall range 5-2 is empty"),
    ("4x7", "--sweep 4x7: give BOARD:WALLS"),
    ("x:1", "--sweep x:1: the board must be N or WxH"),
    ("3:0-101", "at most 100 walls per player"),
])
def test_a_bad_spec_is_one_error(spec, message):
    assert message in one_line_error("solve", "quoridor", "--sweep", "2x3:0", spec)


@pytest.mark.parametrize("argv, message", [
    (["--sweep", "2x3:0", "--size", "3"], "give no --size"),
    (["--sweep", "2x3:0", "--walls", "0"], "give no --walls"),
    (["--sweep", "2x3:0", "--moves", "a2"], "give no --moves"),
    (["--results", "r.jsonl"], "--results needs --sweep"),
    (["--sweep", "2x3:0", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --write-table"),
])
def test_options_that_do_not_go_with_a_sweep(argv, message):
    assert message in one_line_error("solve", "quoridor", *argv)


def test_the_named_lists():
    published = entries(["published"])
    assert len(published) == 187 == len(PUBLISHED) and KNOWN == 181 and len(BOARDS) == 17
    assert {(e.width, e.height, e.walls) for e in published} == set(PUBLISHED)
    even = entries(["even-heights"])
    boards = list(dict.fromkeys((e.width, e.height) for e in even))
    assert boards == [(2, 4), (3, 4), (4, 4), (5, 4), (6, 4), (7, 4), (2, 6), (3, 6), (4, 6), (2, 8), (3, 8)]
    assert len(even) == 11 * 11 and {e.walls for e in even} == set(range(11))
    # a named list and a SPEC together: each entry once
    assert len(entries(["published", "2x3:0-12", "4:4"])) == 187 + 2 + 1


def test_the_comparison_with_the_published_table():
    solved = Sweep(entries(["2x3:0"])).run()[0]
    assert (solved["winner"], PUBLISHED[2, 3, 0]) == (2, "2")
    differs = dict(solved, walls=1, winner=2)              # published: the first player wins
    opened = dict(solved, board="4x7", walls=7, winner=1)   # open in the published table
    draw = dict(solved, board="8x3", walls=3, winner=None, plies=None)
    unpublished = dict(solved, board="2x4", walls=0, winner=1)
    records = [solved, differs, opened, draw, unpublished]
    comparison = compare(records)
    assert comparison.agree == 2 and [str(e) for e in comparison.compared] == ["2x3:0", "2x3:1", "8x3:3"]
    assert [(str(e), here, published) for e, here, published in comparison.differ] == [("2x3:1", "2", "1")]
    assert [(str(e), here) for e, here in comparison.opened] == [("4x7:7", "1")]
    columns, rows = grid(records)
    assert list(rows) == ["2x3", "8x3", "2x4", "4x7"]          # by height, then width
    assert rows["2x3"][:3] == ["2", "2!", "?"] and rows["4x7"][7] == "1*" and rows["8x3"][3] == "D"
    assert rows["2x4"][0] == "1" and len(columns) == 11


def test_a_stopped_sweep(tmp_path):
    token = Stop()
    token.set()
    with pytest.raises(Interrupted):
        Sweep(entries(["2x3:0"]), results=str(tmp_path / "r.jsonl")).run(stop=token)
    assert not (tmp_path / "r.jsonl").exists()


def test_ctrl_c_keeps_the_finished_entries(tmp_path):
    results = tmp_path / "results.jsonl"
    # the signal once the first entry is in the file, while 5x5 with 4 walls is being solved
    code, seconds, out, err = interrupt(["solve", "quoridor", "--sweep", "2x3:0", "5:4", "--results", str(results)],
                                        ready=lambda proc: results.exists() and results.read_text().endswith("\n"),
                                        sig=signal.SIGINT)
    assert code == 130 and seconds < STOP_BOUND and out == ""
    assert err.endswith(f"crossridor: the entries finished so far are in {results} (the same command goes on "
                        f"from them)\ncrossridor: interrupted\n")
    assert [(r["board"], r["walls"]) for r in lines(results)] == [("2x3", 0)]


def test_entries_spell_the_board_as_the_size_option():
    assert [e.size for e in (Entry(5, 5, 0), Entry(4, 7, 0))] == [5, "4x7"]
    assert sweep.parse_spec("5:2-3") == [Entry(5, 5, 2), Entry(5, 5, 3)]
    assert sweep.parse_spec("4x7:3") == [Entry(4, 7, 3)]


def test_a_draw_and_a_skipped_entry_as_rows(capsys):
    from crossridor.engine.cli.sweep import print_entries
    solved = Sweep(entries(["2x3:0"])).run()[0]
    draw = dict(solved, board="8x3", walls=3, winner=None, plies=None, moves=["d1"])
    skipped = {"board": "4x7", "walls": 8, "skipped": "does not fit", "cause": "memory", "memory_gb": 8}
    not_tried = {"board": "4x7", "walls": 9, "skipped": "not tried: 4x7 with 8 walls did not fit in memory",
                 "cause": "not tried", "memory_gb": None}
    print_entries([draw, skipped, not_tried])
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("| 8×3 | 3 | draw | — | none (drawing moves: d1) | 52 | ")
    assert out[3] == "| 4×7 | 8 | skipped: does not fit | | | | | | |"
    assert out[4] == "| 4×7 | 9 | not tried: 4x7 with 8 walls did not fit in memory | | | | | | |"
