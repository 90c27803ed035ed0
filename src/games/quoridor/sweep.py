"""Solving many entries in one run (`crossridor solve quoridor --sweep`):
each entry, a board and a wall count, is solved from the start (solve.py),
checked on request (verify.py), and its record appended to a results file
as soon as it is finished, so that the same command run again goes on with
the entries not in it. The outcomes are then set out as the published
table is (published.py) and compared with it.

    >>> from crossridor.games.quoridor.sweep import Sweep, entries
    >>> records = Sweep(entries(["2x3:0-1"])).run()
    >>> [(r["board"], r["walls"], r["winner"], r["plies"]) for r in records]
    [('2x3', 0, 2, 4), ('2x3', 1, 1, 3)]
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable

from crossridor.engine import stop as _stop
from crossridor.engine._core import q_board_error
from crossridor.engine.appendfile import AppendFile
from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import MAX_FILE_BYTES
from crossridor.engine.options import board_shape
from crossridor.engine.registry import load_game
from crossridor.games.quoridor.bounds import MAX_WALLS
from crossridor.games.quoridor.published import BOARDS, KNOWN, OPEN, PUBLISHED, WALLS

if TYPE_CHECKING:
    from crossridor.engine.cluster import Scheduler


@dataclass(frozen=True)
class Entry:
    """The start of a board `width` columns wide and `height` rows high,
    with `walls` walls per player."""

    width: int
    height: int
    walls: int

    @property
    def board(self) -> str:
        return f"{self.width}x{self.height}"

    @property
    def size(self) -> int | str:
        """The board as the game's size option spells it (5, '4x7')."""
        return self.width if self.width == self.height else self.board

    def __str__(self) -> str:
        return f"{self.board}:{self.walls}"


# --- what to solve -----------------------------------------------------------------

def _even_heights() -> list[Entry]:
    return [Entry(w, h, k) for h in (4, 6, 8) for w in range(2, 10) if w * h <= 28 for k in WALLS]


# the named lists of entries --sweep takes: name -> (what it holds, its entries)
NAMED: dict[str, tuple[str, Callable[[], list[Entry]]]] = {
    "published": (f"the {len(BOARDS)} boards of the published table, 0 to 10 walls each",
                  lambda: [Entry(w, h, k) for w, h in BOARDS for k in WALLS]),
    "even-heights": ("every board 4, 6 or 8 rows high, 2 to 9 columns wide, of at most 28 squares, "
                     "0 to 10 walls each", _even_heights),
}

_WALLS = re.compile(r"([0-9]{1,4})(?:-([0-9]{1,4}))?")


def parse_spec(text: str) -> list[Entry]:
    """The entries of one --sweep SPEC: BOARD:WALLS (the board as the size
    option spells it, N or WxH; the walls N or LOW-HIGH), or the name of a
    list (NAMED). CrossridorError in one line naming what is wrong."""
    if text in NAMED:
        return NAMED[text][1]()
    bad = f"--sweep {text}"
    board, colon, walls = text.partition(":")
    if not colon:
        raise CrossridorError(f"{bad}: give BOARD:WALLS (e.g. 4x7:0-10 or 5:3) or a named list "
                              f"({', '.join(NAMED)})")
    try:
        width, height = board_shape(board)
    except ValueError:
        raise CrossridorError(f"{bad}: the board must be N or WxH (e.g. 5 or 4x7), got {board!r}") from None
    why = q_board_error(width, height, 2)
    if why is not None:
        raise CrossridorError(f"{bad}: {why}")
    match = _WALLS.fullmatch(walls)
    if match is None:
        raise CrossridorError(f"{bad}: the walls must be N or LOW-HIGH (e.g. 3 or 0-10), got {walls!r}")
    low, high = int(match[1]), int(match[2] or match[1])
    if low > high:
        raise CrossridorError(f"{bad}: the wall range {walls} is empty (LOW-HIGH with LOW <= HIGH)")
    if high > MAX_WALLS:
        raise CrossridorError(f"{bad}: at most {MAX_WALLS} walls per player, got {high}")
    return [Entry(width, height, k) for k in range(low, high + 1)]


