"""The match runner: engines play each other over many games, in parallel,
and the result comes with its statistics (`crossridor.engine.match.stats`).

    >>> from crossridor.engine.match.runner import MatchConfig, run_match
    >>> from crossridor.engine.match.specs import EngineSpec
    >>> cfg = MatchConfig("quoridor", {"size": 5},
    ...                   [EngineSpec.parse("alphabeta:depth=2"), EngineSpec.parse("random")],
    ...                   games=20, concurrency=2, seed=1)
    >>> result = run_match(cfg)          # doctest: +SKIP
    >>> result.summary()["score"]        # doctest: +SKIP

Fairness. Games come in *rounds*: round k plays opening k once from every
seating (2 players: twice, seats swapped; n engines at n seats: n times,
seating rotated). With two engines and four seats the engines sit
alternately, A B A B then B A B A: a round of two games.
Chance games deal from the same seed for every game of a round.

Determinism. Game i is seeded from (match seed, i) and depends on nothing
else, so the records are the same whatever the concurrency (for engines
without a time limit). Results are counted in game-index order: the SPRT
(and any other stop rule) is checked after each complete round of that
order, so the stopping point and the final statistics do not depend on which
game happened to finish first. Games already running when it decides finish
and are written to the records file, but are not counted.

Scoring, from the first engine's side. A win: the game was won by a seat of
engine 1; a loss: won by engine 2; a draw: nobody won (including the
`max_plies` cap) or, with four different engines, engine 3 or 4 won. So W/D/L
is always engine 1 against engine 2 and 50% means equal strength.

Match modes (two engines; from Crosswise's `match X` / `sumof X`, for any
game):

* first_to=X: the match ends as soon as one engine has X wins (`FirstToStop`,
  checked after every game of the index order, not per round, so the games
  counted and the winner do not depend on the concurrency). The games are
  capped at `games` (default 10 X); a cap reached first leaves no winner.
* sum_of=X: exactly X games (`games` defaults to X and must equal it); the
  engine with the higher total of points wins. A game's points are the
  per-seat `points` of its record (`game_loop.seat_points`: the final state's
  `points()`, or its per-team `scores()`); an engine's points in a game are
  the mean over its seats (in a team game: its team's points). A game
  without points is refused.

Both set `match_winner` (1, 2, or None for no winner / equal totals) in the
summary, and "points" (totals per engine) when the game has points.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import os
import random
from dataclasses import dataclass
from typing import Any, Callable

from crossridor.engine import stop as _stop
from crossridor.engine.clocks import DEFAULT_TIME_MARGIN, TimeControl
from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.game_loop import (
    GameRecord,
    GameTask,
    dealt,
    derive_seed,
    new_game_state,
    play_game,
    resolve_game,
    seat_points,
)
from crossridor.engine.match.openings import _brief, base_seating, distinct_seatings, random_opening, seating
from crossridor.engine.match.pgn import PgnFile
from crossridor.engine.match.pool import make_executor, stop_executor
from crossridor.engine.match.records import RecordsFile
from crossridor.engine.match.scoring import FirstToStop, SprtStop, StopRule, Tally, time_use
from crossridor.engine.match.stats import SprtResult, SprtSpec, sprt, summary
from crossridor.engine.match.tournament import pairings, tournament_summary
from crossridor.engine.plugins import PluginGame

# Quoridor can go on for ever (pawns shuffling, walls in hand), so a match
# caps it: 200 plies per player (400 for 2 players, 800 for 4), far beyond
# any real game. The other games always end, so they get no cap.
QUORIDOR_PLIES_PER_PLAYER = 200
DEFAULT_GAMES = 100
FIRST_TO_CAP = 10          # first_to=X without `games`: at most 10 X games


@dataclass
class MatchConfig:
    game: str | PluginGame                     # registry name, or a plug-in the user named
    params: dict
    engines: list                              # EngineSpec, command-line order
    games: int | None = None                   # None: 100, or 10 X with first_to, X with sum_of
    concurrency: int | None = None             # None: the number of cores
    openings: list | None = None               # move lists (tuples of notation)
    random_openings: int = 0                   # plies of seeded random moves
    seed: int | None = None                    # None: random (or the records' on resume)
    max_plies: int | None = None               # None: the game's default; 0: no cap
    sprt: SprtSpec | None = None
    records: str | None = None                 # JSON-lines file, one finished game a line
    resume: bool = False
    first_to: int | None = None                # stop when an engine has this many wins
    sum_of: int | None = None                  # play this many games; most points wins
    tournament: str | None = None              # "round-robin" or "gauntlet": `games` per pairing
    pgn: str | None = None                     # PGN-style text file, one finished game appended at a time
    tc: TimeControl | str | None = None        # a game clock for every engine without its own tc=
    time_margin: float = DEFAULT_TIME_MARGIN   # seconds a move may run past its clock
    ponder: bool = False                       # every engine without its own ponder= thinks on
                                               # the opponent's time

    def __post_init__(self):
        if isinstance(self.tc, str):
            self.tc = TimeControl.parse(self.tc)
        if self.tc is not None:
            self.engines = [e.with_tc(self.tc) for e in self.engines]
        if self.ponder:
            self.engines = [e.with_ponder(True) for e in self.engines]
        if self.games is None:
            if _positive_int(self.sum_of):
                self.games = self.sum_of
            elif _positive_int(self.first_to):
                self.games = FIRST_TO_CAP * self.first_to
            else:
                self.games = DEFAULT_GAMES

    def validate(self) -> None:
        if self.tournament is not None:
            for name, value in (("first-to", self.first_to), ("sum-of", self.sum_of), ("sprt", self.sprt)):
                if value is not None:
                    raise CrossridorError(f"a tournament and {name} exclude each other")
        if self.first_to is not None and self.sum_of is not None:
            raise CrossridorError("give first-to or sum-of, not both")
        for name, value in (("first-to", self.first_to), ("sum-of", self.sum_of)):
            if value is not None and not _positive_int(value):
                raise CrossridorError(f"{name} must be a positive number, got {value!r}")
        if self.sum_of is not None and self.games != self.sum_of:
            raise CrossridorError(f"sum-of {self.sum_of} plays {self.sum_of} games, not {self.games}: "
                                  f"give one number of games")
        if (self.first_to is not None or self.sum_of is not None) and self.sprt is not None:
            raise CrossridorError(f"{'first-to' if self.first_to is not None else 'sum-of'} and sprt "
                                  f"exclude each other")
        if (self.first_to is not None or self.sum_of is not None) and len(self.engines) != 2:
            raise CrossridorError(f"{'first-to' if self.first_to is not None else 'sum-of'} needs two "
                                  f"engines, got {len(self.engines)} engines")
        assert self.games is not None          # __post_init__ chose it
        if self.games < 1:
            raise CrossridorError(f"games must be >= 1, got {self.games}")
        if self.concurrency is not None and self.concurrency < 1:
            raise CrossridorError(f"concurrency must be >= 1, got {self.concurrency}")
        if self.max_plies is not None and self.max_plies < 0:
            raise CrossridorError(f"max plies must be >= 0 (0: no cap), got {self.max_plies}")
        if self.random_openings < 0:
            raise CrossridorError(f"random openings must be >= 0 plies, got {self.random_openings}")
        if self.openings is not None and self.random_openings:
            raise CrossridorError("give an openings file or random openings, not both")
        if self.openings is not None and not self.openings:
            raise CrossridorError("the openings file holds no opening")
        if self.resume and not self.records:
            raise CrossridorError("resume needs a records file")
        m = self.time_margin
        if isinstance(m, bool) or not isinstance(m, (int, float)) or not 0 <= m < 1e7:
            raise CrossridorError(f"time margin must be a number of seconds >= 0, got {m!r}")


def default_max_plies(game) -> int | None:
    """The match's ply cap for `game` when none is given: Quoridor
    200 plies per player; None (no cap) for games that always end."""
    if game.traits.name == "quoridor":
        return QUORIDOR_PLIES_PER_PLAYER * game.traits.num_players
    return None


def _positive_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


# --- the match ---------------------------------------------------------------------

@dataclass
class MatchResult:
    config: MatchConfig
    seed: int
    records: list            # counted games, in index order
    tally: Tally
    sprt: SprtResult | None
    stopped: str | None      # why the match stopped early, e.g. "sprt H1"
    uncounted: int = 0       # games finished after the stop rule decided
    max_plies: int | None = None   # the cap in force (None: no cap)
    interrupted: bool = False  # Ctrl-C / stop(): the games finished before it

    def summary(self) -> dict:
        t = self.tally
        if self.config.tournament is not None:
            out = {"games": t.games, **tournament_summary(self.config.tournament, self.config.engines,
                                                          self.records)}
        else:
            out = summary(t.wins, t.draws, t.losses, self.config.sprt)
        out["engines"] = [str(e) for e in self.config.engines]
        out["seed"] = self.seed
        out["max_plies"] = self.max_plies
        out["max_plies_draws"] = t.max_plies_draws
        if t.failures:
            out["engine_failures"] = dict(sorted(t.failures.items()))
        usage = time_use(self.records, len(self.config.engines))
        if any(u["budget_used"] is not None for u in usage):   # only with time limits: timings vary
            out["time_use"] = usage
        if len(self.config.engines) > 2 and self.config.tournament is None:
            out["wins_by_engine"] = t.wins_by_engine + [0] * (len(self.config.engines) - len(t.wins_by_engine))
        if self.stopped:
            out["stopped"] = self.stopped
        if self.interrupted:
            out["interrupted"] = True
        cfg = self.config
        if cfg.first_to is not None or cfg.sum_of is not None:
            has_points = bool(self.records) and t.games_without_points == 0
            if has_points:
                out["points"] = list(t.points)
            if cfg.first_to is not None:
                out["first_to"] = cfg.first_to
                out["match_winner"] = FirstToStop(cfg.first_to).winner(t)
            else:
                out["sum_of"] = cfg.sum_of
                a, b = t.points
                out["match_winner"] = None if a == b else (1 if a > b else 2)
        return out


class Match:
    """A match being set up and run; `run_match` is the one-call form. A
    subclass may change the games it plays (`task`) and what a resumed
    record must hold (`check_resumed`), as the self-play runs do
    (`crossridor.engine.match.selfplay`)."""

    def __init__(self, config: MatchConfig):
        config.validate()
        if not config.engines:
            raise CrossridorError("give the engines of the match")
        self.config = config
        self.game = resolve_game(config.game, config.params)
        self.num_players = self.game.traits.num_players
        assert config.games is not None        # MatchConfig.__post_init__ chose it
        self.pairs: list[tuple[int, int]] | None
        if config.tournament is not None:
            # each pairing is a two-engine match of `games` games; their rounds interleave
            self.pairs = pairings(config.tournament, len(config.engines))
            two = base_seating(self.num_players, 2)
            self.pair_bases = [tuple(pair[k] for k in two) for pair in self.pairs]
        else:
            self.pairs = None
            self.pair_bases = [base_seating(self.num_players, len(config.engines))]
        self.round_size = distinct_seatings(self.pair_bases[0])     # the same for every pairing
        # the game indices to play, in counting order (see game_index)
        self.order = sorted(self.game_index(pair, local) for pair in range(len(self.pair_bases))
                            for local in range(config.games))
        self.total_games = len(self.order)
        # the cap in force: None when there is none
        if config.max_plies is None:
            self.max_plies = default_max_plies(self.game)
        else:
            self.max_plies = config.max_plies or None
        if self.max_plies is not None and config.random_openings >= self.max_plies:
            raise CrossridorError(f"random openings of {config.random_openings} plies are not shorter than "
                                  f"max plies ({self.max_plies})")
        traits = self.game.traits
        if any(e.command is not None for e in config.engines) and (traits.chance or traits.hidden_information):
            raise CrossridorError(f"outside (uci:) engines play only games without chance or hidden "
                                  f"information (e.g. quoridor), not {traits.name}")
        if config.sum_of is not None and seat_points(self.game, new_game_state(self.game)) is None:
            raise CrossridorError("sum-of needs a game with points")
        self.records_file = RecordsFile(config.records) if config.records else None
        self.pgn_file = PgnFile(config.pgn, config.engines,
                                f"crossridor {config.tournament or 'match'}",
                                dealt(self.game)) if config.pgn else None
        self._wanted = set(self.order)
        prior = self._load_prior()
        self.seed = self._choose_seed(prior)
        self._openings: dict = {}
        self.done: dict = {}
        lines = self.records_file.lines if self.records_file is not None else []
        for record, line in zip(prior, lines):
            where = f"records file {config.records!r}, line {line}"
            first = self.done.get(record.index)
            if first is not None:
                if (first.result, first.moves) != (record.result, record.moves):
                    raise CrossridorError(f"{where}: game {record.index} again, with another result or "
                                          f"moves than before: a corrupt records file")
                continue
            if record.index in self._wanted:
                self.check_resumed(record, where)
                self._replay(record, where)
                self.done[record.index] = record

    # setup
    def _load_prior(self) -> list:
        if self.records_file is None:
            return []
        prior = self.records_file.load()
        if prior and not self.config.resume:
            raise CrossridorError(f"records file {self.config.records!r} already holds {len(prior)} games: "
                                  f"add --resume to continue that match, or choose another file")
        return prior

    def _choose_seed(self, prior: list) -> int:
        seed = self.config.seed
        if prior:
            assert self.records_file is not None   # prior games come from it
            if seed is not None and seed != prior[0].match_seed:
                raise CrossridorError(f"--seed {seed} differs from the seed {prior[0].match_seed} of "
                                      f"records file {self.config.records!r}, line {self.records_file.lines[0]}")
            return prior[0].match_seed
        return seed if seed is not None else random.SystemRandom().randrange(2 ** 32)

    def check_resumed(self, record: GameRecord, where: str) -> None:
        """CrossridorError naming `where` (the file and line) unless the
        record, read from the records file to resume, is a game of this
        match (a subclass extends the checks, calling this first)."""
        cfg = self.config
        mine = {"game": str(cfg.game), "params": cfg.params, "match_engines": [str(e) for e in cfg.engines],
                "match_seed": self.seed, "max_plies": self.max_plies}
        for key, value in mine.items():
            if getattr(record, key) != value:
                raise CrossridorError(f"{where}: game {record.index} was played with "
                                      f"{key} {getattr(record, key)!r}, not {value!r}: a different match")
        task = self.task(record.index)
        if tuple(record.moves[:record.opening_plies]) != task.opening or tuple(record.seats) != task.seats:
            raise CrossridorError(f"{where}: game {record.index} has another "
                                  f"opening or seating than this match would play")
        if cfg.sum_of is not None and record.points is None:
            raise CrossridorError(f"{where}: game {record.index} has no points "
                                  f"(recorded without them): sum-of cannot count it")

    def _replay(self, record: GameRecord, where: str) -> None:
        """Play a resumed record's moves again: each must be legal, and the
        end must be what the record says (a finished game only if it ended)."""
        try:
            if not isinstance(record.moves, list) or not all(isinstance(m, str) for m in record.moves):
                raise ValueError("its moves are not a list of move texts")
            if record.plies != len(record.moves):
                raise ValueError(f"{record.plies} plies but {len(record.moves)} moves")
            state = new_game_state(self.game, tuple(record.moves),
                                   self.deal_seed(self.round_number(record.index) - 1))
            ended = state.is_terminal()
            if (record.reason == "terminal") != ended:
                raise ValueError(f"the reason {record.reason!r} but the moves "
                                 f"{'end' if ended else 'do not end'} the game")
            if ended and [float(r) for r in state.returns()] != list(record.returns):
                raise ValueError(f"returns {record.returns!r}, but the moves give "
                                 f"{[float(r) for r in state.returns()]!r}")
        except (CrossridorError, ValueError, TypeError) as exc:
            raise CrossridorError(f"{where}: game {record.index} does not replay: {exc}") from None

    def opening(self, round_index: int) -> tuple:
        if round_index not in self._openings:
            cfg = self.config
            deal = self.deal_seed(round_index)
            if cfg.openings:
                opening = tuple(cfg.openings[round_index % len(cfg.openings)])
                try:
                    new_game_state(self.game, opening, deal)
                except ValueError as exc:
                    raise CrossridorError(f"opening {round_index % len(cfg.openings) + 1} "
                                          f"({' '.join(opening)!r}): {exc}") from None
            elif cfg.random_openings:
                opening = random_opening(self.game, cfg.random_openings,
                                         derive_seed(self.seed, "opening", round_index), deal)
            else:
                opening = ()
            state = new_game_state(self.game, opening, deal)
            if state.is_terminal():
                raise CrossridorError(f"opening {_brief(opening)} ends the game")
            if self.max_plies is not None and len(opening) >= self.max_plies:
                raise CrossridorError(f"opening {_brief(opening)} is as long as --max-plies "
                                      f"({self.max_plies})")
            self._openings[round_index] = opening
        return self._openings[round_index]

    def deal_seed(self, round_index: int) -> int:
        return derive_seed(self.seed, "deal", round_index)

    def game_index(self, pair: int, local: int) -> int:
        """The index of game `local` of pairing `pair`: a tournament plays
        round k of every pairing before round k + 1 of any, so a larger
        --games (with --resume) extends it and keeps every index; a match
        is one pairing, index = local."""
        rs, n = self.round_size, len(self.pair_bases)
        return (local // rs) * rs * n + pair * rs + local % rs

    def round_number(self, index: int) -> int:
        """The round of game `index`, from 1 (its opening's number)."""
        return index // self.round_size // len(self.pair_bases) + 1

    def task(self, index: int) -> GameTask:
        rs, n = self.round_size, len(self.pair_bases)
        block, rotation = divmod(index, rs)
        round_index, pair = divmod(block, n)
        return GameTask(index=index, game=self.config.game, params=dict(self.config.params),
                        engines=tuple(self.config.engines), seats=seating(self.pair_bases[pair], rotation),
                        opening=self.opening(round_index), seed=derive_seed(self.seed, "game", index),
                        deal_seed=self.deal_seed(round_index), max_plies=self.max_plies,
                        match_seed=self.seed, time_margin=self.config.time_margin)

    def preflight(self) -> None:
        """Each engine searches the first start position once (with at most
        0.05 s), so a bad option or an algorithm that refuses the game fails
        before the match starts."""
        state = new_game_state(self.game, self.opening(0), self.deal_seed(0))
        if state.current_player < 0:
            return
        from crossridor.engine.match.outside_engine import EngineFailure
        moves = list(self.opening(0))
        for spec in dict.fromkeys(self.config.engines):
            limits = spec.limits
            if limits.clock is not None or (limits.time is not None and limits.time > 0.05):
                limits = dataclasses.replace(limits, time=0.05, clock=None)
            try:
                player = dataclasses.replace(spec, limits=limits).open()
                try:
                    player.choose(state.clone(), moves, 0)
                finally:
                    player.close()
            except EngineFailure as exc:
                tail = f" (stderr: {' | '.join(exc.stderr[-3:])})" if exc.stderr else ""
                raise CrossridorError(f"engine {spec} fails before the match: {exc}{tail}") from None

    # running
    def run(self, executor: concurrent.futures.Executor | None = None,
            on_record: Callable[[GameRecord, Tally], None] | None = None,
            preflight: bool = True) -> MatchResult:
        cfg = self.config
        # games in flight: as asked, else what the executor can run at once (a
        # cluster's worker threads), else the number of cores
        capacity = getattr(executor, "capacity", None)
        concurrency = cfg.concurrency or (capacity() if capacity else None) or os.cpu_count() or 1
        rules: list[StopRule] = [SprtStop(cfg.sprt)] if cfg.sprt else []
        if cfg.first_to is not None:
            rules.append(FirstToStop(cfg.first_to))
        counted = Tally()
        live = Tally()
        for index in sorted(self.done):
            live.add(self.done[index])
        state: dict[str, Any] = {"prefix": 0, "stopped": None}

        def advance():
            # Count finished games in index order; check the stop rules
            # after each complete round (or each game, for an every_game rule).
            while (state["stopped"] is None and state["prefix"] < self.total_games
                   and self.order[state["prefix"]] in self.done):
                counted.add(self.done[self.order[state["prefix"]]])
                state["prefix"] += 1
                p = state["prefix"]
                boundary = p % self.round_size == 0 or p == self.total_games
                for rule in rules:
                    if not (boundary or getattr(rule, "every_game", False)):
                        continue
                    reason = rule.check(counted)
                    if reason:
                        state["stopped"] = reason
                        break

        advance()
        todo = iter([i for i in self.order if i not in self.done])
        if state["stopped"] is None and preflight and len(self.done) < self.total_games:
            self.preflight()
        own_executor = executor is None
        if own_executor:
            executor = make_executor(min(concurrency, max(1, self.total_games - len(self.done))))
        in_flight: dict = {}
        finished_cleanly = interrupted = False
        try:
            def fill():
                while state["stopped"] is None and len(in_flight) < concurrency:
                    index = next(todo, None)
                    if index is None:
                        return
                    in_flight[executor.submit(play_game, self.task(index))] = index

            fill()
            while in_flight:
                # a short timeout, so that an interrupt (engine.stop) is seen at once
                finished, _ = concurrent.futures.wait(in_flight, timeout=0.05,
                                                      return_when=concurrent.futures.FIRST_COMPLETED)
                if _stop.interrupted():
                    raise _stop.Interrupted("match interrupted")
                for future in sorted(finished, key=lambda f: in_flight[f]):
                    in_flight.pop(future)
                    record = future.result()
                    if self.records_file is not None:
                        self.records_file.append(record)
                    if self.pgn_file is not None:
                        self.pgn_file.append(record, self.round_number(record.index))
                    self.done[record.index] = record
                    live.add(record)
                    advance()
                    if on_record is not None:
                        on_record(record, live)
                fill()
            finished_cleanly = True
        except KeyboardInterrupt:
            interrupted = True      # report the games finished so far
        finally:
            for future in in_flight:
                future.cancel()
            if own_executor and executor is not None:
                stop_executor(executor, abort=not finished_cleanly)
            if self.records_file is not None:
                self.records_file.close()
            if self.pgn_file is not None:
                self.pgn_file.close()
        end = state["prefix"]
        records = [self.done[i] for i in self.order[:end]]
        sprt_result = sprt(counted.wins, counted.draws, counted.losses, cfg.sprt) if cfg.sprt else None
        return MatchResult(cfg, self.seed, records, counted, sprt_result, state["stopped"],
                           len(self.done) - end, self.max_plies, interrupted)


def run_match(config: MatchConfig, executor=None, on_record=None) -> MatchResult:
    """Play the match `config` describes; see the module docstring."""
    return Match(config).run(executor, on_record)
