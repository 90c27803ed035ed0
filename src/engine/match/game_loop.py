"""One whole game of a match: plain data in, plain data out.

`play_game(task: GameTask) -> GameRecord` plays it. A task holds only
picklable values (the game's registry name and parameters, engine specs,
seats, opening moves in notation, a seed, a ply cap), and so does the record,
so any executor can run it (`crossridor.engine.match.pool`, or a Dask cluster:
`crossridor.engine.cluster`)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import random
import time
from dataclasses import dataclass, field

from crossridor.engine import stop as _stop
from crossridor.engine.clocks import DEFAULT_TIME_MARGIN, SeatClock
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.specs import move_budget
from crossridor.engine.plugins import PluginGame, refuse_plugin_name
from crossridor.engine.protocol import CHANCE
from crossridor.engine.registry import load_game, read_params
from crossridor.engine.views import player_index, seat

# --- games and seeds --------------------------------------------------------------

def resolve_game(game: str | PluginGame, params: dict, where: str = "game"):
    """A registered game by its name (`quoridor`), or a `PluginGame` the user
    named on the command line or in Python. A name is never imported: a
    string `module:function` (from a file, the network, a task) is refused.
    A registered game's parameters given as text are read by their declared
    kinds (a records file may hold `"open": "yes"`)."""
    if isinstance(game, PluginGame):
        return game.load(params)
    refuse_plugin_name(game, where)
    if not isinstance(params, dict):
        raise CrossridorError(f"{where}: the game parameters must be an object of name: value")
    return load_game(game, **read_params(game, params))


_GAMES: dict = {}


def cached_game(name: str | PluginGame, params: dict):
    """One game object per worker process and (name, params)."""
    key = (str(name), type(name).__name__, tuple(sorted((k, repr(v)) for k, v in params.items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = resolve_game(name, params)
    return game


def derive_seed(*parts) -> int:
    """A 63-bit seed from any values (stable across processes and runs,
    unlike `hash`)."""
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def chance_move(state, seed: int, earlier: list):
    """The outcome of the chance node `state` as if every draw had been dealt
    with the game, and the draw it was (for `earlier`): a function of the
    deal's `seed`, of the draw (its outcomes and their weights, and its
    `chance_round()` where the game has one: a stage's fresh shuffle of the
    same cards) and of how often the same draw came before on this line of
    play (`earlier`: a die rolled again), never of the moves that led here.
    Undo and replay, or another way to the same draw, meets the same outcome,
    so undo cannot sample what a draw would reveal (a route pile, and through
    it the cards another seat returned)."""
    outcomes = sorted(((str(m), w, m) for m, w in state.chance_outcomes()), key=lambda o: o[:2])
    shuffle = state.chance_round() if hasattr(state, "chance_round") else ()
    draw = (shuffle, tuple((text, w) for text, w, _ in outcomes))
    rng = random.Random(derive_seed(seed, "chance", draw, earlier.count(draw)))
    move = rng.choices([m for _, _, m in outcomes], weights=[w for _, w, _ in outcomes])[0]
    return draw, move


class DealtChance:
    """The chance moves of one game being played by people (the web app,
    `crossridor play`), each fixed by the game's seed (`chance_move`); undo
    takes back the draws after a ply, so replaying meets the same ones."""

    def __init__(self, seed: int):
        self.seed = seed
        self.draws: list[tuple[int, tuple]] = []     # (ply, draw) of the chance moves played

    def move(self, state, ply: int):
        draw, move = chance_move(state, self.seed, [d for _, d in self.draws])
        self.draws.append((ply, draw))
        return move

    def undo_to(self, ply: int) -> None:
        self.draws = [(p, draw) for p, draw in self.draws if p < ply]


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


def winner_index(returns) -> int | None:
    """The player index with the unique best return, or None (a draw)."""
    if not returns:
        return None
    best = max(returns)
    seats = [i for i, r in enumerate(returns) if r == best]
    return seats[0] if len(seats) == 1 else None


def plain_number(value):
    """Points as JSON shows them: rounded to 6 decimals, so that sums of
    fractions do not print float noise (0.1 + 0.2 is 0.3), and an int when
    integral (points stay ints in JSON)."""
    value = round(float(value), 6)
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
    return [plain_number(v) for v in values]


# --- tasks and records ------------------------------------------------------------

@dataclass(frozen=True)
class GameTask:
    """One game to play. `seats[s]` is the index (in `engines`) of the engine
    at seat s; `engines` are the match's engines in command-line order."""

    index: int
    game: str | PluginGame   # a registry name, or a plug-in the user named
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


