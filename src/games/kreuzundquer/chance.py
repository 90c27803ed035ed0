"""Kreuz & Quer whose route-card deal is made of chance nodes, for learning
agents: `load_game("kreuzundquer", chance=True, ...)`. Card by card, seat
0's hand first, each undealt card equally likely (`deal:17`); once dealt,
the game's own state plays on (`inner`), to which everything is delegated."""

from __future__ import annotations

from dataclasses import dataclass

from crossridor.engine.errors import CrossridorError, IllegalMoveError
from crossridor.engine.protocol import CHANCE
from crossridor.games.kreuzundquer.state import KState
from crossridor.games.learning import LearningGame, LearningState


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance outcome: route card `card` is dealt (`deal:17`)."""
    card: int

    @staticmethod
    def parse(text):
        if isinstance(text, Deal):
            return text
        if isinstance(text, str) and text.strip().lower().startswith("deal:") and text.strip()[5:].isdigit():
            return Deal(int(text.strip()[5:]))
        return None

    def __str__(self):
        return f"deal:{self.card}"

    __repr__ = __str__


class ChanceKreuzUndQuer(LearningGame):
    """Kreuz & Quer whose route-card deal is made of chance nodes:
    `load_game("kreuzundquer", chance=True, ...)`."""

    name = "kreuzundquer"

    def __init__(self, base):
        self.base = base            # the game with the same options, which plays once dealt
        self.params = dict(self.base.params, chance=True)
        self.traits = self.base.traits
        self.n, self.deal, self.ncards = self.base.n, self.base.deal, self.base.ncards

    def __getattr__(self, name):        # races, max_stages, deck, track, ...
        return getattr(self.__dict__["base"], name)

    def __repr__(self) -> str:
        return repr(self.base)[:-1] + ", chance=True)"

    def new_state(self, moves=None, seed=None) -> "ChanceKState":
        """The start, a chance node dealing the first card (`seed` unused)."""
        st = ChanceKState(self)
        if moves:
            for m in (moves.split() if isinstance(moves, str) else moves):
                st.play(m)
        return st

    def state_from_position(self, position: str) -> "ChanceKState":
        st = ChanceKState(self)
        st.inner = self.base.state_from_position(position)
        return st


class ChanceKState(LearningState):
    """While dealing: the cards dealt so far; then the game's own state
    (`inner`), to which everything is delegated."""

    def __init__(self, game: ChanceKreuzUndQuer):
        self.game = game
        self.dealt: list[list[int]] = [[] for _ in range(game.n)]
        self.inner: KState | None = None

    def __getattr__(self, name):
        inner = self.__dict__.get("inner")
        if inner is None:
            raise AttributeError(f"{name!r}: the route cards are being dealt")
        return getattr(inner, name)

    @property
    def current_player(self) -> int:
        return CHANCE if self.inner is None else self.inner.current_player

    def is_terminal(self) -> bool:
        return self.inner is not None and self.inner.is_terminal()

    def returns(self) -> list:
        return [0.0] * self.game.n if self.inner is None else self.inner.returns()

    def chance_outcomes(self) -> list:
        if self.inner is not None:
            return self.inner.chance_outcomes()
        used = {c for h in self.dealt for c in h}
        left = [c for c in range(1, self.game.ncards + 1) if c not in used]
        return [(Deal(c), 1.0 / len(left)) for c in left]

    def legal_moves(self) -> list:
        if self.inner is not None:
            return self.inner.legal_moves()
        return [m for m, _ in self.chance_outcomes()]

    def parse_move(self, text):
        if self.inner is not None:
            return self.inner.parse_move(text)
        mv = Deal.parse(text)
        if mv is None or mv not in self.legal_moves():
            raise IllegalMoveError(f"kreuzundquer: {text!s}: the route cards are being dealt "
                                   f"(expected deal:<an undealt card number>)")
        return mv

    def play(self, move) -> None:
        if self.inner is not None:
            self.inner.play(move)
            return
        mv = self.parse_move(move)
        seat = next(p for p in range(self.game.n) if len(self.dealt[p]) < self.game.deal)
        self.dealt[seat].append(mv.card)
        if len(self.dealt[-1]) == self.game.deal:
            self.inner = self._build(self.dealt)

    def _build(self, hands) -> KState:
        st = KState(self.game.base)
        used = {c for h in hands for c in h}
        st.hands = [tuple(sorted(h)) for h in hands]
        st.pile = [c for c in range(1, self.game.ncards + 1) if c not in used]
        return st

    def dealing_view(self) -> KState:
        """A state in the build phase holding the cards dealt so far, whose
        information_state(player) is that player's view of the deal."""
        return self._build(self.dealt)

    def undo(self) -> None:
        if self.inner is not None and self.inner.history:
            self.inner.undo()
            return
        if self.inner is not None:
            self.inner = None
        seat = max((p for p in range(self.game.n) if self.dealt[p]), default=None)
        if seat is None:
            raise IndexError("kreuzundquer: no move to undo")
        self.dealt[seat].pop()

    def clone(self) -> "ChanceKState":
        st = ChanceKState(self.game)
        st.dealt = [list(h) for h in self.dealt]
        st.inner = None if self.inner is None else self.inner.clone()
        return st

    def information_state(self, player: int) -> str:
        return (self.dealing_view() if self.inner is None else self.inner).information_state(player)

    def sample_determinization(self, player: int, rng):
        if self.inner is None:
            raise CrossridorError("kreuzundquer: determinize after the deal")
        return self.inner.sample_determinization(player, rng)

    def position(self) -> str:
        if self.inner is None:
            raise CrossridorError("kreuzundquer: no position string while the route cards are dealt")
        return self.inner.position()

    def render(self, viewer=None, full: bool = False) -> str:
        if self.inner is not None:
            return self.inner.render(viewer, full)
        lines = self.dealing_view().render(viewer, full).splitlines()[:-1]
        return "\n".join(lines + ["to move: chance (the route-card deal)"])

    def __str__(self) -> str:
        return self.render(None, full=True)
