"""A PettingZoo AEC environment over any crossridor game, as PettingZoo's
classic games are (chess, connect four, go): agents `player_1` ... `player_N`
(seat 1 is player_1), observations `{"observation": Box, "action_mask":
Box(int8)}`, Discrete actions (the game's action ids), rewards the game's
returns at the end (±1 with two seats), termination at the end, truncation
at the ply cap. Chance (deals, draws) is drawn inside from the seed given to
`reset(seed=...)`; each agent's observation is the game's own per-seat
tensor, which holds only what that seat may see."""

from __future__ import annotations

from typing import Any

from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from crossridor.engine.errors import CrossridorError
from crossridor.engine.rl.episode import (
    RENDER_MODES,
    EnvDeclaration,
    Episode,
    check_cap,
    check_render_mode,
    load_environment_game,
    render,
    spaces_for,
)
from crossridor.engine.rl.episode import declaration as game_declaration
from crossridor.engine.views import player_index, seat


def agent_name(index: int) -> str:
    """The agent at player index `index`: `player_<seat>`."""
    return f"player_{seat(index)}"


class CrossridorAEC(AECEnv, EzPickle):
    """`CrossridorAEC(game, render_mode=None, max_plies="default",
    render_viewer=None, observation_type="observation", **game_params)`.
    `observation_type`: "observation" (the game's observation tensor) or
    "information_state" (its perfect-recall tensor, Crosswise and
    Qwatrobat). `render_viewer`: whose view
    `render()` shows (None, the default: everything, as PettingZoo's card games show
    every hand to a person watching; a seat 1..n: that seat's view)."""

    metadata = {"render_modes": list(RENDER_MODES), "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game: str, render_mode: str | None = None,
                 max_plies: int | None | str = "default", render_viewer: int | None = None,
                 observation_type: str = "observation", **params):
        # EzPickle: the env pickles as its arguments (all plain values), e.g. for worker processes
        EzPickle.__init__(self, game, render_mode, max_plies, render_viewer, observation_type, **params)
        super().__init__()
        check_render_mode(render_mode)
        self.declaration = declaration = game_declaration(game)
        self.game, self.params = load_environment_game(declaration, params)
        self.max_plies = check_cap(declaration.max_plies(self.params) if max_plies == "default" else max_plies)
        self.metadata = dict(self.metadata, name=declaration.env_name)
        self.render_mode = render_mode
        n = self.game.traits.num_players
        self.render_viewer = render_viewer
        self._render_index = None if render_viewer is None else player_index(render_viewer, n, "render_viewer")
        self.possible_agents = [agent_name(s) for s in range(n)]
        self._index = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_type = observation_type
        obs_space, act_space = spaces_for(self.game, declaration.observation_high, observation_type)
        # one space object per agent, as the API test wants the same object each call
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: act_space for a in self.possible_agents}
        self._rng: Any = None         # numpy Generator, from reset() on
        self.episode: Any = None      # the Episode being played, from reset() on

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng, _ = seeding.np_random(seed)
        self.episode = Episode(self.game, self._rng, self.max_plies, self.observation_type)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.agent_selection = agent_name(self.episode.to_move)

    def observe(self, agent):
        return self.episode.observation(self._index[agent], mask=True)

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ep = self.episode
        if action is None or not ep.legal(action):
            raise CrossridorError(f"{self.declaration.env_name}: {agent} cannot play action {action!r} here "
                                  "(see its action_mask)")
        self._cumulative_rewards[agent] = 0.0
        ep.play(action)
        self._clear_rewards()
        if ep.terminated or ep.truncated:
            returns = ep.returns()
            for a in self.agents:
                self.rewards[a] = returns[self._index[a]]
                self.terminations[a] = ep.terminated
                self.truncations[a] = ep.truncated
            self.agent_selection = agent   # every agent now steps None, in seat order
            self._deads_step_first()
        else:
            self.agent_selection = agent_name(ep.to_move)
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        return render(self.declaration, self.episode.state, self.render_mode, self._render_index)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.declaration.env_name


class EnvModule:
    """One game's PettingZoo module (`crossridor.envs.quoridor_v0`):
    `raw_env(...)` and `env(...)`, the latter wrapped as PettingZoo's classic
    games are (an illegal action ends the game with -1 for its agent; actions
    out of range and calls out of order are errors)."""

    def __init__(self, declaration: EnvDeclaration):
        self.declaration = declaration
        self.__name__ = declaration.env_name

    def raw_env(self, **kwargs) -> CrossridorAEC:
        return CrossridorAEC(self.declaration.game, **kwargs)

    def env(self, **kwargs):
        e = self.raw_env(**kwargs)
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
        e = wrappers.AssertOutOfBoundsWrapper(e)
        return wrappers.OrderEnforcingWrapper(e)

    def __repr__(self) -> str:
        return f"<crossridor.envs.{self.declaration.env_name}>"
