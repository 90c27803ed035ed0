"""The weights file of Quoridor's learned evaluation (option eval=learned).

Layout (little-endian), checked field by field on load:

    offset  size  field
         0     8  magic b"CRQEVAL\\0"
         8     4  uint32 format version (2; version 1 files, linear only, still load)
        12     4  uint32 number of features F (Q_NUM_FEATURES, 14)
        16     4  uint32 hidden units H (0: a linear model; at most Q_MAX_HIDDEN_UNITS)
        20     4  uint32 board size the weights were trained on (information)
        24  4 F   float32 linear weights w, one per feature (quoridor_features.pxi)
          4 H F   float32 hidden weights W, unit by unit, F each (version 2)
          4 H     float32 output weights v, one per unit (version 2)
      end-4    4  uint32 CRC-32 of every byte before it

The model is the logit of the side to move winning,
z = w . f + sum_j v_j max(0, W_j . f); the searches evaluate it in C
(src/engine/quoridor_features.pxi).
"""

from __future__ import annotations

import dataclasses
import functools
import struct
import zlib
from importlib import resources

from crossridor.engine._core import Q_MAX_HIDDEN_UNITS, Q_NUM_FEATURES, QuoridorWeights
from crossridor.engine.errors import CrossridorError

MAGIC = b"CRQEVAL\0"
VERSION = 2
READS = (1, 2)
_HEADER = struct.Struct("<8sIIII")
# The weights shipped in the package (see README, "Learned evaluation").
SHIPPED = "quoridor_eval.bin"


class WeightsError(CrossridorError):
    """A weights file that cannot be used: missing, corrupt, or of another shape."""


@dataclasses.dataclass(frozen=True)
class Model:
    """The weights of one learned evaluation (see the module docstring)."""
    linear: tuple                 # F floats
    hidden: tuple = ()            # H tuples of F floats
    output: tuple = ()            # H floats

    @classmethod
    def of(cls, linear, hidden=(), output=()) -> "Model":
        return cls(tuple(float(x) for x in linear), tuple(tuple(float(x) for x in row) for row in hidden),
                   tuple(float(x) for x in output))

    @property
    def hidden_units(self) -> int:
        return len(self.hidden)

    def values(self) -> list:
        return [*self.linear, *(x for row in self.hidden for x in row), *self.output]


def dumps(model: Model, size: int) -> bytes:
    """The file's bytes for a model of Q_NUM_FEATURES inputs."""
    h = model.hidden_units
    if len(model.linear) != Q_NUM_FEATURES or any(len(row) != Q_NUM_FEATURES for row in model.hidden) \
            or len(model.output) != h:
        raise WeightsError(f"the learned evaluation takes {Q_NUM_FEATURES} features: got {len(model.linear)} "
                           f"linear weights, {h} hidden units and {len(model.output)} output weights")
    if h > Q_MAX_HIDDEN_UNITS:
        raise WeightsError(f"at most {Q_MAX_HIDDEN_UNITS} hidden units, got {h}")
    values = model.values()
    body = _HEADER.pack(MAGIC, VERSION, Q_NUM_FEATURES, h, size) + struct.pack(f"<{len(values)}f", *values)
    return body + struct.pack("<I", zlib.crc32(body))


def save(path: str, model: Model, size: int) -> None:
    data = dumps(model, size)
    try:
        with open(path, "wb") as f:
            f.write(data)
    except OSError as exc:
        raise WeightsError(f"cannot write weights file {path!r}: {exc.strerror or exc}") from None


def loads(data: bytes, source: str = "weights") -> tuple[Model, int]:
    """(model, trained board size) from a file's bytes; WeightsError says what is wrong."""
    if len(data) < _HEADER.size or data[:len(MAGIC)] != MAGIC:
        raise WeightsError(f"{source}: not a crossridor evaluation weights file (no {MAGIC[:7].decode()} header)")
    magic, version, features, hidden, size = _HEADER.unpack_from(data)
    if version not in READS:
        raise WeightsError(f"{source}: weights format version {version}; this crossridor reads versions "
                           f"{', '.join(map(str, READS))}")
    max_hidden = Q_MAX_HIDDEN_UNITS if version >= 2 else 0
    if features != Q_NUM_FEATURES or hidden > max_hidden:
        raise WeightsError(f"{source}: weights of shape {features} features x {hidden} hidden units; this "
                           f"engine's evaluation takes {Q_NUM_FEATURES} features x 0 to {max_hidden} hidden units")
    count = features + hidden * features + hidden
    expected = _HEADER.size + 4 * count + 4
    if len(data) != expected:
        raise WeightsError(f"{source}: {len(data)} bytes, expected {expected} for {features} features x "
                           f"{hidden} hidden units (truncated or padded)")
    (crc,) = struct.unpack_from("<I", data, expected - 4)
    if crc != zlib.crc32(data[:expected - 4]):
        raise WeightsError(f"{source}: corrupt (checksum mismatch)")
    values = struct.unpack_from(f"<{count}f", data, _HEADER.size)
    if any(w != w or abs(w) == float("inf") for w in values):
        raise WeightsError(f"{source}: holds a weight that is not a finite number")
    f, h = features, hidden
    rows = [values[f + j * f: f + (j + 1) * f] for j in range(h)]
    return Model.of(values[:f], rows, values[f + h * f:]), size


def load(path: str) -> tuple[Model, int]:
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
        ref = resources.files("crossridor.games.quoridor").joinpath("data", SHIPPED)
        if not ref.is_file():
            raise WeightsError("no learned weights are shipped with this build: give eval_file=PATH "
                               "(make one with crossridor selfplay + crossridor train)")
        model, _ = loads(ref.read_bytes(), f"shipped weights {SHIPPED}")
    else:
        model, _ = load(path)
    return QuoridorWeights(model.linear, model.hidden, model.output)
