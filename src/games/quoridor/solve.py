"""The exact value of a two-player Quoridor position: who wins with perfect
play, in how many plies, and with which first moves (the compiled solver,
`QuoridorSolver` of engine/quoridor_solve.pxi: retrograde analysis per wall
configuration, sound with cycles; unresolved positions are draws).

The solved game is Quoridor without a ply cap (a draw means neither side
can ever force a win): a game with the `max_plies` option is refused.

    >>> import crossridor
    >>> r = crossridor.solve(crossridor.load_game("quoridor", size=3, walls=0).new_state())
    >>> r.winner, r.plies, r.moves     # player 1 loses in 4 plies whatever it plays
    (2, 4, ['a1', 'c1'])
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import numpy as np

from crossridor.engine import stop as _stop
from crossridor.engine._core import WIN_SCORE, QuoridorSolver
from crossridor.engine.errors import CrossridorError, UnsupportedGameError
from crossridor.engine.files import check_regular_file
from crossridor.engine.protocol import SearchResult

GB = 1 << 30
TABLE_FORMAT = 1         # the version of the table files (Solver.write)
MAX_TABLE_BYTES = 64 * GB   # no table file is read past this (nor past --memory)


@dataclass(frozen=True)
class SolveResult:
    """The solution of a position. `winner` is a seat numbered from 1, or
    None for a draw; `plies` the plies to the end with best play on both
    sides (None for a draw). `moves` are the first moves that hold the
    value: every winning move when the side to move wins, every drawing
    move in a draw, the moves that lose slowest when it loses; `move_plies`
    gives each winning or losing one's plies to the end. `nodes` counts the
    positions valued, `layers` the wall configurations solved."""

    position: str
    to_move: int | None
    winner: int | None
    plies: int | None
    moves: list[str]
    move_plies: dict[str, int] = field(default_factory=dict)
    nodes: int = 0
    layers: int = 0
    seconds: float = 0.0
    memory: int = 0

    def to_json(self) -> dict:
        return asdict(self)


def decode(value: int) -> tuple[int, int | None]:
    """A core value -> (outcome for the side to move: 1 win, 0 draw,
    -1 loss; plies to the end, None for a draw)."""
    if value > 0:
        return 1, value - 1
    if value < 0:
        return -1, -value - 1
    return 0, None


class Solver:
    """The solved layers of one board size, kept between positions (so a
    verification or a game replays from the table). memory_gb bounds the
    table (None: no bound)."""

    def __init__(self, size: int, memory_gb: float | None = None):
        if memory_gb is not None and not memory_gb > 0:
            raise CrossridorError(f"memory must be > 0 GB, got {memory_gb!r}")
        self.memory_gb = memory_gb
        self._core = QuoridorSolver(size, 0 if memory_gb is None else int(memory_gb * GB))

    def value(self, core) -> int:
        """The core value of a position (QuoridorCore) for its side to move."""
        try:
            return self._core.value(core)
        except MemoryError:
            raise CrossridorError(f"the solved positions do not fit in {self.memory_gb} GB "
                                  f"(--memory); give more or solve a smaller board") from None
        except OverflowError as exc:
            raise CrossridorError(f"solve: {exc}") from None

    def move_values(self, state) -> list[tuple[object, int]]:
        """(move, value for the side to move after it) for every legal move."""
        out = []
        for code in state.core.legal_codes():
            child = state.core.clone()
            child.play(code)
            v = -self.value(child)          # the opponent's value, turned round
            out.append((state._from_code[code], v + 1 if v > 0 else v - 1 if v < 0 else 0))
        return out

    def best_moves(self, state) -> list:
        """The moves of best play: the fastest wins, else the draws, else the
        slowest losses."""
        values = self.move_values(state)
        top = max(values, key=lambda mv: _rank(mv[1]))
        return [m for m, v in values if v == top[1]]

    def best_move(self, state):
        """One move of best play, the first in notation order (so that
        play from the table is reproducible)."""
        return min(self.best_moves(state), key=str)

    def knows(self, state) -> bool:
        """Is the position (and so every move from it) already solved?"""
        return self._core.knows(state.core)

    def write(self, path) -> None:
        """Write the solved table (a numpy .npz file: format, size, keys,
        values), to be read back with Solver.read."""
        keys, values = self._core.export()
        np.savez(path, format=TABLE_FORMAT, size=self._core.size,
                 keys=np.frombuffer(keys, dtype=np.int64).astype("<i8").reshape(-1, 4),
                 values=np.frombuffer(values, dtype=np.int16).astype("<i2"))

    @classmethod
    def read(cls, path, memory_gb: float | None = None) -> "Solver":
        """A solver holding the table written to path (CrossridorError when
        the file is not one)."""
        limit = MAX_TABLE_BYTES if memory_gb is None else min(MAX_TABLE_BYTES, int(memory_gb * 2 ** 30))
        check_regular_file(str(path), "solved table", limit)
        try:
            with np.load(path) as data:
                if int(data["format"]) != TABLE_FORMAT:
                    raise ValueError(f"format {int(data['format'])}, not {TABLE_FORMAT}")
                solver = cls(int(data["size"]), memory_gb)
                solver._core.load(np.ascontiguousarray(data["keys"], dtype=np.int64).tobytes(),
                                  np.ascontiguousarray(data["values"], dtype=np.int16).tobytes())
        except MemoryError:
            raise CrossridorError(f"the table {path} does not fit in {memory_gb} GB (--memory)") from None
        except (OSError, KeyError, ValueError, TypeError) as exc:
            raise CrossridorError(f"{path} is not a solved table: {exc}") from None
        return solver

    @property
    def size(self) -> int:
        return self._core.size

    @property
    def stats(self) -> tuple[int, int, int]:
        return self._core.positions, self._core.layers, self._core.bytes


def winner_seat(mover: int, outcome: int) -> int | None:
    """The winner's seat from 1 (None for a draw), from the outcome for the
    side to move (seat `mover`, from 0)."""
    return None if outcome == 0 else (mover if outcome > 0 else 1 - mover) + 1


def _rank(value: int) -> tuple:
    """Order of preference of values: wins (faster first), draws, losses
    (slower first)."""
    outcome, plies = decode(value)
    return (outcome, -plies if outcome > 0 else plies if outcome < 0 else 0)


def check_solvable(state) -> None:
    game = state.game
    if getattr(game, "name", None) != "quoridor" or not hasattr(state, "core"):
        raise UnsupportedGameError("solve: only Quoridor positions can be solved")
    if game.players != 2:
        raise UnsupportedGameError(f"solve: two-player Quoridor only, not {game.players} players")
    if game.max_plies is not None:
        raise UnsupportedGameError("solve: the solver plays the game without a ply cap; "
                                   "give no max_plies option")


def solve(state, memory_gb: float | None = None, stop: _stop.Stop | None = None,
          solver: Solver | None = None) -> SolveResult:
    """Solve a two-player Quoridor position exactly. `stop` (or
    crossridor.stop()) ends it with engine.stop.Interrupted; memory_gb
    bounds the table (CrossridorError when it would not fit)."""
    check_solvable(state)
    if solver is None:
        solver = Solver(state.game.size, memory_gb)
    elif solver.size != state.game.size:
        raise CrossridorError(f"solve: the table is for {solver.size}x{solver.size}, "
                              f"the position is {state.game.size}x{state.game.size}")
    start = time.perf_counter()
    with _stop.scope(stop):
        root = solver.value(state.core)
        values = [] if state.core.winner >= 0 else solver.move_values(state)
    seconds = time.perf_counter() - start
    outcome, plies = decode(root)
    mover = state.core.to_move
    if state.core.winner >= 0:
        winner, plies = state.core.winner + 1, 0
    else:
        winner = winner_seat(mover, outcome)
    if outcome > 0:
        chosen = [(m, v) for m, v in values if v > 0]
    else:
        chosen = [(m, v) for m, v in values if v == root]
    chosen.sort(key=lambda mv: (decode(mv[1])[1] or 0, str(mv[0])))   # fastest wins first
    nodes, layers, memory = solver.stats
    return SolveResult(
        position=state.position(), to_move=None if state.core.winner >= 0 else mover + 1,
        winner=winner, plies=plies, moves=[str(m) for m, _ in chosen],
        move_plies={str(m): decode(v)[1] for m, v in chosen if v != 0},
        nodes=nodes, layers=layers, seconds=round(seconds, 6), memory=memory)


@lru_cache(maxsize=4)
def _table(path: str) -> Solver:
    return Solver.read(path)


def table_search(state, path: str) -> SearchResult | None:
    """The search option `table=FILE` (best --table, match engine specs): the
    table's perfect move when the position is in it, with extra
    source=table, winner (seat from 1) and plies; None when it is not (the
    search then runs). The score is the alpha-beta's: WIN_SCORE - plies for
    a win, its negation for a loss, 0 for a draw."""
    check_solvable(state)
    solver = _table(str(path))
    if solver.size != state.game.size or not solver.knows(state):
        return None
    start = time.perf_counter()
    outcome, plies = decode(solver.value(state.core))
    move = solver.best_move(state)
    winner = winner_seat(state.core.to_move, outcome)
    return SearchResult(move=move, score=outcome * (WIN_SCORE - plies) if outcome else 0,
                        depth=plies or 0, nodes=0, seconds=time.perf_counter() - start, nps=0.0,
                        pv=(move,), extra={"source": "table", "winner": winner, "plies": plies})
