"""Thinking on the opponent's time (pondering), for the players that search
in this process: a match's built-in engines and `crossridor play`.

After its move an engine guesses the reply (its principal variation's next
moves, up to its own next turn) and searches the position after it in a
thread until its turn comes. That search fills the game's search memory
(`search_api.search_memory`: Quoridor's alpha-beta table), which the real
search then starts from: on a hit it is back at the pondered depth within
milliseconds, on a miss the table still holds the lines around it. An
algorithm that keeps no memory (MCTS, the card games' searches) gains
nothing from it, so it does not ponder.

The UCI loop ponders the protocol's way (`go ponder`, `ponderhit`:
crossridor.engine.uci.engine); a match drives an outside engine that way
(crossridor.engine.match.outside_engine)."""

from __future__ import annotations

import threading
from typing import Any

from crossridor.engine.errors import CrossridorError
from crossridor.engine.protocol import CHANCE, SearchResult, State
from crossridor.engine.search_api import UNTIL_STOPPED, search
from crossridor.engine.stop import Stop


def predicted_reply(state: State, result: SearchResult) -> tuple | None:
    """The moves the search behind `result` expects after its own move (the
    principal variation after `result.move`) until the same player is to
    move again, or None when its line does not reach that far, the game
    ends first, or a chance move comes in between."""
    pv = list(result.pv)
    if not pv or pv[0] != result.move:
        return None
    me = state.current_player
    line = state.clone()
    line.play(result.move)
    guess = []
    for move in pv[1:]:
        if line.is_terminal() or line.current_player in (me, CHANCE):
            break
        if move not in line.legal_moves():
            return None
        line.play(move)
        guess.append(move)
    if not guess or line.is_terminal() or line.current_player != me:
        return None
    return tuple(guess)


class Ponder:
    """One search on the opponent's time: `position` (the position after the
    guessed reply) searched in a thread with the game's `memory` until
    `finish()`. `expects(moves)`: whether the moves played since its owner's
    move are the guess (a ponder hit)."""

    def __init__(self, position: State, guess: tuple, algorithm: str, memory: Any,
                 options: dict | None = None, seed: int | None = None):
        self.guess = tuple(str(m) for m in guess)
        self._stop = Stop()
        kwargs = dict(options or {}, memory=memory)
        self._thread = threading.Thread(target=self._run, args=(position, algorithm, seed, kwargs),
                                        name="crossridor-ponder", daemon=True)
        self._thread.start()

    def _run(self, position: State, algorithm: str, seed: int | None, kwargs: dict) -> None:
        try:      # until its owner's turn comes (or it proves the result)
            search(position, algorithm, UNTIL_STOPPED, seed=seed, stop=self._stop, **kwargs)
        except CrossridorError:
            pass    # its owner searches as if it had not pondered

    def expects(self, moves_since: list) -> bool:
        return tuple(str(m) for m in moves_since) == self.guess

    def finish(self) -> None:
        """Stop the search and wait for it (milliseconds): its memory is free
        for the real search."""
        self._stop.set()
        self._thread.join()


def start_ponder(state_after: State, guess: tuple | None, algorithm: str, memory: Any,
                 options: dict | None = None, seed: int | None = None) -> Ponder | None:
    """A Ponder on the position after `guess` from `state_after` (the
    position after the engine's own move), or None where pondering gains
    nothing: no guess, or no search memory for the real search to start from."""
    if guess is None or memory is None:
        return None
    position = state_after.clone()
    for move in guess:
        position.play(move)
    if position.is_terminal():
        return None
    return Ponder(position, guess, algorithm, memory, options, seed)
