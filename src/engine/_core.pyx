# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The C-speed core of crossridor (private: use `crossridor` and
`crossridor.games.*`).

Each game's core is split into include files named after the game and the
concern: `<game>_board.pxi` (position, move generation, make/unmake: the hot
loops), Quoridor's evaluation (`quoridor_eval.pxi`) and learned features
(`quoridor_features.pxi`), the move policies of Crosswise's playouts
(`crosswise_playouts.pxi`), the searches (`<game>_search.pxi`,
`quoridor_mcts.pxi`), learning tensors (`quoridor_tensors.pxi`) and the
Python classes (`<game>_api.pxi`); C helpers shared by the games are in
`bitboard.pxi`. The hot loops are typed C that runs without the GIL, while
every entry point from Python validates its input first.
"""

include "bitboard.pxi"
include "quoridor_board.pxi"
include "quoridor_eval.pxi"
include "quoridor_api.pxi"
include "quoridor_features.pxi"
include "quoridor_search.pxi"
include "quoridor_mcts.pxi"
include "quoridor_tensors.pxi"
include "quoridor_solve.pxi"
include "crosswise_board.pxi"
include "crosswise_playouts.pxi"
include "crosswise_search.pxi"
include "crosswise_api.pxi"
