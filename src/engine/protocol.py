"""The game protocol every game implements and every search algorithm speaks.

Modelled on OpenSpiel's `State`: one mutable state per position, snake_case
methods, moves as small immutable values with a text form. Search modules
(`crossridor.engine.algorithms`) use only what is written here; they import no game.

Players are numbered 0..n-1. `current_player` is one of them, or `CHANCE`
while a chance event (a deal, a draw) is pending, or `TERMINAL` once the
game is over.
"""

from __future__ import annotations

import abc
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import NotImplementedType
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

CHANCE = -1
TERMINAL = -2
# `state.view(SPECTATOR)`: what someone at the table who holds no seat sees
# (the public information); `view(None)` is everything, `view(p)` seat p's view.
SPECTATOR = -1


@dataclass(frozen=True)
class GameTraits:
    """What a search algorithm must know about a game before it searches it."""

    name: str
    num_players: int
    chance: bool = False              # chance nodes (deals, draws) occur during play
    hidden_information: bool = False  # some players cannot see part of the state
    zero_sum: bool = True             # returns() sum to 0 in every terminal state
    min_return: float = -1.0
    max_return: float = 1.0
    # Players who share one goal (teams); () when everyone plays for themselves.
    teams: tuple[tuple[int, ...], ...] = ()


@runtime_checkable
class State(Protocol):
    """A position. Mutable: `play` and `undo` change it in place."""

    @property
    def game(self) -> "Game":
        """The game it is a position of (each game's own class)."""

    @property
    def current_player(self) -> int: ...

    def legal_moves(self) -> Sequence[Hashable]:
        """The legal moves of the player to move (or the chance outcomes at a
        chance node). Moves are hashable, immutable, and `str(move)` is their
        notation; `parse_move(str(move)) == move`."""

    def play(self, move: Any) -> None:
        """Play a move (an object from `legal_moves()` or its text)."""

    def undo(self) -> None:
        """Take back the last move played. Raises IndexError at the root."""

    def clone(self) -> Self: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]:
        """Per-player game value, in [min_return, max_return]; all zeros
        before the end."""

    def parse_move(self, text: str) -> Hashable:
        """A legal move from its text. Raises InvalidMoveError for text that
        is not a move, IllegalMoveError for a move that is not legal here."""

    # Chance (only for games with traits.chance):
    #   chance_outcomes() -> list[(move, probability)] at a CHANCE node.
    #   chance_round() -> hashable (optional): which shuffle the draw comes
    #       from, where the same cards are shuffled again (a new stage).
    # Hidden information (only for games with traits.hidden_information):
    #   information_state(player) -> str: everything `player` knows, and
    #       nothing else; equal strings = indistinguishable positions.
    #   render(viewer) -> str: the position as seat `viewer` (0-based) may see it
    #     (the one filter of hidden information: `show --viewer`, `play`);
    #   move_text(move, viewer) -> str: how `viewer` sees `move` played now;
    #   sample_determinization(player, rng: random.Random) -> State: a full
    #       state consistent with what `player` knows, hidden parts sampled.
    # Pictures and the web app (every game):
    #   view(viewer=None) -> dict: the one filter of what seat `viewer` may
    #       see (None: everything, SPECTATOR: the public part), as plain
    #       JSON-ready data; text rendering, SVG and web responses use only it.
    #   to_svg(viewer=None, last_move=True, arrows=()) -> str (games/svg.py).
    # Optional heuristic for cut-off searches and MCTS evaluators:
    #   evaluate() -> list[float]: per-player estimate in [min, max] return.


AnyState = TypeVar("AnyState", bound=State)


def play_moves(state: AnyState, moves: str | Iterable[Any] | None, sep: str | None = None) -> AnyState:
    """Play `moves` on `state` in order and return it: a string of moves
    separated by `sep` (default: whitespace), or an iterable of moves or
    their texts."""
    if moves:
        if isinstance(moves, str):
            moves = [m for m in moves.split(sep) if m.strip()]
        for move in moves:
            state.play(move)
    return state


def applied(state: AnyState, move: Any) -> AnyState:
    """A copy of `state` with `move` played (`state` is unchanged)."""
    copy = state.clone()
    copy.play(move)
    return copy


@runtime_checkable
class Game(Protocol):
    name: str
    traits: GameTraits
    params: dict[str, Any]

    def new_state(self, moves: str | Iterable[Any] | None = None, seed: int | None = None) -> State: ...

    def state_from_position(self, position: str) -> State: ...


# The largest limits: they go into a C int (depth) and a C long long
# (nodes, sims), and are exact; larger ones could not be reached anyway.
LIMIT_MAX_DEPTH = 2 ** 31 - 1
LIMIT_MAX_COUNT = 2 ** 62


