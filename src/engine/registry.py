"""Games registered by name. A game module exposes `load(**params) -> Game`
and validates its own parameters (raising UnknownGameError on a bad one)."""

from __future__ import annotations

import importlib

from .errors import UnknownGameError

# name -> module; modules are imported on first use so that a pure-Python
# game does not need the compiled core.
GAMES = {
    "quoridor": "crossridor.games.quoridor",
    "crosswise": "crossridor.games.crosswise",
    "qwatrobat": "crossridor.games.qwatrobat",
    "kreuzundquer": "crossridor.games.kreuz_und_quer",
}
ALIASES = {"kreuz_und_quer": "kreuzundquer", "kreuz-und-quer": "kreuzundquer", "kuq": "kreuzundquer"}


def game_names() -> list[str]:
    return sorted(GAMES)


def load_game(name: str, **params):
    """`load_game("quoridor", size=7, players=4)` -> a Game."""
    key = str(name).lower()
    key = ALIASES.get(key, key)
    if key not in GAMES:
        raise UnknownGameError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    module = importlib.import_module(GAMES[key])
    return module.load(**params)
