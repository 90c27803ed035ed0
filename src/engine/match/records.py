"""A match's records file: one JSON line per finished game, appended and
flushed at once, read back for `--resume`."""

from __future__ import annotations

import json

from crossridor.engine.match.appendfile import AppendFile
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import GameRecord

# --- records file ------------------------------------------------------------------

class RecordsFile(AppendFile):
    """The JSON-lines records file. Each finished game is appended and
    flushed at once; on load, a torn last line (a match killed while
    writing) is dropped and cut from the file."""

    def __init__(self, path: str):
        super().__init__(path, "records file")
        self.lines: list = []     # after load(): the line number of each record

    def load(self) -> list:
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise CrossridorError(f"records file {self.path!r}: {exc.strerror or exc}") from None
        records, pos, good_end = [], 0, 0
        self.lines = []
        while pos < len(data):
            newline = data.find(b"\n", pos)
            if newline < 0:
                break                      # a torn last line: no newline yet
            line = data[pos:newline]
            if line.strip():
                number = data.count(b"\n", 0, pos) + 1
                try:
                    records.append(GameRecord.from_json(line))
                    self.lines.append(number)
                except (ValueError, TypeError) as exc:
                    raise CrossridorError(f"records file {self.path!r}, line {number}: "
                                          f"not a game record ({exc})") from None
            pos = good_end = newline + 1
        if good_end < len(data):
            with open(self.path, "r+b") as f:
                f.truncate(good_end)
        return records

    def append(self, record: GameRecord) -> None:
        self.write(json.dumps(record.as_dict(), separators=(",", ":")) + "\n")
