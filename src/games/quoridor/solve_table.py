"""The folder of a solved table (`solve --write-table DIR`): one position's
levels, written as they are solved, read back with numpy's mmap (no copy
in memory), so a stopped run goes on from its finished levels and `best
--table DIR` plays from it.

    DIR/table.json       {"format", "size" (9 or "4x7"), "root": [hw, vw, w0, w1], "level0",
                          "levels": {"k": layers} once every level is known}
    DIR/keys-KK.npy      the sorted layers of level KK (walls placed): uint64 (n, 4)
    DIR/offsets-KK.npy   where each layer's code starts in the values: uint64 (n + 1)
    DIR/values-KK.npy    the codes of their values (solve_codes.pxi), one after the
                         other: uint8 (offsets[n]), written once the level is solved

A level's files are written under a temporary name and renamed, so a file
that is there is whole; the values go last. The codes are written to their
file as the layers are solved, so a level need not fit in memory.
"""

from __future__ import annotations

import io
import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import open_for_writing, open_regular_file, read_npy_header, read_regular_file
from crossridor.engine.options import BoardKind

TABLE_FORMAT = 3         # 1: one .npz file of int16 values; 2: one byte a position
META = "table.json"
MAX_META_BYTES = 2 ** 20     # the description: a few hundred bytes
BOARD = BoardKind((2, 9), (3, 9))     # the boards the solver plays (two players)


class TableError(CrossridorError):
    """A table folder that cannot be used as it is: not a table, another
    position's, or a file in it that is not what the table needs."""


def _level_file(folder: Path, kind: str, level: int) -> Path:
    return folder / f"{kind}-{level:02d}.npy"


@dataclass(frozen=True)
class Level:
    """A solved level's values as stored: where each layer's code starts
    (`offsets`, one more than the layers) and the codes one after the other
    (`codes`), in memory or mapped from a table folder."""

    offsets: np.ndarray
    codes: np.ndarray

    @property
    def nbytes(self) -> int:
        return self.offsets.nbytes + self.codes.nbytes

    @property
    def on_disk(self) -> bool:
        return isinstance(self.codes, np.memmap)

    def code(self, index: int) -> np.ndarray:
        return self.codes[int(self.offsets[index]):int(self.offsets[index + 1])]


NO_LEVEL = Level(np.zeros(1, np.uint64), np.zeros(0, np.uint8))     # below the deepest level


class LevelWriter:
    """The values file of a level being solved: codes appended as they come
    (`write`), then `finish` with the offsets puts the level in place."""

    HEADER = 128             # bytes kept for the .npy header, written once the length is known

    def __init__(self, table: "TableFolder", level: int):
        self.table = table
        self.level = level
        self.path = _level_file(table.folder, "values", level)
        self.length = 0
        self.file = open_for_writing(str(self.path.with_suffix(".tmp")), "table file", binary=True, error=TableError)
        self._io(lambda: self.file.write(bytes(self.HEADER)))

    def _io(self, step) -> None:
        try:
            step()
        except OSError as exc:
            self.file.close()
            raise CrossridorError(f"cannot write {str(self.path)!r}: {exc.strerror or exc}") from None

    def write(self, codes: bytes) -> None:
        self._io(lambda: self.file.write(codes))
        self.length += len(codes)

    def finish(self, offsets: np.ndarray) -> Level:
        header = io.BytesIO()
        np.lib.format.write_array_header_1_0(header, {"descr": "|u1", "fortran_order": False,
                                                      "shape": (self.length,)})
        head = header.getvalue()
        head = head[:-1].ljust(self.HEADER - 1) + b"\n"       # padded to the room kept for it
        head = head[:8] + (len(head) - 10).to_bytes(2, "little") + head[10:]
        if len(head) != self.HEADER:        # (a shape of up to 20 digits takes 86 bytes)
            raise TableError(f"cannot write {str(self.path)!r}: a header of {len(head)} bytes")
        self._io(lambda: (self.file.seek(0), self.file.write(head), self.file.close()))
        self.table._save("offsets", self.level, offsets)
        try:
            os.replace(self.path.with_suffix(".tmp"), self.path)
        except OSError as exc:
            raise CrossridorError(f"cannot write {str(self.path)!r}: {exc.strerror or exc}") from None
        return self.table.level_values(self.level)

    def close(self) -> None:
        self.file.close()


