"""Kreuz & Quer's entry in the registry: its parameters, its searches' own
options, its picture, its learning codec and its environments. Light: the
game is imported on first use."""

from __future__ import annotations

from crossridor.engine.environments import EnvDeclaration
from crossridor.engine.options import Param
from crossridor.engine.registry import GameEntry, LazyOptions, register_game

PARAMS = (
    Param("players", (int, 2, 4), 2, "number of players"),
    Param("races", (int, 1, 12), None,
          "races in a game (default: the number of players); a race scores 1 point per route card set aside"),
    Param("deck_seed", (int, 0, 2 ** 63), 0, "seed of the generated deck (28 route cards, 4 goals)"),
    Param("deck_file", str, None, "a deck file, in place of deck_seed's deck (not with deck_text)", file=True),
    Param("deck_text", str, None, "the text of a deck file, in place of deck_seed's deck (not with deck_file)"),
    Param("max_stages", (int, 1, 200), 20,
          "a race with no winner after this many stages ends, scored as usual [decision: every game ends]"),
    Param("chance", bool, False, "the route-card deal as chance nodes (for learning agents)"),
)


def load(**params):
    from crossridor.games.kreuzundquer.game import load as load_kreuzundquer
    return load_kreuzundquer(**params)


def search_options():
    from crossridor.games.kreuzundquer.search_options import OPTIONS
    return OPTIONS


def outlook():
    from crossridor.games.kreuzundquer.outlook import OUTLOOK
    return OUTLOOK


def picture(view, last_move=True, arrows=()):
    from crossridor.games.kreuzundquer.svg import kreuzundquer_svg
    return kreuzundquer_svg(view, last_move=last_move)    # no arrows on this picture


def click_paths(move):
    from crossridor.games.kreuzundquer.svg import click_paths as paths
    return paths(move)


def codec(game):
    from crossridor.games.kreuzundquer.learning import Codec
    return Codec(game)


# the game ends by itself (max_stages caps a race), so no ply cap; goals,
# flips and penalty draws are chance nodes drawn inside the environment
ENVIRONMENT = EnvDeclaration(game="kreuzundquer", env_name="kreuzundquer_v0", gym_id="crossridor/KreuzUndQuer-v0")

ENTRY = GameEntry(
    name="kreuzundquer", load=load, params=PARAMS, aliases=("kreuz_und_quer", "kreuz-und-quer", "kuq"),
    doc="Kreuz & Quer: build a route of cards, collect terrain to walk it, race to the goal (2 to 4 players)",
    options=LazyOptions(search_options, ("greedy", "ismcts")),
    rules_file="kreuzundquer.md", picture=picture, click_paths=click_paths, codec=codec, environment=ENVIRONMENT,
    outlook=outlook,
)
register_game(ENTRY)
