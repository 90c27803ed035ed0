"""Qwatrobat's reinforcement-learning environments (crossridor.envs.qwatrobat_v0,
crossridor/Qwatrobat-v0). A game has a fixed length, so no ply cap; the
first-player draw is a chance node, drawn inside the environment."""

from crossridor.engine.rl.episode import EnvDeclaration

DECLARATION = EnvDeclaration(
    game="qwatrobat", env_name="qwatrobat_v0", gym_id="crossridor/Qwatrobat-v0",
    # the battlefield planes count up to two cards of a value per seat
    observation_high=2.0,
)
