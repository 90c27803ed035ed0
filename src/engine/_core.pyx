# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The C-speed core of crossridor (private: use `crossridor` and
`crossridor.games.*`).

Each game's core is split into include files: position and move generation
(`<game>.pxi`), Quoridor's evaluation (`quoridor_eval.pxi`), searches (`<game>_search.pxi`, `quoridor_mcts.pxi`) and the
Python boundary; C helpers shared by the games are in `bitboard.pxi`. The hot
loops are typed C that runs without the GIL, while every entry point from
Python validates its input first.
"""

include "bitboard.pxi"
include "quoridor.pxi"
include "quoridor_eval.pxi"
include "quoridor_features.pxi"
include "quoridor_search.pxi"
include "quoridor_mcts.pxi"
include "crosswise.pxi"
include "crosswise_search.pxi"
include "crosswise_api.pxi"
include "quoridor_tensors.pxi"
