"""What one seat may see, and how seats are counted at the doors.

`seat_view`/`move_view`: the one filter of hidden information, used by every
output path (`crossridor show --viewer`, `crossridor play`, the web app).

Seats: everything crossridor shows or returns at a door (CLI text and JSON,
records, PGN, the web app, result objects, the RL environments) numbers
seats 1..n; the game protocol (`state.current_player`, `returns()[i]`,
`view(viewer)`, `information_state(player)`) uses player indices 0..n-1, as
OpenSpiel does. Player index = seat - 1 (docs/notation.md, "Seats"). Every
door converts with `seat`, `player_index` and `view_in_seats`."""

from __future__ import annotations

from typing import Any

from crossridor.engine.errors import CrossridorError
from crossridor.engine.protocol import SPECTATOR


def seat(index: int | None) -> int | None:
    """The seat (1..n) of player index `index`; None for None or a negative
    index (CHANCE, TERMINAL: nobody's seat)."""
    return None if index is None or index < 0 else index + 1


def player_index(value: Any, num_players: int, what: str = "the seat") -> int:
    """The player index of seat `value` (an integer 1..num_players), or
    CrossridorError naming `what` and the seats there are."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= num_players:
        raise CrossridorError(f"{what} must be a seat 1..{num_players}, got {str(value)[:40]}")
    return value - 1


# The keys of a `state.view()` whose values are player indices (anywhere in
# it: a hand's "seat", the last move's "player"); lists per player are in
# seat order and need nothing.
PLAYER_KEYS = frozenset({"viewer", "to_move", "winner", "first", "seat", "player"})


def view_in_seats(view: Any) -> Any:
    """`state.view(...)` as a door shows it: every player index under a key
    of PLAYER_KEYS a seat (1..n), a SPECTATOR viewer "spectator"."""
    if isinstance(view, list):
        return [view_in_seats(v) for v in view]
    if not isinstance(view, dict):
        return view
    out = {}
    for key, value in view.items():
        if key in PLAYER_KEYS and isinstance(value, int) and not isinstance(value, bool):
            out[key] = "spectator" if key == "viewer" and value == SPECTATOR else seat(value)
        else:
            out[key] = view_in_seats(value)
    return out


def seat_view(state, viewer: int | None) -> str:
    """The position as player index `viewer` may see it (None: everything,
    for a game without hidden information or a referee)."""
    render = getattr(state, "render", None)
    if viewer is None or render is None or not state.game.traits.hidden_information:
        return str(state)
    return render(viewer)


def move_view(state, move, viewer: int | None) -> str:
    """How player index `viewer` sees `move` being played in `state` (before
    it is played): another player's secret choice is not shown."""
    text = getattr(state, "move_text", None)
    if viewer is None or text is None or not state.game.traits.hidden_information:
        return str(move)
    return text(move, viewer)
