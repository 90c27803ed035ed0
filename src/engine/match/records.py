"""A match's records file: one JSON line per finished game, appended and
flushed at once, read back for `--resume`."""

from __future__ import annotations

import json
import os

from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import MAX_GAMES_FILE_BYTES, read_regular_file
from crossridor.engine.match.appendfile import AppendFile
from crossridor.engine.match.game_loop import GameRecord

# --- records file ------------------------------------------------------------------

def parse_records(data: bytes, path: str) -> tuple[list[GameRecord], list[int], int]:
    """The records of a records file's bytes: (records, the line number of
    each, the end of the last whole line). A torn last line (no newline
    yet: a match killed while writing) is left out; any other line that is
    not a game record is a CrossridorError naming it."""
    records: list[GameRecord] = []
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
                records.append(GameRecord.from_json(line))
                lines.append(number)
            except (ValueError, TypeError) as exc:
                raise CrossridorError(f"records file {path!r}, line {number}: "
                                      f"not a game record ({exc})") from None
        pos = good_end = newline + 1
    return records, lines, good_end


def read_records(path: str) -> list[GameRecord]:
    """The games of a records file, read only (a torn last line is left
    out, the file is not changed): for reviewing them."""
    return parse_records(read_regular_file(path, "records file", MAX_GAMES_FILE_BYTES), path)[0]


class RecordsFile(AppendFile):
    """The JSON-lines records file. Each finished game is appended and
    flushed at once; on load, a torn last line (a match killed while
    writing) is dropped and cut from the file."""

    def __init__(self, path: str):
        super().__init__(path, "records file")
        self.lines: list = []     # after load(): the line number of each record

    def load(self) -> list:
        if not os.path.lexists(self.path):
            return []
        data = read_regular_file(self.path, self.what, MAX_GAMES_FILE_BYTES)
        records, self.lines, good_end = parse_records(data, self.path)
        if good_end < len(data):
            try:                       # by path: a FIFO swapped in since the read is refused, never opened
                os.truncate(self.path, good_end)
            except OSError as exc:
                raise CrossridorError(f"{self.what} {self.path!r}: cannot cut its torn last line: "
                                      f"{exc.strerror or exc}") from None
        return records

    def append(self, record: GameRecord) -> None:
        self.write(json.dumps(record.as_dict(), separators=(",", ":")) + "\n")
