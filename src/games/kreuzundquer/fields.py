"""The fields of a Kreuz & Quer state (`state.KState`), declared once for
the classes it is made of: the position string (`position.PositionText`)
and the table (`table.TableView`) read them, `KState` sets them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


class KFields:
    game: Any                          # game.KreuzUndQuer
    phase: str                         # one of position.PHASES
    race: int
    stage: int
    tick: int
    turn: int
    hands: list[Any]                   # a tuple of route cards while building, then None
    route: list[list[int]]
    aside: list[list[int]]
    box: list[list[int]]
    goal: list[int]                    # a terrain per seat, -1 before it is drawn
    pos: list[int]
    pile: list[int]                    # the route draw pile (sorted)
    up: list[int]                      # face-up terrain cards, per terrain
    down: list[int]                    # face-down terrain cards, per terrain
    tp: list[list[int]]                # collected terrain piles, in order
    tk: list[list[bool]]               # per pile card: taken face up (public)
    pending: int                       # the flipped terrain, -1 when none
    stopper: int                       # the seat that stopped, -1 when none
    pts: list[int]
    log: list[str]                     # what happened at the last movement
    _hist: list[tuple[Any, tuple[Any, ...]]]   # (move, the state before it)

    if TYPE_CHECKING:
        def __init__(self, game: Any) -> None: ...

        @property
        def current_player(self) -> int: ...

        def collector(self) -> int: ...

        def pile_text(self, p: int, seen: bool = True) -> str: ...
