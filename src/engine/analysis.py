"""A game review: every move of a played game searched again, as a chess
site's "game review" does. `review(game, moves, ...)` returns a `Review`
(plain data, `as_dict()`): per ply the move played, the engine's best move
and line, the value of the position before the move (the best line's) and
the value of the move played, as the search's raw score and as an expected
score for the mover (`crossridor.engine.outlook`), the expected score lost
and a mark; per seat a summary.

How the move played is valued: the mover's search of the position before
the move gives the best move; when it is the move played, that search's
score is the value of both. When another move was played, each of the
two is valued by the same search (same limits, same seed) restricted to
it (the root option `searchmoves`), so that both values come from
searches alike. All are the mover's own searches, so this holds for any
number of players and for hidden information: the searches of the
hidden-information games (ISMCTS, PIMC) determinize from the mover's view
and read nothing the mover could not see.

Marks, by the expected score lost (`Marks`, docs/analysis.md "Game review"):
an inaccuracy from 0.05, a mistake from 0.10, a blunder from 0.15, and a
blunder whenever a proven win became a proven loss. Chance plies (deals)
are listed, not judged.

Each ply is searched on its own, seeded by (seed, ply): the review is the
same whatever the concurrency (`concurrency=N` reviews N plies at a time in
worker processes, `crossridor.engine.match.pool`)."""

from __future__ import annotations

import concurrent.futures
import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from crossridor.engine import stop as _stop
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import derive_seed, new_game_state
from crossridor.engine.match.pool import make_executor, stop_executor
from crossridor.engine.outlook import outlook
from crossridor.engine.protocol import CHANCE, Game, Limits, State
from crossridor.engine.search_api import default_algorithm, search, search_options
from crossridor.engine.views import seat

__all__ = ["MARK_NAMES", "Marks", "PlyReview", "Review", "SeatSummary", "expected_curve", "review", "start_state",
           "summarize"]

MARK_NAMES = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Marks:
    """The expected score lost (on 0..1, the mover's) from which a move is
    an inaccuracy, a mistake, a blunder: lichess's steps (10, 20 and 30
    points of its -1..1 winning chances), measured on crossridor's games
    in docs/analysis.md."""

    inaccuracy: float = 0.05
    mistake: float = 0.10
    blunder: float = 0.15

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder <= 1:
            raise CrossridorError(f"marks: need 0 < inaccuracy <= mistake <= blunder <= 1, got "
                                  f"{self.inaccuracy}, {self.mistake}, {self.blunder}")

    def of(self, loss: float, win_thrown: bool = False) -> str | None:
        """The mark of a move that lost `loss` of expected score; a proven
        win turned into a proven loss (`win_thrown`) is a blunder."""
        if win_thrown or loss >= self.blunder:
            return "blunder"
        if loss >= self.mistake:
            return "mistake"
        if loss >= self.inaccuracy:
            return "inaccuracy"
        return None

    def as_dict(self) -> dict[str, float]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class PlyReview:
    """One ply of a review. `seat` is the mover (1..n), None for a chance
    ply (a deal: listed, not judged, the other fields None). Scores and
    expected scores are the mover's: `*_before` the position's value (the
    best line's), `*_after` the value of the move played; `result_in_*`
    the plies to a proven end (`Outlook.result_in`), None when unproven."""

    ply: int                          # 1 = the first move of the game
    seat: int | None
    played: str
    best: str | None = None
    pv: tuple[str, ...] = ()          # the best line, its first move `best`
    algorithm: str | None = None
    score_before: float | None = None
    score_after: float | None = None
    expected_before: float | None = None
    expected_after: float | None = None
    result_in_before: int | None = None
    result_in_after: int | None = None
    loss: float | None = None         # max(0, expected_before - expected_after)
    mark: str | None = None           # one of MARK_NAMES, or None

    @property
    def judged(self) -> bool:
        return self.seat is not None

    def as_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["pv"] = list(self.pv)
        d["chance"] = not self.judged
        return d


