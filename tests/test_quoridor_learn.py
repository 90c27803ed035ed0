"""The learned Quoridor evaluation: features, self-play data, training,
the weights file, and the searches with eval=learned."""

import random
from collections import deque

import numpy as np
import pytest

from crossridor import load_game
from crossridor.engine._core import Q_NUM_FEATURES, QuoridorWeights, q_fill_features, q_learned_eval, q_random_playout
from crossridor.engine.errors import CrossridorError
from quoridor_reference import DIRECTIONS, RefQuoridor


def features(state):
    out = np.zeros(Q_NUM_FEATURES, np.float32)
    q_fill_features(state.core, out)
    return out


def test_features_of_a_walled_position():
    # black to move after e3h: both detour around the wall to the d file
    f = features(load_game("quoridor").new_state("e2 e8 e3h"))
    assert f[:14].tolist() == [1, 8, 8, 10, 9, 0, 0, 0, 12, 9, 1, 1, 0, 0]
    # lead_share 0 / 17, near_me = near_op = 1 / 9, the first 3 walls in each hand
    assert f[14:19].tolist() == [0, np.float32(1 / 9), np.float32(1 / 9), 3, 3]
    # one more wall of black's across white's path adds one step (the threat), times near
    assert f[19:].tolist() == [1, np.float32(1 / 9)]
    # with no wall in black's hand there is no threat
    f = features(load_game("quoridor", walls=1).new_state("e2 e8 e3h d7h"))
    assert f[3] == 0 and f[19:].tolist() == [0, 0]


def reference_threat(ref, player):
    """Feature 19 of quoridor/features.pxi, written plainly on the reference
    rules: the most steps one free wall slot adds to player's shortest path,
    among the slots that block every shortest-path step from one layer of
    squares (by distance from the pawn) to the next; 0 if none."""
    goal = {sq: 0 for sq in ((c, r) for c in range(ref.width) for r in range(ref.height))
            if ref.is_goal(player, sq)}
    queue = deque(goal)
    while queue:                                  # goal distances, walls only
        sq = queue.popleft()
        for dc, dr in DIRECTIONS:
            nxt = (sq[0] + dc, sq[1] + dr)
            if ref.on_board(nxt) and nxt not in goal and not ref.wall_between(sq, nxt):
                goal[nxt] = goal[sq] + 1
                queue.append(nxt)
    pawn = ref._pawns[player]
    d = goal[pawn]
    layer, best = {pawn}, 0
    for i in range(d):
        steps = {(a, (a[0] + dc, a[1] + dr)) for a in layer for dc, dr in DIRECTIONS
                 if goal.get((a[0] + dc, a[1] + dr)) == d - i - 1
                 and not ref.wall_between(a, (a[0] + dc, a[1] + dr))}
        if len(steps) <= 2:
            for wall in ref.all_wall_anchors():
                blocked = {frozenset(step) for step in RefQuoridor.wall_steps(wall)}
                if ref.wall_conflicts(wall) or not all(frozenset(step) in blocked for step in steps):
                    continue
                path = ref.shortest_path(player, ref.walls | {wall})
                if path is not None:
                    best = max(best, len(path) - 1 - d)
        layer = {b for _, b in steps}
    return best


@pytest.mark.parametrize("size, walls, seed", [(9, 10, 1), (9, 10, 2), (9, 4, 3), (7, 6, 4), (5, 3, 5)])
def test_threat_features_match_the_reference(size, walls, seed):
    # seeded random games, half of the moves walls: the core's features 19-20
    # against the plain definition on the reference rules
    rng = random.Random(seed)
    game = load_game("quoridor", size=size, walls=walls)
    state, ref = game.new_state(), RefQuoridor(size, 2, walls)
    checked = threats = 0
    while not state.is_terminal() and checked < 60:
        me = state.current_player
        f = features(state)
        threat = reference_threat(ref, 1 - me) if ref.walls_left[me] > 0 else 0
        assert f[19:].tolist() == [threat, np.float32(threat * f[16])], (size, seed, state.moves)
        threats += threat > 0
        checked += 1
        moves = [str(m) for m in state.legal_moves()]
        walls_now = [m for m in moves if len(m) == 3]
        move = rng.choice(walls_now if walls_now and rng.random() < 0.5 else [m for m in moves if len(m) == 2])
        state.play(move)
        ref.play(move)
    assert checked >= 20 and threats >= 5


