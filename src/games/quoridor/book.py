"""Quoridor's opening book: positions of the 2-player 9x9 game with 10 walls
each and the move a long search of the engine chose there.

`crossridor book build` makes it (`build`); the package ships one
(data/quoridor_book.bin, when one is shipped). `crossridor.search` probes it
for a timed alpha-beta search (a move time or a clock: a depth or node limit
asks for a search), so `best`, the UCI loop and matches play a book move at
once; the option `book=false` switches it off, `book=FILE` uses another file.

File layout, little-endian:
    magic   b"CRQBOOK1"
    uint32  number of entries, then the entries sorted by position:
        uint8 n, n bytes  the position (ASCII, `state.position()`)
        uint8 k, k bytes  the move in notation
        int32             the search's score (centi-steps, side to move)
        uint8             the depth it reached
"""

from __future__ import annotations

import dataclasses
import functools
import os
import struct
from importlib import resources

from crossridor.engine.errors import CrossridorError

MAGIC = b"CRQBOOK1"
SHIPPED = "quoridor_book.bin"
BOARD = (9, 2, 10)            # size, players, walls per player: the only board with a book
MAX_ENTRIES = 1_000_000       # a count past this is a corrupt header, not a book
_TAIL = struct.Struct("<iB")  # score, depth


class BookError(CrossridorError):
    """A bad or missing book file (one line: the file and what is wrong)."""


@dataclasses.dataclass(frozen=True)
class Entry:
    position: str
    move: str
    score: int
    depth: int


def dumps(entries) -> bytes:
    """The file's bytes for these entries (sorted by position)."""
    out = [MAGIC, struct.pack("<I", len(entries))]
    for e in sorted(entries, key=lambda e: e.position):
        pos, move = e.position.encode("ascii"), e.move.encode("ascii")
        if len(pos) > 255 or len(move) > 255:
            raise BookError(f"book entry {e.position!r}: position or move too long")
        out += [bytes([len(pos)]), pos, bytes([len(move)]), move, _TAIL.pack(e.score, e.depth)]
    return b"".join(out)


def loads(data: bytes, name: str) -> dict[str, Entry]:
    """Entries by position; every position must be one of the book's board
    and every move legal there, or BookError names the file and the fault."""
    from crossridor.engine.registry import load_game
    if data[:len(MAGIC)] != MAGIC:
        raise BookError(f"book {name}: not a book file (no {MAGIC.decode()} header)")
    at = len(MAGIC)
    if len(data) < at + 4:
        raise BookError(f"book {name}: truncated header")
    (count,) = struct.unpack_from("<I", data, at)
    at += 4
    if count > MAX_ENTRIES:
        raise BookError(f"book {name}: {count} entries is more than {MAX_ENTRIES}: a corrupt header")
    game = load_game("quoridor", size=BOARD[0], players=BOARD[1], walls=BOARD[2])
    book: dict[str, Entry] = {}
    for i in range(count):
        try:
            pos, at = _text(data, at)
            move, at = _text(data, at)
            score, depth = _TAIL.unpack_from(data, at)
        except (struct.error, IndexError, UnicodeDecodeError):
            raise BookError(f"book {name}: entry {i + 1} of {count} is truncated or not ASCII") from None
        at += _TAIL.size
        try:
            state = game.state_from_position(pos)
            if state.is_terminal():
                raise CrossridorError("the game is over")
            state.parse_move(move)
        except ValueError as exc:       # CrossridorError and the move parser's errors
            raise BookError(f"book {name}: entry {i + 1} ({pos} {move}): {exc}") from None
        if pos in book:
            raise BookError(f"book {name}: entry {i + 1}: position {pos} twice")
        book[pos] = Entry(pos, move, score, depth)
    if at != len(data):
        raise BookError(f"book {name}: {len(data) - at} bytes after the last entry")
    return book


def _text(data: bytes, at: int) -> tuple[str, int]:
    n = data[at]
    if at + 1 + n > len(data):
        raise IndexError
    return data[at + 1:at + 1 + n].decode("ascii"), at + 1 + n


def load(path: str) -> dict[str, Entry]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise BookError(f"book {path}: {exc.strerror or exc}") from None
    return loads(data, path)


@functools.lru_cache(maxsize=8)
def _cached(path: str | None, stamp) -> dict[str, Entry]:
    if path is None:
        ref = resources.files("crossridor.games.quoridor").joinpath("data", SHIPPED)
        return loads(ref.read_bytes(), f"(shipped) {SHIPPED}") if ref.is_file() else {}
    return load(path)


def book_for(path: str | None = None) -> dict[str, Entry]:
    """The shipped book (path None; empty when none is shipped) or a file's,
    read once per file version."""
    stamp = None
    if path is not None:
        try:
            st = os.stat(path)
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError as exc:
            raise BookError(f"book {path}: {exc.strerror or exc}") from None
    return _cached(path, stamp)


def has_book(state) -> bool:
    """Is this a game the book can hold (2-player 9x9, 10 walls)?"""
    g = state.game
    return g.traits.name == "quoridor" and (g.size, g.players, g.walls) == BOARD


def probe(state, path: str | None = None) -> Entry | None:
    """The book's entry for this position, or None."""
    if not has_book(state):
        return None
    return book_for(path).get(state.position())


def build(plies: int = 3, nodes: int = 2_000_000, hash_mb: int = 64, on_entry=None) -> list[Entry]:
    """Search every position of the book's tree to `nodes` nodes each (one
    thread, no book, seed 0: the same book on any machine and under any
    load): from the start position, each position's children are the
    searched move and every pawn step (the moves an opponent plays in the
    opening), down to `plies`. on_entry(entry, done) after each search."""
    from crossridor.engine.protocol import Limits
    from crossridor.engine.registry import load_game
    from crossridor.engine.search_api import search
    game = load_game("quoridor", size=BOARD[0], players=BOARD[1], walls=BOARD[2])
    entries: dict[str, Entry] = {}
    frontier = [game.new_state()]
    for ply in range(plies + 1):
        following = []
        for state in frontier:
            key = state.position()
            if key in entries or state.is_terminal():
                continue
            r = search(state, "alphabeta", Limits(nodes=nodes), seed=0, book=False, hash=hash_mb)
            entries[key] = Entry(key, str(r.move), int(r.score), int(r.depth))
            if on_entry is not None:
                on_entry(entries[key], len(entries))
            if ply < plies:
                moves = {str(r.move)} | {str(m) for m in state.legal_moves() if not m.is_wall}
                for move in sorted(moves):
                    child = state.clone()
                    child.play(move)
                    following.append(child)
        frontier = following
    return list(entries.values())


def write(path: str, entries) -> None:
    """Write the book file (through a temporary file: a reader never sees half a book)."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as f:
        f.write(dumps(entries))
    os.replace(tmp, path)
