"""Crosswise whose deal and draws are chance nodes, for learning agents:
`load_game("crosswise", players=n, chance=True)`. The deal comes first,
tile by tile (seat 1's hand, then seat 2's, ...), then the starting seat;
after each move that draws, a chance node draws the tile (probability: its
count among the unseen tiles / the bag size). The chance outcomes are
`tile:X` (a tile dealt or drawn, X in 123456MRPS) and `start:S` (the seat
that moves first); the game's own state does the rest (`inner`)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from crossridor.engine.errors import CrossridorError, IllegalMoveError
from crossridor.engine.protocol import CHANCE, GameTraits, play_moves
from crossridor.engine.views import seat
from crossridor.games.crosswise import notation as nt
from crossridor.games.learning import LearningGame, LearningState

TILES = nt.TILE_CHARS


def _new_core():
    from crossridor.engine._core import CrosswiseCore
    return CrosswiseCore()


@dataclass(frozen=True, slots=True)
class Tile:
    """Chance outcome: a tile dealt or drawn (`tile:3`, `tile:M`)."""
    tile: int

    def __str__(self):
        return f"tile:{TILES[self.tile]}"

    __repr__ = __str__


@dataclass(frozen=True, slots=True)
class Start:
    """Chance outcome: who moves first, `player` an index; written as the
    seat (`start:1` for player index 0)."""
    player: int

    def __str__(self):
        return f"start:{seat(self.player)}"

    __repr__ = __str__


def parse_chance(text):
    t = text.strip().lower()
    if t.startswith("tile:") and len(t) == 6 and t[5].upper() in TILES:
        return Tile(TILES.index(t[5].upper()))
    if t.startswith("start:") and t[6:].isdigit() and 1 <= int(t[6:]) <= 4:
        return Start(int(t[6:]) - 1)
    return None


class ChanceCrosswise(LearningGame):
    """Crosswise whose deal and draws are chance nodes (the module's doc)."""

    name = "crosswise"

    def __init__(self, base):
        # base: the CrosswiseGame of as many players, which plays once dealt
        self.players = players = base.players
        self.base = base
        self.params = {"players": players, "chance": True}
        t = self.base.traits
        self.traits = GameTraits(t.name, t.num_players, chance=True, hidden_information=True,
                                 zero_sum=t.zero_sum, min_return=t.min_return,
                                 max_return=t.max_return, teams=t.teams)

    def __repr__(self) -> str:
        return f"load_game('crosswise', players={self.players}, chance=True)"

    def team_of(self, seat: int) -> int:
        return self.base.team_of(seat)

    def hand_size(self, seat: int) -> int:
        return 6 if (self.players == 3 and seat == 1) else 4

    def new_state(self, moves=None, seed=None) -> "ChanceCrosswiseState":
        """The start: the deal's first chance node. `moves` (chance outcomes
        included, e.g. "tile:3; tile:M; ...") are played in order; `seed` is
        unused (the chance nodes replace it)."""
        return play_moves(ChanceCrosswiseState(self), moves, sep=";")

    def state_from_position(self, position: str, seed: int = 0) -> "ChanceCrosswiseState":
        st = ChanceCrosswiseState(self)
        st.inner = self.base.state_from_position(position, seed)
        return st


class ChanceCrosswiseState(LearningState):
    def __init__(self, game: ChanceCrosswise):
        self.game = game
        self.inner: Any = None                   # a CrosswiseState once dealt
        self.dealt = [[0] * 10 for _ in range(game.players)]
        self.pending: nt.CrosswiseMove | None = None     # a move waiting for its draw
        self.log: list[tuple[int, int, list]] = []     # (code, mover, hands after)
        self.first_hands: list[list[int]] | None = None
        self._undo: list[tuple] = []

    # -- dealing
    def _dealing_seat(self) -> int | None:
        for p in range(self.game.players):
            if sum(self.dealt[p]) < self.game.hand_size(p):
                return p
        return None

    def _unseen(self) -> list[int]:
        """Tiles not on the board, in no hand, not played: the bag's contents."""
        left = list(nt.TOTAL)
        if self.inner is None:
            hands = self.dealt
            board: list[int] = []
            played = [0] * 4
        else:
            c = self.inner._c
            hands = [c.hand(p) for p in range(self.game.players)]
            board, played = [x for x in c.board() if x >= 0], c.played()
        for h in hands:
            for t in range(10):
                left[t] -= h[t]
        for x in board:
            left[x] -= 1
        for i in range(4):
            left[6 + i] -= played[i]
        return left

    # -- protocol
    @property
    def current_player(self) -> int:
        if self.inner is None or self.pending is not None:
            return CHANCE
        return self.inner.current_player

    def is_terminal(self) -> bool:
        return self.inner is not None and self.pending is None and self.inner.is_terminal()

    def returns(self) -> list[float]:
        return self.inner.returns() if self.is_terminal() else [0.0] * self.game.players

    def chance_outcomes(self) -> list:
        if self.inner is None and self._dealing_seat() is None:
            n = self.game.players
            return [(Start(s), 1.0 / n) for s in range(n)]
        if self.inner is None or self.pending is not None:
            left = self._unseen()
            total = sum(left)
            return [(Tile(t), left[t] / total) for t in range(10) if left[t]]
        return []

    def legal_moves(self) -> list:
        if self.is_chance_node():
            return [m for m, _ in self.chance_outcomes()]
        return self.inner.legal_moves()

    def parse_move(self, text):
        if self.is_chance_node():
            mv = parse_chance(text) if isinstance(text, str) else text
            if mv not in [m for m, _ in self.chance_outcomes()]:
                raise IllegalMoveError(f"crosswise: {text!s} is not a chance outcome here "
                                       f"(expected one of {', '.join(str(m) for m, _ in self.chance_outcomes())})")
            return mv
        if self.inner is None or self.is_terminal():
            raise IllegalMoveError(f"crosswise: {text!s} is not legal here (the game is over)")
        return self.inner.parse_move(text)

    def play(self, move) -> None:
        mv = self.parse_move(move) if isinstance(move, str) or self.is_chance_node() else move
        self._undo.append(self._snapshot())
        if self.inner is None:
            if isinstance(mv, Start):
                self._start(mv.player)
            else:
                seat = self._dealing_seat()
                assert seat is not None         # the deal's chance nodes end when every hand is full
                self.dealt[seat][mv.tile] += 1
            return
        if self.pending is not None:
            self._draw(mv.tile)
            return
        if isinstance(mv, str) or not isinstance(mv, nt.CrosswiseMove):
            mv = self.inner.parse_move(str(mv))
        probe = self.inner.clone()
        probe.play(mv)
        if probe._c.bag_count < self.inner._c.bag_count:
            self.pending = mv                    # the draw is the next (chance) node
        else:
            self._commit(mv)

    def _start(self, seat: int) -> None:
        n = self.game.players
        core = _new_core()
        bag = [t for t in range(10) for _ in range(self._unseen()[t])]
        core.setup(n, [-1] * 36, self.dealt, [[0] * 10 for _ in range(n)], bag, [0] * 4,
                   core._cycle(n).index(seat), 0)
        self.inner = self.game.base.state_from_core(core)
        self.first_hands = [list(h) for h in self.dealt]

    def _draw(self, tile: int) -> None:
        """Play the pending move with `tile` on top of the bag."""
        c = self.inner._c
        n = self.game.players
        bag = c.bag()
        bag.remove(tile)
        core = _new_core()
        core.setup(n, c.board(), [c.hand(p) for p in range(n)], [c.known(p) for p in range(n)],
                   [tile] + bag, c.played(), c.slot, c.passes)
        self.inner = self.game.base.state_from_core(core)
        mv, self.pending = self.pending, None
        self._commit(mv)

    def _commit(self, mv) -> None:
        mover = self.inner.current_player
        self.inner.play(mv)
        c = self.inner._c
        self.log.append((mv.code, mover, [c.hand(p) for p in range(self.game.players)]))

    def _snapshot(self):
        return (None if self.inner is None else self.inner.clone(), [list(h) for h in self.dealt],
                self.pending, len(self.log), self.first_hands)

    def undo(self) -> None:
        if not self._undo:
            raise IndexError("crosswise: no move to undo")
        inner, self.dealt, self.pending, k, self.first_hands = self._undo.pop()
        self.inner = inner
        del self.log[k:]

    def clone(self) -> "ChanceCrosswiseState":
        st = ChanceCrosswiseState(self.game)
        st.inner = None if self.inner is None else self.inner.clone()
        st.dealt = [list(h) for h in self.dealt]
        st.pending = self.pending
        st.log = list(self.log)
        st.first_hands = self.first_hands
        st._undo = list(self._undo)
        return st

    def evaluate(self) -> list[float]:
        return self.inner.evaluate() if self.inner is not None else [0.0] * self.game.players

    # -- hidden information
    def information_state(self, player: int) -> str:
        """The seat's view (`position(viewer=player)` of the game) while
        dealing / playing, plus the pending move (public) before a draw."""
        self._check(player)
        if self.inner is None:
            hands = ",".join(nt._tiles_text(h) if p == player else f"?{sum(h)}"
                             for p, h in enumerate(self.dealt))
            return f"{'/'.join(['......'] * 6)} - {hands} ?{sum(self._unseen())} - 0"
        view = self.inner.information_state(player)
        return view if self.pending is None else f"{view} | {self.pending}"

    def _check(self, player):
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.game.players:
            raise CrossridorError(f"crosswise: no player index {player!r} in a {self.game.players}-player game "
                                  f"(0..{self.game.players - 1}, seat - 1)")
        return True

    def sample_determinization(self, player: int, rng: random.Random):
        if self.inner is None or self.pending is not None:
            raise CrossridorError("crosswise: determinize at a player's turn, not at a chance node")
        return self.inner.sample_determinization(player, rng)

    def move_log(self, player: int):
        first = None if self.first_hands is None else self.first_hands[player]
        return first, [(code, mover, hands[player]) for code, mover, hands in self.log]

    def position(self, viewer: int | None = None) -> str:
        """The game's position string, once the deal is complete and no draw
        is pending (a position string cannot hold a half-made move)."""
        if self.inner is None or self.pending is not None:
            what = "dealing" if self.inner is None else f"drawing after {self.pending}"
            raise CrossridorError(f"crosswise: no position string while {what}; play the chance "
                                  f"outcomes ({', '.join(str(m) for m in self.legal_moves())}) first")
        return self.inner.position(viewer)

    def render(self, viewer: int | None = None) -> str:
        if viewer is not None:
            self._check(viewer)
        if self.inner is None:
            hands = "; ".join(f"seat {seat(p)}: "
                              + (nt._tiles_text(h) if viewer in (None, p) else f"{sum(h)} hidden tiles")
                              for p, h in enumerate(self.dealt))
            return f"dealing (chance): {hands}"
        text = self.inner.render(viewer)
        return text + (f"\npending: {self.pending}, then a draw (chance)" if self.pending else "")

    def __str__(self) -> str:
        return self.render()
