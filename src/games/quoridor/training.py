"""Self-play data and training for Quoridor's learned evaluation (numpy).

`crossridor selfplay` plays an engine against itself on the match runner
(crossridor.engine.match.selfplay), each game from its own seeded random
opening; `selfplay_arrays` turns every searched position of its records into
one row:

    features  float32 (N, 21)  quoridor/features.pxi's vector, side to move's view
                               (older files, of 14 or 19 columns, are refused:
                               their records give the new columns, see load_data)
    score     float32 (N,)     the search's score for the side to move, in
                               centi-steps (an MCTS value v becomes 400 atanh v,
                               the same scale: tanh(x / 400) = v)
    result    float32 (N,)     the game's result for the side to move: 1 win,
                               0 loss, 0.5 a draw by the ply cap; with a solved
                               table (selfplay --perfect-table), the position's
                               value with perfect play instead (0.5 a draw)
    game      int32 (N,)       the game's index in the run
    ply       int32 (N,)       the position's ply from the start
    feature_names  str (21,)
    width, height  int         the board (columns, rows; files from before
                               rectangular boards hold `size`, N for N x N)
    walls          int         walls per player
    engine         str         the engine spec that played
    results        str         "games" or "perfect play" (where `result` came from)

`train` fits the logit of the side to move winning, z = w . features, by
plain gradient descent (Adam) on the cross-entropy against the target
lam * result + (1 - lam) * sigmoid(score / 200) (Texel-style), with a
validation split by whole games. It starts from the classic evaluation's
weights and its L2 penalty pulls towards them. With hidden units H > 0 it
then adds a hidden layer, z = w . f + sum_j v_j relu(W_j . f), and fits all
of it by minibatch Adam, starting from the linear fit.
"""

from __future__ import annotations

import dataclasses
import math
import os
import zipfile
import zlib

import numpy as np

from crossridor.engine._core import Q_MAX_HIDDEN_UNITS, Q_NUM_FEATURES, q_fill_features
from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import open_regular_file, read_npy_header
from crossridor.games.quoridor.entry import BOARD
from crossridor.games.quoridor.weights import OLD_FEATURES, Model

FEATURE_NAMES = ("bias", "d_me", "d_op", "walls_me", "walls_op", "lone_me", "lone_op", "race",
                 "squares_me", "squares_op", "neck_me", "neck_op", "adjacent", "lead_x_walls",
                 "lead_share", "near_me", "near_op", "few_walls_me", "few_walls_op",
                 "threat_op", "threat_near_op")
assert len(FEATURE_NAMES) == Q_NUM_FEATURES
SCORE_SCALE = 200.0        # centi-steps per unit of logit (quoridor/features.pxi)
# The classic evaluation (quoridor/eval.pxi) written over the same features,
# in logit units: 100 per step and per wall, 100 per lone wall, 2500 for a
# won race, 40 for the tempo, all / 200. A baseline for the validation loss.
CLASSIC_WEIGHTS = np.array([40, -100, 100, 100, -100, 100, -100, 2500] + [0] * (Q_NUM_FEATURES - 8),
                           np.float64) / SCORE_SCALE
DATA_ARRAYS = ("features", "score", "result", "game", "ply")


def score_in_centi_steps(algorithm: str, score) -> float:
    if algorithm == "mcts":
        v = max(-0.999, min(0.999, float(score)))
        return 400.0 * math.atanh(v)
    return float(score)


def perfect_result(solver, core) -> float:
    """A position's result for its side to move with perfect play (1 win,
    0 loss, 0.5 draw), from a solved table (solve.Solver.read)."""
    value = solver.held_value(core)
    if value is None:
        raise CrossridorError("a position is not in the solved table (a table of fewer walls than the game's?)")
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


