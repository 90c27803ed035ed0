"""A text file a match appends one finished game to at a time (the records
file, the PGN-style file): checked for writing before the first game, opened
on the first write, flushed after every write, so a killed match loses only
the games still running."""

from __future__ import annotations

import os
from typing import IO

from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import open_for_writing


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

    def write(self, text: str) -> None:
        if self._file is None:
            self._file = open_for_writing(self.path, self.what, append=True)
        self._file.write(text)
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
