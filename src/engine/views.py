"""What one seat may see: the one filter of hidden information, used by
every output path (`crossridor show --viewer`, `crossridor play`; a web page
or a JSON response should call the same functions).

Seats are 0-based here, as in the Python API (`state.current_player`); the
command line and every printed text number them from 1."""

from __future__ import annotations


def seat_view(state, seat: int | None) -> str:
    """The position as `seat` may see it (None: everything, for a game
    without hidden information or a referee)."""
    render = getattr(state, "render", None)
    if seat is None or render is None or not state.game.traits.hidden_information:
        return str(state)
    return render(seat)


def move_view(state, move, seat: int | None) -> str:
    """How `seat` sees `move` being played in `state` (before it is played):
    another player's secret choice is not shown."""
    text = getattr(state, "move_text", None)
    if seat is None or text is None or not state.game.traits.hidden_information:
        return str(move)
    return text(move, seat)
