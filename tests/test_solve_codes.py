"""The solver's stored values (solve_codes.pxi): a layer's values coded as
their differences from the race prediction, run-length coded, decode to the
same bytes; a code that is not one is refused, never read past its end."""

import random

import numpy as np
import pytest

import crossridor
from crossridor.engine._core import QuoridorSolver
from crossridor.games.quoridor.solve import Solver

BOARDS = [(3, 3), (2, 3), (4, 7), (5, 5), (9, 3), (7, 7), (9, 9)]


def some_keys(solver, rng, count):
    """Stored forms of wall configurations of the board: a few anchors each."""
    anchors = [r * 8 + c for r in range(solver.height - 1) for c in range(solver.width - 1)]
    keys = []
    for _ in range(count):
        hw = vw = 0
        for a in rng.sample(anchors, min(len(anchors), rng.randrange(4))):
            if rng.random() < 0.5:
                hw |= 1 << a
            else:
                vw |= 1 << a
        keys.append((hw, vw, 0, 0))
    return keys


@pytest.mark.parametrize("width,height", BOARDS)
def test_any_values_decode_to_themselves(width, height):
    solver = QuoridorSolver(width, height)
    rng = random.Random(width * 10 + height)
    nrng = np.random.default_rng(width * 10 + height)
    for key in some_keys(solver, rng, 6):
        for values in (nrng.integers(-128, 128, solver.nodes, dtype=np.int8),     # nothing like a race
                       np.zeros(solver.nodes, dtype=np.int8),
                       np.where(nrng.random(solver.nodes) < 0.9, 0, nrng.integers(-128, 128, solver.nodes))
                       .astype(np.int8)):
            code = solver.encode(key, values)
            assert len(code) <= solver.nodes + solver.nodes // 128 + 1
            out = np.empty(solver.nodes, dtype=np.int8)
            solver.decode(key, np.frombuffer(code, dtype=np.uint8), out)
            assert (out == values).all()


def test_solved_layers_decode_to_their_values_and_are_small():
    """The values of every layer of 5x5 with 2 walls, decoded and coded
    again: the same code; and a race layer's code is a fraction of it."""
    solver = Solver(5, keep=True)
    solver.value(crossridor.load_game("quoridor", size=5, walls=2).new_state().core)
    run = solver._runs[0]
    core = solver._core
    row = np.empty(core.nodes, dtype=np.int8)
    for level in run.keys:
        keys, stored = run.keys[level], run.values[level]
        assert stored is not None
        for i in range(0, len(keys), 37):
            code = np.ascontiguousarray(stored.code(i))
            core.decode(tuple(int(x) for x in keys[i]), code, row)
            assert core.encode(tuple(int(x) for x in keys[i]), row) == code.tobytes()
            assert -128 < int(row.min()) and int(row.max()) < 128
    race = run.values[4]            # no wall left: a race, mostly what the prediction says
    assert race.codes.nbytes < len(run.keys[4]) * core.nodes / 5


def test_a_code_that_is_not_one_is_refused():
    solver = QuoridorSolver(5, 5)
    key = (0, 0, 0, 0)
    out = np.empty(solver.nodes, dtype=np.int8)
    good = np.frombuffer(solver.encode(key, np.zeros(solver.nodes, dtype=np.int8)), dtype=np.uint8)
    bad_codes = [good[:-1], np.concatenate([good, good]), np.array([0xFF, 1, 2], dtype=np.uint8),
                 np.zeros(0, dtype=np.uint8), np.full(40, 0x7F, dtype=np.uint8)]
    rng = np.random.default_rng(7)
    bad_codes += [rng.integers(0, 256, rng.integers(1, 3000), dtype=np.uint8) for _ in range(200)]
    refused = 0
    for code in bad_codes:
        try:
            solver.decode(key, np.ascontiguousarray(code), out)
        except ValueError as exc:
            assert "corrupt" in str(exc)
            refused += 1
    assert refused >= 5 + 190          # a random string is almost never a whole layer's code
    with pytest.raises(ValueError, match="not a wall configuration"):
        solver.decode((1 << 40, 0, 0, 0), good, out)
    with pytest.raises(ValueError, match="values"):
        solver.decode(key, good, np.empty(3, dtype=np.int8))
