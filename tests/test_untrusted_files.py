"""Files the engine is handed and must not trust: learned weights with huge
values, corrupt or poisoned self-play data for `crossridor train`, and the
weights written only when whole."""

from __future__ import annotations

import io
import json
import os
from contextlib import redirect_stderr, redirect_stdout

import numpy as np
import pytest

import crossridor
from crossridor.engine._core import Q_NUM_FEATURES
from crossridor.engine.cli import main as cli
from crossridor.games.quoridor import weights as quoridor_weights
from crossridor.games.quoridor.weights import MAX_WEIGHT, Model, WeightsError
from helpers import selfplay_arrays

WIN_BAND = 99000      # S_WIN_BOUND of the search: beyond it a score is a forced win


def run_cli(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(argv))
    return code, out.getvalue(), err.getvalue()


# --- weights --------------------------------------------------------------------------

def test_a_weights_file_with_huge_finite_values_is_refused_naming_the_file(tmp_path):
    path = tmp_path / "huge.bin"
    body = quoridor_weights.dumps(Model.of([0.5] * Q_NUM_FEATURES), 9)
    values = np.frombuffer(body[24:-4], "<f4").copy()
    values[3] = 3e38
    data = body[:24] + values.tobytes()
    import zlib
    path.write_bytes(data + zlib.crc32(data).to_bytes(4, "little"))
    with pytest.raises(WeightsError, match=r"huge\.bin.*weight 3 is 3e\+38, outside -1000\.\.1000"):
        quoridor_weights.load(str(path))
    with pytest.raises(WeightsError, match="outside"):
        quoridor_weights.dumps(Model.of([3e38] + [0.0] * (Q_NUM_FEATURES - 1)), 9)


@pytest.mark.parametrize("sign", [1, -1])
def test_weights_at_the_bound_never_reach_the_win_band(tmp_path, sign):
    # every weight at the bound, with the largest hidden layer: the score stays clamped
    path = tmp_path / "edge.bin"
    n = Q_NUM_FEATURES
    model = Model.of([sign * MAX_WEIGHT] * n, [[MAX_WEIGHT] * n] * 64, [sign * MAX_WEIGHT] * 64)
    quoridor_weights.save(str(path), model, 5)
    game = crossridor.load_game("quoridor", size=5)
    for moves in ("", "c2 c4", "c2 c4 b1h"):
        result = crossridor.search(game.new_state(moves or None), "alphabeta", crossridor.Limits(depth=1),
                                   eval="learned", eval_file=str(path))
        assert abs(result.score) < WIN_BAND, (moves, result.score)


def test_saving_weights_that_fail_their_check_leaves_the_file_as_it_was(tmp_path):
    path = tmp_path / "w.bin"
    quoridor_weights.save(str(path), Model.of([0.5] * Q_NUM_FEATURES), 9)
    before = path.read_bytes()
    with pytest.raises(WeightsError, match="not a finite number"):
        quoridor_weights.save(str(path), Model.of([float("nan")] * Q_NUM_FEATURES), 9)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["w.bin"]          # no temporary file left


# --- train ----------------------------------------------------------------------------

def selfplay_data(**changes) -> dict:
    """Self-play arrays with single values changed: name=(row, value)."""
    arrays = selfplay_arrays()
    for name, (row, value) in changes.items():
        arrays[name][row] = value
    return arrays


def test_train_on_good_data_writes_the_weights(tmp_path):
    np.savez(tmp_path / "d.npz", **selfplay_data())
    code, out, err = run_cli("train", "quoridor", str(tmp_path / "d.npz"), "--out", str(tmp_path / "w.bin"),
                             "--epochs", "5")
    assert code == 0, err
    quoridor_weights.load(str(tmp_path / "w.bin"))
    assert sorted(os.listdir(tmp_path)) == ["d.npz", "w.bin"]


