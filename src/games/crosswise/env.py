"""Crosswise's reinforcement-learning environments (crossridor.envs.crosswise_v0,
crossridor/Crosswise-v0). A game always ends (the board fills or everyone
passes), so there is no ply cap by default."""

from crossridor.engine.rl.episode import EnvDeclaration

DECLARATION = EnvDeclaration(
    game="crosswise", env_name="crosswise_v0", gym_id="crossridor/Crosswise-v0",
    defaults={"players": 2},
)
