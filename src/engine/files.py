"""Reading a file the engine is given (a deck, a weights file): a regular
file only, of bounded size, or one clear error.

The file is opened with O_NONBLOCK and checked with fstat before anything is
read, so that a FIFO cannot block the reader and a device (/dev/zero) or a
huge file cannot fill memory."""

from __future__ import annotations

import os
import stat

from crossridor.engine.errors import CrossridorError

MAX_FILE_BYTES = 64 * 2 ** 20      # far above any deck or weights file


def _open_regular(path: str, what: str, max_bytes: int, error: type[Exception]) -> tuple[int, int]:
    """(fd, size) of the regular file `path`, opened without blocking; `error`
    if it cannot be opened, is not a regular file or exceeds `max_bytes`."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError, TypeError) as exc:
        raise error(f"cannot read {what} {path!r}: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{what} {path!r} is not a regular file")
        if info.st_size > max_bytes:
            raise error(f"{what} {path!r} is too large ({info.st_size} bytes, at most {max_bytes})")
    except BaseException:
        os.close(fd)
        raise
    return fd, info.st_size


def check_regular_file(path: str, what: str, max_bytes: int,
                       error: type[Exception] = CrossridorError) -> int:
    """The size of the regular file `path`, for a reader that streams it
    itself (numpy's npz reader); `error` as `read_regular_file` gives it."""
    fd, size = _open_regular(path, what, max_bytes, error)
    os.close(fd)
    return size


def read_regular_file(path: str, what: str, max_bytes: int = MAX_FILE_BYTES,
                      error: type[Exception] = CrossridorError) -> bytes:
    """The bytes of the regular file `path`; `error` (naming `what` and the
    path) if it cannot be read, is not a regular file or exceeds `max_bytes`."""
    fd, _ = _open_regular(path, what, max_bytes, error)
    try:
        chunks, size = [], 0
        while True:                    # the file may grow while it is read
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