@dataclass(frozen=True)
class SeatSummary:
    """A seat's moves reviewed, the mean expected score they lost (None
    without moves) and how many got each mark."""

    seat: int
    moves: int
    mean_loss: float | None
    marks: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Review:
    """A reviewed game: what was reviewed (game, start, moves), how (the
    algorithm as asked, None: each position's default; limits per search;
    seed; options; mark thresholds), the plies reviewed in order and the
    per-seat summary. `interrupted`: stopped before the end, the plies
    are those finished (a review with concurrency may miss some before the
    last). `returns`: the game's returns per seat when the moves end it."""

    game: str
    params: dict
    num_players: int
    moves: tuple[str, ...]
    start: dict                       # {"position": text} or {"deal_seed": n} or {}
    algorithm: str | None
    limits: Limits
    seed: int
    options: dict
    marks: Marks
    plies: tuple[PlyReview, ...]
    summary: tuple[SeatSummary, ...]
    interrupted: bool = False
    returns: tuple[float, ...] | None = None
    # each seat's share of the result on 0..1 (its return scaled from the game's min..max
    # return) when the moves end the game: where the graph ends
    result: tuple[float, ...] | None = None
    sides: tuple[tuple[int, ...], ...] = field(default_factory=tuple)   # player indices per side (teams)
    two_sides: bool = False           # two zero-sum sides: one's expected score is 1 - the other's

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": {"name": self.game, "params": self.params, "players": self.num_players,
                     "moves": list(self.moves), **self.start,
                     "returns": None if self.returns is None else list(self.returns),
                     "result": None if self.result is None else list(self.result)},
            "settings": {"algorithm": self.algorithm,
                         "limits": {k: v for k, v in dataclasses.asdict(self.limits).items() if v is not None},
                         "seed": self.seed, "options": {k: _plain(v) for k, v in self.options.items()},
                         "marks": self.marks.as_dict()},
            "plies": [p.as_dict() for p in self.plies],
            "summary": [s.as_dict() for s in self.summary],
            "interrupted": self.interrupted,
        }


def _plain(value: Any) -> Any:
    return value if isinstance(value, (int, float, str, bool)) or value is None else str(value)


# --- reviewing one ply ---------------------------------------------------------------

@dataclass(frozen=True)
class _PlyTask:
    """One ply to review: picklable, so a worker process can rebuild the
    position from the start and search it."""

    game: Any
    position: str | None
    deal_seed: int | None
    before: tuple[str, ...]           # the moves before this ply
    played: str
    algorithm: str | None
    limits: Limits
    seed: int
    options: dict
    marks: Marks


class _Stopped(Exception):
    """A search of the ply was stopped: the ply is left out."""


def start_state(game: Game, position: str | None = None, deal_seed: int | None = None) -> State:
    """Where a review starts: `position`, or the start of `game` (dealt from
    `deal_seed` for a game with chance or hidden information, as a match
    deals it)."""
    if position is not None:
        return game.state_from_position(position)
    return new_game_state(game, (), deal_seed)


def _searched(state: State, task: _PlyTask, algorithm: str, stop: _stop.Stop | None, **root: Any):
    result = search(state, algorithm, task.limits, task.seed, stop=stop, **task.options, **root)
    if result.extra.get("stopped"):
        raise _Stopped()
    return result


def _proven(view: Any) -> int:
    """+1: a proven win for the mover, -1: a proven loss, 0: neither."""
    if not (view.proven or view.result_in is not None) or view.expected == 0.5:
        return 0
    return 1 if view.expected > 0.5 else -1


def review_ply(task: _PlyTask, stop: _stop.Stop | None = None) -> PlyReview:
    """The review of one ply (in this process or a worker's)."""
    state = start_state(task.game, task.position, task.deal_seed)
    for move in task.before:
        state.play(move)
    ply = len(task.before) + 1
    mover = state.current_player
    if mover == CHANCE:
        return PlyReview(ply, None, task.played)
    played = state.parse_move(task.played)
    algorithm = task.algorithm or default_algorithm(state)
    found = _searched(state, task, algorithm, stop)
    if found.move == played:
        before = after = found
    else:
        # Both moves valued alike, each by the search restricted to it: a search of every
        # move prunes otherwise than one of a single move (Quoridor's alpha-beta at depth 12
        # gave its best move 41 where the same move alone got 26), which would count the
        # difference of the two searches as a loss.
        before = _searched(state, task, algorithm, stop, searchmoves=[found.move])
        after = _searched(state, task, algorithm, stop, searchmoves=[played])
    before_view = outlook(state, algorithm, before.score, before.extra)
    after_view = outlook(state, algorithm, after.score, after.extra)
    loss = max(0.0, before_view.expected - after_view.expected)
    thrown = _proven(before_view) > 0 and _proven(after_view) < 0
    return PlyReview(
        ply=ply, seat=seat(mover), played=str(played), best=str(found.move),
        pv=tuple(str(m) for m in (before.pv or (found.move,))), algorithm=algorithm,
        score_before=before.score, score_after=after.score,
        expected_before=before_view.expected, expected_after=after_view.expected,
        result_in_before=before_view.result_in, result_in_after=after_view.result_in,
        loss=loss, mark=task.marks.of(loss, thrown))


