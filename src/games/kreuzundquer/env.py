"""Kreuz & Quer's reinforcement-learning environments
(crossridor.envs.kreuzundquer_v0, crossridor/KreuzUndQuer-v0). The game ends
by itself (its max_stages option caps a race), so no ply cap by default;
goals, flips and penalty draws are chance nodes drawn inside the environment."""

from crossridor.engine.rl.episode import EnvDeclaration

DECLARATION = EnvDeclaration(
    game="kreuzundquer", env_name="kreuzundquer_v0", gym_id="crossridor/KreuzUndQuer-v0",
    defaults={"players": 2},
)
