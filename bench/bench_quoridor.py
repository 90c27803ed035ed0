"""Speed of the Quoridor core (pytest-benchmark; not run by the default pytest):

    python3 -m pytest bench/ --benchmark-only

Each benchmark also checks its result, so a fast wrong answer is not a win."""

from __future__ import annotations

import pytest

import crossridor
from crossridor import Limits
from crossridor.engine.bench import POSITIONS
from crossridor.engine.perft import perft

MIDDLEGAME = next(p.moves for p in POSITIONS if p.name == "middlegame")
# 14 walls placed, 6 left: many wall candidates need the path check
WALL_HEAVY = ("e2 e8 e3h c6h a3h g6h e3 e7 d7v f2v b5h h4h c1v e6 d3 f4v "
              "a6h g2h c4v f7h")


def state(moves="", **params):
    return crossridor.load_game("quoridor", **params).new_state(moves)


def test_movegen_start(benchmark):
    core = state().core
    assert len(benchmark(core.legal_codes)) == 131


def test_movegen_middlegame(benchmark):
    core = state(MIDDLEGAME).core
    assert len(benchmark(core.legal_codes)) == len(state(MIDDLEGAME).legal_moves())


def test_wall_legality_wall_heavy(benchmark):
    s = state(WALL_HEAVY)
    assert benchmark(s.core.count_moves) == len(s.legal_moves())


def test_make_unmake(benchmark):
    core = state("e2 e8 e3").core
    codes = core.legal_codes()

    def make_unmake():
        for code in codes:
            core.play(code)
            core.undo()

    benchmark(make_unmake)
    benchmark.extra_info["moves_per_round"] = len(codes)
    assert core.ply == 3


def test_perft3_start(benchmark):
    assert benchmark(perft, state(), 3) == 2062264


def test_perft3_middlegame(benchmark):
    s = state(MIDDLEGAME)
    expected = perft(s, 3)
    assert benchmark(perft, s, 3) == expected


def test_alphabeta_depth5(benchmark):
    s = state("e2 e8")
    result = benchmark(crossridor.search, s, "alphabeta", Limits(depth=5))
    assert result.depth == 5
    benchmark.extra_info["nodes"] = result.nodes


@pytest.mark.parametrize("rollout", ["random"])
def test_mcts_2000_sims(benchmark, rollout):
    s = state()
    result = benchmark(crossridor.search, s, "mcts", Limits(sims=2000), seed=1, rollout=rollout)
    assert result.nodes == 2000
