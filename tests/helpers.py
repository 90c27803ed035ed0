"""Helpers shared by several test files."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout

import crossridor
from crossridor.engine.cli import main as cli


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


def quoridor_state(size=9, players=2, walls=None, moves=""):
    """A Quoridor state: the game with these options, `moves` played."""
    return crossridor.load_game("quoridor", size=size, players=players, walls=walls).new_state(moves)
