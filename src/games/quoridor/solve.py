"""The exact value of a two-player Quoridor position: who wins with perfect
play, in how many plies, and with which first moves (the compiled parts in
`QuoridorSolver` of src/games/quoridor/solve.pxi: retrograde analysis per wall
configuration, sound with cycles, unresolved positions are draws; here the
levels of placed walls, solved from the deepest up on threads or a Dask
cluster, kept in memory or in a table folder: solve_table.py).

The solved game is Quoridor without a ply cap (a draw means neither side
can ever force a win): a game with the `max_plies` option is refused.

    >>> import crossridor
    >>> r = crossridor.solve(crossridor.load_game("quoridor", size=3, walls=0).new_state())
    >>> r.winner, r.plies, r.moves     # player 1 loses in 4 plies whatever it plays
    (2, 4, ['a1', 'c1'])
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import time
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from crossridor.engine import stop as _stop
from crossridor.engine._core import WIN_SCORE, QuoridorSolver
from crossridor.engine.errors import CrossridorError, UnsupportedGameError
from crossridor.engine.options import board_shape, board_text
from crossridor.engine.protocol import Line, SearchResult
from crossridor.games.quoridor.solve_table import NO_LEVEL, Level, TableError, TableFolder

if TYPE_CHECKING:
    from crossridor.engine.cluster import Scheduler

GB = 1 << 30


class MemoryBoundError(CrossridorError):
    """A solve stopped because its next step would not fit in memory_gb
    or on the disk of its table folder, or ran out of memory: a larger wall
    count of the board needs more."""


@dataclass(frozen=True)
class SolveResult:
    """The solution of a position. `winner` is a seat numbered from 1, or
    None for a draw; `plies` the plies to the end with best play on both
    sides (None for a draw). `moves` are the first moves that hold the
    value: every winning move when the side to move wins, every drawing
    move in a draw, the moves that lose slowest when it loses; `move_plies`
    gives each winning or losing one's plies to the end. `nodes` counts the
    positions valued, `layers` the wall configurations solved or read from a
    table, `memory` the most bytes one step of the solve held in memory,
    `disk` the bytes of levels it wrote to a table folder."""

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
    disk: int = 0

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


def default_threads() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


@dataclass
class _Run:
    """The levels of one solved position: sorted keys per level, and the
    values of the levels solved and still held (None once freed)."""

    level0: int
    keys: dict[int, np.ndarray] = field(default_factory=dict)
    values: dict[int, Level | None] = field(default_factory=dict)


class Solver:
    """Solves positions level by level and keeps what it is asked to keep.

    A position's layers are counted first (from its own layer down, level by
    level: a wall placement adds one wall), then the levels are solved from
    the deepest up, each from the one below it; the layers of a level are
    solved by chunks on `threads` threads without the GIL, or on the
    workers of a Dask `scheduler`. With keep, every level stays (a
    verification or a game replays from the table); without it, a level is
    freed as soon as the level above it is solved, so memory holds two
    levels. With `folder` (solve --write-table DIR), each level is written
    there as it is solved (straight to disk, through mmap) and read back
    through mmap, so memory holds the level below the one being solved, the
    level read at random; a rerun with the same folder goes on from the
    finished levels. memory_gb bounds the memory of the levels held
    (MemoryBoundError when the next level would not fit, in memory or on
    the folder's disk)."""

    def __init__(self, size: int | str, memory_gb: float | None = None, threads: int | None = None,
                 folder=None, keep: bool = True, scheduler: Scheduler | str | None = None, progress=None):
        if memory_gb is not None and not memory_gb > 0:
            raise CrossridorError(f"memory must be > 0 GB, got {memory_gb!r}")
        if threads is not None and threads < 1:
            raise CrossridorError(f"threads must be >= 1, got {threads}")
        if scheduler is not None and folder is None:
            raise CrossridorError("--scheduler needs --write-table DIR on a folder the workers read too")
        self.memory_gb = memory_gb
        self.threads = threads or default_threads()
        self.folder = folder
        self.keep = keep
        self.scheduler = scheduler
        self.progress = progress            # called with one line per level
        try:
            width, height = board_shape(size)
            self._core = QuoridorSolver(width, height)
        except ValueError as exc:
            raise CrossridorError(f"solve: {exc}") from None
        self._runs: list[_Run] = []
        self.positions = 0                  # positions valued by this solver
        self.layers = 0                     # layers solved, or read from a table
        self.peak = 0                       # the most bytes of levels held at once
        self.disk = 0                       # bytes of levels written to the table folder

    # --- values
    def value(self, core) -> int:
        """The core value of a position (QuoridorCore) for its side to move,
        solving its layers first when they are not held."""
        if core.winner >= 0:
            return 1 if core.winner == core.to_move else -1
        key, level, node = self._core.locate(core)
        value = self._lookup(key, level, node)
        if value is None:
            self._solve_root(key, level)
            value = self._lookup(key, level, node)
        assert value is not None        # its layers are solved now
        return value

    def held_value(self, core) -> int | None:
        """The core value of a position if it is held (or the game is
        over), else None (nothing is solved)."""
        if core.winner >= 0:
            return 1 if core.winner == core.to_move else -1
        return self._lookup(*self._core.locate(core))

    def held_children(self, core) -> list[tuple[int, int, object]] | None:
        """(move code, value for the side to move after it, the position
        after it) for every legal move of `core`, if every one is held;
        else None (nothing is solved)."""
        out = []
        for code in core.legal_codes():
            child = core.clone()
            child.play(code)
            v = self.held_value(child)
            if v is None:
                return None
            v = -v                          # the opponent's value, turned round
            out.append((code, v + 1 if v > 0 else v - 1 if v < 0 else 0, child))
        return out

    def _lookup(self, key, level: int, node: int) -> int | None:
        for run in self._runs:
            values = run.values.get(level)
            if values is not None:
                index = self._core.find(run.keys[level], key)
                if index >= 0:
                    row = np.empty(self._core.nodes, dtype=np.int8)
                    try:
                        self._core.decode(key, np.ascontiguousarray(values.code(index)), row)
                    except ValueError as exc:
                        raise TableError(f"the solved table is corrupt: level {level}: {exc}") from None
                    return int(row[node])
        return None

    def knows(self, state) -> bool:
        """Is the position (and so every move from it) already solved? A
        level is solved only after the level its walls lead to."""
        if state.core.players != 2 or state.game.size != self.size:
            return False
        key, level, node = self._core.locate(state.core)
        return self._lookup(key, level, node) is not None

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

    # --- solving
    def _held(self, below: Level | None = None) -> int:
        """Bytes of the levels in memory, and of `below` (the level a solve
        step reads) when it is read from a table folder (mmap): what a step
        needs in memory at once."""
        keys = sum(k.nbytes for run in self._runs for k in run.keys.values() if not isinstance(k, np.memmap))
        values = sum(v.nbytes for run in self._runs for v in run.values.values() if v is not None and not v.on_disk)
        return keys + values + (below.nbytes if below is not None and below.on_disk else 0)

    def _charge(self, more: int, what: str, below=None) -> None:
        """MemoryBoundError when `more` bytes on top of what is held pass
        memory_gb; else note the peak."""
        held = self._held(below)
        if self.memory_gb is not None and held + more > self.memory_gb * GB:
            hint = "" if self.folder is not None else " (--write-table DIR keeps the levels on disk)"
            raise MemoryBoundError(f"the solved positions do not fit in {self.memory_gb} GB (--memory): "
                                   f"{what} needs {more / 1e9:.3g} GB on top of {held / 1e9:.3g} GB{hint}")
        self.peak = max(self.peak, held + more)

    def _charge_disk(self, more: int, what: str, table) -> None:
        """MemoryBoundError when the disk of the table folder has not `more`
        bytes free; else count them as written."""
        free = table.free_bytes()
        if more > free:
            raise MemoryBoundError(f"the solved positions do not fit on the disk of {table.folder}: {what} "
                                   f"needs {more / 1e9:.3g} GB more, {free / 1e9:.3g} GB are free")
        self.disk += more

    def _say(self, line: str) -> None:
        if self.progress is not None:
            self.progress(line)

    def _solve_root(self, key, level0: int) -> None:
        run = _Run(level0)
        self._runs.append(run)
        table = None
        if self.folder is not None:
            table = TableFolder.create(self.folder, self.size, key, level0)
        if table is not None and table.levels is not None:
            run.keys = {k: self._table_keys(table, k) for k in table.levels}
            self._say(f"levels {min(run.keys)}-{max(run.keys)}: {sum(map(len, run.keys.values())):,} layers "
                      f"(read from {self.folder})")
        else:
            self._count_layers(run, key, level0)
            if table is not None:
                table.save_keys(run.keys)
        for level in sorted(run.keys, reverse=True):
            keys = run.keys[level]
            if table is not None and table.has_values(level):
                run.values[level] = table.level_values(level)
                self._say(f"level {level}: {len(keys):,} layers (read from {self.folder})")
            else:
                start = time.perf_counter()
                solved = run.values[level] = self._solve_level(run, level, table)
                self._say(f"level {level}: {len(keys):,} layers solved in {time.perf_counter() - start:.1f} s, "
                          f"{solved.nbytes / 1e6:,.1f} MB")
            self.layers += len(keys)
            if level > level0 and level + 1 in run.values:
                if not self.keep:               # the levels above this one need this one only
                    run.values[level + 1] = None
                elif table is not None:         # a fresh mapping: the pages read while solving leave
                    run.values[level + 1] = table.level_values(level + 1)      # the resident set

    def count(self, state) -> dict:
        """The counting pass alone (no solving): the layers of each level
        reachable from the position, and at one byte a position (an upper
        bound: levels are stored coded, smaller) the bytes of the whole
        table and of the two adjacent levels a solve holds at once at most."""
        check_solvable(state)
        key, level0, _ = self._core.locate(state.core)
        run = _Run(level0)
        self._count_layers(run, key, level0)
        levels = {level: len(keys) for level, keys in run.keys.items()}
        nodes = self._core.nodes
        return {"levels": levels, "layers": sum(levels.values()), "table_bytes": sum(levels.values()) * nodes,
                "two_levels_bytes": max(n + levels.get(k + 1, 0) for k, n in levels.items()) * nodes}

    def _count_layers(self, run: _Run, key, level0: int) -> None:
        """The layers of every level reachable from the root's layer."""
        keys = np.array([key], dtype=np.uint64)
        level = level0
        while len(keys):
            run.keys[level] = keys
            level += 1
            raw = np.frombuffer(self._core.children(keys), dtype=np.uint64).reshape(-1, 4)
            self._charge(raw.nbytes * 2, f"the layers of level {level}")
            keys = np.ascontiguousarray(raw[np.lexsort(raw.T[::-1])])
        self._say(f"levels {level0}-{level - 1}: {sum(map(len, run.keys.values())):,} layers")

    def _solve_level(self, run: _Run, level: int, table: TableFolder | None) -> Level:
        """Solve a level's layers by chunks, in order, their codes kept in
        memory or written to the table folder as they come."""
        keys = run.keys[level]
        below = run.values.get(level + 1) or NO_LEVEL
        up_keys = run.keys.get(level + 1, _NO_KEYS)
        what = f"level {level} ({len(keys):,} layers)"
        self._charge(0, what, below)
        n = len(keys)
        chunk = max(1, min(4096, -(-n // (8 * self.threads))))
        ranges = [(i, min(i + chunk, n)) for i in range(0, n, chunk)]
        token = _stop.current()

        def work(r):
            with _stop.scope(token):
                lengths = np.empty(r[1] - r[0], dtype=np.uint64)
                positions, codes = self._core.solve_range(keys, r[0], r[1], up_keys, below.offsets,
                                                          below.codes, lengths)
                return positions, lengths, codes

        offsets = np.zeros(n + 1, dtype=np.uint64)
        try:
            with contextlib.ExitStack() as stack:
                writer = None
                if table is not None:
                    writer = table.new_level(level)
                    stack.callback(writer.close)
                if self.scheduler is not None:
                    from crossridor.games.quoridor.solve_cluster import solve_level_on_cluster
                    results = solve_level_on_cluster(self.scheduler, table, self.size, level, ranges)
                elif self.threads == 1 or len(ranges) == 1:
                    results = map(work, ranges)
                else:
                    pool = concurrent.futures.ThreadPoolExecutor(self.threads)
                    stack.callback(pool.shutdown, wait=True, cancel_futures=True)
                    results = pool.map(work, ranges)
                return self._gather(ranges, results, offsets, writer, what, below)
        except MemoryError:
            raise MemoryBoundError(f"out of memory solving level {level}") from None
        except (RuntimeError, ValueError) as exc:
            if table is None:           # levels solved here hold every layer and sound codes
                raise
            # a resumed folder's keys, each valid and sorted, yet not every layer of the level
            raise TableError(f"{table.folder} is not a solved table: level {level}: {exc}") from None
        except OverflowError as exc:
            raise CrossridorError(f"solve: {exc}") from None

    def _gather(self, ranges, results, offsets: np.ndarray, writer, what: str, below: Level) -> Level:
        """The codes of a level's chunks, in order, kept in memory or
        written to the table folder: the level."""
        memory = bytearray()
        for (start, end), (positions, lengths, codes) in zip(ranges, results):
            self.positions += positions
            np.cumsum(lengths, out=offsets[start + 1:end + 1])
            offsets[start + 1:end + 1] += offsets[start]
            if writer is None:
                self._charge(len(memory) + len(codes) + offsets.nbytes, what, below)
                memory += codes
            else:
                self._charge_disk(len(codes), what, writer.table)
                writer.write(codes)
        if writer is not None:
            return writer.finish(offsets)
        return Level(offsets, np.frombuffer(memory, dtype=np.uint8))

    # --- tables
    @classmethod
    def read(cls, path, memory_gb: float | None = None, **options) -> "Solver":
        """A solver holding the finished levels of a table folder (written
        by solve --write-table DIR), read through mmap (CrossridorError when
        it is not one)."""
        table = TableFolder.open(path)
        solver = cls(table.size, memory_gb, **options)
        run = _Run(table.level0)
        levels = table.levels or {}
        for level in sorted(levels, reverse=True):
            if not table.has_values(level):
                break
            keys = run.keys[level] = solver._table_keys(table, level)
            run.values[level] = table.level_values(level)
            solver.layers += len(keys)
        solver._runs.append(run)
        return solver

    def _table_keys(self, table: TableFolder, level: int) -> np.ndarray:
        """A level's keys read from a table folder, checked: sorted layers
        of `level` walls in the solver's canonical form (best --table and a
        resumed solve --write-table read a folder alike)."""
        keys = table.keys(level)
        try:
            self._core.check_keys(keys, level)
        except ValueError as exc:
            raise TableError(f"{table.folder} is not a solved table: {exc}") from None
        return keys

    @property
    def size(self) -> int | str:
        """The board, as the game's size option spells it (9, '4x7')."""
        w, h = self._core.width, self._core.height
        return w if w == h else f"{w}x{h}"

    @property
    def stats(self) -> tuple[int, int, int]:
        """Positions valued, layers solved or read, the most bytes a solve
        step held in memory (the levels in memory, and the level below it
        when read from a folder)."""
        return self.positions, self.layers, self.peak


_NO_KEYS = np.zeros((0, 4), dtype=np.uint64)


def winner_seat(mover: int, outcome: int) -> int | None:
    """The winner's seat from 1 (None for a draw), from the outcome for the
    side to move (seat `mover`, from 0)."""
    return None if outcome == 0 else (mover if outcome > 0 else 1 - mover) + 1


def _rank(value: int) -> tuple:
    """Order of preference of values: wins (faster first), draws, losses
    (slower first)."""
    if value == 0:
        return (0, 0)
    outcome, plies = decode(value)
    assert plies is not None            # a win or a loss has its length
    return (outcome, -plies if outcome > 0 else plies)


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
        solver = Solver(state.game.size, memory_gb, keep=False)
    elif solver.size != state.game.size:
        raise CrossridorError(f"solve: the table is for the board {board_text(solver.size)}, "
                              f"the position is on {state.game.board}")
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
        move_plies={str(m): abs(v) - 1 for m, v in chosen if v != 0},     # decode's plies
        nodes=nodes, layers=layers, seconds=round(seconds, 6), memory=memory, disk=solver.disk)


@lru_cache(maxsize=4)
def _table(path: str) -> Solver:
    return Solver.read(path)


def table_search(state, path: str, multipv: int = 1, searchmoves=None) -> SearchResult | None:
    """The search option `table=DIR` (best --table, match engine specs): the
    table's perfect move when the position is in it, with extra
    source=table, winner (seat from 1) and plies; None when it is not (the
    search then runs). The score is the alpha-beta's: WIN_SCORE - plies for
    a win, its negation for a loss, 0 for a draw.

    `multipv`: the N best moves by their perfect values (wins faster first,
    then draws, then losses slower first; ties in notation order, so the
    first is the one-line answer's move), each with its score, its plies as
    depth and its perfect line; `searchmoves`: only these moves (winner and
    plies are then the best of them's). None when a move's value is not in
    the table."""
    check_solvable(state)
    solver = _table(str(path))
    if solver.size != state.game.size or not solver.knows(state):
        return None
    start = time.perf_counter()
    children = solver.held_children(state.core)
    if children is None:
        return None
    move = state.move_for_code
    if searchmoves is not None:
        children = [c for c in children if move(c[0]) in searchmoves]
    children.sort(key=lambda c: _best_first(c[1], move(c[0])))
    lines = tuple(_table_line(solver, move, code, value, child) for code, value, child in children[:multipv])
    best = lines[0]
    outcome, plies = decode(children[0][1])
    return SearchResult(move=best.move, score=best.score, depth=best.depth, nodes=0,
                        seconds=time.perf_counter() - start, nps=0.0, pv=best.pv,
                        extra={"source": "table", "winner": winner_seat(state.core.to_move, outcome),
                               "plies": plies},
                        lines=lines)


def _best_first(value: int, move) -> tuple:
    """Sort key of moves by their values, best first, ties in notation
    order (`Solver.best_move`'s choice first)."""
    return (*(-x for x in _rank(value)), str(move))


def _table_line(solver: Solver, move, code: int, value: int, child) -> Line:
    """A root move's line from the table (`move`: a move code's Move): its
    score as alpha-beta's, its plies to the end as depth, and the perfect
    line after it (at each ply the move `Solver.best_move` picks) while the
    table holds it; a draw's line is the move alone (perfect play may go
    round forever)."""
    outcome, plies = decode(value)
    pv = [move(code)]
    position = child
    for _ in range((plies or 1) - 1):
        replies = None if position.winner >= 0 else solver.held_children(position)
        if not replies:
            break
        code, _, position = min(replies, key=lambda c: _best_first(c[1], move(c[0])))
        pv.append(move(code))
    return Line(pv[0], outcome * (WIN_SCORE - plies) if outcome else 0, plies or 0, tuple(pv))
