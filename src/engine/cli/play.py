"""`crossridor play`: a game against the engine in the terminal.

The session reads commands line by line from any text stream (a terminal or
a pipe) and writes to another, so it can be driven by a script or a test:
a move in notation, `undo` (take back your last move and the engine's
replies), `hint` (the engine's move for you), `moves` (the legal moves),
`board`, `help`, `quit`. End of input quits.

In a two-player game whose search keeps a table from move to move
(alpha-beta) the engine thinks while the person does (pondering,
crossridor.engine.ponder), on the move it expects; `--no-ponder` leaves the
CPU idle instead.
"""

from __future__ import annotations

import random
import sys
from typing import TextIO

from crossridor.engine.match.game_loop import DealtChance, derive_seed, winner_index
from crossridor.engine.match.specs import EngineSpec
from crossridor.engine.ponder import Ponder, predicted_reply, start_ponder
from crossridor.engine.protocol import CHANCE
from crossridor.engine.search_api import default_algorithm, search_memory
from crossridor.engine.views import move_view, seat, seat_view

DEFAULT_THINK = "time=1"     # the default engine: the default algorithm of the position, 1 s a move

HELP = ("commands: a move in notation | undo (take back your last move) | hint (the engine's move) | "
        "moves (legal moves) | board | help | quit")


class PlaySession:
    """One human (`human`, a player index) against `engine` in every other seat
    (None: the default algorithm of each position, as `best` picks it, with
    1 s a move). The human sees only what their seat may see (engine.views)."""

    def __init__(self, state, engine: EngineSpec | None, human: int = 0, seed: int | None = None,
                 stdin: TextIO | None = None, stdout: TextIO | None = None, ponder: bool = True):
        self.state = state
        self.engine = engine
        self.human = human
        self.seed = random.SystemRandom().randrange(2 ** 32) if seed is None else seed
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.plies = 0                 # plies played in this session
        self.human_plies: list = []    # self.plies before each human move
        self.memories: dict = {}       # engine's player index -> its search memory
        self.chance = DealtChance(self.seed)
        self.pondering = ponder and state.game.traits.num_players == 2
        self._guess: tuple | None = None       # the engine's expected reply to its last move
        self._ponder: Ponder | None = None

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def show(self) -> None:
        self.say(seat_view(self.state, self.human))

    def play(self, move) -> None:
        self.state.play(move)
        self.plies += 1

    def engine_for(self, state) -> EngineSpec:
        if self.engine is not None:
            return self.engine
        return EngineSpec.parse(f"{default_algorithm(state)}:{DEFAULT_THINK}")

    def engine_move(self):
        self.stop_pondering()
        engine = self.engine_for(self.state)
        player = self.state.current_player
        if player not in self.memories:     # each engine seat keeps its table from move to move
            self.memories[player] = search_memory(self.state, engine.algorithm)
        result = engine.search(self.state.clone(), derive_seed(self.seed, self.plies),
                               memory=self.memories[player])
        if player != self.human and self.pondering:
            self._guess = predicted_reply(self.state, result)
        return result.move

    def start_pondering(self) -> None:
        """The engine thinks on the person's time, on the reply it expects."""
        if self._guess is None or self._ponder is not None:
            return
        engine = self.engine_for(self.state)
        player = 1 - self.human
        self._ponder = start_ponder(self.state, self._guess, engine.algorithm, self.memories.get(player),
                                    dict(engine.options), derive_seed(self.seed, "ponder", self.plies))
        self._guess = None

    def stop_pondering(self) -> None:
        if self._ponder is not None:
            self._ponder.finish()
            self._ponder = None

    def run(self) -> int:
        try:
            return self._loop()
        finally:
            self.stop_pondering()

    def _loop(self) -> int:
        n = self.state.game.traits.num_players
        engine = self.engine if self.engine is not None else f"default algorithm, {DEFAULT_THINK}"
        self.say(f"you are player {seat(self.human)} of {n}; the engine ({engine}) plays the others. "
                 f"Type 'help' for commands.")
        self.show()
        while True:
            if self.state.is_terminal():
                self.say(self.result_text())
                return 0
            player = self.state.current_player
            if player == CHANCE:
                # fixed by the seed, as if dealt: undo cannot draw the card again to see another
                move = self.chance.move(self.state, self.plies)
                text = move_view(self.state, move, self.human)
                self.play(move)
                self.say(f"chance: {text}")
                continue
            if player != self.human:
                move = self.engine_move()
                text = move_view(self.state, move, self.human)
                self.play(move)
                self.say(f"engine (player {seat(player)}) plays {text}")
                self.show()
                continue
            self.start_pondering()
            self.stdout.write(f"player {seat(self.human)} to move> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("\nend of input: quitting")
                return 0
            if self.command(line.strip()) == "quit":
                return 0

    def command(self, text: str) -> str | None:
        word = text.lower()
        if not word:
            return None
        if word in ("quit", "exit", "q"):
            self.say("quitting")
            return "quit"
        if word in ("help", "?"):
            self.say(HELP)
        elif word == "moves":
            self.say(" ".join(str(m) for m in self.state.legal_moves()))
        elif word in ("board", "show"):
            self.show()
        elif word == "hint":
            self.say(f"hint: {self.engine_move()}")
        elif word == "undo":
            self.stop_pondering()
            self.undo()
        else:
            try:
                move = self.state.parse_move(text)
            except ValueError as exc:
                self.say(f"{exc}; type 'moves' for the legal moves, 'help' for the commands")
                return None
            self.human_plies.append(self.plies)
            self.play(move)
            self.say(f"you play {move}")
            self.show()
        return None

    def undo(self) -> None:
        if not self.human_plies:
            self.say("nothing to undo")
            return
        target = self.human_plies.pop()
        taken = self.plies - target
        while self.plies > target:
            self.state.undo()
            self.plies -= 1
        self.chance.undo_to(target)
        self.say(f"took back {taken} {'move' if taken == 1 else 'moves'}")
        self.show()

    def result_text(self) -> str:
        winner = winner_index(list(self.state.returns()))
        if winner is None:
            return "game over: a draw"
        if winner == self.human:
            return "game over: you win"
        return f"game over: the engine (player {seat(winner)}) wins"
