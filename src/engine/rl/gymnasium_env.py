"""A Gymnasium single-agent environment over any crossridor game: the agent
holds one seat, a built-in opponent (`opponents.Opponent`) plays every other
seat. Observations `{"observation": Box, "action_mask": Box(int8)}`, the
mask also in `info["action_mask"]`; Discrete actions (the game's action
ids). The reward is the agent's return at the end (±1 with two seats), 0
before; an illegal action ends the episode with `illegal_reward` and
`info["illegal_action"] = True`. Truncation at the ply cap. Everything
random (the deal, chance, the opponent's seeds, a random seat) is drawn from
the generator that `reset(seed=...)` seeds, so a seed fixes the trajectory
for fixed actions."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from crossridor.engine.errors import CrossridorError
from crossridor.engine.registry import environment_games
from crossridor.engine.rl.episode import (
    RENDER_MODES,
    Episode,
    check_cap,
    check_render_mode,
    declaration,
    load_environment_game,
    render,
    spaces_for,
)
from crossridor.engine.rl.opponents import Opponent
from crossridor.engine.views import player_index


class CrossridorGymEnv(gym.Env):
    """`CrossridorGymEnv(game, opponent="random", seat=1, render_mode=None,
    max_plies="default", illegal_reward=-1.0, observation_type="observation",
    **game_params)`; `seat` is the agent's seat (1..n, as `info["seat"]`
    says it) or "random" (drawn at each reset); `observation_type` as in the
    PettingZoo env."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, game: str = "quoridor", opponent="random", seat: int | str = 1,
                 render_mode: str | None = None, max_plies: int | None | str = "default",
                 illegal_reward: float = -1.0, observation_type: str = "observation", **params):
        check_render_mode(render_mode)
        self.declaration = declaration(game)
        self.game, self.params = load_environment_game(self.declaration, params)
        self.max_plies = check_cap(self.declaration.max_plies(self.params) if max_plies == "default"
                                   else max_plies)
        n = self.game.traits.num_players
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= n):
            raise CrossridorError(f"seat must be 1..{n} or 'random', got {seat!r}")
        self.seat_option = seat
        self.seat: int = 1 if seat == "random" else int(seat)     # the agent's seat, 1..n
        self.opponent = Opponent(opponent, self.game)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_type = observation_type
        self.observation_space, self.action_space = spaces_for(self.game, self.declaration.observation_high,
                                                               observation_type)
        self.episode: Any = None      # the Episode being played, from reset() on
        self._done = False

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        if self.seat_option == "random":
            self.seat = int(rng.integers(self.game.traits.num_players)) + 1
        self.episode = Episode(self.game, rng, self.max_plies, self.observation_type)
        self.opponent.new_episode()
        self._done = False
        self._opponents_play()
        return self._result()

    def step(self, action):
        if self.episode is None or self._done:
            raise CrossridorError("the episode is over (or not started): call reset()")
        ep = self.episode
        if not ep.legal(action):
            self._done = True
            obs, info = self._result()
            return obs, self.illegal_reward, True, False, {**info, "illegal_action": True}
        ep.play(action)
        self._opponents_play()
        terminated, truncated = ep.terminated, ep.truncated
        self._done = terminated or truncated
        reward = ep.returns()[self._player] if terminated else 0.0
        obs, info = self._result()
        return obs, reward, terminated, truncated, info

    def _opponents_play(self) -> None:
        ep = self.episode
        while not (ep.terminated or ep.truncated) and ep.to_move != self._player:
            ep.play(self.opponent.action(ep, self.np_random))

    def _result(self) -> tuple[dict, dict]:
        """(observation, info) of the agent's seat now."""
        obs = self.episode.observation(self._player, mask=not self._done)
        info = {"action_mask": obs["action_mask"], "seat": self.seat}
        if self.episode.terminated:
            info["returns"] = self.episode.returns()
        return obs, info

    @property
    def _player(self) -> int:
        """The agent's player index (seat - 1), for the game's protocol."""
        return player_index(self.seat, self.game.traits.num_players)

    def action_masks(self):
        """The legal actions as a bool array (sb3-contrib's MaskablePPO asks for this)."""
        return self._result()[0]["action_mask"].astype(bool)

    def render(self):
        if self.render_mode is None or self.episode is None:
            return None
        return render(self.declaration, self.episode.state, self.render_mode, self._player)

    def close(self) -> None:
        self.opponent.close()


def register_envs() -> list[str]:
    """Register `crossridor/Quoridor-v0` ... (every registered game's
    environment) with Gymnasium (once); their ids."""
    ids = []
    for game in environment_games():
        d = declaration(game)
        if d.gym_id not in gym.registry:
            gym.register(id=d.gym_id, entry_point=CrossridorGymEnv, kwargs={"game": game})
        ids.append(d.gym_id)
    return ids


__all__ = ["CrossridorGymEnv", "register_envs"]
