"""Qwatrobat's entry in the registry: its parameters, its searches' own
options, its picture, its learning codec and its environments. Light: the
game is imported on first use."""

from __future__ import annotations

from crossridor.engine.environments import EnvDeclaration
from crossridor.engine.options import Param
from crossridor.engine.registry import GameEntry, LazyOptions, register_game

PARAMS = (
    Param("open", bool, False,
          "all cards face up once both layouts are down (perfect information after the setup; the exact "
          "solver needs it)"),
    Param("clear_four", bool, True,
          "a round that leaves 4 cards (5 with 10 cards) resolves, then clears the battlefield"),
    Param("last_round_points", (5, 6), 6, "points of the last round (5: the seed's variant)"),
    Param("cards", (8, 10), 8,
          "8 cards (values 1-4, 4 rounds) or 10 (values 1-5, 5 rounds: points 2 3 4 5, then the last round's)"),
    Param("first", (1, 2), None, "the seat that starts (default: drawn at random, a chance node)"),
)


def load(**params):
    from crossridor.games.qwatrobat.game import load as load_qwatrobat
    return load_qwatrobat(**params)


def search_options():
    from crossridor.games.qwatrobat.search_options import OPTIONS
    return OPTIONS


def outlook():
    from crossridor.games.qwatrobat.outlook import OUTLOOK
    return OUTLOOK


def picture(view, last_move=True, arrows=()):
    from crossridor.games.qwatrobat.svg import qwatrobat_svg
    return qwatrobat_svg(view, last_move=last_move)       # no arrows on this picture


def click_paths(move):
    from crossridor.games.qwatrobat.svg import click_paths as paths
    return paths(move)


def codec(game):
    from crossridor.games.qwatrobat.learning import Codec
    return Codec(game)


# a game has a fixed length, so no ply cap; the first-player draw is a
# chance node, drawn inside the environment
ENVIRONMENT = EnvDeclaration(
    game="qwatrobat", env_name="qwatrobat_v0", gym_id="crossridor/Qwatrobat-v0",
    # the battlefield planes count up to two cards of a value per seat
    observation_high=2.0,
)

ENTRY = GameEntry(
    name="qwatrobat", load=load, params=PARAMS,
    doc="Qwatrobat: a two-player card battle over secret layouts, four rounds of pushes",
    options=LazyOptions(search_options, ("alphabeta", "greedy", "ismcts")),
    rules_file="qwatrobat.md", picture=picture, click_paths=click_paths, codec=codec, environment=ENVIRONMENT,
    outlook=outlook,
)
register_game(ENTRY)