def test_a_leaf_stops_before_the_threat_only_with_a_lower_bound():
    # q_learned_eval(..., cut) as the search's leaves get it: exact below the
    # cut; at or above it, possibly a bound that the threat can only raise
    from importlib import resources
    model, _ = quoridor_weights.loads(
        (resources.files("crossridor.games.quoridor") / "data" / quoridor_weights.SHIPPED).read_bytes())
    weights = QuoridorWeights(model.linear)
    lowering = QuoridorWeights([*model.linear[:19], 0.0, -1.0])     # a threat that lowers the score
    game, rng, bounds = load_game("quoridor"), random.Random(9), 0
    for seed in range(12):
        moves, _ = q_random_playout(game.new_state().core, seed, 40)
        state = game.new_state()
        for code in moves[:-1]:
            state.core.play(code)
            full = q_learned_eval(state.core, weights)
            for cut in (full - 300, full - 1, full, full + 1, rng.randint(-2000, 2000)):
                score, exact = q_learned_eval(state.core, weights, cut)
                if exact:
                    assert score == full
                else:
                    assert cut <= score <= full
                    bounds += score < full
            assert q_learned_eval(state.core, lowering, -2000) == (q_learned_eval(state.core, lowering), True)
    assert bounds > 50          # the early stop happened, below the true score


def test_features_are_from_the_side_to_move():
    f = features(load_game("quoridor", size=5, walls=0).new_state("c2 c4"))
    # white to move, both 3 steps away, no walls: the race is white's
    assert f[[1, 2, 3, 4, 7]].tolist() == [3, 3, 0, 0, 1]
    f = features(load_game("quoridor", size=5, walls=0).new_state("c2 c4 c3"))
    # black to move, pawns side by side: a jump; black needs 3, white 2
    assert f[[1, 2, 7, 12]].tolist() == [3, 2, -1, 1]
    assert f[[14, 15, 16]].tolist() == [np.float32(-1 / 6), np.float32(1 / 4), np.float32(1 / 3)]


def test_feature_buffer_and_players_are_checked():
    state = load_game("quoridor").new_state()
    with pytest.raises(ValueError, match="needs 21 floats"):
        q_fill_features(state.core, np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="2-player"):
        q_fill_features(load_game("quoridor", players=4).new_state().core, np.zeros(21, np.float32))


def test_learned_score_is_the_scaled_dot_product():
    w = QuoridorWeights([0, -0.3, 0.3, 0.1, -0.1] + [0] * 16)
    assert q_learned_eval(load_game("quoridor").new_state("e2 e8 e3h").core, w) == 20
    with pytest.raises(ValueError, match="21 weights expected, got 1"):
        QuoridorWeights([1.0])
    with pytest.raises(ValueError, match="finite"):
        QuoridorWeights([float("nan")] * 21)


def test_learned_score_with_a_hidden_layer():
    # z = w . f + sum_j v_j relu(W_j . f); f = (1, d_me 8, d_op 8, walls 10, 9, ...) after e3h
    state = load_game("quoridor").new_state("e2 e8 e3h")
    linear = [0.1] + [0] * 20
    up = [0, 0, 0, 0.05] + [0] * 17           # W . f = 0.5: passes the ReLU
    down = [0, -0.05] + [0] * 19              # W . f = -0.4: cut by it
    w = QuoridorWeights(linear, [up, down], [2.0, 7.0])
    assert q_learned_eval(state.core, w) == round(200 * (0.1 + 2.0 * 0.5))
    assert np.allclose(w.hidden, [up, down]) and w.output == [2.0, 7.0]
    with pytest.raises(ValueError, match="output weights: 2 weights expected, got 1"):
        QuoridorWeights(linear, [up, down], [2.0])
    with pytest.raises(ValueError, match="hidden unit 1: 21 weights expected, got 2"):
        QuoridorWeights(linear, [up, [0, 1]], [2.0, 1.0])
    with pytest.raises(ValueError, match="at most 64 hidden units"):
        QuoridorWeights(linear, [up] * 65, [1.0] * 65)


# --- self-play data, training, the weights file ----------------------------------

import struct  # noqa: E402
import zlib  # noqa: E402

from crossridor.engine.cli.main import main  # noqa: E402
from crossridor.games.quoridor import weights as quoridor_weights  # noqa: E402
from crossridor.games.quoridor.training import CLASSIC_WEIGHTS, FEATURE_NAMES, load_data, logit, train  # noqa: E402
from crossridor.games.quoridor.weights import Model  # noqa: E402


@pytest.fixture(scope="module")
def selfplay_file(tmp_path_factory):
    """Six games on the 5x5 board at depth 2, made by the CLI (in process)."""
    path = tmp_path_factory.mktemp("selfplay") / "d.npz"
    assert main(["selfplay", "quoridor", "--size", "5", "--games", "6", "--out", str(path),
                 "--seed", "1", "--concurrency", "1"]) == 0
    return path