def entries(specs: Iterable[str]) -> list[Entry]:
    """The entries of the SPECs in their order, each once."""
    return list(dict.fromkeys(entry for spec in specs for entry in parse_spec(spec)))


# --- the results file --------------------------------------------------------------

# why an entry was recorded as skipped: its solve did not fit in memory (a larger
# wall count of the board needs more still), or stopped with another error
SKIP_CAUSES = ("memory", "error")


def entry_of(record: dict) -> Entry:
    """The entry a record is of (ValueError when it names none)."""
    board, walls = record.get("board"), record.get("walls")
    if not isinstance(board, str) or type(walls) is not int or not 0 <= walls <= MAX_WALLS:
        raise ValueError("no board and walls")
    width, height = board_shape(board)
    if board != f"{width}x{height}" or q_board_error(width, height, 2) is not None:
        raise ValueError(f"not a board: {board!r}")
    return Entry(width, height, walls)


def read_result(line: bytes) -> dict:
    """One line of a results file (ValueError when it is not a record
    written by a sweep)."""
    try:
        record = json.loads(line)
    except RecursionError:
        raise ValueError("nested too deep") from None
    if not isinstance(record, dict):
        raise ValueError("not a JSON object")
    entry_of(record)
    if "skipped" in record:
        bound = record.get("memory_gb")
        if not isinstance(record["skipped"], str) or record.get("cause") not in SKIP_CAUSES \
                or not (bound is None or type(bound) in (int, float) and bound > 0):
            raise ValueError("a skipped entry without its reason, cause and memory bound")
        return record
    winner, plies = record.get("winner", 0), record.get("plies")
    if winner not in (1, 2, None) or type(winner) is bool:
        raise ValueError("no winner (1, 2 or null for a draw)")
    if (plies is None) != (winner is None) or not (plies is None or type(plies) is int and plies >= 0):
        raise ValueError("no plies (a count for a win, null for a draw)")
    if not isinstance(record.get("moves"), list) or not all(isinstance(m, str) for m in record["moves"]):
        raise ValueError("no first moves")
    for name in ("nodes", "layers", "memory"):
        if type(record.get(name)) is not int or record[name] < 0:
            raise ValueError(f"no {name}")
    if type(record.get("seconds")) not in (int, float):
        raise ValueError("no seconds")
    check = record.get("verify", {"ok": True})
    if not isinstance(check, dict) or not isinstance(check.get("ok"), bool):
        raise ValueError("a verify outcome without ok")
    return record


class ResultsFile(AppendFile):
    """A sweep's results file: one JSON line per finished entry, appended
    and flushed at once. On load, a torn last line (a sweep killed while
    writing it) is cut from the file; a later line of an entry replaces an
    earlier one (an entry solved again)."""

    def __init__(self, path: str):
        super().__init__(path, "results file")

    def load(self) -> tuple[dict[Entry, dict], bool]:
        """The last record of each entry in the file, and whether a torn
        last line was cut."""
        records, _, torn = self.read_lines(read_result, "a sweep result", MAX_FILE_BYTES)
        return {entry_of(record): record for record in records}, torn

    def append(self, record: dict) -> None:
        self.write(json.dumps(record, separators=(",", ":")) + "\n")


# --- the sweep ---------------------------------------------------------------------

@dataclass(frozen=True)
class SweepOptions:
    """How each entry is solved: `threads`, `memory_gb` and `scheduler` as
    the Solver takes them; `tables`, the folder holding one table folder per
    entry (solve --write-table DIR: kept, and a stopped entry goes on from
    its finished levels), else none is kept; `verify` checks each solution
    (verify.py) with `games` games per opponent, seeded with `seed` plus the
    entry's walls."""

    threads: int | None = None
    memory_gb: float | None = None
    scheduler: Scheduler | str | None = None
    tables: str | None = None
    verify: bool = False
    games: int = 20
    seed: int = 0


