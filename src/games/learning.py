"""The learning methods every game and state inherits (`LearningGame`,
`LearningState`). They only delegate to the game's codec, one per game
(its registry entry's `codec`, e.g. `crossridor.games.<game>.learning`),
which holds the layouts:

    codec.num_distinct_actions() -> int
    codec.action_to_move(id) / codec.move_to_action(move)
    codec.observation_tensor_shape() -> tuple
    codec.observation_tensor(state, player) -> float32 array of that shape
    codec.information_state_tensor_shape() / information_state_tensor(state, player)
        (games with hidden information only)
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from crossridor.engine.errors import CrossridorError
from crossridor.engine.protocol import CHANCE
from crossridor.engine.registry import game_entry


def _params_key(params: dict) -> tuple:
    return tuple(sorted((k, v if isinstance(v, (int, float, str, bool, type(None))) else repr(v))
                        for k, v in params.items()))


@lru_cache(maxsize=64)
def _codec_for(name: str, key: tuple, game):
    entry = game_entry(name)       # registered games only
    if entry.codec is None:
        raise CrossridorError(f"{entry.name} has no learning codec (action ids and tensors)")
    return entry.codec(game)


def codec(game):
    """The (cached) codec of a game: one per game name and parameters, kept
    on the game too, since building the cache key costs more than a step's
    other work (about a fifth of an environment step)."""
    found = game.__dict__.get("_codec")
    if found is None:
        found = game.__dict__["_codec"] = _codec_for(game.name, _params_key(game.params), game)
    return found


class LearningGame:
    """Action ids and tensor shapes (OpenSpiel's `Game` methods)."""

    __slots__ = ()

    def num_distinct_actions(self) -> int:
        """Action ids are 0 .. num_distinct_actions() - 1, chance outcomes included."""
        return codec(self).num_distinct_actions()

    def action_to_move(self, action: int):
        """The move of an action id (ValueError for an id out of range)."""
        return codec(self).action_to_move(action)

    def move_to_action(self, move) -> int:
        """The action id of a move (a move value or its text)."""
        return codec(self).move_to_action(move)

    def observation_tensor_shape(self) -> tuple:
        return codec(self).observation_tensor_shape()

    def information_state_tensor_shape(self) -> tuple:
        c = codec(self)
        if not hasattr(c, "information_state_tensor"):
            raise CrossridorError(_no_info_tensor(self))
        return c.information_state_tensor_shape()


class LearningState:
    """Action ids, masks, tensors and chance (OpenSpiel's `State` methods)."""

    __slots__ = ()

    if TYPE_CHECKING:
        # the members of the game protocol (engine.protocol.State) these methods use
        game: Any

        @property
        def current_player(self) -> int: ...

        def legal_moves(self) -> Sequence[Any]: ...

        def play(self, move: Any) -> None: ...

        def clone(self) -> Any: ...

    def legal_actions(self) -> list[int]:
        """The legal moves (or chance outcomes) as sorted action ids."""
        c = codec(self.game)
        if hasattr(c, "legal_actions"):
            return c.legal_actions(self)
        return sorted(c.move_to_action(m) for m in self.legal_moves())

    def legal_actions_mask(self) -> np.ndarray:
        """A bool array over every action id: True for the legal ones."""
        mask = np.zeros(codec(self.game).num_distinct_actions(), dtype=np.bool_)
        mask[self.legal_actions()] = True
        return mask

    def apply_action(self, action: int) -> None:
        """Play the move of an action id."""
        self.play(codec(self.game).action_to_move(action))

    def __deepcopy__(self, memo):
        # copy.deepcopy (used by pyspiel to clone Python states) = clone()
        return self.clone()

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def chance_outcomes(self) -> list:
        """(move, probability) pairs at a chance node, summing to 1; [] elsewhere."""
        return []

    def chance_action_outcomes(self) -> list[tuple[int, float]]:
        """chance_outcomes() with action ids, as OpenSpiel's `chance_outcomes()`."""
        to_action = codec(self.game).move_to_action
        return sorted((to_action(m), p) for m, p in self.chance_outcomes())

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """What `player` (default: the player to move) observes now, as a
        float32 array of shape game.observation_tensor_shape()."""
        return codec(self.game).observation_tensor(self, self._learning_player(player))

    def information_state_tensor(self, player: int | None = None) -> np.ndarray:
        """Everything `player` has seen since the start (perfect recall), as a
        float32 array of shape game.information_state_tensor_shape()."""
        c = codec(self.game)
        if not hasattr(c, "information_state_tensor"):
            raise CrossridorError(_no_info_tensor(self.game))
        return c.information_state_tensor(self, self._learning_player(player))

    def _learning_player(self, player):
        n = self.game.traits.num_players
        if player is None:
            player = self.current_player
            if not 0 <= player < n:
                raise CrossridorError(f"{self.game.name}: no player to move here; name the player")
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < n:
            raise CrossridorError(f"{self.game.name}: player must be 0..{n - 1}, got {player!r}")
        return int(player)


def _no_info_tensor(game) -> str:
    if game.traits.hidden_information:
        return (f"{game.name}: no information-state tensor (its games have no fixed length): "
                "use information_state(player) or stack observation tensors")
    return f"{game.name}: no information-state tensor (perfect information: use observation_tensor)"


def check_action(action, num: int) -> int:
    """An action id as an int in range, or ValueError naming it."""
    if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not 0 <= action < num:
        raise CrossridorError(f"action id must be an integer 0..{num - 1}, got {action!r}")
    return int(action)
