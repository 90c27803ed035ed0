# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The C-speed core of crossridor (private: use `crossridor` and
`crossridor.games.*`).

Each game's core is split into include files: position and move generation
(`<game>.pxi`), Quoridor's evaluation (`quoridor_eval.pxi`), searches (`<game>_search.pxi`, `quoridor_mcts.pxi`) and the
Python boundary; C helpers shared by the games are in `bitboard.pxi`. The hot
loops are typed C that runs without the GIL, while every entry point from
Python validates its input first.
"""

cdef extern from *:
    ctypedef int volatile_int "volatile int"


cdef class StopFlag:
    """One int a running search polls next to its clock: `set()` (from any
    thread) makes it return its best move so far. Pass it as the search
    option `stop`; the UCI loop sets it on `stop` / `quit`."""

    cdef volatile_int raised

    def set(self):
        self.raised = 1

    def clear(self):
        self.raised = 0

    def is_set(self):
        return self.raised != 0


cdef inline volatile_int* stop_pointer(object flag) except? NULL:
    """The int behind an optional StopFlag option (NULL: none)."""
    if flag is None:
        return NULL
    return &(<StopFlag?>flag).raised


include "bitboard.pxi"
include "quoridor.pxi"
include "quoridor_eval.pxi"
include "quoridor_features.pxi"
include "quoridor_search.pxi"
include "quoridor_mcts.pxi"
include "crosswise.pxi"
include "crosswise_search.pxi"
include "crosswise_api.pxi"