class Sweep:
    """The entries to solve, in order, how (`options`), and what the
    results file already holds of them (`torn`: a torn last line was cut
    from it). `solved` counts the entries this run solved (or found too
    large)."""

    def __init__(self, entries: Iterable[Entry], options: SweepOptions | None = None, results: str | None = None):
        self.entries = list(entries)
        self.options = options or SweepOptions()
        self.file = None if results is None else ResultsFile(results)
        self.recorded, self.torn = ({}, False) if self.file is None else self.file.load()
        self.solved = 0

    def finished(self, entry: Entry) -> dict | None:
        """The entry's record in the results file, unless this run solves
        it again: one skipped for memory under a smaller bound than this
        run's, or not checked when this run checks."""
        record = self.recorded.get(entry)
        if record is None:
            return None
        if "skipped" in record:
            bound, now = record.get("memory_gb"), self.options.memory_gb
            larger = bound is not None and (now is None or now > bound)
            return None if record["cause"] == "memory" and larger else record
        return None if self.options.verify and "verify" not in record else record

    def pending(self) -> int:
        """The entries not finished yet (some may turn out not to be tried)."""
        return sum(self.finished(entry) is None for entry in self.entries)

    def run(self, progress: Callable[[str], None] | None = None,
            on_entry: Callable[[dict], None] | None = None, stop: _stop.Stop | None = None,
            on_start: Callable[[Entry], None] | None = None) -> list[dict]:
        """Every entry's record, in order: the results file's, or solved now
        (and appended to it), or, when a smaller wall count of its board did
        not fit in memory, one saying that it was not tried. `progress` gets
        each solve's lines (one per level), `on_start` each entry about to
        be solved, `on_entry` each record made now;
        `stop` (or crossridor.stop()) ends the sweep with
        engine.stop.Interrupted, the entries finished being in the file."""
        records: list[dict] = []
        try:
            with _stop.scope(stop) as token:
                for entry in self.entries:
                    if token.is_set():          # between entries: a small entry's solve may not look
                        raise _stop.Interrupted("sweep stopped")
                    record = self.finished(entry)
                    if record is None:
                        record = self._record(entry, records, progress, token, on_start)
                        if on_entry is not None:
                            on_entry(record)
                    records.append(record)
        finally:
            if self.file is not None:
                self.file.close()
        return records

    def _record(self, entry: Entry, before: list[dict], progress, stop: _stop.Stop, on_start) -> dict:
        """The record of an entry not finished: not tried when a smaller
        wall count of its board, `before` it, did not fit in memory; else
        solved now, and appended to the results file."""
        too_large = [r["walls"] for r in before if r["board"] == entry.board and r.get("cause") == "memory"]
        if too_large and min(too_large) < entry.walls:
            return _skipped(entry, f"not tried: {entry.board} with {min(too_large)} walls did not fit in memory",
                            "not tried")
        if on_start is not None:
            on_start(entry)
        record = self._solve(entry, progress, stop)
        self.solved += 1
        if self.file is not None:
            self.file.append(record)
        return record

    def _solve(self, entry: Entry, progress: Callable[[str], None] | None, stop: _stop.Stop) -> dict:
        from crossridor.games.quoridor.solve import MemoryBoundError, Solver, solve
        from crossridor.games.quoridor.solve_table import TableError
        from crossridor.games.quoridor.verify import verify

        options = self.options
        state = load_game("quoridor", size=entry.size, walls=entry.walls).new_state()
        with contextlib.ExitStack() as stack:
            folder = None
            if options.tables is not None:
                folder = os.path.join(options.tables, f"{entry.board}-walls{entry.walls}")
                try:
                    os.makedirs(options.tables, exist_ok=True)
                except OSError as exc:
                    raise CrossridorError(f"cannot make the tables folder {options.tables!r}: "
                                          f"{exc.strerror or exc}") from None
            elif options.verify:        # the whole table, on disk rather than in memory
                folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="crossridor-sweep-"))
            say = None if progress is None else (lambda line: progress(f"{entry}: {line}"))
            solver = Solver(entry.size, options.memory_gb, threads=options.threads, folder=folder,
                            keep=folder is not None, scheduler=options.scheduler, progress=say)
            try:
                result = solve(state, solver=solver, stop=stop)
            except MemoryBoundError as exc:
                return _skipped(entry, str(exc), "memory", options.memory_gb)
            except TableError:
                raise                   # a folder of --write-table at fault: the user's to mend
            except CrossridorError as exc:
                return _skipped(entry, str(exc), "error", options.memory_gb)
            record = {"board": entry.board, "walls": entry.walls, **result.to_json()}
            if options.verify:
                start = time.perf_counter()
                check = verify(solver, state, result, options.games, options.seed + entry.walls, stop)
                record["verify"] = check.to_json()
                record["verify_seconds"] = round(time.perf_counter() - start, 3)
        return record


