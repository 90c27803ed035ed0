"""The one checker of declared parameters and algorithm options, for every
game and algorithm, C or Python: the boundary where a value is checked
before it reaches a game or a search (`Param`, `check_params`).

An option's kind is one of:

* `bool`: True or False; `FLAG`: True/False or 1/0, given to C as 1/0;
* `callable`, or `CALLABLE_OR_NONE`;
* a class: an instance of it (an object only Python code can pass);
* `str`: a non-empty text (a file name, say);
* a tuple of allowed strings, or of allowed integers (`(2, 4)`);
* a `BoardKind`: a board's columns and rows, N (N x N) or W x H, within
  bounds;
* `(int, low, high)` or `(float, low, high)`: a number in [low, high]. Float
  options take ints too and come back as floats; NaN and infinities are
  refused. The bounds of an option that goes into C fit its C type (`C_INT`,
  `C_LLONG`), and evaluation weights are bounded so that no evaluation
  reaches the band of forced wins.

Values come from Python, or as text (`-e key=value`, UCI `setoption`) read
by the declared kind (`Param.parse`).

Options that read a file (`FILE_OPTIONS`) are for the command line and the
Python API only: whatever comes from outside the user's own hand (a web
page, a PGN or records file, a UCI `setoption`) goes through
`refuse_file_options`, so that no path named there is ever opened."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from crossridor.engine.errors import CrossridorError

C_INT = 2 ** 31 - 1          # the largest value of a C int
C_LLONG = 2 ** 63 - 1        # of a C long long
CALLABLE_OR_NONE = (callable, None)
FLAG = "flag"
# game and search options that name a file to read: Kreuz & Quer's deck,
# Quoridor's learned weights and its solved tables
FILE_OPTIONS = frozenset({"deck_file", "eval_file", "table"})


def refuse_file_options(options: Iterable[str], where: str) -> None:
    """CrossridorError naming the first file-reading option in `options`
    (a mapping or names), said to come from `where`."""
    named = sorted(FILE_OPTIONS.intersection(options))
    if named:
        raise CrossridorError(f"{where}: option {named[0]} reads a file: options that read files are "
                              f"for the command line and the Python API only")


@dataclass(frozen=True)
class BoardKind:
    """The kind of a board-size option: `widths` and `heights` as (low, high).
    A value is N (N x N), text 'N' or 'WxH', or a pair (W, H); the checked
    value has one spelling per board: the int N for a square, 'WxH' text for
    any other (`board_shape` reads either back)."""

    widths: tuple[int, int]
    heights: tuple[int, int]

    def describe_range(self) -> str:
        (w0, w1), (h0, h1) = self.widths, self.heights
        return f"N or WxH, {w0} to {w1} columns wide and {h0} to {h1} rows high"

    def check(self, value: Any) -> int | str | None:
        """The checked value, or None when `value` is not a board in range."""
        try:
            w, h = board_shape(value)
        except ValueError:
            return None
        if not (self.widths[0] <= w <= self.widths[1] and self.heights[0] <= h <= self.heights[1]):
            return None
        return w if w == h else f"{w}x{h}"


def board_shape(value: Any) -> tuple[int, int]:
    """(columns, rows) of a board-size value: N, 'N', 'WxH' or (W, H);
    ValueError when it is none of these."""
    if isinstance(value, str):
        parts = value.strip().lower().split("x")
        if len(parts) not in (1, 2) or not all(p.isdigit() and len(p) <= 3 for p in parts):
            raise ValueError(f"not a board size: {value!r}")
        value = tuple(int(p) for p in parts)
        if len(value) == 1:
            value = value[0]
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    if isinstance(value, (tuple, list)) and len(value) == 2 \
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value[0], value[1]
    raise ValueError(f"not a board size: {value!r}")


def board_text(value: Any) -> str:
    """A board-size value as 'WxH' text ('9x9', '4x7')."""
    w, h = board_shape(value)
    return f"{w}x{h}"


def check_value(algorithm: str, name: str, value: Any, kind: Any) -> Any:
    """One option's value, checked (and a float kind's converted to float)."""
    def bad(what: str) -> CrossridorError:
        return CrossridorError(f"{algorithm}: option {name} must be {what}, got {value!r}")

    if isinstance(kind, BoardKind):
        board = kind.check(value)
        if board is None:
            raise bad(kind.describe_range())
        return board

    if kind is bool:
        if not isinstance(value, bool):
            raise bad("true or false")
        return value
    if kind == FLAG:
        if not (isinstance(value, int) and value in (0, 1)):
            raise bad("true or false (or 1 or 0)")
        return int(value)
    if kind is callable or kind == CALLABLE_OR_NONE:
        if not (callable(value) or (value is None and kind != callable)):
            raise bad("a function")
        return value
    if kind is str:
        if not isinstance(value, str) or not value:
            raise bad("a non-empty text")
        return value
    if isinstance(kind, tuple) and all(isinstance(k, str) for k in kind):
        if not isinstance(value, str) or value not in kind:
            raise bad(f"one of {', '.join(kind)}")
        return value
    if is_int_choice(kind):
        if isinstance(value, bool) or not isinstance(value, int) or value not in kind:
            raise bad(f"one of {', '.join(map(str, kind))}")
        return value
    if isinstance(kind, type):
        if not isinstance(value, kind):
            raise bad(f"a {kind.__name__}")
        return value
    typ, low, high = kind
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if typ is int:
        if not (number and isinstance(value, int)) or not low <= value <= high:
            raise bad(f"an integer in [{low}, {high}]")
        return value
    if not number or not math.isfinite(value) or not low <= value <= high:
        raise bad(f"a finite number in [{low}, {high}]")
    return float(value)


def is_int_choice(kind: Any) -> bool:
    """Is `kind` a tuple of allowed integers (not `(int, low, high)`)?"""
    return isinstance(kind, tuple) and bool(kind) and all(type(k) is int for k in kind)


def convert_value(raw: str) -> Any:
    """The value of `key=VALUE` text: a bool, None, an int, a float, or the text."""
    low = raw.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    try:
        return int(raw)
    except ValueError:
        pass
    try:
        return float(raw)
    except ValueError:
        return raw


def format_value(v: Any) -> str:
    """An option value as `key=VALUE` text (`convert_value` reads it back)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    return f"{v:g}" if isinstance(v, float) else str(v)