# The records format: 2 numbers the seats in `winner`, `failure["seat"]` and
# `think` 1..n (docs/notation.md, "Seats"); a record without `format` is
# format 1, which holds player indices 0..n-1 there, and is read as such.
RECORDS_FORMAT = 2


@dataclass
class GameRecord:
    """A finished game: one JSON line of the records file. Seats are 1..n
    (`winner`, `failure["seat"]`, `think`); lists per seat are in seat order."""

    index: int
    seed: int
    deal_seed: int | None
    seats: list               # engine index per seat
    engines: list             # engine spec per seat
    result: str               # "1-0", "0-1", "1/2-1/2"; n players: "0-1-0-0" or "draw"
    returns: list             # per seat
    winner: int | None        # seat (1..n), or None for a draw
    winner_engine: int | None  # engine index (match order, from 0), or None
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
    # engines that pondered: [seat, searches on the opponent's time, of them on the moves played]
    ponder: list | None = None
    format: int = RECORDS_FORMAT

    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        for key in ("points", "failure", "scores", "think", "clocks", "ponder"):
            if d[key] is None:
                del d[key]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> GameRecord:
        """The record of a JSON object read from a file or a request: every
        field of its type, or ValueError naming the first that is not."""
        if not isinstance(d, dict):
            raise ValueError("a record is a JSON object")
        missing = set(_RECORD_FIELDS) - set(d) - _OPTIONAL_FIELDS
        if missing:
            raise ValueError(f"record lacks {', '.join(sorted(missing))}")
        for name, value in d.items():
            kind = _RECORD_FIELDS.get(name)
            if kind is not None and not _is_kind(value, kind):
                raise ValueError(f"record field {name!r} must be {_KIND_TEXT[kind]}, got {_brief(value)}")
        fmt = d.get("format", 1)
        if fmt not in (1, RECORDS_FORMAT):
            raise ValueError(f"record format {fmt} is not one this crossridor reads (1 or {RECORDS_FORMAT})")
        if fmt == 1:
            d = _seats_from_indices(d)
        return cls(**{k: v for k, v in d.items() if k in _RECORD_FIELDS})

    @classmethod
    def from_json(cls, line: str | bytes) -> GameRecord:
        """The record of one line of a records file, or ValueError saying
        what is wrong (not JSON, NaN, nested too deeply, a bad field)."""
        try:
            data = json.loads(line, parse_constant=_not_a_number)
        except RecursionError:
            raise ValueError("nested too deeply") from None
        return cls.from_dict(data)


# Chance moves that name a player index in format 1, and their format-2 text.
_FORMAT_1_MOVES = {
    "qwatrobat": {"first0": "first:1", "first1": "first:2"},
    "crosswise": {f"start:{i}": f"start:{i + 1}" for i in range(4)},
}


def _seats_from_indices(d: dict) -> dict:
    """A format-1 record (player indices) with seats, as format 2 has them."""
    d = dict(d, format=RECORDS_FORMAT, winner=seat(d["winner"]))
    renamed = _FORMAT_1_MOVES.get(str(d.get("game")), {})
    if renamed:
        d["moves"] = [renamed.get(m, m) for m in d["moves"]]
    if isinstance(d.get("failure"), dict) and _is_int(d["failure"].get("seat")):
        d["failure"] = dict(d["failure"], seat=seat(d["failure"]["seat"]))
    if isinstance(d.get("think"), list):
        d["think"] = [[seat(t[0])] + t[1:] if isinstance(t, list) and t and _is_int(t[0]) else t
                      for t in d["think"]]
    return d


# The type of each field of a record, checked when one is read.
_RECORD_FIELDS = {
    "index": "count", "seed": "int", "deal_seed": "int?", "seats": "counts", "engines": "texts",
    "result": "text", "returns": "numbers", "winner": "count?", "winner_engine": "count?",
    "reason": "text", "moves": "texts", "opening_plies": "count", "plies": "count", "seconds": "number",
    "game": "text", "params": "object", "match_engines": "texts", "match_seed": "int",
    "max_plies": "count?", "points": "numbers?", "failure": "object?", "scores": "list?",
    "think": "list?", "clocks": "list?", "ponder": "list?", "format": "count",
}
_OPTIONAL_FIELDS = {"game", "params", "match_engines", "match_seed", "max_plies", "points",
                    "failure", "scores", "think", "clocks", "ponder", "format"}
