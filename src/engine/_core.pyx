# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The C-speed core of crossridor (private: use `crossridor` and
`crossridor.games.*`): the one compiled module, made of each game's C.

A game's C lives in its own folder, `src/games/<game>/*.pxi`, beside its
Python: `board.pxi` (position, move generation, make/unmake: the hot loops),
the searches (`search.pxi`, Quoridor's `mcts.pxi` and `solve.pxi`),
Quoridor's evaluation (`eval.pxi`), learned features (`features.pxi`) and
learning tensors (`tensors.pxi`), Crosswise's playout policies
(`playouts.pxi`), and the Python classes (`api.pxi`). C helpers shared by the
games are in `bitboard.pxi` here. The hot loops are typed C that runs without
the GIL, while every entry point from Python validates its input first.
"""

include "bitboard.pxi"
# src/games is on the include path (CMakeLists.txt)
include "quoridor/board.pxi"
include "quoridor/eval.pxi"
include "quoridor/api.pxi"
include "quoridor/features.pxi"
include "quoridor/search.pxi"
include "quoridor/mcts.pxi"
include "quoridor/tensors.pxi"
include "quoridor/solve.pxi"
include "crosswise/board.pxi"
include "crosswise/playouts.pxi"
include "crosswise/search.pxi"
include "crosswise/api.pxi"