# --- the review ----------------------------------------------------------------------

def _replayed(game: Game, moves: list[str], position: str | None, deal_seed: int | None) -> State:
    """The start with every move played: CrossridorError naming the first
    move that is not legal (before any search)."""
    state = start_state(game, position, deal_seed)
    for ply, text in enumerate(moves, 1):
        if state.is_terminal():
            raise CrossridorError(f"move {ply} ({text[:40]!r}): the game is over before it")
        try:
            state.play(text)
        except (CrossridorError, ValueError) as exc:
            raise CrossridorError(f"move {ply} ({text[:40]!r}): {exc}") from None
    return state


def _check_searchable(game: Game, moves: list[str], position: str | None, deal_seed: int | None,
                      algorithm: str | None) -> None:
    """The algorithm must take `searchmoves` (the value of the move played)
    wherever it reviews a move: checked at the first judged position."""
    state = start_state(game, position, deal_seed)
    for text in moves:
        if state.current_player != CHANCE:
            name = algorithm or default_algorithm(state)
            declared = {p.name for p in search_options(state, name)}
            if "searchmoves" not in declared:
                raise CrossridorError(f"{game.traits.name} {name}: cannot review (its search cannot be "
                                      f"restricted to the move played: no option searchmoves)")
            return
        state.play(text)


def summarize(plies: list[PlyReview] | tuple[PlyReview, ...], num_players: int) -> tuple[SeatSummary, ...]:
    """Per seat: its judged moves, their mean loss, their marks."""
    out = []
    for s in range(1, num_players + 1):
        mine = [p for p in plies if p.seat == s]
        losses = [p.loss for p in mine if p.loss is not None]
        marks = {name: sum(p.mark == name for p in mine) for name in MARK_NAMES}
        out.append(SeatSummary(s, len(mine), sum(losses) / len(losses) if losses else None, marks))
    return tuple(out)


def _sides(game: Game) -> tuple[tuple[int, ...], ...]:
    traits = game.traits
    if traits.teams:
        return tuple(tuple(team) for team in traits.teams)
    return tuple((p,) for p in range(traits.num_players))


