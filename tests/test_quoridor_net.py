"""Quoridor's network evaluation (eval=net, src/engine/quoridor_net.pxi): its
inputs, the C integer network against its numpy reference, the weights file
with a network, training from game records, and the searches with it."""

import json
import struct

import numpy as np
import pytest

from crossridor import Limits, load_game, search
from crossridor.engine._core import (Q_NUM_FEATURES, QN_NET_SCALES, q_fill_features, q_fill_net_inputs,
                                     q_learned_eval, q_learned_logits, q_random_playout, qn_sparse_inputs)
from crossridor.engine.cli.main import main
from crossridor.engine.errors import CrossridorError
from crossridor.games.quoridor import weights as quoridor_weights
from crossridor.games.quoridor.training import mirror_columns, net_share, records_data, train_net
from crossridor.games.quoridor.weights import Model, Net


def inputs(state):
    out = np.zeros(qn_sparse_inputs(state.game.size), np.uint8)
    q_fill_net_inputs(state.core, out)
    return out


def features(state):
    out = np.zeros(Q_NUM_FEATURES, np.float32)
    q_fill_features(state.core, out)
    return out


def random_net(size, units, seed, scale=400):
    rng = np.random.default_rng(seed)
    s = qn_sparse_inputs(size)
    return Net(size, rng.integers(-scale, 2 * scale, units).astype(np.int32),
               rng.integers(-scale, scale, (s, units)).astype(np.int16),
               rng.integers(-3000, 3000, units).astype(np.int16))


def random_positions(size, walls, seed, count):
    game = load_game("quoridor", size=size, walls=walls)
    moves, _ = q_random_playout(game.new_state().core, seed, count + 1)
    state = game.new_state()
    for code in moves[:-1]:
        state.core.play(code)
        yield state


def test_input_layout_from_the_side_to_move():
    assert qn_sparse_inputs(9) == 2 * 81 + 2 * 64 + QN_NET_SCALES["feature_inputs"] == 461
    game = load_game("quoridor")
    hand = 2 * 81 + 2 * 64
    # e2 e8, player 1 (south) to move: my pawn e2 = row 1, the opponent's e8 = row 7
    x = np.flatnonzero(inputs(game.new_state("e2 e8")))
    assert list(x[:2]) == [1 * 9 + 4, 81 + 7 * 9 + 4]
    assert list(x[2:4]) == [hand + 10, hand + 11 + 10]                        # 10 walls each
    assert list(x[4:6]) == [hand + 22 + 7, hand + 22 + 32 + 7]                # 7 steps each
    # one ply later player 2 moves: its board is turned, its e8 reads as row 1
    x = np.flatnonzero(inputs(game.new_state("e2 e8 e3")))
    assert list(x[:2]) == [1 * 9 + 4, 81 + (8 - 2) * 9 + 4]
    # walls: c3h at anchor (2, 2) for player 1; a vertical wall seen by player 2 turned
    x = inputs(game.new_state("e2 e8 c3h"))
    assert x[2 * 81 + (7 - 2) * 8 + 2] == 1 and x.sum() == 2 + 1 + 10
    x = inputs(game.new_state("e2 e8 c3h a6v"))
    assert x[2 * 81 + 2 * 8 + 2] == 1 and x[2 * 81 + 64 + 5 * 8 + 0] == 1
    assert x[hand + 9] == 1 and x[hand + 11 + 9] == 1                          # 9 walls each left


def test_mirror_columns_mirror_the_board():
    game = load_game("quoridor")
    perm = mirror_columns(9)
    assert sorted(perm.tolist()) == list(range(461))
    for moves, mirrored in (("e2 e8 c3h a6v d2", "e2 e8 f3h h6v f2"), ("e2 e8 d2 d8 b7h", "e2 e8 f2 f8 g7h")):
        assert np.array_equal(inputs(game.new_state(moves))[perm], inputs(game.new_state(mirrored)))


@pytest.mark.parametrize("size, walls, seed", [(9, 10, 1), (9, 10, 2), (5, 3, 3), (7, 6, 4)])
def test_c_network_is_its_numpy_reference(size, walls, seed):
    net = random_net(size, 32 if seed % 2 else 7, seed)
    linear = np.random.default_rng(seed).normal(0, 0.3, Q_NUM_FEATURES).astype(np.float32)
    model = Model.of(linear, net=net)
    weights = quoridor_weights.c_weights(model)
    lin = np.asarray(model.linear, np.float64)
    seen = set()
    for state in random_positions(size, walls, seed, 120):
        if state.is_terminal():
            break
        x, f = inputs(state), features(state)
        share = net_share(net, x[None])[0]
        acc = net.b1 + x.astype(np.int64) @ net.ws
        seen |= {int(np.sign(a)) if a <= 0 else (2 if a >= 1024 else 1) for a in acc}
        assert q_learned_logits(state.core, weights) == pytest.approx(f @ lin + share, abs=1e-4)
        score = q_learned_eval(state.core, weights)
        assert abs(score - 200 * (f @ lin + share)) <= 0.5 + 1e-3 or abs(score) == 90000
    assert seen == {-1, 0, 1, 2} or seen == {-1, 1, 2}     # below, within and above the clip


