"""The worker layer of the match runner: plain data in, plain data out.

`play_game(task: GameTask) -> GameRecord` plays one whole game. A task holds
only picklable values (the game's registry name and parameters, engine
specs, seats, opening moves in notation, a seed, a ply cap), and so does the
record, so any executor can run it: the in-process `InlineExecutor`, a
`concurrent.futures.ProcessPoolExecutor` (the default), or a Dask cluster
(`crossridor.engine.match.cluster.ClusterExecutor`, `match --scheduler`).

An engine is opened once per game (`EngineSpec.open()`): a built-in one
searches in this process, an outside one (`uci:COMMAND`) runs as a child
process for the game (`crossridor.engine.match.outside_engine`).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import hashlib
import importlib
import multiprocessing
import os
import random
import signal
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from crossridor.engine import stop as _stop
from crossridor.engine.cli.common import convert_value
from crossridor.engine.errors import CrossridorError
from crossridor.engine.protocol import CHANCE, Clock, Limits
from crossridor.engine.registry import load_game
from crossridor.engine.search_api import algorithm_names, clock_as_time, manages_clock, search, time_for_move
from crossridor.engine.clocks import DEFAULT_TIME_MARGIN, SeatClock, TimeControl

# --- engine specs -----------------------------------------------------------------

LIMIT_KEYS = {"time": float, "depth": int, "nodes": int, "sims": int}

# An engine given no limit gets a fixed-size one, so that a match with
# default limits gives the same result at any concurrency (a time limit
# does not: it depends on the machine's load).
DEFAULT_LIMITS = {
    "alphabeta": Limits(depth=2),
    "mcts": Limits(sims=1000),
    "ismcts": Limits(sims=1000),
    "random": Limits(depth=1),   # ignored by the algorithm
    "greedy": Limits(depth=1),   # ignored by the algorithm
}
FALLBACK_LIMITS = Limits(time=1.0)
RESERVED_OPTIONS = ("seed",)
LIMITLESS = ("random", "greedy")   # no limit shown unless given


UCI_PREFIX = "uci:"
UCI_LIMIT_KEYS = ("time", "depth", "nodes")


@dataclass(frozen=True)
class EngineSpec:
    """`ALGORITHM[:key=value,...]`, e.g. `alphabeta:time=0.1` or
    `mcts:sims=2000,rollout=random`. Keys time/depth/nodes/sims become the
    Limits, `tc=BASE+INC` (or MOVES/BASE+INC) a game clock, every other key an
    algorithm option (e.g. threads=2).

    An outside engine is `uci:COMMAND[;key=value,...]` (algorithm "uci"):
    time/depth/nodes are the limits sent with `go`, tc a clock sent as
    `go wtime/btime/winc/binc`, `margin` the seconds it may run past `time`,
    every other key a `setoption` (see uci_engine)."""

    algorithm: str
    limits: Limits
    options: tuple = ()          # sorted (key, value) pairs
    explicit_limits: bool = field(default=True, compare=False)
    command: str | None = None   # uci: the command line
    tc: TimeControl | None = None   # a game clock (tc=60+0.5): the search is told the time left

    @classmethod
    def parse(cls, text: str) -> "EngineSpec":
        raw = str(text).strip()
        if raw[:len(UCI_PREFIX)].lower() == UCI_PREFIX:
            return cls._parse_uci(text, raw[len(UCI_PREFIX):])
        name, sep, rest = raw.partition(":")
        name = name.strip().lower()
        if not name:
            raise CrossridorError(f"engine spec {text!r}: no algorithm (expected ALGORITHM[:key=value,...])")
        if name not in algorithm_names():
            raise CrossridorError(f"engine spec {text!r}: unknown algorithm {name!r} "
                                  f"(known: {', '.join(algorithm_names())})")
        limit_fields: dict = {}
        options: dict = {}
        if sep and not rest.strip():
            raise CrossridorError(f"engine spec {text!r}: nothing after ':'")
        for part in rest.split(",") if rest.strip() else []:
            key, eq, value = part.partition("=")
            key = key.strip()
            value = value.strip()
            if not eq or not key or not value:
                raise CrossridorError(f"engine spec {text!r}: {part.strip()!r} is not key=value")
            if key in limit_fields or key in options:
                raise CrossridorError(f"engine spec {text!r}: {key!r} given twice")
            if key in RESERVED_OPTIONS:
                raise CrossridorError(f"engine spec {text!r}: {key!r} is set by the match (use --seed)")
            if key == "tc":
                limit_fields[key] = TimeControl.parse(value)
            elif key in LIMIT_KEYS:
                try:
                    limit_fields[key] = LIMIT_KEYS[key](value)
                except ValueError:
                    raise CrossridorError(f"engine spec {text!r}: {key} must be "
                                          f"{'a number' if key == 'time' else 'an integer'}, "
                                          f"got {value!r}") from None
            else:
                options[key] = convert_value(value)
        tc = limit_fields.pop("tc", None)
        if limit_fields or tc is not None:
            try:
                limits = Limits(**limit_fields, clock=_start_clock(tc))
            except ValueError as exc:
                raise CrossridorError(f"engine spec {text!r}: {exc}") from None
            explicit = True
        else:
            limits = DEFAULT_LIMITS.get(name, FALLBACK_LIMITS)
            explicit = False
        return cls(name, limits, tuple(sorted(options.items())), explicit, tc=tc)

    @classmethod
    def _parse_uci(cls, text: str, rest: str) -> "EngineSpec":
        command, _, keys = rest.partition(";")
        command = command.strip()
        if not command:
            raise CrossridorError(f"engine spec {text!r}: no command after 'uci:' (expected uci:COMMAND[;key=value,...])")
        limit_fields: dict = {}
        options: dict = {}
        for part in keys.split(",") if keys.strip() else []:
            key, eq, value = (x.strip() for x in part.partition("="))
            if not eq or not key or not value:
                raise CrossridorError(f"engine spec {text!r}: {part.strip()!r} is not key=value")
            if key in limit_fields or key in options:
                raise CrossridorError(f"engine spec {text!r}: {key!r} given twice")
            if key == "tc":
                limit_fields[key] = TimeControl.parse(value)
            elif key in UCI_LIMIT_KEYS or key == "margin":
                try:
                    number = LIMIT_KEYS[key](value) if key in LIMIT_KEYS else float(value)
                except ValueError:
                    raise CrossridorError(f"engine spec {text!r}: {key} must be a number, got {value!r}") from None
                if key == "margin":
                    if not number >= 0:
                        raise CrossridorError(f"engine spec {text!r}: margin must be >= 0 seconds")
                    options[key] = number
                else:
                    limit_fields[key] = number
            else:
                options[key] = value
        tc = limit_fields.pop("tc", None)
        try:
            limits = Limits(**limit_fields, clock=_start_clock(tc)) if limit_fields or tc else FALLBACK_LIMITS
        except ValueError as exc:
            raise CrossridorError(f"engine spec {text!r}: {exc}") from None
        return cls("uci", limits, tuple(sorted(options.items())), bool(limit_fields) or tc is not None,
                   command, tc)

    def with_tc(self, tc: TimeControl) -> "EngineSpec":
        """This engine on the clock `tc` (the match's --tc), unless it has its own."""
        if self.tc is not None:
            return self
        base = self.limits if self.explicit_limits else None
        fields = {k: getattr(base, k) for k in ("time", "depth", "nodes", "sims")} if base else {}
        return dataclasses.replace(self, limits=Limits(**fields, clock=_start_clock(tc)),
                                   explicit_limits=True, tc=tc)

    def __str__(self) -> str:
        tc = [f"tc={self.tc}"] if self.tc is not None else []
        if self.command is not None:
            parts = [f"{k}={getattr(self.limits, k):g}" for k in UCI_LIMIT_KEYS
                     if self.explicit_limits and getattr(self.limits, k) is not None]
            parts += tc + [f"{k}={_fmt(v)}" for k, v in self.options]
            return UCI_PREFIX + self.command + (";" + ",".join(parts) if parts else "")
        parts = []
        if self.explicit_limits or self.algorithm not in LIMITLESS:
            parts = [f"{k}={getattr(self.limits, k):g}" for k in LIMIT_KEYS
                     if getattr(self.limits, k) is not None]
        parts += tc + [f"{k}={_fmt(v)}" for k, v in self.options]
        return self.algorithm + (":" + ",".join(parts) if parts else "")

    def open(self):
        """A player for one game: `choose(state, moves, seed)` -> move, and
        `close()`. An outside engine's process lives as long as its player."""
        if self.command is None:
            return _SearchPlayer(self)
        from crossridor.engine.match.outside_engine import DEFAULT_MARGIN, UciPlayer
        options = dict(self.options)
        margin = options.pop("margin", DEFAULT_MARGIN)
        limits = self.limits
        if self.tc is not None:     # the clock goes with each `go`; keep only the other limits
            rest = {k: getattr(limits, k) for k in UCI_LIMIT_KEYS if getattr(limits, k) is not None}
            limits = Limits(**rest) if rest else None
        return UciPlayer(self.command, limits, tuple(options.items()), margin)

    def search(self, state, seed: int | None, clock: Clock | None = None):
        """The engine's move in `state` (a SearchResult); `clock`: the
        mover's clock now (an engine with a time control)."""
        if self.command is not None:
            raise CrossridorError(f"engine {self}: an outside engine plays through open()")
        limits = self.limits if clock is None else dataclasses.replace(self.limits, clock=clock)
        try:
            return search(state, self.algorithm, limits, seed=seed, **dict(self.options))
        except ImportError as exc:
            raise CrossridorError(f"engine {self}: algorithm {self.algorithm!r} is not available ({exc})") from None
        except TypeError as exc:
            # An unknown algorithm option reaches the algorithm as a keyword.
            if "argument" in str(exc):
                raise CrossridorError(f"engine {self}: {exc}") from None
            raise


def _start_clock(tc: TimeControl | None) -> Clock | None:
    return None if tc is None else SeatClock(tc).for_search()


def move_budget(spec: EngineSpec, state, clock: Clock | None) -> tuple | None:
    """(soft, hard) seconds a built-in engine gives itself for a move: its
    move time, or its share of the clock (search_api.time_for_move; a search
    without a time manager of its own takes the soft share as its move
    time); None without a time limit or for an outside engine on a clock."""
    limits = spec.limits
    if clock is not None:
        if spec.command is not None:
            return None
        if not manages_clock(state, spec.algorithm):
            share = clock_as_time(dataclasses.replace(limits, clock=clock)).time
            return share, share
        plan = time_for_move(clock.time_left, clock.increment, clock.moves_to_go)
        if limits.time is not None:
            return min(plan.soft, limits.time), min(plan.hard, limits.time)
        return plan.soft, plan.hard
    if limits.time is not None:
        return limits.time, limits.time
    return None


class _SearchPlayer:
    """A built-in engine as a player: one search per move."""

    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.last_score = None   # the score of the last search (self-play data)

    def choose(self, state, moves: list, seed: int | None, clocks: list | None = None):
        """The move; `clocks`: each seat's Clock now (None: no clock)."""
        clock = clocks[state.current_player] if clocks else None
        result = self.spec.search(state.clone(), seed, clock)
        self.last_score = result.score
        return result.move

    def close(self) -> None:
        pass


def _fmt(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    return f"{v:g}" if isinstance(v, float) else str(v)


# --- games and seeds --------------------------------------------------------------

def resolve_game(name: str, params: dict):
    """A registered game (`quoridor`), or a plug-in given as `module:function`
    (called with the parameters; e.g. a test's toy game)."""
    if ":" in name:
        module, _, attr = name.partition(":")
        try:
            factory = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            raise CrossridorError(f"game {name!r}: cannot import it ({exc})") from None
        return factory(**params)
    return load_game(name, **params)


_GAMES: dict = {}


def cached_game(name: str, params: dict):
    """One game object per worker process and (name, params)."""
    key = (name, tuple(sorted((k, repr(v)) for k, v in params.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = resolve_game(name, params)
    return game


def derive_seed(*parts) -> int:
    """A 63-bit seed from any values (stable across processes and runs,
    unlike `hash`)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def dealt(game) -> bool:
    """Whether the start position is dealt from a seed."""
    return bool(game.traits.chance or game.traits.hidden_information)


def new_game_state(game, opening=(), seed: int | None = None):
    """The start position (seeded for games that deal one: with chance or
    hidden information, e.g. Crosswise's tiles), then the opening."""
    if seed is not None and dealt(game):
        state = game.new_state(None, seed=seed)
    else:
        state = game.new_state()
    for ply, text in enumerate(opening):
        if state.is_terminal():
            raise CrossridorError(f"opening {' '.join(opening)!r}: the game is over before move "
                                  f"{ply + 1} ({text!r})")
        state.play(text)
    return state


def winner_seat(returns) -> int | None:
    """The seat with the unique best return, or None (a draw)."""
    if not returns:
        return None
    best = max(returns)
    seats = [i for i, r in enumerate(returns) if r == best]
    return seats[0] if len(seats) == 1 else None


def _number(value):
    """An int when the value is integral (points stay ints in JSON)."""
    value = float(value)
    return int(value) if value.is_integer() else value


def seat_points(game, state) -> list | None:
    """The points of each seat in `state` (a game's score, as opposed to its
    win/loss returns), or None for a game without points. A state offers
    them as `points()` (one number per seat), or as `scores()` (one number
    per team of `game.traits.teams`, e.g. Crosswise's (Rows, Columns))."""
    n = game.traits.num_players
    points = getattr(state, "points", None)
    if callable(points):
        values = list(points())
    else:
        scores = getattr(state, "scores", None)
        teams = getattr(game.traits, "teams", ())
        if not callable(scores) or not teams:
            return None
        by_team = list(scores())
        values = [None] * n
        for team, team_seats in enumerate(teams):
            for seat in team_seats:
                values[seat] = by_team[team]
        if None in values:
            return None
    if len(values) != n:
        return None
    return [_number(v) for v in values]


# --- tasks and records ------------------------------------------------------------

@dataclass(frozen=True)
class GameTask:
    """One game to play. `seats[s]` is the index (in `engines`) of the engine
    at seat s; `engines` are the match's engines in command-line order."""

    index: int
    game: str
    params: dict
    engines: tuple            # EngineSpec, match order
    seats: tuple              # engine index per seat
    opening: tuple = ()       # moves in notation
    seed: int = 0             # the engines' seeds derive from it
    deal_seed: int | None = None   # chance games: the start position's seed
    max_plies: int | None = None   # None: play to the end
    match_seed: int = 0
    record_scores: bool = False    # keep each search's score in the record (self-play)
    time_margin: float = DEFAULT_TIME_MARGIN   # seconds past its clock before a move loses on time


@dataclass
class GameRecord:
    """A finished game: one JSON line of the records file."""

    index: int
    seed: int
    deal_seed: int | None
    seats: list               # engine index per seat
    engines: list             # engine spec per seat
    result: str               # "1-0", "0-1", "1/2-1/2"; n players: "0-1-0-0" or "draw"
    returns: list             # per seat
    winner: int | None        # seat, or None for a draw
    winner_engine: int | None
    reason: str               # "terminal", "max_plies", "time" (a clock ran out), or an outside
                              # engine's crash, timeout, illegal_move
    moves: list               # every move from the start, in notation
    opening_plies: int
    plies: int
    seconds: float
    game: str = ""
    params: dict = field(default_factory=dict)
    match_engines: list = field(default_factory=list)   # engine specs, match order
    match_seed: int = 0
    max_plies: int | None = 0
    points: list | None = None   # per seat, from the final state; absent for games without points
    # an outside engine lost by misbehaving: seat, engine, ply, reason, detail, stderr (last lines)
    failure: dict | None = None
    # with GameTask.record_scores: the mover's search score for each move after the opening
    scores: list | None = None
    # per engine move after the opening: [seat, seconds taken, soft, hard], soft and hard the
    # seconds the engine gave itself (its move time, or its share of the clock; null: no time
    # limit, or an outside engine on a clock)
    think: list | None = None
    clocks: list | None = None   # with a time control: each seat's clock at the end (seconds)

    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        for key in ("points", "failure", "scores", "think", "clocks"):
            if d[key] is None:
                del d[key]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "GameRecord":
        names = {f.name for f in dataclasses.fields(cls)}
        missing = names - set(d) - {"game", "params", "match_engines", "match_seed", "max_plies", "points",
                                        "failure", "scores", "think", "clocks"}
        if missing:
            raise ValueError(f"record lacks {', '.join(sorted(missing))}")
        return cls(**{k: v for k, v in d.items() if k in names})


def result_string(returns, winner: int | None, winners=None) -> str:
    """`winners`: the seats of a shared win (a team), if `winner` is None."""
    n = len(returns)
    if winner is not None:
        winners = (winner,)
    if not winners:
        return "1/2-1/2" if n == 2 else "draw"
    return "-".join("1" if seat in winners else "0" for seat in range(n))


def winning_engine(returns, seats) -> tuple[int | None, tuple]:
    """(engine, seats) of the win: the engine of the seats with the best
    return when they all belong to one engine and someone has less (a team
    game won by the engine that holds the whole team), else (None, ())."""
    if not returns:
        return None, ()
    best = max(returns)
    top = tuple(s for s, r in enumerate(returns) if r == best)
    if len(top) == len(returns) or len({seats[s] for s in top}) != 1:
        return None, ()
    return seats[top[0]], top


def play_game(task: GameTask) -> GameRecord:
    """Play one game to the end or to `max_plies` (a draw, reason
    "max_plies"). Deterministic for a task whose engines have no time limit:
    the engine's seed at ply p is derive_seed(task.seed, p)."""
    from crossridor.engine.match.outside_engine import EngineFailure
    start = time.perf_counter()
    game = cached_game(task.game, task.params)
    state = new_game_state(game, task.opening, task.deal_seed)
    moves = list(task.opening)
    chance_rng = random.Random(derive_seed(task.seed, "chance"))
    cap = task.max_plies
    players: dict = {}           # engine index -> its player for this game
    failure = None
    scores: list | None = [] if task.record_scores else None
    think: list = []
    seat_clocks = [SeatClock(task.engines[e].tc) if task.engines[e].tc is not None else None
                   for e in task.seats]
    try:
        while not state.is_terminal() and (cap is None or len(moves) < cap):
            if _stop.interrupted():
                raise _stop.Interrupted(f"game {task.index} interrupted")   # not a finished game
            player = state.current_player
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                move = chance_rng.choices([m for m, _ in outcomes], weights=[p for _, p in outcomes])[0]
            else:
                spec = task.engines[task.seats[player]]
                clocks = [None if c is None else c.for_search() for c in seat_clocks]
                try:
                    if task.seats[player] not in players:
                        players[task.seats[player]] = spec.open()
                    budget = move_budget(spec, state, clocks[player])
                    began = time.perf_counter()
                    move = players[task.seats[player]].choose(state, moves, derive_seed(task.seed, len(moves)),
                                                               clocks if seat_clocks[player] else None)
                    seconds = time.perf_counter() - began
                    think.append([player, round(seconds, 4)]
                                 + ([None, None] if budget is None else [round(b, 4) for b in budget]))
                    if seat_clocks[player] is not None and not seat_clocks[player].charge(seconds, task.time_margin):
                        tail = getattr(players[task.seats[player]], "stderr_tail", list)()
                        raise EngineFailure("time", f"the move took {seconds:.3f} s with "
                                                    f"{clocks[player].time_left:.3f} s on the clock", tail)
                except EngineFailure as exc:
                    # an engine out of time, or an outside engine that misbehaves, loses the game;
                    # the match goes on
                    failure = dict(seat=player, engine=str(spec), ply=len(moves) + 1, **exc.as_dict())
                    break
                except CrossridorError as exc:
                    raise CrossridorError(f"game {task.index}, engine {spec} after the moves "
                                          f"{' '.join(moves) or '(none)'!r}: {exc}") from exc
                if move is None:
                    raise CrossridorError(f"engine {spec} returned no move in game {task.index} "
                                          f"at ply {len(moves) + 1}")
                if scores is not None:
                    scores.append(getattr(players[task.seats[player]], "last_score", None))
            state.play(move)
            moves.append(str(move))
    finally:
        for p in players.values():
            p.close()
    if failure is not None:
        reason = failure["reason"]
        loser = task.seats[failure["seat"]]
        traits = game.traits
        returns = [float(traits.min_return if e == loser else traits.max_return) for e in task.seats]
        winner = winner_seat(returns)
    elif state.is_terminal():
        reason = "terminal"
        returns = [float(r) for r in state.returns()]
        winner = winner_seat(returns)
    else:
        reason = "max_plies"
        returns = [0.0] * len(task.seats)
        winner = None
    # A team's shared win (no single winning seat) counts for the engine
    # holding every seat of the team.
    if winner is not None:
        winner_engine, winners = task.seats[winner], (winner,)
    elif reason != "max_plies":
        winner_engine, winners = winning_engine(returns, task.seats)
    else:
        winner_engine, winners = None, ()
    return GameRecord(
        index=task.index, seed=task.seed, deal_seed=task.deal_seed, seats=list(task.seats),
        engines=[str(task.engines[e]) for e in task.seats],
        result=result_string(returns, winner, winners), returns=returns, winner=winner,
        winner_engine=winner_engine,
        reason=reason, moves=moves, opening_plies=len(task.opening), plies=len(moves),
        seconds=round(time.perf_counter() - start, 4),
        game=task.game, params=dict(task.params), match_engines=[str(e) for e in task.engines],
        match_seed=task.match_seed, max_plies=task.max_plies,
        points=None if failure else seat_points(game, state), failure=failure, scores=scores,
        think=think,
        clocks=[None if c is None else round(c.left, 4) for c in seat_clocks] if any(seat_clocks) else None)


# --- executors --------------------------------------------------------------------

class InlineExecutor(concurrent.futures.Executor):
    """Runs each task at `submit`, in this process (concurrency 1; also
    handy under a debugger)."""

    def submit(self, fn, /, *args, **kwargs):
        future: concurrent.futures.Future = concurrent.futures.Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller like a pool would
            if isinstance(exc, (KeyboardInterrupt, SystemExit)):
                raise
            future.set_exception(exc)
        return future


def _worker_init(parent_pid: int) -> None:
    """In each worker: leave Ctrl-C to the parent (which stops the pool),
    and exit if the parent dies (killed with SIGKILL, say)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)   # not the CLI's handler, inherited by fork

    def watch():
        while True:
            time.sleep(1.0)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class _WorkerContext:
    """The multiprocessing context of a worker pool (the default start
    method) that remembers the processes it makes: ProcessPoolExecutor has
    no public way to end its workers before Python 3.14."""

    def __init__(self):
        self._context = multiprocessing.get_context()
        self.processes: list = []

    def Process(self, *args, **kwargs):  # noqa: N802 (the context API's name)
        process = self._context.Process(*args, **kwargs)
        self.processes.append(process)
        return process

    def __getattr__(self, name):
        return getattr(self._context, name)


class WorkerPool(concurrent.futures.ProcessPoolExecutor):
    """A process pool for games whose workers can be ended at once."""

    def __init__(self, max_workers: int):
        self.worker_context = _WorkerContext()
        super().__init__(max_workers=max_workers, mp_context=self.worker_context,
                         initializer=_worker_init, initargs=(os.getpid(),))

    def terminate_workers(self) -> None:
        """End every worker process now (as Python 3.14's method of this name)."""
        for process in self.worker_context.processes:
            if process.is_alive():
                process.terminate()


def make_executor(concurrency: int) -> concurrent.futures.Executor:
    if concurrency <= 1:
        return InlineExecutor()
    return WorkerPool(concurrency)


def stop_executor(executor: concurrent.futures.Executor, abort: bool) -> None:
    """Shut an executor down: wait for the running games, or (abort: after
    an error or an interrupt) end the worker processes at once."""
    if abort:
        terminate = getattr(executor, "terminate_workers", None)
        if terminate is not None:
            terminate()
        executor.shutdown(wait=False, cancel_futures=True)
    else:
        executor.shutdown(wait=True, cancel_futures=True)
