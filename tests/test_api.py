"""The public API (`import crossridor`): what it exports, and that every
exported function and value type is fully annotated (the package ships
py.typed, so a type checker takes these hints as the truth)."""

from __future__ import annotations

import dataclasses
import inspect
import typing
from importlib import resources

import crossridor


def test_exports():
    assert isinstance(crossridor.__version__, str) and crossridor.__version__.count(".") == 2
    for name in ("load_game", "search", "Limits", "SearchResult", "GameTraits", "CrossridorError",
                 "InvalidMoveError", "IllegalMoveError", "InvalidPositionError", "UnknownGameError",
                 "UnsupportedGameError", "game_names", "algorithm_names", "Clock"):
        assert name in crossridor.__all__ and hasattr(crossridor, name)
    for name in ("InvalidMoveError", "IllegalMoveError", "InvalidPositionError", "UnknownGameError",
                 "UnsupportedGameError"):
        assert issubclass(getattr(crossridor, name), crossridor.CrossridorError)
    assert issubclass(crossridor.CrossridorError, ValueError)
    assert resources.files("crossridor").joinpath("py.typed").is_file()


def test_public_functions_are_annotated():
    for name in ("load_game", "search", "game_names", "algorithm_names"):
        func = getattr(crossridor, name)
        hints = typing.get_type_hints(func)
        params = [p for p in inspect.signature(func).parameters]
        assert "return" in hints, name
        assert all(p in hints for p in params), (name, [p for p in params if p not in hints])
    assert typing.get_type_hints(crossridor.search)["return"] is crossridor.SearchResult
    assert typing.get_type_hints(crossridor.load_game)["return"] is crossridor.engine.protocol.Game


def test_value_types_are_annotated():
    for cls in (crossridor.Limits, crossridor.SearchResult, crossridor.GameTraits):
        hints = typing.get_type_hints(cls)
        assert all(f.name in hints for f in dataclasses.fields(cls)), cls
    assert "return" in typing.get_type_hints(crossridor.SearchResult.as_dict)
