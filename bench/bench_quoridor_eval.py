"""Cost per call of Quoridor's evaluations: the classic one
(quoridor/eval.pxi) next to the learned one (quoridor/features.pxi), both
timed in C over the same positions.

    python3 bench/bench_quoridor_eval.py [WEIGHTS]   # a table, ns per call
    python3 -m pytest bench/bench_quoridor_eval.py --benchmark-only

The learned evaluation is timed with the shipped weights (or WEIGHTS):
its cost depends on their shape (hidden units), not on their values. The
table also times the linear model alone (the classic weights written over
the features, which must give the classic score: each benchmark checks)."""

from __future__ import annotations

import sys

import pytest

import crossridor
from crossridor.engine._core import QuoridorWeights, q_learned_eval, q_time_eval
from crossridor.engine.bench import POSITIONS
from crossridor.games.quoridor.training import CLASSIC_WEIGHTS

CALLS = 200_000
CASES = {"start": "", "middlegame": next(p.moves for p in POSITIONS if p.name == "middlegame"),
         "wall_heavy": "e2 e8 e3h c6h a3h g6h e3 e7 d7v f2v b5h h4h c1v e6 d3 f4v a6h g2h c4v f7h"}


def core(moves: str):
    return crossridor.load_game("quoridor").new_state(moves).core


def linear() -> QuoridorWeights:
    return QuoridorWeights(CLASSIC_WEIGHTS.astype("float32"))


def learned(path: str | None = None) -> QuoridorWeights:
    from crossridor.games.quoridor.weights import weights_for_search
    return weights_for_search(path)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("kind", ["classic", "linear", "learned"])
def test_eval(benchmark, name, kind):
    c = core(CASES[name])
    w = {"classic": None, "linear": linear(), "learned": learned()}[kind]
    seconds, total = benchmark(q_time_eval, c, 10_000, w)
    benchmark.extra_info["calls_per_round"] = 10_000
    if kind == "learned":
        assert total == 10_000 * q_learned_eval(c, w)
    else:   # the linear model with the classic weights is the classic evaluation
        assert total == q_time_eval(c, 10_000, linear() if w is None else None)[1]


def main(argv: list[str]) -> None:
    w = learned(argv[0] if argv else None)
    print(f"learned: {len(w.hidden)} hidden units; linear: the features' dot product alone")
    print(f"{'position':<12} {'classic ns':>11} {'linear ns':>10} {'learned ns':>11} {'ratio':>6}   "
          f"({CALLS} calls each, best of 3)")
    for name, moves in CASES.items():
        c = core(moves)
        ns = [min(q_time_eval(c, CALLS, x)[0] for _ in range(3)) / CALLS * 1e9 for x in (None, linear(), w)]
        print(f"{name:<12} {ns[0]:>11.1f} {ns[1]:>10.1f} {ns[2]:>11.1f} {ns[2] / ns[0]:>6.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