def review(game: Game, moves: list[str] | tuple[str, ...] | str, *, algorithm: str | None = None,
           limits: Limits, seed: int | None = None, options: dict | None = None, concurrency: int = 1,
           position: str | None = None, deal_seed: int | None = None, marks: Marks | None = None,
           progress: Callable[[PlyReview], None] | None = None, stop: _stop.Stop | None = None) -> Review:
    """Review `moves` (texts, or one string separated by whitespace) played
    from the start of `game` (dealt from `deal_seed` for a game with chance
    or hidden information, as a match deals it), or from `position`.

    Each judged ply is searched with `algorithm` (None: the position's
    default, as `best` picks it), `limits` and `options` per search, seeded
    by (seed, ply); `seed` None draws one (the Review keeps it).
    `concurrency`: plies reviewed at once, in worker processes (the same
    review). `progress(ply_review)` after each ply. `stop` (a
    crossridor.Stop), or `crossridor.stop()`, or the command line's
    interrupt, ends the review: the plies finished by then are kept,
    `interrupted` is set. CrossridorError for a move that is not legal
    (before any search) or an algorithm that cannot review."""
    if isinstance(moves, str):
        moves = moves.split()
    moves = [str(m) for m in moves]
    if not isinstance(limits, Limits):
        raise CrossridorError(f"review: limits must be a Limits object, got {type(limits).__name__}")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise CrossridorError(f"review: concurrency must be an integer >= 1, got {concurrency!r}")
    if position is not None and deal_seed is not None:
        raise CrossridorError("review: give a start position or a deal seed, not both")
    if seed is None:
        seed = random.SystemRandom().getrandbits(63)
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise CrossridorError(f"review: seed must be an integer, got {seed!r}")
    options = dict(options or {})
    if "searchmoves" in options or "multipv" in options:
        raise CrossridorError("review: the review sets searchmoves and multipv itself")
    marks = marks or Marks()
    end = _replayed(game, moves, position, deal_seed)
    _check_searchable(game, moves, position, deal_seed, algorithm)
    tasks = [_PlyTask(game, position, deal_seed, tuple(moves[:i]), moves[i], algorithm, limits,
                      derive_seed(seed, "review", i + 1), options, marks) for i in range(len(moves))]
    done: dict[int, PlyReview] = {}
    interrupted = _run(tasks, concurrency, done, progress, stop)
    plies = tuple(done[k] for k in sorted(done))
    start = {"position": position} if position is not None else \
        {"deal_seed": deal_seed} if deal_seed is not None else {}
    traits = game.traits
    sides = _sides(game)
    returns = result = None
    if end.is_terminal():
        returns = tuple(float(r) for r in end.returns())
        span = traits.max_return - traits.min_return
        result = tuple(min(1.0, max(0.0, (r - traits.min_return) / span)) if span > 0 else 0.5 for r in returns)
    # the parameters as a file names them: those unset (None) are the game's defaults
    params = {k: v for k, v in game.params.items() if v is not None}
    return Review(game=traits.name, params=params, num_players=traits.num_players,
                  moves=tuple(moves), start=start, algorithm=algorithm, limits=limits, seed=seed,
                  options=options, marks=marks, plies=plies, summary=summarize(plies, traits.num_players),
                  interrupted=interrupted, returns=returns, result=result, sides=sides,
                  two_sides=len(sides) == 2 and traits.zero_sum)


def _run(tasks: list[_PlyTask], concurrency: int, done: dict[int, PlyReview],
         progress: Callable[[PlyReview], None] | None, stop: _stop.Stop | None) -> bool:
    """Review the tasks into `done` (by ply); whether it was interrupted."""
    def halted() -> bool:
        return _stop.interrupted() or (stop is not None and stop.is_set())

    def finish(result: PlyReview) -> None:
        done[result.ply] = result
        if progress is not None:
            progress(result)

    if concurrency <= 1 or len(tasks) <= 1:
        for task in tasks:
            if halted():
                return True
            try:
                finish(review_ply(task, stop))
            except _Stopped:
                return True
        return False
    executor = make_executor(min(concurrency, len(tasks)))
    todo = iter(tasks)
    in_flight: dict[concurrent.futures.Future, int] = {}
    clean = False
    try:
        while True:
            while len(in_flight) < concurrency:
                following = next(todo, None)
                if following is None:
                    break
                in_flight[executor.submit(review_ply, following)] = len(following.before) + 1
            if not in_flight:
                break
            # a short timeout, so that a stop is seen at once
            finished, _ = concurrent.futures.wait(in_flight, timeout=0.05,
                                                  return_when=concurrent.futures.FIRST_COMPLETED)
            if halted():
                return True
            for future in sorted(finished, key=lambda f: in_flight[f]):
                in_flight.pop(future)
                finish(future.result())
        clean = True
        return False
    except KeyboardInterrupt:
        return True
    finally:
        for future in in_flight:
            future.cancel()
        stop_executor(executor, abort=not clean)


# --- what the graph shows ----------------------------------------------------------

def expected_curve(rev: Review, seat_number: int) -> list[tuple[int, float]]:
    """(ply, the seat's expected score before that ply's move) for every
    judged ply where it is known: its own side moves, or the game has two
    zero-sum sides (then it is the complement of the mover's); and, when
    the moves end the game, (last ply + 1, its share of the result)."""
    side_of = {p: i for i, side in enumerate(rev.sides) for p in side}
    mine = side_of.get(seat_number - 1)
    points = []
    for p in rev.plies:
        if p.seat is None or p.expected_before is None:
            continue
        if side_of.get(p.seat - 1) == mine:
            points.append((p.ply, p.expected_before))
        elif rev.two_sides:
            points.append((p.ply, 1.0 - p.expected_before))
    if rev.result is not None and not rev.interrupted:
        points.append((len(rev.moves) + 1, rev.result[seat_number - 1]))
    return points