@dataclass(frozen=True)
class Param:
    """One declared game parameter or algorithm option, in the spirit of
    OpenSpiel's `GameParameter`: everything a door needs to check it, show it
    and document it. `kind` is one of `check_value`'s kinds; `default` None
    means "not set" (None is then accepted as a value)."""

    name: str
    kind: Any
    default: Any
    doc: str
    file: bool = False          # names a file to read: command line and Python only
    budget: bool = False        # bounds a search's memory or work: a server caps it
    python_only: bool = False   # a Python object (a function, a memory): never from text

    def check(self, value: Any, where: str, error: type[Exception] = CrossridorError) -> Any:
        """The value checked (None accepted when the default is None)."""
        if value is None and self.default is None:
            return None
        try:
            return check_value(where, self.name, value, self.kind)
        except CrossridorError as e:
            raise error(str(e)) from None

    def parse(self, text: str, where: str, error: type[Exception] = CrossridorError) -> Any:
        """The value of this option written as text (`-e key=VALUE`, UCI,
        a form), read by its declared kind, then checked."""
        if self.python_only:
            raise error(f"{where}: option {self.name} is a Python object, it cannot be given as text")
        raw = text.strip()
        low = raw.lower()
        value: Any = raw
        if self.default is None and low in ("none", "null", ""):
            return None
        kind = self.kind
        if kind is bool or kind == FLAG:
            truth = {"true": True, "yes": True, "on": True, "1": True,
                     "false": False, "no": False, "off": False, "0": False}
            if low not in truth:
                raise error(f"{where}: option {self.name} must be true or false (or yes/no, on/off, 1/0), "
                            f"got {text!r}")
            value = truth[low] if kind is bool else int(truth[low])
        elif isinstance(kind, tuple) and len(kind) == 3 and kind[0] in (int, float):
            try:
                value = kind[0](raw)
            except ValueError:
                what = "an integer" if kind[0] is int else "a number"
                raise error(f"{where}: option {self.name} must be {what}, got {text!r}") from None
        elif is_int_choice(kind):
            try:
                value = int(raw)
            except ValueError:
                raise error(f"{where}: option {self.name} must be one of {', '.join(map(str, kind))}, "
                            f"got {text!r}") from None
        return self.check(value, where, error)

    def describe(self) -> dict[str, Any]:
        """The declaration as JSON-ready data (`crossridor options --json`)."""
        kind = self.kind
        d: dict[str, Any] = {"name": self.name}
        if kind is bool or kind == FLAG:
            d["type"] = "bool"
        elif isinstance(kind, tuple) and len(kind) == 3 and kind[0] in (int, float):
            d.update(type=kind[0].__name__, min=kind[1], max=kind[2])
        elif isinstance(kind, tuple) and (all(isinstance(k, str) for k in kind) or is_int_choice(kind)):
            d.update(type="choice", choices=list(kind))
        elif isinstance(kind, BoardKind):
            d.update(type="board", widths=list(kind.widths), heights=list(kind.heights))
        elif kind is str:
            d["type"] = "text"
        elif kind is tuple:
            d["type"] = "moves"
        else:
            d["type"] = "python object"
        d.update(default=self.default if not callable(self.default) else None, doc=self.doc,
                 file=self.file, budget=self.budget, python_only=self.python_only)
        return d