def test_selfplay_writes_documented_arrays(selfplay_file):
    data = np.load(selfplay_file)
    n = len(data["result"])
    assert n > 30
    assert data["features"].shape == (n, 21) and data["features"].dtype == np.float32
    assert tuple(data["feature_names"]) == FEATURE_NAMES
    assert (int(data["width"]), int(data["height"])) == (5, 5) and "size" not in data
    assert str(data["engine"]) == "alphabeta:depth=2"
    assert set(np.unique(data["game"])) == set(range(6))
    # the results are seen from the side to move: they alternate within a decided game
    for g in range(6):
        rows = data["game"] == g
        res, ply = data["result"][rows], data["ply"][rows]
        assert ply[0] >= 4                       # after the 4-ply random opening
        assert set(res.tolist()) <= {0.0, 1.0}
        same_parity = (ply - ply[0]) % 2 == 0
        assert (res[same_parity] == res[0]).all() and (res[~same_parity] == 1 - res[0]).all()
    # a search score agrees in sign with the result more often than not
    decided = np.abs(data["score"]) > 50
    agree = (data["score"][decided] > 0) == (data["result"][decided] == 1)
    assert agree.mean() > 0.6


def test_selfplay_is_reproducible_from_its_seed(selfplay_file, tmp_path):
    again = tmp_path / "again.npz"
    assert main(["selfplay", "quoridor", "--size", "5", "--games", "6", "--out", str(again),
                 "--seed", "1", "--concurrency", "1"]) == 0
    a, b = np.load(selfplay_file), np.load(again)
    for name in ("features", "score", "result", "game", "ply"):
        assert np.array_equal(a[name], b[name])


def test_older_data_files_are_refused_with_the_way_to_rebuild_them(selfplay_file, tmp_path):
    # features 19-20 need the positions: a file of 14 or 19 columns names the records
    arrays = dict(np.load(selfplay_file))
    for columns in (14, 19):
        old = tmp_path / f"old{columns}.npz"
        np.savez(old, **{**arrays, "features": arrays["features"][:, :columns]})
        with pytest.raises(CrossridorError, match=f"{columns} features per row.*--records FILE --resume"):
            load_data([old])


def test_the_board_of_a_data_file(selfplay_file, tmp_path):
    arrays = {k: v for k, v in np.load(selfplay_file).items() if k not in ("width", "height")}
    cases = [({"size": np.int32(5)}, 5),                          # written before rectangular boards
             ({"width": np.int32(4), "height": np.int32(7)}, "4x7"), ({}, None)]
    for k, (board, expected) in enumerate(cases):
        path = tmp_path / f"b{k}.npz"
        np.savez(path, **arrays, **board)
        assert load_data([path])["size"] == expected
    for k, board in enumerate([{"size": np.int32(10)}, {"width": np.int32(4)}, {"width": np.int32(1), "height":
                               np.int32(7)}, {"size": np.float32(5.5)}, {"size": np.int32(5), "width": np.int32(5)}]):
        path = tmp_path / f"bad{k}.npz"
        np.savez(path, **arrays, **board)
        with pytest.raises(CrossridorError, match="is not a Quoridor board"):
            load_data([path])


def test_selfplay_train_and_play_on_a_rectangular_board(tmp_path, capsys):
    data, out = tmp_path / "r.npz", tmp_path / "r.bin"
    assert main(["selfplay", "quoridor", "--size", "4x7", "--walls", "3", "--games", "4", "--out", str(data),
                 "--engine", "alphabeta:depth=1", "--seed", "2", "--concurrency", "1"]) == 0
    arrays = np.load(data)
    assert (int(arrays["width"]), int(arrays["height"]), int(arrays["walls"])) == (4, 7, 3)
    assert main(["train", "quoridor", str(data), "--out", str(out), "--epochs", "5"]) == 0
    model, size = quoridor_weights.load(str(out))
    assert size == "4x7" and len(model.linear) == 21
    capsys.readouterr()
    assert main(["best", "quoridor", "--size", "4x7", "--walls", "3", "--depth", "2", "-e", f"eval_file={out}"]) == 0
    assert capsys.readouterr().out.startswith("bestmove ")