def test_network_file_round_trip_and_bad_files(tmp_path):
    net = random_net(9, 5, 1)
    model = Model.of(range(14), net=net)
    data = quoridor_weights.dumps(model, 9)
    assert struct.unpack_from("<I", data, 8) == (3,)
    assert len(data) == 24 + 14 * 4 + 8 + 5 * (4 + 2 * (461 + 1)) + 4
    back, size = quoridor_weights.loads(data)
    assert back == model and size == 9 and back.net.units == 5
    linear = quoridor_weights.dumps(Model.of(range(14)), 9)          # no network: version 2
    assert struct.unpack_from("<I", linear, 8) == (2,) and quoridor_weights.loads(linear)[0].net is None
    v3 = _with_crc(b"CRQEVAL\0" + struct.pack("<IIII", 3, 14, 0, 9) + linear[24:-4] + struct.pack("<I", 0))
    assert quoridor_weights.loads(v3)[0] == Model.of(range(14))    # version 3 with 0 units
    body = data[:-4]
    net_at = 24 + 14 * 4
    cases = [
        (data[:-10], "truncated"),
        (_with_crc(body[:net_at] + struct.pack("<II", 33, 9) + body[net_at + 8:]), "33 units"),
        (_with_crc(body[:net_at] + struct.pack("<II", 5, 8) + body[net_at + 8:]), "8x8 board"),
        (_with_crc(body[:net_at] + struct.pack("<II", 5, 5) + body[net_at + 8:]), "expected .* network of 5 units"),
        (_with_crc(body[:net_at + 8] + struct.pack("<i", 1 << 30) + body[net_at + 12:]), "bias outside"),
        (data[:-30] + bytes([data[-30] ^ 1]) + data[-29:], "corrupt"),
    ]
    for bad, message in cases:
        path = tmp_path / "bad.bin"
        path.write_bytes(bad)
        with pytest.raises(quoridor_weights.WeightsError, match=message):
            quoridor_weights.load(str(path))
    with pytest.raises(quoridor_weights.WeightsError, match="shapes"):
        quoridor_weights.dumps(Model.of(range(14), net=Net(9, net.b1, net.ws[:-1], net.w2)), 9)


def _with_crc(body: bytes) -> bytes:
    import zlib
    return body + struct.pack("<I", zlib.crc32(body))


# --- training from records, the searches -------------------------------------------

@pytest.fixture(scope="module")
def records_file(tmp_path_factory):
    """Eight self-play games on 5x5 at depth 2, as JSON records with scores."""
    from crossridor.engine.match.pool import InlineExecutor
    from crossridor.engine.match.specs import EngineSpec
    from crossridor.games.quoridor.training import selfplay_match
    path = tmp_path_factory.mktemp("records") / "sp.jsonl"
    match = selfplay_match(EngineSpec.parse("alphabeta:depth=2"), 8, {"size": 5}, 1, 5, 2, None)
    result = match.run(executor=InlineExecutor())
    path.write_text("".join(json.dumps(r.as_dict()) + "\n" for r in result.records))
    return path


@pytest.fixture(scope="module")
def net_file(records_file, tmp_path_factory):
    out = tmp_path_factory.mktemp("net") / "net.bin"
    assert main(["train", "quoridor", str(records_file), "--out", str(out), "--net", "8", "--passes", "3",
                 "--epochs", "100"]) == 0
    return str(out)


def test_records_data_replays_the_games(records_file):
    data = records_data([records_file])
    n = len(data["result"])
    assert n > 40 and data["size"] == 5 and data["sparse"].shape == (n, qn_sparse_inputs(5))
    game = load_game("quoridor", size=5)
    record = json.loads(records_file.read_text().splitlines()[0])
    state = game.new_state(" ".join(record["moves"][:data["ply"][0]]))
    assert np.array_equal(data["sparse"][0], inputs(state)) and np.array_equal(data["features"][0], features(state))