LIMIT_MAX_SECONDS = 1e7      # time limits and clocks: below about 115 days


def _seconds(what: str, value: Any, low_ok: bool) -> None:
    """A finite number of seconds in (0, LIMIT_MAX_SECONDS), or [0, ...) if low_ok."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not (value >= 0 if low_ok else value > 0) or not value < LIMIT_MAX_SECONDS:
        kind = "a number of seconds >= 0" if low_ok else "a positive number of seconds"
        raise ValueError(f"{what} must be {kind} below {LIMIT_MAX_SECONDS:g}, got {value!r}")


@dataclass(frozen=True)
class Clock:
    """A game clock as the search sees it: the mover's time left, its
    increment per move, and the moves until the next time control (None:
    the rest of the game, sudden death). The search gives itself a share
    (`crossridor.engine.search_api.time_for_move`)."""

    time_left: float                 # seconds on the mover's clock
    increment: float = 0.0           # seconds added after each move
    moves_to_go: int | None = None   # moves until the clock is filled up again

    def __post_init__(self) -> None:
        _seconds("clock: time left", self.time_left, low_ok=False)
        _seconds("clock: increment", self.increment, low_ok=True)
        m = self.moves_to_go
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or not 1 <= m <= 10000):
            raise ValueError(f"clock: moves to go must be an integer in [1, 10000], got {m!r}")


@dataclass(frozen=True)
class Limits:
    """How long a search may run. Unset fields are no limit; at least one
    must be set. Depth, nodes and sims are kept exactly; time to within a
    few milliseconds. `time` is the budget of this move (all of it is
    used unless the answer is clear early); `clock` a game clock, from
    which the search allots itself a soft and a hard limit (both may be
    given: `time` then caps the clock's share)."""

    time: float | None = None    # seconds
    depth: int | None = None     # plies (alpha-beta) / tree depth
    nodes: int | None = None     # nodes visited
    sims: int | None = None      # MCTS simulations
    clock: Clock | None = None   # the mover's clock

    def __post_init__(self) -> None:
        if self.time is None and self.depth is None and self.nodes is None and self.sims is None \
                and self.clock is None:
            raise ValueError("limits: set at least one of time, depth, nodes, sims, clock")
        if self.time is not None:
            _seconds("limits: time", self.time, low_ok=False)
        if self.clock is not None and not isinstance(self.clock, Clock):
            raise ValueError(f"limits: clock must be a Clock, got {type(self.clock).__name__}")
        for name, high in (("depth", LIMIT_MAX_DEPTH), ("nodes", LIMIT_MAX_COUNT), ("sims", LIMIT_MAX_COUNT)):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= high):
                raise ValueError(f"limits: {name} must be an integer in [1, {high}], got {v!r}")


@dataclass(frozen=True)
class Line:
    """One line of a MultiPV search (`multipv=N`): a root move, its score
    (as `SearchResult.score`: from the side to move's point of view), the
    depth it was searched to, and its principal variation, first move
    first. `extra`: figures of the algorithm (an MCTS root child's visits).
    `outlook`: what the score means to a person (`crossridor.engine.outlook.
    Outlook`: expected score, win/draw/loss chances, a proven result),
    attached by `search_api.search`."""

    move: Any
    score: float
    depth: int = 0
    pv: tuple[Any, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    # an Outlook (typed loosely: outlook.py imports this module); read from the score, so
    # two lines are equal whatever their outlooks
    outlook: Any = field(default=None, compare=False)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"move": str(self.move), "score": self.score, "depth": self.depth,
                             "pv": [str(m) for m in self.pv]}
        if self.outlook is not None:
            d.update(self.outlook.as_dict())
        d.update(self.extra)
        return d


@dataclass(frozen=True)
class SearchResult:
    """What a search returns. `score` is from the point of view of the
    player to move (alpha-beta: centi-units or a win-in-n score; MCTS: mean
    return in [-1, 1]). `pv` is the principal variation, first move first."""

    move: Any
    score: float
    depth: int
    nodes: int
    seconds: float
    nps: float
    pv: tuple[Any, ...] = field(default_factory=tuple)
    extra: dict[str, Any] = field(default_factory=dict)   # algorithm-specific figures
    # the best moves, best first (`multipv=N`: up to N); lines[0] is `move`'s.
    # `search_api.search` always fills it (one line when the algorithm gave none).
    lines: tuple[Line, ...] = ()

    @property
    def outlook(self) -> Any:
        """The best line's Outlook (expected score, win/draw/loss chances,
        a proven result), or None where nothing attached one."""
        return self.lines[0].outlook if self.lines else None

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "move": None if self.move is None else str(self.move),
            "score": self.score,
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "nps": round(self.nps, 1),
            "pv": [str(m) for m in self.pv],
        }
        if self.outlook is not None:
            d.update(self.outlook.as_dict())     # the best line's, at the top as its move and score are
        d.update(self.extra)
        if self.lines:
            d["lines"] = [line.as_dict() for line in self.lines]
        return d


