"""Perft of the Quoridor core against tests/data/perft_quoridor.txt (python-chess
examples/perft style): every case plain, with the subtree-count hash, and with
divide. Each case names the source of its count: [ind] an independent
implementation, [ref] the pure-Python reference (tests/quoridor_reference.py;
test_ref_counts recomputes them), [core] the core's own count (9x9 depth 4
only, too slow for the reference): a regression signature, not an
independent check. A board is N (N x N) or WxH (W columns, H rows), as the
game's size option takes it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import crossridor
from crossridor.engine.perft import perft
from helpers import protocol_perft, quoridor_state
from quoridor_reference import RefQuoridor

DATA = Path(__file__).parent / "data" / "perft_quoridor.txt"


SOURCES = ("ind", "ref", "core")


def load_cases():
    """[(case, source)] from the data file; a case line without a source is an error."""
    cases = []
    for lineno, line in enumerate(DATA.read_text().splitlines(), 1):
        line, _, comment = line.partition("#")
        line = line.strip()
        if not line:
            continue
        source = re.fullmatch(r"\s*\[(\w+)\]\s*", comment)
        assert source and source.group(1) in SOURCES, f"{DATA.name}:{lineno}: no [ind]/[ref]/[core] source"
        size, players, walls, moves, depth, count = line.split()
        moves = "" if moves == "-" else moves.replace(",", " ")
        board = size if "x" in size else f"{size}x{size}"
        # N as the int the game's size option checks a square to, WxH as text
        case = (int(size) if size.isdigit() else size, int(players), int(walls), moves, int(depth), int(count))
        cases.append((pytest.param(*case, id=f"L{lineno}-{board}p{players}-d{depth}"), source.group(1)))
    return cases


SOURCED = load_cases()
CASES = [case for case, _ in SOURCED]


def test_data_file_is_substantial():
    assert len(CASES) >= 25
    assert any(c.values[4] == 4 and c.values[0] == 9 for c in CASES)
    # boards that are not square, from the reference: narrow, wide and tall ones
    boards = {c.values[0] for c, src in SOURCED if isinstance(c.values[0], str) and src == "ref"}
    assert {"2x3", "4x3", "3x5", "4x7", "9x3", "2x9", "8x5"} <= boards
    # only the 9x9 depth-4 count comes from the core alone
    assert [c.values for c, src in SOURCED if src == "core"] == [(9, 2, 10, "", 4, 247569030)]


@pytest.mark.parametrize("size,players,walls,moves,depth,count",
                         [case for case, src in SOURCED if src == "ref"])
def test_ref_counts(size, players, walls, moves, depth, count):
    """The [ref] counts are what the pure-Python reference computes."""
    assert RefQuoridor(size, players, walls).play_all(moves).perft(depth) == count


@pytest.mark.parametrize("size,players,walls,moves,depth,count", CASES)
def test_perft(size, players, walls, moves, depth, count):
    state = quoridor_state(size, players, walls, moves)
    before = state.position()
    assert perft(state, depth) == count
    assert state.position() == before          # perft leaves the state as it found it


@pytest.mark.parametrize("size,players,walls,moves,depth,count", CASES)
def test_perft_hash(size, players, walls, moves, depth, count):
    state = quoridor_state(size, players, walls, moves)
    assert perft(state, depth, hash_mb=16) == count
    assert perft(state, depth, hash_mb=1) == count   # a small table: many replacements


@pytest.mark.parametrize("size,players,walls,moves,depth,count",
                         [c for c in CASES if c.values[4] <= 3])
def test_perft_divide(size, players, walls, moves, depth, count):
    state = quoridor_state(size, players, walls, moves)
    parts = perft(state, depth, divide=True)
    assert sum(n for _, n in parts) == count
    moves_here = state.legal_moves()
    assert [m for m, _ in parts] == moves_here
    # each part is the perft of the child position one ply shallower
    for move, n in parts[:5]:
        state.play(move)
        assert perft(state, depth - 1) == n
        state.undo()


def test_perft_depth_zero_and_errors():
    state = crossridor.load_game("quoridor").new_state()
    assert perft(state, 0) == 1
    with pytest.raises(ValueError):
        perft(state, -1)
    with pytest.raises(ValueError):
        state.core.perft(2, -1)


def test_perft_finished_game_counts_nothing():
    # 3x3: player 1 steps b2 then b3 and wins; the game is over
    state = crossridor.load_game("quoridor", size=3).new_state("b2 a3 b3")
    assert state.is_terminal()
    assert perft(state, 0) == 1
    assert perft(state, 1) == 0
    assert perft(state, 3, hash_mb=16) == 0
    assert perft(state, 2, divide=True) == []


def test_perft_move_limit_draw():
    # max_plies ends the game: no moves at or below the limit (as legal_moves() says)
    game = crossridor.load_game("quoridor", size=5, max_plies=2)
    assert perft(game.new_state(), 1) == 35
    assert perft(game.new_state(), 2) == 1109
    assert perft(game.new_state(), 3) == 0
    assert perft(game.new_state("c2 c4"), 1) == 0
    assert perft(game.new_state(), 3) == protocol_perft(game.new_state(), 3)
