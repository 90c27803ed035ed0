"""Files the engine is given by name (a deck, a weights file, a records or
PGN file, a solved table, self-play data): read as a regular file only, of
bounded size, or one clear error; written only where a regular file is or
none is.

A file is opened with O_NONBLOCK and checked with fstat before anything is
read or written, so that a FIFO cannot block the reader or the writer and a
device (/dev/zero) or a huge file cannot fill memory."""

from __future__ import annotations

import errno
import os
import stat
from typing import IO, BinaryIO

from crossridor.engine.errors import CrossridorError
from crossridor.engine.stop import Interrupted, interrupted

MAX_FILE_BYTES = 64 * 2 ** 20      # far above any deck, weights or openings file
MAX_GAMES_FILE_BYTES = 2 ** 30     # a records or PGN file: a few hundred thousand games

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _open_regular(path: str, what: str, max_bytes: int | None, error: type[Exception]) -> tuple[int, int]:
    """(fd, size) of the regular file `path`, opened without blocking; `error`
    if it cannot be opened, is not a regular file or exceeds `max_bytes`
    (None: the caller bounds what it reads itself)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | _CLOEXEC)
    except (OSError, ValueError, TypeError) as exc:
        raise error(f"cannot read {what} {path!r}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{what} {path!r} is not a regular file")
        if max_bytes is not None and info.st_size > max_bytes:
            raise error(f"{what} {path!r} is too large ({info.st_size} bytes, at most {max_bytes})")
    except BaseException:
        os.close(fd)
        raise
    return fd, info.st_size


def check_regular_file(path: str, what: str, max_bytes: int,
                       error: type[Exception] = CrossridorError) -> int:
    """The size of the regular file `path`; `error` as `read_regular_file`
    gives it."""
    fd, size = _open_regular(path, what, max_bytes, error)
    os.close(fd)
    return size


def open_regular_file(path: str, what: str, max_bytes: int | None = MAX_FILE_BYTES,
                      error: type[Exception] = CrossridorError) -> BinaryIO:
    """The regular file `path` open for reading (binary), checked as
    `read_regular_file` checks it, for a reader that reads it itself (a zip
    reader, a memory map); the caller closes it."""
    fd, _ = _open_regular(path, what, max_bytes, error)
    return os.fdopen(fd, "rb")


def read_regular_file(path: str, what: str, max_bytes: int = MAX_FILE_BYTES,
                      error: type[Exception] = CrossridorError) -> bytes:
    """The bytes of the regular file `path`; `error` (naming `what` and the
    path) if it cannot be read, is not a regular file or exceeds `max_bytes`.
    Read by chunks, so that SIGINT/SIGTERM on the command line
    (engine.stop.interrupt) during a long read ends it with Interrupted;
    a read after it (a match winding down) still reads."""
    fd, _ = _open_regular(path, what, max_bytes, error)
    before = interrupted()
    try:
        chunks, size = [], 0
        while True:                    # the file may grow while it is read
            if interrupted() and not before:
                raise Interrupted(f"reading {what} {path!r} stopped")
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > max_bytes:
                raise error(f"{what} {path!r} is too large (more than {max_bytes} bytes)")
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"cannot read {what} {path!r}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def read_text_file(path: str, what: str, max_bytes: int = MAX_FILE_BYTES,
                   error: type[Exception] = CrossridorError) -> str:
    """`read_regular_file` as UTF-8 text; `error` naming the first byte
    that is not UTF-8."""
    data = read_regular_file(path, what, max_bytes, error)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{what} {path!r} is not UTF-8 text (byte {exc.start})") from None


def open_for_writing(path: str, what: str, append: bool = False, binary: bool = False,
                     error: type[Exception] = CrossridorError, **text_options) -> IO:
    """`path` open for writing, created when missing, else emptied (or
    appended to with `append`); `error` in one line when it cannot be, or
    exists and is not a regular file (a FIFO would block the writer, a
    device swallow or refuse what is written). Text files are UTF-8
    (`text_options`: io.open's newline=...)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | _CLOEXEC | (os.O_APPEND if append else 0)
    try:
        fd = os.open(path, flags, 0o666)
    except (OSError, ValueError, TypeError) as exc:
        if getattr(exc, "errno", None) == errno.ENXIO:        # a FIFO nobody reads
            raise error(f"{what} {path!r} is not a regular file") from None
        raise error(f"cannot write {what} {path!r}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise error(f"{what} {path!r} is not a regular file")
        if not append:
            os.ftruncate(fd, 0)                # only once it is known to be a regular file
        os.set_blocking(fd, True)
    except OSError as exc:
        os.close(fd)
        raise error(f"cannot write {what} {path!r}: {exc.strerror or exc}") from None
    except BaseException:
        os.close(fd)
        raise
    mode = ("a" if append else "w") + ("b" if binary else "")
    return os.fdopen(fd, mode, **({} if binary else {"encoding": "utf-8", **text_options}))


def read_npy_header(stream, what: str, error: type[Exception] = CrossridorError):
    """(shape, fortran_order, dtype, data offset) from the header of a .npy
    file or zip member at its start, read without reading its data:
    checked before anything is allocated. Only arrays of real numbers
    (signed or unsigned integers, floats) are accepted."""
    import numpy as np
    from numpy.lib import format as npy

    try:
        version = npy.read_magic(stream)
        if version not in ((1, 0), (2, 0)):
            raise ValueError(f"npy format version {version[0]}.{version[1]}")
        read_header = npy.read_array_header_1_0 if version == (1, 0) else npy.read_array_header_2_0
        shape, fortran, dtype = read_header(stream)
    except (ValueError, EOFError, SyntaxError, TypeError) as exc:
        raise error(f"{what}: not a numpy array ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})") \
            from None
    if dtype.kind not in "iuf" or dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        raise error(f"{what} holds {dtype}, not integers or floats")
    if any(n < 0 for n in shape):
        raise error(f"{what}: a bad shape {shape}")
    return tuple(shape), bool(fortran), np.dtype(dtype), stream.tell()
