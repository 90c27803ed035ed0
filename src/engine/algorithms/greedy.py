"""Greedy 1-ply search: play each legal move and keep the one whose result
is best for the mover: `returns()[mover]` if the game is over, else
`evaluate()[mover]` (or the `evaluator` option; 0 if neither exists). A
move that leads to a chance node is valued by the expectation over the
chance outcomes (one level). Ties go to the first move in `legal_moves()`
order, or to a seeded random one with `random_ties=True`.

With hidden information the evaluation runs on the real state, so the
game's `evaluate()` should use only what the mover knows.

Limits are accepted and not needed (one ply is always searched).
Result: score in return units for the mover, depth 1, nodes = positions
visited (root included). ``lines`` (``multipv=N``): the N best moves by the
same value, best first (the chosen move, then the rest by value, ties in
`legal_moves()` order). ``searchmoves``: only those moves are valued.
Options: `OPTIONS`.
"""

from __future__ import annotations

import random

from crossridor.engine.algorithms.common import EVALUATOR, check_root, evaluator_for, move_list, now, traits_of
from crossridor.engine.options import ROOT_OPTIONS, Param
from crossridor.engine.protocol import CHANCE, TERMINAL, GameTraits, Limits, Line, SearchResult

__all__ = ["search", "check_game", "OPTIONS"]

OPTIONS = (
    Param("random_ties", bool, False, "a tie goes to a seeded random one of the best moves "
          "(false: to the first in legal_moves() order)"),
    EVALUATOR,
    *ROOT_OPTIONS,
)


def check_game(traits: GameTraits) -> None:
    """Every game: without an evaluation only wins are seen."""


def search(state, limits: Limits, seed: int | None = None, **opts) -> SearchResult:
    """`opts`: every option of `OPTIONS`, checked."""
    check_game(traits_of(state))
    mover = check_root("greedy", state)
    start = now()
    st = state.clone()
    evalf = evaluator_for(st, opts["evaluator"])
    nodes = 1

    def value(depth=0):
        nonlocal nodes
        nodes += 1
        p = st.current_player
        if p == TERMINAL:
            return st.returns()[mover]
        if p == CHANCE and depth < 1:
            total = 0.0
            for o, prob in st.chance_outcomes():
                st.play(o)
                total += prob * value(depth + 1)
                st.undo()
            return total
        return 0.0 if evalf is None else evalf(st)[mover]

    best: float | None = None
    best_moves: list = []
    valued: list = []
    for m in move_list(st) if opts["searchmoves"] is None else opts["searchmoves"]:
        st.play(m)
        v = value()
        st.undo()
        valued.append((m, v))
        if best is None or v > best:
            best, best_moves = v, [m]
        elif v == best:
            best_moves.append(m)
    move = best_moves[random.Random(seed).randrange(len(best_moves))] if opts["random_ties"] \
        else best_moves[0]
    seconds = now() - start
    assert best is not None               # check_root: the root has moves
    rest = sorted(((m, v) for m, v in valued if m != move), key=lambda mv: -mv[1])   # stable: legal order
    lines = tuple(Line(m, float(v), 1, (m,)) for m, v in [(move, best), *rest][:opts["multipv"]])
    return SearchResult(move=move, score=float(best), depth=1, nodes=nodes, seconds=seconds,
                        nps=nodes / seconds if seconds > 0 else 0.0, pv=(move,), lines=lines)
