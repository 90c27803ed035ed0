"""Who sits where in each game of a match (seats rotate every game of a round),
and the openings the games start from (a file, or seeded random moves)."""

from __future__ import annotations

import random

from crossridor.engine.errors import CrossridorError
from crossridor.engine.files import read_text_file
from crossridor.engine.match.game_loop import new_game_state

# --- seating and openings -----------------------------------------------------------

def base_seating(num_players: int, num_engines: int) -> tuple:
    """Engine index per seat in the first game of a round."""
    if num_engines == num_players or (num_engines == 2 and num_players > 2):
        return tuple(seat % num_engines for seat in range(num_players))
    want = "2" if num_players == 2 else f"2 or {num_players}"
    raise CrossridorError(f"a {num_players}-player game needs {want} engines, got {num_engines}")


def seating(base: tuple, rotation: int) -> tuple:
    return base[rotation:] + base[:rotation]


def distinct_seatings(base: tuple) -> int:
    """How many rotations of `base` differ: a round's games. Two engines at
    four seats (A B A B) have two; a third and fourth rotation would replay the
    first two games."""
    return next(r for r in range(1, len(base) + 1) if seating(base, r) == base)


def parse_openings(text: str, source: str = "openings") -> list:
    """One move list per line; blank lines and `#` comments are skipped."""
    openings = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            openings.append(tuple(line.replace(",", " ").split()))
    return openings


def read_openings(path: str) -> list:
    return parse_openings(read_text_file(path, "openings file"), path)


def _brief(opening, shown: int = 8) -> str:
    """An opening for a one-line message: its first moves and its length."""
    head = " ".join(opening[:shown])
    return repr(head) if len(opening) <= shown else f"'{head} ...' ({len(opening)} plies)"


def random_opening(game, plies: int, seed: int, deal_seed: int | None = None) -> tuple:
    """`plies` seeded random legal moves that do not end the game."""
    rng = random.Random(seed)
    for _ in range(100):
        state = new_game_state(game, (), deal_seed)
        moves: list = []
        while len(moves) < plies and not state.is_terminal():
            move = rng.choice(list(state.legal_moves()))
            state.play(move)
            moves.append(str(move))
        if not state.is_terminal():
            return tuple(moves)
    raise CrossridorError(f"cannot find a random opening of {plies} plies that does not end the game")
