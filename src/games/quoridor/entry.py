"""Quoridor's entry in the registry: its parameters, its searches' own
options, its picture, its learning codec and its environments. Light: the
game and its compiled core are imported on first use."""

from __future__ import annotations

from crossridor.engine.environments import EnvDeclaration
from crossridor.engine.options import C_INT, BoardKind, Param, board_shape
from crossridor.engine.registry import GameEntry, LazyOptions, register_game
from crossridor.games.quoridor.bounds import MAX_WALLS

BOARD = BoardKind((2, 9), (3, 9))       # columns x rows, two players (four: the odd squares)
PARAMS = (
    Param("size", BOARD, 9,
          "the board: N (N x N) or WxH (W columns, H rows; 4 players: 3, 5, 7 or 9)"),
    Param("players", (2, 4), 2, "number of players"),
    Param("walls", (int, 0, MAX_WALLS), None, "walls per player (default: 10 with 2 players, 5 with 4)"),
    Param("max_plies", (int, 1, C_INT), None, "a draw after this many moves (default: no limit)"),
)


def squares(size) -> int:
    w, h = board_shape(size)
    return w * h


def load(**params):
    from crossridor.games.quoridor.game import load as load_quoridor
    return load_quoridor(**params)


def search_options():
    from crossridor.games.quoridor.search_options import OPTIONS
    return OPTIONS


def outlook():
    from crossridor.games.quoridor.outlook import OUTLOOK
    return OUTLOOK


def picture(view, last_move=True, arrows=()):
    from crossridor.games.quoridor.svg import quoridor_svg
    return quoridor_svg(view, last_move=last_move, arrows=arrows)


def click_paths(move):
    from crossridor.games.quoridor.svg import click_paths as paths
    return paths(move)


def codec(game):
    from crossridor.games.quoridor.learning import Codec
    return Codec(game)


def observation_batch(states, players, out):
    from crossridor.games.quoridor.learning import observation_batch as batch
    return batch(states, players, out)


ENVIRONMENT = EnvDeclaration(
    game="quoridor", env_name="quoridor_v0", gym_id="crossridor/Quoridor-v0",
    # random play can wander for long; 2 * squares * players plies (324 on 9x9
    # with two players) is several times a real game's length
    max_plies=lambda params: 2 * squares(params["size"]) * params["players"],
    # Quoridor hides nothing: every viewer sees the whole board
    render_text=lambda state, viewer: str(state),
    observation_batch=observation_batch,
)

ENTRY = GameEntry(
    name="quoridor", load=load, params=PARAMS,
    doc="Quoridor: race a pawn across the board, walls block the way (2 players on boards 2x3 to 9x9, "
        "4 on odd squares)",
    options=LazyOptions(search_options, ("alphabeta", "greedy", "mcts")),
    rules_file="quoridor.md", picture=picture, click_paths=click_paths, codec=codec, environment=ENVIRONMENT,
    outlook=outlook,
)
register_game(ENTRY)
