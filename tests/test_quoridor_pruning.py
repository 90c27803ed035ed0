"""Late-move pruning and reverse futility pruning (quoridor_search.pxi):
near the horizon, in a null window, the walls ordered late are not tried
once a move that does not lose is found, and a static score far above beta
cuts off. Each makes the tree smaller, and neither turns a position
into a false forced win or loss: with every wall tried below the root
(prune_walls=False), every result alpha-beta proves agrees with the exact
solver. (The selective walls alone, which try only walls across an
opponent's shortest paths, can miss a defending wall on small boards.)"""

from __future__ import annotations

import random

import pytest

import crossridor
from crossridor import Limits
from crossridor.games.quoridor.solve import Solver, decode

WIN = 99000          # alpha-beta scores beyond this are forced wins (S_WIN_BOUND)
MIDGAME = "e2 e8 e3 e7 e4 e6 d3h f6 e5 d5h f3h f5 g5 f5h"


def ab(state, depth, **options):
    return crossridor.search(state, "alphabeta", Limits(depth=depth), **options)


@pytest.mark.parametrize("option", ["lmp", "rfp"])
def test_pruning_makes_the_tree_smaller(option):
    state = crossridor.load_game("quoridor").new_state(MIDGAME)
    pruned, full = ab(state, 7), ab(state, 7, **{option: False})
    assert pruned.nodes < full.nodes
    assert pruned.move in state.legal_moves()


@pytest.mark.parametrize("size,walls,seed", [(3, 4, 1), (3, 10, 2), (5, 2, 3)])
def test_proven_results_agree_with_the_solver(size, walls, seed):
    game = crossridor.load_game("quoridor", size=size, walls=walls)
    solver = Solver(size)
    rng = random.Random(seed)
    proven = 0
    for _ in range(120):
        state = game.new_state()
        for _ in range(rng.randrange(2, 14)):
            moves = state.legal_moves()
            state.play(rng.choice(moves))
            if state.is_terminal():
                break
        if state.is_terminal():
            continue
        for depth in (4, 6, 8):      # shallow: pruned nodes lie next to the root
            r = ab(state, depth, prune_walls=False)   # the selective walls alone can miss a defence
            if abs(r.score) > WIN:
                outcome, _ = decode(solver.value(state.core))
                assert outcome == (1 if r.score > 0 else -1), (state.position(), depth)
                proven += 1
    assert proven >= 40        # the check ran on enough proven positions
