"""A match's score: each game's outcome and points for the engines, the running
tally, the rules that stop a match early (SPRT, first to X), and time use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from crossridor.engine.match.game_loop import GameRecord, plain_number
from crossridor.engine.match.stats import SprtSpec, sprt

# --- scoring and stop rules ---------------------------------------------------------

def game_outcome(record: GameRecord) -> str:
    """"win", "draw" or "loss" for engine 1 (index 0) against engine 2."""
    if record.winner_engine is None:
        return "draw"
    if record.winner_engine == 0:
        return "win"
    if record.winner_engine == 1:
        return "loss"
    return "draw"


def engine_points(record: GameRecord, num_engines: int) -> list | None:
    """Each engine's points in the game: the mean of its seats' points (in
    a team game its team's points); None if the record has no points."""
    if record.points is None:
        return None
    out = []
    for engine in range(num_engines):
        mine = [p for p, e in zip(record.points, record.seats) if e == engine]
        out.append(sum(mine) / len(mine) if mine else 0)
    return out


@dataclass
class Tally:
    wins: int = 0
    draws: int = 0
    losses: int = 0
    wins_by_engine: list = field(default_factory=list)
    max_plies_draws: int = 0
    points: list = field(default_factory=lambda: [0, 0])   # engines 1 and 2, over the games with points
    games_without_points: int = 0
    failures: dict = field(default_factory=dict)            # reason -> games lost by an outside engine

    def add(self, record: GameRecord) -> None:
        if record.failure is not None:
            self.failures[record.reason] = self.failures.get(record.reason, 0) + 1
        pts = engine_points(record, len(self.points))
        if pts is None:
            self.games_without_points += 1
        else:
            self.points = [plain_number(a + b) for a, b in zip(self.points, pts)]
        outcome = game_outcome(record)
        if outcome == "win":
            self.wins += 1
        elif outcome == "loss":
            self.losses += 1
        else:
            self.draws += 1
        if record.winner_engine is not None:
            while len(self.wins_by_engine) <= record.winner_engine:
                self.wins_by_engine.append(0)
            self.wins_by_engine[record.winner_engine] += 1
        if record.reason == "max_plies":
            self.max_plies_draws += 1

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float | None:
        return None if not self.games else (self.wins + 0.5 * self.draws) / self.games


class StopRule(Protocol):
    """Checked after each complete round of the index order, or after every
    game if the rule has `every_game = True`."""

    def check(self, tally: Tally) -> str | None:
        """None to go on, or a reason to stop the match."""


@dataclass
class SprtStop:
    spec: SprtSpec

    def check(self, tally: Tally) -> str | None:
        result = sprt(tally.wins, tally.draws, tally.losses, self.spec)
        return None if result.result == "continue" else f"sprt {result.result}"


@dataclass
class FirstToStop:
    """`match X`: stop when engine 1 or 2 has X wins (after every game, so
    the count never passes X)."""

    wins: int
    every_game = True

    def check(self, tally: Tally) -> str | None:
        winner = self.winner(tally)
        return None if winner is None else f"first to {self.wins} wins: engine {winner}"

    def winner(self, tally: Tally) -> int | None:
        if tally.wins >= self.wins:
            return 1
        if tally.losses >= self.wins:
            return 2
        return None


def time_use(records: list, num_engines: int) -> list:
    """Per engine (match order): its moves, mean seconds a move, and over
    the moves with a time budget the mean share of it used (`budget_used`:
    seconds / soft limit, the move time or the clock's share) and the largest
    overrun of the hard limit (`max_overrun`, seconds; negative: always
    within it). None where no move had a budget."""
    think: list[list[tuple]] = [[] for _ in range(num_engines)]
    for record in records:
        for seat, seconds, soft, hard in record.think or ():
            think[record.seats[seat - 1]].append((seconds, soft, hard))     # seats 1..n
    out = []
    for engine, moves in enumerate(think, 1):
        timed = [(s, soft, hard) for s, soft, hard in moves if soft]
        out.append({
            "engine": engine, "moves": len(moves),
            "mean_seconds": round(sum(s for s, _, _ in moves) / len(moves), 4) if moves else None,
            "budget_used": round(sum(s / soft for s, soft, _ in timed) / len(timed), 4) if timed else None,
            "max_overrun": round(max(s - hard for s, _, hard in timed), 4) if timed else None,
        })
    return out
