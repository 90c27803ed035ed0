"""crossridor: a game-AI engine for Quoridor, Crosswise, Qwatrobat and
Kreuz & Quer.

    >>> import engine
    >>> game = engine.load_game("quoridor", size=9, players=2)
    >>> state = game.new_state("e2 e8")
    >>> result = engine.search(state, limits=engine.Limits(depth=2))
"""

from .errors import (CrossridorError, IllegalMoveError, InvalidMoveError, InvalidPositionError,
                     UnknownGameError, UnsupportedGameError)
from .protocol import CHANCE, TERMINAL, GameTraits, Limits, SearchResult
from .registry import game_names, load_game
from .search_api import algorithm_names, search

__all__ = [
    "CHANCE", "TERMINAL", "CrossridorError", "GameTraits", "IllegalMoveError", "InvalidMoveError",
    "InvalidPositionError", "Limits", "SearchResult", "UnknownGameError", "UnsupportedGameError",
    "algorithm_names", "game_names", "load_game", "search",
]
__version__ = "0.1.0"