def test_train_net_fits_and_the_file_is_what_c_computes(records_file, net_file, capsys):
    data = records_data([records_file])
    report = train_net(data, units=8, passes=4, seed=2, linear_epochs=100)
    assert report.model.net.units == 8 and report.val_positions > 0
    assert report.history[-1][0] == "net"
    # the quantised network the report scores is the one C computes
    weights = quoridor_weights.c_weights(report.model)
    game = load_game("quoridor", size=5)
    lin = np.asarray(report.model.linear, np.float64)
    for state in random_positions(5, 3, 9, 30):
        if state.is_terminal():
            break
        z = features(state) @ lin + net_share(report.model.net, inputs(state)[None])[0]
        assert q_learned_logits(state.core, weights) == pytest.approx(z, abs=1e-4)
    assert game.size == quoridor_weights.load(net_file)[0].net.size == 5


def test_net_eval_searches_everywhere(net_file, capsys):
    state = load_game("quoridor", size=5).new_state("c2 c4")
    net = dict(eval="net", eval_file=net_file)
    a = search(state, "alphabeta", Limits(depth=4), **net)
    assert a.move in state.legal_moves()
    assert (a.score, a.nodes) != (lambda r: (r.score, r.nodes))(search(state, "alphabeta", Limits(depth=4)))
    assert search(state, "mcts", Limits(sims=100), seed=1, **net).move in state.legal_moves()
    assert main(["best", "quoridor", "--size", "5", "--moves", "c2 c4", "--depth", "3",
                 "-e", "eval=net", "-e", f"eval_file={net_file}"]) == 0
    capsys.readouterr()
    # a network is for the board it was trained on
    with pytest.raises(CrossridorError, match="trained on 5x5, not 9x9"):
        search(load_game("quoridor").new_state(), "alphabeta", Limits(depth=1), **net)


def test_net_eval_in_a_match(net_file):
    from crossridor.engine.match.pool import InlineExecutor
    from crossridor.engine.match.runner import MatchConfig, run_match
    from crossridor.engine.match.specs import EngineSpec
    engines = [EngineSpec.parse(f"alphabeta:depth=2,eval=net,eval_file={net_file}"),
               EngineSpec.parse("alphabeta:depth=2")]
    result = run_match(MatchConfig(game="quoridor", params={"size": 5}, engines=engines, games=2,
                                   random_openings=2, seed=7), executor=InlineExecutor())
    assert result.tally.games == 2


def test_shipped_network_over_uci_and_best(capsys):
    import io

    from crossridor.engine.uci.engine import UciSession
    model, size = quoridor_weights.loads(quoridor_weights.resources.files("crossridor.games.quoridor")
                                         .joinpath("data", quoridor_weights.SHIPPED_NET).read_bytes())
    assert size == 9 and model.net.size == 9 and model.net.units > 0
    state = load_game("quoridor").new_state("e2 e8")
    out = io.StringIO()
    session = UciSession(load_game("quoridor"), out)
    for line in ("setoption name eval value net", "position startpos moves e2 e8", "go depth 3"):
        session.handle(line)
    session.wait()
    session.finish()
    best = [line.split()[1] for line in out.getvalue().splitlines() if line.startswith("bestmove")]
    assert best == [str(search(state, "alphabeta", Limits(depth=3), eval="net").move)]
    assert main(["best", "quoridor", "--moves", "e2 e8", "--depth", "3", "-e", "eval=net"]) == 0
    assert best[0] in capsys.readouterr().out


def test_train_net_errors_are_one_line(records_file, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"game": "quoridor"}\n')
    cases = [
        (["--net", "8", str(tmp_path / "x.npz")], "game records (.jsonl"),
        (["--net", "33", str(records_file)], "--net must be <= 32"),
        (["--net", "-1", str(records_file)], "--net must be >= 0"),
        (["--net", "4", "--hidden", "4", str(records_file)], "two models"),
        (["--net", "4", str(bad)], "bad.jsonl:1: not a quoridor game record"),
        (["--net", "4", str(tmp_path / "none.jsonl")], "cannot read"),
    ]
    for extra, message in cases:
        assert main(["train", "quoridor", "--out", str(tmp_path / "w.bin"), *extra]) == 2
        err = capsys.readouterr().err
        assert err.startswith("crossridor: error:") and message in err and err.count("\n") == 1, err


def test_net_option_errors(tmp_path):
    linear = tmp_path / "linear.bin"
    quoridor_weights.save(str(linear), Model.of([0.1] * 14), 9)
    state = load_game("quoridor").new_state()
    with pytest.raises(CrossridorError, match="holds no network"):
        search(state, "alphabeta", Limits(depth=1), eval="net", eval_file=str(linear))
    with pytest.raises(CrossridorError, match="2-player"):
        search(load_game("quoridor", players=4).new_state(), "alphabeta", Limits(depth=1), eval="net")
    with pytest.raises(CrossridorError, match="trained on 9x9, not 7x7"):
        search(load_game("quoridor", size=7).new_state(), "alphabeta", Limits(depth=1), eval="net")