@pytest.mark.parametrize("changes, message", [
    ({"features": (3, float("nan"))}, "features of row 3 is not a finite number"),
    ({"score": (2, float("inf"))}, "score of row 2 is not a finite number"),
    ({"result": (7, float("nan"))}, "result of row 7 is not a finite number"),
    ({"result": (5, 7.0)}, "result of row 5 is 7, not one of 0, 0.5, 1"),
])
def test_train_refuses_poisoned_data_and_keeps_the_old_weights(tmp_path, changes, message):
    np.savez(tmp_path / "d.npz", **selfplay_data(**changes))
    out = tmp_path / "w.bin"
    quoridor_weights.save(str(out), Model.of([0.25] * Q_NUM_FEATURES), 9)
    before = out.read_bytes()
    code, _, err = run_cli("train", "quoridor", str(tmp_path / "d.npz"), "--out", str(out), "--epochs", "5")
    assert code == 2 and len(err.splitlines()) == 1 and message in err, err
    assert out.read_bytes() == before


def test_train_on_a_truncated_file_is_a_one_line_error(tmp_path):
    np.savez_compressed(tmp_path / "d.npz", **selfplay_data())
    whole = (tmp_path / "d.npz").read_bytes()
    (tmp_path / "d.npz").write_bytes(whole[:len(whole) // 2])
    code, _, err = run_cli("train", "quoridor", str(tmp_path / "d.npz"), "--out", str(tmp_path / "w.bin"))
    assert code == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("crossridor: error: cannot read selfplay data") and "d.npz" in err, err
    assert not (tmp_path / "w.bin").exists()


# --- match --resume -------------------------------------------------------------------

def played_records(tmp_path):
    path = tmp_path / "games.jsonl"
    args = ("match", "quoridor", "--size", "5", "--engine", "greedy", "--engine", "random", "--games", "4",
            "--concurrency", "1", "--seed", "3", "--records", str(path))
    code, _, err = run_cli(*args)
    assert code == 0, err
    return path, args, [json.loads(line) for line in path.read_text().splitlines()]


def write_records(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_resume_accepts_its_own_records_and_an_identical_duplicate(tmp_path):
    path, args, records = played_records(tmp_path)
    write_records(path, records[:2] + [records[1]])
    code, _, err = run_cli(*args, "--resume")
    assert code == 0, err


def test_resume_refuses_a_second_record_of_a_game_with_another_result(tmp_path):
    path, args, records = played_records(tmp_path)
    other = dict(records[1], result="1-0" if records[1]["result"] != "1-0" else "0-1")
    write_records(path, records[:2] + [other])
    code, _, err = run_cli(*args, "--resume")
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "games.jsonl', line 3: game 1 again" in err and "corrupt" in err, err


@pytest.mark.parametrize("mangle, message", [
    (lambda r: dict(r, moves=r["moves"][:2] + ["z9"] + r["moves"][3:]), "does not replay"),
    (lambda r: dict(r, moves=r["moves"][:-1], plies=r["plies"] - 1), "do not end the game"),
    (lambda r: dict(r, moves=r["moves"] + ["c1"], plies=r["plies"] + 1), "the game is over"),
])
def test_resume_replays_each_record_and_names_the_bad_line(tmp_path, mangle, message):
    path, args, records = played_records(tmp_path)
    assert records[1]["reason"] == "terminal"
    write_records(path, [records[0], mangle(records[1])])
    code, _, err = run_cli(*args, "--resume")
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "games.jsonl', line 2: game 1 does not replay" in err and message in err, err


def test_resume_names_a_record_field_of_the_wrong_type(tmp_path):
    path, args, records = played_records(tmp_path)
    for field, value, kind in [("moves", [1, 2], "a list of strings"), ("index", 1.0, "a whole number")]:
        write_records(path, [records[0], dict(records[1], **{field: value})])
        code, _, err = run_cli(*args, "--resume")
        assert code == 2 and len(err.splitlines()) == 1, err
        assert f"games.jsonl', line 2: not a game record (record field {field!r} must be {kind}" in err, err


def test_resume_names_a_line_nested_too_deeply_or_not_a_number(tmp_path):
    path, args, records = played_records(tmp_path)
    for line in ["[" * 100_000 + "]" * 100_000, json.dumps(records[1]).replace('"seed": ', '"seed": NaN, "x": ', 1)]:
        path.write_text(json.dumps(records[0]) + "\n" + line + "\n")
        code, _, err = run_cli(*args, "--resume")
        assert code == 2 and len(err.splitlines()) == 1, err
        assert "games.jsonl', line 2: not a game record" in err, err
