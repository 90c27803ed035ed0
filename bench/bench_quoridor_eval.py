"""Cost per call of Quoridor's evaluations: the classic one
(quoridor_eval.pxi) next to the learned one (quoridor_features.pxi), both
timed in C over the same positions.

    python3 bench/bench_quoridor_eval.py          # a table, ns per call
    python3 -m pytest bench/bench_quoridor_eval.py --benchmark-only

The cost of the learned evaluation does not depend on the weights' values,
so the classic weights (written over the features) stand in when no
trained file is given; with them both evaluations return the same score,
which each benchmark checks."""

from __future__ import annotations

import sys

import pytest

import crossridor
from crossridor.engine._core import QuoridorWeights, q_time_eval
from crossridor.engine.bench import POSITIONS
from crossridor.games.quoridor_learn import CLASSIC_WEIGHTS

CALLS = 200_000
CASES = {"start": "", "middlegame": next(p.moves for p in POSITIONS if p.name == "middlegame"),
         "wall_heavy": "e2 e8 e3h c6h a3h g6h e3 e7 d7v f2v b5h h4h c1v e6 d3 f4v a6h g2h c4v f7h"}


def core(moves: str):
    return crossridor.load_game("quoridor").new_state(moves).core


def weights(path: str | None = None) -> QuoridorWeights:
    if path is None:
        return QuoridorWeights(CLASSIC_WEIGHTS.astype("float32"))
    from crossridor.games.quoridor_weights import weights_for_search
    return weights_for_search(path)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("kind", ["classic", "learned"])
def test_eval(benchmark, name, kind):
    c = core(CASES[name])
    w = weights() if kind == "learned" else None
    seconds, total = benchmark(q_time_eval, c, 10_000, w)
    benchmark.extra_info["calls_per_round"] = 10_000
    assert total == q_time_eval(c, 10_000, None if w is not None else weights())[1]


def main(argv: list[str]) -> None:
    w = weights(argv[0] if argv else None)
    print(f"{'position':<12} {'classic ns':>11} {'learned ns':>11} {'ratio':>6}   ({CALLS} calls each)")
    for name, moves in CASES.items():
        c = core(moves)
        classic = min(q_time_eval(c, CALLS)[0] for _ in range(3)) / CALLS * 1e9
        learned = min(q_time_eval(c, CALLS, w)[0] for _ in range(3)) / CALLS * 1e9
        print(f"{name:<12} {classic:>11.1f} {learned:>11.1f} {learned / classic:>6.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
