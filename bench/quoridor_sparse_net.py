"""The eleventh round's network experiment (9x9, two players; not kept, see
docs/measurements.md): a hidden layer of ReLU units added to the linear
model, over the 21 features and optionally one-hot board inputs in the
mover's frame (pawn me, pawn op, horizontal and vertical wall anchors: the
NNUE idea's first layer) or the two distance fields.

    crossridor selfplay quoridor --games 4000 --engine alphabeta:depth=8 \\
        --concurrency 2 --seed 6502 --out sp8.npz --records sp8.jsonl
    python3 bench/quoridor_sparse_net.py boards sp8.npz sp8.jsonl boards.npz
    python3 bench/quoridor_sparse_net.py fit sp8.npz boards.npz --inputs board --out net.npz

`fit` prints the held-out cross-entropy (games with index % 10 == 0) of the
shipped weights, of the linear model refitted, and of the network after
each pass; the target is sigmoid(score / 200) (lambda 0). A build of this
commit evaluates with a network file when CROSSRIDOR_EXP_NET=net.npz is set
(src/games/quoridor/weights.py), for example in a match:

    crossridor match quoridor --engine "uci:/usr/bin/env CROSSRIDOR_EXP_NET=net.npz \\
        BUILD/bin/crossridor uci;time=0.2" --engine "uci:BUILD/bin/crossridor uci;time=0.2" \\
        --random-openings 2 --seed 6511 --games 600 --concurrency 1 --sprt elo0=0,elo1=40

The twelfth round's switches (the same build, each read once per search's
weights): CROSSRIDOR_EXP_TEMPO=c adds c centi-steps to the network's score
of the side to move; CROSSRIDOR_EXP_GRAIN=g rounds every learned score to
g centi-steps, CROSSRIDOR_EXP_HGRAIN=g the units' part alone;
CROSSRIDOR_EXP_RFP=m sets the reverse-futility margin (100 a ply);
CROSSRIDOR_EXP_NOLAZY=1 computes the threat at every leaf even when the units
do not read it (`fit --no-threat-inputs`). crossridor.engine._core.q_counters()
returns the search's counts of reverse-futility tries and cuts, null-move
tries and cuts, reduced and null-window re-searches, beta cutoffs and those
by the first move.
"""

from __future__ import annotations

import argparse
import json
import time
from importlib import resources

import numpy as np

import crossridor
from crossridor.games.quoridor import weights as quoridor_weights

PAD = 324          # the index of the zero row: board inputs are 0..323
SLOTS = 24         # two pawns and at most 20 walls, padded


def board_rows(state) -> tuple[list, list, np.ndarray]:
    """One-hot indices of the position in the mover's frame, the same mirrored
    left to right, and the two distance fields (162 floats)."""
    o = state.observation_tensor(state.current_player)
    me, op = int(np.flatnonzero(o[0])[0]), int(np.flatnonzero(o[1])[0])
    hr, hc = np.nonzero(o[2])
    vr, vc = np.nonzero(o[3])
    rows = [me, 81 + op, *(162 + hr * 9 + hc), *(243 + vr * 9 + vc)]
    mirrored = [me - me % 9 + 8 - me % 9, 81 + op - op % 9 + 8 - op % 9,
                *(162 + hr * 9 + 7 - hc), *(243 + vr * 9 + 7 - vc)]
    return rows, mirrored, np.concatenate([o[8].ravel(), o[9].ravel()])


def boards(data_path: str, records_path: str, out: str) -> None:
    with np.load(data_path) as data:      # an npz member is read again at each access
        games, plies = data["game"], data["ply"]
    moves = {}
    with open(records_path) as f:
        for line in f:
            record = json.loads(line)
            moves[record["index"]] = record["moves"]
    game = crossridor.load_game("quoridor")
    n = len(games)
    idx = np.full((n, SLOTS), PAD, np.int16)
    mir = np.full((n, SLOTS), PAD, np.int16)
    fields = np.zeros((n, 162), np.float16)
    current, state, played = None, None, 0
    for row in np.lexsort((plies, games)):
        g, ply = int(games[row]), int(plies[row])
        if g != current:
            current, state, played = g, game.new_state(), 0
        while played < ply:
            state.play(moves[g][played])
            played += 1
        rows, mirrored, fields[row] = board_rows(state)
        idx[row, :len(rows)] = rows
        mir[row, :len(mirrored)] = mirrored
    np.savez(out, idx=idx, mir=mir, fields=fields)


def cross_entropy(z, t) -> float:
    return float(np.mean(np.logaddexp(0.0, z) - t * z))


