"""Scores people read (`crossridor.engine.outlook`): proven results as wins
and losses in n plies, the calibrated expected score and win/draw/loss
chances, their place in every search's lines, `best`, UCI (UCI_ShowWDL) and
the web app's answer, and the calibration script (bench/calibrate_outlook.py)."""

from __future__ import annotations

import importlib.util
import io
import json
import math
import random
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import numpy as np
import pytest

import crossridor
from crossridor.engine.algorithms.alphabeta import WIN
from crossridor.engine.outlook import Model, Outlook, model_input, outlook, score_text, sides
from crossridor.engine.protocol import Limits, Line
from crossridor.engine.uci.engine import UciSession
from helpers import run_cli
from toy_games import Nim

BENCH = Path(__file__).resolve().parent.parent / "bench"


def run_json(*argv):
    status, out, err = run_cli(*argv, "--json")
    assert status == 0 and err == ""
    return json.loads(out)


def calibrate_module():
    spec = importlib.util.spec_from_file_location("calibrate_outlook", BENCH / "calibrate_outlook.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- proven results -------------------------------------------------------------------------

def test_a_forced_quoridor_win_and_loss_are_read_as_plies():
    # player 1 on c4 of a 5x5 board wins with c5 (1 ply)
    state = crossridor.load_game("quoridor", size=5).state_from_position("5x2:c4,a2:0,0::1")
    result = crossridor.search(state, "alphabeta", Limits(depth=3))
    seen = result.outlook
    assert seen == Outlook(1.0, (1000, 0, 0), 1, proven=True)
    assert seen.text() == "wins in 1 ply"
    assert result.lines[0].outlook is seen
    # player 2 to move, no walls: player 1 wins on the next ply whatever happens
    state = crossridor.load_game("quoridor", size=5).state_from_position("5x2:c4,a4:0,0::2")
    seen = crossridor.search(state, "alphabeta", Limits(depth=3)).outlook
    assert (seen.expected, seen.wdl, seen.result_in, seen.text()) == (0.0, (0, 0, 1000), -2, "loses in 2 plies")


def test_the_engine_alphabeta_win_scores_are_proven_results():
    state = Nim(heaps=(2,)).new_state()
    result = crossridor.search(state, "alphabeta", Limits(depth=4))
    assert result.score == WIN - 1 and result.outlook.result_in == 1 and result.outlook.expected == 1.0
    assert outlook(state, "alphabeta", -(WIN - 3)).result_in == -3
    # the same score from a search that does not prove anything is only a (very good) score
    assert outlook(state, "mcts", 0.9).result_in is None


def test_a_solved_table_answer_is_proven():
    state = crossridor.load_game("quoridor").new_state()
    draw = outlook(state, "mcts", 0.0, {"source": "table"})
    assert draw == Outlook(0.5, (0, 1000, 0), None, proven=True) and draw.text() == "a draw, proven"
    assert outlook(state, "mcts", 99_990.0, {"source": "table"}).result_in == 10
    assert outlook(state, "mcts", 0.0).proven is False


def test_qwatrobat_solver_wins_and_loses_in_the_plies_left():
    game = crossridor.load_game("qwatrobat", open=True, first=1)
    results = set()
    for seed in (0, 1):
        rng = random.Random(seed)
        state = game.new_state()
        while state.current_player < 0 or state.layout[1] is None:
            state.play(rng.choice(state.legal_moves()))
        for _ in range(8):
            state.play(rng.choice(state.legal_moves()))
        # the exact solver searches to the end whatever the limits
        result = crossridor.search(state, "alphabeta", Limits(depth=1))
        margin = crossridor.search(state, "alphabeta", Limits(depth=1), objective="margin")
        seen = result.outlook
        assert result.extra["solved"] and seen.proven and seen.result_in is not None
        assert margin.outlook == seen and seen.expected == (1.0 + result.score) / 2
        results.add(result.score)
        left = 0
        while not state.is_terminal():
            state.play(state.legal_moves()[0])
            left += 1
        assert abs(seen.result_in) == left == 8
    assert results == {1.0, -1.0}
    # stopped before a value: nothing proven
    state = game.new_state()
    assert outlook(state, "alphabeta", 0.0, {"solved": False}).proven is False
    assert outlook(state, "alphabeta", 0.0, {"solved": True}) == Outlook(0.5, (0, 1000, 0), None, proven=True)


# --- the calibrated reading --------------------------------------------------------------------

def positions():
    """(state, algorithm) of every game's default search, and of the other searches with a model."""
    rng = random.Random(1)
    out = []
    for name, params, algorithm in [("quoridor", {}, "alphabeta"), ("quoridor", {}, "mcts"),
                                    ("quoridor", {"players": 4}, "alphabeta"),
                                    ("crosswise", {}, "ismcts"), ("crosswise", {"players": 4}, "ismcts"),
                                    ("qwatrobat", {}, "ismcts"), ("kreuzundquer", {}, "ismcts"),
                                    ("kreuzundquer", {"players": 3}, "ismcts")]:
        game = crossridor.load_game(name, **params)
        state = game.new_state(seed=rng.randrange(1000)) if game.traits.hidden_information else game.new_state()
        out.append((state, algorithm))
    return out


@pytest.mark.parametrize("state, algorithm", positions(), ids=lambda v: getattr(v, "__name__", str(v))[:30])
def test_the_expected_score_rises_with_the_score_and_the_chances_sum_to_1000(state, algorithm):
    scale = 100.0 if algorithm == "alphabeta" else 0.01     # centi-steps or a mean return
    scores = [scale * x for x in range(-300, 301, 7)]
    seen = [outlook(state, algorithm, s) for s in scores]
    assert all(sum(o.wdl) == 1000 and min(o.wdl) >= 0 for o in seen)
    assert all(0.0 <= o.expected <= 1.0 and o.result_in is None for o in seen)
    expected = [o.expected for o in seen]
    wins = [o.wdl[0] for o in seen]
    assert expected == sorted(expected) and wins == sorted(wins)
    assert expected[-1] > expected[0]


@pytest.mark.parametrize("state, algorithm", [p for p in positions() if sides(p[0].game.traits) == 2],
                         ids=lambda v: getattr(v, "__name__", str(v))[:30])
def test_two_sides_read_minus_s_as_the_mirror_of_s(state, algorithm):
    for s in (0.0, 0.03, 0.4, 1.0, 37.0, 250.0, 900.0):
        up, down = outlook(state, algorithm, s), outlook(state, algorithm, -s)
        assert down.wdl == up.wdl[::-1]
        assert down.expected == pytest.approx(1.0 - up.expected, abs=1e-12)


def test_the_model_and_the_baseline():
    model = Model(a=50.0, b=100.0)
    w, d, lost = model.chances(50.0, 2)
    assert w == pytest.approx(0.5) and lost == pytest.approx(1 / (1 + math.exp(1.0)))
    assert w + d + lost == pytest.approx(1.0)
    w, d, lost = model.chances(50.0, 4)
    assert (w, d, lost) == (pytest.approx(0.5), 0.0, pytest.approx(0.5))
    with pytest.raises(crossridor.CrossridorError):
        Model(a=0.0, b=0.0)
    with pytest.raises(crossridor.CrossridorError):
        Model(a=0.0, b=1.0, reads="centipawns")
    # a model of a mean return reads the baseline's log-odds: a = 0, b = 1 is the baseline itself
    traits = crossridor.load_game("crosswise").traits
    identity = Model(a=0.0, b=1.0, reads="return")
    for r in (-1.0, -0.6, 0.0, 0.25, 0.9):
        w, d, lost = identity.chances(model_input("return", traits, r, 1.0), 2)
        assert (w, d) == (pytest.approx((r + 1) / 2, abs=2e-6), pytest.approx(0.0, abs=1e-12))
    # an unregistered game: the score read as a mean return (alpha-beta's in centi-units)
    state = Nim().new_state()
    assert outlook(state, "mcts", 0.5) == Outlook(0.75, (750, 0, 250))
    assert outlook(state, "alphabeta", -50.0) == Outlook(0.25, (250, 0, 750))
    # four sides: the fair share is a quarter
    four = crossridor.load_game("quoridor", players=4).new_state()
    assert outlook(four, "random", 0.0).expected == pytest.approx(0.25)
    assert outlook(four, "random", 1.0).expected == 1.0 and outlook(four, "random", -1 / 3).expected == 0.0


def test_every_line_of_a_search_carries_its_outlook_in_python_and_json():
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    result = crossridor.search(state, "alphabeta", Limits(depth=3))
    assert result.outlook == outlook(state, "alphabeta", result.score)
    d = result.as_dict()
    assert d["expected"] == round(result.outlook.expected, 4) and d["wdl"] == list(result.outlook.wdl)
    assert d["result_in"] is None and d["lines"][0]["wdl"] == d["wdl"]
    assert Line("x", 1.0).as_dict().keys() == {"move", "score", "depth", "pv"}


# --- the doors ----------------------------------------------------------------------------------

def test_best_prints_the_expected_score_beside_the_score_and_json_carries_it():
    status, out, err = run_cli("best", "quoridor", "--moves", "e2 e8", "--depth", "3")
    assert status == 0 and err == ""
    line = out.splitlines()[1]
    assert line.startswith("score ") and " expected 0." in line and " (W " in line and " D 0 L " in line
    data = run_json("best", "quoridor", "--moves", "e2 e8", "--depth", "3")
    state = crossridor.load_game("quoridor").new_state("e2 e8")
    seen = outlook(state, "alphabeta", data["score"])
    assert (data["expected"], data["wdl"], data["result_in"]) == (round(seen.expected, 4), list(seen.wdl), None)
    assert sum(data["lines"][0]["wdl"]) == 1000
    status, out, _ = run_cli("best", "quoridor", "--position", "9x2:e8,a5:10,10:-:1", "--depth", "3")
    assert out.splitlines()[1].startswith("score +99999  wins in 1 ply  depth 1  nodes ")


def uci_lines(commands: str) -> list[str]:
    out = io.StringIO()
    session = UciSession(crossridor.load_game("quoridor", size=5), out)
    for line in commands.splitlines():
        session.handle(line)
        session.wait()
    session.finish()
    return out.getvalue().splitlines()


def test_uci_show_wdl_adds_the_chances_to_every_info_line_with_a_score():
    lines = uci_lines("uci\nposition startpos moves c2 c4\ngo depth 3\n")
    assert "option name UCI_ShowWDL type check default false" in lines
    infos = [line for line in lines if line.startswith("info depth")]
    assert len(infos) == 3 and not any(" wdl " in line for line in infos)
    lines = uci_lines("setoption name UCI_ShowWDL value true\nposition startpos moves c2 c4\ngo depth 3\n")
    infos = [line.split() for line in lines if line.startswith("info depth")]
    assert len(infos) == 3
    for words in infos:
        at = words.index("wdl")
        assert words[at - 3] == "score" and words[at - 2] == "cp"
        assert sum(int(x) for x in words[at + 1:at + 4]) == 1000 and words[at + 4] == "nodes"
    lines = uci_lines("setoption name UCI_ShowWDL value true\nposition pos 5x2:c4,a2:0,0::1\ngo depth 3\n"
                      "setoption name UCI_ShowWDL value false\ngo depth 2\nsetoption name UCI_ShowWDL value maybe\n")
    infos = [line for line in lines if line.startswith("info depth")]
    assert " score win 1 wdl 1000 0 0 nodes " in infos[0] and " wdl " not in infos[-1]
    assert lines[-1].startswith("info string error setoption: UCI_ShowWDL: expected true or false")


def test_score_text_is_uci_dialect():
    state = crossridor.load_game("quoridor").new_state()
    assert score_text(state, "alphabeta", 59.0) == "cp 59"
    assert score_text(state, "alphabeta", 99_993.0) == "win 7"
    assert score_text(state, "alphabeta", -99_990.0) == "loss 10"
    assert score_text(state, "mcts", 0.123) == "cp 12"
    assert score_text(Nim().new_state(), "alphabeta", WIN - 5) == "win 5"


# --- the calibration ----------------------------------------------------------------------------

def test_the_fit_recovers_known_constants_on_synthetic_results():
    cal = calibrate_module()
    rng = np.random.default_rng(7)
    s = rng.uniform(-600, 600, 40_000)
    truth = Model(a=80.0, b=150.0)
    chances = np.array([truth.chances(v, 2) for v in s])
    u = rng.random(len(s))
    y = np.where(u < chances[:, 0], 1.0, np.where(u < chances[:, 0] + chances[:, 1], 0.5, 0.0))
    fitted = cal.fit(s, y, 2)
    assert fitted.a == pytest.approx(80.0, rel=0.08) and fitted.b == pytest.approx(150.0, rel=0.05)
    # no draws: a = 0
    y = (rng.random(len(s)) < 1 / (1 + np.exp(-s / 120.0))).astype(float)
    fitted = cal.fit(s, y, 2)
    assert fitted.a == 0.0 and fitted.b == pytest.approx(120.0, rel=0.05)
    # four sides: the chance of winning, with its offset
    truth = Model(a=0.3, b=0.25)
    s = rng.uniform(-1, 1, 40_000)
    y = (rng.random(len(s)) < np.array([truth.chances(v, 4)[0] for v in s])).astype(float)
    fitted = cal.fit(s, y, 4)
    assert fitted.a == pytest.approx(0.3, abs=0.03) and fitted.b == pytest.approx(0.25, rel=0.06)


def test_the_calibration_script_plays_fits_and_reports_on_a_tiny_budget(tmp_path):
    cal = calibrate_module()
    saved = tmp_path / "samples.npz"
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cal.main(["quoridor", "-o", "size=5", "--nodes", "300", "--games", "6", "--seed", "3",
                         "--save", str(saved)])
    text = out.getvalue()
    assert code == 0, err.getvalue()
    assert "fitted: Model(a=0, b=" in text and "reliability" in text
    for label in ("fitted", "declared", "baseline", "constant"):
        assert any(line.split()[:1] == [label] for line in text.splitlines()), text
    rows = [line.split() for line in text.splitlines() if line.strip()[:3] in {f"0.{i}" for i in range(10)}]
    data = np.load(saved)
    assert sum(int(r[1]) for r in rows) == len(data["score"]) > 0
    assert set(np.unique(data["y"])) <= {0.0, 1.0}
    # the saved samples fit again to the same constants
    again = io.StringIO()
    with redirect_stdout(again), redirect_stderr(io.StringIO()):
        assert cal.main(["quoridor", "-o", "size=5", "--load", str(saved)]) == 0
    line = next(x for x in text.splitlines() if x.startswith("fitted:"))
    assert line in again.getvalue().splitlines()
    with redirect_stdout(io.StringIO()), redirect_stderr(err := io.StringIO()):
        assert cal.main(["quoridor", "--games", "1"]) == 2
    assert "--nodes, --sims or --depth" in err.getvalue()


def test_json_of_an_outlook_is_plain():
    seen = Outlook(0.625, (600, 50, 350))
    assert json.loads(json.dumps(seen.as_dict())) == {"expected": 0.625, "wdl": [600, 50, 350],
                                                      "result_in": None, "proven": False}
    assert seen.text() == "expected 0.62 (W 600 D 50 L 350)"


def test_a_rectangular_board_reads_its_own_variant_then_the_9x9_fit():
    from crossridor.games.quoridor.outlook import OUTLOOK
    game = crossridor.load_game("quoridor", size="4x7")
    assert OUTLOOK.variants(game) == ("4x7 2p", "9x9 2p")
    assert OUTLOOK.model(game, "alphabeta") == OUTLOOK.models[("alphabeta", "9x9 2p")]
    seven = crossridor.load_game("quoridor", size=7)
    assert OUTLOOK.model(seven, "alphabeta") == OUTLOOK.models[("alphabeta", "7x7 2p")]
