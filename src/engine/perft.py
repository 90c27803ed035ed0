"""Perft: the number of leaves of the legal-move tree to a fixed depth. A
state with a compiled counter (`native_perft`) uses it; any other game is
counted here through the protocol."""

from __future__ import annotations


def perft(state, depth: int, divide: bool = False, hash_mb: int = 0):
    """Leaf count at `depth`, or with divide=True a list of (move, count)."""
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, got {depth}")
    native = getattr(state, "native_perft", None)
    if native is not None:
        result = native(depth, divide, hash_mb)
        if result is not NotImplemented:
            return result
    if divide:
        out = []
        for move in list(state.legal_moves()):
            state.play(move)
            out.append((move, _count(state, depth - 1)))
            state.undo()
        return out
    return _count(state, depth)


def _count(state, depth: int) -> int:
    if depth == 0:
        return 1
    moves = list(state.legal_moves())
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.play(move)
        total += _count(state, depth - 1)
        state.undo()
    return total
