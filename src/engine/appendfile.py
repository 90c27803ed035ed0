"""A text file a run appends one finished item to at a time (a match's
records file and PGN-style file, a solver sweep's results file): checked
for writing before the first item, opened on the first write, flushed
after every write, so a killed run loses only the items still running.
A JSON-lines file is read back by `parse_lines` (`AppendFile.read_lines`
also cuts a torn last line from the file)."""

from __future__ import annotations

import os
from typing import IO, Callable

from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import open_for_writing, read_regular_file


def parse_lines(data: bytes, read: Callable[[bytes], object], where: str, kind: str) -> tuple[list, list[int], int]:
    """The items of a JSON-lines file's bytes, each line read by `read`
    (ValueError or TypeError when it is not one): (items, the line number of
    each, the end of the last whole line). Blank lines are skipped; a torn
    last line (no newline yet: a run killed while writing) is left out; any
    other line that `read` refuses is a CrossridorError naming `where`, the
    line and the `kind` of item it is not."""
    items: list = []
    lines: list[int] = []
    pos = good_end = number = 0
    while pos < len(data):
        newline = data.find(b"\n", pos)
        if newline < 0:
            break                      # a torn last line: no newline yet
        line = data[pos:newline]
        number += 1
        if line.strip():
            try:
                items.append(read(line))
                lines.append(number)
            except (ValueError, TypeError) as exc:
                raise CrossridorError(f"{where}, line {number}: not {kind} ({exc})") from None
        pos = good_end = newline + 1
    return items, lines, good_end


class AppendFile:
    def __init__(self, path: str, what: str):
        self.path = path
        self.what = what            # "records file", "pgn file": names it in errors
        self._file: IO[str] | None = None
        folder = os.path.dirname(os.path.abspath(path))
        # checked before the first game, not when its record is written
        if os.path.isdir(path) or not os.path.isdir(folder) or not os.access(folder, os.W_OK) \
                or (os.path.exists(path) and not os.access(path, os.W_OK)):
            raise CrossridorError(f"{what} {path!r}: cannot write there "
                                  f"({'a folder' if os.path.isdir(path) else 'no such writable folder or file'})")
        if os.path.exists(path) and not os.path.isfile(path):
            raise CrossridorError(f"{what} {path!r} is not a regular file")

    def read_lines(self, read: Callable[[bytes], object], kind: str,
                   max_bytes: int) -> tuple[list, list[int], bool]:
        """The items of the JSON-lines file as `parse_lines` reads them
        (none when there is no file yet), and whether a torn last line was
        cut from the file (so that the next line appended starts a line of
        its own)."""
        if not os.path.lexists(self.path):
            return [], [], False
        data = read_regular_file(self.path, self.what, max_bytes)
        items, lines, good_end = parse_lines(data, read, f"{self.what} {self.path!r}", kind)
        if good_end < len(data):
            try:                       # by path: a FIFO swapped in since the read is refused, never opened
                os.truncate(self.path, good_end)
            except OSError as exc:
                raise CrossridorError(f"{self.what} {self.path!r}: cannot cut its torn last line: "
                                      f"{exc.strerror or exc}") from None
        return items, lines, good_end < len(data)

    def write(self, text: str) -> None:
        if self._file is None:
            self._file = open_for_writing(self.path, self.what, append=True)
        self._file.write(text)
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
