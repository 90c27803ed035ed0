"""A match's records file: one JSON line per finished game, appended and
flushed at once, read back for `--resume`."""

from __future__ import annotations

import json

from crossridor.engine.appendfile import AppendFile, parse_lines
from crossridor.engine.files import MAX_GAMES_FILE_BYTES, read_regular_file
from crossridor.engine.match.game_loop import GameRecord

# --- records file ------------------------------------------------------------------

def parse_records(data: bytes, path: str) -> tuple[list[GameRecord], list[int], int]:
    """The records of a records file's bytes: (records, the line number of
    each, the end of the last whole line). A torn last line (no newline
    yet: a match killed while writing) is left out; any other line that is
    not a game record is a CrossridorError naming it."""
    return parse_lines(data, GameRecord.from_json, f"records file {path!r}", "a game record")


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
        records, self.lines, _ = self.read_lines(GameRecord.from_json, "a game record", MAX_GAMES_FILE_BYTES)
        return records

    def append(self, record: GameRecord) -> None:
        self.write(json.dumps(record.as_dict(), separators=(",", ":")) + "\n")
