"""Games registered by name. A game module exposes `load(**params) -> Game`
and validates its own parameters (raising UnknownGameError on a bad one)."""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import Iterator
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from crossridor.engine.errors import CrossridorError, UnknownGameError
from crossridor.engine.options import Param
from crossridor.engine.protocol import Game

# name -> module; modules are imported on first use so that a pure-Python
# game does not need the compiled core.
GAMES = {
    "quoridor": "crossridor.games.quoridor.game",
    "crosswise": "crossridor.games.crosswise.game",
    "qwatrobat": "crossridor.games.qwatrobat.game",
    "kreuzundquer": "crossridor.games.kreuzundquer.game",
}
ALIASES = {"kreuz_und_quer": "kreuzundquer", "kreuz-und-quer": "kreuzundquer", "kuq": "kreuzundquer"}
# name -> its rules file: docs/rules/<file> in the repository, installed as
# crossridor/rules/<file>
RULES_FILES = {
    "quoridor": "quoridor.md",
    "crosswise": "crosswise.md",
    "qwatrobat": "qwatrobat.md",
    "kreuzundquer": "kreuzundquer.md",
}


def game_names() -> list[str]:
    return sorted(GAMES)


def game_key(name: str) -> str:
    """The registered name of a game name or alias; UnknownGameError if none."""
    key = str(name).lower()
    key = ALIASES.get(key, key)
    if key not in GAMES:
        raise UnknownGameError(f"unknown game {name!r} (known: {', '.join(game_names())})")
    return key


def algorithm_options(game_name: str, algorithm: str) -> tuple[Param, ...]:
    """The options `algorithm` takes on a registered game, declared once: the
    game's own (`crossridor.games.<game>.search_options.OPTIONS[algorithm]`,
    for its fast path) where it declares them, else the algorithm module's
    `OPTIONS`. UnknownGameError for a game that is not registered,
    CrossridorError for an unknown algorithm."""
    from crossridor.engine.search_api import module_options
    key = game_key(game_name)
    package = GAMES[key].rsplit(".", 1)[0]
    own: dict[str, tuple[Param, ...]] = importlib.import_module(package + ".search_options").OPTIONS
    if algorithm in own:
        return own[algorithm]
    return module_options(algorithm)


def _rules_folders() -> Iterator[Traversable]:
    # a source checkout (an editable install): docs/rules itself, always current
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file():
        yield checkout / "docs" / "rules"
    # the installed package: CMakeLists.txt installs docs/rules as crossridor/rules
    yield importlib.resources.files("crossridor").joinpath("rules")


def rules_text(name: str) -> str:
    """The rules of a game as this project implements them (Markdown)."""
    key = game_key(name)
    for folder in _rules_folders():
        try:
            return folder.joinpath(RULES_FILES[key]).read_text(encoding="utf-8")
        except OSError:
            continue
    raise CrossridorError(f"no rules file for {name} ({RULES_FILES[key]} is not installed)")


def load_game(name: str, **params: Any) -> Game:
    """`load_game("quoridor", size=7, players=4)` -> a Game. A bad option
    raises UnknownGameError naming it."""
    key = game_key(name)
    module = importlib.import_module(GAMES[key])
    game: Game = module.load(**params)
    return game