class TableFolder:
    """A table folder: its description and its level files."""

    def __init__(self, folder, meta: dict):
        self.folder = Path(folder)
        self.meta = meta

    @property
    def size(self) -> int | str:
        """The board, as the game's size option spells it (9, '4x7')."""
        return self.meta["size"]

    @property
    def root(self) -> tuple[int, int, int, int]:
        return tuple(self.meta["root"])

    @property
    def level0(self) -> int:
        return self.meta["level0"]

    @property
    def levels(self) -> dict[int, int] | None:
        """Layers per level once every level is known (None before)."""
        levels = self.meta.get("levels")
        return None if levels is None else {int(k): int(v) for k, v in levels.items()}

    # --- writing
    @classmethod
    def create(cls, folder, size: int | str, root, level0: int) -> "TableFolder":
        """The folder for solving `root`: a new one, or the one of a stopped
        run of the same position (resumed); CrossridorError otherwise."""
        folder = Path(folder)
        root = [int(x) for x in root]
        if (folder / META).exists():
            table = cls.open(folder)
            if table.size != size or list(table.root) != root:
                raise TableError(f"{folder} holds the table of another position: give a new folder "
                                 f"to --write-table")
            return table
        try:
            folder.mkdir(exist_ok=True)
            if any(folder.iterdir()):
                raise TableError(f"{folder} is not empty and holds no solved table: give a new folder "
                                 f"to --write-table")
            table = cls(folder, {"format": TABLE_FORMAT, "size": size, "root": root, "level0": level0,
                                 "levels": None})
            table._write_meta()
        except OSError as exc:
            raise CrossridorError(f"cannot write the table folder {str(folder)!r}: {exc.strerror or exc}") from None
        return table

    def _write_meta(self) -> None:
        tmp = self.folder / (META + ".tmp")
        with open_for_writing(str(tmp), "table file", error=TableError) as f:
            f.write(json.dumps(self.meta))
        os.replace(tmp, self.folder / META)

    def _save(self, kind: str, level: int, array: np.ndarray) -> None:
        path = _level_file(self.folder, kind, level)
        tmp = path.with_suffix(".tmp")
        try:
            with open_for_writing(str(tmp), "table file", binary=True, error=TableError) as f:
                np.save(f, array)
            os.replace(tmp, path)
        except OSError as exc:
            raise CrossridorError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None

    def save_keys(self, keys: dict[int, np.ndarray]) -> None:
        """Every level's keys, then the count of layers per level (which
        says that the keys are all there)."""
        for level, k in keys.items():
            self._save("keys", level, k)
        self.meta["levels"] = {str(level): len(k) for level, k in keys.items()}
        self._write_meta()

    def free_bytes(self) -> int:
        """The bytes free on the folder's disk."""
        try:
            return shutil.disk_usage(self.folder).free
        except OSError as exc:
            raise CrossridorError(f"cannot read the free space of {str(self.folder)!r}: {exc.strerror or exc}") \
                from None

    def new_level(self, level: int) -> LevelWriter:
        """The values file of a level about to be solved."""
        return LevelWriter(self, level)

    # --- reading
    @classmethod
    def open(cls, folder) -> "TableFolder":
        """A written table folder (CrossridorError naming what is wrong)."""
        folder = Path(folder)
        if not folder.is_dir():
            if not os.path.exists(folder):
                raise TableError(f"cannot read solved table {str(folder)!r}: no such folder")
            with open_regular_file(str(folder), "solved table", None, TableError) as f:
                old = f.read(2) == b"PK"
            if old:
                raise TableError(f"{folder} is a solved table of an older format (a .npz file): solve "
                                 f"again with --write-table DIR")
            raise TableError(f"{folder} is not a solved table (a folder written by solve --write-table)")
        try:
            meta = json.loads(read_regular_file(str(folder / META), "solved table", MAX_META_BYTES))
            found = meta.get("format") if isinstance(meta, dict) else None
            older = type(found) is int and 1 <= found < TABLE_FORMAT
            if found != TABLE_FORMAT and not older:
                raise ValueError(f"format {found}, not {TABLE_FORMAT}")
            if BOARD.check(meta["size"]) != meta["size"] or len(meta["root"]) != 4 \
                    or not 0 <= meta["level0"] <= 64:
                raise ValueError("a bad description")
            _check_levels(meta)
        except CrossridorError as exc:
            raise TableError(f"{folder} is not a solved table: {exc}") from None
        except (ValueError, KeyError, TypeError) as exc:
            raise TableError(f"{folder} is not a solved table: {exc}") from None
        if older:
            raise TableError(f"{folder} is a solved table of an older format (one byte a position): solve "
                             f"again with --write-table DIR")
        return cls(folder, meta)

    def keys(self, level: int) -> np.ndarray:
        return self._load("keys", level, np.uint64, 4)

    def has_values(self, level: int) -> bool:
        # present, whatever it is: a FIFO or a device there is refused when read, not taken for unsolved
        return os.path.lexists(_level_file(self.folder, "values", level))

    def level_values(self, level: int) -> Level:
        """A solved level's values (mapped): its offsets checked against its
        layers and its codes, so that no code reaches past the end."""
        n = (self.levels or {}).get(level)
        offsets = self._load("offsets", level, np.uint64, None, None if n is None else n + 1)
        codes = self._load("values", level, np.uint8, None)
        bad = f"{self.folder} is not a solved table: offsets-{level:02d}.npy"
        if len(offsets) == 0 or offsets[0] != 0 or int(offsets[-1]) != len(codes):
            raise TableError(f"{bad} does not span values-{level:02d}.npy")
        if not bool(np.all(offsets[1:] >= offsets[:-1])):
            raise TableError(f"{bad} is not in order")
        return Level(offsets, codes)

    def _load(self, kind: str, level: int, dtype, columns: int | None, rows: int | None = None) -> np.ndarray:
        """A level file mapped read-only: opened as a regular file without
        blocking, its header checked against the description and its size
        before it is mapped. `columns` None: a one-dimensional array (of
        `rows` when given)."""
        path = _level_file(self.folder, kind, level)
        bad = f"{self.folder} is not a solved table: {path.name}"
        try:
            f = open_regular_file(str(path), "table file", None)
        except CrossridorError as exc:
            raise TableError(f"{self.folder} is not a solved table: {exc}") from None
        with f:
            shape, fortran, found, offset = read_npy_header(f, bad, TableError)
            expected = (self.levels or {}).get(level) if columns is not None else rows
            if found != dtype or len(shape) != (1 if columns is None else 2) or fortran \
                    or (columns is not None and shape[1] != columns) or (expected is not None and shape[0] != expected):
                raise TableError(f"{bad} holds {found} {shape}")
            size = os.fstat(f.fileno()).st_size
            if size != offset + int(np.prod(shape)) * found.itemsize:
                raise TableError(f"{bad} holds {size - offset} bytes of data, not the {found} {shape} "
                                 f"of its header")
            if not size > offset:                     # nothing to map
                return np.zeros(shape, dtype)
            return np.memmap(f, dtype=found, mode="r", offset=offset, shape=shape)


def _check_levels(meta: dict) -> None:
    """ValueError unless the layers per level, once known, are a positive
    count for each level from level0 on, and no other."""
    levels = meta.get("levels")
    if levels is None:
        return
    if not isinstance(levels, dict) or not levels:
        raise ValueError("a bad description (levels)")
    level0 = meta["level0"]
    if sorted(levels) != sorted(str(level) for level in range(level0, level0 + len(levels))) \
            or not all(type(n) is int and n > 0 for n in levels.values()):
        raise ValueError(f"a bad description (levels {json.dumps(levels)[:80]}): a positive count of "
                         f"layers for each level from {level0} on")
