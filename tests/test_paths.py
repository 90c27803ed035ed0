"""The one rule for paths: options that read a file are for the
command line and the Python API only, and every file the engine reads is a
regular file of bounded size (no FIFO, device or directory)."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

import crossridor
from crossridor.engine.cli.main import main
from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import read_regular_file
from crossridor.engine.uci.engine import UciSession
from crossridor.games.kreuzundquer.deck import deck_to_text
from helpers import HANG


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return str(path)


def test_a_fifo_a_device_or_a_directory_is_refused_unread(fifo, tmp_path):
    # a FIFO with no writer would block a plain open() for ever
    for path, why in ((fifo, "not a regular file"), ("/dev/zero", "not a regular file"),
                      (str(tmp_path), "not a regular file"), (str(tmp_path / "none"), "cannot read")):
        with pytest.raises(CrossridorError, match=why):
            read_regular_file(path, "test file")
    big = tmp_path / "big"
    big.write_bytes(b"x" * 101)
    with pytest.raises(CrossridorError, match="too large"):
        read_regular_file(str(big), "test file", max_bytes=100)
    assert read_regular_file(str(big), "test file", max_bytes=101) == b"x" * 101


def test_deck_file_must_be_a_regular_file(fifo):
    for path in (fifo, "/dev/zero"):
        with pytest.raises(CrossridorError, match="deck_file .* is not a regular file"):
            crossridor.load_game("kreuzundquer", deck_file=path)


def test_eval_file_must_be_a_regular_file(fifo, capsys):
    for path in (fifo, "/dev/zero"):
        assert main(["best", "quoridor", "--depth", "1", "-e", "eval=learned", "-e", f"eval_file={path}"]) == 2
        assert "is not a regular file" in capsys.readouterr().err


def test_show_pgn_refuses_a_file_option(tmp_path, capsys):
    """Finding 12: a PGN naming deck_file=/dev/zero gave a MemoryError traceback."""
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[Game "kreuzundquer"]\n[Options "deck_file=/dev/zero players=2"]\n\n*\n')
    assert main(["show", "kreuzundquer", "--pgn", str(pgn)]) == 2
    err = capsys.readouterr().err
    assert "option deck_file reads a file" in err and "Traceback" not in err


def test_uci_setoption_refuses_a_file_option():
    out = io.StringIO()
    UciSession(crossridor.load_game("quoridor"), out).run(io.StringIO(
        "setoption name eval_file value /dev/zero\nsetoption name eval value learned\ngo depth 1\nquit\n"))
    text = out.getvalue()
    assert "option eval_file reads a file" in text
    assert "bestmove" in text          # the engine goes on, with the shipped weights


def test_the_command_line_and_python_api_still_read_files(tmp_path):
    game = crossridor.load_game("kreuzundquer", deck_seed=5)
    path = tmp_path / "deck.txt"
    path.write_text(deck_to_text(game.deck))
    assert crossridor.load_game("kreuzundquer", deck_file=str(path)).deck.routes == game.deck.routes


def test_every_file_option_is_refused_from_uci():
    """deck_file, eval_file and the solver's table=FILE alike: UCI setoption refuses them."""
    from crossridor.engine.options import FILE_OPTIONS
    assert {"deck_file", "eval_file", "table"} <= FILE_OPTIONS
    for name in sorted(FILE_OPTIONS):
        out = subprocess.run([sys.executable, "-m", "crossridor", "uci", "--size", "3"], capture_output=True,
                             text=True, timeout=HANG,
                             input=f"uci\nsetoption name {name} value /etc/passwd\nisready\nquit\n")
        assert f"option {name} reads a file" in out.stdout, out.stdout
