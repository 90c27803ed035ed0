"""The weights file of Quoridor's learned evaluation (option eval=learned).

Layout (little-endian), checked field by field on load:

    offset  size  field
         0     8  magic b"CRQEVAL\\0"
         8     4  uint32 format version (1)
        12     4  uint32 number of features (Q_NUM_FEATURES, 14)
        16     4  uint32 hidden units (0: a linear model, the only kind so far)
        20     4  uint32 board size the weights were trained on (information)
        24  4 F   float32 weights, one per feature (quoridor_features.pxi)
    24+4 F     4  uint32 CRC-32 of every byte before it

The model is the logit of the side to move winning, w . features; the
searches evaluate it in C (src/engine/quoridor_features.pxi).
"""

from __future__ import annotations

import functools
import struct
import zlib
from importlib import resources

from crossridor.engine._core import Q_NUM_FEATURES, QuoridorWeights
from crossridor.engine.errors import CrossridorError

MAGIC = b"CRQEVAL\0"
VERSION = 1
_HEADER = struct.Struct("<8sIIII")
# The weights shipped in the package (see README, "Learned evaluation").
SHIPPED = "quoridor_eval.bin"


class WeightsError(CrossridorError):
    """A weights file that cannot be used: missing, corrupt, or of another shape."""


def dumps(weights, size: int) -> bytes:
    """The file's bytes for a sequence of Q_NUM_FEATURES weights."""
    values = [float(w) for w in weights]
    if len(values) != Q_NUM_FEATURES:
        raise WeightsError(f"the learned evaluation has {Q_NUM_FEATURES} weights, got {len(values)}")
    body = _HEADER.pack(MAGIC, VERSION, Q_NUM_FEATURES, 0, size) + struct.pack(f"<{len(values)}f", *values)
    return body + struct.pack("<I", zlib.crc32(body))


def save(path: str, weights, size: int) -> None:
    data = dumps(weights, size)
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise WeightsError(f"cannot write weights file {path!r}: {exc.strerror or exc}") from None


def loads(data: bytes, source: str = "weights") -> tuple[list, int]:
    """(weights, trained board size) from a file's bytes; WeightsError says what is wrong."""
    if len(data) < _HEADER.size or data[:len(MAGIC)] != MAGIC:
        raise WeightsError(f"{source}: not a crossridor evaluation weights file (no {MAGIC[:7].decode()} header)")
    magic, version, features, hidden, size = _HEADER.unpack_from(data)
    if version != VERSION:
        raise WeightsError(f"{source}: weights format version {version}; this crossridor reads version {VERSION}")
    if features != Q_NUM_FEATURES or hidden != 0:
        raise WeightsError(f"{source}: weights of shape {features} features x {hidden} hidden units; this "
                           f"engine's evaluation takes {Q_NUM_FEATURES} features x 0 hidden units")
    expected = _HEADER.size + 4 * features + 4
    if len(data) != expected:
        raise WeightsError(f"{source}: {len(data)} bytes, expected {expected} for {features} weights "
                           f"(truncated or padded)")
    (crc,) = struct.unpack_from("<I", data, expected - 4)
    if crc != zlib.crc32(data[:expected - 4]):
        raise WeightsError(f"{source}: corrupt (checksum mismatch)")
    weights = list(struct.unpack_from(f"<{features}f", data, _HEADER.size))
    if any(w != w or abs(w) == float("inf") for w in weights):
        raise WeightsError(f"{source}: holds a weight that is not a finite number")
    return weights, size


def load(path: str) -> tuple[list, int]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise WeightsError(f"cannot read weights file {path!r}: {exc.strerror or exc}") from None
    return loads(data, f"weights file {path!r}")


@functools.lru_cache(maxsize=16)
def weights_for_search(path: str | None) -> QuoridorWeights:
    """The C-side weights of a file, or of the shipped file (path None);
    cached, so that a search per move reads the file once."""
    if path is None:
        ref = resources.files("crossridor.games").joinpath("data", SHIPPED)
        if not ref.is_file():
            raise WeightsError("no learned weights are shipped with this build: give eval_file=PATH "
                               "(make one with crossridor selfplay + crossridor train)")
        weights, _ = loads(ref.read_bytes(), f"shipped weights {SHIPPED}")
    else:
        weights, _ = load(path)
    return QuoridorWeights(weights)