def test_selfplay_results_from_a_solved_table(tmp_path, capsys):
    # 3x3 with 1 wall each: the table is solved in a moment; every result is
    # then the position's perfect value, checked against solving it afresh
    from crossridor.games.quoridor.solve import solve
    table, data, records = tmp_path / "t", tmp_path / "p.npz", tmp_path / "p.jsonl"
    board = ["--size", "3", "--walls", "1"]
    assert main(["solve", "quoridor", *board, "--write-table", str(table)]) == 0
    assert main(["selfplay", "quoridor", *board, "--games", "6", "--out", str(data), "--records", str(records),
                 "--engine", "random", "--random-openings", "0", "--seed", "4", "--concurrency", "1",
                 "--perfect-table", str(table)]) == 0
    assert "results: perfect play from" in capsys.readouterr().out
    arrays = np.load(data)
    assert str(arrays["results"]) == "perfect play"
    game = load_game("quoridor", size=3, walls=1)
    lines = [json.loads(line) for line in records.read_text().splitlines()]
    moves = {line["index"]: line["moves"] for line in lines}
    checked = differ = 0
    for g, ply, result in zip(arrays["game"], arrays["ply"], arrays["result"]):
        state = game.new_state()
        for move in moves[int(g)][:int(ply)]:
            state.play(move)
        winner = solve(state).winner
        assert result == (1.0 if winner == state.current_player + 1 else 0.0)
        checked += 1
    # a random player's game result is not its positions' perfect values
    for g in set(arrays["game"].tolist()):
        rows = arrays["game"] == g
        differ += len(set(np.where(arrays["ply"][rows] % 2 == 0, arrays["result"][rows],
                                   1 - arrays["result"][rows]).tolist())) > 1
    assert checked > 20 and differ > 0