# What every searching algorithm may be asked besides its own options: the N
# best moves (MultiPV) and a restriction of the root moves (UCI's `go
# searchmoves`; a game review asks for the value of the move played).
MAX_MULTIPV = 256
MULTIPV = Param("multipv", (int, 1, MAX_MULTIPV), 1,
                "the N best moves, each with its score and line (result.lines; at most the number of "
                "legal moves); 1: the best move only")
SEARCHMOVES = Param("searchmoves", tuple, None,
                    "search only these root moves (legal moves or their texts, at least one)",
                    python_only=True)
ROOT_OPTIONS = (MULTIPV, SEARCHMOVES)


def check_params(where: str, given: Mapping[str, Any], params: Iterable[Param],
                 error: type[Exception] = CrossridorError) -> dict[str, Any]:
    """`given` checked against the declared `params` and completed with their
    defaults; `error` names the first unknown or bad one."""
    declared = _declared(where, given, params, error)
    out = {name: p.default for name, p in declared.items()}
    for name, value in given.items():
        out[name] = declared[name].check(value, where, error)
    return out


def read_params(where: str, given: Mapping[str, Any], params: Iterable[Param],
                error: type[Exception] = CrossridorError) -> dict[str, Any]:
    """`given` as a door received it (a command line, a form, a file's tag):
    a text value read by its declared kind (`Param.parse`), any other value
    checked as it is. Only the names given come back (`check_params` adds
    the defaults); `error` names the first unknown or bad one."""
    declared = _declared(where, given, params, error)
    return {name: declared[name].parse(value, where, error) if isinstance(value, str)
            else declared[name].check(value, where, error) for name, value in given.items()}


def _declared(where: str, given: Mapping[str, Any], params: Iterable[Param],
              error: type[Exception]) -> dict[str, Param]:
    """The declared params by name; `error` if `given` names any other."""
    declared = {p.name: p for p in params}
    unknown = sorted(str(k)[:80] for k in set(given) - set(declared))
    if unknown:
        known = ", ".join(sorted(declared)) or "none"
        raise error(f"{where}: unknown option(s) {', '.join(unknown)} (known: {known})")
    return declared