def positions(game, record, perfect=None) -> dict:
    """The rows of one finished self-play game (see the module docstring):
    the arrays of DATA_ARRAYS but `game`; `perfect`, a solved table whose
    values replace the game's result."""
    algorithm = record.engines[0].partition(":")[0]
    searched = [k for k, score in enumerate(record.scores) if score is not None]
    n = len(searched)
    features = np.zeros((n, Q_NUM_FEATURES), np.float32)
    result = np.full(n, 0.5, np.float32)
    ply = np.array(searched, np.int32) + record.opening_plies
    score = np.array([score_in_centi_steps(algorithm, record.scores[k]) for k in searched], np.float32)
    state = game.new_state()
    row = 0
    for i, move in enumerate(record.moves):
        if row < n and i == ply[row]:
            q_fill_features(state.core, features[row])
            if perfect is not None:
                result[row] = perfect_result(perfect, state.core)
            elif record.reason != "max_plies":
                result[row] = (record.returns[state.current_player] + 1.0) / 2.0
            row += 1
        state.play(move)
    return {"features": features, "score": score, "result": result, "ply": ply}


def selfplay_arrays(game, engine: str, records: list, perfect=None) -> dict:
    """The .npz arrays of a finished self-play run of `engine` (its spec) on
    `game` (its records, in index order); `perfect`, a solved table whose
    values are the results."""
    rows = [positions(game, record, perfect) for record in records]
    out = {name: np.concatenate([r[name] for r in rows]) if rows else np.zeros(0, np.float32)
           for name in ("features", "score", "result", "ply")}
    return {
        "features": out["features"].astype(np.float32).reshape(-1, Q_NUM_FEATURES),
        "score": out["score"].astype(np.float32),
        "result": out["result"].astype(np.float32),
        "game": np.concatenate([np.full(len(r["ply"]), record.index, np.int32)
                                for r, record in zip(rows, records)]) if rows else np.zeros(0, np.int32),
        "ply": out["ply"].astype(np.int32),
        "feature_names": np.array(FEATURE_NAMES),
        "width": np.int32(game.width), "height": np.int32(game.height), "walls": np.int32(game.walls),
        "engine": np.array(engine),
        "results": np.array("games" if perfect is None else "perfect play"),
    }


# --- training ----------------------------------------------------------------------

RESULTS = (0.0, 0.5, 1.0)     # loss, draw by the ply cap, win


def _check_arrays(path, arrays: dict) -> None:
    """CrossridorError unless the arrays have the shapes and values selfplay
    writes: numbers, finite features and scores, results in RESULTS."""
    f = arrays["features"]
    for name in DATA_ARRAYS:
        if arrays[name].ndim != (2 if name == "features" else 1) \
                or not np.issubdtype(arrays[name].dtype, np.number):
            raise CrossridorError(f"{path}: {name} is not a numeric array of the selfplay layout")
    n = len(arrays["result"])
    if f.shape[1] in OLD_FEATURES:
        # features 19-20 need the positions, which only the records hold
        raise CrossridorError(f"{path}: {f.shape[1]} features per row, written before this evaluation's "
                              f"{Q_NUM_FEATURES}; rebuild it from the run's records: crossridor selfplay "
                              f"(same arguments) --records FILE --resume --out NEW.npz")
    if f.shape[1] != Q_NUM_FEATURES:
        raise CrossridorError(f"{path}: features of shape {f.shape}, expected (N, {Q_NUM_FEATURES})")
    if any(len(arrays[name]) != n for name in DATA_ARRAYS):
        raise CrossridorError(f"{path}: arrays of different lengths")
    for name in ("features", "score", "result"):
        bad = ~np.isfinite(arrays[name])
        if bad.any():
            row = int(np.argwhere(bad)[0][0])
            raise CrossridorError(f"{path}: {name} of row {row} is not a finite number")
    outside = ~np.isin(arrays["result"], RESULTS)
    if outside.any():
        row = int(np.argmax(outside))
        raise CrossridorError(f"{path}: result of row {row} is {arrays['result'][row]:g}, not one of "
                              f"{', '.join(f'{r:g}' for r in RESULTS)}")


