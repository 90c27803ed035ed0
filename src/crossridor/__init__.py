"""crossridor: a game-AI engine for Quoridor, Crosswise, Qwatrobat and
Kreuz & Quer.

    >>> import crossridor
    >>> game = crossridor.load_game("quoridor", size=9, players=2)
    >>> state = game.new_state("e2 e8")
    >>> result = crossridor.search(state, limits=crossridor.Limits(depth=2))

The public API is what this module exports. `crossridor.engine` holds the
compiled core, the searches, the match runner and the CLI; `crossridor.games`
one package per game. Every game and algorithm is known by name to one
registry (`crossridor.engine.registry`); `register_game(GameEntry(...))`
and `register_algorithm(AlgorithmEntry(...))` add yours. The rules each game implements are in the project's
`docs/rules/`, and `crossridor rules GAME` prints them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

# the engine's algorithms and the four games register themselves
import crossridor.engine.algorithms.catalog  # noqa: E402,F401,I001
import crossridor.games  # noqa: E402,F401
from crossridor.engine.errors import (
    CrossridorError,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    UnknownGameError,
    UnsupportedGameError,
)
from crossridor.engine.options import Param
from crossridor.engine.protocol import CHANCE, TERMINAL, Clock, GameTraits, Limits, SearchResult, State
from crossridor.engine.registry import (
    AlgorithmEntry,
    GameEntry,
    algorithm_names,
    game_names,
    load_game,
    register_algorithm,
    register_game,
)
from crossridor.engine.search_api import search
from crossridor.engine.stop import Stop
from crossridor.engine.stop import stop_all as stop

if TYPE_CHECKING:
    from crossridor.games.quoridor.solve import SolveResult

__all__ = [
    "CHANCE", "TERMINAL", "AlgorithmEntry", "Clock", "CrossridorError", "GameEntry", "GameTraits",
    "IllegalMoveError", "InvalidMoveError", "InvalidPositionError", "Limits", "Param", "SearchResult", "Stop",
    "UnknownGameError", "UnsupportedGameError", "__version__", "algorithm_names", "game_names", "load_game",
    "register_algorithm", "register_game", "search", "solve", "stop",
]
__version__ = "0.2.0"


def solve(state: State, memory_gb: float | None = None, stop: Stop | None = None) -> SolveResult:
    """The exact value of a two-player Quoridor position with perfect play
    (crossridor.games.quoridor.solve: winner, plies, the winning first
    moves, nodes, seconds, memory). Imported on first use: it loads the game."""
    from crossridor.games.quoridor.solve import solve as solve_position
    return solve_position(state, memory_gb=memory_gb, stop=stop)
