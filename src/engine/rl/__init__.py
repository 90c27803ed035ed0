"""Reinforcement-learning environments over any crossridor game: the
PettingZoo AEC environment (`pettingzoo_env`), the Gymnasium single-agent
environment against a built-in opponent (`gymnasium_env`), a batch of games
for fast rollouts (`vector`), and what they share (`episode`). Each game
declares its environment in its registry entry (`EnvDeclaration`, e.g.
`crossridor.games.<game>.entry`); the public modules are in
`crossridor.envs`. Needs the `rl` extra (gymnasium, pettingzoo).
"""