# A data file, and the arrays read from it, at most (about 20 million
# positions of about 100 bytes): checked from the zip's directory and each
# array's header before anything is decompressed or allocated.
MAX_DATA_BYTES = 2 ** 31
MAX_DATA_MEMBERS = 64        # selfplay writes 10 arrays
MAX_ZIP_DIRECTORY = 2 ** 16  # bytes of the zip's directory (selfplay's: about 1 kB)
_NDIM = {"features": 2, "score": 1, "result": 1, "game": 1, "ply": 1, "size": 0, "width": 0, "height": 0}
BOARD_ARRAYS = ("size", "width", "height")
_END_OF_ZIP = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"


def _check_zip_directory(f, path) -> None:
    """Refuse a zip whose directory is far larger than a selfplay file's
    before zipfile reads it (each member it lists costs memory)."""
    size = os.fstat(f.fileno()).st_size
    f.seek(size - min(size, 22 + 0xFFFF))      # the end record, after a comment of up to 64 kB
    tail = f.read()
    end = len(tail) - 22 if tail[-22:-18] == _END_OF_ZIP else tail.rfind(_END_OF_ZIP)
    if end < 0:
        raise CrossridorError(f"cannot read selfplay data {path!r}: not a zip file (.npz)")
    members = int.from_bytes(tail[end + 10:end + 12], "little")
    directory = int.from_bytes(tail[end + 12:end + 16], "little")
    if members > MAX_DATA_MEMBERS or directory > MAX_ZIP_DIRECTORY \
            or tail[max(end - 20, 0):end - 16] == _ZIP64_LOCATOR:
        raise CrossridorError(f"{path}: not a selfplay data file (a zip of more than {MAX_DATA_MEMBERS} "
                              f"members or {MAX_ZIP_DIRECTORY} bytes of directory)")
    f.seek(0)


def _read_member(z, info, path, name: str, budget: int) -> np.ndarray:
    """One array of the file, its header checked against the layout and
    its zip entry's size before its data is decompressed or allocated."""
    what = f"{path}: {name}"
    if info.flag_bits & 1 or info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise CrossridorError(f"{what} is encrypted or compressed otherwise than numpy writes")
    with z.open(info) as member:
        shape, _, dtype, offset = read_npy_header(member, what)
    if len(shape) != _NDIM[name]:
        raise CrossridorError(f"{what} has shape {shape}: selfplay writes "
                              f"{('a number', 'a vector', 'a matrix')[_NDIM[name]]}")
    nbytes = math.prod(shape) * dtype.itemsize
    if offset + nbytes != info.file_size:
        raise CrossridorError(f"{what}: its header says {dtype} {shape}, its zip entry holds "
                              f"{info.file_size - offset} bytes of data")
    if nbytes > budget:
        raise CrossridorError(f"{path}: its arrays take more than {MAX_DATA_BYTES} bytes")
    with z.open(info) as member:
        return np.lib.format.read_array(member, allow_pickle=False)