def _skipped(entry: Entry, reason: str, cause: str, memory_gb: float | None = None) -> dict:
    return {"board": entry.board, "walls": entry.walls, "skipped": reason, "cause": cause, "memory_gb": memory_gb}


# --- the outcomes as the published table -------------------------------------------

def outcome(record: dict | None) -> str | None:
    """'1' or '2' (the winner) or 'D' (a draw) for a solved entry's record,
    None for an entry not solved."""
    if record is None or "skipped" in record:
        return None
    return "D" if record["winner"] is None else str(record["winner"])


@dataclass
class Comparison:
    """The solved entries against the published table: `compared`, its known
    entries solved here; `differ`, (entry, here, published) where they do
    not agree; `opened`, (entry, here) for its open entries solved here;
    `known`, its known entries in all."""

    compared: list[Entry] = field(default_factory=list)
    differ: list[tuple[Entry, str, str]] = field(default_factory=list)
    opened: list[tuple[Entry, str]] = field(default_factory=list)
    known: int = KNOWN

    @property
    def agree(self) -> int:
        return len(self.compared) - len(self.differ)

    def to_json(self) -> dict:
        return {"known": self.known, "compared": len(self.compared), "agree": self.agree,
                "differ": [{"board": e.board, "walls": e.walls, "here": here, "published": published}
                           for e, here, published in self.differ],
                "opened": [{"board": e.board, "walls": e.walls, "here": here} for e, here in self.opened]}


def compare(records: Iterable[dict]) -> Comparison:
    out = Comparison()
    for record in records:
        entry, here = entry_of(record), outcome(record)
        published = PUBLISHED.get((entry.width, entry.height, entry.walls))
        if here is None or published is None:
            continue
        if published == OPEN:
            out.opened.append((entry, here))
        else:
            out.compared.append(entry)
            if here != published:
                out.differ.append((entry, here, published))
    return out


def grid(records: Iterable[dict]) -> tuple[list[int], dict[str, list[str]]]:
    """The outcomes as the published table sets them out: the wall columns
    (0 to 10, further when the sweep goes further) and a row per board
    (by height, then width): '1', '2' or 'D', '?' for an entry not solved;
    '!' after an outcome that differs from the published one, '*' after one
    open in the published table."""
    solved: dict[Entry, str | None] = {}
    for record in records:
        solved[entry_of(record)] = outcome(record)
    columns = list(range(max(WALLS.stop - 1, *(e.walls for e in solved)) + 1))
    rows = {}
    for width, height in sorted({(e.width, e.height) for e in solved}, key=lambda b: (b[1], b[0])):
        cells = []
        for walls in columns:
            here = solved.get(Entry(width, height, walls))
            published = PUBLISHED.get((width, height, walls))
            mark = "" if here is None or published is None else "*" if published == OPEN \
                else "!" if here != published else ""
            cells.append((here or "?") + mark)
        rows[f"{width}x{height}"] = cells
    return columns, rows
