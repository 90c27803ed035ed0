"""Quoridor alpha-beta's move ordering scores a node's walls by their gain
only when one of them would be picked next (lazy), and takes the distances
of the pawn's steps from one goal flood: both only make the search faster,
never change the order of the moves. These fixed-depth searches of
wall-heavy middlegames (with either evaluation, on 7x7 and with four
players) pin the best move, the score and the node count: a change of the
ordering that changes any of them changes the tree.

The learned cases play a set of 9x9 weights with 14 features
(tests/data/quoridor_eval_14_features.bin, the later features at weight 0),
so that they do not move when the shipped weights are retrained.

If you change the search ON PURPOSE (ordering, pruning, evaluation), print
the new figures with the loop in `test_same_tree` and update CASES, saying
why in the commit (as tests/test_bench.py asks for its signatures)."""

from __future__ import annotations

from pathlib import Path

import pytest

import crossridor
from crossridor import Limits

FIXED = {"eval_file": str(Path(__file__).parent / "data" / "quoridor_eval_14_features.bin")}

MIDGAME = "e2 e8 e3 e7 e4 e6 d3h f6 e5 d5h f3h f5 g5 f5h"
# (game options, moves, depth, options): (nodes, move, score)
CASES = [
    ({}, MIDGAME, 7, FIXED, (10373, "h3h", -9)),
    ({}, MIDGAME, 5, {"eval": "classic"}, (2785, "h3h", 60)),
    ({}, "h4h f9 e2 f8 e3 f7 e4 d4h f4 f6 g4 f5 g5 f4 e3v f4h f2h f5h h1h h5h f1h d5h", 7, FIXED,
     (6901, "d1h", -17)),
    ({}, "h4h f9 e2 f8 e3 f7 e4 d4h f4 f6 g4 f5 g5 f4 e3v f4h f2h f5h h1h h5h f1h d5h", 5,
     {"eval": "classic"}, (1366, "d1h", 60)),
    ({}, "f4v b8h e2 e8 e3 e7 e4 e6 e5 e4 e3h d6h c3h e6 d6 f6 f6v f7 c6 c7h f7h e7 g7v", 7, FIXED,
     (8433, "e8", -101)),
    ({}, "f4v b8h e2 e8 e3 e7 e4 e6 e5 e4 e3h d6h c3h e6 d6 f6 f6v f7 c6 c7h f7h e7 g7v", 5,
     {"eval": "classic"}, (2172, "h6h", -340)),
    ({}, MIDGAME + " h3h h5h e5 b4v", 7, FIXED, (4654, "b3h", 325)),
    ({}, MIDGAME + " h3h h5h e5 b4v", 5, {"eval": "classic"}, (1143, "b3h", 560)),
    ({"players": 4}, "e2 b5 e8 h5 e3 c5 e7 g5 d3h c4v", 5, {}, (4292, "e6", -29)),
    ({"size": 7}, "d2 d6 d3 d5 c3h d4h", 7, {"eval": "classic"}, (9391, "c5v", 160)),
]


@pytest.mark.parametrize("params,moves,depth,options,expected", CASES)
def test_same_tree(params, moves, depth, options, expected):
    state = crossridor.load_game("quoridor", **params).new_state(moves)
    r = crossridor.search(state, "alphabeta", Limits(depth=depth), **options)
    assert (r.nodes, str(r.move), r.score) == expected
