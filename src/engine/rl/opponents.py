"""The built-in opponent of the single-agent environments: an engine spec
as `crossridor match --engine SPEC` reads it (`"alphabeta:depth=2"`,
`"greedy"`, `"random"`, `"mcts:sims=200"`), or a callable
`opponent(state) -> action id, move or move text` (given a copy of the
full state; a fair opponent looks only at its own seat's information)."""

from __future__ import annotations

import numpy as np

from crossridor.engine.errors import CrossridorError
from crossridor.engine.match.specs import EngineSpec


class Opponent:
    def __init__(self, spec, game):
        self.game = game
        self.name = getattr(spec, "__name__", repr(spec)) if callable(spec) else str(spec)
        self._player = None
        self._callable = None
        if callable(spec):
            self._callable = spec
        elif isinstance(spec, str):
            self.spec = EngineSpec.parse(spec)      # the match's parser: one syntax everywhere
            self.name = str(self.spec)
        else:
            raise CrossridorError(f"opponent must be an engine spec (e.g. 'greedy') or a callable, got {spec!r}")
        self._texts: list[str] = []

    def action(self, episode, rng: np.random.Generator) -> int:
        """The opponent's action for the seat to move in `episode`."""
        state = episode.state
        if self._callable is not None:
            choice = self._callable(state.clone())
        else:
            if self._player is None:
                self._player = self.spec.open()
            # the moves so far in notation (an outside engine replays them)
            to_move = self.game.action_to_move
            self._texts.extend(str(to_move(a)) for a in episode.actions[len(self._texts):])
            choice = self._player.choose(state, self._texts, int(rng.integers(2 ** 63)))
        if isinstance(choice, (int, np.integer)) and not isinstance(choice, bool):
            action = int(choice)
        else:
            try:
                action = self.game.move_to_action(choice)
            except (CrossridorError, ValueError) as exc:
                raise CrossridorError(f"opponent {self.name} returned {choice!r}, not a move: {exc}") from None
        if not episode.legal(action):
            raise CrossridorError(f"opponent {self.name} chose an illegal action {choice!r}")
        return action

    def new_episode(self) -> None:
        self._texts = []

    def close(self) -> None:
        if self._player is not None:
            self._player.close()
            self._player = None
