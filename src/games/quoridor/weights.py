"""The weights file of Quoridor's learned evaluation (option eval=learned).

Layout (little-endian), checked field by field on load:

    offset  size  field
         0     8  magic b"CRQEVAL\\0"
         8     4  uint32 format version (3 with a network, else 2; 1, linear only, still loads)
        12     4  uint32 number of features F (Q_NUM_FEATURES, 14)
        16     4  uint32 hidden units H (0: a linear model; at most Q_MAX_HIDDEN_UNITS)
        20     4  uint32 board size the weights were trained on (information)
        24  4 F   float32 linear weights w, one per feature (quoridor_features.pxi)
          4 H F   float32 hidden weights W, unit by unit, F each (version 2)
          4 H     float32 output weights v, one per unit (version 2)
             4    uint32 network units U (version 3; 0: no network)
             4    uint32 the network's board size n (U > 0)
          4 U     int32 first-layer biases b1
        2 S U     int16 input weights, input by input (S = qn_sparse_inputs(n), 461 on 9x9)
          2 U     int16 output weights
      end-4    4  uint32 CRC-32 of every byte before it

The model is the logit of the side to move winning,
z = w . f + sum_j v_j max(0, W_j . f) (+ the network's share, version 3:
eval=net); the searches evaluate it in C (src/engine/quoridor_features.pxi,
src/engine/quoridor_net.pxi for the integer network and its scales).
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

import numpy as np

from crossridor.engine._core import QN_NET_SCALES, Q_MAX_HIDDEN_UNITS, Q_NUM_FEATURES, QuoridorWeights, \
    qn_sparse_inputs
from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import read_regular_file

MAGIC = b"CRQEVAL\0"
VERSION = 3
READS = (1, 2, 3)
_HEADER = struct.Struct("<8sIIII")
# The weights shipped in the package (docs/learning.md): eval=learned, eval=net
SHIPPED = "quoridor_eval.bin"
SHIPPED_NET = "quoridor_net.bin"
NET_UNITS = QN_NET_SCALES["max_units"]
NET_SIZES = (3, 5, 7, 9)
# Every weight is within +-MAX_WEIGHT, so that no evaluation reaches the win
# band. A feature of quoridor_features.pxi is at most 20000 in size (the
# largest, f13 = (d_op - d_me)(w_me + w_op) / 10, with a distance at the
# no-path value 1000 and 2 x 100 walls: 20000; the others 1000 or less), so a
# hidden unit is at most 14 * 1e3 * 2e4 = 2.8e8 and the logit at most
# 2.8e8 + 64 * 1e3 * 2.8e8 < 2e13: finite in float32 (no inf, no NaN), so the
# C clamp of the score (Q_LEARNED_CLAMP, 90000) keeps it below the win band
# (S_WIN_BOUND, 99000). Trained weights are near 1 (the shipped ones < 1).
MAX_WEIGHT = 1000.0
# the largest file a valid header can describe (any larger one is refused unread)
MAX_WEIGHTS_BYTES = _HEADER.size + 4 * (Q_NUM_FEATURES + Q_MAX_HIDDEN_UNITS * (Q_NUM_FEATURES + 1)) + 4 \
    + 8 + NET_UNITS * (4 + 2 * (qn_sparse_inputs(9) + 1))


class WeightsError(CrossridorError):
    """A weights file that cannot be used: missing, corrupt, or of another shape."""


@dataclasses.dataclass(frozen=True, eq=False)
class Net:
    """The integer network of eval=net (src/engine/quoridor_net.pxi): U units
    over S one-hot inputs, as int arrays."""
    size: int                     # the board it reads
    b1: np.ndarray                # int32 (U,)
    ws: np.ndarray                # int16 (S, U)
    w2: np.ndarray                # int16 (U,)

    @property
    def units(self) -> int:
        return len(self.b1)

    def __eq__(self, other) -> bool:
        return isinstance(other, Net) and self.size == other.size and all(
            np.array_equal(getattr(self, k), getattr(other, k)) for k in ("b1", "ws", "w2"))


def check_net(net: Net, source: str) -> None:
    """WeightsError unless the network's shapes and integer ranges are the C struct's."""
    u = net.units
    if net.size not in NET_SIZES:
        raise WeightsError(f"{source}: a network for a {net.size}x{net.size} board (sizes {NET_SIZES})")
    if not 1 <= u <= NET_UNITS:
        raise WeightsError(f"{source}: a network of {u} units; this engine's takes 1 to {NET_UNITS}")
    s = qn_sparse_inputs(net.size)
    if net.ws.shape != (s, u) or net.w2.shape != (u,):
        raise WeightsError(f"{source}: network arrays of shapes {net.ws.shape}, {net.w2.shape}; "
                           f"expected ({s}, {u}), ({u},)")
    bias = QN_NET_SCALES["max_bias"]
    if np.abs(net.b1.astype(np.int64)).max() > bias:
        raise WeightsError(f"{source}: a network bias outside -{bias}..{bias}")


@dataclasses.dataclass(frozen=True)
class Model:
    """The weights of one learned evaluation (see the module docstring)."""
    linear: tuple                 # F floats
    hidden: tuple = ()            # H tuples of F floats
    output: tuple = ()            # H floats
    net: Net | None = None        # eval=net's integer network

    @classmethod
    def of(cls, linear, hidden=(), output=(), net=None) -> "Model":
        return cls(tuple(float(x) for x in linear), tuple(tuple(float(x) for x in row) for row in hidden),
                   tuple(float(x) for x in output), net)

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
    check_values(values, "the weights")
    net = model.net
    # without a network, version 2: the builds before eval=net read it too
    body = _HEADER.pack(MAGIC, VERSION if net is not None else 2, Q_NUM_FEATURES, h, size) \
        + struct.pack(f"<{len(values)}f", *values)
    if net is not None:
        check_net(net, "the network")
        body += struct.pack("<II", net.units, net.size) + net.b1.astype("<i4").tobytes() \
            + net.ws.astype("<i2").tobytes() + net.w2.astype("<i2").tobytes()
    return body + struct.pack("<I", zlib.crc32(body))


def save(path: str, model: Model, size: int) -> None:
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
    at = _HEADER.size + 4 * count
    units = net_size = 0
    if version >= 3:
        if len(data) >= at + 8:
            units, net_size = struct.unpack_from("<II", data, at)
        if units and (units > NET_UNITS or net_size not in NET_SIZES):
            raise WeightsError(f"{source}: a network of {units} units for a {net_size}x{net_size} board; this "
                               f"engine's takes 1 to {NET_UNITS} units on sizes {NET_SIZES}")
        net_at = at + 8
        at += 8 + units * (4 + 2 * (qn_sparse_inputs(net_size) + 1)) if units else 4
    expected = at + 4
    if len(data) != expected:
        raise WeightsError(f"{source}: {len(data)} bytes, expected {expected} for {features} features x "
                           f"{hidden} hidden units" + (f" and a network of {units} units" if units else "")
                           + " (truncated or padded)")
    (crc,) = struct.unpack_from("<I", data, expected - 4)
    if crc != zlib.crc32(data[:expected - 4]):
        raise WeightsError(f"{source}: corrupt (checksum mismatch)")
    values = struct.unpack_from(f"<{count}f", data, _HEADER.size)
    check_values(values, source)
    f, h = features, hidden
    rows = [values[f + j * f: f + (j + 1) * f] for j in range(h)]
    net = None
    if units:
        s = qn_sparse_inputs(net_size)
        b1 = np.frombuffer(data, "<i4", units, net_at).astype(np.int32)
        ws_at = net_at + 4 * units
        ws = np.frombuffer(data, "<i2", s * units, ws_at).astype(np.int16).reshape(s, units)
        w2 = np.frombuffer(data, "<i2", units, ws_at + 2 * s * units).astype(np.int16)
        net = Net(net_size, b1, ws, w2)
        check_net(net, source)
    return Model.of(values[:f], rows, values[f + h * f:], net), size


def load(path: str) -> tuple[Model, int]:
    data = read_regular_file(path, "weights file", MAX_WEIGHTS_BYTES, WeightsError)
    return loads(data, f"weights file {path!r}")


def c_weights(model: Model) -> QuoridorWeights:
    """The C struct of a model."""
    net = model.net
    return QuoridorWeights(model.linear, model.hidden, model.output,
                           None if net is None else (net.size, net.b1.tolist(), net.ws.tolist(), net.w2.tolist()))


@functools.lru_cache(maxsize=16)
def weights_for_search(path: str | None, shipped: str = SHIPPED) -> QuoridorWeights:
    """The C-side weights of a file, or of the shipped file `shipped` (path
    None); cached, so that a search per move reads the file once."""
    if path is None:
        ref = resources.files("crossridor.games.quoridor").joinpath("data", shipped)
        if not ref.is_file():
            raise WeightsError(f"no {shipped} weights are shipped with this build: give eval_file=PATH "
                               "(make one with crossridor selfplay + crossridor train)")
        model, _ = loads(ref.read_bytes(), f"shipped weights {shipped}")
    else:
        model, _ = load(path)
    return c_weights(model)
