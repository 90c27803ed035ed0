"""Perft: the number of leaves of the legal-move tree to a fixed depth. A
state with a compiled counter (`native_perft`) uses it; any other game is
counted here through the protocol."""

from __future__ import annotations

from crossridor.engine import stop as _stop


def perft(state, depth: int, divide: bool = False, hash_mb: int = 0, stop: _stop.Stop | None = None):
    """Leaf count at `depth`, or with divide=True a list of (move, count).
    Raises engine.stop.Interrupted when `stop` (or crossridor.stop()) ends it
    early: a partial count is no count."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"perft depth must be an integer >= 0, got {depth!r}")
    with _stop.scope(stop) as token:
        result = _perft(state, depth, divide, hash_mb)
        if token.is_set():
            raise _stop.Interrupted("perft stopped")
    return result


def _perft(state, depth: int, divide: bool, hash_mb: int):
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
    if _stop.stopped():
        return 0    # perft() raises Interrupted
    total = 0
    for move in moves:
        state.play(move)
        total += _count(state, depth - 1)
        state.undo()
    return total