def read_data_file(path) -> tuple[dict, int | str | None]:
    """The arrays of DATA_ARRAYS of one selfplay file and its board, as the
    size option spells it (9, '4x7'; None when the file does not say): a
    regular file of at most MAX_DATA_BYTES, arrays of real numbers of the
    selfplay layout taking at most MAX_DATA_BYTES, or CrossridorError naming
    what is wrong."""
    try:
        with open_regular_file(path, "selfplay data", MAX_DATA_BYTES) as f:
            _check_zip_directory(f, path)
            with zipfile.ZipFile(f) as z:
                members = {info.filename: info for info in z.infolist()}
                missing = [name for name in DATA_ARRAYS if name + ".npy" not in members]
                if missing:
                    raise CrossridorError(f"{path}: not a selfplay data file (lacks {', '.join(missing)})")
                arrays, budget = {}, MAX_DATA_BYTES
                for name in (*DATA_ARRAYS, *BOARD_ARRAYS):
                    if name + ".npy" in members:
                        arrays[name] = _read_member(z, members[name + ".npy"], path, name, budget)
                        budget -= arrays[name].nbytes
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as exc:
        if isinstance(exc, CrossridorError):
            raise
        raise CrossridorError(f"cannot read selfplay data {path!r}: "
                              f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from None
    return arrays, _board(path, {name: arrays.pop(name).item() for name in BOARD_ARRAYS if name in arrays})


def _board(path, found: dict) -> int | str | None:
    """The board of a file's width and height (or older files' size), as
    the size option spells it; None when the file names none."""
    if not found:
        return None
    shape = (found.get("width"), found.get("height")) if "size" not in found else found["size"]
    board = BOARD.check(shape) if set(found) in ({"size"}, {"width", "height"}) else None
    if board is None:
        said = ", ".join(f"{k} {v}" for k, v in found.items())
        raise CrossridorError(f"{path}: {said} is not a Quoridor board ({BOARD.describe_range()})")
    return board


def load_data(paths) -> dict:
    """The rows of one or more self-play files, game indices made distinct;
    "size": their board when they all name the same one, else None."""
    parts: dict[str, list] = {name: [] for name in DATA_ARRAYS}
    sizes = set()
    offset = 0
    for path in paths:
        arrays, size = read_data_file(path)
        sizes.add(size)
        _check_arrays(path, arrays)
        arrays["game"] = arrays["game"].astype(np.int64) + offset
        offset = int(arrays["game"].max()) + 1 if len(arrays["game"]) else offset
        for name in DATA_ARRAYS:
            parts[name].append(arrays[name])
    # one file: its arrays as loaded (a copy would double the peak)
    data = {name: parts[name][0] if len(parts[name]) == 1 else np.concatenate(parts[name])
            for name in DATA_ARRAYS}
    if len(data["result"]) == 0:
        raise CrossridorError("the selfplay data holds no positions")
    data["size"] = sizes.pop() if len(sizes) == 1 else None
    return data


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0)))


def cross_entropy(z, t) -> float:
    p = np.clip(_sigmoid(z), 1e-12, 1 - 1e-12)
    return float(-np.mean(t * np.log(p) + (1 - t) * np.log(1 - p)))


def logit(model: Model, X) -> np.ndarray:
    """The model's logits of the rows of raw features X (as the C code computes them)."""
    z = X @ np.asarray(model.linear, np.float64)
    if model.hidden_units:
        z = z + np.maximum(X @ np.asarray(model.hidden, np.float64).T, 0.0) @ np.asarray(model.output, np.float64)
    return z


class _Adam:
    def __init__(self, lr: float):
        self.lr, self.t = lr, 0
        self.m: list = []           # the moments, one array per parameter (from the first step)
        self.v: list = []

    def step(self, params: list, grads: list) -> None:
        b1, b2, eps = 0.9, 0.999, 1e-8
        if not self.m:
            self.m = [np.zeros_like(p) for p in params]
            self.v = [np.zeros_like(p) for p in params]
        self.t += 1
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= self.lr * (m / (1 - b1 ** self.t)) / (np.sqrt(v / (1 - b2 ** self.t)) + eps)


