"""Crosswise's entry in the registry: its parameters, its searches' own
options, its picture, its learning codec and its environments. Light: the
game and its compiled core are imported on first use."""

from __future__ import annotations

from crossridor.engine.environments import EnvDeclaration
from crossridor.engine.options import Param
from crossridor.engine.registry import GameEntry, LazyOptions, register_game

PARAMS = (
    Param("players", (2, 3, 4), 2, "number of players (teams Rows and Columns; with 3, seat 2 plays alone)"),
    Param("chance", bool, False, "the deal and the draws as chance nodes (for learning agents)"),
)


def load(**params):
    from crossridor.games.crosswise.game import load as load_crosswise
    return load_crosswise(**params)


def search_options():
    from crossridor.games.crosswise.search_options import OPTIONS
    return OPTIONS


def outlook():
    from crossridor.games.crosswise.outlook import OUTLOOK
    return OUTLOOK


def picture(view, last_move=True, arrows=()):
    from crossridor.games.crosswise.svg import crosswise_svg
    return crosswise_svg(view, last_move=last_move, arrows=arrows)


def click_paths(move):
    from crossridor.games.crosswise.svg import click_paths as paths
    return paths(move)


def codec(game):
    from crossridor.games.crosswise.learning import Codec
    return Codec(game)


# a game always ends (the board fills or everyone passes): no ply cap
ENVIRONMENT = EnvDeclaration(game="crosswise", env_name="crosswise_v0", gym_id="crossridor/Crosswise-v0")

ENTRY = GameEntry(
    name="crosswise", load=load, params=PARAMS,
    doc="Crosswise: two teams lay symbol tiles in rows and columns from hidden hands (2 to 4 players)",
    options=LazyOptions(search_options, ("ismcts", "greedy", "random")),
    rules_file="crosswise.md", picture=picture, click_paths=click_paths, codec=codec, environment=ENVIRONMENT,
    outlook=outlook,
)
register_game(ENTRY)
