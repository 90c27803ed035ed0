"""A toy game for the match runner, `crossridor match` and `crossridor play`
(a race to a total), so that those tests need neither the compiled core nor
the search modules: the toy answers `random` and `greedy` itself through
the `native_search` hook of `crossridor.search`."""

from __future__ import annotations

import random

from crossridor.engine.errors import IllegalMoveError, InvalidMoveError
from crossridor.engine.plugins import PluginGame
from crossridor.engine.protocol import TERMINAL, GameTraits, SearchResult


class RaceGame:
    """Players in turn add 1..step to a shared total; who reaches `target`
    exactly wins. With two players the first wins by leaving a multiple of
    step + 1; `greedy` here is that perfect strategy."""

    def __init__(self, players=2, target=10, step=3, points=False):
        self.name = "race"
        self.params = {"players": players, "target": target, "step": step, "points": points}
        self.traits = GameTraits("race", players)
        self.players, self.target, self.step = players, target, step
        self.with_points = points

    def new_state(self, moves=None, seed=None):
        state = (RacePointsState if self.with_points else RaceState)(self)
        if isinstance(moves, str):
            moves = moves.split()
        for m in moves or ():
            state.play(m)
        return state

    def state_from_position(self, position):
        raise NotImplementedError


class RaceState:
    def __init__(self, game):
        self.game = game
        self.total = 0
        self.history = []

    @property
    def current_player(self):
        return TERMINAL if self.is_terminal() else len(self.history) % self.game.players

    def legal_moves(self):
        if self.is_terminal():
            return []
        return [k for k in range(1, self.game.step + 1) if self.total + k <= self.game.target]

    def parse_move(self, text):
        try:
            k = int(str(text).strip())
        except ValueError:
            raise InvalidMoveError(f"{text!r} is not a move (a number 1..{self.game.step})") from None
        if k not in self.legal_moves():
            raise IllegalMoveError(f"{text!r} is not legal here (total {self.total})")
        return k

    def play(self, move):
        move = self.parse_move(move) if isinstance(move, str) else move
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move!r} is not legal here")
        self.total += move
        self.history.append(move)

    def undo(self):
        self.total -= self.history.pop()

    def clone(self):
        c = type(self)(self.game)
        c.total, c.history = self.total, list(self.history)
        return c

    def is_terminal(self):
        return self.total == self.game.target

    def returns(self):
        n = self.game.players
        if not self.is_terminal():
            return [0.0] * n
        winner = (len(self.history) - 1) % n
        lose = -1.0 / (n - 1)
        return [1.0 if p == winner else lose for p in range(n)]

    def position(self):
        return str(self.total)

    def __str__(self):
        return f"total {self.total}/{self.game.target}"

    def native_search(self, algorithm, limits, seed, options, plan):
        rng = random.Random(seed)
        moves = self.legal_moves()
        if algorithm == "random":
            move = rng.choice(moves)
        elif algorithm == "greedy":
            good = [k for k in moves if (self.game.target - self.total - k) % (self.game.step + 1) == 0]
            move = good[0] if good else rng.choice(moves)
        else:
            return NotImplemented
        return SearchResult(move, 0.0, 1, 1, 0.0, 0.0, (move,))


class RacePointsState(RaceState):
    """The race with points (`-o points=true`): each seat scores the sum of
    the numbers it added."""

    def points(self):
        n = self.game.players
        return [sum(self.history[p::n]) for p in range(n)]


def race(**params):
    return RaceGame(**params)


# a plug-in game, as a user names it from Python (workers import it by this name)
GAME = PluginGame(__name__, "race")
