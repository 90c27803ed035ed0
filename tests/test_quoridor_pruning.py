"""The pruning of Quoridor's alpha-beta (quoridor/search.pxi: selective walls,
late-move reductions and pruning, reverse futility pruning, null move) turns
no position into a false forced result: every forced win or loss the search
proves in seeded late 9x9 two-player positions (where all of them are on),
a full-width oracle proves too, in the same number of plies. The oracle is
the pure-Python alpha-beta of the game protocol (no pruning but alpha-beta
cut-offs; exact at a fixed depth)."""

from __future__ import annotations

import random

import crossridor
from crossridor import Limits
from crossridor.engine._core import WIN_SCORE  # a win in n plies scores WIN_SCORE - n
from crossridor.engine.algorithms import alphabeta
from crossridor.engine.options import check_params

WIN = 99000          # alpha-beta scores beyond this are forced wins (S_WIN_BOUND)
ORACLE_NODES = 200_000


def late_positions(count, seed, walls_in_hand):
    """9x9 positions of seeded random games (4 walls each at the start), late
    enough that forced results lie within a shallow search; with
    `walls_in_hand`, only those where someone still has a wall to place."""
    rng = random.Random(seed)
    game = crossridor.load_game("quoridor", walls=4)
    found = []
    while len(found) < count:
        state = game.new_state()
        for _ in range(rng.randrange(30, 70)):
            moves = state.legal_moves()
            steps = [m for m in moves if not m.is_wall]
            state.play(rng.choice(steps if steps and rng.random() < 0.75 else moves))
            if state.is_terminal():
                break
        if not state.is_terminal() and (any(state.walls_left) or not walls_in_hand):
            found.append(state)
    return found


def oracle(state, plies):
    """The full-width value within `plies`, or None past ORACLE_NODES."""
    options = check_params("oracle", {}, alphabeta.OPTIONS)
    result = alphabeta.search(state.clone(), Limits(depth=plies, nodes=ORACLE_NODES), **options)
    return result.score if result.depth == plies else None


def test_proven_results_are_proven_by_a_full_width_search():
    checked = with_walls = 0
    for walls_in_hand, count, seed in ((True, 200, 7), (False, 60, 3)):
        for state in late_positions(count, seed, walls_in_hand):
            r = crossridor.search(state, "alphabeta", Limits(depth=7))
            if abs(r.score) <= WIN:
                continue
            plies = WIN_SCORE - abs(r.score)
            exact = oracle(state, plies)
            if exact is None:
                continue
            assert abs(exact) >= alphabeta.MATE_BAND and (exact > 0) == (r.score > 0), state.position()
            assert alphabeta.WIN - abs(exact) == plies, state.position()
            checked += 1
            with_walls += walls_in_hand
    # the check ran on enough proven positions (these seeds: 25, 18 of them with walls in hand)
    assert with_walls >= 12 and checked >= 20