def _fit_hidden(St, tt, Sv, tv, w, prior, reg, hidden, passes, lr, l2, rng, on_epoch, history, progress):
    """Add `hidden` ReLU units to the standardized linear fit w and fit all
    of it by minibatch Adam; returns (w, W, v) in standardized units."""
    nf = St.shape[1]
    W = rng.normal(0.0, math.sqrt(2.0 / nf), (hidden, nf))
    v = rng.normal(0.0, 0.01, hidden)
    adam = _Adam(lr / 10)
    batch = 4096
    every = max(1, passes // 10)

    def z_of(S):
        return _chunked(S, lambda c: c @ w + np.maximum(c @ W.T, 0.0) @ v)

    for epoch in range(1, passes + 1):
        order = rng.permutation(len(tt))
        for start in range(0, len(tt), batch):
            rows = order[start:start + batch]
            S, t = St[rows], tt[rows]
            pre = S @ W.T
            act = np.maximum(pre, 0.0)
            g = (_sigmoid(S @ w + act @ v) - t) / len(t)
            gw = S.T @ g + reg * (w - prior)
            gv = act.T @ g + l2 * v
            gW = ((np.outer(g, v)) * (pre > 0)).T @ S + l2 * W
            adam.step([w, v, W], [gw, gv, gW])
        if epoch % every == 0 or epoch == passes:
            row = ("hidden", epoch, cross_entropy(z_of(St), tt), cross_entropy(z_of(Sv), tv) if len(tv) else None)
            history.append(row)
            if on_epoch is not None:
                on_epoch(*row)
        if progress is not None:
            progress("hidden", epoch, passes)
    return w, W, v


@dataclasses.dataclass(frozen=True)
class TrainReport:
    model: Model                   # raw-feature weights, for the file
    train_loss: float
    val_loss: float | None
    val_loss_classic: float | None   # the classic evaluation's, same positions and target
    val_loss_constant: float | None  # predicting the training mean
    train_positions: int
    val_positions: int
    history: list                  # (phase, epoch, train loss, val loss or None)


def _target(data: dict, lam: float) -> np.ndarray:
    """lam * result + (1 - lam) * sigmoid(score / 200), float64."""
    return lam * data["result"].astype(np.float64) \
        + (1 - lam) * _sigmoid(data["score"].astype(np.float64) / SCORE_SCALE)


def _validation_rows(data: dict, validation: float, rng) -> np.ndarray:
    """A bool per row: held out for validation (a share of whole games, drawn with rng)."""
    games = np.unique(data["game"])
    n_val = int(round(validation * len(games)))
    if validation > 0 and len(games) >= 2:
        n_val = min(max(n_val, 1), len(games) - 1)
    else:
        n_val = 0
    val_games = rng.choice(games, size=n_val, replace=False) if n_val else np.array([], games.dtype)
    return np.isin(data["game"], val_games)


# Millions of rows: the rows stay float32 (as in the file), and what needs
# float64 or a wide intermediate (N x hidden) is computed CHUNK rows at a time.
CHUNK = 65536


def _chunked(A, fn, rows=None) -> np.ndarray:
    """fn (float64 rows -> one float per row) over A (or A[rows]), CHUNK rows at a time."""
    n = len(A) if rows is None else len(rows)
    out = np.empty(n)
    for i in range(0, n, CHUNK):
        part = A[i:i + CHUNK] if rows is None else A[rows[i:i + CHUNK]]
        out[i:i + CHUNK] = fn(part.astype(np.float64))
    return out


def _moments(X, rows) -> tuple:
    """Mean and standard deviation of the columns of X[rows] but the bias
    (float64, two passes over chunks)."""
    n = max(1, len(rows))
    total = np.zeros(X.shape[1] - 1)
    for i in range(0, len(rows), CHUNK):
        total += X[rows[i:i + CHUNK], 1:].sum(axis=0, dtype=np.float64)
    mu = total / n
    square = np.zeros_like(mu)
    for i in range(0, len(rows), CHUNK):
        square += ((X[rows[i:i + CHUNK], 1:] - mu) ** 2).sum(axis=0)
    return mu, np.sqrt(square / n)


def _standardized(X, rows, mu, sd) -> np.ndarray:
    """float32 rows X[rows], every column but the bias as (x - mu) / sd."""
    S = np.empty((len(rows), X.shape[1]), np.float32)
    for i in range(0, len(rows), CHUNK):
        part = X[rows[i:i + CHUNK]].astype(np.float64)
        part[:, 1:] = (part[:, 1:] - mu) / sd
        S[i:i + CHUNK] = part
    return S


def train(data: dict, epochs: int = 1000, lr: float = 0.05, lam: float = 0.5, validation: float = 0.1,
          l2: float = 1e-4, seed: int = 0, hidden: int = 0, passes: int = 20, on_epoch=None,
          progress=None) -> TrainReport:
    """Fit the linear logit by Adam on standardized features, then the hidden
    layer if any (see the module docstring); `on_epoch(phase, epoch,
    train_loss, val_loss)` every tenth of each phase ("linear", "hidden"),
    `progress(phase, epoch, epochs of the phase)` after every epoch or pass."""
    if epochs < 1:
        raise CrossridorError(f"epochs must be >= 1, got {epochs}")
    if not 0 <= hidden <= Q_MAX_HIDDEN_UNITS:
        raise CrossridorError(f"hidden units must be in [0, {Q_MAX_HIDDEN_UNITS}], got {hidden}")
    if hidden and passes < 1:
        raise CrossridorError(f"passes must be >= 1, got {passes}")
    if not 0.0 <= lam <= 1.0:
        raise CrossridorError(f"lambda must be in [0, 1], got {lam}")
    if not 0.0 <= validation < 1.0:
        raise CrossridorError(f"validation must be in [0, 1), got {validation}")
    X = data["features"]
    t = _target(data, lam)
    rng = np.random.default_rng(seed)
    is_val = _validation_rows(data, validation, rng)
    rows_t, rows_v = np.flatnonzero(~is_val), np.flatnonzero(is_val)
    tt, tv = t[rows_t], t[rows_v]
    # standardize every column but the bias: one learning rate suits them all
    mu, sd = _moments(X, rows_t)
    sd[sd < 1e-9] = 1.0
    St, Sv = _standardized(X, rows_t, mu, sd), _standardized(X, rows_v, mu, sd)
    # start from the classic evaluation and shrink towards it: a feature the
    # data never varies (say, no race in it) keeps the classic weight
    prior = np.empty(Q_NUM_FEATURES)
    prior[1:] = CLASSIC_WEIGHTS[1:] * sd
    prior[0] = CLASSIC_WEIGHTS[0] + float(np.sum(CLASSIC_WEIGHTS[1:] * mu))
    w = prior.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    b1, b2, eps = 0.9, 0.999, 1e-8
    reg = np.full(Q_NUM_FEATURES, l2)
    reg[0] = 0.0
    history = []
    every = max(1, epochs // 10)
    for epoch in range(1, epochs + 1):
        # float32 products over the rows (no float64 copy of them), float64 sums and steps
        residual = (_sigmoid(St @ w.astype(np.float32)) - tt).astype(np.float32)
        grad = (St.T @ residual).astype(np.float64) / len(tt) + reg * (w - prior)
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1 ** epoch)) / (np.sqrt(v / (1 - b2 ** epoch)) + eps)
        if epoch % every == 0 or epoch == epochs:
            row = ("linear", epoch, cross_entropy(_chunked(St, lambda c, w=w: c @ w), tt),
                   cross_entropy(_chunked(Sv, lambda c, w=w: c @ w), tv) if len(tv) else None)
            history.append(row)
            if on_epoch is not None:
                on_epoch(*row)
        if progress is not None:
            progress("linear", epoch, epochs)
    W = np.zeros((0, Q_NUM_FEATURES))
    out = np.zeros(0)
    if hidden:
        w, W, out = _fit_hidden(St, tt, Sv, tv, w, prior, reg, hidden, passes, lr, l2, rng, on_epoch, history,
                                  progress)

    def raw(u):
        # back to raw features: u0 + sum u_j (x_j - mu_j) / sd_j
        r = np.empty(Q_NUM_FEATURES)
        r[1:] = u[1:] / sd
        r[0] = u[0] - float(np.sum(u[1:] * mu / sd))
        return r.astype(np.float32)

    model = Model.of(raw(w), [raw(row) for row in W], out.astype(np.float32))
    val = len(tv) > 0
    return TrainReport(
        model=model, train_loss=cross_entropy(_chunked(X, lambda c: logit(model, c), rows_t), tt),
        val_loss=cross_entropy(_chunked(X, lambda c: logit(model, c), rows_v), tv) if val else None,
        val_loss_classic=cross_entropy(_chunked(X, lambda c: c @ CLASSIC_WEIGHTS, rows_v), tv) if val else None,
        val_loss_constant=cross_entropy(np.full(len(tv), math.log(tt.mean() / (1 - tt.mean()))), tv)
        if val and 0 < tt.mean() < 1 else None,
        train_positions=len(tt), val_positions=len(tv), history=history)
