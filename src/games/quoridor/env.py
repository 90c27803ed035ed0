"""Quoridor's reinforcement-learning environments (crossridor.envs.quoridor_v0,
crossridor/Quoridor-v0): the defaults and the ply cap."""

from crossridor.engine.rl.episode import EnvDeclaration

DECLARATION = EnvDeclaration(
    game="quoridor", env_name="quoridor_v0", gym_id="crossridor/Quoridor-v0",
    defaults={"size": 9, "players": 2},
    # random play can wander for long; 2 * squares * players plies (324 on 9x9
    # with two players) is several times a real game's length
    max_plies=lambda params: 2 * params["size"] ** 2 * params["players"],
    # Quoridor hides nothing: every viewer sees the whole board
    render_text=lambda state, viewer: str(state),
)
