"""`crossridor uci`: the engine as a UCI-style text engine on stdin/stdout.

The loop only tokenises lines and calls the library (`crossridor.search`
in a thread, `info` lines from its `on_iteration` callback); the dialect is
written down in docs/matches.md ("crossridor uci"). In short:

    uci                      -> id name/author, option lines, uciok
    isready                  -> readyok once the commands before it are done
                                (at once during a search)
    ucinewgame               -> back to the start position
    setoption name N value V -> Algorithm, UCI_ShowWDL (true: every info line with
                                a score adds `wdl W D L`, the chances of a win, a
                                draw and a loss for the side to move in permille),
                                or an option of the current game and algorithm (the
                                `option` lines: Hash, Threads, MultiPV and the others
                                of `crossridor best -e`, e.g. prune_walls)
    position startpos [moves m1 m2 ...]
    position pos <position string> [moves ...]
    go [movetime MS] [depth D] [nodes N] [sims N] [wtime MS btime MS winc MS binc MS
       movestogo K] [infinite] [ponder] [searchmoves m1 m2 ...]
                             -> info ... lines (with MultiPV N > 1, one per line,
                                each with its `multipv k`), then bestmove M, or
                                bestmove M ponder R (R: the reply it expects)
    go ponder ...            -> searches the position (the last move: the reply
                                the engine expects) until ponderhit or stop;
                                no bestmove before either
    ponderhit                -> the reply was played: the search of the `go
                                ponder` limits starts now, from the table the
                                pondering filled (its move time counts from here)
    stop                     -> the running search returns its best move now
    quit                     -> stops the running search (its bestmove is sent), exits

A reader thread reads ahead of the commands being carried out, so that
`stop` and `quit` act as soon as they are read, whatever came before them:
they stop at once every bounded search started by a command before them (the
search still answers `bestmove`). Every other command is carried out in order:
one sent during a bounded search waits for its `bestmove` (so a script can
pipe a whole session in and end it with such a command, `ucinewgame` say,
before closing its input); during `go infinite` it gets an error (only
`isready`, `stop` and, while pondering, `ponderhit` are accepted, and
nothing waits, so its `stop` comes at once). The option Ponder (GUIs set it
when they will ponder) is accepted and changes nothing: the engine spends
its clock the same way either way. End of input is `quit` after the commands before it: a bounded search
still running then is stopped too (`go depth 2147483647` must not keep a
closed session alive). The reader reads at most MAX_PENDING (256) commands
ahead; a `stop` or `quit` further behind acts when its turn nears. A line
longer than MAX_LINE (65536) characters gets `info string error` and is
dropped.

Threads is at most THREADS_CAP: 4 per CPU this process may use, at most 64;
a larger value gets `info string error` naming the cap and the setting is
kept. A Lazy SMP search starts its helpers one by one, deaf to `stop`, and its
main thread shares the CPUs with them: with many threads per CPU a `stop`
takes seconds (64 threads on 2 CPUs) to half a minute (256), and the move it
gives has not finished depth 1; at 4 per CPU it takes milliseconds. More
threads than CPUs make no search faster.

Hash is at most MAX_HASH_MB: 65536, or half this machine's memory if less.
A table that cannot be allocated all the same gets `info string error` and
the search runs with the default table, so a `go` always gets its bestmove.

Moves are in the project's notation; players 3 and 4 of four-player Quoridor
take their clocks from `wtime`/`btime` as well (the clock of the player to
move is the one used). A bad command gets `info string error ...` and the
engine keeps running.
"""

from __future__ import annotations

import dataclasses
import os
import queue
import sys
import threading
from typing import Any, TextIO

from crossridor.engine.errors import CrossridorError
from crossridor.engine.options import Param, refuse_file_options
from crossridor.engine.outlook import outlook, score_text
from crossridor.engine.protocol import Clock, Limits
from crossridor.engine.search_api import (
    UNTIL_STOPPED,
    algorithm_names,
    root_moves,
    search,
    search_memory,
    search_options,
)
from crossridor.engine.stop import Stop

ENGINE_NAME = "crossridor"
DEFAULT_TIME = 1.0          # seconds, for a bare `go`
INFINITE = UNTIL_STOPPED     # `go infinite`: until `stop`
UCI_NAMES = {"hash": "Hash", "threads": "Threads", "multipv": "MultiPV"}   # the protocol's own names


def _max_hash_mb() -> int:
    """65536 MB, or half of this machine's memory if that is less."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        return 65536
    return max(1, min(65536, memory // 2 // (1024 * 1024)))


MAX_HASH_MB = _max_hash_mb()


def _threads_cap() -> int:
    """4 threads per CPU this process may use, at most 64 (see the module docstring)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(64, 4 * cpus))


