"""A batch of games stepped together, for fast self-play rollouts:
`VectorGames("quoridor", num_envs=64, seed=0, size=9)`. Each game holds its
own seeded episode (deal and chance drawn inside, ply cap), and a finished
game starts the next one at once (auto-reset), so the batch is always full.

    obs, mask, to_move = vg.observe()        # for the player to move in each game
    rewards, terminated, truncated = vg.step(actions)

Where the game fills observations in batches in its C core (Quoridor's
`observation_batch`, which runs without the GIL), `observe` makes one call
for the whole batch; otherwise it stacks the per-state tensors."""

from __future__ import annotations

import numpy as np
from gymnasium.utils import seeding

from crossridor.engine.errors import CrossridorError
from crossridor.engine.rl.episode import Episode, check_cap, declaration, load_environment_game


class VectorGames:
    def __init__(self, game: str, num_envs: int, seed: int | None = None,
                 max_plies: int | None | str = "default", **params):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise CrossridorError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.declaration = declaration(game)
        self.game, self.params = load_environment_game(self.declaration, params)
        self.max_plies = check_cap(self.declaration.max_plies(self.params) if max_plies == "default"
                                   else max_plies)
        self.num_envs = num_envs
        self.num_players = self.game.traits.num_players
        self.num_actions = self.game.num_distinct_actions()
        self._batch = self.declaration.observation_batch
        self._obs = np.empty((num_envs,) + tuple(self.game.observation_tensor_shape()), dtype=np.float32)
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        # one generator per game, spawned from the seed: game k's trajectory
        # depends only on the seed, k and the actions given to it
        root, _ = seeding.np_random(seed)
        # a SeedSequence at run time; numpy's types name only its interface, which has no spawn
        spawned = root.bit_generator.seed_seq.spawn(self.num_envs)  # type: ignore[attr-defined]
        self.rngs = [np.random.Generator(np.random.PCG64(s)) for s in spawned]
        self.episodes = [Episode(self.game, rng, self.max_plies) for rng in self.rngs]
        self.games_finished = 0

    def observe(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(observations [N, ...] float32, action masks [N, A] int8, player
        to move [N]): each game as its player to move sees it. The players
        are player indices (seat - 1), as the protocol and `rewards[k, p]`
        count them. The observation array is reused by the next call: copy
        it to keep it."""
        to_move = np.array([ep.to_move for ep in self.episodes], dtype=np.int64)
        if self._batch is not None:
            self._batch([ep.state for ep in self.episodes], to_move.tolist(), self._obs)
        else:
            for k, ep in enumerate(self.episodes):
                self._obs[k] = ep.state.observation_tensor(int(to_move[k]))
        mask = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
        for k, ep in enumerate(self.episodes):
            mask[k, ep.legal_actions()] = 1
        return self._obs, mask, to_move

    def step(self, actions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each game's seat to move plays its action (which must be legal).
        Returns (rewards [N, players], by player index: the returns of the
        games that ended on this step, else 0; terminated [N]; truncated
        [N]); a game that ended is replaced by a new one from its own
        generator."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise CrossridorError(f"step: expected {self.num_envs} actions, got shape {actions.shape}")
        rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        terminated = np.zeros(self.num_envs, dtype=bool)
        truncated = np.zeros(self.num_envs, dtype=bool)
        for k, ep in enumerate(self.episodes):
            a = int(actions[k])
            if not ep.legal(a):
                raise CrossridorError(f"step: action {a} is not legal in game {k}")
            ep.play(a)
            if ep.terminated or ep.truncated:
                rewards[k] = ep.returns()
                terminated[k], truncated[k] = ep.terminated, ep.truncated
                self.episodes[k] = Episode(self.game, self.rngs[k], self.max_plies)
                self.games_finished += 1
        return rewards, terminated, truncated
