"""Late-move pruning and reverse futility pruning (quoridor/search.pxi, 9x9
with 2 players, where they were measured stronger): near the horizon, in a
null window, the walls ordered late are not tried once a move that does
not lose is found, and a static score far above beta cuts off. Each makes
the tree smaller, neither turns a position into a false forced win or
loss (a forced result the pruned search proves, the full search proves
too), and the other boards keep their trees."""

from __future__ import annotations

import random

import pytest

import crossridor
from crossridor import Limits
from crossridor.engine._core import WIN_SCORE  # a win in n plies scores WIN_SCORE - n

WIN = 99000          # alpha-beta scores beyond this are forced wins (S_WIN_BOUND)
MIDGAME = "e2 e8 e3 e7 e4 e6 d3h f6 e5 d5h f3h f5 g5 f5h"
OFF = {"lmp": False, "rfp": False}


def ab(state, depth, **options):
    return crossridor.search(state, "alphabeta", Limits(depth=depth), **options)


@pytest.mark.parametrize("option", ["lmp", "rfp"])
def test_pruning_makes_the_tree_smaller(option):
    state = crossridor.load_game("quoridor").new_state(MIDGAME)
    pruned, full = ab(state, 7), ab(state, 7, **{option: False})
    assert pruned.nodes < full.nodes
    assert pruned.move in state.legal_moves()


@pytest.mark.parametrize("params,moves", [({"size": 7}, "d2 d6 d3 d5 c3h d4h"),
                                          ({"players": 4}, "e2 b5 e8 h5 e3 c5 e7 g5 d3h c4v")])
def test_other_boards_keep_their_trees(params, moves):
    state = crossridor.load_game("quoridor", **params).new_state(moves)
    assert ab(state, 5).nodes == ab(state, 5, **OFF).nodes


def late_positions(count, seed):
    """9x9 positions of seeded random games with few walls left in hand,
    where forced results lie within a shallow search."""
    rng = random.Random(seed)
    game = crossridor.load_game("quoridor", walls=4)
    found = []
    while len(found) < count:
        state = game.new_state()
        for _ in range(rng.randrange(24, 60)):
            moves = state.legal_moves()
            steps = [m for m in moves if not m.is_wall]
            state.play(rng.choice(steps if steps and rng.random() < 0.7 else moves))
            if state.is_terminal():
                break
        if not state.is_terminal():
            found.append(state)
    return found


def test_proven_results_are_proven_without_pruning():
    proven = 0
    for state in late_positions(100, seed=3):
        r = ab(state, 8)
        if abs(r.score) > WIN:
            plies = WIN_SCORE - abs(r.score)
            full = ab(state, plies, **OFF)
            assert (full.score > WIN) == (r.score > WIN) and abs(full.score) > WIN, state.position()
            proven += 1
    assert proven >= 15        # the check ran on enough proven positions (22 of these 100)
