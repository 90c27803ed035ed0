"""The weights file of Quoridor's learned evaluation (option eval=learned).

Layout (little-endian), checked field by field on load:

    offset  size  field
         0     8  magic b"CRQEVAL\\0"
         8     4  uint32 format version (2; version 1 files, linear only, still load)
        12     4  uint32 number of features F (Q_NUM_FEATURES, 21; files of 14
                          or 19, the first features of the table, also load)
        16     4  uint32 hidden units H (0: a linear model; at most Q_MAX_HIDDEN_UNITS)
        20     4  uint32 the board the weights were trained on (information):
                          N for N x N, W * 256 + H for W x H, 0 unknown
        24  4 F   float32 linear weights w, one per feature (quoridor/features.pxi)
          4 H F   float32 hidden weights W, unit by unit, F each (version 2)
          4 H     float32 output weights v, one per unit (version 2)
      end-4    4  uint32 CRC-32 of every byte before it

The model is the logit of the side to move winning,
z = w . f + sum_j v_j max(0, W_j . f); the searches evaluate it in C
(src/games/quoridor/features.pxi).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import struct
import tempfile
import zlib
from importlib import resources

from crossridor.engine._core import Q_MAX_HIDDEN_UNITS, Q_NUM_FEATURES, QuoridorWeights
from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import read_regular_file
from crossridor.engine.options import board_shape

MAGIC = b"CRQEVAL\0"
VERSION = 2
READS = (1, 2)
_HEADER = struct.Struct("<8sIIII")
# The weights shipped in the package, per board size (docs/learning.md):
# each trained on self-play of its board with 10 walls each (5x5's results
# are the positions' perfect values, from its solved table).
SHIPPED = "quoridor_eval.bin"
SHIPPED_BY_SIZE: dict[int | str, str] = {9: SHIPPED, 7: "quoridor_eval_7x7.bin", 5: "quoridor_eval_5x5.bin"}
# Every weight is within +-MAX_WEIGHT, so that no evaluation reaches the win
# band. A feature of quoridor/features.pxi is at most 20000 in size (the
# largest, f13 = (d_op - d_me)(w_me + w_op) / 10, with a distance at the
# no-path value 1000 and 2 x 100 walls: 20000; the others 1000 or less), so a
# hidden unit is at most 21 * 1e3 * 2e4 = 4.2e8 and the logit at most
# 4.2e8 + 64 * 1e3 * 4.2e8 < 3e13: finite in float32 (no inf, no NaN), so the
# C clamp of the score (Q_LEARNED_CLAMP, 90000) keeps it below the win band
# (S_WIN_BOUND, 99000). Trained weights are near 1 (the shipped ones < 1).
MAX_WEIGHT = 1000.0
# A file of 14 or 19 features (the 7x7 weights have 14) holds the first ones
# of quoridor/features.pxi: it loads with weight 0 on the others, so it
# evaluates with its own features alone.
OLD_FEATURES = (14, 19)
# the largest file a valid header can describe (any larger one is refused unread)
MAX_WEIGHTS_BYTES = _HEADER.size + 4 * (Q_NUM_FEATURES + Q_MAX_HIDDEN_UNITS * (Q_NUM_FEATURES + 1)) + 4


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


def check_values(values, source: str) -> None:
    """WeightsError unless every weight is a number within +-MAX_WEIGHT."""
    for i, w in enumerate(values):
        if w != w or abs(w) == float("inf"):
            raise WeightsError(f"{source}: weight {i} is not a finite number")
        if abs(w) > MAX_WEIGHT:
            raise WeightsError(f"{source}: weight {i} is {w:g}, outside -{MAX_WEIGHT:g}..{MAX_WEIGHT:g} "
                               f"(larger weights could reach the win band)")


def board_field(size: int | str | None) -> int:
    """The header's board field of a board as the size option spells it
    (9, '4x7'; None: unknown)."""
    if size is None or size == 0:
        return 0
    w, h = board_shape(size)
    return w if w == h else w * 256 + h


def board_of_field(value: int) -> int | str:
    """The board of a header's board field, as the size option spells it
    (9, '4x7'; 0: unknown)."""
    if value < 256:
        return value
    w, h = value >> 8, value & 255
    return w if w == h else f"{w}x{h}"


def dumps(model: Model, size: int | str | None) -> bytes:
    """The file's bytes for a model of Q_NUM_FEATURES inputs trained on the
    board `size` (9, '4x7'; None or 0: unknown)."""
    h = model.hidden_units
    if len(model.linear) != Q_NUM_FEATURES or any(len(row) != Q_NUM_FEATURES for row in model.hidden) \
            or len(model.output) != h:
        raise WeightsError(f"the learned evaluation takes {Q_NUM_FEATURES} features: got {len(model.linear)} "
                           f"linear weights, {h} hidden units and {len(model.output)} output weights")
    if h > Q_MAX_HIDDEN_UNITS:
        raise WeightsError(f"at most {Q_MAX_HIDDEN_UNITS} hidden units, got {h}")
    values = model.values()
    check_values(values, "the weights")
    body = _HEADER.pack(MAGIC, VERSION, Q_NUM_FEATURES, h, board_field(size)) + struct.pack(f"<{len(values)}f", *values)
    return body + struct.pack("<I", zlib.crc32(body))


def save(path: str, model: Model, size: int | str | None) -> None:
    """Write the weights file: into a temporary file in the same folder,
    renamed over `path` only once it is whole (a failure leaves `path` as it was)."""
    data = dumps(model, size)
    folder = os.path.dirname(os.path.abspath(path))
    temp = None
    try:
        with tempfile.NamedTemporaryFile("wb", dir=folder, prefix=".weights-", delete=False) as f:
            temp = f.name
            os.chmod(temp, 0o666 & ~_umask())     # as open() would make it, not the temp file's 0600
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except OSError as exc:
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
        raise WeightsError(f"cannot write weights file {path!r}: {exc.strerror or exc}") from None


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def loads(data: bytes, source: str = "weights") -> tuple[Model, int | str]:
    """(model, the board it was trained on: 9, '4x7', 0 unknown) from a
    file's bytes; WeightsError says what is wrong."""
    if len(data) < _HEADER.size or data[:len(MAGIC)] != MAGIC:
        raise WeightsError(f"{source}: not a crossridor evaluation weights file (no {MAGIC[:7].decode()} header)")
    magic, version, features, hidden, size = _HEADER.unpack_from(data)
    if version not in READS:
        raise WeightsError(f"{source}: weights format version {version}; this crossridor reads versions "
                           f"{', '.join(map(str, READS))}")
    max_hidden = Q_MAX_HIDDEN_UNITS if version >= 2 else 0
    if features not in (*OLD_FEATURES, Q_NUM_FEATURES) or hidden > max_hidden:
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
    check_values(values, source)
    f, h = features, hidden
    rows = [values[f + j * f: f + (j + 1) * f] for j in range(h)]
    pad = (0.0,) * (Q_NUM_FEATURES - f)      # an older file: the later features weigh 0
    return Model.of(values[:f] + pad, [r + pad for r in rows], values[f + h * f:]), board_of_field(size)


def load(path: str) -> tuple[Model, int | str]:
    data = read_regular_file(path, "weights file", MAX_WEIGHTS_BYTES, WeightsError)
    return loads(data, f"weights file {path!r}")


@functools.lru_cache(maxsize=16)
def weights_for_search(path: str | None, size: int | str = 9) -> QuoridorWeights:
    """The C-side weights of a file, or (path None) the shipped ones of the
    board (9, '4x7'), the 9x9 ones where none were made for it; cached, so that a
    search per move reads the file once."""
    if path is None:
        name = SHIPPED_BY_SIZE.get(size, SHIPPED)
        ref = resources.files("crossridor.games.quoridor").joinpath("data", name)
        if not ref.is_file():
            raise WeightsError("no learned weights are shipped with this build: give eval_file=PATH "
                               "(make one with crossridor selfplay + crossridor train)")
        model, _ = loads(ref.read_bytes(), f"shipped weights {name}")
    else:
        model, _ = load(path)
    return QuoridorWeights(model.linear, model.hidden, model.output)
