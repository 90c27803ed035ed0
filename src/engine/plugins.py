"""A game that is not in the registry, named `module:function` by the user.

Data never names code: a game named by a records file, a PGN, a web request,
a UCI command, an RL spec or an openings file resolves only through the
registry (`registry.load_game`). A plug-in is accepted only where the user
types it: on the command line (`crossridor match mypkg.games:race`) or in a
Python call (`MatchConfig(game=PluginGame.parse("mypkg.games:race"), ...)`).
Its import happens in `load`, in the process that plays the game."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any

from crossridor.engine.errors import CrossridorError, UnknownGameError

_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


@dataclass(frozen=True)
class PluginGame:
    """`module:function`, a function that takes the game's parameters and
    returns a Game."""

    module: str
    function: str

    @classmethod
    def parse(cls, text: str) -> PluginGame:
        module, sep, function = str(text).partition(":")
        if not sep or not _DOTTED.match(module) or not _DOTTED.match(function):
            raise UnknownGameError(f"game {text!r}: a plug-in game is module:function (dotted names)")
        return cls(module, function)

    def load(self, params: dict):
        try:
            target: Any = importlib.import_module(self.module)
            for part in self.function.split("."):
                target = getattr(target, part)
        except (ImportError, AttributeError) as exc:
            raise CrossridorError(f"game {str(self)!r}: cannot import it ({exc})") from None
        return target(**params)

    def __str__(self) -> str:
        return f"{self.module}:{self.function}"


def is_plugin_name(name) -> bool:
    return isinstance(name, str) and ":" in name


def refuse_plugin_name(name, where: str) -> None:
    """UnknownGameError when data (`where`: "record", "PGN", ...) names a game
    as module:function."""
    if is_plugin_name(name):
        raise UnknownGameError(f"{where} names the game {str(name)[:80]!r}, a plug-in (module:function): "
                               f"data never names code; load it from the command line or Python")


def typed_game(name: str) -> str | PluginGame:
    """A game as the user typed it (command line, Python): `module:function`
    is a plug-in, anything else a registry name."""
    return PluginGame.parse(name) if is_plugin_name(name) else name
