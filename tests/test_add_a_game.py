"""examples/add_a_game.py: a game written against the protocol alone is
searched by the generic alpha-beta, MCTS and greedy, which find Nim's known
best moves; and docs/add-a-game.md shows that file as it is."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

import crossridor
from crossridor import Limits
from crossridor.engine.algorithms.alphabeta import WIN
from helpers import HANG

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "add_a_game.py"


def example():
    spec = importlib.util.spec_from_file_location("add_a_game", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NIM = example().Nim


@pytest.mark.parametrize("sticks", range(1, 14))
def test_alphabeta_solves_nim(sticks):
    r = crossridor.search(NIM(sticks).new_state(), "alphabeta", Limits(depth=sticks))
    if sticks % 4:
        # the winner leaves a multiple of 4 and takes the last stick on ply 2 * (sticks // 4) + 1
        assert r.move == sticks % 4 and r.score == WIN - (2 * (sticks // 4) + 1)
    else:
        assert r.score == -(WIN - 2 * (sticks // 4))      # lost: every move loses, as late as possible


@pytest.mark.parametrize("sticks", [5, 6, 7, 9, 10, 11])
def test_mcts_and_greedy_find_the_winning_move(sticks):
    state = NIM(sticks).new_state()
    r = crossridor.search(state, "mcts", Limits(sims=2000), seed=1)
    assert r.move == sticks % 4 and r.score > 0.5
    r = crossridor.search(state, "greedy", Limits(depth=1))
    assert r.move == sticks % 4 and r.score == 1.0                # by the example's evaluate()
    assert state.sticks == sticks and state.taken == []           # searches leave the state as it was


def test_greedy_without_evaluate_sees_only_wins():
    state = NIM(3).new_state()
    assert crossridor.search(state, "greedy", Limits(depth=1), evaluator=lambda s: [0.0, 0.0]).move == 3


def test_moves_and_errors():
    state = NIM(10).new_state("2 3")
    assert state.sticks == 5 and state.current_player == 0
    with pytest.raises(crossridor.InvalidMoveError):
        state.play("4")
    with pytest.raises(crossridor.IllegalMoveError):
        NIM(2).new_state().play("3")
    state = NIM(2).new_state("2")
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    with pytest.raises(crossridor.CrossridorError):
        crossridor.search(state, "alphabeta", Limits(depth=1))


def test_the_script_runs():
    out = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=HANG, check=True)
    lines = out.stdout.splitlines()
    assert [line.split()[:3] for line in lines] == [["alphabeta", "take", "2"], ["mcts", "take", "2"],
                                                    ["greedy", "take", "2"]]


def test_the_docs_page_shows_the_example_as_it_is():
    page = (ROOT / "docs" / "add-a-game.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", page, re.S)
    assert blocks and blocks[0] == EXAMPLE.read_text(encoding="utf-8")