THREADS_CAP = _threads_cap()
# this machine's caps on the budget options, over their declared bounds
CAPS = {"hash": (MAX_HASH_MB, ""), "threads": (THREADS_CAP, " (4 per CPU of this machine, at most 64)")}
MAX_LINE = 65536        # characters of one command line
MAX_PENDING = 256       # commands read ahead of the one being carried out
_TOO_LONG = object()    # what the reader queues in place of a longer line
GO_INTS = {"movetime", "depth", "nodes", "sims", "wtime", "btime", "winc", "binc", "movestogo"}
# options a search is asked for that leave its table as good as before: a
# change of them keeps the table from one go to the next
ROOT_OPTION_NAMES = ("multipv", "searchmoves")


class UciError(Exception):
    """A bad command: reported as `info string error ...`."""


class UciSession:
    """One engine session: the position, the options, the running search."""

    def __init__(self, game, out: TextIO = sys.stdout):
        self.game = game
        self.out = out
        self._lock = threading.Lock()
        self.algorithm = "ismcts" if game.traits.hidden_information else "alphabeta"
        self.show_wdl = False           # UCI_ShowWDL
        # values given by setoption, by option name; a search gets those its
        # algorithm declares
        self.options: dict[str, Any] = {}
        self.state = game.new_state()
        # (algorithm, options, root player; its search memory or None): the
        # table kept from one go to the next while they stay the same
        self.memory: tuple | None = None
        self._thread: threading.Thread | None = None
        self._stop: Stop | None = None
        self._infinite = False
        # while pondering: the `go` words to search with on ponderhit; and
        # "hit" once ponderhit ended the ponder search (it sends no bestmove)
        self._ponder_go: list | None = None
        self._ponder_end: str | None = None
        self._ponder_done = threading.Event()
        # the reader's early stop: under _stop_lock, the running search's Stop
        # and the count of stop/quit lines read but not yet carried out
        self._stop_lock = threading.Lock()
        self._stops_ahead = 0

    # output
    def send(self, line: str) -> None:
        with self._lock:
            self.out.write(line + "\n")
            self.out.flush()

    def error(self, message: str) -> None:
        self.send(f"info string error {message}")

    # the loop
    def run(self, stream: TextIO) -> int:
        """Carry out the commands of `stream` until `quit` or its end; a
        reader thread reads ahead and acts on `stop` and `quit` at once."""
        commands: queue.Queue = queue.Queue(MAX_PENDING)
        threading.Thread(target=self._read, args=(stream, commands), name="uci-reader", daemon=True).start()
        while True:
            line = commands.get()
            if line is None:
                break
            if line is _TOO_LONG:
                self.error(f"a line longer than {MAX_LINE} characters: ignored")
                continue
            going = self.handle(line)
            if _stops(line):
                with self._stop_lock:
                    self._stops_ahead -= 1
            if not going:
                break
        self.finish()
        return 0

    def _read(self, stream: TextIO, commands: queue.Queue) -> None:
        """The reader thread: queue each line; a `stop` or `quit` first stops
        the bounded search now running (and, through _stops_ahead, any one a
        command queued before it starts). None: the end of input."""
        try:
            for line in _lines(stream):
                if line is not _TOO_LONG and _stops(line):
                    with self._stop_lock:
                        self._stops_ahead += 1
                        if self._stop is not None and not self._infinite:
                            self._stop.set()
                commands.put(line)
                if line is not _TOO_LONG and line.split()[:1] == ["quit"]:
                    return
        except (OSError, ValueError):
            pass    # an unreadable input ends like a closed one
        commands.put(None)

    def handle(self, line: str) -> bool:
        """Handle one command line; False after `quit`."""
        tokens = line.split()
        if not tokens:
            return True
        command, args = tokens[0], tokens[1:]
        if command == "quit":
            return False
        handler = getattr(self, "cmd_" + command, None)
        if handler is None:
            self.error(f"unknown command {command!r}")
            return True
        if self.searching() and command not in ("isready", "stop", "ponderhit"):
            if self._infinite:
                self.error(f"{command}: an infinite search is running (send stop first)")
                return True
            self.wait()             # a bounded search: the command waits for its bestmove
        try:
            handler(args)
        except (UciError, ValueError) as exc:
            self.error(f"{command}: {exc}")
        return True

    def wait(self) -> None:
        """Wait for a bounded search's bestmove (as any command but isready
        and stop does)."""
        if self._thread is not None and self.searching() and not self._infinite:
            self._thread.join()

    def searching(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # commands
    def cmd_uci(self, args) -> None:
        from crossridor import __version__
        traits = self.game.traits
        self.send(f"id name {ENGINE_NAME} {__version__} ({traits.name}, {traits.num_players} players)")
        self.send("id author the crossridor developers")
        for param in self.declared().values():
            if not (param.file or param.python_only):
                self.send(option_line(capped(param)))
        self.send(f"option name Algorithm type combo default {self.algorithm}"
                  + "".join(f" var {name}" for name in algorithm_names()))
        self.send("option name UCI_ShowWDL type check default false")
        self.send("option name Ponder type check default false")
        self.send("uciok")

    def declared(self) -> dict[str, Param]:
        """The options of the current algorithm on this game, by name."""
        return {p.name: p for p in search_options(self.state, self.algorithm)}

    def cmd_isready(self, args) -> None:
        self.send("readyok")

    def cmd_ucinewgame(self, args) -> None:
        self.state = self.game.new_state()
        self.memory = None

    def cmd_setoption(self, args) -> None:
        if not args or args[0] != "name":
            raise UciError("expected: setoption name NAME [value VALUE]")
        rest = args[1:]
        if "value" in rest:
            at = rest.index("value")
            name, value = " ".join(rest[:at]), " ".join(rest[at + 1:])
        else:
            name, value = " ".join(rest), ""
        if not name:
            raise UciError("no option name")
        key = name.lower()
        if key == "algorithm":
            if value not in algorithm_names():
                raise UciError(f"Algorithm: unknown algorithm {value!r} (known: {', '.join(algorithm_names())})")
            self.algorithm = value
            return
        if key in ("uci_showwdl", "ponder"):
            if value.lower() not in ("true", "false", ""):
                raise UciError(f"{name}: expected true or false, got {value!r}")
            if key == "uci_showwdl":
                self.show_wdl = value.lower() == "true"
            return
        refuse_file_options([key], "UCI")
        declared = self.declared()
        param = declared.get(key)
        if param is not None and param.file:
            raise UciError(f"UCI: option {key} reads a file: options that read files are for the command line "
                           f"and the Python API only")
        if param is None or param.python_only:
            offered = sorted(UCI_NAMES.get(p.name, p.name) for p in declared.values()
                             if not (p.file or p.python_only))
            raise UciError(f"{name}: not an option of {self.game.traits.name} {self.algorithm} "
                           f"(options: {', '.join(offered) or 'none'}, Algorithm, UCI_ShowWDL, Ponder)")
        if value == "":
            self.options.pop(key, None)     # an empty value restores the default
            return
        limited = capped(param)
        try:
            self.options[key] = limited.parse(value, UCI_NAMES.get(key, key), UciError)
        except UciError as exc:
            raise UciError(f"{exc}{CAPS[key][1] if limited is not param else ''}") from None

    def cmd_position(self, args) -> None:
        if not args:
            raise UciError("expected: position startpos|pos STRING [moves ...]")
        moves_at = args.index("moves") if "moves" in args else len(args)
        head, moves = args[:moves_at], args[moves_at + 1:]
        if head == ["startpos"]:
            state = self.game.new_state()
        elif len(head) > 1 and head[0] == "pos":
            state = self.game.state_from_position(" ".join(head[1:]))
        else:
            raise UciError(f"expected startpos or pos STRING, got {' '.join(head)!r}")
        for text in _split_moves(moves):
            if state.is_terminal():
                raise UciError(f"the game is over before {text!r}")
            state.play(text)
        self.state = state

    def cmd_go(self, args) -> None:
        values, infinite, ponder = _parse_go(args)
        if self.state.is_terminal():
            raise UciError("the game is over: there is no move to search")
        limits = self.limits(values, infinite)      # checked now: ponderhit starts a search of them
        if ponder:
            limits, infinite = INFINITE, True
        algorithm = self.algorithm
        declared = self.declared()
        options = {k: v for k, v in self.options.items() if k in declared}
        state = self.state.clone()
        if "searchmoves" in values:
            if "searchmoves" not in declared:
                raise UciError(f"searchmoves: not an option of {self.game.traits.name} {algorithm}")
            try:
                options["searchmoves"] = root_moves(state, values["searchmoves"])
            except CrossridorError as exc:
                raise UciError(str(exc)) from None
        # A search with other settings would empty the table it is handed, and
        # emptying a table of many GB holds the GIL for seconds (no stop, no
        # input is read): a new, lazily zeroed table costs nothing instead.
        # With more than 2 players the search scores for the player to move.
        kept_for = (algorithm, tuple(sorted((k, v) for k, v in options.items() if k not in ROOT_OPTION_NAMES)),
                    state.current_player if self.game.traits.num_players > 2 else None)
        if self.memory is None or self.memory[0] != kept_for:
            self.memory = None      # the old table is freed before the new one is made
            self.memory = (kept_for, search_memory(state, algorithm))
        if self.memory[1] is not None:
            options["memory"] = self.memory[1]
        multipv = options.get("multipv", 1)
        if "on_iteration" in declared:
            options["on_iteration"] = lambda info: self.send_info(state, algorithm, info, multipv)
        if ponder:
            self._ponder_go = [a for a in args if a != "ponder"]
            self._ponder_end = None
            self._ponder_done.clear()
        with self._stop_lock:
            self._stop = options["stop"] = Stop()      # every search polls its Stop
            self._infinite = infinite
            if self._stops_ahead and not infinite:
                self._stop.set()        # a stop or quit already read comes after this go
        self._thread = threading.Thread(target=self._search, args=(state, algorithm, limits, options, ponder),
                                        name="uci-search", daemon=True)
        self._thread.start()

    def cmd_stop(self, args) -> None:
        self._end_ponder("stop")
        if self._stop is not None and self._thread is not None and self.searching():
            self._stop.set()
            self._thread.join()     # its bestmove comes before anything else

    def cmd_ponderhit(self, args) -> None:
        go = self._ponder_go
        if go is None:
            raise UciError("no go ponder is running")
        self._end_ponder("hit")
        if self._stop is not None:
            self._stop.set()
        if self._thread is not None:
            self._thread.join()     # the ponder search ends without a bestmove
        self._infinite = False
        self.cmd_go(go)             # the same position, from the table the ponder search filled

    def _end_ponder(self, how: str) -> None:
        """The end of a `go ponder` (ponderhit or stop); the ponder search
        sends its bestmove only after a stop."""
        if self._ponder_go is not None:
            self._ponder_go = None
            self._ponder_end = how
            self._ponder_done.set()

    def finish(self) -> None:
        """End of input or `quit`: stop the running search (it sends its bestmove)."""
        self._end_ponder("stop")
        if self._thread is not None:
            if self._stop is not None:
                self._stop.set()
            self._thread.join()

    # helpers
    def limits(self, values: dict, infinite: bool) -> Limits:
        if infinite:
            return INFINITE
        fields = {k: values[k] for k in ("depth", "nodes", "sims") if k in values}
        if "movetime" in values:
            fields["time"] = values["movetime"] / 1000.0
        player = self.state.current_player
        clock = ("wtime", "winc") if player % 2 == 0 else ("btime", "binc")
        try:
            if clock[0] in values:
                # the search allots itself a share (search_api.time_for_move)
                fields["clock"] = Clock(max(values[clock[0]], 1) / 1000.0, values.get(clock[1], 0) / 1000.0,
                                        values.get("movestogo"))
            if not fields:
                fields["time"] = DEFAULT_TIME
            return Limits(**fields)
        except ValueError as exc:
            raise UciError(str(exc)) from None

    def send_info(self, state, algorithm: str, info, multipv: int) -> None:
        for line in info_lines(state, algorithm, info, multipv, self.show_wdl):
            self.send(line)

    def _search(self, state, algorithm, limits, options, ponder: bool = False) -> None:
        try:
            try:
                result = search(state, algorithm, limits, **options)
            except MemoryError:
                default = next((p.default for p in search_options(state, algorithm) if p.name == "hash"), None)
                if default is None or options.get("hash", default) == default:
                    raise
                self.error(f"go: cannot allocate a Hash table of {options['hash']} MB: "
                           f"searching with {default} MB")
                result = search(state, algorithm, limits, **dict(options, hash=default))
        except (CrossridorError, ValueError, TypeError, MemoryError) as exc:
            if ponder:
                self._ponder_done.wait()
                if self._ponder_end == "hit":
                    return
            self.error(f"go: {exc}")
            self.send("bestmove (none)")
            return
        if "on_iteration" not in options or not result.pv:
            self.send_info(state, algorithm, result, options.get("multipv", 1))
        if ponder:
            self._ponder_done.wait()    # a search that ended by itself (a proof) waits too
            if self._ponder_end == "hit":
                return
        expected = result.pv[1] if len(result.pv) > 1 and result.pv[0] == result.move else None
        self.send(f"bestmove {_move_token(result.move)}"
                  + (f" ponder {_move_token(expected)}" if expected is not None else ""))


def info_lines(state, algorithm: str, info, multipv: int, show_wdl: bool = False) -> list[str]:
    """The `info` lines of a finished depth (or of the result): with
    MultiPV 1 one line, `info depth D score S nodes N nps X time MS pv ...`;
    with MultiPV N > 1 one line per line found, best first, each with its
    own depth, score and pv after `multipv k` (Stockfish's format; the
    nodes, speed and time are the search's). `show_wdl` (UCI_ShowWDL): each
    score is followed by `wdl W D L`."""
    def score(value, extra) -> str:
        text = score_text(state, algorithm, value, extra)
        if show_wdl:
            text += " wdl " + " ".join(str(x) for x in outlook(state, algorithm, value, extra).wdl)
        return text

    tail = f"nodes {info.nodes} nps {round(info.nps)} time {round(1000 * info.seconds)}"
    if multipv == 1 or not info.lines:
        return [f"info depth {info.depth} score {score(info.score, info.extra)} {tail}" + _pv(info.pv)]
    return [f"info depth {line.depth or info.depth} multipv {k} "
            f"score {score(line.score, {**info.extra, **line.extra})} {tail}" + _pv(line.pv)
            for k, line in enumerate(info.lines, 1)]


def _pv(moves) -> str:
    return " pv " + " ".join(_move_token(m) for m in moves) if moves else ""


def capped(param: Param) -> Param:
    """The option with this machine's cap (CAPS) on its upper bound."""
    if param.name not in CAPS:
        return param
    typ, low, high = param.kind
    return dataclasses.replace(param, kind=(typ, low, min(high, CAPS[param.name][0])))


def option_line(param: Param) -> str:
    """The `option` line of a declared option: spin for an integer range,
    check for true/false, combo for a choice, string for anything else (a
    number with a fraction, a text)."""
    name, d, default = UCI_NAMES.get(param.name, param.name), param.describe(), param.default
    if d["type"] == "bool":
        return f"option name {name} type check default {'true' if default else 'false'}"
    if d["type"] == "int":
        return f"option name {name} type spin default {default} min {d['min']} max {d['max']}"
    if d["type"] == "choice" and all(isinstance(k, str) for k in d["choices"]):
        return f"option name {name} type combo default {default}" + "".join(f" var {k}" for k in d["choices"])
    text = "<empty>" if default is None else repr(default) if isinstance(default, float) else str(default)
    return f"option name {name} type string default {text}"


def _int(text: str, name: str, low: int, high: int, why: str = "") -> int:
    try:
        value = int(text)
    except ValueError:
        raise UciError(f"{name}: expected an integer, got {text!r}") from None
    if not low <= value <= high:
        raise UciError(f"{name}: must be in [{low}, {high}]{why}, got {value}")
    return value


def _parse_go(args) -> tuple[dict, bool, bool]:
    values: dict = {}
    infinite = ponder = False
    i = 0
    while i < len(args):
        word = args[i]
        if word == "infinite":
            infinite = True
            i += 1
        elif word == "ponder":
            ponder = True
            i += 1
        elif word in GO_INTS:
            if i + 1 >= len(args):
                raise UciError(f"{word}: no value")
            low = 0 if word in ("wtime", "btime", "winc", "binc") else 1
            values[word] = _int(args[i + 1], word, low, 1 << 62)
            i += 2
        elif word == "searchmoves":
            # the last group: every word after it is a move
            if i + 1 >= len(args):
                raise UciError("searchmoves: no move")
            values["searchmoves"] = _split_moves(args[i + 1:])
            break
        else:
            raise UciError(f"unknown go parameter {word!r}")
    return values, infinite, ponder


def _move_token(move) -> str:
    """A move as one token: moves with spaces (Crosswise's `move c4>d5`) use `_`."""
    return str(move).replace(" ", "_")


def _split_moves(tokens) -> list:
    return [t.replace("_", " ") for t in tokens]


def _stops(line: str) -> bool:
    return line.split()[:1] in (["stop"], ["quit"])


def _lines(stream: TextIO):
    """The lines of `stream`; _TOO_LONG in place of one longer than MAX_LINE
    characters (the rest of which is read and dropped)."""
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        if len(line) <= MAX_LINE or line.endswith("\n"):
            yield line
            continue
        while line and not line.endswith("\n"):
            line = stream.readline(MAX_LINE)
        yield _TOO_LONG


def run(game, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Serve the protocol on stdin/stdout (those of the moment it is called)
    until `quit` or end of input."""
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if hasattr(stdin, "reconfigure"):
        stdin.reconfigure(errors="replace")    # a bad byte is an unknown command, not the end
    return UciSession(game, stdout).run(stdin)
