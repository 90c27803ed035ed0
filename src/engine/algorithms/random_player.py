"""A uniformly random legal move (seeded with `random.Random(seed)`).
Handles every game; takes no options. Result: score 0, depth 0, nodes 1."""

from __future__ import annotations

import random

from crossridor.engine.algorithms.common import check_root, move_list, now, traits_of
from crossridor.engine.options import Param
from crossridor.engine.protocol import GameTraits, Limits, SearchResult

__all__ = ["search", "check_game", "OPTIONS"]

OPTIONS: tuple[Param, ...] = ()


def check_game(traits: GameTraits) -> None:
    """Every game can be played at random."""


def search(state, limits: Limits, seed: int | None = None) -> SearchResult:
    check_game(traits_of(state))
    check_root("random", state)
    start = now()
    moves = move_list(state)
    move = moves[random.Random(seed).randrange(len(moves))]
    seconds = now() - start
    return SearchResult(move=move, score=0.0, depth=0, nodes=1, seconds=seconds,
                        nps=1 / seconds if seconds > 0 else 0.0, pv=(move,))
