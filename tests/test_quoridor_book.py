"""Quoridor's opening book (crossridor.games.quoridor.book): the shipped
book is probed by timed alpha-beta searches (the API, `best`, UCI, a
match), switched off by book=false and not used for a depth or node limit;
book files round-trip, and every kind of bad file is a one-line error."""

from __future__ import annotations

import io
import struct
import subprocess
import sys

import pytest

import crossridor
from crossridor import Limits
from crossridor.engine.errors import CrossridorError
from crossridor.engine.uci.engine import UciSession
from crossridor.games.quoridor import book as qbook
from crossridor.games.quoridor.book import BookError, Entry, dumps, loads

START = "9x2:e1,e9:10,10:-:1"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "crossridor.engine.cli.main", *args],
                          capture_output=True, text=True, timeout=120)


def start_state(**params):
    return crossridor.load_game("quoridor", **params).new_state()


def test_shipped_book_holds_the_start_position():
    entry = qbook.probe(start_state())
    assert entry is not None and entry.position == START
    assert start_state().parse_move(entry.move) in start_state().legal_moves()
    assert len(qbook.book_for()) >= 10
    for e in qbook.book_for().values():       # every move legal where it is played
        state = crossridor.load_game("quoridor").state_from_position(e.position)
        assert state.parse_move(e.move) in state.legal_moves()


def test_timed_search_plays_the_book_move():
    entry = qbook.probe(start_state())
    r = crossridor.search(start_state(), "alphabeta", Limits(time=0.2))
    assert str(r.move) == entry.move and r.nodes == 0 and r.extra.get("book") is True
    assert [str(m) for m in r.pv] == [entry.move]
    seen = []
    crossridor.search(start_state(), "alphabeta", Limits(time=0.2), on_iteration=seen.append)
    assert len(seen) == 1 and str(seen[0].move) == entry.move


def test_book_false_and_fixed_limits_search():
    off = crossridor.search(start_state(), "alphabeta", Limits(time=0.05), book=False)
    assert off.nodes > 0 and "book" not in off.extra
    for limits in (Limits(depth=2), Limits(nodes=500)):
        assert crossridor.search(start_state(), "alphabeta", limits).nodes > 0


def test_book_only_for_its_board():
    assert qbook.probe(start_state(size=7)) is None
    assert qbook.probe(start_state(walls=8)) is None
    r = crossridor.search(start_state(size=7), "alphabeta", Limits(time=0.05))
    assert r.nodes > 0


def test_book_option_checked():
    with pytest.raises(CrossridorError, match="book must be true or false"):
        crossridor.search(start_state(), "alphabeta", Limits(time=0.05), book="yes")
    with pytest.raises(CrossridorError, match="unknown option"):
        crossridor.search(start_state(), "mcts", Limits(sims=10), book=False)


def test_best_cli_book_and_book_false():
    entry = qbook.probe(start_state())
    on = cli("best", "quoridor", "--time", "0.2", "--json")
    assert on.returncode == 0 and f'"move": "{entry.move}"' in on.stdout and '"book": true' in on.stdout
    off = cli("best", "quoridor", "--time", "0.05", "-e", "book=false", "--json")
    assert off.returncode == 0 and '"book"' not in off.stdout


def test_uci_probes_the_book_and_setoption_switches_it_off():
    entry = qbook.probe(start_state())
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor"), out)
    session.run(["position startpos", "go movetime 200", "ucinewgame"])
    assert f"bestmove {entry.move}" in out.getvalue()
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor"), out)
    session.run(["setoption name book value false", "position startpos", "go movetime 50", "ucinewgame"])
    info = [line for line in out.getvalue().splitlines() if line.startswith("info depth")]
    assert info and " nodes 0 " not in info[-1]


def test_round_trip_and_sorted():
    entries = [Entry("9x2:e2,e9:10,10:-:2", "e8", -9, 14), Entry(START, "e2", 12, 15)]
    book = loads(dumps(entries), "mem")
    assert book == {e.position: e for e in entries}
    assert dumps(entries) == dumps(list(reversed(entries)))


def _bad(data, match, tmp_path):
    with pytest.raises(BookError, match=match) as info:
        loads(data, "x.bin")
    assert "\n" not in str(info.value)
    path = tmp_path / "bad.bin"
    path.write_bytes(data)
    r = cli("book", "show", str(path))
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


GOOD = dumps([Entry(START, "e2", 12, 15)])


@pytest.mark.parametrize("data,match", [
    (b"", "not a book file"),
    (b"PK\x03\x04whatever", "not a book file"),
    (GOOD[:10], "truncated header"),
    (GOOD[:-3], "truncated"),
    (GOOD + b"\x00", "bytes after the last entry"),
    (qbook.MAGIC + struct.pack("<I", 10 ** 9), "corrupt header"),
    (dumps([Entry(START, "e5", 0, 1)]), "entry 1"),                    # an illegal move
    (dumps([Entry("9x2:e1,e9:10,10:-:3", "e2", 0, 1)]), "entry 1"),    # a bad position
    (dumps([Entry("7x2:d1,d7:10,10:-:1", "d2", 0, 1)]), "entry 1"),    # another board
    (GOOD[:12] + GOOD[12:].replace(b"e2", b"\xff2"), "not ASCII"),
])
def test_bad_book_files_one_line_errors(data, match, tmp_path):
    _bad(data, match, tmp_path)


def test_duplicate_position(tmp_path):
    one = dumps([Entry(START, "e2", 0, 1)])
    data = qbook.MAGIC + struct.pack("<I", 2) + one[12:] + one[12:]
    _bad(data, "twice", tmp_path)


def test_missing_file_one_line(tmp_path):
    r = cli("book", "show", str(tmp_path / "none.bin"))
    assert r.returncode == 2 and "book" in r.stderr and r.stderr.count("\n") == 1


def test_build_small_book(tmp_path):
    out = tmp_path / "b.bin"
    r = cli("book", "build", "--out", str(out), "--plies", "1", "--nodes", "300", "--json")
    assert r.returncode == 0, r.stderr
    book = qbook.load(str(out))
    # the start position, then its three pawn steps (the searched move is one of them)
    assert len(book) == 4 and START in book
    again = tmp_path / "c.bin"
    cli("book", "build", "--out", str(again), "--plies", "1", "--nodes", "300")
    assert again.read_bytes() == out.read_bytes()          # node limits and seed 0: the same file
    bad = cli("book", "build", "--out", str(out), "--nodes", "0")
    assert bad.returncode == 2 and "--nodes" in bad.stderr
