"""A game's reinforcement-learning declaration (`EnvDeclaration`), given in
its registry entry: plain data, so that a game declares it without
importing the environments (`crossridor.engine.rl`), which read it. The
registry imports this module, so it imports no other at its top."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


def _no_cap(params: dict) -> int | None:
    return None


def _render_view(state, viewer) -> str:
    return state.render(viewer)


@dataclass(frozen=True)
class EnvDeclaration:
    """One game's environment defaults. The environments' keyword arguments
    are the game's declared parameters (checked by the registry); `defaults`
    replaces some of the game's own defaults inside the environments."""

    game: str                      # registry name
    env_name: str                  # the PettingZoo module name, e.g. "quoridor_v0"
    gym_id: str                    # the Gymnasium id, e.g. "crossridor/Quoridor-v0"
    defaults: dict = field(default_factory=dict)       # game parameters
    # the ply cap (None: the game always ends by itself) for the game's parameters
    max_plies: Callable[[dict], int | None] = _no_cap
    observation_high: float = 1.0  # observation tensors lie in [0, observation_high]
    # the text board as seat `viewer` may see it (None: everything)
    render_text: Callable[[Any, int | None], str] = _render_view
    # fills the observations of many states at once (states, players, out);
    # None: the environments stack each state's tensor
    observation_batch: Callable[..., Any] | None = None

