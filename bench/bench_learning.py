"""Speed of the learning interface: observation tensors per second for 9x9
Quoridor, filled in a batch by the core and one at a time.

    python3 bench/bench_learning.py              # prints tensors/s
    python3 -m pytest bench/bench_learning.py --benchmark-only

The states are the positions of seeded random games (walls on the board, so
the distance fields have work to do)."""

from __future__ import annotations

import random
import sys
import time

import numpy as np

import crossridor
from crossridor.games.quoridor.learning import observation_batch


def positions(count: int = 1024, seed: int = 1) -> list:
    game = crossridor.load_game("quoridor")
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_state()
        for _ in range(rng.randrange(5, 60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            out.append(state)
    return out


def rate(fn, count: int, seconds: float = 2.0) -> float:
    """Tensors per second over repeated calls of fn (each makes `count`)."""
    fn()
    calls, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        fn()
        calls += 1
    return calls * count / (time.perf_counter() - t0)


def test_batch(benchmark):
    states = positions(256)
    out = np.empty((len(states), 10, 9, 9), np.float32)
    result = benchmark(observation_batch, states, None, out)
    assert np.array_equal(result[7], states[7].observation_tensor())


def test_single(benchmark):
    state = positions(1)[0]
    assert benchmark(state.observation_tensor, 0).shape == (10, 9, 9)


if __name__ == "__main__":
    states = positions(1024)
    out = np.empty((len(states), 10, 9, 9), np.float32)
    batch = rate(lambda: observation_batch(states, None, out), len(states))
    single = rate(lambda: [s.observation_tensor() for s in states[:256]], 256)
    print(f"9x9 Quoridor observation tensors: batch of {len(states)}: {batch:,.0f}/s; "
          f"one at a time: {single:,.0f}/s", file=sys.stdout)