_KIND_TEXT = {
    "count": "a whole number >= 0", "int": "a whole number", "int?": "a whole number or null",
    "counts": "a list of whole numbers >= 0", "texts": "a list of strings", "text": "a string",
    "numbers": "a list of numbers", "count?": "a whole number >= 0 or null", "number": "a number",
    "object": "an object", "numbers?": "a list of numbers or null", "object?": "an object or null",
    "list?": "a list or null",
}


def _not_a_number(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return _is_int(v) or (isinstance(v, float) and math.isfinite(v))


def _is_kind(value, kind: str) -> bool:
    if kind.endswith("?"):
        return value is None or _is_kind(value, kind[:-1])
    if kind == "int":
        return _is_int(value)
    if kind == "count":
        return _is_int(value) and value >= 0
    if kind == "number":
        return _is_number(value)
    if kind == "text":
        return isinstance(value, str)
    if kind == "object":
        return isinstance(value, dict) and all(isinstance(k, str) for k in value)
    if kind == "list":
        return isinstance(value, list)
    item = {"counts": "count", "texts": "text", "numbers": "number"}[kind]
    return isinstance(value, list) and all(_is_kind(v, item) for v in value)


def _brief(value) -> str:
    text = json.dumps(value, ensure_ascii=True, default=repr) if not isinstance(value, float) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


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


def _ponder_counts(players: dict, seats: tuple) -> list:
    """[seat, ponder searches, hits] of each engine that pondered (at its
    first seat: an engine holding two seats ponders for both)."""
    out = []
    for engine in dict.fromkeys(seats):
        p = players.get(engine)
        if p is not None and getattr(p, "ponder_tries", 0) > 0:
            out.append([seat(seats.index(engine)), p.ponder_tries, p.ponder_hits])
    return out


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
                    think.append([seat(player), round(seconds, 4)]
                                 + ([None, None] if budget is None else [round(b, 4) for b in budget]))
                    if seat_clocks[player] is not None and not seat_clocks[player].charge(seconds, task.time_margin):
                        tail: list = getattr(players[task.seats[player]], "stderr_tail", list)()
                        raise EngineFailure("time", f"the move took {seconds:.3f} s with "
                                                    f"{clocks[player].time_left:.3f} s on the clock", tail)
                except EngineFailure as exc:
                    # an engine out of time, or an outside engine that misbehaves, loses the game;
                    # the match goes on
                    failure = dict(seat=seat(player), engine=str(spec), ply=len(moves) + 1, **exc.as_dict())
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
            if player != CHANCE and task.engines[task.seats[player]].ponder and not state.is_terminal():
                try:
                    now = [None if c is None else c.for_search() for c in seat_clocks]
                    players[task.seats[player]].ponder(state, moves, derive_seed(task.seed, "ponder", len(moves)),
                                                       now if seat_clocks[player] else None)
                except EngineFailure as exc:
                    failure = dict(seat=seat(player), engine=str(task.engines[task.seats[player]]),
                                   ply=len(moves), **exc.as_dict())
                    break
    finally:
        pondered = _ponder_counts(players, task.seats)
        for p in players.values():
            p.close()
    if failure is not None:
        reason = failure["reason"]
        loser = task.seats[player_index(failure["seat"], len(task.seats))]
        traits = game.traits
        returns = [float(traits.min_return if e == loser else traits.max_return) for e in task.seats]
        winner = winner_index(returns)
    elif state.is_terminal():
        reason = "terminal"
        returns = [float(r) for r in state.returns()]
        winner = winner_index(returns)
    else:
        reason = "max_plies"
        returns = [0.0] * len(task.seats)
        winner = None
    # A team's shared win (no single winning seat) counts for the engine
    # holding every seat of the team.
    winners: tuple[int, ...]
    if winner is not None:
        winner_engine, winners = task.seats[winner], (winner,)
    elif reason != "max_plies":
        winner_engine, winners = winning_engine(returns, task.seats)
    else:
        winner_engine, winners = None, ()
    return GameRecord(
        index=task.index, seed=task.seed, deal_seed=task.deal_seed, seats=list(task.seats),
        engines=[str(task.engines[e]) for e in task.seats],
        result=result_string(returns, winner, winners), returns=returns, winner=seat(winner),
        winner_engine=winner_engine,
        reason=reason, moves=moves, opening_plies=len(task.opening), plies=len(moves),
        seconds=round(time.perf_counter() - start, 4),
        game=str(task.game), params=dict(task.params), match_engines=[str(e) for e in task.engines],
        match_seed=task.match_seed, max_plies=task.max_plies,
        points=None if failure else seat_points(game, state), failure=failure, scores=scores,
        think=think, ponder=pondered or None,
        clocks=[None if c is None else round(c.left, 4) for c in seat_clocks] if any(seat_clocks) else None)