def fit(data_path: str, boards_path: str, inputs: str, hidden: int, passes: int, lr: float, l2: float,
        seed: int, out: str, freeze: bool = False, no_threat: bool = False) -> None:
    rng = np.random.default_rng(seed)
    data, board = dict(np.load(data_path)), dict(np.load(boards_path))
    f = data["features"].astype(np.float64)
    t = 1.0 / (1.0 + np.exp(-np.clip(data["score"].astype(np.float64), -20000, 20000) / 200.0))
    idx, mir = board["idx"].astype(np.int64), board["mir"].astype(np.int64)
    val = data["game"] % 10 == 0
    train = ~val
    ref = resources.files("crossridor.games.quoridor").joinpath("data", "quoridor_eval.bin")
    shipped, _ = quoridor_weights.loads(ref.read_bytes())
    w0 = np.array(shipped.linear)
    print(f"{len(t)} positions, {train.sum()} to fit, {val.sum()} held out")
    print(f"shipped linear: {cross_entropy(f[train] @ w0, t[train]):.4f} fit, "
          f"{cross_entropy(f[val] @ w0, t[val]):.4f} held out")
    w, m, s = w0.copy(), np.zeros_like(w0), np.zeros_like(w0)
    for step in range(1, 401):    # full-batch Adam from the shipped weights
        g = f[train].T @ (1.0 / (1.0 + np.exp(-(f[train] @ w))) - t[train]) / train.sum()
        m, s = 0.9 * m + 0.1 * g, 0.999 * s + 0.001 * g * g
        w -= 0.01 * (m / (1 - 0.9 ** step)) / (np.sqrt(s / (1 - 0.999 ** step)) + 1e-8)
    print(f"linear refitted: {cross_entropy(f[train] @ w, t[train]):.4f} fit, "
          f"{cross_entropy(f[val] @ w, t[val]):.4f} held out")
    mu, sd = f[train, 1:].mean(0), f[train, 1:].std(0) + 1e-6
    dense = (f[:, 1:] - mu) / sd
    use_board = inputs in ("board", "pawns+fields")
    if inputs == "pawns+fields":
        fields = board["fields"].astype(np.float64)
        dense = np.hstack([dense, (fields - fields[train].mean(0)) / (fields[train].std(0) + 1e-3)])
        idx = np.where(idx < 162, idx, PAD)
    P = {"w": (w0 if freeze else w).copy(), "A": rng.normal(0, 0.3 / np.sqrt(dense.shape[1]), (dense.shape[1], hidden)),
         "b": np.zeros(hidden), "S": rng.normal(0, 0.05, (PAD + 1, hidden)) * use_board,
         "v": rng.normal(0, 0.05, hidden)}
    P["S"][PAD] = 0
    if no_threat:   # the units do not read features 19-20: the search may skip the threat (lazy)
        P["A"][18:20] = 0.0
    M = {k: np.zeros_like(x) for k, x in P.items()}
    V = {k: np.zeros_like(x) for k, x in P.items()}

    def forward(rows, ix):
        pre = dense[rows] @ P["A"] + P["b"] + (P["S"][ix].sum(1) if use_board else 0.0)
        h = np.maximum(pre, 0.0)
        return f[rows] @ P["w"] + h @ P["v"], pre, h

    order, step = np.flatnonzero(train), 0
    for p in range(1, passes + 1):
        rng.shuffle(order)
        start = time.time()
        for i in range(0, len(order), 1024):
            rows = order[i:i + 1024]
            ix = idx[rows]
            if inputs == "board":   # the board's left-right mirror is worth the same
                ix = np.where((rng.random(len(rows)) < 0.5)[:, None], mir[rows], ix)
            z, pre, h = forward(rows, ix)
            gz = (1.0 / (1.0 + np.exp(-z)) - t[rows]) / len(rows)
            gh = np.outer(gz, P["v"]) * (pre > 0)
            G = {"v": h.T @ gz, "A": dense[rows].T @ gh + l2 * P["A"], "b": gh.sum(0)}
            if no_threat:
                G["A"][18:20] = 0.0
            if not freeze:
                G["w"] = f[rows].T @ gz
            if use_board:
                G["S"] = np.zeros_like(P["S"])
                np.add.at(G["S"], ix, gh[:, None, :])
                G["S"][PAD] = 0
                G["S"] += l2 * P["S"]
            step += 1
            for k, g in G.items():
                M[k] = 0.9 * M[k] + 0.1 * g
                V[k] = 0.999 * V[k] + 0.001 * g * g
                P[k] -= lr * (M[k] / (1 - 0.9 ** step)) / (np.sqrt(V[k] / (1 - 0.999 ** step)) + 1e-8)
        some = order[:200000]
        held = np.flatnonzero(val)
        print(f"pass {p}: {cross_entropy(forward(some, idx[some])[0], t[some]):.4f} fit, "
              f"{cross_entropy(forward(held, idx[held])[0], t[held]):.4f} held out ({time.time() - start:.0f} s)",
              flush=True)
    if inputs == "pawns+fields":
        print("(the build evaluates board or dense networks only: not written)")
        return
    np.savez(out, mu=mu, sd=sd, **P)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("boards", help="each data row's board inputs, from the selfplay records")
    b.add_argument("data")
    b.add_argument("records")
    b.add_argument("out")
    f = sub.add_parser("fit", help="fit the network; print the held-out losses")
    f.add_argument("data")
    f.add_argument("boards")
    f.add_argument("--inputs", choices=("board", "dense", "pawns+fields"), default="board")
    f.add_argument("--hidden", type=int, default=32)
    f.add_argument("--passes", type=int, default=6)
    f.add_argument("--lr", type=float, default=0.002)
    f.add_argument("--l2", type=float, default=1e-3)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--out", default="net.npz")
    f.add_argument("--freeze-linear", action="store_true",
                   help="keep the shipped linear weights and fit the hidden layer alone on top of them")
    f.add_argument("--no-threat-inputs", action="store_true",
                   help="the hidden units do not read features 19-20 (the threat)")
    a = parser.parse_args()
    if a.command == "boards":
        boards(a.data, a.records, a.out)
    else:
        fit(a.data, a.boards, a.inputs, a.hidden, a.passes, a.lr, a.l2, a.seed, a.out, a.freeze_linear,
            a.no_threat_inputs)


if __name__ == "__main__":
    main()