def test_perfect_table_errors_are_one_line(tmp_path, capsys):
    table = tmp_path / "t"
    assert main(["solve", "quoridor", "--size", "3", "--walls", "1", "--write-table", str(table)]) == 0
    capsys.readouterr()
    common = ["--games", "1", "--out", str(tmp_path / "x.npz"), "--perfect-table"]
    for argv, message in [(["--size", "5", *common, str(table)], "does not hold this game's start"),
                          (["--size", "3", "--walls", "2", *common, str(table)], "does not hold this game's start"),
                          (["--size", "3", *common, str(tmp_path / "none")], str(tmp_path / "none"))]:
        assert main(["selfplay", "quoridor", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith("crossridor: error:") and message in err and err.count("\n") == 1


def test_training_beats_the_constant_and_writes_weights(selfplay_file, tmp_path, capsys):
    data = load_data([selfplay_file, selfplay_file])
    assert len(np.unique(data["game"])) == 12          # games of two files kept apart
    report = train(data, epochs=200, seed=3)
    assert report.val_positions > 0 and report.train_positions > report.val_positions
    assert report.val_loss < report.val_loss_constant
    # features the data never varies keep the classic weight (the prior)
    race = FEATURE_NAMES.index("race")
    assert report.model.linear[race] == pytest.approx(CLASSIC_WEIGHTS[race])
    assert report.model.hidden_units == 0
    out = tmp_path / "w.bin"
    assert main(["train", "quoridor", str(selfplay_file), "--out", str(out), "--epochs", "50"]) == 0
    printed = capsys.readouterr().out
    assert "validation loss" in printed and "linear epoch 50" in printed
    model, size = quoridor_weights.load(str(out))
    assert len(model.linear) == 21 and model.hidden_units == 0 and size == 5


def test_training_a_hidden_layer(selfplay_file, tmp_path, capsys):
    data = load_data([selfplay_file])
    linear = train(data, epochs=200, seed=3)
    report = train(data, epochs=200, seed=3, hidden=8, passes=40)
    model = report.model
    assert model.hidden_units == 8 and len(model.output) == 8
    assert report.history[-1][0] == "hidden"
    # the hidden layer starts from the linear fit and improves on it where it trains (six
    # games are too few for the held-out loss to follow: that is measured in the README)
    assert report.train_loss < linear.train_loss and report.val_loss is not None
    # the file and the C evaluation compute the model train() reports
    out = tmp_path / "h.bin"
    assert main(["train", "quoridor", str(selfplay_file), "--out", str(out), "--epochs", "50",
                 "--hidden", "4", "--passes", "3"]) == 0
    assert "hidden pass 3" in capsys.readouterr().out
    model, _ = quoridor_weights.load(str(out))
    assert model.hidden_units == 4
    weights = quoridor_weights.weights_for_search(str(out))
    state = load_game("quoridor", size=5).new_state("c2 c4 b2h")
    f = features(state).astype(np.float64)
    assert q_learned_eval(state.core, weights) == pytest.approx(200 * logit(model, f[None])[0], abs=1)
    # and the searches play with it
    from crossridor import Limits, search
    for algorithm, limits in (("alphabeta", Limits(depth=3)), ("greedy", Limits(depth=1)), ("mcts", Limits(sims=200))):
        assert search(state, algorithm, limits, seed=1, eval_file=str(out)).move in state.legal_moves()


def test_weights_round_trip_and_header():
    data = quoridor_weights.dumps(Model.of(range(21)), 9)
    assert data[:8] == b"CRQEVAL\0" and len(data) == 24 + 21 * 4 + 4
    assert struct.unpack_from("<II", data, 8) == (2, 21)
    assert quoridor_weights.loads(data) == (Model.of(range(21)), 9)
    hidden = Model.of(range(21), [[j * 0.5] * 21 for j in range(3)], [1, 2, 3])
    data = quoridor_weights.dumps(hidden, 7)
    assert len(data) == 24 + (21 + 3 * 21 + 3) * 4 + 4
    assert quoridor_weights.loads(data) == (hidden, 7)
    # a 19-feature file (without the two wall-threat features) still loads: those weigh 0
    f19 = _with_crc(b"CRQEVAL\0" + struct.pack("<IIII", 2, 19, 0, 9) + struct.pack("<19f", *range(19)))
    assert quoridor_weights.loads(f19) == (Model.of([*range(19), 0, 0]), 9)
    # and so does a version 1 file (linear only, 14 features)
    pad = [0] * 7
    v1 = _with_crc(b"CRQEVAL\0" + struct.pack("<IIII", 1, 14, 0, 9) + struct.pack("<14f", *range(14)))
    assert quoridor_weights.loads(v1) == (Model.of([*range(14), *pad]), 9)
    # and so does a 14-feature file with hidden units
    f14 = _with_crc(b"CRQEVAL\0" + struct.pack("<IIII", 2, 14, 1, 9) + struct.pack("<29f", *range(14), *[0.5] * 14, 2))
    assert quoridor_weights.loads(f14) == (Model.of([*range(14), *pad], [[0.5] * 14 + pad], [2]), 9)
    # the board: N for N x N, W * 256 + H otherwise, 0 when unknown
    for board, field in ((9, 9), ("4x7", 4 * 256 + 7), ("9x3", 9 * 256 + 3), (None, 0)):
        data = quoridor_weights.dumps(Model.of(range(21)), board)
        assert struct.unpack_from("<I", data, 20) == (field,)
        assert quoridor_weights.loads(data)[1] == (board or 0)


def _with_crc(body: bytes) -> bytes:
    return body + struct.pack("<I", zlib.crc32(body))


@pytest.mark.parametrize("mangle, message", [
    (lambda d: d[:30], "truncated"),
    (lambda d: d + b"\0", "truncated or padded"),
    (lambda d: b"NOTMAGIC" + d[8:], "not a crossridor evaluation weights file"),
    (lambda d: d[:40] + bytes([d[40] ^ 1]) + d[41:], "corrupt"),
    (lambda d: _with_crc(d[:8] + struct.pack("<I", 7) + d[12:-4]), "version 7"),
    (lambda d: _with_crc(d[:12] + struct.pack("<I", 13) + d[16:-8]), "13 features"),
    (lambda d: _with_crc(d[:16] + struct.pack("<I", 65) + d[20:-4]), "65 hidden units"),
    (lambda d: _with_crc(d[:16] + struct.pack("<I", 3) + d[20:-4]),
     "288 bytes, expected 376 for 21 features x 3 hidden"),
    (lambda d: _with_crc(d[:8] + struct.pack("<I", 1) + d[12:-4]), "x 2 hidden units; .* 0 to 0 hidden"),
    (lambda d: _with_crc(d[:24] + struct.pack("<f", float("nan")) + d[28:-4]), "not a finite number"),
    (lambda d: _with_crc(d[:-8] + struct.pack("<f", float("inf"))), "not a finite number"),
])
def test_loader_rejects_bad_files(tmp_path, mangle, message):
    path = tmp_path / "bad.bin"
    path.write_bytes(mangle(quoridor_weights.dumps(Model.of([0.5] * 21, [[0.1] * 21] * 2, [1, -1]), 9)))
    with pytest.raises(quoridor_weights.WeightsError, match=message):
        quoridor_weights.load(str(path))


def test_cli_errors_are_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.npz"
    np.savez(bad, features=np.zeros((3, 5), np.float32))
    cases = [
        (["train", "quoridor", str(bad), "--out", str(tmp_path / "w")], "lacks score"),
        (["train", "quoridor", str(tmp_path / "none.npz"), "--out", str(tmp_path / "w")], "cannot read"),
        (["train", "crosswise", str(bad), "--out", str(tmp_path / "w")], "quoridor only"),
        (["selfplay", "quoridor", "--players", "4", "--games", "1", "--out", str(tmp_path / "x.npz")],
         "2-player"),
        (["selfplay", "quoridor", "--games", "0", "--out", str(tmp_path / "x.npz")], "--games must be"),
        (["selfplay", "quoridor", "--games", "1", "--out", str(tmp_path / "x.txt")], ".npz"),
        (["selfplay", "quoridor", "--games", "1", "--out", str(tmp_path / "no" / "x.npz")], "cannot write"),
        (["train", "quoridor", str(bad), "--out", str(tmp_path / "no" / "w.bin")], "cannot write"),
        (["train", "quoridor", str(bad), "--out", str(tmp_path / "w"), "--hidden", "-1"], "--hidden must be"),
        (["train", "quoridor", str(bad), "--out", str(tmp_path / "w"), "--passes", "0"], "--passes must be"),
    ]
    for argv, message in cases:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("crossridor: error:") and message in err and err.count("\n") == 1


# --- resumable self-play, the loss curve ---------------------------------------------

import csv  # noqa: E402
import json  # noqa: E402
import signal  # noqa: E402

from helpers import interrupt, one_line_error  # noqa: E402

RESUME_GAMES = 20       # 9x9 at depth 2: long enough to be stopped midway


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    path = tmp_path_factory.mktemp("whole") / "d.npz"
    assert main(["selfplay", "quoridor", "--games", str(RESUME_GAMES), "--seed", "5", "--concurrency", "2",
                 "--out", str(path)]) == 0
    return path


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
def test_selfplay_stopped_and_resumed_gives_the_whole_run(uninterrupted, tmp_path, sig, capsys):
    records = tmp_path / "r.jsonl"

    def two_games_done(proc):
        # game 0 among them: the part written holds the first games in a row
        text = records.read_text() if records.exists() else ""
        return text.count("\n") >= 2 and '"index":0,' in text

    argv = ["selfplay", "quoridor", "--games", str(RESUME_GAMES), "--seed", "5", "--concurrency", "2",
            "--records", str(records), "--out", str(tmp_path / "part.npz")]
    code, seconds, out, err = interrupt(argv, two_games_done, sig)
    finished = records.read_text().count("\n")
    assert 2 <= finished < RESUME_GAMES
    if sig == signal.SIGKILL:
        assert code == -signal.SIGKILL
    else:
        # the games finished so far are written, and the run says how to go on
        assert code == 130, err
        assert "interrupted" in out and "--resume" in out
        with np.load(tmp_path / "part.npz") as part:
            assert 1 <= len(np.unique(part["game"])) <= finished
    # the seed comes from the records; another concurrency plays the rest
    assert main(["selfplay", "quoridor", "--games", str(RESUME_GAMES), "--concurrency", "1", "--records",
                 str(records), "--resume", "--out", str(tmp_path / "d.npz")]) == 0
    assert f"{RESUME_GAMES} games" in capsys.readouterr().out
    with np.load(uninterrupted) as a, np.load(tmp_path / "d.npz") as b:
        assert a.files == b.files
        for name in a.files:
            assert a[name].dtype == b[name].dtype and a[name].tobytes() == b[name].tobytes(), name
    indices = [json.loads(line)["index"] for line in records.read_text().splitlines()]
    assert sorted(indices) == list(range(RESUME_GAMES))       # each game once


def test_resumed_records_of_another_run_are_refused(tmp_path):
    records = tmp_path / "r.jsonl"
    base = ["selfplay", "quoridor", "--size", "5", "--games", "3", "--out", str(tmp_path / "d.npz"),
            "--concurrency", "1"]
    assert main(base + ["--seed", "4", "--records", str(records)]) == 0
    again = base + ["--records", str(records), "--resume"]
    where = f"records file {str(records)!r}, line 1"
    assert where in one_line_error(*again, "--engine", "alphabeta:depth=1")
    assert "game 0 was played with match_engines" in one_line_error(*again, "--engine", "alphabeta:depth=1")
    assert f"--seed 3 differs from the seed 4 of {where}" in one_line_error(*again, "--seed", "3")
    assert "params" in one_line_error(*again, "--walls", "2")
    assert "opening" in one_line_error(*again, "--random-openings", "2")
    assert "max_plies" in one_line_error(*again, "--max-plies", "50")
    assert "already holds 3 games" in one_line_error(*base, "--records", str(records))
    assert "--resume needs --records" in one_line_error(*base, "--resume")
    # a match's records (no search score per move) are not self-play data
    match = tmp_path / "m.jsonl"
    assert main(["match", "quoridor", "--size", "5", "--engine", "alphabeta:depth=2", "--engine",
                 "alphabeta:depth=2", "--games", "2", "--seed", "4", "--random-openings", "4",
                 "--concurrency", "1", "--records", str(match)]) == 0
    err = one_line_error(*base, "--records", str(match), "--resume")
    assert f"records file {str(match)!r}, line 1: game 0 has no search score per move" in err


def test_training_in_chunks_computes_the_same(selfplay_file, monkeypatch):
    # the standardization, the losses and the report go over the rows CHUNK
    # at a time (for millions of rows); a chunk of 7 rows must change nothing
    from crossridor.games.quoridor import training
    data = load_data([selfplay_file])
    whole = train(data, epochs=60, hidden=3, passes=3, seed=2)
    monkeypatch.setattr(training, "CHUNK", 7)
    chunked = train(data, epochs=60, hidden=3, passes=3, seed=2)
    for a, b in zip(whole.history, chunked.history):
        assert a[:2] == b[:2] and a[2:] == pytest.approx(b[2:], rel=1e-6)
    for name in ("train_loss", "val_loss", "val_loss_classic", "val_loss_constant"):
        assert getattr(chunked, name) == pytest.approx(getattr(whole, name), rel=1e-6)
    assert np.allclose(chunked.model.linear, whole.model.linear, rtol=1e-5, atol=1e-6)


def test_train_progress_and_curve(selfplay_file, tmp_path, capsys):
    steps = []
    train(load_data([selfplay_file]), epochs=30, hidden=2, passes=3,
          progress=lambda phase, k, total: steps.append((phase, k, total)))
    assert steps == [("linear", k, 30) for k in range(1, 31)] + [("hidden", k, 3) for k in range(1, 4)]
    curve = tmp_path / "c.csv"
    assert main(["train", "quoridor", str(selfplay_file), "--out", str(tmp_path / "w"), "--epochs", "40",
                 "--hidden", "2", "--passes", "4", "--curve", str(curve)]) == 0
    printed = [line for line in capsys.readouterr().out.splitlines() if " loss " in line and ":" in line
               and line.split()[0] in ("linear", "hidden")]
    rows = list(csv.DictReader(open(curve)))
    assert len(rows) == len(printed) == 10 + 4
    for row, line in zip(rows, printed):
        assert line.startswith(f"{row['phase']} {'epoch' if row['phase'] == 'linear' else 'pass'} {row['epoch']}:")
        assert f"train loss {float(row['train_loss']):.4f}, validation loss " \
               f"{float(row['validation_loss']):.4f}" in line
    assert "cannot write" in one_line_error("train", "quoridor", str(selfplay_file), "--out", str(tmp_path / "w"),
                                            "--curve", str(tmp_path / "no" / "c.csv"))


# --- the searches with eval=learned ------------------------------------------------

from crossridor import Limits, search  # noqa: E402


@pytest.fixture(scope="module")
def weights_file(selfplay_file, tmp_path_factory):
    out = tmp_path_factory.mktemp("weights") / "w.bin"
    assert main(["train", "quoridor", str(selfplay_file), "--out", str(out), "--epochs", "100"]) == 0
    return str(out)


def test_selfplay_train_search_end_to_end(weights_file):
    game = load_game("quoridor", size=5)
    state = game.new_state("c2 c4")
    learned = dict(eval="learned", eval_file=weights_file)
    a = search(state, "alphabeta", Limits(depth=4), **learned)
    b = search(state, "alphabeta", Limits(depth=4), **learned)
    assert (a.move, a.score, a.nodes) == (b.move, b.score, b.nodes)      # deterministic
    assert a.move in state.legal_moves()
    # the depth-0 view: greedy's score is the learned score of the best child
    weights = quoridor_weights.weights_for_search(weights_file)
    g = search(state, "greedy", Limits(depth=1), **learned)
    child = state.clone()
    child.play(g.move)
    assert g.score == -q_learned_eval(child.core, weights)
    m = search(state, "mcts", Limits(sims=300), seed=1, **learned)
    assert m.move in state.legal_moves() and -1 < m.score < 1
    # the learned evaluation changes what alpha-beta sees
    classic = search(state, "alphabeta", Limits(depth=4))
    assert (classic.score, classic.nodes) != (a.score, a.nodes)


def test_learned_eval_plays_a_match(weights_file):
    from crossridor.engine.match.pool import InlineExecutor
    from crossridor.engine.match.runner import MatchConfig, run_match
    from crossridor.engine.match.specs import EngineSpec
    engines = [EngineSpec.parse(f"alphabeta:depth=2,eval=learned,eval_file={weights_file}"),
               EngineSpec.parse("alphabeta:depth=2")]
    result = run_match(MatchConfig(game="quoridor", params={"size": 5}, engines=engines, games=4,
                                   random_openings=2, seed=7), executor=InlineExecutor())
    assert result.tally.games == 4


def test_learned_option_errors(weights_file):
    state = load_game("quoridor").new_state()
    cases = [
        (dict(eval="learned", eval_file="/nonexistent/w.bin"), "cannot read weights file"),
        (dict(eval="classic", eval_file=weights_file), "eval_file needs eval=learned"),
        (dict(eval="learned", eval_file=weights_file, tempo=3), "tempo tunes the classic"),
        (dict(eval="nn"), "must be one of auto, classic, learned"),
        (dict(eval="learned", eval_file=""), "non-empty text"),
    ]
    for options, message in cases:
        with pytest.raises(CrossridorError, match=message):
            search(state, "alphabeta", Limits(depth=1), **options)
    with pytest.raises(CrossridorError, match="2-player"):
        search(load_game("quoridor", players=4).new_state(), "alphabeta", Limits(depth=1),
               eval="learned", eval_file=weights_file)
    with pytest.raises(CrossridorError, match="rollout=eval"):
        search(state, "mcts", Limits(sims=10), eval="learned", eval_file=weights_file, rollout="random")


def test_default_evaluation(weights_file, monkeypatch):
    from crossridor.games.quoridor import search_options as quoridor
    state = load_game("quoridor").new_state("e2 e8")
    limits = Limits(depth=3)

    def same(a, b):
        return (a.move, a.score, a.nodes) == (b.move, b.score, b.nodes)

    classic = search(state, "alphabeta", limits, eval="classic")
    learned = search(state, "alphabeta", limits, eval="learned")
    assert not same(classic, learned)
    assert same(search(state, "alphabeta", limits), classic if not quoridor.LEARNED_BY_DEFAULT else learned)
    # eval_file alone means eval=learned
    assert same(search(state, "alphabeta", limits, eval_file=weights_file),
                search(state, "alphabeta", limits, eval="learned", eval_file=weights_file))
    # an algorithm made learned by default: on the 2-player 9x9, 7x7 and 5x5 boards with 10
    # walls only, and not when an option tunes the classic evaluation (a weight off its default)
    monkeypatch.setattr(quoridor, "LEARNED_BY_DEFAULT", ("alphabeta",))
    assert same(search(state, "alphabeta", limits), learned)
    assert same(search(state, "alphabeta", limits, tempo=60), search(state, "alphabeta", limits, tempo=60,
                                                                     eval="classic"))
    assert same(search(state, "alphabeta", limits, tempo=40), learned)     # the default: no tuning
    for board in (load_game("quoridor", size=7).new_state("d2 d6"), load_game("quoridor", size=5).new_state()):
        assert same(search(board, "alphabeta", limits), search(board, "alphabeta", limits, eval="learned"))
        assert not same(search(board, "alphabeta", limits), search(board, "alphabeta", limits, eval="classic"))
    for params in (dict(size=7, walls=8), dict(walls=8), dict(players=4), dict(size=5, walls=9), dict(size=6),
                   dict(size="9x7"), dict(size="4x7")):
        other = load_game("quoridor", **params).new_state()
        assert same(search(other, "alphabeta", limits), search(other, "alphabeta", limits, eval="classic"))


def test_learned_eval_with_the_classic_weights_is_the_classic_eval():
    # CLASSIC_WEIGHTS write quoridor/eval.pxi over the features: the two must agree everywhere
    from crossridor.engine._core import q_random_playout, q_time_eval
    w = QuoridorWeights(CLASSIC_WEIGHTS.astype(np.float32))
    for size, walls, seed in ((9, 10, 1), (9, 2, 2), (5, 1, 3), (7, 0, 4)):
        game = load_game("quoridor", size=size, walls=walls)
        moves, _ = q_random_playout(game.new_state().core, seed, 60)
        state = game.new_state()
        for code in moves[:-1]:
            state.core.play(code)
            assert q_time_eval(state.core, 1, w)[1] == q_time_eval(state.core, 1)[1]


def test_shipped_weights_load_and_play():
    from importlib import resources
    shipped = resources.files("crossridor.games.quoridor") / "data" / quoridor_weights.SHIPPED
    model, size = quoridor_weights.loads(shipped.read_bytes())
    assert len(model.linear) == 21 and size == 9
    state = load_game("quoridor").new_state("e2 e8")
    result = search(state, "alphabeta", Limits(depth=3), eval="learned")
    assert result.move in state.legal_moves()


def test_each_board_plays_its_own_shipped_weights():
    # eval=learned reads the weights made for the board: 7x7 and 5x5 their own, 6x6 the 9x9 ones
    from importlib import resources
    data = resources.files("crossridor.games.quoridor") / "data"
    for size, name in quoridor_weights.SHIPPED_BY_SIZE.items():
        assert quoridor_weights.loads((data / name).read_bytes())[1] == size
    limits = Limits(depth=4)

    def key(r):
        return (r.move, r.score, r.nodes)
    for size, name, other in ((7, "quoridor_eval_7x7.bin", quoridor_weights.SHIPPED),
                              (5, "quoridor_eval_5x5.bin", quoridor_weights.SHIPPED),
                              (6, quoridor_weights.SHIPPED, "quoridor_eval_7x7.bin")):
        state = load_game("quoridor", size=size).new_state()
        learned = key(search(state, "alphabeta", limits, eval="learned"))
        assert learned == key(search(state, "alphabeta", limits, eval_file=str(data / name)))
        assert learned != key(search(state, "alphabeta", limits, eval_file=str(data / other)))
