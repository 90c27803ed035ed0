"""Reinforcement-learning environments for the four games (the `rl` extra).

PettingZoo AEC modules, as PettingZoo's classic games:

    >>> from crossridor.envs import quoridor_v0
    >>> env = quoridor_v0.env(size=5, players=2)
    >>> env.reset(seed=1)

`quoridor_v0`, `crosswise_v0`, `qwatrobat_v0`, `kreuzundquer_v0`, each with
`env(**kwargs)` (wrapped) and `raw_env(**kwargs)`. Gymnasium single-agent
environments against a built-in opponent, registered on import:

    >>> import gymnasium, crossridor.envs
    >>> env = gymnasium.make("crossridor/Quoridor-v0", size=5, opponent="greedy")

(or `gymnasium.make("crossridor.envs:crossridor/Quoridor-v0")` without the
import). `VectorGames` plays a batch of games for fast rollouts.
See docs/rl.md.
"""

from __future__ import annotations

from crossridor.engine.extras import install_hint

try:
    import gymnasium as _gymnasium  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as _exc:
    raise ImportError(f"crossridor.envs needs {install_hint('rl')}: {_exc}") from None

from crossridor.engine.rl.episode import declaration as _declaration
from crossridor.engine.rl.gymnasium_env import CrossridorGymEnv, register_envs
from crossridor.engine.rl.pettingzoo_env import CrossridorAEC, EnvModule
from crossridor.engine.rl.vector import VectorGames

quoridor_v0 = EnvModule(_declaration("quoridor"))
crosswise_v0 = EnvModule(_declaration("crosswise"))
qwatrobat_v0 = EnvModule(_declaration("qwatrobat"))
kreuzundquer_v0 = EnvModule(_declaration("kreuzundquer"))

GYM_IDS = register_envs()

__all__ = ["GYM_IDS", "CrossridorAEC", "CrossridorGymEnv", "VectorGames", "crosswise_v0",
           "kreuzundquer_v0", "quoridor_v0", "qwatrobat_v0"]
