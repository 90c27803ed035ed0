# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The C-speed core of crossridor (private: use `engine` and `games.*`).

Each game's rules and search loops live in one include file, so the hot
loops are typed C that runs without the GIL, while every entry point from
Python validates its input first.
"""

include "bitboard.pxi"
include "quoridor.pxi"
include "quoridor_search.pxi"
include "quoridor_mcts.pxi"
include "crosswise.pxi"
include "quoridor_tensors.pxi"