@dataclass(frozen=True)
class TimePlan:
    """A move's share of the clock, in seconds: `soft` is what it should
    take (a search does not start an iteration past it, and stretches it to
    twice while the best move keeps changing), `hard` what it may never
    exceed (the search aborts at it)."""

    soft: float
    hard: float


class SearchMemory(abc.ABC):  # noqa: B024 (a marker: games register their classes)
    """What one game's searches hand on to the next of the same game (an
    engine's table kept between moves), made by `new_search_memory` and
    passed back as the option `memory`. Opaque to everyone but the game's
    own search; a game registers its class (`SearchMemory.register`)."""


# --- the search contract: a game's compiled fast path ------------------------------
#
# `search_api.search(state, algorithm, limits, seed, **options)` is the one
# door to every search. It resolves the options the algorithm takes on the
# state's game (for a state with `native_search` of a registered game, the
# game's own declaration where it has one, `games/<game>/search_options.py`;
# else the algorithm module's `OPTIONS`),
# checks them and completes them with their defaults, computes the time plan
# of a clock once, and then asks the state's fast path before the
# pure-Python module. Every member below is optional; `search_api` looks
# each one up on the state (`getattr`) and treats a missing one as "none".


@runtime_checkable
class NativeSearch(Protocol):
    """What a state offers `search_api` when its game searches in compiled
    code (Quoridor, Crosswise) or with game knowledge (Qwatrobat, Kreuz &
    Quer).

    `native_search(algorithm, limits, seed, options, plan)`: search this
    state with `algorithm` (a registered name) and return a `SearchResult`,
    or `NotImplemented` to let the pure-Python module search it. `options`
    is complete and checked: exactly the options of
    `search_api.search_options(state, algorithm)`, each with its value or
    its declared default, to be used as given (no defaults of its own). An algorithm the game declares options
    for is always answered (never NotImplemented: the module would get
    options it does not take). `limits` are checked; their clock is already
    turned into a move time unless `algorithm` is in
    `native_clock_algorithms`. `seed` is None or in [0, 2**64). `plan` is the
    move's share of the clock (`TimePlan`, its hard limit capped by
    `limits.time`) when `limits.clock` is set and the algorithm manages the
    clock itself, else None (then `limits.time`, if set, is the whole
    budget). Where the declaration has them (`options.ROOT_OPTIONS`),
    `options["multipv"]` asks for that many lines in `SearchResult.lines`
    (best first, fewer when there are fewer root moves) and
    `options["searchmoves"]` (None, or a tuple of legal moves) restricts the
    root moves searched. The search polls `crossridor.engine.stop` and returns its best
    move so far when stopped. Bad input raises CrossridorError.

    `native_clock_algorithms`: the algorithms whose `native_search` spends a
    clock itself with soft and hard limits (`plan`); for the others
    `search_api` hands the clock's soft share as `limits.time`.

    `new_search_memory(algorithm)`: a fresh `SearchMemory` for one game's
    searches with `algorithm` (passed as `memory=` for every move of that
    game), or None where that search keeps nothing.

    `native_perft(depth, divide, hash_mb)`: the leaf count of a full-width
    tree of `depth` plies (divide: a list of (move, count), one per legal
    move), from a compiled move generator with a `hash_mb` MB table (0:
    none), or NotImplemented to count through the protocol.

    `default_algorithm()`: the algorithm `best` and `play` use here when
    none is named (e.g. Qwatrobat's exact solver once an open game is in
    play); without it, alphabeta, or ismcts for hidden information.

    `option_defaults()`: {option name: value}, the variant's own defaults of
    options its game declares (4-player Quoridor's evaluation weights);
    `search_options(state, algorithm)` shows them, so every door does."""

    native_clock_algorithms: tuple[str, ...]

    def native_search(self, algorithm: str, limits: Limits, seed: int | None,
                      options: Mapping[str, Any], plan: TimePlan | None) -> SearchResult | NotImplementedType: ...

    def new_search_memory(self, algorithm: str) -> SearchMemory | None: ...

    def native_perft(self, depth: int, divide: bool,
                     hash_mb: int) -> int | list[tuple[Any, int]] | NotImplementedType: ...

    def default_algorithm(self) -> str: ...

    def option_defaults(self) -> dict[str, Any]: ...

